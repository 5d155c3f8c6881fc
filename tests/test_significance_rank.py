"""Significance that ranks (issue 24, item 3): whole words, drafting patterns counted once, a score per change."""

from __future__ import annotations

from dataclasses import replace

import pytest
from click.testing import CliRunner
from test_significance import change

from lawdiff.cli import main
from lawdiff.corpus import Corpus
from lawdiff.diff import ChangeKind, Comparison, compare, ranked
from lawdiff.diff.ranking import patterns, rank
from lawdiff.diff.significance import flags, significance
from lawdiff.diff.vocabulary import Flag


@pytest.fixture(scope="module")
def c0717(corpus: Corpus) -> Comparison:
    return compare(corpus.edition("2007"), corpus.edition("2017"))


def _article(comp: Comparison, number: str) -> list:  # type: ignore[type-arg]
    return [ch for ch in comp.changes if ch.article == number and ch.counterpart_in_corpus]


# ---------------------------------------------------------------------------
# Whole words, changed words only


def test_a_compound_with_niet_is_no_negation() -> None:
    ch = change("Ten onrechte gespeelde kaart", "De blinde pakt een niet-aangeduide kaart")
    assert Flag.NEGATION not in flags(ch)
    # The word on its own still is.
    assert Flag.NEGATION in flags(change("Een aangeduide kaart", "Een niet aangeduide kaart"))


def test_a_word_in_unchanged_context_raises_nothing() -> None:
    # "niet" and "moet" stand in both texts, untouched: only the changed word "snel" -> "vlug" differs.
    ch = change("De speler moet niet snel spelen.", "De speler moet niet vlug spelen.")
    assert significance(ch) == ()


def test_the_45D_heading_is_not_normative(c0717: Comparison) -> None:
    heading = next(ch for ch in _article(c0717, "45") if ch.old == ("45D",) and ch.aspect.value == "title")
    assert heading.kind is ChangeKind.MODIFIED
    assert not heading.normative


# ---------------------------------------------------------------------------
# Drafting patterns


def test_moet_worden_to_wordt_geacht_or_is_is_one_pattern(c0717: Comparison) -> None:
    found = [p for p in c0717.patterns if p.flag is Flag.MODAL and p.removed == ("moet",)]
    assert len(found) == 1
    pattern = found[0]
    assert pattern.addresses == ("45C1", "45C2", "45C3", "45C4(a)")
    assert pattern.added == ("wordt geacht", "is")
    assert pattern.label == "modal: moet -> wordt geacht / is"


def test_a_pattern_is_counted_once(c0717: Comparison) -> None:
    listed = _article(c0717, "45")
    normative = [ch for ch in listed if ch.normative]
    # 45A.fn1, the 45C heading, 45C1, 45C2, 45C3, 45C4(a), 45C4(b): the four of the pattern count one.
    assert len(normative) == 7
    assert c0717.normative_count(listed) == 4


def test_a_pattern_needs_two_changes_and_a_substitution() -> None:
    one = change("De leider moet een kaart spelen.", "De leider wordt geacht een kaart te spelen.", old_at="1(a)")
    other = change("De speler moet passen.", "De speler is gepast.", old_at="1(b)", new_at="1(b)")
    permission = change("De leider moet wachten.", "De leider mag wachten.", old_at="1(c)", new_at="1(c)")
    chs = [replace(ch, signals=significance(ch), id=f"id{i}") for i, ch in enumerate((one, other, permission))]
    assert [p.changes for p in patterns(chs)] == [("id0", "id1")]  # moet -> mag is another substitution
    assert patterns(chs[:1]) == ()


# ---------------------------------------------------------------------------
# The score


def test_45C4b_ranks_first_of_article_45(c0717: Comparison) -> None:
    order = ranked(_article(c0717, "45"))
    assert order[0].new == ("45C4(b)",)
    assert order[0].significance > 2 * order[1].significance


def test_what_the_score_is_made_of(c0717: Comparison) -> None:
    by_address = {ch.new: ch for ch in _article(c0717, "45") if ch.aspect.value == "text"}
    c1, c3 = by_address[("45C1",)], by_address[("45C3",)]
    # A flag of a pattern of four weighs a quarter: 45C1 less than a lone modal change would.
    assert c1.significance == rank(c1, c0717.patterns) < rank(c1, ())
    assert rank(c1, ()) - c1.significance == pytest.approx(0.75, abs=0.001)
    assert 0 < c3.significance < 1
    unchanged = [ch for ch in _article(c0717, "45") if ch.kind is ChangeKind.UNCHANGED and not ch.title_changed]
    assert unchanged and all(ch.significance == 0 for ch in unchanged)
    editorial = [ch for ch in _article(c0717, "45") if ch.editorial_only]
    assert editorial and all(ch.significance == 0 for ch in editorial)
    added = next(ch for ch in _article(c0717, "45") if ch.kind is ChangeKind.ADDED)
    assert added.significance == 1.0


def test_ranked_keeps_document_order_among_equals(c0717: Comparison) -> None:
    listed = _article(c0717, "45")
    zeros = [ch for ch in ranked(listed) if ch.significance == 0]
    assert zeros == [ch for ch in listed if ch.significance == 0]


def test_compare_sort_significance() -> None:
    runner = CliRunner()
    args = ["compare", "2007", "2017", "--article", "45", "--no-color", "--no-cache"]
    document = runner.invoke(main, args).output
    by_score = runner.invoke(main, [*args, "--sort", "significance"]).output
    heads = [line.split()[2] for line in by_score.splitlines() if line.startswith("  ") and line[2:12].isalnum()]
    assert heads[0] == "45C4(b)"
    assert sorted(document.splitlines()) == sorted(by_score.splitlines())
    assert "drafting pattern (counted once): modal: moet -> wordt geacht / is in 45C1, 45C2, 45C3, 45C4(a)" in (
        document
    )
    assert "significance 3.886" in document
