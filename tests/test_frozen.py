"""lawdiff.frozen.slot_init: frozen records made through their slots, the same records as before."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from lawdiff.frozen import slot_init
from lawdiff.model import Clause, Kind, Loc, Reference
from lawdiff.sources.base import Block, BlockKind, Fragment, Furniture, Inline, InlineKind, LabelStyle

LOC = Loc("2007/wiki-Sjabloon-2007-45.txt", 3)
# Each record made through slot_init, with the arguments of one of its objects.
MADE: list[tuple[type, tuple[Any, ...], dict[str, Any]]] = [
    (Loc, ("f.txt",), {"path": "$[3]"}),
    (Reference, ("45E", 4, 7, "45E", "text"), {}),
    (Inline, (InlineKind.LINK, 0, 3, "45E", "45E"), {}),
    (Block, (BlockKind.LABELED, LOC, LabelStyle.NUMBER, "1.", "1"), {"text": "Een kaart.", "notes": ("n",)}),
    (Fragment, ("1. Een kaart.", LOC), {}),
    (Furniture, ("-", LOC, "list bullet"), {}),
    (Clause, (Kind.SECTION, "45A", "A.", "Titel", "Tekst.", (), (), (), LOC), {"anchor": 3}),
]


def _twin(cls: type) -> type:
    """The class as dataclasses alone makes it: the same fields, frozen and slotted."""
    fields = [(f.name, f.type, dataclasses.field(default=f.default)) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(f"Twin{cls.__name__}", fields, frozen=True, slots=True)


def _parameters(cls: type) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(cls).parameters.values()]


@pytest.mark.parametrize(("cls", "args", "kwargs"), MADE, ids=[c.__name__ for c, _, _ in MADE])
def test_a_record_is_made_as_dataclasses_makes_it(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    twin = _twin(cls)
    assert _parameters(cls) == _parameters(twin)
    made, expected = cls(*args, **kwargs), twin(*args, **kwargs)
    assert dataclasses.astuple(made) == dataclasses.astuple(expected)
    assert made == cls(*args, **kwargs) and hash(made) == hash(cls(*args, **kwargs))
    assert pickle.loads(pickle.dumps(made)) == made
    first = dataclasses.fields(cls)[0].name
    assert dataclasses.replace(made, **{first: getattr(made, first)}) == made
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, first, None)
    with pytest.raises(TypeError):
        cls(*args, no_such_field=1, **kwargs)


def test_a_missing_argument_is_refused_as_before() -> None:
    with pytest.raises(TypeError, match="missing"):
        Fragment("text only")  # type: ignore[call-arg]


def test_a_record_that_is_not_plain_is_refused() -> None:
    with pytest.raises(TypeError, match="frozen, slotted"):

        @slot_init
        @dataclasses.dataclass(slots=True)
        class Open:
            x: int

    with pytest.raises(TypeError, match="plain fields"):

        @slot_init
        @dataclasses.dataclass(frozen=True, slots=True)
        class Listed:
            x: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError, match="plain fields"):

        @slot_init
        @dataclasses.dataclass(frozen=True, slots=True)
        class Checked:
            x: int

            def __post_init__(self) -> None:
                pass
