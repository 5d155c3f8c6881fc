"""Scope never hides a link (issue 24): a corpus that holds an article by some of its sections' pages.

The fixture ``tests/fixtures/partial`` is made by hand from the 2007 seed: its 2007 edition is the
seed with section D cut into lettered items (a)-(c); its 2017 corpus holds article 45 by two section
pages only, 45C and 45E, as the wiki gives them (the section's body without its heading).  In 2017,
45D(a) moved into section C as its new first subsection, reworded (45C1; the old 45C1-45C5 became
45C2-45C6), and section E gained a new item (45E.p3).  The aligner alone left 45D(a) and 45C1 apart
(their words agree too little for a pair, and no neighbours in the 2017 corpus vouch for them):
45D(a) "not compared", 45C1 "added".  The study aligns the clauses the scope would leave not
compared against what the 2017 corpus holds (:func:`lawdiff.diff.scope.linked_across_parts`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lawdiff.align import Corrections, Forbid
from lawdiff.cli import main
from lawdiff.corpus import load
from lawdiff.diff import Change, NotCompared, Study, scope_of
from lawdiff.diff.scope import ACROSS_PARTS
from lawdiff.diff.vocabulary import ChangeKind, Scope
from lawdiff.model import Edition
from lawdiff.report.redline import redline

PARTIAL = Path(__file__).resolve().parent / "fixtures" / "partial"
# What the 2017 corpus does not hold and that found no counterpart in what it holds.
STILL_OUTSIDE = {"45A", "45A.fn1", "45B", "45D(b)", "45D(c)", "45F", "45G"}


@pytest.fixture(scope="module")
def editions() -> tuple[Edition, Edition]:
    old, new = load([PARTIAL]).editions
    assert (old.name, new.name) == ("2007", "2017")
    assert new.held_in_part() == {"45": frozenset({"45C", "45E"})}
    return old, new


def text_changes(changes: tuple[Change, ...] | list[Change]) -> dict[tuple[tuple[str, ...], tuple[str, ...]], Change]:
    return {(ch.old, ch.new): ch for ch in changes if ch.aspect.value == "text"}


def test_the_cli_links_the_item_that_moved_into_a_section_held() -> None:
    result = CliRunner().invoke(
        main, ["compare", "2007", "2017", "--corpus", str(PARTIAL), "--no-cache", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    changes = json.loads(result.stdout)["changes"]
    by_pair = {(tuple(ch["old"]), tuple(ch["new"])): ch for ch in changes if ch["aspect"] == "text"}
    moved = by_pair[("45D(a)",), ("45C1",)]
    assert (moved["kind"], moved["scope"], moved["counterpart_in_corpus"]) == ("modified", "compared", True)
    assert moved["reasons"][0].endswith(ACROSS_PARTS)
    assert ((), ("45C1",)) not in by_pair and (("45D(a)",), ()) not in by_pair
    # Only what finds no counterpart in the two section pages is not compared; the new item stays added.
    assert {ch["old"][0] for ch in changes if ch["aspect"] == "text" and ch["scope"] != "compared"} == STILL_OUTSIDE
    assert by_pair[(), ("45E.p3",)]["kind"] == "added" and by_pair[(), ("45E.p3",)]["scope"] == "compared"


def test_the_study_scopes_the_link_as_compared_and_a_forbidden_pair_stays_apart(
    editions: tuple[Edition, Edition],
) -> None:
    old, new = editions
    comp = Study((old, new)).compare(old, new)
    moved = text_changes(comp.changes)[("45D(a)",), ("45C1",)]
    assert moved.kind is ChangeKind.MODIFIED and scope_of(moved) is Scope.COMPARED
    assert moved.certainty >= comp.thresholds.certain and not moved.uncertain
    outside = NotCompared.of(comp, comp.changes).changes
    assert {ch.old[0] for ch in outside if ch.aspect.value == "text"} == STILL_OUTSIDE
    assert {scope_of(ch) for ch in outside} == {Scope.HELD_IN_PART}
    # The committee's word wins: a pair it forbade is not made across the scope either.
    forbid = Corrections(forbids=(Forbid("45D(a)", "45C1"),))
    apart = Study((old, new), corrections={("2007", "2017"): forbid}).compare(old, new)
    pairs = text_changes(apart.changes)
    assert pairs[(), ("45C1",)].kind is ChangeKind.ADDED
    assert scope_of(pairs[("45D(a)",), ()]) is Scope.HELD_IN_PART


def test_the_redline_tracks_the_moved_item_and_nothing_the_pages_lack(editions: tuple[Edition, Edition]) -> None:
    old, new = editions
    comp = Study((old, new)).compare(old, new)
    doc = redline(comp.changes, old, new)
    bits = [bit for para in doc.paras for bit in para.bits]
    deleted = " ".join(b.text for b in bits if b.op.value == "delete")
    # 45D(a) is a tracked change now (it moved: deleted there, inserted here, each naming the other place).
    assert old.find("45D(a)").text in deleted  # type: ignore[union-attr]
    assert any("45D(a)" in r.text and "45C1" in r.text for r in doc.remarks)
    every = " ".join(b.text for b in bits)
    assert old.find("45D(b)").text not in every  # type: ignore[union-attr]  # not compared: not tracked
