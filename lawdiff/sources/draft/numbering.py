"""Automatic list numbering, resolved as the word processor shows it.

In Word and LibreOffice the "1." and "(a)" of a list are often not in the
text: the list's numbering definition makes them.  This module turns those
definitions back into the labels a reader sees on the page, so that the
addresses are the printed ones.

**Word** (``word/numbering.xml``): a paragraph's ``w:numPr`` (direct, or from
its style, whose level may come from the ``w:pStyle`` of a level) names a
``w:num``, which points at a ``w:abstractNum`` (directly or through a
``w:numStyleLink``) and may override levels (``w:lvlOverride``: a whole
``w:lvl``, or only ``w:startOverride``).  A level has ``w:start``,
``w:numFmt`` (decimal, lowerLetter, upperLetter, lowerRoman, upperRoman,
bullet, none, ...), ``w:lvlText`` (``%1.``, ``(%2)``, ``%1.%2``),
``w:lvlRestart`` and ``w:isLgl``.  As Word counts (and as ECMA-376 §17.9
describes): the running count belongs to the *abstract* definition, so two
``w:num`` that share one continue each other's numbering; a ``w:num`` with a
``w:startOverride`` restarts its levels where it is first used (that is what
Word's "Restart at 1" writes), while a whole ``w:lvl`` override changes only
how a level looks and the count goes on (as LibreOffice shows it); a level
restarts when a level above it is used, unless ``w:lvlRestart`` says
otherwise.

**OpenDocument** (``text:list`` with list styles): each ``text:list`` starts
its own numbering, unless ``text:continue-numbering="true"`` (the previous
list of the same style goes on) or ``text:continue-list`` names the list it
continues; ``text:start-value`` on an item restarts there; a level's label is
``style:num-prefix`` + the numbers of ``text:display-levels`` levels joined by
dots + ``style:num-suffix``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_W = f"{{{W}}}"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"

BULLET = "-"  # how a bullet is shown to the line reader ("- " list items)
MAX_LEVELS = 9

_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"),
          (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))  # fmt: skip


def _roman(n: int) -> str:
    out = []
    for value, letters in _ROMAN:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def _letters(n: int) -> str:
    # Word and LibreOffice: a..z, then aa..zz, aaa... (the letter repeated).
    if n <= 0:
        return str(n)
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def format_number(n: int, fmt: str) -> str:
    """A number in a Word ``w:numFmt`` (ODF formats are mapped to these names)."""
    if fmt in ("lowerLetter",):
        return _letters(n)
    if fmt == "upperLetter":
        return _letters(n).upper()
    if fmt == "lowerRoman":
        return _roman(n) if n > 0 else str(n)
    if fmt == "upperRoman":
        return _roman(n).upper() if n > 0 else str(n)
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt == "none":
        return ""
    # decimal, and the formats a law book does not use, shown as decimal.
    return str(n)


# ---------------------------------------------------------------------------
# Word


@dataclass(frozen=True, slots=True)
class Level:
    """One level of a Word list definition."""

    fmt: str = "decimal"
    text: str = "%1."
    start: int = 1
    restart: int | None = None  # w:lvlRestart: None = after any level above; 0 = never
    legal: bool = False  # w:isLgl: the numbers of the levels above shown as decimal
    style: str = ""  # w:pStyle: the paragraph style that carries this level


def _int(el: etree._Element | None, default: int) -> int:
    if el is None:
        return default
    try:
        return int(el.get(f"{_W}val", str(default)))
    except ValueError:
        return default


def _level(lvl: etree._Element, base: Level | None = None) -> Level:
    base = base or Level()
    fmt_el = lvl.find(f"{_W}numFmt")
    text_el = lvl.find(f"{_W}lvlText")
    restart_el = lvl.find(f"{_W}lvlRestart")
    legal_el = lvl.find(f"{_W}isLgl")
    style_el = lvl.find(f"{_W}pStyle")
    return Level(
        fmt=fmt_el.get(f"{_W}val", "decimal") if fmt_el is not None else base.fmt,
        text=text_el.get(f"{_W}val", "") if text_el is not None else base.text,
        start=_int(lvl.find(f"{_W}start"), base.start),
        restart=_int(restart_el, 0) if restart_el is not None else base.restart,
        legal=(legal_el.get(f"{_W}val", "1") not in ("0", "false")) if legal_el is not None else base.legal,
        style=style_el.get(f"{_W}val", "") if style_el is not None else base.style,
    )


@dataclass
class _Num:
    abstract: str
    levels: dict[int, etree._Element] = field(default_factory=dict)  # whole-level overrides (w:lvl)
    starts: dict[int, int] = field(default_factory=dict)  # w:startOverride
    restarts: set[int] = field(default_factory=set)  # levels this num restarts where it is first used
    used: bool = False


_PLACEHOLDER = re.compile(r"%([1-9])")


class WordNumbering:
    """The numbering definitions of one document, and the running counts.

    ``style_num`` maps a paragraph style id to the numId its ``w:numPr``
    names (see :class:`lawdiff.sources.draft.docx_styles.Styles`), for ``w:numStyleLink``.
    """

    def __init__(self, root: etree._Element | None, style_num: dict[str, str] | None = None) -> None:
        self.abstracts: dict[str, dict[int, Level]] = {}
        self.links: dict[str, str] = {}  # abstract id -> numbering style it takes its levels from
        self.nums: dict[str, _Num] = {}
        self.style_num = style_num or {}
        self.counts: dict[str, list[int | None]] = {}
        if root is None:
            return
        for ab in root.iterfind(f"{_W}abstractNum"):
            aid = ab.get(f"{_W}abstractNumId", "")
            self.abstracts[aid] = {_int_attr(lvl, "ilvl"): _level(lvl) for lvl in ab.iterfind(f"{_W}lvl")}
            link = ab.find(f"{_W}numStyleLink")
            if link is not None:
                self.links[aid] = link.get(f"{_W}val", "")
        for num in root.iterfind(f"{_W}num"):
            nid = num.get(f"{_W}numId", "")
            ab_el = num.find(f"{_W}abstractNumId")
            n = _Num(ab_el.get(f"{_W}val", "") if ab_el is not None else "")
            for ov in num.iterfind(f"{_W}lvlOverride"):
                ilvl = _int_attr(ov, "ilvl")
                start = ov.find(f"{_W}startOverride")
                if start is not None:
                    n.starts[ilvl] = _int(start, 1)
                lvl = ov.find(f"{_W}lvl")
                if lvl is not None:
                    n.levels[ilvl] = lvl
                if start is not None:
                    # Only a start override restarts the count (as LibreOffice shows it); a whole
                    # w:lvl changes how the level looks, and the shared count goes on.
                    n.restarts.add(ilvl)
            self.nums[nid] = n

    def _abstract_id(self, num: _Num) -> str:
        aid = num.abstract
        # w:numStyleLink: the definition lives in the num of a numbering style.
        for _ in range(4):
            style = self.links.get(aid)
            if not style:
                break
            target = self.nums.get(self.style_num.get(style, ""))
            if target is None or target.abstract == aid:
                break
            aid = target.abstract
        return aid

    def _levels(self, num: _Num) -> dict[int, Level]:
        base = self.abstracts.get(self._abstract_id(num), {})
        out = dict(base)
        for ilvl, raw in num.levels.items():
            out[ilvl] = _level(raw, base.get(ilvl))
        for ilvl, start in num.starts.items():
            lvl = out.get(ilvl, Level())
            out[ilvl] = Level(lvl.fmt, lvl.text, start, lvl.restart, lvl.legal, lvl.style)
        return out

    def level_of_style(self, num_id: str, style: str) -> int:
        """The level whose ``w:pStyle`` is ``style`` (a style that names only a numId), else 0."""
        num = self.nums.get(num_id)
        if num is None:
            return 0
        for ilvl, lvl in sorted(self._levels(num).items()):
            if lvl.style == style:
                return ilvl
        return 0

    def label(self, num_id: str, ilvl: int) -> str:
        """The label of the next paragraph at ``(num_id, ilvl)``, counting it."""
        num = self.nums.get(num_id)
        if num is None or not 0 <= ilvl < MAX_LEVELS:
            return ""
        levels = self._levels(num)
        aid = self._abstract_id(num)
        counts = self.counts.setdefault(aid, [None] * MAX_LEVELS)
        if not num.used:
            num.used = True
            # "Restart at ...": the overridden levels start again here.
            for lvl_index in num.restarts:
                if 0 <= lvl_index < MAX_LEVELS:
                    counts[lvl_index] = None
        level = levels.get(ilvl, Level())
        current = counts[ilvl]
        counts[ilvl] = level.start if current is None else current + 1
        for deeper in range(ilvl + 1, MAX_LEVELS):
            restart = levels.get(deeper, Level()).restart
            if restart is None or (restart != 0 and ilvl <= restart - 1):
                counts[deeper] = None
        if level.fmt == "bullet":
            return BULLET
        if level.fmt == "none":
            return _PLACEHOLDER.sub("", level.text).strip()

        def number(m: re.Match[str]) -> str:
            k = int(m.group(1)) - 1
            lvl = levels.get(k, Level())
            value = counts[k] if counts[k] is not None else lvl.start
            fmt = "decimal" if level.legal and k != ilvl else lvl.fmt
            return format_number(value or 0, fmt)

        return _PLACEHOLDER.sub(number, level.text).strip()


def _int_attr(el: etree._Element, name: str) -> int:
    try:
        return int(el.get(f"{_W}{name}", "0"))
    except ValueError:
        return 0


# ---------------------------------------------------------------------------
# OpenDocument

_ODF_FORMATS = {
    "1": "decimal",
    "a": "lowerLetter",
    "A": "upperLetter",
    "i": "lowerRoman",
    "I": "upperRoman",
    "": "none",
}


@dataclass(frozen=True, slots=True)
class OdfLevel:
    """One level of an ODF list style (``text:list-level-style-*``)."""

    bullet: bool = False
    fmt: str = "decimal"
    prefix: str = ""
    suffix: str = ""
    display: int = 1
    start: int = 1


@dataclass(frozen=True, slots=True)
class OdfItem:
    """Where a paragraph stands in an ODF list.

    chain: the ``text:list`` (outermost) the paragraph is in, numbered in
        document order; continuation is decided by :class:`OdfCounter`.
    style: the list style name (inherited from the enclosing lists).
    level: 1 for the outermost list.
    continues: ``text:continue-numbering="true"`` on the outermost list.
    continue_list: the ``xml:id`` the outermost list continues, or "".
    list_id: the outermost list's ``xml:id``, or "".
    start: an item's ``text:start-value``, or None.
    header: a ``text:list-header`` (unnumbered) or a paragraph after the first of an item.
    """

    chain: int
    style: str
    level: int
    continues: bool = False
    continue_list: str = ""
    list_id: str = ""
    start: int | None = None
    header: bool = False


class OdfCounter:
    """Numbers ODF list items in document order (see the module docstring)."""

    def __init__(self, styles: dict[str, dict[int, OdfLevel]]) -> None:
        self.styles = styles
        self.counts: dict[int, list[int | None]] = {}  # counter set id -> counts per level
        self.chain_set: dict[int, int] = {}  # text:list -> counter set
        self.last_of_style: dict[str, int] = {}
        self.by_id: dict[str, int] = {}
        self.last = -1

    def _set_for(self, item: OdfItem) -> int:
        if item.chain in self.chain_set:
            return self.chain_set[item.chain]
        if item.continue_list and item.continue_list in self.by_id:
            chosen = self.by_id[item.continue_list]
        elif item.continues and (item.style in self.last_of_style or self.last >= 0):
            chosen = self.last_of_style.get(item.style, self.last)
        else:
            chosen = item.chain
            self.counts[chosen] = [None] * (MAX_LEVELS + 1)
        self.chain_set[item.chain] = chosen
        if item.list_id:
            self.by_id[item.list_id] = chosen
        self.last_of_style[item.style] = chosen
        self.last = chosen
        return chosen

    def label(self, item: OdfItem) -> str:
        levels = self.styles.get(item.style, {})
        counts = self.counts.setdefault(self._set_for(item), [None] * (MAX_LEVELS + 1))
        level = levels.get(item.level)
        depth = min(max(item.level, 1), MAX_LEVELS)
        if item.header or level is None:
            # A list header, or a level the style does not define: no number.
            return ""
        if level.bullet:
            return BULLET
        current = counts[depth]
        if item.start is not None:
            counts[depth] = item.start
        else:
            counts[depth] = level.start if current is None else current + 1
        for deeper in range(depth + 1, MAX_LEVELS + 1):
            counts[deeper] = None
        if level.fmt == "none":
            return f"{level.prefix}{level.suffix}".strip()
        shown = []
        for k in range(max(1, depth - level.display + 1), depth + 1):
            lvl = levels.get(k, OdfLevel())
            value = counts[k] if counts[k] is not None else lvl.start
            shown.append(format_number(value or 0, lvl.fmt if not lvl.bullet else "decimal"))
        return f"{level.prefix}{'.'.join(shown)}{level.suffix}".strip()


def odf_format(value: str) -> str:
    """An ODF ``style:num-format`` as a Word format name."""
    return _ODF_FORMATS.get(value, "decimal")


# The outline style's key among the list styles (no list style can be named so).
OUTLINE_STYLE = "\0outline"


def odf_list_styles(*roots: etree._Element | None) -> dict[str, dict[int, OdfLevel]]:
    """The list styles (``text:list-style``) of the parts given, by name; the outline style as :data:`OUTLINE_STYLE`."""
    styles: dict[str, dict[int, OdfLevel]] = {}
    for root in roots:
        if root is not None:
            for ls in root.iter(_t("list-style")):
                styles[ls.get(f"{{{_STYLE}}}name", "")] = _odf_levels(ls)
            for os_ in root.iter(_t("outline-style")):
                styles[OUTLINE_STYLE] = _odf_levels(os_)
    return styles


def _t(tag: str) -> str:
    return f"{{{_TEXT}}}{tag}"


def _odf_levels(style: etree._Element) -> dict[int, OdfLevel]:
    out: dict[int, OdfLevel] = {}
    for lvl in style:
        if not isinstance(lvl.tag, str):
            continue
        name = etree.QName(lvl).localname
        try:
            level = int(lvl.get(_t("level"), "1"))
        except ValueError:
            continue
        if name in ("list-level-style-bullet", "list-level-style-image"):
            out[level] = OdfLevel(bullet=True)
        elif name in ("list-level-style-number", "outline-level-style"):
            fmt = lvl.get(f"{{{_STYLE}}}num-format", "")
            try:
                display = int(lvl.get(_t("display-levels"), "1"))
                start = int(lvl.get(_t("start-value"), "1"))
            except ValueError:
                display, start = 1, 1
            out[level] = OdfLevel(
                False,
                odf_format(fmt),
                lvl.get(f"{{{_STYLE}}}num-prefix", ""),
                lvl.get(f"{{{_STYLE}}}num-suffix", ""),
                display,
                start,
            )
    return out
