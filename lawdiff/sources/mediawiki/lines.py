"""Raw wikitext to the lines a rendered page shows (then read by the line reader)."""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lawdiff.sources.base import Furniture, Loc
from lawdiff.sources.mediawiki import notes as reader_notes
from lawdiff.sources.mediawiki.dump import MAX_REF_LINES
from lawdiff.sources.normalize import normalize_inline
from lawdiff.sources.wikitext import LinkSpan

if TYPE_CHECKING:
    from lawdiff.sources.mediawiki.transclusion import Assembler

# ---------------------------------------------------------------------------
# Wikitext to rendered lines


@dataclass(frozen=True, slots=True)
class Frag:
    """A run of expanded wikitext: where it starts, and a note to report there."""

    text: str
    line: int
    title: str
    note: str = ""

    def __reduce__(self) -> tuple[Callable[[bytes, int, str, str], Frag], tuple[bytes, int, str, str]]:
        # Pickled (a page sent to another process to be read there) as UTF-8
        # made for the occasion: pickle keeps the UTF-8 copy of a str it
        # writes inside that str for as long as it lives, and a run is often
        # a whole page of the dump, which lives as long as the dump.
        return _frag_from_utf8, (self.text.encode("utf-8", "surrogatepass"), self.line, self.title, self.note)


def _frag_from_utf8(data: bytes, line: int, title: str, note: str) -> Frag:
    return Frag(data.decode("utf-8", "surrogatepass"), line, title, note)


Segment = tuple[str, str]  # (text, link target address or "")

_HEADING = re.compile(r"^(={1,6})(.+?)\1\s*$")
_LIST = re.compile(r"^([*#:;]+)\s*(.*)$")
_LIST_MARKS = frozenset("*#:;")
_RULE = re.compile(r"^-{4,}")
_BR = re.compile(r"<\s*/?\s*br\s*/?\s*>", re.I)
# Notes are found by a scan (see _find_refs), never by one pattern that runs
# from each "<ref" to the end of the line: 20,000 unclosed "<ref " cost their
# length.  An attribute list stops at "<" (possessive: no backtracking).
_REF_TAG = re.compile(r"<ref(?P<attrs>\s[^<>]*+|/)?>", re.I)
_REF_START = re.compile(r"<ref\b", re.I)
_REF_CLOSE = re.compile(r"</ref\s*+>", re.I)
_REF_NAME = re.compile(r"""name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s/>]+))""", re.I)
_REFERENCES = re.compile(
    r"<references\s*+/>|<references(?:\s[^<>]*+)?>(?:(?!<references\b).)*?</references\s*+>", re.I | re.S
)
_LINK_OPEN = re.compile(r"\[\[|\]\]")
_LINK_TRAIL = re.compile(r"[a-zäëïöüéèàáóúç]+")
_EXTERNAL = re.compile(r"\[(?:https?:|ftp:|mailto:|//)[^\s\[\]]*+(?:\s++([^\[\]]*+))?\]")
_TAG = re.compile(
    r"</?(?:b|i|u|s|strike|del|ins|small|big|sup|sub|span|div|font|center|p|nowiki|pre|tt|code|strong|em|"
    r"blockquote|poem|abbr|cite|q|mark|var|kbd|samp|dfn|bdi|bdo|wbr|section)\b[^<>]*>",
    re.I,
)
_BEHAVIOUR = re.compile(r"__[A-Z]+__")
_QUOTES = re.compile(r"'{2,}")
# A bold section or article heading at the start of a wikitext line: B. Titel, ARTIKEL 45 in bold.
_JOINED_HEADING = re.compile(r"^\s*'{3,5}(?P<label>(?:[A-Z]\.|ARTIKEL\s+\d{1,3}|Artikel\s+\d{1,3})[^'\n]{0,80})")
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _is_plain(text: str) -> bool:
    """Whether a run holds none of the marks :meth:`Converter.inline` and :func:`_clean` act on (most prose)."""
    return not ("<" in text or "[" in text or "__" in text or "''" in text or "&" in text or "\n" in text)


def _quotes(m: re.Match[str]) -> str:
    # '' italic, ''' bold, ''''' both: marks only.  '''' is an apostrophe
    # then bold; a longer run keeps its extra apostrophes (as the wiki does).
    n = len(m.group())
    if n in (2, 3, 5):
        return ""
    return "'" if n == 4 else "'" * (n - 5)


def _clean(text: str) -> str:
    """Inline markup out, entities decoded: the text the wiki shows."""
    # Each pass only where its mark occurs: most lines of law are plain prose.
    if "<" in text:
        text = _TAG.sub("", text)
    if "__" in text:
        text = _BEHAVIOUR.sub("", text)
    if "''" in text:
        text = _QUOTES.sub(_quotes, text)
    if "&" in text:
        text = html.unescape(text)
    return text.replace("\n", " ") if "\n" in text else text


@dataclass(frozen=True, slots=True)
class _Ref:
    """A ``<ref>`` note in a line: where it stands, its attributes, its body (None for ``<ref .../>``)."""

    start: int
    end: int
    attrs: str
    body: str | None


def _find_refs(text: str) -> list[_Ref]:
    """The notes of a line, in order.

    A note's body holds no other ``<ref`` (the wiki does not nest them); an
    opening tag whose close comes after another ``<ref`` is unclosed, and
    stays text (as the wiki shows it).  One pass over the tags, and a
    binary search for each close, so any line costs about its length.
    """
    if "<" not in text:
        return []
    closes = list(_REF_CLOSE.finditer(text))
    close_starts = [m.start() for m in closes]
    starts = [m.start() for m in _REF_START.finditer(text)]
    out: list[_Ref] = []
    pos = 0
    for m in _REF_TAG.finditer(text):
        if m.start() < pos:
            continue
        attrs = m.group("attrs") or ""
        if attrs.rstrip().endswith("/"):
            out.append(_Ref(m.start(), m.end(), attrs, None))
            pos = m.end()
            continue
        i = bisect.bisect_left(close_starts, m.end())
        if i == len(closes):
            continue
        j = bisect.bisect_left(starts, m.end())
        if j < len(starts) and starts[j] < close_starts[i]:
            continue
        out.append(_Ref(m.start(), closes[i].end(), attrs, text[m.end() : close_starts[i]]))
        pos = closes[i].end()
    return out


def _open_refs(text: str) -> int:
    """How many ``<ref>`` tags open (not self-closing) minus how many close, in a line."""
    opened = sum(1 for m in _REF_TAG.finditer(text) if not (m.group("attrs") or "").rstrip().endswith("/"))
    return opened - sum(1 for _ in _REF_CLOSE.finditer(text))


def render_segments(segments: list[Segment]) -> tuple[str, list[LinkSpan]]:
    """Join segments into one normalized line (:mod:`normalize`), with the links' spans in it."""
    if len(segments) < 2 and not (segments and segments[0][1]):
        # One run of plain text (most lines of law), or none: the general case below, shortened.
        return (normalize_inline(segments[0][0]).strip() if segments else ""), []
    parts: list[str] = []
    spans: list[tuple[int, int, str]] = []
    length = 0
    for text, target in segments:
        piece = normalize_inline(text)
        if parts and parts[-1].endswith(" ") and piece.startswith(" "):
            piece = piece[1:]
        if not piece:
            continue
        if target:
            spans.append((length, length + len(piece), target))
        parts.append(piece)
        length += len(piece)
    joined = "".join(parts)
    lead = len(joined) - len(joined.lstrip())
    line = joined.strip()
    out: list[LinkSpan] = []
    for start, end, target in spans:
        s = min(max(start - lead, 0), len(line))
        e = min(max(end - lead, 0), len(line))
        while s < e and line[s] == " ":
            s += 1
        while e > s and line[e - 1] == " ":
            e -= 1
        if s < e:
            out.append(LinkSpan(s, e, target))
    return line, out


@dataclass
class _Note:
    number: int
    body: str
    loc: Loc


class Converter:
    """Turns a page's expanded wikitext into the lines the wiki renders."""

    def __init__(self, assembler: Assembler) -> None:
        self.asm = assembler
        self.file = assembler.file
        self.out: list[tuple[list[Segment], Loc]] = []
        self.notes: dict[int, list[str]] = {}
        self.furniture: list[Furniture] = []
        self.buf: list[Segment] = []
        self.buf_loc: Loc | None = None
        self.counters: list[int] = []
        self.in_table = False
        self.refs: list[_Note] = []
        self.ref_names: dict[str, int] = {}
        self.ref_count = 0

    # -- output -------------------------------------------------------------

    def note(self, text: str) -> None:
        # Line 0 of the page is its title, so the next line out is len(out) + 1.
        self.notes.setdefault(len(self.out) + 1, []).append(text)

    def flush(self) -> None:
        if self.buf and self.buf_loc is not None and any(t.strip() for t, _ in self.buf):
            self.out.append((self.buf, self.buf_loc))
        self.buf = []
        self.buf_loc = None

    def emit(self, segments: list[Segment], loc: Loc) -> None:
        self.flush()
        if any(t.strip() for t, _ in segments):
            self.out.append((segments, loc))

    def blank(self, loc: Loc) -> None:
        self.flush()
        if self.out and self.out[-1][0]:
            self.out.append(([], loc))

    # -- raw lines ----------------------------------------------------------

    def raw_lines(self, frags: Sequence[Frag]) -> Iterator[tuple[str, Loc, list[str]]]:
        """The expanded text's physical lines, each with the place of its first character.

        The place is that of the line's first piece with more than white
        space, else of its first piece: kept as (line, title) until the line
        is complete, so that each line makes one :class:`Loc`.
        """
        file = self.file
        parts: list[str] = []
        notes: list[str] = []
        loc: tuple[int, str] | None = None
        first: tuple[int, str] | None = None
        for f in frags:
            if f.note:
                notes.append(f.note)
            pieces = f.text.split("\n")
            for k, piece in enumerate(pieces):
                if k:
                    at = loc or first or (f.line + k - 1, f.title)
                    yield "".join(parts), Loc(file, at[0], at[1]), notes
                    parts, notes, loc, first = [], [], None, None
                if first is None:
                    first = (f.line + k, f.title)
                if piece:
                    parts.append(piece)
                    if loc is None and not piece.isspace():
                        loc = (f.line + k, f.title)
        if parts or notes:
            end = loc or first
            yield "".join(parts), Loc(file, end[0], end[1]) if end else Loc(file, 0), notes

    def joined_lines(self, frags: Sequence[Frag]) -> Iterator[tuple[str, Loc, list[str]]]:
        """Raw lines, with a ``<ref>`` that runs over a few lines joined into one."""
        held: list[tuple[str, Loc, list[str]]] = []
        for raw in self.raw_lines(frags):
            if not held and ("<" not in raw[0] or "<ref" not in raw[0].lower()):
                yield raw
                continue
            held.append(raw)
            text = " ".join(h[0] for h in held)
            if _open_refs(text) <= 0:
                yield text, held[0][1], [n for h in held for n in h[2]]
                held = []
            elif len(held) > MAX_REF_LINES:
                # Never closed: the lines as they are (the wiki shows the tag as text).
                yield from held
                held = []
        yield from held

    # -- block structure ----------------------------------------------------

    def run(self, frags: Sequence[Frag]) -> None:
        for text, loc, notes in self.joined_lines(frags):
            for n in notes:
                self.note(n)
            self.line(text, loc)
        self.flush()
        self.flush_refs()

    def line(self, text: str, loc: Loc) -> None:
        s = text.strip()
        if self.in_table:
            self.table_line(s, loc)
            return
        if not s:
            self.counters = []
            self.blank(loc)
            return
        refs_here = _REFERENCES.search(s) if "<" in s else None
        if refs_here:
            s = (s[: refs_here.start()] + s[refs_here.end() :]).strip()
            self.furniture.append(Furniture(refs_here.group(0), loc, "list of notes (the notes are read there)"))
        # Each of the patterns below needs its first character: most lines
        # of law (prose) are tried against none of them.
        head = s[:1]
        if s.startswith("{|"):
            self.flush()
            self.in_table = True
            self.furniture.append(Furniture(s, loc, "table markup (the table is read one cell per line)"))
            self.note(reader_notes.TABLE)
        elif head == "-" and (m := _RULE.match(s)):
            self.counters = []
            self.emit([(m.group(), "")], loc)
            rest = s[m.end() :].strip()
            if rest:
                self.paragraph(rest, loc)
        elif head == "=" and (m := _HEADING.match(s)):
            self.counters = []
            self.emit(self.inline(m.group(2).strip(), loc), loc)
        elif head in _LIST_MARKS and (m := _LIST.match(s)):
            self.list_item(m.group(1), m.group(2), loc)
        elif text.startswith(" "):
            # A line that starts with a space is preformatted on the wiki: a line of its own.
            self.counters = []
            self.flush()
            for part in _BR.split(s):
                self.emit(self.inline(part, loc), loc)
        elif s:
            self.counters = []
            self.paragraph(s, loc)
        if refs_here:
            self.flush()
            self.flush_refs()

    def paragraph(self, text: str, loc: Loc) -> None:
        parts = _BR.split(text) if "<" in text else [text]
        for k, part in enumerate(parts):
            if k:
                self.flush()  # a line break
            segs = self.inline(part, loc)
            if not any(t.strip() for t, _ in segs):
                continue
            if self.buf:
                # A single newline inside a paragraph is a space on the wiki.
                self.buf.append((" ", ""))
                if k == 0 and (m := _JOINED_HEADING.match(part)):
                    # The export habit: a section page whose text does not end
                    # with a line break, transcluded right before the next one,
                    # joins that one's heading to its last paragraph.  Read as
                    # the wiki shows it, and said.
                    shown = _clean(m.group("label")).strip()
                    self.note(reader_notes.joined_heading(loc.line, shown))
            else:
                self.buf_loc = loc
            self.buf.extend(segs)

    def list_item(self, prefix: str, content: str, loc: Loc) -> None:
        self.flush()
        depth = len(prefix)
        del self.counters[depth:]
        while len(self.counters) < depth:
            self.counters.append(0)
        for i, ch in enumerate(prefix):
            if ch != "#":
                self.counters[i] = 0
        bullet = ""
        if prefix[-1] == "#":
            self.counters[depth - 1] += 1
            bullet = f"{self.counters[depth - 1]}. "
        elif prefix[-1] == "*":
            bullet = "- "
        parts = _BR.split(content)
        self.emit([(bullet, ""), *self.inline(parts[0], loc)], loc)
        for part in parts[1:]:
            self.emit(self.inline(part, loc), loc)

    def table_line(self, s: str, loc: Loc) -> None:
        if s.startswith("|}"):
            self.in_table = False
            self.furniture.append(Furniture(s, loc, "table markup"))
            return
        if s.startswith("|-"):
            self.furniture.append(Furniture(s, loc, "table markup (row)"))
            return
        if s.startswith("|+"):
            self.emit(self.inline(s[2:], loc), loc)
            return
        if s[:1] in ("|", "!"):
            for cell in re.split(r"\|\||!!", s[1:]):
                head, bar, body = cell.partition("|")
                if bar and "=" in head and "[[" not in head and "{{" not in head:
                    self.furniture.append(Furniture(head.strip(), loc, "table cell attributes"))
                    cell = body
                self.emit(self.inline(cell.strip(), loc), loc)
            return
        self.emit(self.inline(s, loc), loc)

    # -- notes (<ref>) -------------------------------------------------------

    def ref(self, note: _Ref, loc: Loc) -> str:
        name_m = _REF_NAME.search(note.attrs)
        name = next((g for g in name_m.groups() if g is not None), "") if name_m else ""
        body = note.body
        if name and name in self.ref_names:
            number = self.ref_names[name]
        else:
            self.ref_count += 1
            number = self.ref_count
            if name:
                self.ref_names[name] = number
            self.refs.append(_Note(number, body or "", loc))
        # A superscript marker, as a word of its own (the space it stands
        # after is closed when the line reader takes it out of the text); the
        # reader reads the note "¹⁾ ..." as its footnote.
        return " " + str(number).translate(_SUPERSCRIPT) + "⁾"

    def flush_refs(self) -> None:
        for n in self.refs:
            marker = str(n.number).translate(_SUPERSCRIPT) + "⁾"
            self.emit([(marker + " ", ""), *self.inline(n.body, n.loc)], n.loc)
        self.refs = []
        self.ref_names = {}
        self.ref_count = 0

    # -- inline markup ------------------------------------------------------

    def inline(self, text: str, loc: Loc) -> list[Segment]:
        """Links, notes and inline markup of one line: the segments the wiki shows."""
        if _is_plain(text):
            return [(text, "")] if text else []  # what plain() makes of it
        if "<ref" in text or "<REF" in text:
            pieces: list[str] = []
            pos = 0
            for note in _find_refs(text):
                pieces.append(text[pos : note.start])
                pieces.append(self.ref(note, loc))
                pos = note.end
            pieces.append(text[pos:])
            text = "".join(pieces)
        out: list[Segment] = []
        pos = 0
        while True:
            i = text.find("[[", pos)
            if i < 0:
                break
            depth = 0
            close = -1
            for t in _LINK_OPEN.finditer(text, i):
                depth += 1 if t.group() == "[[" else -1
                if depth == 0:
                    close = t.end()
                    break
            if close < 0:
                break
            out.extend(self.plain(text[pos:i], loc))
            trail = _LINK_TRAIL.match(text, close)
            end = trail.end() if trail else close
            out.extend(self.link(text[i + 2 : close - 2], trail.group() if trail else "", loc))
            pos = end
        out.extend(self.plain(text[pos:], loc))
        return out

    def plain(self, text: str, loc: Loc) -> list[Segment]:
        if not text:
            return []
        if "[" in text:
            for m in _EXTERNAL.finditer(text):
                if not m.group(1):
                    self.furniture.append(Furniture(m.group(), loc, "external link without a label"))
            text = _EXTERNAL.sub(lambda m: m.group(1) or "", text)
        if "__" in text:
            for m in _BEHAVIOUR.finditer(text):
                self.furniture.append(Furniture(m.group(), loc, "behaviour switch (not shown)"))
        return [(_clean(text), "")]

    def link(self, inner: str, trail: str, loc: Loc) -> list[Segment]:
        target, bar, label = inner.partition("|")
        ns, _ = self.asm.site.split(target)
        bare = target.strip()
        if ns in (6, -2) and not bare.startswith(":"):
            self.furniture.append(Furniture(f"[[{inner}]]", loc, "image (not law text)"))
            self.note(reader_notes.image(bare))
            return self.plain(trail, loc)
        if ns == 14 and not bare.startswith(":"):
            self.furniture.append(Furniture(f"[[{inner}]]", loc, "category"))
            return self.plain(trail, loc)
        shown = label if bar and label.strip() else bare.lstrip(":")
        address = self.asm.link_target(bare, loc.line)
        return [(_clean(shown + trail), address)]
