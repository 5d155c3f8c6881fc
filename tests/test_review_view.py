"""Decisions matched to the changes of a run, and naming changes by id or address.

The draft is "corrected" by copying the bundled corpus and editing one word
of 2017 45C4(b) in its payload: the decision made before stays with the
change at the same addresses, shown as outdated with the text it was made on.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from lawdiff.align import DEFAULT_THRESHOLDS
from lawdiff.corpus import Corpus, default_corpus, load
from lawdiff.diff import Study
from lawdiff.diff.comparison import Comparison
from lawdiff.diff.vocabulary import SHORT_ID, Op
from lawdiff.errors import UsageError
from lawdiff.review import CorrectionKind, State, Status, Store, Target, attach, open_for_writing, runs, target
from lawdiff.review.ids import SHORT_ID as REVIEW_SHORT_ID
from lawdiff.review.ids import resolve
from lawdiff.review.view import stale_corrections

ROOT = Path(__file__).resolve().parent.parent
OLD_WORDS = "mag een onbedoeld aangeduide kaart"
NEW_WORDS = "mag een per ongeluk aangeduide kaart"


def corrected_corpus(folder: Path) -> Path:
    """The bundled corpus with one word of 2017 45C4(b) changed."""
    shutil.copytree(default_corpus(), folder)
    payload = folder / "2017" / "nuxt-artikel-45.payload.json"
    text = payload.read_text(encoding="utf-8")
    assert text.count(OLD_WORDS) == 1
    payload.write_text(text.replace(OLD_WORDS, NEW_WORDS), encoding="utf-8")
    return folder


def run_of(c: Corpus) -> list[Comparison]:
    return runs.comparisons(Study(runs.timeline(c), DEFAULT_THRESHOLDS), c, None)


@pytest.fixture(scope="module")
def bundled_run(corpus: Corpus) -> list[Comparison]:
    return run_of(corpus)


@pytest.fixture(scope="module")
def corrected(tmp_path_factory: pytest.TempPathFactory) -> tuple[Corpus, list[Comparison]]:
    c = load([corrected_corpus(tmp_path_factory.mktemp("draft") / "corpus")])
    return c, run_of(c)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_for_writing(tmp_path / "review.sqlite") as s:
        yield s


def named(comps: list[Comparison], store: Store, name: str) -> Target:
    return resolve(name, store, lambda: comps).target


def test_the_default_pairs_are_the_reports(bundled_run: list[Comparison]) -> None:
    # Article 45 is in 1963, 2007 and 2017; the 1997 corpus holds only 53-56.
    assert [(c.old, c.new) for c in bundled_run] == [("1963", "2007"), ("2007", "2017")]


def test_a_decision_is_current_on_its_change(bundled_run: list[Comparison], store: Store) -> None:
    t = named(bundled_run, store, "2017:45C4(b)")
    store.set_status(t, Status.ACCEPTED, "Anne", comment="Akkoord.")
    view = attach(store, bundled_run)
    e = view.entry(t.id)
    assert (e.state, e.status, [c.text for c in e.comments]) == (State.CURRENT, Status.ACCEPTED, ["Akkoord."])
    assert not view.outdated and not view.orphaned and not view.not_compared
    others = [ch.id for c in bundled_run for ch in c.changes if ch.id != t.id]
    assert all(view.entry(i).state is State.NONE and view.entry(i).status is Status.OPEN for i in others)


def test_a_corrected_draft_makes_the_decision_outdated_never_applied(
    bundled_run: list[Comparison], corrected: tuple[Corpus, list[Comparison]], store: Store
) -> None:
    before = named(bundled_run, store, "2017:45C4(b)")
    store.set_status(before, Status.ACCEPTED, "Anne", comment="Akkoord.")
    _, comps = corrected
    after = named(comps, store, "2017:45C4(b)")
    assert after.id != before.id and after.old == before.old
    view = attach(store, comps)
    e = view.entry(after.id)
    assert e.state is State.OUTDATED and e.decision is not None
    assert e.decision.id == before.id and NEW_WORDS not in e.decision.new_texts[0]
    assert OLD_WORDS in e.decision.new_texts[0], "the text it was made on comes with it"
    assert [c.text for c in e.comments] == ["Akkoord."]
    # What changed since is the entry's, for every output to draw: the new text's words, the old side kept.
    old_since, new_since = e.since
    assert old_since == () and after.old_texts == e.decision.old_texts
    assert "".join(p.text for p in new_since if p.op is not Op.INSERT) == "\n".join(e.decision.new_texts)
    assert "".join(p.text for p in new_since if p.op is not Op.DELETE) == "\n".join(after.new_texts)
    assert [p.text.strip() for p in new_since if p.op is not Op.EQUAL] == ["onbedoeld", "per ongeluk"]
    assert [(o.decision.id, o.change) for o in view.outdated] == [(before.id, after.id)]
    assert not view.orphaned
    # Deciding on the new text makes it current; the old decision is kept as earlier.
    store.set_status(after, Status.QUERY, "Bert")
    e = attach(store, comps).entry(after.id)
    assert (e.state, e.status, [d.id for d in e.earlier]) == (State.CURRENT, Status.QUERY, [before.id])
    # Back to the old draft: the first decision is current again, the second outdated there.
    e = attach(store, bundled_run).entry(before.id)
    assert (e.state, e.status, [d.id for d in e.earlier]) == (State.CURRENT, Status.ACCEPTED, [after.id])


def test_vanished_clauses_orphan_and_other_pairs_are_not_compared(bundled_run: list[Comparison], store: Store) -> None:
    gone = Target("a" * 40, "2007", "2017", "text", "modified", "45", ("45Z",), ("45Z",), ("oud",), ("nieuw",))
    other = Target("b" * 40, "2017@wiki", "2017@nuxt", "text", "modified", "45", ("45A",), ("45A",), ("x",), ("y",))
    store.set_status(gone, Status.QUERY, "Anne")
    store.set_status(other, Status.ACCEPTED, "Anne")
    view = attach(store, bundled_run)
    assert [d.id for d in view.orphaned] == [gone.id]
    assert [d.id for d in view.not_compared] == [other.id]


def test_a_partial_run_reads_only_its_pairs_and_counts_the_others(bundled_run: list[Comparison], store: Store) -> None:
    t = named(bundled_run, store, "2017:45C4(b)")
    store.set_status(t, Status.ACCEPTED, "Anne", comment="goed zo")
    for n, pair in enumerate((("2017@wiki", "2017@nuxt"), ("2017@wiki", "2017@nuxt"), ("1963", "2007"))):
        other = Target(f"{n:040x}", *pair, "text", "modified", "45", ("45A",), ("45A",), ("x",), ("y",))
        store.set_status(other, Status.QUERY, "Anne", comment="elders")
    whole = attach(store, bundled_run)
    assert len(whole.not_compared) == 2 and whole.elsewhere == ()  # 1963 -> 2007 is compared there
    pair = [c for c in bundled_run if (c.old, c.new) == (t.old_edition, t.new_edition)]
    part = attach(store, pair, partial=True)
    assert part.not_compared == ()
    assert part.elsewhere == ((("1963", "2007"), 1), (("2017@wiki", "2017@nuxt"), 2))
    assert set(part.comments) == {t.id}  # the other pairs' threads were not read
    assert part.entry(t.id).status is Status.ACCEPTED and [c.text for c in part.entry(t.id).comments] == ["goed zo"]


def test_a_decision_matches_by_new_addresses_when_the_old_ones_are_gone(
    bundled_run: list[Comparison], store: Store
) -> None:
    t = named(bundled_run, store, "2017:45C4(b)")
    moved = Target("c" * 40, "2007", "2017", "text", "modified", "45", ("45Q",), t.new, ("oud",), t.new_texts)
    store.set_status(moved, Status.REJECTED, "Anne")
    e = attach(store, bundled_run).entry(t.id)
    assert (e.state, e.decision.id if e.decision else "") == (State.OUTDATED, moved.id)


def test_corrections_naming_missing_clauses_are_reported(corpus: Corpus, store: Store) -> None:
    store.add_correction(CorrectionKind.PIN, ("2007", "2017"), ("45D",), ("45D1", "45D2"), "Anne")
    store.add_correction(CorrectionKind.FORBID, ("2007", "2017"), ("45D",), ("45Z9",), "Anne")
    editions = {e.name: e for e in corpus.editions}
    stale = stale_corrections(store.corrections(), editions)
    assert [(s.correction.kind, s.missing) for s in stale] == [(CorrectionKind.FORBID, ("2017:45Z9",))]


# ---------------------------------------------------------------------------
# Naming changes


def test_ids_by_prefix_address_and_anchor(bundled_run: list[Comparison], store: Store) -> None:
    t = named(bundled_run, store, "2017:45C4(b)")
    assert named(bundled_run, store, "2017:45C4b").id == t.id
    assert named(bundled_run, store, "2017:45c4(b)").id == t.id
    assert named(bundled_run, store, t.id[:8]).id == t.id
    assert named(bundled_run, store, t.id[:8].upper()).id == t.id
    # A removed clause has only an old side; 1963 45(d) was split, so it is named by its old side.
    assert named(bundled_run, store, "1963:45(d)").old == ("45(d)",)


def test_a_full_id_in_the_store_needs_no_run(bundled_run: list[Comparison], store: Store) -> None:
    t = named(bundled_run, store, "2017:45C4(b)")
    store.set_status(t, Status.ACCEPTED, "Anne")

    def no_run() -> list[Comparison]:
        raise AssertionError("the run was computed")

    assert resolve(t.id, store, no_run).target.id == t.id


def test_an_ambiguous_prefix_lists_the_candidates(store: Store) -> None:
    for n in (1, 2):
        store.set_status(
            Target(
                f"abcd{n:036x}", "2007", "2017", "text", "modified", "45", (f"45C{n}",), (f"45C{n}",), ("a",), ("b",)
            ),
            Status.QUERY,
            "Anne",
        )
    with pytest.raises(UsageError) as exc:
        resolve("abcd", store, list)
    assert "ambiguous" in exc.value.what and "45C1" in exc.value.what and "45C2" in exc.value.what
    with pytest.raises(UsageError, match="too short"):
        resolve("abc", store, list)
    with pytest.raises(UsageError, match="no change has an id starting with 'ffff'"):
        resolve("ffff", store, list)


def test_an_address_held_by_several_pairs_asks_for_the_pair(corpus: Corpus, store: Store) -> None:
    study = Study(runs.timeline(corpus), DEFAULT_THRESHOLDS)
    comps = [runs.comparisons(study, corpus, p)[0] for p in (("2007", "2017"), ("1963", "2017"))]
    with pytest.raises(UsageError, match="several pairs") as exc:
        resolve("2017:45C4(b)", store, lambda: comps)
    assert exc.value.fix.startswith("give --pair OLD NEW")
    t = resolve("2017:45C4(b)", store, lambda: comps, ("1963", "2017")).target
    assert (t.old_edition, t.new_edition) == ("1963", "2017")


def test_the_target_records_the_runs_thresholds(bundled_run: list[Comparison]) -> None:
    comp = bundled_run[-1]
    t = target(comp, comp.changes[0])
    assert dict(t.thresholds) == DEFAULT_THRESHOLDS.as_dict()


def test_short_ids_are_the_diff_stages() -> None:
    assert REVIEW_SHORT_ID == SHORT_ID
