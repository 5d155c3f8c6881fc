"""An unchanged clause costs a hash (issue 26, item 1): what runs after the alignment runs on what changed.

Word differences and the flags of words are made only for pairs whose texts differ; the aligner makes
no word vectors for two editions whose every clause kept its text.  Spies count the calls on the
bundled corpus and on a small held-out corpus (``benchmarks/heldout.py``).  The short ways an unchanged
clause takes (a one-to-one link, a kept heading proposed without a search, a change's id written
string by string) give what the long ways give; comparing two editions that kept every text loads
neither the word differences' engine nor the pools.
"""

from __future__ import annotations

import gc
import hashlib
import json
import pickle
import subprocess
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from benchscripts import BENCHMARKS, bench_module, generator
from click.testing import CliRunner

import lawdiff.diff.changes as changes
import lawdiff.diff.refchanges as refchanges
import lawdiff.diff.vocabulary as vocabulary
from lawdiff.align import Aspect, Corrections, Forbid, Pin, align, aligner, space, titles
from lawdiff.align import scoring as scoring_module
from lawdiff.cli import main as cli_main
from lawdiff.corpus import from_pages, load
from lawdiff.diff import Change, ChangeKind, Piece, word_diff
from lawdiff.diff.comparison import Changes, counts, differs, listed
from lawdiff.diff.scope import NotCompared
from lawdiff.diff.vocabulary import CHANGE_ID_VERSION, change_id
from lawdiff.model import Edition
from lawdiff.report import text
from lawdiff.sources import read_text

ROOT = BENCHMARKS.parent

heldout = bench_module("heldout")


def _pairs() -> list[tuple[Edition, Edition]]:
    bundled = load()
    return [(bundled.edition("2007"), bundled.edition("2017")), (bundled.edition("1963"), bundled.edition("2007"))]


@pytest.fixture(scope="module")
def few(tmp_path_factory: pytest.TempPathFactory) -> tuple[Edition, Edition]:
    held = heldout.build_corpus(tmp_path_factory.mktemp("few"), 8, "few")
    corpus = load([held.corpus])
    return corpus.edition("2007"), corpus.edition("2017")


def _spied(old: Edition, new: Edition, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[str, str]], list[Change]]:
    diffs: list[tuple[str, str]] = []
    flagged: list[Change] = []

    def diff(a: str, b: str) -> tuple[Piece, ...]:
        diffs.append((a, b))
        return word_diff(a, b)

    real = changes.significance

    def significance(ch: Change, *args: object) -> object:
        flagged.append(ch)
        return real(ch, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(changes, "significance", significance)
    comparison = changes.compare(old, new, diff=diff)
    # Every change whose texts differ got its difference, every clause whose heading changed the heading's,
    # and no other.
    differ = [ch for ch in comparison.changes if ch.old_texts and ch.new_texts and ch.old_texts != ch.new_texts]
    headings = [ch for ch in comparison.changes if ch.title_diff]
    assert all(ch.title_changed and ch.old_title != ch.new_title for ch in headings)
    assert len(diffs) == len(differ) + len(headings) and differ
    return diffs, flagged


def test_word_diffs_and_flags_only_where_texts_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    for old, new in _pairs():
        diffs, flagged = _spied(old, new, monkeypatch)
        assert all(a != b for a, b in diffs)
        assert flagged and all(ch.old_texts != ch.new_texts for ch in flagged)


def test_held_out_few_change(few: tuple[Edition, Edition], monkeypatch: pytest.MonkeyPatch) -> None:
    diffs, flagged = _spied(*few, monkeypatch)
    assert all(a != b for a, b in diffs)
    assert all(ch.old_texts != ch.new_texts for ch in flagged)
    # Most clauses of a few-change edition kept their texts: those cost no difference.
    comparison = changes.compare(*few)
    unchanged = [ch for ch in comparison.changes if ch.kind is ChangeKind.UNCHANGED]
    assert len(unchanged) > 3 * len(diffs)


def test_identical_editions_make_no_vectors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    held = heldout.build_corpus(tmp_path, 5, "identical")
    corpus = load([held.corpus])

    def refused(*_: object) -> None:
        raise AssertionError("word vectors made for editions whose every clause kept its text")

    monkeypatch.setattr(scoring_module, "Space", refused)
    alignment = align(corpus.edition("2007"), corpus.edition("2017"))
    linked = [link for link in alignment.links if link.old and link.new]
    assert linked and all(link.old == link.new and link.score == 1.0 for link in linked)
    assert all("same text" in link.reasons[0] for link in linked if link.aspect.value == "text")


# --- the short ways give what the long ways give --------------------------------------------------


@pytest.fixture(scope="module")
def held_pairs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Edition, Edition]]:
    """The bundled corpus's pairs, a held-out few-change, many-change and identical pair, and a pair of
    the generator's editions (clauses renumbered, moved, split and merged with their words)."""
    out = _pairs()
    for kind in ("few", "many", "identical"):
        held = heldout.build_corpus(tmp_path_factory.mktemp(kind), 12, kind)
        corpus = load([held.corpus])
        out.append((corpus.edition("2007"), corpus.edition("2017")))
    made = generator().generate(articles=20, years=(2007, 2017), seed=3, lexicon=generator().seed_lexicon())
    pages = [p for e in made.editions for name, t in e.pages for p in read_text(t, f"{e.name}/{name}", e.name)]
    generated = from_pages(pages)
    out.append((generated.edition("2007"), generated.edition("2017")))
    return out


def test_one_to_one_links_made_the_short_way_are_the_group_links(
    held_pairs: list[tuple[Edition, Edition]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pair matched alone (most links, most of them a clause that kept its text) is linked by
    ``_pair_link``, its reasons made once per kind: the same links as the general ``group_link``."""
    short = [align(old, new) for old, new in held_pairs]
    monkeypatch.setattr(aligner._Aligner, "_pair_link", lambda self, i, j: self.group_link([i], [j]))
    long = [align(old, new) for old, new in held_pairs]
    assert short == long
    assert all(
        link.reasons == other.reasons
        for a, b in zip(short, long, strict=True)
        for link, other in zip(a.links, b.links, strict=True)
    )
    kept = [link for a in short for link in a.links if link.old and link.new and link.old == link.new]
    assert len(kept) > 100


def test_kept_clauses_described_the_short_way_are_described_as_any_change(
    held_pairs: list[tuple[Edition, Edition]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clause linked to one clause whose text it kept (and its title, where the title is folded into
    the change) is described by ``_kept``: the same change records as the general description."""
    alignments = [align(old, new) for old, new in held_pairs]
    short = [changes.describe(old, new, a) for (old, new), a in zip(held_pairs, alignments, strict=True)]
    monkeypatch.setattr(
        changes._Describer, "_kept", lambda self, link, a, b, with_title=False: self._described(link, with_title)
    )
    long = [changes.describe(old, new, a) for (old, new), a in zip(held_pairs, alignments, strict=True)]
    assert short == long
    kept = [ch for c in short for ch in c.changes if ch.kind is ChangeKind.UNCHANGED]
    assert len(kept) > 100 and any(ch.moved for ch in kept) and any(ch.renumbered for ch in kept)
    # Titled clauses that kept their title and text took the short way too.
    assert any(ch.old_title and ch.old_title == ch.new_title for ch in kept)


def test_kept_headings_found_without_a_search_are_those_the_search_finds(
    held_pairs: list[tuple[Edition, Edition]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A heading that kept its place, title and text is proposed without a title search
    (``titles._Kept``): the alignment is the one the search gives."""
    short = [align(old, new) for old, new in held_pairs]
    monkeypatch.setattr(titles._Kept, "proposal", lambda *_: None)
    long = [align(old, new) for old, new in held_pairs]
    assert short == long


def test_units_shared_with_the_other_edition_are_the_units_made(held_pairs: list[tuple[Edition, Edition]]) -> None:
    """A clause that stands where the other edition's unit stands, with its address, text, title, kind and
    references, is that unit (``space.units(..., other)``): the same units as made one by one."""
    shared_any = False
    for old, new in held_pairs:
        places: dict[str, tuple[str, str]] = {}
        a_units = space.units(old, places)
        b_units = space.units(new, places, a_units)
        assert a_units == space.units(old) and b_units == space.units(new)
        assert [u.position for u in b_units] == list(range(len(b_units)))
        shared_any = shared_any or any(b is a for a, b in zip(a_units, b_units, strict=False))
    assert shared_any


def test_clauses_by_address_are_those_found(held_pairs: list[tuple[Edition, Edition]]) -> None:
    """``Edition.by_address`` (what the description looks each link's clauses up in) holds what ``find``
    finds by an address as written: the first clause of the address."""
    for old, new in held_pairs:
        for edition in (old, new):
            index = edition.by_address()
            assert index and all(edition.find(a) is c for a, c in index.items())
            assert all(index[c.address] is edition.find(c.address) for c in edition.walk())


def test_kept_headings_need_no_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    held = heldout.build_corpus(tmp_path, 5, "identical")
    corpus = load([held.corpus])

    def refused(*_: object) -> None:
        raise AssertionError("a heading that kept its place, title and text searched for")

    monkeypatch.setattr(titles, "_proposals", refused)
    alignment = align(corpus.edition("2007"), corpus.edition("2017"))
    headings = [link for link in alignment.links if link.aspect.value == "title"]
    assert headings and all(link.old == link.new and link.methods for link in headings)


@pytest.mark.parametrize(
    "texts",
    [
        ("a", "b"),
        ('de "regel" \\ ook', "tab\there, newline\nthere"),
        ("\x00\x1f control", "é ’ \u2028 <script>&amp;"),
        ("", ""),
        # Long texts (quoted as they stand where they hold nothing to escape), with and without a quote.
        ("woord " * 1000 + "é", "woord " * 999 + 'de "regel" ' * 600),
    ],
)
def test_change_id_is_the_hash_of_the_json_it_names(texts: tuple[str, str]) -> None:
    """The id's payload, written string by string, is the JSON of its parts as json.dumps writes it."""
    old_texts, new_texts = (texts[0],), (texts[1],)
    for aspect in Aspect:
        for old, new in ((("45A",), ("45A",)), (("45A", "45B"), ("45C",)), ((), ("1",))):
            for o_texts, n_texts in ((old_texts, new_texts), (old_texts, old_texts), ((), new_texts + old_texts)):
                parts = [CHANGE_ID_VERSION, "2007", "2017@wiki", aspect.value, list(old), list(new)]
                payload = json.dumps([*parts, list(o_texts), list(n_texts)], ensure_ascii=False, separators=(",", ":"))
                expected = hashlib.sha256(payload.encode("utf-8")).hexdigest()[:40]
                assert change_id("2007", "2017@wiki", aspect, old, new, o_texts, n_texts) == expected


# --- what compare loads and keeps ---------------------------------------------------------------------

_LOADED = (
    "import sys, runpy\n"
    "sys.argv = ['lawdiff', 'compare', '2007', '2017', '--corpus', sys.argv[1], '--no-cache', '--no-review',\n"
    "            *sys.argv[2:]]\n"
    "try:\n"
    "    runpy.run_module('lawdiff.cli', run_name='__main__')\n"
    "except SystemExit:\n"
    "    pass\n"
    "wanted = ('diff_match_patch', 'rapidfuzz', 'multiprocessing', 'lawdiff.forked.share', 'tomllib')\n"
    "import gc\n"
    "frozen = ['(frozen)'] if gc.get_freeze_count() else []\n"
    "print('loaded:', *[m for m in wanted if m in sys.modules], *frozen, file=sys.stderr)\n"
)


def _loaded(corpus: Path, *options: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, str(corpus), *options], capture_output=True, text=True, check=True, cwd=ROOT
    )
    line = next(line for line in done.stderr.splitlines() if line.startswith("loaded:"))
    return set(line.split()[1:])


def test_comparing_what_did_not_change_loads_no_word_difference_nor_pool(tmp_path: Path) -> None:
    """Two editions that kept every text: no word difference is made, so neither its engine
    (diff-match-patch, rapidfuzz) is loaded, nor the lexicon of the flags (tomllib), nor the pools
    (multiprocessing) for work done in one process."""
    same = heldout.build_corpus(tmp_path / "same", 3, "identical")
    # (The command's process ends with it: what it made is left out of the collector's last pass.)
    assert _loaded(same.corpus) == {"(frozen)"}
    few = heldout.build_corpus(tmp_path / "few", 3, "few")
    assert {"diff_match_patch", "rapidfuzz", "tomllib"} <= _loaded(few.corpus)
    # Nor for one file written (-o): the report's writer loads its pool only where it forks.
    for form in ("json", "html"):
        assert "multiprocessing" not in _loaded(few.corpus, "--format", form, "-o", str(tmp_path / f"out.{form}"))


def test_compare_leaves_the_collector_as_it_found_it(tmp_path: Path) -> None:
    """compare runs with the collector off (forked.collector_paused_for_command); in a process that goes
    on after it (this one) the collector is on again after it and nothing it made is left frozen."""
    held = heldout.build_corpus(tmp_path, 3, "few")
    before = gc.get_freeze_count()
    result = CliRunner().invoke(
        cli_main, ["compare", "2007", "2017", "--corpus", str(held.corpus), "--no-cache", "--no-review"]
    )
    assert result.exit_code == 0, result.output
    assert gc.isenabled()
    assert gc.get_freeze_count() == before


def test_kept_headings_under_the_committees_corrections(
    held_pairs: list[tuple[Edition, Edition]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pins and forbidden pairs take the search (a pinned heading, a forbidden kept pair): the same
    alignment with the shortcut as without it."""
    old, new = held_pairs[2]  # the held-out few-change pair
    fixes = Corrections(pins=(Pin(("3",), ("4",)), Pin(("4",), ("3",))), forbids=(Forbid("5", "5"),))
    short = align(old, new, corrections=fixes)
    monkeypatch.setattr(titles._Kept, "proposal", lambda *_: None)
    assert align(old, new, corrections=fixes) == short
    titled = {(link.old, link.new) for link in short.links if link.aspect is Aspect.TITLE}
    assert (("3",), ("4",)) in titled and (("5",), ("5",)) not in titled


def test_references_kept_in_order_are_those_the_matching_finds(held_pairs: list[tuple[Edition, Edition]]) -> None:
    """A clause whose references name the same targets in the same order on both sides has each one kept,
    its record made once per target (``Successors.kept``): what matching them one by one gives."""
    seen = 0
    for old, new in held_pairs:
        alignment = align(old, new)
        successors = refchanges.Successors(old, new, alignment)
        for link in alignment.links:
            olds = [c for c in (old.find(a) for a in link.old) if c is not None]
            news = [c for c in (new.find(a) for a in link.new) if c is not None]
            old_refs = [r.target for c in olds for r in c.references]
            new_refs = [r.target for c in news for r in c.references]
            if old_refs and old_refs == new_refs:
                seen += 1
                matched = refchanges.references_matched(old_refs, new_refs, refchanges.Successors(old, new, alignment))
                assert refchanges.reference_changes(olds, news, successors) == matched
    assert seen > 20


# --- an unchanged clause's record made when read ------------------------------------------------------


class _Counting:
    """Counts the change records made (each ``Change.__init__``) while it is installed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made = 0
        real = vocabulary.Change.__init__

        def init(record: Change, *args: Any, **kwargs: Any) -> None:
            self.made += 1
            real(record, *args, **kwargs)

        monkeypatch.setattr(vocabulary.Change, "__init__", init)


def test_identical_editions_make_no_record_per_unchanged_clause_until_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Comparing two editions that kept every text and title makes no change record (a clause that kept its
    text, a heading that kept its title); ``compare``'s text output (its counts, the clauses it lists) makes
    none either.  Each record is made when first read, once: every record for ``--all``."""
    held = heldout.build_corpus(tmp_path, 5, "identical")
    corpus = load([held.corpus])
    old, new = corpus.edition("2007"), corpus.edition("2017")
    counting = _Counting(monkeypatch)
    comparison = changes.compare(old, new)
    held_changes = comparison.changes
    assert isinstance(held_changes, Changes)
    kept, described = held_changes.kept(), held_changes.described()
    assert len(kept) > 50 and len(kept) + len(described) == len(held_changes)
    assert counting.made == len(described) == 0
    assert {k[0].aspect for k in kept} == {Aspect.TEXT, Aspect.TITLE}
    result = CliRunner().invoke(
        cli_main, ["compare", "2007", "2017", "--corpus", str(held.corpus), "--no-cache", "--no-review"]
    )
    assert result.exit_code == 0, result.output
    assert f": {len(held_changes)} unchanged, 0 modified" in result.output
    assert f"{len(held_changes)} unchanged clause(s) not shown" in result.output
    assert counting.made == 2 * len(described)  # (the command's own comparison: no kept clause's record)
    text.comparison(comparison, held_changes, False)
    assert counting.made == 2 * len(described)
    # Read, every record is made once, and read again it is the same record.
    every = list(held_changes)
    assert counting.made == 2 * len(described) + len(kept)
    assert all(a is b for a, b in zip(every, held_changes, strict=True))
    assert all(held_changes[i] is every[i] for i in (0, -1, len(every) // 2))
    assert held_changes[1:4] == tuple(every[1:4])
    assert counting.made == 2 * len(described) + len(kept)


def test_changes_held_lazily_read_as_the_records_they_stand_for(held_pairs: list[tuple[Edition, Edition]]) -> None:
    """What a comparison's changes answer without making the kept clauses' records (the counts, whether any
    is a difference, the clauses a listing shows, the normative count, the patterns, what is not compared)
    is what the records say; a comparison pickled (the cache, a forked describer) and read back is the same,
    its kept clauses still held as entries; and the text output is the one drawn from the records."""
    held_kept = 0
    for old, new in held_pairs:
        comparison = changes.compare(old, new)
        lazy = comparison.changes
        assert isinstance(lazy, Changes)
        held_kept += len(lazy.kept())
        records = tuple(Changes(lazy.old, lazy.new, lazy))  # every entry a record
        assert records == lazy and lazy == records and hash(records) == hash(lazy) and repr(records) == repr(lazy)
        fresh = changes.compare(old, new).changes  # (no record of it made yet)
        eager = replace(comparison, changes=records)
        assert counts(fresh) == counts(records)
        assert differs(fresh) == differs(records)
        assert comparison.has_differences == eager.has_differences
        assert comparison.normative_count(fresh) == comparison.normative_count(records)
        assert comparison.patterns_of(fresh) == comparison.patterns_of(records)
        assert NotCompared.of(comparison, fresh).changes == NotCompared.of(comparison, records).changes
        decided = partial(_among, {ch.id for ch in records[::7]})
        for every in (False, True):
            for also in (None, decided):
                assert listed(changes.compare(old, new).changes, every, also) == listed(records, every, also)
        for show_all in (False, True):
            drawn = text.comparison(changes.compare(old, new), changes.compare(old, new).changes, show_all)
            assert drawn == text.comparison(eager, records, show_all)
        back = pickle.loads(pickle.dumps(comparison, protocol=pickle.HIGHEST_PROTOCOL))
        assert back == comparison and back.changes.kept() == lazy.kept()  # type: ignore[attr-defined]
    assert held_kept > 100


def _among(ids: set[str], ch: Change) -> bool:
    return ch.id in ids


def test_a_clauses_heading_difference_is_the_studys_not_the_renderers() -> None:
    """A clause whose heading changed holds the heading's word difference (``Change.title_diff``), made
    once with the comparison: the text output and the HTML draw it and make no word difference of their own."""
    corpus = load([Path(__file__).parent / "fixtures" / "html" / "corpus"])
    comp = changes.compare(corpus.edition("2001"), corpus.edition("2011"))
    titled = [ch for ch in comp.changes if ch.title_changed and ch.aspect is Aspect.TEXT]
    assert titled, "the fixture holds a clause whose heading changed"
    for ch in comp.changes:
        if ch in titled:
            assert ch.title_diff == word_diff(ch.old_title, ch.new_title)
        else:
            assert ch.title_diff == ()
    import lawdiff.report.html.pair as pair
    import lawdiff.report.text as text_module

    assert not hasattr(pair, "word_diff")
    assert not hasattr(text_module, "word_diff")
