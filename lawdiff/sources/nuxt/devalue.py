"""A decoder for the ``devalue`` format that Nuxt writes to ``_payload.json``.

The payload is a JSON array.  Element 0 is the root; every number inside an
object or an array is the index of another element; negative numbers are
special values; an array whose first element is a string is a tagged value
(``["Date", "2024-03-01T00:00:00.000Z"]``, ``["Set", 4, 5]``,
``["ShallowReactive", 2]``...).  Shared references decode to the same Python
object.  Unlike devalue itself, lawdiff refuses cycles: a law page never needs
one, and a cyclic tree cannot be walked into a clause tree.

:func:`decode` also returns, for every decoded list and dict, the index of
the payload element it came from, so that readers can name the exact place
of a clause (``$[533]``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

UNDEFINED_INDEX = -1
HOLE_INDEX = -2
NAN_INDEX = -3
POSITIVE_INFINITY_INDEX = -4
NEGATIVE_INFINITY_INDEX = -5
NEGATIVE_ZERO_INDEX = -6


class _Sentinel:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __bool__(self) -> bool:
        return False


UNDEFINED: Any = _Sentinel("undefined")
HOLE: Any = _Sentinel("hole")
INVALID_DATE: Any = _Sentinel("Invalid Date")

# Nuxt's own reducers wrap a value in a reactive container; the container means
# nothing outside a running Vue app, so the wrapped value is what we keep.
_WRAPPERS = frozenset({"ShallowReactive", "Reactive", "Ref", "ShallowRef"})


class DevalueError(ValueError):
    """The payload is not valid devalue; ``where`` names the element."""

    def __init__(self, what: str, where: str) -> None:
        self.what = what
        self.where = where
        super().__init__(f"{where}: {what}")


@dataclass(frozen=True, slots=True)
class RegExp:
    source: str
    flags: str


@dataclass(frozen=True, slots=True)
class Decoded:
    """A decoded payload: the root value and where each container came from."""

    value: Any
    origin: dict[int, int]  # id(list or dict) -> payload index

    def where(self, obj: object) -> str:
        index = self.origin.get(id(obj))
        return f"$[{index}]" if index is not None else "$"


def loads(text: str) -> Decoded:
    """Parse JSON text and decode it; JSON errors become :class:`DevalueError`."""
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DevalueError(f"not valid JSON ({exc.msg})", f"line {exc.lineno} column {exc.colno}") from None
    return decode(parsed)


def decode(parsed: Any) -> Decoded:
    """Decode an already parsed devalue array (or a bare special number)."""
    origin: dict[int, int] = {}
    if isinstance(parsed, int) and not isinstance(parsed, bool):
        return Decoded(_special(parsed, "$", standalone=True), origin)
    if not isinstance(parsed, list) or not parsed:
        raise DevalueError("a devalue payload must be a non-empty JSON array", "$")
    values: list[Any] = parsed
    done: dict[int, Any] = {}
    busy: set[int] = set()

    def hydrate(index: Any, where: str) -> Any:
        if isinstance(index, bool) or not isinstance(index, int):
            raise DevalueError(f"expected an element index, found {json.dumps(index)[:40]}", where)
        if index < 0:
            return _special(index, where)
        if index >= len(values):
            raise DevalueError(f"index {index} points past the end of the payload ({len(values)} elements)", where)
        if index in done:
            return done[index]
        if index in busy:
            raise DevalueError(f"element {index} refers back to itself (a cycle)", f"$[{index}]")
        busy.add(index)
        result = _build(values[index], index)
        busy.discard(index)
        done[index] = result
        return result

    def _build(raw: Any, index: int) -> Any:
        here = f"$[{index}]"
        if isinstance(raw, dict):
            obj: dict[str, Any] = {}
            origin[id(obj)] = index
            for key, ref in raw.items():
                obj[key] = hydrate(ref, f"{here}.{key}")
            return obj
        if isinstance(raw, list):
            if raw and isinstance(raw[0], str):
                return _tagged(raw, index, here)
            arr: list[Any] = []
            origin[id(arr)] = index
            for i, ref in enumerate(raw):
                arr.append(HOLE if ref == HOLE_INDEX else hydrate(ref, f"{here}[{i}]"))
            return arr
        return raw  # string, number, bool, null

    def _tagged(raw: list[Any], index: int, here: str) -> Any:
        tag = raw[0]
        args = raw[1:]
        if tag in _WRAPPERS:
            if len(args) != 1:
                raise DevalueError(f'"{tag}" takes one value, found {len(args)}', here)
            return hydrate(args[0], f"{here}[1]")
        if tag == "Object":
            # A boxed primitive (``new String("x")``): devalue writes the value
            # itself, not an index.
            if len(args) != 1 or isinstance(args[0], (dict, list)):
                raise DevalueError('"Object" takes one primitive value', here)
            return args[0]
        if tag in ("EmptyRef", "EmptyShallowRef"):
            # Nuxt's reducer gives the ref's falsy value as JSON text ("_" for
            # undefined, "0n" for a zero BigInt), stored as an element.
            data = hydrate(args[0], f"{here}[1]") if args else "_"
            if data == "_":
                return UNDEFINED
            if data == "0n":
                return 0
            try:
                return json.loads(data) if isinstance(data, str) else data
            except json.JSONDecodeError:
                return data
        if tag == "Date":
            text = str(args[0]) if args else ""
            if not text:
                # devalue writes an invalid date (``new Date("x")``) as "".
                return INVALID_DATE
            try:
                return datetime.fromisoformat(text.replace("Z", "+00:00"))
            except ValueError:
                raise DevalueError(f"invalid date {text!r}", here) from None
        if tag == "Set":
            items = [hydrate(ref, f"{here}[{i + 1}]") for i, ref in enumerate(args)]
            origin[id(items)] = index
            return items
        if tag in ("Map", "null"):
            if len(args) % 2:
                raise DevalueError(f'"{tag}" needs key/value pairs, found an odd count', here)
            mapping: dict[Any, Any] = {}
            origin[id(mapping)] = index
            for i in range(0, len(args), 2):
                key = args[i] if tag == "null" else hydrate(args[i], f"{here}[{i + 1}]")
                try:
                    mapping[key] = hydrate(args[i + 1], f"{here}[{i + 2}]")
                except TypeError:
                    raise DevalueError("a Map key that cannot be a dictionary key", here) from None
            return mapping
        if tag == "RegExp":
            return RegExp(str(args[0]) if args else "", str(args[1]) if len(args) > 1 else "")
        if tag == "BigInt":
            try:
                return int(args[0])
            except (ValueError, TypeError, IndexError):
                raise DevalueError("invalid BigInt", here) from None
        if tag in ("URL", "URLSearchParams"):
            return str(args[0]) if args else ""
        if tag == "NuxtError":
            return hydrate(args[0], f"{here}[1]") if args else {}
        raise DevalueError(f'unknown devalue tag "{tag}"', here)

    return Decoded(hydrate(0, "$[0]"), origin)


def _special(index: int, where: str, standalone: bool = False) -> Any:
    if index == UNDEFINED_INDEX:
        return UNDEFINED
    if index == NAN_INDEX:
        return math.nan
    if index == POSITIVE_INFINITY_INDEX:
        return math.inf
    if index == NEGATIVE_INFINITY_INDEX:
        return -math.inf
    if index == NEGATIVE_ZERO_INDEX:
        return -0.0
    if index == HOLE_INDEX and not standalone:
        return HOLE
    raise DevalueError(f"unknown special value {index}", where)
