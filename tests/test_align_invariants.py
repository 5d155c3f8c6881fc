"""Invariants of the alignment, over every pair of editions.

Every ordered pair of the bundled corpus's editions (each edition with itself
too) and every synthetic case of ``test_align_synthetic.py``:

* comparing an edition with itself gives only ``unchanged``, nothing renumbered;
* every clause with own text appears exactly once on each side among the
  changes of aspect "text";
* the old and the new text rebuild exactly from each change's diff;
* compare(A, B) mirrors compare(B, A);
* the same input gives the same result;
* each change's kind agrees with its sides and flags.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter

import pytest
from test_align_gold import bundled, change_line, mismatch
from test_align_synthetic import synthetic_pairs

from lawdiff.diff import Change, ChangeKind, Comparison, Op, compare, rebuild
from lawdiff.model import Edition


def _bundled_editions() -> dict[str, Edition]:
    return {e.name: e for e in bundled().editions}


def _pairs() -> list[object]:
    out: list[object] = []
    names = list(_bundled_editions())
    for a, b in itertools.product(names, repeat=2):
        out.append(pytest.param(("bundled", a, b), id=f"{a}-{b}"))
    for name, _old, _new in synthetic_pairs():
        out.append(pytest.param((name, "old", "new"), id=f"{name}"))
        out.append(pytest.param((name, "new", "old"), id=f"{name}-reversed"))
    return out


def _editions(spec: tuple[str, str, str]) -> tuple[Edition, Edition]:
    source, a, b = spec
    if source == "bundled":
        eds = _bundled_editions()
        return eds[a], eds[b]
    pair = next((old, new) for name, old, new in synthetic_pairs() if name == source)
    side = {"old": pair[0], "new": pair[1]}
    return side[a], side[b]


@functools.cache
def _compare(old: Edition, new: Edition) -> Comparison:
    return compare(old, new)


PAIRS = _pairs()


def _all_editions() -> list[object]:
    out: list[object] = [pytest.param(e, id=e.name) for e in bundled().editions]
    for name, old, new in synthetic_pairs():
        out.append(pytest.param(old, id=f"{name}-old"))
        out.append(pytest.param(new, id=f"{name}-new"))
    return out


@pytest.mark.parametrize("edition", _all_editions())
def test_an_edition_compared_with_itself_is_unchanged(edition: Edition) -> None:
    comp = compare(edition, edition)
    assert comp.changes
    for ch in comp.changes:
        assert ch.kind is ChangeKind.UNCHANGED, ch
        assert ch.old == ch.new and len(ch.old) == 1
        assert not (ch.renumbered or ch.moved or ch.title_changed or ch.editorial_only), ch
        assert ch.similarity == 1.0
        assert all(p.op is Op.EQUAL for p in ch.diff)
        assert all(r.status.value == "kept" for r in ch.references)
    assert not comp.has_differences


@pytest.mark.parametrize("spec", PAIRS)
def test_every_own_text_appears_once_on_each_side(spec: tuple[str, str, str]) -> None:
    old, new = _editions(spec)
    comp = _compare(old, new)
    text_changes = [ch for ch in comp.changes if ch.aspect.value == "text"]
    for side, edition in (("old", old), ("new", new)):
        own = Counter(c.address for c in edition.walk() if c.text)
        seen = Counter(a for ch in text_changes for a in getattr(ch, side))
        assert seen == own, f"{side} side: missing {sorted(own - seen)}, extra {sorted(seen - own)}"


@pytest.mark.parametrize("spec", PAIRS)
def test_old_and_new_text_rebuild_from_the_diff(spec: tuple[str, str, str]) -> None:
    old, new = _editions(spec)
    for ch in _compare(old, new).changes:
        assert rebuild(ch.diff) == ("\n".join(ch.old_texts), "\n".join(ch.new_texts)), ch
        assert all(p.text for p in ch.diff), "a diff piece without text"
        # The texts are the clauses' own (or, for a heading, their titles).
        for edition, addresses, texts in ((old, ch.old, ch.old_texts), (new, ch.new, ch.new_texts)):
            clauses = [edition.find(a) for a in addresses]
            assert None not in clauses
            wanted = tuple(c.title if ch.aspect.value == "title" else c.text for c in clauses if c is not None)
            assert texts == wanted


def _mirror_key(ch: Change) -> tuple[object, ...]:
    line = change_line(ch).mirrored()
    return (ch.aspect.value, line, ch.similarity, ch.score, ch.new_title, ch.old_title)


def _key(ch: Change) -> tuple[object, ...]:
    return (ch.aspect.value, change_line(ch), ch.similarity, ch.score, ch.old_title, ch.new_title)


@pytest.mark.parametrize("spec", PAIRS)
def test_compare_mirrors_the_reverse_comparison(spec: tuple[str, str, str]) -> None:
    old, new = _editions(spec)
    forward, backward = _compare(old, new), _compare(new, old)
    problem = mismatch(
        [change_line(ch) for ch in forward.changes], [change_line(ch).mirrored() for ch in backward.changes]
    )
    assert not problem, f"{old.name} -> {new.name} against the mirror of {new.name} -> {old.name}:\n{problem}"
    # Beyond the gold form: the same scores, similarities and titles.
    assert Counter(_key(ch) for ch in forward.changes) == Counter(_mirror_key(ch) for ch in backward.changes)


@pytest.mark.parametrize("spec", PAIRS)
def test_the_same_input_gives_the_same_result(spec: tuple[str, str, str]) -> None:
    old, new = _editions(spec)
    assert compare(old, new).changes == _compare(old, new).changes


@pytest.mark.parametrize("spec", PAIRS)
def test_kinds_agree_with_the_sides(spec: tuple[str, str, str]) -> None:
    old, new = _editions(spec)
    for ch in _compare(old, new).changes:
        shape = (len(ch.old) > 0, len(ch.new) > 0)
        if ch.kind is ChangeKind.ADDED:
            assert shape == (False, True) and not (ch.renumbered or ch.moved)
        elif ch.kind is ChangeKind.REMOVED:
            assert shape == (True, False) and not (ch.renumbered or ch.moved)
        elif ch.kind in (ChangeKind.SPLIT, ChangeKind.MERGED):
            assert shape == (True, True) and len(ch.old) + len(ch.new) > 2
        else:
            assert len(ch.old) == len(ch.new) == 1
        if ch.moved:
            assert ch.renumbered, ch
        if ch.kind is ChangeKind.UNCHANGED:
            assert ch.old_texts == ch.new_texts and not ch.title_changed and not ch.editorial_only
        assert 0.0 <= ch.similarity <= 1.0 and 0.0 <= ch.score <= 1.0
