"""What keeps the cost of a run linear in the size of the editions (issue 8, at 8x).

The figures themselves are measured by benchmarks/bench_speed.py; these tests
hold the pieces that the figures rely on to what they must still compute.
"""

from __future__ import annotations

import gc

import pytest

from lawdiff.align.links import Unit
from lawdiff.align.space import Space
from lawdiff.corpus import load
from lawdiff.diff import Study, history, timeline_with
from lawdiff.forked import collector_paused
from lawdiff.model import Kind


def test_a_studys_timeline_is_the_one_timeline_with_gives() -> None:
    corpus = load()
    study = Study(corpus.editions)
    for edition in (*corpus.editions, *corpus.variants):
        first = study.timeline(edition)
        assert [e.name for e in first] == [e.name for e in timeline_with(corpus.editions, edition)]
        # Each caller gets its own list: changing one leaves the next alone.
        first.clear()
        assert [e.name for e in study.timeline(edition)] == [e.name for e in timeline_with(corpus.editions, edition)]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_and_left_as_it_was(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        with pytest.raises(RuntimeError), collector_paused():
            assert not gc.isenabled()
            raise RuntimeError("a stage that fails")
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def _unit(address: str, text: str, position: int) -> Unit:
    return Unit(address, "45", position, text, "", Kind.SECTION, (), "45")


def test_a_word_is_held_once_however_many_clauses_say_it() -> None:
    old = [_unit("45A", "De leider speelt een kaart van de blinde.", 0)]
    new = [_unit("45A", "De leider speelt de kaart.", 0), _unit("45B", "Een kaart is gespeeld.", 1)]
    space = Space(old, new)
    held = [w for tf in (*space.old_tf, *space.new_tf) for w in tf if w == "kaart"]
    assert len(held) == 3
    assert all(w is held[0] for w in held)


def test_histories_share_their_walks_and_say_what_a_fresh_walk_says() -> None:
    # Each walk from an edition's addresses is made once per study: a clause
    # followed from two editions of its chain shares the steps beyond them.
    corpus = load()
    shared = Study(corpus.editions)
    for edition in corpus.editions:
        for clause in edition.walk():
            if clause.text or clause.title:
                assert history(shared, edition, clause.address) == history(
                    Study(corpus.editions), edition, clause.address
                )
    e2007, e2017 = corpus.edition("2007"), corpus.edition("2017")
    from_2007 = history(shared, e2007, "45C4(b)")
    from_2017 = history(shared, e2017, "45C4(b)")
    # 2007 and 2017 both reach 1963 45(d) through 2007 45C4(b): one walk.
    assert from_2007.steps[0].addresses == ("45(d)",)
    assert from_2007.steps[0] is from_2017.steps[0]
