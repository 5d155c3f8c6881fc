"""An unchanged clause costs a hash (issue 26, item 1): what runs after the alignment runs on what changed.

Word differences and the flags of words are made only for pairs whose texts differ; the aligner makes
no word vectors for two editions whose every clause kept its text.  Spies count the calls on the
bundled corpus and on a small held-out corpus (``benchmarks/heldout.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from benchscripts import bench_module

import lawdiff.diff.changes as changes
from lawdiff.align import align
from lawdiff.align import scoring as scoring_module
from lawdiff.corpus import load
from lawdiff.diff import Change, ChangeKind, Piece, word_diff
from lawdiff.model import Edition

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
    # Every change whose texts differ got its difference, and no other.
    differ = [ch for ch in comparison.changes if ch.old_texts and ch.new_texts and ch.old_texts != ch.new_texts]
    assert len(diffs) == len(differ) > 0
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
