"""Reader for rendered wiki pages: a title line, then the page's text.

The 1963, 1997 and 2007 seeds are of this form.  Each edition has its own
habits, all handled here line by line:

* article headings ``ARTIKEL 45 Gespeelde kaart`` (1997 on) and
  ``Artikel 41. Het begin van het spelen.`` (1963);
* container headings ``PARAGRAAF I Voor de beurt voorspelen Art. 53 t/m 56``
  and ``JUISTE GANG VAN ZAKEN. Art. 41 t/m 49`` (1963);
* sections ``A. Title`` (a short line without closing punctuation is a
  title; anything longer is the section's text);
* subsections ``1. Text`` (2007) and ``1. Title`` + blank line + text (1997);
* items ``a. text`` (1963), ``- (a) text`` and bare ``- text`` list items;
* footnote markers ``1)`` (only where the page has a note ``1) ...``) and
  ``¹⁾``, with the notes after a ``---`` rule or straight after the text;
* the misprinted note marker ``!)`` (1963 article 48), read as the lowest
  marker still waiting for its note, and noted as such.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from lawdiff.errors import InputError
from lawdiff.sources.base import (
    Block,
    BlockKind,
    Fragment,
    Furniture,
    Inline,
    InlineKind,
    LabelStyle,
    Loc,
    Page,
)
from lawdiff.sources.normalize import close_gap, normalize_lines, superscript_number
from lawdiff.sources.wikiname import parse_title

FORMAT = "wiki-text"

# A section or subsection line is read as "label + title" only when the rest
# is at most this long and does not end like a sentence.
TITLE_MAX_CHARS = 120
_SENTENCE_END = (".", ";", ":", ",", ")")

_RULE = re.compile(r"^-{3,}$")
_ARTICLE = re.compile(r"^(?P<label>(?:ARTIKEL|Artikel)\s+(?P<num>\d{1,3})\.?)(?:\s+(?P<title>.*))?$")
_RANGE = re.compile(r"\s*(?P<range>Art\.\s*\d+\s*t/m\s*\d+\.?)$")
_PARAGRAAF = re.compile(
    r"^(?P<label>(?:PARAGRAAF|Paragraaf|HOOFDSTUK|Hoofdstuk|DEEL|Deel)\s+[IVXL\d]+\.?)\s*(?P<title>.*)$"
)
_UPPER = re.compile(r"^(?P<key>[A-Z])\.(?:\s+(?P<rest>.*))?$")
_NUMBER = re.compile(r"^(?P<key>\d{1,2})\.(?:\s+(?P<rest>.*))?$")
_LOWER = re.compile(r"^(?P<key>[a-z])\.\s+(?P<rest>.*)$")
_PAREN = re.compile(r"^\((?P<key>[a-z]{1,2}|\d{1,2})\)(?:\s+(?P<rest>.*))?$")
_DASH = re.compile(r"^-\s+(?P<rest>.*)$")
_NOTE = re.compile(r"^(?P<mark>(?P<num>\d{1,2})\)|!\)|(?P<sup>[⁰¹²³⁴⁵⁶⁷⁸⁹]+)⁾?)\s+(?P<rest>.*)$")
_ASCII_MARK = re.compile(r"(?<=\s)(?P<num>\d{1,2})\)(?=[\s.,;:]|$)")


@dataclass(frozen=True, slots=True)
class LinkSpan:
    """A hyperlink in a line given to :func:`read_lines` (raw wikitext has them).

    start, end: offsets into the (normalized) line.
    target: the clause address the link points at ("45E").
    """

    start: int
    end: int
    target: str


def looks_like(text: str) -> bool:
    """Whether text is a rendered wiki page (its first line is a page title)."""
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    return parse_title(first) is not None


def read(text: str, file: str) -> list[Page]:
    """Read one rendered wiki page."""
    lines = normalize_lines(text.lstrip("\ufeff"))
    if not lines or not lines[0]:
        raise InputError(
            "the first line is empty, but a wiki page starts with its title",
            file=file,
            place="1",
            fix="put the page title (e.g. Sjabloon:2007:45) on the first line",
        )
    name = parse_title(lines[0])
    if name is None:
        raise InputError(
            f"the first line {lines[0][:60]!r} is not a wiki page title",
            file=file,
            place="1",
            fix="put the page title (e.g. Sjabloon:2007:45) on the first line",
        )
    reader = _Reader(file, lines)
    reader.run()
    return [
        Page(
            file=file,
            format=FORMAT,
            edition=name.edition,
            name=name.name,
            loc=Loc(file, 1),
            containers=name.containers,
            scope=name.scope,
            blocks=tuple(reader.blocks),
            fragments=tuple(reader.fragments),
            furniture=(Furniture(lines[0], Loc(file, 1), "page title (kept as the page name)"), *reader.furniture),
            meta=(("title", lines[0]), ("kind", name.kind)),
        )
    ]


def read_lines(
    lines: list[str],
    file: str,
    locs: Sequence[Loc],
    links: Mapping[int, Sequence[LinkSpan]] | None = None,
    notes: Mapping[int, Sequence[str]] | None = None,
) -> tuple[list[Block], list[Fragment], list[Furniture]]:
    """Read lines that another reader has already made into rendered text.

    ``lines[0]`` is the page title (not read); every line is normalized
    (:func:`normalize_lines`).  ``locs[i]`` is where line ``i`` came from,
    ``links[i]`` the hyperlinks in it, ``notes[i]`` what the other reader
    noticed there (attached to the block read from that line or after it).
    Used by the MediaWiki XML reader, which turns raw wikitext into the lines
    a rendered page would show.
    """
    reader = _Reader(file, lines, locs, links, notes)
    reader.run()
    if reader.line_notes and reader.blocks:
        last = reader.blocks[-1]
        extra = tuple(n for _, ns in sorted(reader.line_notes.items()) for n in ns)
        reader.blocks[-1] = replace(last, notes=(*last.notes, *extra))
    return reader.blocks, reader.fragments, reader.furniture


class _Reader:
    def __init__(
        self,
        file: str,
        lines: list[str],
        locs: Sequence[Loc] | None = None,
        links: Mapping[int, Sequence[LinkSpan]] | None = None,
        notes: Mapping[int, Sequence[str]] | None = None,
    ) -> None:
        self.file = file
        self.lines = lines
        self.locs = locs
        self.links = links or {}
        self.line_notes = {i: tuple(n) for i, n in (notes or {}).items() if n}
        self.current = 0  # the line being read
        self.blocks: list[Block] = []
        self.fragments: list[Fragment] = []
        self.furniture: list[Furniture] = []
        # Numbers that have a note "N) ..." somewhere on the page: only those
        # "N)" in the text are footnote markers (others are printed text).
        self.note_numbers: set[str] = set()
        self.has_bang_note = False
        for line in lines[1:]:
            if m := _NOTE.match(line):
                if m.group("num"):
                    self.note_numbers.add(m.group("num"))
                elif m.group("sup"):
                    self.note_numbers.add(superscript_number(m.group("sup")))
                else:
                    self.has_bang_note = True
        self.pending: list[str] = []  # markers seen, notes not yet read
        self.in_notes = False

    def loc(self, index: int) -> Loc:
        if self.locs is not None:
            return self.locs[index]
        return Loc(self.file, index + 1)

    def _next_nonblank(self, index: int) -> tuple[int, bool]:
        """Index of the next non-blank line after ``index`` and whether a blank came first."""
        j = index + 1
        blank = False
        while j < len(self.lines) and not self.lines[j]:
            blank = True
            j += 1
        return j, blank

    def _is_labeled(self, line: str) -> bool:
        return bool(
            _ARTICLE.match(line)
            or _PARAGRAAF.match(line)
            or _RANGE.search(line)
            or _UPPER.match(line)
            or _NUMBER.match(line)
            or _LOWER.match(line)
            or _PAREN.match(line)
            or _DASH.match(line)
            or _RULE.match(line)
            or _NOTE.match(line)
        )

    def run(self) -> None:
        for i in range(1, len(self.lines)):
            line = self.lines[i]
            if not line:
                continue
            self.current = i
            self.line(i, line)

    def add(self, block: Block) -> None:
        if self.line_notes:
            due = [i for i in self.line_notes if i <= self.current]
            if due:
                extra = tuple(n for i in sorted(due) for n in self.line_notes.pop(i))
                block = replace(block, notes=(*block.notes, *extra))
        self.blocks.append(block)

    def _links_in(self, text: str) -> list[tuple[int, int, str]]:
        """The links of the current line that fall in ``text`` (a suffix of it), as offsets into ``text``."""
        spans = self.links.get(self.current)
        if not spans:
            return []
        offset = len(self.lines[self.current]) - len(text)
        return [(s.start - offset, s.end - offset, s.target) for s in spans if s.start >= offset]

    def text_with_markers(self, text: str) -> tuple[str, tuple[Inline, ...]]:
        """Take footnote markers out of ``text``; remember them as pending."""
        inlines: list[Inline] = []
        links = self._links_in(text)
        allowed = set(self.note_numbers)
        if self.has_bang_note:
            allowed.add("1")
        while True:
            sup = re.search(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾?", text)
            asc = None
            for m in _ASCII_MARK.finditer(text):
                if m.group("num") in allowed:
                    asc = m
                    break
            cands = [m for m in (sup, asc) if m is not None]
            if not cands:
                break
            m = min(cands, key=lambda c: c.start())
            printed = m.group(0)
            number = superscript_number(printed) if m is sup else m.group("num")
            before = len(text)
            text, pos = close_gap(text[: m.start()] + text[m.end() :], m.start())
            if links:
                removed = before - len(text)
                links = [(_shifted(s, pos, removed), _shifted(e, pos, removed), t) for s, e, t in links]
            # Markers are taken out left to right, so the ones already taken
            # stand before ``pos`` and keep their offsets.
            inlines.append(Inline(InlineKind.FOOTNOTE_REF, pos, pos, number, printed))
            self.pending.append(number)
        inlines.extend(Inline(InlineKind.LINK, s, e, t, text[s:e]) for s, e, t in links if s < e)
        inlines.sort(key=lambda x: x.start)
        return text, tuple(inlines)

    def line(self, i: int, line: str) -> None:
        loc = self.loc(i)
        if _RULE.match(line):
            self.in_notes = True
            self.furniture.append(Furniture(line, loc, "footnote rule"))
            return
        note = _NOTE.match(line)
        if note:
            number = note.group("num") or superscript_number(note.group("sup") or "")
            bang = not number
            if bang and self.pending:
                number = self.pending[0]
            if self.in_notes or (number and number in self.pending):
                notes: tuple[str, ...] = ()
                if bang:
                    if not number:
                        number = "1"
                    notes = (f"note marker printed as {note.group('mark')!r}, read as {number})",)
                if number in self.pending:
                    self.pending.remove(number)
                self.fragments.append(Fragment(line, loc))
                text, inlines = self.text_with_markers(note.group("rest"))
                self.add(
                    Block(
                        BlockKind.FOOTNOTE,
                        loc,
                        label=note.group("mark"),
                        key=number,
                        text=text,
                        inlines=inlines,
                        notes=notes,
                    )
                )
                return
        self.in_notes = False
        if m := _ARTICLE.match(line):
            self.fragments.append(Fragment(line, loc))
            self.add(
                Block(
                    BlockKind.ARTICLE,
                    loc,
                    label=m.group("label"),
                    key=m.group("num"),
                    title=m.group("title") or "",
                )
            )
            return
        if (m := _PARAGRAAF.match(line)) or _RANGE.search(line):
            self.fragments.append(Fragment(line, loc))
            rng = _RANGE.search(line)
            head = line[: rng.start()] if rng else line
            label, title = "", head
            if m:
                pm = _PARAGRAAF.match(head)
                if pm:
                    label, title = pm.group("label"), pm.group("title")
            self.add(
                Block(
                    BlockKind.CONTAINER,
                    loc,
                    label=label,
                    title=title.strip(),
                    extra=rng.group("range") if rng else "",
                )
            )
            return
        if m := _DASH.match(line):
            self.furniture.append(Furniture("-", loc, "list bullet"))
            rest = m.group("rest")
            self.fragments.append(Fragment(rest, loc))
            if p := _PAREN.match(rest):
                text, inlines = self.text_with_markers(p.group("rest") or "")
                self.add(
                    Block(
                        BlockKind.LABELED,
                        loc,
                        LabelStyle.PAREN,
                        f"({p.group('key')})",
                        p.group("key"),
                        text=text,
                        inlines=inlines,
                    )
                )
            else:
                text, inlines = self.text_with_markers(rest)
                self.add(Block(BlockKind.LIST_ITEM, loc, LabelStyle.DASH, "-", text=text, inlines=inlines))
            return
        self.fragments.append(Fragment(line, loc))
        if m := _UPPER.match(line):
            rest = m.group("rest") or ""
            self.add(self._labeled(loc, LabelStyle.UPPER, f"{m.group('key')}.", m.group("key"), rest, _is_title(rest)))
            return
        if m := _NUMBER.match(line):
            rest = m.group("rest") or ""
            j, blank = self._next_nonblank(i)
            nxt = self.lines[j] if j < len(self.lines) else ""
            # 1997: "1. Leider speelt tweede kaart", a blank line, then its text.
            is_title = _is_title(rest) and blank and bool(nxt) and not self._is_labeled(nxt)
            self.add(self._labeled(loc, LabelStyle.NUMBER, f"{m.group('key')}.", m.group("key"), rest, is_title))
            return
        if m := _LOWER.match(line):
            self.add(self._labeled(loc, LabelStyle.LOWER, f"{m.group('key')}.", m.group("key"), m.group("rest"), False))
            return
        if m := _PAREN.match(line):
            self.add(
                self._labeled(
                    loc, LabelStyle.PAREN, f"({m.group('key')})", m.group("key"), m.group("rest") or "", False
                )
            )
            return
        text, inlines = self.text_with_markers(line)
        self.add(Block(BlockKind.PARAGRAPH, loc, text=text, inlines=inlines))

    def _labeled(self, loc: Loc, style: LabelStyle, label: str, key: str, rest: str, is_title: bool) -> Block:
        if is_title:
            return Block(BlockKind.LABELED, loc, style, label, key, title=rest)
        text, inlines = self.text_with_markers(rest)
        return Block(BlockKind.LABELED, loc, style, label, key, text=text, inlines=inlines)


def _shifted(offset: int, pos: int, removed: int) -> int:
    """Where ``offset`` stands after ``removed`` characters were taken out at ``pos`` (a footnote marker)."""
    return offset if offset <= pos else max(pos, offset - removed)


def _is_title(rest: str) -> bool:
    return bool(rest) and len(rest) <= TITLE_MAX_CHARS and not rest.endswith(_SENTENCE_END)
