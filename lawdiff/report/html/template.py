"""Fixed pieces of HTML with named holes, each hole escaped by construction: the report's rows.

A :class:`Template` is written once, as a constant of the code, and filled many times::

    ROW = Template('<tr class="{cls}"><td>{text}</td></tr>')
    ROW(cls="rel-same", text=law_text)

Where a hole stands is read once, when the template is made: a hole in text takes what :func:`h`
takes as a child (a plain ``str`` is escaped, :class:`Markup` passes through, None adds nothing, a
list is its children one after the other); a hole inside a double-quoted attribute value takes a
string, always escaped (a :class:`Markup` too: an attribute holds no markup).  A hole that is the
whole value of its attribute (``id="{ident}"``) leaves the attribute out when given None, False or
"".  A template whose holes stand anywhere else (inside a tag's name, unquoted, inside a comment,
a script or a style) is refused when it is made, so that no value can ever be read as markup.

Filling a template joins its fixed pieces and escaped values, and nothing else: several times
faster than building the same element by element with :func:`h`, which works out line breaks and
attributes at every call.  Only template constants make markup here (``tests/test_html.py`` reads
the renderers' source to hold them to that).
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Iterable
from types import CodeType
from typing import cast

from lawdiff.errors import LawdiffBug
from lawdiff.report.html.markup import (
    ATTR_SPECIAL,
    TEXT_SPECIAL,
    BlockMarkup,
    Child,
    Markup,
    escape_attribute,
    plain,
    text_child,
    text_html,
)

_HOLE = re.compile(r"\{([a-z][a-z0-9_]*)\}")
_NAME = re.compile(r"[a-z][a-z0-9-]*")
_ATTR_START = re.compile(r'\s([a-z][a-z0-9-]*)="\Z')

# Where a hole stands.
_TEXT, _VALUE, _WHOLE = 0, 1, 2


def _context(literal: str, state: str) -> str:
    """The state of the HTML tokenizer after ``literal`` (``text``, ``tag`` or ``value``), from ``state``.

    Enough of it for a template of the code: tags with double-quoted attributes, no comment, no raw text.
    """
    i = 0
    while i < len(literal):
        c = literal[i]
        if state == "text":
            if c == "<":
                m = _NAME.match(literal, i + 1 + (literal[i + 1 : i + 2] == "/"))
                if m is None:
                    raise LawdiffBug(f"a template's '<' starts no tag: {literal[i : i + 20]!r}")
                if m.group() in ("script", "style", "textarea", "title"):
                    raise LawdiffBug(f"a template holds <{m.group()}>, whose content is not escaped as text")
                state, i = "tag", m.end()
                continue
            if c == ">":
                raise LawdiffBug(f"a template's text holds '>': {literal!r}")
        elif state == "tag":
            if c == ">":
                state = "text"
            elif c == '"':
                state = "value"
            elif c in "'<`=" and not (c == "=" and literal[i + 1 : i + 2] == '"'):
                raise LawdiffBug(f'a template\'s attribute is not written name="value": {literal!r}')
        elif c == '"':  # the end of an attribute value
            state = "tag"
        elif c in "<>&":
            raise LawdiffBug(f"a template's attribute value holds {c!r}: {literal!r}")
        i += 1
    return state


class Template:
    """A fixed piece of HTML with named holes (see the module); ``block``: what it makes is a block
    element, after which :func:`h` puts a line break, as it does after its own.

    Made once, a template is compiled to a function of its holes, as Jinja compiles its templates: a
    function that joins the template's fixed pieces (referred to by their place in a tuple, never
    written into the code) with its escaped values.  Its source is built from the names of the holes
    alone, which are checked to be plain identifiers.  Each template is made an instance of a class of
    its own whose call is that function, taking the holes as its keyword arguments: filling a row is
    then one call (through a method that handed the values on, the report's 200,000 rows at 186
    articles cost 0.3 s more).

    The source is checked and written when the template is made, and compiled at its first fill
    (:meth:`compiled`): compiling is a third of a millisecond a template, and a process that fills a
    few of the report's templates (``compare --format html``) spent 15 ms compiling the others.
    """

    __slots__ = ("_code", "_space", "around", "names", "source")

    names: frozenset[str]
    source: str
    # A template whose one hole is in text (``<ins>{text}</ins>``): the markup before and after it.
    around: tuple[str, str] | None
    # The source of the template's function, and the names it refers to (until compiled: see compiled()).
    _code: str
    _space: dict[str, object]

    def __new__(cls, source: str, block: bool = False) -> Template:
        parts: list[tuple[str, str, int, str]] = []  # (literal before, hole, where, attribute name)
        state, pos = "text", 0
        for m in _HOLE.finditer(source):
            literal = source[pos : m.start()]
            state = _context(literal, state)
            if state == "tag":
                raise LawdiffBug(f"a template's hole {m.group()} stands inside a tag, outside an attribute value")
            where, attr = _TEXT, ""
            if state == "value":
                whole = _ATTR_START.search(literal)
                following = source[m.end() : m.end() + 1]
                if whole is not None and following == '"':
                    where, attr, literal = _WHOLE, whole.group(1), literal[: whole.start()]
                else:
                    where = _VALUE
            parts.append((literal, m.group(1), where, attr))
            if where == _WHOLE:  # the value's closing quote is written with it
                state, pos = "tag", m.end() + 1
            else:
                pos = m.end()
        if _context(source[pos:], state) != "text":
            raise LawdiffBug(f"a template ends inside a tag: {source[-40:]!r}")
        code, space = _function_source(parts, source[pos:], BlockMarkup if block else Markup)

        def first_fill(**values: Child | bool) -> Markup:
            return self.compiled()(**values)

        methods = {"__slots__": (), "__call__": staticmethod(first_fill), "__module__": cls.__module__}
        own = type(cls.__name__, (cls,), methods)
        self: Template = object.__new__(own)
        self.source = source
        self.names = frozenset(p[1] for p in parts)  # a name may stand in several holes
        self.around = (parts[0][0], source[pos:]) if len(parts) == 1 and parts[0][2] == _TEXT else None
        self._code, self._space = code, space
        _MADE.append(self)
        return self

    def __call__(self, **values: Child | bool) -> Markup:
        # Never reached: each template's own class (made in __new__) is called instead.
        raise LawdiffBug("a template is filled through its own class")

    def compiled(self) -> Callable[..., Markup]:
        """The template's function, compiled now if it is not yet; from then on, the call of its class."""
        if "fill" not in self._space:
            code = _CODE.get(self._code)
            if code is None:
                code = _CODE[self._code] = compile(self._code, "<lawdiff template>", "exec")
            exec(code, self._space)
            type.__setattr__(type(self), "__call__", staticmethod(cast("Callable[..., Markup]", self._space["fill"])))
        return cast("Callable[..., Markup]", self._space["fill"])


# Every template made (constants of the code), to compile them all before a report's processes fork.
_MADE: list[Template] = []
# The code compiled, by its source: templates with the same holes in the same places share it.
_CODE: dict[str, CodeType] = {}


def compile_all() -> None:
    """Compile every template made so far: before processes fork, so that each does not compile its own."""
    for t in _MADE:
        t.compiled()


def _wrong_holes(names: Iterable[str], given: dict[str, object]) -> LawdiffBug:
    return LawdiffBug(f"a template's holes are {sorted(names)}, given {sorted(given)}")


# What a hole not given holds in a template's function (None is a value a hole may be given).
_NOT_GIVEN = object()


def _function_source(
    parts: list[tuple[str, str, int, str]], tail: str, make: type[Markup]
) -> tuple[str, dict[str, object]]:
    """The source of the function that fills a template's holes, given as its keyword arguments (see
    :class:`Template`), and the names it refers to.

    What most holes are given is dealt with in the function's own code: a plain string scanned once and
    written as it is where it needs no escape (law text, an address, an id), a :class:`Markup` as it is,
    None as nothing; anything else through the functions :func:`h` uses (:func:`_text`, :func:`_value`),
    which write the same.
    """
    names = sorted({name for _, name, _, _ in parts})
    for name in names:
        if keyword.iskeyword(name) or not name.isidentifier():
            raise LawdiffBug(f"a template's hole may not be named {name!r}")
    literals: list[str] = []
    pieces: list[str] = []
    for literal, name, where, attr in parts:
        if literal:
            literals.append(literal)
            pieces.append(f"_L[{len(literals) - 1}]")
        if where == _WHOLE:
            literals.append(f' {attr}="')
        pieces.append(_hole_code(name, where, f"_L[{len(literals) - 1}]"))
    if tail:
        literals.append(tail)
        pieces.append(f"_L[{len(literals) - 1}]")
    # The names of the holes are the function's keyword arguments; the helpers' names start with "_", which
    # no hole's can.  A hole left out, or a name that is none, is a bug of the code that fills it.
    arguments = "".join(f"{name}=_N, " for name in names)
    missing = " or ".join(f"{name} is _N" for name in names)
    given = ", ".join(f"{name!r}: {name}" for name in names)
    code = (
        f"def fill({'*, ' if names else ''}{arguments}**_more):\n"
        f"    if _more or {missing or 'False'}:\n"
        f"        _given = {{k: v for k, v in {{{given}}}.items() if v is not _N}}\n"
        f"        raise _wrong(_names, {{**_given, **_more}})\n"
        f"    return _make(''.join(({', '.join(pieces)},)))\n"
    )
    space: dict[str, object] = {
        "_L": tuple(literals),
        "_t": _text,
        "_a": _value,
        "_s": _string,
        "_ts": TEXT_SPECIAL.search,
        "_th": text_html,
        "_as": ATTR_SPECIAL.search,
        "_ea": escape_attribute,
        "_M": Markup,
        "_B": BlockMarkup,
        "_make": make,
        "_N": _NOT_GIVEN,
        "_wrong": _wrong_holes,
        "_names": names,
    }
    return code, space


def _hole_code(name: str, where: int, start: str) -> str:
    """The expression of a template's function that writes hole ``name`` (see :func:`_compiled`): in text, in
    an attribute's value, or as a whole attribute whose `` name="`` is the literal ``start``."""
    if where == _TEXT:
        return (
            f"(({name} if _ts({name}) is None else _th({name})) if (_k := type({name})) is str"
            f" else {name} if _k is _M or _k is _B else '' if {name} is None else _t({name}))"
        )
    if where == _VALUE:
        return f"(({name} if _as({name}) is None else _ea({name})) if type({name}) is str else _a({name}))"
    return (
        f"('' if {name} is None or {name} is False or {name} == '' else"
        f" {start} + ({name} if type({name}) is str and _as({name}) is None else _ea(_s({name}))) + '\"')"
    )


def _value(value: object) -> str:
    """An attribute's value, escaped."""
    return escape_attribute(_string(value))


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise LawdiffBug(f"an attribute's hole takes a string, not {type(value).__name__}")
    return value


def _text(child: Child) -> str:
    """A child as HTML text, as :func:`h` writes it (without the line breaks)."""
    kind = type(child)
    if kind is str:
        return text_child(child)  # type: ignore[arg-type]
    if kind is Markup or kind is BlockMarkup:
        return child  # type: ignore[return-value]
    if child is None:
        return ""
    if isinstance(child, str):  # a subclass of str made elsewhere is text, never markup
        return text_child(str(child))
    if isinstance(child, bool | int | float):
        raise LawdiffBug(f"a template's text hole takes text, not {kind.__name__}")
    # A list of children (a row's cells, a cell's blocks): the usual ones dealt with here, in one loop.
    out: list[str] = []
    search = TEXT_SPECIAL.search
    for c in child:
        k = type(c)
        if k is Markup or k is BlockMarkup:
            out.append(c)  # type: ignore[arg-type]
        elif k is str:
            out.append(c if search(c) is None else text_html(c))  # type: ignore[arg-type]
        elif c is not None:
            out.append(_text(c))
    return "".join(out)


def each_in(pieces: Iterable[tuple[Template | None, str]]) -> Markup:
    """Texts one after the other, each in the one hole of its template (None: the text alone): what a hole
    given the list of the filled templates writes, made in one join.

    A long clause's difference is thousands of pieces (a 5 MB paragraph with 1 % of its words changed,
    30,000): the texts are checked for what needs escaping in one scan of them all (:func:`plain`), and
    where nothing does, each is written as it stands, with no element made for it.
    """
    listed = list(pieces)
    if not plain("".join([text for _, text in listed])):
        listed = [(template, text_child(text)) for template, text in listed]
    out: list[str] = []
    add = out.append
    for template, text in listed:
        if template is None:
            add(text)
            continue
        around = template.around
        if around is None:
            raise LawdiffBug(f"the template {template.source!r} has more than one hole, or one in an attribute")
        add(around[0])
        add(text)
        add(around[1])
    return Markup("".join(out))


def join(children: Iterable[Child]) -> Markup:
    """Children one after the other, as a template's hole would write them."""
    return Markup(_text(list(children)))
