"""Significance flags: what kind of words a change touched."""

from __future__ import annotations

import pytest

from lawdiff.align import Aspect, Method
from lawdiff.corpus import Corpus
from lawdiff.diff import Change, ChangeKind, Comparison, RefChange, compare, word_diff
from lawdiff.diff.editorial import TERMINOLOGY, lexicon
from lawdiff.diff.significance import WORD_LISTS, Flag, Signal, flags, normative, significance
from lawdiff.diff.vocabulary import Piece, RefStatus
from lawdiff.model import Clause, Edition, Kind, Loc, references_in


def change(
    old: str,
    new: str,
    references: tuple[RefChange, ...] = (),
    old_at: str = "1(a)",
    new_at: str = "1(a)",
    pieces: tuple[Piece, ...] | None = None,
) -> Change:
    """A modified clause from two hand-made texts (``pieces``: their word difference, when given)."""
    return Change(
        kind=ChangeKind.MODIFIED,
        aspect=Aspect.TEXT,
        old=(old_at,),
        new=(new_at,),
        article="1",
        renumbered=old_at != new_at,
        moved=False,
        title_changed=False,
        old_title="",
        new_title="",
        similarity=0.5,
        editorial_only=False,
        diff=word_diff(old, new) if pieces is None else pieces,
        references=references,
        score=1.0,
        uncertain=False,
        methods=(Method.PAIR,),
        reasons=(),
        old_texts=(old,),
        new_texts=(new,),
        counterpart_in_corpus=True,
    )


def by_flag(signals: tuple[Signal, ...]) -> dict[Flag, Signal]:
    return {s.flag: s for s in signals}


# ---------------------------------------------------------------------------
# Each flag on small texts


@pytest.mark.parametrize(
    ("old", "new", "removed", "added"),
    [
        ("De leider moet een kaart spelen.", "De leider dient een kaart te spelen.", ("moet",), ("dient",)),
        ("De leider moet een kaart spelen.", "De leider mag een kaart spelen.", ("moet",), ("mag",)),
        ("Spelers kunnen een kaart terugnemen.", "Spelers mogen een kaart terugnemen.", ("kunnen",), ("mogen",)),
        ("Een kaart moet gespeeld worden.", "Een kaart wordt geacht gespeeld te zijn.", ("moet",), ("wordt geacht",)),
        ("Een kaart is gespeeld.", "Een kaart moet gespeeld worden.", (), ("moet",)),
    ],
)
def test_modal(old: str, new: str, removed: tuple[str, ...], added: tuple[str, ...]) -> None:
    got = by_flag(significance(change(old, new)))
    assert got[Flag.MODAL] == Signal(Flag.MODAL, removed, added)


def test_a_modal_that_only_moved_is_no_change_of_modal() -> None:
    got = by_flag(significance(change("Een speler moet dan spelen.", "Dan moet een speler spelen.")))
    assert Flag.MODAL not in got


def test_negation() -> None:
    got = by_flag(significance(change("De blinde mag de kaart aanraken.", "De blinde mag de kaart niet aanraken.")))
    assert got == {Flag.NEGATION: Signal(Flag.NEGATION, (), ("niet",))}
    got = by_flag(significance(change("Er is geen straf.", "Er is een straf.")))
    assert got[Flag.NEGATION].removed == ("geen",)


def test_actor() -> None:
    got = by_flag(significance(change("De speler mag een kaart wijzigen.", "De leider mag een kaart wijzigen.")))
    assert got == {Flag.ACTOR: Signal(Flag.ACTOR, ("speler",), ("leider",))}


@pytest.mark.parametrize(("a", "b"), TERMINOLOGY)
def test_a_terminology_substitution_raises_no_flag(a: str, b: str) -> None:
    ch = change(f"Hij wijst zijn {a} de kaart aan.", f"Hij wijst zijn {b} de kaart aan.")
    assert significance(ch) == ()
    assert not normative(significance(ch))


def test_number() -> None:
    got = by_flag(significance(change("binnen 30 minuten na de zitting", "binnen 20 minuten na de zitting")))
    assert got == {Flag.NUMBER: Signal(Flag.NUMBER, ("30",), ("20",))}
    got = by_flag(significance(change("de vijfde kaart in een slag", "de zesde kaart in een slag")))
    assert got[Flag.NUMBER] == Signal(Flag.NUMBER, ("vijfde",), ("zesde",))
    got = by_flag(significance(change("een kaart lager dan de heer", "een kaart lager dan de vrouw")))
    assert got[Flag.NUMBER] == Signal(Flag.NUMBER, ("heer",), ("vrouw",))


def test_digits_of_a_reference_are_no_number() -> None:
    ch = change(
        "De kaart wordt teruggenomen (zie artikel 16D1).",
        "De kaart wordt teruggenomen (zie artikel 16C1).",
        references=(RefChange(RefStatus.RETARGETED, "16D1", "16C1", None),),
    )
    assert significance(ch) == (Signal(Flag.REFERENCE, ("16D1",), ("16C1",)),)
    assert not normative(significance(ch))
    # Digits of a reference that is only a link of the source (no trigger
    # word) are kept out through the clause's own reference spans.
    old_text, new_text = "Zie de tabel 12 hieronder.", "Zie de tabel 14 hieronder."
    linked = change(old_text, new_text, old_at="1A", new_at="1A")
    assert Flag.NUMBER in flags(linked)
    at = old_text.index("12")
    old_ed = _edition("1", [_clause("1A", old_text, links=((at, at + 2, "12"),))])
    new_ed = _edition("2", [_clause("1A", new_text, links=((at, at + 2, "14"),))])
    assert Flag.NUMBER not in flags(linked, old_ed, new_ed)


def test_reference() -> None:
    ch = change(
        "Een kaart is gespeeld.",
        "Een kaart is gespeeld (maar zie artikel 47).",
        references=(RefChange(RefStatus.ADDED, "", "47", None),),
    )
    assert by_flag(significance(ch)) == {Flag.REFERENCE: Signal(Flag.REFERENCE, (), ("47",))}
    kept = change("zie artikel 47", "zie artikel 47", references=(RefChange(RefStatus.KEPT, "47", "47", True),))
    assert significance(kept) == ()


def test_condition() -> None:
    got = by_flag(significance(change("De leider speelt een kaart.", "De leider speelt een kaart, tenzij hij past.")))
    assert got[Flag.CONDITION] == Signal(Flag.CONDITION, (), ("tenzij",))
    got = by_flag(significance(change("Hij mag wijzigen, mits zonder pauze.", "Hij mag wijzigen.")))
    assert got[Flag.CONDITION].removed == ("mits",)
    assert got[Flag.NEGATION].removed == ("zonder",)


def test_the_als_of_a_deeming_phrase_is_no_condition() -> None:
    got = by_flag(significance(change("De kaart is gespeeld.", "De kaart wordt beschouwd als gespeeld.")))
    assert got == {Flag.MODAL: Signal(Flag.MODAL, (), ("wordt beschouwd als",))}


def test_case_and_punctuation_raise_nothing() -> None:
    assert significance(change("Moet hij, dan.", "moet hij; dan")) == ()


def test_normative_is_any_flag_but_reference() -> None:
    assert normative([Signal(Flag.NEGATION, ("niet",), ())])
    assert not normative([Signal(Flag.REFERENCE, ("16D",), ("16C",))])
    assert not normative([])


def test_the_word_lists_come_from_the_data_file() -> None:
    data = lexicon()
    for flag, phrases in WORD_LISTS.items():
        assert len(phrases) == len({w.lower() for w in data[flag.value]["words"]})
    assert ("wordt", "geacht") in WORD_LISTS[Flag.MODAL]
    assert {"moeten", "mogen", "kunnen"} <= {p[0] for p in WORD_LISTS[Flag.MODAL]}


# ---------------------------------------------------------------------------
# A lead-in's words repeated in an item


def _clause(
    address: str, text: str, children: tuple[Clause, ...] = (), links: tuple[tuple[int, int, str], ...] = ()
) -> Clause:
    return Clause(
        Kind.ITEM if "(" in address else Kind.SUBSECTION,
        address,
        "",
        "",
        text,
        children,
        (),
        references_in(text, links),
        Loc("hand-made"),
    )


def _edition(name: str, clauses: list[Clause]) -> Edition:
    return Edition(name, int(name), tuple(clauses))


def test_words_repeated_from_the_lead_in_are_no_condition() -> None:
    old_b = "als ze zo wordt gehouden dat de kaart gespeeld is."
    new_b = "zo wordt gehouden dat de kaart gespeeld is."
    old = _edition("1", [_clause("1C2", "De leider speelt een kaart als ze", (_clause("1C2(b)", old_b),))])
    new = _edition("2", [_clause("1C2", "De leider speelt een kaart als ze", (_clause("1C2(b)", new_b),))])
    ch = change(old_b, new_b, old_at="1C2(b)", new_at="1C2(b)")
    assert significance(ch, old, new) == ()
    # Without the lead-in the dropped "als" is a condition removed.
    assert flags(ch) == (Flag.CONDITION,)
    # A lead-in that does not end with those words does not excuse them.
    other = _edition("2", [_clause("1C2", "De leider speelt een kaart", (_clause("1C2(b)", new_b),))])
    assert flags(ch, old, other) == (Flag.CONDITION,)


# ---------------------------------------------------------------------------
# The bundled corpus


@pytest.fixture(scope="module")
def pair_2007_2017(corpus: Corpus) -> tuple[Comparison, Edition, Edition]:
    old, new = corpus.edition("2007"), corpus.edition("2017")
    return compare(old, new), old, new


def _find(cmp: Comparison, old: tuple[str, ...], new: tuple[str, ...], aspect: str = "text") -> Change:
    return next(ch for ch in cmp.changes if ch.old == old and ch.new == new and ch.aspect.value == aspect)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (("45C1",), ("45C1",), {Flag.MODAL}),
        (("45C2(a)",), ("45C2(a)",), set()),
        (("45C4(a)",), ("45C4(a)",), {Flag.MODAL, Flag.REFERENCE}),
        (("45D",), ("45D1",), {Flag.REFERENCE}),
    ],
)
def test_article_45_2007_2017(
    pair_2007_2017: tuple[Comparison, Edition, Edition],
    old: tuple[str, ...],
    new: tuple[str, ...],
    expected: set[Flag],
) -> None:
    cmp, old_ed, new_ed = pair_2007_2017
    assert set(flags(_find(cmp, old, new), old_ed, new_ed)) == expected


def test_45c1_modal_words(pair_2007_2017: tuple[Comparison, Edition, Edition]) -> None:
    cmp, old_ed, new_ed = pair_2007_2017
    got = significance(_find(cmp, ("45C1",), ("45C1",)), old_ed, new_ed)
    assert got == (Signal(Flag.MODAL, ("moet",), ("wordt geacht",)),)


def test_45c2a_is_editorial(pair_2007_2017: tuple[Comparison, Edition, Edition]) -> None:
    cmp, old_ed, new_ed = pair_2007_2017
    ch = _find(cmp, ("45C2(a)",), ("45C2(a)",))
    assert ch.editorial_only
    assert not normative(significance(ch, old_ed, new_ed))


def test_45c4b(pair_2007_2017: tuple[Comparison, Edition, Edition]) -> None:
    cmp, old_ed, new_ed = pair_2007_2017
    got = by_flag(significance(_find(cmp, ("45C4(b)",), ("45C4(b)",)), old_ed, new_ed))
    assert {Flag.ACTOR, Flag.MODAL, Flag.REFERENCE} <= set(got)
    assert got[Flag.REFERENCE] == Signal(Flag.REFERENCE, ("16D1",), ("16C1",))
    assert "leider" in got[Flag.ACTOR].added


def test_45c2b_drops_the_lead_ins_als(pair_2007_2017: tuple[Comparison, Edition, Edition]) -> None:
    cmp, old_ed, new_ed = pair_2007_2017
    ch = _find(cmp, ("45C2(b)",), ("45C2(b)",))
    assert ch.diff[0].text == "als ze "  # the words the 2007 printing repeated
    assert significance(ch, old_ed, new_ed) == ()


def test_editorial_only_changes_raise_no_flag_in_the_corpus(corpus: Corpus) -> None:
    for a, b in (("1963", "2007"), ("2007", "2017")):
        old, new = corpus.edition(a), corpus.edition(b)
        for ch in compare(old, new).changes:
            if ch.editorial_only:
                assert significance(ch, old, new) == (), (a, b, ch.old, ch.new)
            if ch.kind is ChangeKind.UNCHANGED:
                assert significance(ch, old, new) == (), (a, b, ch.old, ch.new)
