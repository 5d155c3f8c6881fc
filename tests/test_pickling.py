"""lawdiff.pickling.by_fields: records pickled as their constructor's arguments, the same records back."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

import pytest

from lawdiff.corpus import load
from lawdiff.diff.changes import compare
from lawdiff.diff.vocabulary import Change, Piece, RefChange, Signal
from lawdiff.pickling import by_fields
from lawdiff.review import runs


def test_a_comparison_comes_back_equal_and_its_records_pickle_by_their_fields() -> None:
    eds = {e.name: e for e in runs.timeline(load())}
    comp = compare(eds["2007"], eds["2017"])
    back = pickle.loads(pickle.dumps(comp, protocol=pickle.HIGHEST_PROTOCOL))
    assert back.changes == comp.changes and back.alignment.links == comp.alignment.links
    assert any(ch.references for ch in comp.changes) and any(ch.signals for ch in comp.changes)
    for cls in (Change, Piece, RefChange, Signal):
        # not copyreg's dictionary of fields: the class and its constructor's arguments
        assert "__reduce__" in vars(cls)
    change = comp.changes[0]
    made, args = change.__reduce__()
    assert made is Change and made(*args) == change


def test_a_record_the_constructor_would_not_make_again_is_refused() -> None:
    with pytest.raises(TypeError, match="not an argument"):

        @by_fields
        @dataclass(frozen=True)
        class Memo:
            a: int
            seen: list[int] = field(default_factory=list, init=False)

    with pytest.raises(TypeError, match="__post_init__"):

        @by_fields
        @dataclass(frozen=True)
        class Normalized:
            a: str

            def __post_init__(self) -> None:
                object.__setattr__(self, "a", self.a.strip())
