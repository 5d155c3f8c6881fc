"""Synthetic editions built from the seed texts: what each kind of edit must give.

Each case assembles two small editions from clause texts of the bundled corpus
(rendered wiki pages, as the 2007 seed is written, read by the ordinary
reader), applies one kind of edit, and states the changes it must give in the
gold-line form of ``test_align_gold.py``.  The reverse comparison must give
the mirrored lines.  ``test_align_invariants.py`` runs its invariants over
these editions too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from test_align_gold import Line, lines_of, mismatch, parse_line

from lawdiff.corpus import Corpus, from_pages, load
from lawdiff.diff import ChangeKind, canonical, compare, editorial_only
from lawdiff.model import Clause, Edition, article_of
from lawdiff.sources import read_text

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


@functools.cache
def seed_corpus() -> Corpus:
    return load()


def seed(spec: str) -> Clause:
    """A clause of the bundled corpus: ``seed("1997:53B")``."""
    name, _, address = spec.partition(":")
    clause = seed_corpus().edition(name).find(address)
    assert clause is not None, f"the seed corpus has no {spec}"
    return clause


def edit(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced once; the edit must apply."""
    assert text.count(old) == 1, f"{old!r} is not in the text once: {text!r}"
    return text.replace(old, new)


@dataclass
class Book:
    """A small edition written as rendered wiki pages, one page per article (the 2007 habits)."""

    year: int
    pages: dict[str, list[str]] = field(default_factory=dict)
    expect: dict[str, tuple[str, str]] = field(default_factory=dict)  # address -> (title, text)
    notes: dict[str, int] = field(default_factory=dict)  # footnotes per page

    def _page(self, address: str) -> list[str]:
        return self.pages[article_of(address)]

    def _text(self, address: str, text: str, footnote: str, marker: str) -> list[str]:
        if not footnote:
            return [text] if text else []
        art = article_of(address)
        n = self.notes.get(art, 0) + 1
        self.notes[art] = n
        printed = str(n).translate(_SUPERSCRIPT) + "⁾" if marker == "superscript" else f"{n})"
        self.expect[f"{address}.fn{n}"] = ("", footnote)
        return [f"{text} {printed}", f"{n}) {footnote}"]

    def article(self, number: str, title: str, text: str = "", footnote: str = "", marker: str = "superscript") -> Book:
        self.pages[number] = [f"ARTIKEL {number} {title}", *self._text(number, text, footnote, marker)]
        self.expect[number] = (title, text)
        return self

    def section(
        self, address: str, title: str, text: str = "", footnote: str = "", marker: str = "superscript"
    ) -> Book:
        """``53B``: a section "B. title" with its text on the next line."""
        letter = address[len(article_of(address)) :]
        assert len(letter) == 1 and letter.isupper(), address
        self._page(address).extend([f"{letter}. {title}", *self._text(address, text, footnote, marker)])
        self.expect[address] = (title, text)
        return self

    def subsection(self, address: str, text: str = "") -> Book:
        """``45C4``: "4. text" (or a bare "4." before its items)."""
        number = address.rstrip("0123456789")
        self._page(address).append(f"{address[len(number) :]}. {text}".rstrip())
        self.expect[address] = ("", text)
        return self

    def item(self, address: str, text: str) -> Book:
        """``45C4(a)``: "- (a) text"."""
        letter = address[address.rindex("(") :]
        self._page(address).append(f"- {letter} {text}")
        self.expect[address] = ("", text)
        return self

    def files(self) -> dict[str, str]:
        """The pages as files of a corpus folder: ``{"2001/53.txt": text}``."""
        return {
            f"{self.year}/{number}.txt": f"Sjabloon:{self.year}:{number}\n" + "\n".join(lines) + "\n"
            for number, lines in self.pages.items()
        }

    def edition(self) -> Edition:
        pages = []
        for file, source in self.files().items():
            pages.extend(read_text(source, file))
        corpus = from_pages(pages)
        assert [e.name for e in corpus.editions] == [str(self.year)]
        assert all(not c.unplaced for c in corpus.checks)
        edition = corpus.editions[0]
        # The reader must have read the page as written, or the case tests nothing.
        for address, (title, text) in self.expect.items():
            clause = edition.find(address)
            assert clause is not None, f"{self.year}:{address} was not read"
            assert (clause.title, clause.text) == (title, text), f"{self.year}:{address} was read otherwise"
        return edition


@dataclass(frozen=True)
class Case:
    old: Edition
    new: Edition
    expected: tuple[Line, ...]
    files: dict[str, str]  # both editions as a corpus folder


def case(old: Book, new: Book, expected: str) -> Case:
    lines = tuple(parse_line(line.strip()) for line in expected.strip().splitlines() if line.strip())
    return Case(old.edition(), new.edition(), lines, old.files() | new.files())


# ---------------------------------------------------------------------------
# The cases


def _article_53(book: Book, b: tuple[str, str], c: tuple[str, str], note: str) -> Book:
    art, a = seed("1997:53"), seed("1997:53A")
    return (
        book.article("53", art.title)
        .section("53A", a.title, a.text, footnote=note)
        .section("53B", *b)
        .section("53C", *c)
    )


def section_swap() -> Case:
    """53B and 53C exchange their letters (as they did in 2017); the note citing 53C follows."""
    b, c = seed("1997:53B"), seed("1997:53C")
    old = _article_53(Book(2001), (b.title, b.text), (c.title, c.text), "Zie echter 53C.")
    new = _article_53(Book(2002), (c.title, c.text), (b.title, b.text), "Zie echter 53B.")
    return case(
        old,
        new,
        """
            53 -> 53 : unchanged [heading]
            53A -> 53A : unchanged
            53A.fn1 -> 53A.fn1 : modified [ref 53C>53B]
            53C -> 53B : unchanged [renumbered]
            53B -> 53C : unchanged [renumbered]
        """,
    )


def section_swap_edited() -> Case:
    """The same swap, with both sections reworded: the same address must not win over the text."""
    b, c = seed("1997:53B"), seed("1997:53C")
    old = _article_53(Book(2001), (b.title, b.text), (c.title, c.text), "Zie echter 53C.")
    new = _article_53(
        Book(2002),
        (c.title, edit(c.text, "Als een speler aan de beurt is", "Wanneer een speler aan de beurt is")),
        (b.title, edit(b.text, "blijft het voorspelen gehandhaafd", "blijft dit voorspelen geldig")),
        "Zie echter 53B.",
    )
    return case(
        old,
        new,
        """
            53 -> 53 : unchanged [heading]
            53A -> 53A : unchanged
            53A.fn1 -> 53A.fn1 : modified [ref 53C>53B]
            53C -> 53B : modified [renumbered]
            53B -> 53C : modified [renumbered]
        """,
    )


def _articles_54_55(book: Book, moved: str | None) -> Book:
    a54, a55 = seed("1997:54"), seed("1997:55")
    book.article("54", a54.title, a54.text)
    for x in ("54A", "54C", "54D"):
        book.section(x, seed(f"1997:{x}").title, seed(f"1997:{x}").text)
    if moved is not None:
        book.section("54E", seed("1997:55C").title, moved)
    book.article("55", a55.title).section("55A", seed("1997:55A").title, seed("1997:55A").text)
    if moved is None:
        book.section("55C", seed("1997:55C").title, seed("1997:55C").text)
    return book


def moved_clause() -> Case:
    """55C becomes 54E: renumbered and moved to another article."""
    return case(
        _articles_54_55(Book(2001), None),
        _articles_54_55(Book(2002), seed("1997:55C").text),
        """
            54 -> 54 : unchanged
            54A -> 54A : unchanged
            54C -> 54C : unchanged
            54D -> 54D : unchanged
            55C -> 54E : unchanged [renumbered, moved]
            55 -> 55 : unchanged [heading]
            55A -> 55A : unchanged
        """,
    )


def moved_clause_edited() -> Case:
    """The same move, with the text reworded on the way."""
    text = edit(seed("1997:55C").text, "kan de wedstrijdleider", "moet de wedstrijdleider")
    return case(
        _articles_54_55(Book(2001), None),
        _articles_54_55(Book(2002), text),
        """
            54 -> 54 : unchanged
            54A -> 54A : unchanged
            54C -> 54C : unchanged
            54D -> 54D : unchanged
            55C -> 54E : modified [renumbered, moved]
            55 -> 55 : unchanged [heading]
            55A -> 55A : unchanged
        """,
    )


def _article_53_ac(book: Book, c: Clause, d: Clause | None = None) -> Book:
    a = seed("1997:53A")
    book.article("53", seed("1997:53").title).section("53A", a.title, a.text).section("53C", c.title, c.text)
    if d is not None:
        book.section("53D", d.title, d.text)
    return book


def subject_changed() -> Case:
    """Same numbers, new subjects (as 2007 23 and 2017 23): removed and added, never modified."""
    a56, a41 = seed("1997:56"), seed("1963:41")
    old = _article_53_ac(Book(2001), seed("1997:53C")).article("56", a56.title, a56.text)
    new = _article_53_ac(Book(2002), seed("2007:45G")).article("56", a41.title.rstrip("."), a41.text)
    return case(
        old,
        new,
        """
            53 -> 53 : unchanged [heading]
            53A -> 53A : unchanged
            53C -> - : removed [ref -16C2]
            - -> 53C : added
            56 -> - : removed [ref -50D]
            - -> 56 : added [ref +20]
        """,
    )


def subject_changed_text_moved() -> Case:
    """53C takes a new subject while its old text moves on to 53D."""
    old = _article_53_ac(Book(2001), seed("1997:53C"))
    new = _article_53_ac(Book(2002), seed("2007:45G"), seed("1997:53C"))
    return case(
        old,
        new,
        """
            53 -> 53 : unchanged [heading]
            53A -> 53A : unchanged
            - -> 53C : added
            53C -> 53D : unchanged [renumbered]
        """,
    )


def split_and_merge() -> Case:
    """45B is split over 45B1 and 45B2, and 45C4(a) and (b) are merged into 45C4, every piece edited."""
    art, a, b, c = seed("2007:45"), seed("2007:45A"), seed("2007:45B"), seed("2007:45C")
    c4a, c4b = seed("2007:45C4(a)").text, seed("2007:45C4(b)").text
    old = (
        Book(2001)
        .article("45", art.title)
        .section("45A", a.title, a.text)
        .section("45B", b.title, b.text)
        .section("45C", c.title)
        .subsection("45C4")
        .item("45C4(a)", c4a)
        .item("45C4(b)", c4b)
    )
    first, second = b.text.split(". ", 1)
    merged = edit(c4a, "wil spelen.", "wil spelen, maar") + " " + edit(c4b, "Tot zijn partner", "tot zijn partner")
    new = (
        Book(2002)
        .article("45", art.title)
        .section("45A", a.title, a.text)
        .section("45B", b.title)
        .subsection("45B1", edit(first, "door haar te noemen", "door haar duidelijk te noemen") + ".")
        .subsection("45B2", edit(second, "zo nodig", "indien nodig"))
        .section("45C", c.title)
        .subsection("45C4", edit(merged, "denkpauze", "aarzeling"))
    )
    return case(
        old,
        new,
        """
            45 -> 45 : unchanged [heading]
            45A -> 45A : unchanged
            45B -> 45B : unchanged [heading]
            45B -> 45B1, 45B2 : split [renumbered]
            45C -> 45C : unchanged [heading]
            45C4(a), 45C4(b) -> 45C4 : merged [renumbered]
        """,
    )


def editorial_edits() -> Case:
    """Punctuation, case and terminology are editorial; one changed word is not."""
    g, f, c3 = seed("2007:45G"), seed("2007:45F"), seed("2007:45C3")
    item_a, p44 = seed("1963:45(a)").text, seed("1963:44").text.split("\n")[0]
    old = (
        Book(2001)
        .article("45", "Gespeelde kaart")
        .section("45A", g.title, g.text)
        .section("45B", "Maat", item_a)
        .section("45C", "Volgorde", p44)
        .section("45D", f.title, f.text)
        .section("45E", c3.title or "Verplicht", c3.text)
        .section("45F", "Uitkomen", seed("2007:45A").text, footnote=seed("2007:45A.fn1").text, marker="superscript")
    )
    new = (
        Book(2002)
        .article("45", "Gespeelde kaart")
        # Case and punctuation.
        .section("45A", g.title, edit(edit(g.text, "Een speler", "een speler"), " voordat", ", voordat"))
        # maat -> partner
        .section("45B", "Maat", edit(item_a, "zijn maat", "zijn partner"))
        # der -> van de
        .section("45C", "Volgorde", edit(p44, "elk der overige", "elk van de overige"))
        # wedstrijdleider -> arbiter
        .section("45D", f.title, edit(f.text, "dan behoort de wedstrijdleider", "dan behoort de arbiter"))
        # one word of substance
        .section("45E", c3.title or "Verplicht", edit(c3.text, "moet worden gespeeld", "mag worden gespeeld"))
        # the footnote marker printed another way: no change at all
        .section("45F", "Uitkomen", seed("2007:45A").text, footnote=seed("2007:45A.fn1").text, marker="ascii")
    )
    return case(
        old,
        new,
        """
            45 -> 45 : unchanged [heading]
            45A -> 45A : modified [editorial]
            45B -> 45B : modified [editorial]
            45C -> 45C : modified [editorial]
            45D -> 45D : modified [editorial]
            45E -> 45E : modified
            45F -> 45F : unchanged
            45F.fn1 -> 45F.fn1 : unchanged
        """,
    )


CASES: dict[str, Callable[[], Case]] = {
    f.__name__: f
    for f in (
        section_swap,
        section_swap_edited,
        moved_clause,
        moved_clause_edited,
        subject_changed,
        subject_changed_text_moved,
        split_and_merge,
        editorial_edits,
    )
}


@functools.cache
def build(name: str) -> Case:
    return CASES[name]()


def synthetic_pairs() -> list[tuple[str, Edition, Edition]]:
    """Every case's editions, for the invariants."""
    return [(name, build(name).old, build(name).new) for name in CASES]


# ---------------------------------------------------------------------------
# Tests


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("mirrored", [False, True], ids=["forward", "mirrored"])
def test_synthetic_alignment(name: str, mirrored: bool) -> None:
    case = build(name)
    old, new, expected = case.old, case.new, list(case.expected)
    if mirrored:
        old, new, expected = new, old, [line.mirrored() for line in expected]
    problem = mismatch(lines_of(compare(old, new)), expected)
    assert not problem, f"{name}: {old.name} -> {new.name}:\n{problem}"


def test_section_swap_retargets_its_reference_consistently() -> None:
    case = build("section_swap")
    note = next(ch for ch in compare(case.old, case.new).changes if ch.old == ("53A.fn1",))
    [ref] = note.references
    assert (ref.status.value, ref.old, ref.new, ref.consistent) == ("retargeted", "53C", "53B", True)


def test_subject_changed_pairs_nothing_across_the_same_number() -> None:
    """Neither the text nor the heading of the reused numbers may be paired."""
    case = build("subject_changed")
    for ch in compare(case.old, case.new).changes:
        if ch.old and ch.new:
            assert ch.kind is ChangeKind.UNCHANGED, ch


def test_split_and_merge_rebuild_the_pieces() -> None:
    case = build("split_and_merge")
    comp = compare(case.old, case.new)
    split = next(ch for ch in comp.changes if ch.kind is ChangeKind.SPLIT)
    merged = next(ch for ch in comp.changes if ch.kind is ChangeKind.MERGED)
    assert split.new_texts == (case.new.find("45B1").text, case.new.find("45B2").text)  # type: ignore[union-attr]
    assert merged.old_texts == (case.old.find("45C4(a)").text, case.old.find("45C4(b)").text)  # type: ignore[union-attr]
    assert not split.editorial_only and not merged.editorial_only


def test_editorial_change_is_still_a_difference() -> None:
    case = build("editorial_edits")
    comp = compare(case.old, case.new)
    editorial = [ch for ch in comp.changes if ch.editorial_only]
    assert editorial and all(ch.is_difference and ch.kind is ChangeKind.MODIFIED for ch in editorial)
    assert comp.counts()["editorial_only"] == len(editorial) == 4


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Een speler  speelt.", "Een speler speelt.", True),  # white space
        ("Een speler speelt.", "een speler speelt", True),  # case, punctuation
        ("zijn maat ziet", "zijn partner ziet", True),
        ("de maten zien", "de partners zien", True),
        ("het mapje", "het bord", True),
        ("de mapjes", "de borden", True),
        ("elk der spelers", "elk van de spelers", True),
        ("de wedstrijdleider beslist", "de arbiter beslist", True),
        ("de wedstrijdleider beslist", "de speler beslist", False),
        ("moet worden gespeeld", "mag worden gespeeld", False),
        ("zie artikel 16D1", "zie artikel 16C1", False),
        ("maatregel", "partnerregel", False),  # only whole words are terminology
        ("gelijk", "gelijk", False),  # no difference at all is not an editorial difference
    ],
)
def test_editorial_only(old: str, new: str, expected: bool) -> None:
    assert editorial_only(old, new) is expected
    assert editorial_only(new, old) is expected


def test_canonical_reads_terminology_pairs_as_one_word() -> None:
    assert canonical("Elk der tegenspelers; zijn Maat.") == canonical("elk van de tegenspelers, zijn partner")
