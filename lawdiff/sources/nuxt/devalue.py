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
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from lawdiff.i18n import gettext as _

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

# How deep values may nest (references followed): a page needs about a dozen
# levels; the decoder and the body walker recurse, so hostile nesting (a chain
# of 10,000 references) must stop well before Python's recursion limit.
MAX_NESTING = 200

# A lone surrogate (``"\\ud800"`` in the JSON): valid JSON, but no character,
# and no UTF-8 can encode it.  Read as U+FFFD, with a note.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")

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
    # Payload elements whose strings held lone surrogates, read as U+FFFD.
    replaced: tuple[int, ...] = ()

    def where(self, obj: object) -> str:
        index = self.origin.get(id(obj))
        return f"$[{index}]" if index is not None else "$"


def loads(text: str) -> Decoded:
    """Parse JSON text and decode it; JSON errors become :class:`DevalueError`."""
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DevalueError(
            _("not valid JSON ({msg})").format(msg=exc.msg),
            _("line {line} column {column}").format(line=exc.lineno, column=exc.colno),
        ) from None
    except RecursionError:
        raise DevalueError(_("the JSON nests arrays or objects too deep to read"), "$") from None
    except ValueError:
        # A number of more than 4,300 digits: Python refuses to convert it
        # (a guard against quadratic time), and no payload needs one.  Its
        # message advises a call to sys.set_int_max_str_digits(), which is
        # no advice for a user: not passed on.
        raise DevalueError(_("a number too long to read (more than 4,300 digits; no payload holds one)"), "$") from None
    replaced: tuple[int, ...] = ()
    if _SURROGATE_ESCAPE.search(text) or _LONE_SURROGATE.search(text):
        try:
            parsed, replaced = _replace_surrogates(parsed)
        except RecursionError:
            raise DevalueError(_("the JSON nests arrays or objects too deep to read"), "$") from None
    decoded = decode(parsed)
    return Decoded(decoded.value, decoded.origin, replaced)


def _replace_surrogates(parsed: Any) -> tuple[Any, tuple[int, ...]]:
    """Lone surrogates in the strings of a parsed payload replaced by U+FFFD; which elements held one."""
    if not isinstance(parsed, list):
        return parsed, ()
    out: list[Any] = []
    replaced: list[int] = []
    for index, element in enumerate(parsed):
        fixed = _fix(element)
        if fixed is not element:
            replaced.append(index)
        out.append(fixed)
    return out, tuple(replaced)


def _fix(value: Any) -> Any:
    """``value`` with lone surrogates replaced; the same object when it holds none."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value) if _LONE_SURROGATE.search(value) else value
    if isinstance(value, list):
        items = [_fix(v) for v in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if isinstance(value, dict):
        pairs = [(_fix(k), _fix(v)) for k, v in value.items()]
        if any(k is not k0 or v is not v0 for (k, v), (k0, v0) in zip(pairs, value.items(), strict=True)):
            return dict(pairs)
        return value
    return value


def _brief(value: Any) -> str:
    """A short view of a JSON value for a message (never its whole nesting)."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return json.dumps(value)[:40]


def decode(parsed: Any) -> Decoded:
    """Decode an already parsed devalue array (or a bare special number)."""
    origin: dict[int, int] = {}
    if isinstance(parsed, int) and not isinstance(parsed, bool):
        return Decoded(_special(parsed, "$", standalone=True), origin)
    if not isinstance(parsed, list) or not parsed:
        raise DevalueError(_("a devalue payload must be a non-empty JSON array"), "$")
    values: list[Any] = parsed
    done: dict[int, Any] = {}
    busy: set[int] = set()

    def hydrate(index: Any, where: str) -> Any:
        if isinstance(index, bool) or not isinstance(index, int):
            raise DevalueError(_("expected an element index, found {value}").format(value=_brief(index)), where)
        if index < 0:
            return _special(index, where)
        if index >= len(values):
            raise DevalueError(
                _("index {index} points past the end of the payload ({n} elements)").format(index=index, n=len(values)),
                where,
            )
        if index in done:
            return done[index]
        if index in busy:
            # Named where the reference that closes the cycle is: that is the value to mend.
            raise DevalueError(_("refers back to element {index}, which holds it (a cycle)").format(index=index), where)
        if len(busy) >= MAX_NESTING:
            raise DevalueError(
                _("values nested more than {MAX_NESTING} deep (a chain of references)").format(MAX_NESTING=MAX_NESTING),
                where,
            )
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
                return _tagged(raw, index, here, hydrate, origin)
            arr: list[Any] = []
            origin[id(arr)] = index
            for i, ref in enumerate(raw):
                arr.append(HOLE if ref == HOLE_INDEX else hydrate(ref, f"{here}[{i}]"))
            return arr
        return raw  # string, number, bool, null

    return Decoded(hydrate(0, "$[0]"), origin)


def _tagged(raw: list[Any], index: int, here: str, hydrate: Callable[[Any, str], Any], origin: dict[int, int]) -> Any:
    """A tagged array ``["Tag", ...]``: a wrapper, a collection (elements read by ``hydrate``) or a value."""
    tag = raw[0]
    args = raw[1:]
    if tag in _WRAPPERS:
        if len(args) != 1:
            raise DevalueError(_('"{tag}" takes one value, found {n}').format(tag=tag, n=len(args)), here)
        return hydrate(args[0], f"{here}[1]")
    if tag in _VALUE_TAGS:
        return _tagged_value(tag, args, here)
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
        except ValueError:  # not JSON, or a number of more than 4,300 digits: kept as written
            return data
    if tag == "Set":
        items = [hydrate(ref, f"{here}[{i + 1}]") for i, ref in enumerate(args)]
        origin[id(items)] = index
        return items
    if tag in ("Map", "null"):
        if len(args) % 2:
            raise DevalueError(_('"{tag}" needs key/value pairs, found an odd count').format(tag=tag), here)
        mapping: dict[Any, Any] = {}
        origin[id(mapping)] = index
        for i in range(0, len(args), 2):
            key = args[i] if tag == "null" else hydrate(args[i], f"{here}[{i + 1}]")
            try:
                mapping[key] = hydrate(args[i + 1], f"{here}[{i + 2}]")
            except TypeError:
                raise DevalueError(_("a Map key that cannot be a dictionary key"), here) from None
        return mapping
    if tag == "NuxtError":
        return hydrate(args[0], f"{here}[1]") if args else {}
    raise DevalueError(_('unknown devalue tag "{tag}"').format(tag=tag), here)


# The tags whose arguments are the value itself, not element indexes.
_VALUE_TAGS = frozenset({"Object", "Date", "RegExp", "BigInt", "URL", "URLSearchParams"})


def _tagged_value(tag: str, args: list[Any], here: str) -> Any:
    """The value of a tag in :data:`_VALUE_TAGS`, written in the array itself."""
    if tag == "Object":
        # A boxed primitive (``new String("x")``): devalue writes the value
        # itself, not an index.
        if len(args) != 1 or isinstance(args[0], (dict, list)):
            raise DevalueError(_('"Object" takes one primitive value'), here)
        return args[0]
    if tag == "Date":
        text = str(args[0]) if args else ""
        if not text:
            # devalue writes an invalid date (``new Date("x")``) as "".
            return INVALID_DATE
        try:
            return datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise DevalueError(_("invalid date {text!r}").format(text=text), here) from None
    if tag == "RegExp":
        return RegExp(str(args[0]) if args else "", str(args[1]) if len(args) > 1 else "")
    if tag == "BigInt":
        try:
            return int(args[0])
        except (ValueError, TypeError, IndexError):
            raise DevalueError(_("invalid BigInt"), here) from None
    return str(args[0]) if args else ""  # URL, URLSearchParams


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
    raise DevalueError(_("unknown special value {index}").format(index=index), where)
