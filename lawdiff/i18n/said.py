"""Words made early and shown late: the alignment's reasons for a match, the readers' notes.

Most of what lawdiff says is made where it is shown, in the reader's language (``_("why: {reasons}")``).
Two kinds of text are made long before: the aligner says why it matched two clauses ("shared words 0.87,
same address"), and the readers say what they noticed in a page ("text continued after a blank line,
joined").  They are kept in the study and in the cache, and shown by renderers that run later, perhaps in
another language (the served app speaks each member's).  So they are made as :class:`Said`: a ``str``
whose value is the English text, as before (equal to it, hashed and written to JSON as it, so that
nothing that stores or compares them changes), that also carries its catalog message and the values
that fill it in (kept through pickle: the cache, the pipes of forked processes).  A renderer that shows
one to a person passes it through :func:`say`, which says it in the interface's language ("gedeelde
woorden 0,87, zelfde adres"); JSON and CSV keep the English value.

The messages are marked where they are made with :func:`~lawdiff.i18n.N_`
(``Said(N_("shared words {score}"), score=0.87)``), so that Babel extracts them.
"""

from __future__ import annotations

from collections.abc import Iterable
from string import Formatter
from typing import Any

from lawdiff.i18n import DEFAULT, decimal_sign, language, translations

__all__ = ["Field", "Said", "joined", "made_once", "say"]

#: What fills in a message: text (a name, an address, as it is), a :class:`Said` (said in the language
#: too), a count, or a share or score (two decimals: "0.87", "0,87" in Dutch).
Field = str | int | float


class Said(str):
    """Text for a person, made now and shown later: its English value, its message and the message's fields.

    msgid: the catalog's message, English, with ``{name}`` fields (``"shared words {score}"``).
    values: the values of its fields, in the order the message first names them.
    fields: the same as (name, value) pairs.

    Immutable, as a ``str`` is: its attributes cannot be set again.  A reason is made for every match of
    every comparison, so a Said holds no more than its message (shared by all that say it) and a tuple.
    """

    __slots__ = ("msgid", "values")
    msgid: str
    values: tuple[Field, ...]

    def __new__(cls, msgid: str, /, **fields: Field) -> Said:
        names = _names(msgid)
        if len(fields) != len(names) or not all(name in fields for name in names):
            raise TypeError(f"Said({msgid!r}): the fields are {', '.join(names) or 'none'}, not {', '.join(fields)}")
        if not names:
            # A message without fields is one object wherever it is said ("same address", a note).
            found = _FIXED.get(msgid) if cls is Said else None
            if found is None:
                found = _made(cls, msgid, msgid, ())
                if cls is Said:
                    _FIXED[msgid] = found
            return found
        text = msgid.format_map({name: _english(value) for name, value in fields.items()})
        return _made(cls, text, msgid, tuple([fields[name] for name in names]))

    @property
    def fields(self) -> tuple[tuple[str, Field], ...]:
        """The fields as (name, value) pairs, in the order the message first names them."""
        return tuple(zip(_names(self.msgid), self.values, strict=True))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Said is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Said is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Its text, message and values as they are: made again without formatting (a cache of a corpus
        # holds one per note and per match), and kept whole across the pipes of forked processes.
        return _restored, (str(self), self.msgid, self.values)

    def __copy__(self) -> Said:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Said:
        return self


# The Saids without fields, and the joins of such Saids ("same text, same address"), each made once: every
# clause kept as it was gives such a reason, and a comparison holds thousands of them.
_FIXED: dict[str, Said] = {}
_FIXED_JOINS: dict[tuple[str, ...], Said] = {}

_set_msgid = Said.__dict__["msgid"].__set__
_set_values = Said.__dict__["values"].__set__


def _made(cls: type[Said], text: str, msgid: str, values: tuple[Field, ...]) -> Said:
    self = str.__new__(cls, text)
    _set_msgid(self, msgid)
    _set_values(self, values)
    return self


def _restored(text: str, msgid: str, values: tuple[Field, ...]) -> Said:
    """A pickled :class:`Said` made again (what its ``__reduce__`` names)."""
    return _made(Said, text, msgid, values)


def made_once() -> dict[Any, Any]:
    """For a reader of many pickled Saids (the reasons of a comparison's every match, made in another
    process: :class:`lawdiff.forked.wire.Wire`'s makers): what it makes them with so that a Said without a
    score among its values is made once among them, the same text, message and values one object, and a
    Said without fields is the one this process holds (``same address``).

    Read one by one, the reasons of a comparison of 744 articles were 14,000 objects of some 480 bytes each,
    the parts without a score (``same text, same address``) said over and over.  A score makes a Said of its
    own (``words agree 0.9713``): kept once, it would be kept to no purpose."""
    known: dict[tuple[object, ...], Said] = {}
    once: set[int] = set()  # the Saids given more than once (kept here, or by _FIXED)

    def restored(text: str, msgid: str, values: tuple[Field, ...]) -> Said:
        if not values and (found := _FIXED.get(msgid)) is not None and str(found) == text:
            once.add(id(found))
            return found
        if any(type(v) is float or (isinstance(v, Said) and id(v) not in once) for v in values):
            return _made(Said, text, msgid, values)
        # A Said among the values by identity: given more than once, so that the same is the same object.
        key = (text, msgid, *((type(v), id(v) if isinstance(v, Said) else v) for v in values))
        found = known.get(key)
        if found is None:
            found = known[key] = _made(Said, text, msgid, values)
            once.add(id(found))
        return found

    return {_restored: restored}


# Each message's field names, in the order it first names them, read once per message.
_NAMES: dict[str, tuple[str, ...]] = {}


def _names(msgid: str) -> tuple[str, ...]:
    found = _NAMES.get(msgid)
    if found is None:
        names = [name for _, name, _, _ in Formatter().parse(msgid) if name is not None]
        found = _NAMES[msgid] = tuple(dict.fromkeys(names))
    return found


def _english(value: Field) -> str:
    if isinstance(value, str):
        return str(value)
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


# The message of a join of so many parts with a separator ("{p0}, {p1}"), made once for each.
_JOINS: dict[tuple[str, int], str] = {}


def joined(parts: Iterable[str], sep: str = "") -> Said:
    """``sep.join(parts)`` that stays :class:`Said`: each part is said in the language where it is shown
    (a plain ``str`` part, such as an address, as it is); the separator is not translated.  A lone Said
    is itself."""
    pieces = tuple(parts)
    if len(pieces) == 1 and isinstance(pieces[0], Said):
        return pieces[0]
    fixed = all(type(p) is Said and not p.values for p in pieces)
    if fixed and (found := _FIXED_JOINS.get((sep, *pieces))) is not None:
        return found
    template = _JOINS.get((sep, len(pieces)))
    if template is None:
        escaped = sep.replace("{", "{{").replace("}", "}}")
        template = _JOINS[(sep, len(pieces))] = escaped.join(f"{{p{i}}}" for i in range(len(pieces)))
    made = _made(Said, sep.join(pieces), template, pieces)
    if fixed:
        _FIXED_JOINS[(sep, *pieces)] = made
    return made


def say(text: str) -> str:
    """``text`` for a person, in the interface's language: a :class:`Said` translated, its fields said
    too; any other ``str`` as it is.  In English, a Said's English value."""
    if not isinstance(text, Said):
        return text
    if language() == DEFAULT:
        return str(text)
    return _said(text, translations(language()).gettext, decimal_sign())


def _said(text: Said, gettext: Any, sign: str) -> str:
    if not text.msgid:  # gettext("") is the catalog's header
        return ""
    if not text.values:
        return str(gettext(text.msgid))
    shown: dict[str, str] = {}
    for name, value in zip(_names(text.msgid), text.values, strict=True):
        if isinstance(value, Said):
            shown[name] = _said(value, gettext, sign)
        elif isinstance(value, str):
            shown[name] = str(value)
        elif isinstance(value, float):
            shown[name] = f"{value:.2f}".replace(".", sign)
        else:
            shown[name] = str(value)
    return str(gettext(text.msgid)).format_map(shown)
