"""Reader for rendered wiki pages: a title line, then the page's text.

The 1963, 1997 and 2007 seeds are of this form; the wiki holds the editions
1936-2017 in it.  Each edition has its own habits, all handled here line by
line:

* article headings ``ARTIKEL 45 Gespeelde kaart`` (1997 on),
  ``Artikel 41. Het begin van het spelen.`` (1963) and ``1. DE KAARTEN.``
  (1936: number, title in capitals, full stop; only where the page may hold
  that article: a page of several articles, or the article's own page);
* container headings ``PARAGRAAF I Voor de beurt voorspelen Art. 53 t/m 56``
  and ``JUISTE GANG VAN ZAKEN. Art. 41 t/m 49`` (1963);
* sections ``A. Title`` (a short line without closing punctuation is a
  title; anything longer is the section's text);
* subsections ``1. Text`` (2007), ``1. Title`` + blank line + text (1997)
  and ``1. Title`` + text on the next line (1987: a title-like line whose
  next line is unlabeled text starting with a capital);
* 1936 paragraphs: a title line (``Inzien van een losgelaten slag.``) just
  before the numbered line ``3. Indien ...`` is that paragraph's title;
* items ``a. text`` (1963), ``a) text`` (1936), ``- (a) text``, numbered
  items after a dash ``- 1. text`` (1987) and bare ``- text`` list items;
* footnote markers ``1)`` (only where the page has a note ``1) ...``),
  ``¹⁾``, ``*)`` and ``**)`` (1936, where the page has such a note), and a
  number fused to the word before it (``speelruimte1``, where the page has
  the note ``1) ...``, and never after a digit: ``45C1`` stays text); the
  notes after a ``---`` rule or straight after the text;
* the misprinted note marker ``!)`` (1963 article 48), read as the oldest
  marker still waiting for its note, and noted as such.

Every line is read in time linear in its length: the markers of a line are
taken out in one pass, and no pattern rescans a run of white space.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from lawdiff.errors import InputError, LawdiffBug
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
from lawdiff.sources.normalize import normalize_lines, superscript_number, take_out
from lawdiff.sources.wikiname import PageName, parse_title

FORMAT = "wiki-text"

# A section or subsection line is read as "label + title" only when the rest
# is at most this long and does not end like a sentence.
TITLE_MAX_CHARS = 120
_SENTENCE_END = (".", ";", ":", ",", ")")
# A 1936 paragraph title ("Inzien van een losgelaten slag.") is one short
# sentence; anything longer before a numbered line is text.
PARAGRAPH_TITLE_MAX_CHARS = 80
# Editions before this one print a paragraph's title on the line before its
# number (1936); from 1963 on such a line is the end of the text above.
PARAGRAPH_TITLES_BEFORE = 1963

_RULE = re.compile(r"^-{3,}$")
_ARTICLE = re.compile(r"^(?P<label>(?:ARTIKEL|Artikel)\s+(?P<num>\d{1,3})\.?)(?:\s+(?P<title>.*))?$")
# No leading \s*: with it, a search rescans every run of white space from
# each of its characters.  The heading before the range is stripped instead.
_RANGE = re.compile(r"(?P<range>Art\.\s*\d+\s*t/m\s*\d+\.?)$")
_PARAGRAAF = re.compile(
    r"^(?P<label>(?:PARAGRAAF|Paragraaf|HOOFDSTUK|Hoofdstuk|DEEL|Deel)\s+[IVXL\d]+\.?)\s*(?P<title>.*)$"
)
_UPPER = re.compile(r"^(?P<key>[A-Z])\.(?:\s+(?P<rest>.*))?$")
_NUMBER = re.compile(r"^(?P<key>\d{1,2})\.(?:\s+(?P<rest>.*))?$")
_LOWER = re.compile(r"^(?P<key>[a-z])\.\s+(?P<rest>.*)$")
_PAREN = re.compile(r"^\((?P<key>[a-z]{1,2}|\d{1,2})\)(?:\s+(?P<rest>.*))?$")
_LOWER_PAREN = re.compile(r"^(?P<key>[a-z])\)\s+(?P<rest>.*)$")  # 1936: "a) text"
_DASH = re.compile(r"^-\s+(?P<rest>.*)$")
_NOTE = re.compile(r"^(?P<mark>(?P<num>\d{1,2})\)|!\)|(?P<star>\*{1,3})\)|(?P<sup>[⁰¹²³⁴⁵⁶⁷⁸⁹]+)⁾?)\s+(?P<rest>.*)$")
_SUP_MARK = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾?")
_ASCII_MARK = re.compile(r"(?<=\s)(?P<num>\d{1,2})\)(?=[\s.,;:]|$)")
_STAR_MARK = re.compile(r"(?P<stars>\*{1,3})\)")
# "speelruimte1": a number right after a word of letters only.  The word must
# start after a non-word character, so that "45C1" and "16D1" (addresses)
# never qualify; "artikel 12" has a space and is not fused.
_FUSED_MARK = re.compile(r"(?<!\w)(?P<word>[^\W\d_]{2,})(?P<num>\d{1,2})(?=[\s.,;:]|$)")
_SENTENCE_BREAK = re.compile(r"[.!?;:]\s")


@dataclass(frozen=True, slots=True)
class LinkSpan:
    """A hyperlink in a line given to :func:`read_lines` (raw wikitext has them).

    start, end: offsets into the (normalized) line.
    target: the clause address the link points at ("45E").
    """

    start: int
    end: int
    target: str


class _Marked(NamedTuple):
    """A block's text with its footnote markers taken out (a named tuple: one is made per labeled line)."""

    text: str
    inlines: tuple[Inline, ...]
    notes: tuple[str, ...]


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

    ``lines[0]`` is the page title (not read as text, but its edition and
    name decide the habits read); every line is normalized
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


class _Waiting:
    """Footnote markers read whose notes have not been read yet.

    A count per number, and the order they came in for the misprinted ``!)``
    note (which takes the oldest).  Taking a marker is O(1): the order keeps
    taken entries until they reach its head.
    """

    def __init__(self) -> None:
        self.order: deque[str] = deque()
        self.count: Counter[str] = Counter()
        self.taken: Counter[str] = Counter()
        self.size = 0

    def __bool__(self) -> bool:
        return self.size > 0

    def __contains__(self, number: str) -> bool:
        return self.count[number] > 0

    def add(self, number: str) -> None:
        self.order.append(number)
        self.count[number] += 1
        self.size += 1

    def take(self, number: str) -> None:
        """Take the oldest waiting marker of this number."""
        if self.count[number] > 0:
            self.count[number] -= 1
            self.taken[number] += 1
            self.size -= 1

    def oldest(self) -> str:
        while self.order:
            head = self.order[0]
            if self.taken[head] > 0:
                self.taken[head] -= 1
                self.order.popleft()
                continue
            return head
        return ""


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
        # The lines that carry notes, in order, and how many are attached.
        self.note_lines = sorted(self.line_notes)
        self.notes_done = 0
        self.current = 0  # the line being read
        self.blocks: list[Block] = []
        self.fragments: list[Fragment] = []
        self.furniture: list[Furniture] = []
        self.name: PageName | None = parse_title(lines[0]) if lines else None
        self.paragraph_titles = self.name is not None and (
            _year(self.name.edition) < PARAGRAPH_TITLES_BEFORE or _is_paragraph_scope(self.name.scope)
        )
        # Numbers that have a note "N) ..." somewhere on the page: only those
        # "N)" in the text are footnote markers (others are printed text).
        self.note_numbers: set[str] = set()
        self.note_stars: set[str] = set()  # "*", "**" of the notes "*) ..."
        self.has_bang_note = False
        for line in lines[1:]:
            if m := _NOTE.match(line):
                if m.group("num"):
                    self.note_numbers.add(m.group("num"))
                elif m.group("sup"):
                    self.note_numbers.add(superscript_number(m.group("sup")))
                elif m.group("star"):
                    self.note_stars.add(m.group("star"))
                else:
                    self.has_bang_note = True
        # The misprinted note "!)" stands for a marker "1)".
        self.ascii_numbers = self.note_numbers | ({"1"} if self.has_bang_note else set())
        self.pending = _Waiting()  # markers seen, notes not yet read
        self.in_notes = False
        # A 1936 paragraph title read, waiting for its numbered line.
        self.held_title: tuple[str, Loc] | None = None

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
            or _LOWER_PAREN.match(line)
            or _DASH.match(line)
            or _RULE.match(line)
            or _NOTE.match(line)
        )

    def _heads_article(self, key: str, rest: str) -> bool:
        """Whether ``N. REST`` is a 1936 article heading (``1. DE KAARTEN.``).

        Its title is in capitals and short; and the page may hold article N:
        a page of several articles (a chapter) or article N's own page, never
        another article's page or a section or paragraph page, where the same
        line is a subsection.
        """
        if not _is_capitals_title(rest):
            return False
        if self.name is None:
            return True
        return self.name.kind == "container" or (self.name.kind == "article" and self.name.scope == key)

    def run(self) -> None:
        for i in range(1, len(self.lines)):
            line = self.lines[i]
            if not line:
                continue
            self.current = i
            self.line(i, line)
        if self.held_title is not None:
            raise LawdiffBug(f"{self.held_title[1]}: a paragraph title held, but no numbered line came to take it")

    def add(self, block: Block) -> None:
        if self.notes_done < len(self.note_lines) and self.note_lines[self.notes_done] <= self.current:
            extra: list[str] = []
            while self.notes_done < len(self.note_lines) and self.note_lines[self.notes_done] <= self.current:
                extra.extend(self.line_notes.pop(self.note_lines[self.notes_done]))
                self.notes_done += 1
            block = replace(block, notes=(*block.notes, *extra))
        self.blocks.append(block)

    def _links_in(self, text: str) -> list[tuple[int, int, str]]:
        """The links of the current line that fall in ``text`` (a suffix of it), as offsets into ``text``."""
        spans = self.links.get(self.current)
        if not spans:
            return []
        offset = len(self.lines[self.current]) - len(text)
        return [(s.start - offset, s.end - offset, s.target) for s in spans if s.start >= offset]

    def _markers(self, text: str) -> list[tuple[int, int, str, str, str]]:
        """The footnote markers in ``text``: (start, end, number, printed, note), in order."""
        found: list[tuple[int, int, str, str, str]] = []
        if not text.isascii():  # superscripts are not ASCII (and most lines are)
            for m in _SUP_MARK.finditer(text):
                found.append((m.start(), m.end(), superscript_number(m.group(0)), m.group(0), ""))
        # (Each pattern only where the characters it needs are: the look-behinds
        # they start with would be tried at every position of every line.)
        if self.ascii_numbers and ")" in text:
            for m in _ASCII_MARK.finditer(text):
                if m.group("num") in self.ascii_numbers:
                    found.append((m.start(), m.end(), m.group("num"), m.group(0), ""))
        if self.note_numbers and _may_hold_digit(text):
            for m in _FUSED_MARK.finditer(text):
                word, num = m.group("word"), m.group("num")
                if num in self.note_numbers and word[-1].islower():
                    note = f"footnote marker {num} printed against the word {word!r}, taken out as a marker"
                    found.append((m.start("num"), m.end(), num, num, note))
        if self.note_stars and "*)" in text:
            for m in _STAR_MARK.finditer(text):
                if m.group("stars") in self.note_stars:
                    found.append((m.start(), m.end(), m.group("stars"), m.group(0), ""))
        found.sort()
        # The patterns cannot overlap (a digit marker needs white space or a
        # letter before it, a fused one a letter); keep the first if they did.
        apart: list[tuple[int, int, str, str, str]] = []
        for mark in found:
            if not apart or mark[0] >= apart[-1][1]:
                apart.append(mark)
        return apart

    def text_with_markers(self, text: str) -> _Marked:
        """Take footnote markers out of ``text`` (one pass); remember them as pending."""
        links = self._links_in(text)
        marks = self._markers(text)
        if not marks:
            if not links:
                return _Marked(text, (), ())
            inlines = [Inline(InlineKind.LINK, s, e, t, text[s:e]) for s, e, t in links if s < e]
            return _Marked(text, tuple(inlines), ())
        cut = take_out(text, [(m[0], m[1]) for m in marks])
        fused = [m[0] for m in marks if m[4]]
        if fused:
            self._split_fragment(text, fused)
        out: list[Inline] = []
        for (_, _, number, printed, _), pos in zip(marks, cut.positions, strict=True):
            out.append(Inline(InlineKind.FOOTNOTE_REF, pos, pos, number, printed))
            self.pending.add(number)
        for s, e, t in links:
            start, end = cut.moved(s), cut.moved(e)
            if start < end:
                out.append(Inline(InlineKind.LINK, start, end, t, cut.text[start:end]))
        out.sort(key=lambda x: x.start)
        return _Marked(cut.text, tuple(out), tuple(m[4] for m in marks if m[4]))

    def _split_fragment(self, text: str, cuts: list[int]) -> None:
        """Cut the current line's fragment where a fused marker starts (``boven|1``).

        The lossless check counts words: ``boven1`` is one, but the tree
        holds ``boven`` in the text and ``1`` on the note.  The pieces are
        still exactly the source text; only the boundary the reader found is
        shown.  ``text`` is the end of the fragment last listed.
        """
        frag = self.fragments[-1]
        if not frag.text.endswith(text):
            return
        base = len(frag.text) - len(text)
        bounds = [0, *(base + c for c in cuts), len(frag.text)]
        self.fragments[-1:] = [Fragment(frag.text[a:b], frag.loc) for a, b in itertools.pairwise(bounds) if a < b]

    def line(self, i: int, line: str) -> None:
        loc = self.loc(i)
        # Most patterns need a certain first character (or, for the article
        # range, "t/m"): a line is tried only against those it could match.
        head = line[0]
        if head == "-" and _RULE.match(line):
            self.in_notes = True
            self.furniture.append(Furniture(line, loc, "footnote rule"))
            return
        note = _NOTE.match(line)
        if note and self._footnote(note, loc, line):
            return
        self.in_notes = False
        if head == "A" and (m := _ARTICLE.match(line)):
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
        m = _PARAGRAAF.match(line) if head in "PHD" else None
        if m or ("t/m" in line and _RANGE.search(line)):
            self.fragments.append(Fragment(line, loc))
            rng = _RANGE.search(line)
            head = line[: rng.start()].rstrip() if rng else line
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
        if head == "-" and (m := _DASH.match(line)):
            self._dash(m.group("rest"), loc)
            return
        self.fragments.append(Fragment(line, loc))
        if "A" <= head <= "Z" and (m := _UPPER.match(line)):
            rest = m.group("rest") or ""
            self.add(self._labeled(loc, LabelStyle.UPPER, f"{m.group('key')}.", m.group("key"), rest, _is_title(rest)))
            return
        if m := _NUMBER.match(line):
            self._numbered(i, loc, m.group("key"), m.group("rest") or "")
            return
        lower = "a" <= head <= "z"
        if lower and (m := _LOWER.match(line)):
            self.add(self._labeled(loc, LabelStyle.LOWER, f"{m.group('key')}.", m.group("key"), m.group("rest"), False))
            return
        if head == "(" and (m := _PAREN.match(line)):
            self.add(
                self._labeled(
                    loc, LabelStyle.PAREN, f"({m.group('key')})", m.group("key"), m.group("rest") or "", False
                )
            )
            return
        if lower and (m := _LOWER_PAREN.match(line)):
            # 1936: "a) text" is item (a), as "(a) text" is.
            key = m.group("key")
            self.add(self._labeled(loc, LabelStyle.PAREN, f"{key})", key, m.group("rest"), False))
            return
        if self.paragraph_titles and self._titles_paragraph(i, line):
            self.held_title = (line, loc)
            return
        marked = self.text_with_markers(line)
        self.add(Block(BlockKind.PARAGRAPH, loc, text=marked.text, inlines=marked.inlines, notes=marked.notes))

    def _footnote(self, note: re.Match[str], loc: Loc, line: str) -> bool:
        """Read a note line ``1) ...``; False when it is not a note here (then it is text)."""
        number = note.group("num") or superscript_number(note.group("sup") or "") or note.group("star") or ""
        bang = not number
        if bang and self.pending:
            number = self.pending.oldest()
        if not (self.in_notes or (number and number in self.pending)):
            return False
        notes: tuple[str, ...] = ()
        if bang:
            if not number:
                number = "1"
            notes = (f"note marker printed as {note.group('mark')!r}, read as {number})",)
        self.pending.take(number)
        self.fragments.append(Fragment(line, loc))
        marked = self.text_with_markers(note.group("rest"))
        self.add(
            Block(
                BlockKind.FOOTNOTE,
                loc,
                label=note.group("mark"),
                key=number,
                text=marked.text,
                inlines=marked.inlines,
                notes=(*notes, *marked.notes),
            )
        )
        return True

    def _dash(self, rest: str, loc: Loc) -> None:
        """A ``- `` list item: ``- (a) text`` is item (a), ``- 1. text`` (1987) item 1, else unlabeled."""
        self.furniture.append(Furniture("-", loc, "list bullet"))
        self.fragments.append(Fragment(rest, loc))
        if p := _PAREN.match(rest):
            self.add(
                self._labeled(
                    loc, LabelStyle.PAREN, f"({p.group('key')})", p.group("key"), p.group("rest") or "", False
                )
            )
            return
        if p := _LOWER_PAREN.match(rest):
            self.add(self._labeled(loc, LabelStyle.PAREN, f"{p.group('key')})", p.group("key"), p.group("rest"), False))
            return
        if (p := _NUMBER.match(rest)) and p.group("rest"):
            # 1987: "- 1. onvoldoende aandacht aan het spel te besteden;" is
            # item 1 of the clause whose lead-in precedes it (74B1), not a
            # bullet with the number left in its text.
            self.add(
                self._labeled(loc, LabelStyle.NUMBER, f"{p.group('key')}.", p.group("key"), p.group("rest"), False)
            )
            return
        marked = self.text_with_markers(rest)
        self.add(
            Block(
                BlockKind.LIST_ITEM,
                loc,
                LabelStyle.DASH,
                "-",
                text=marked.text,
                inlines=marked.inlines,
                notes=marked.notes,
            )
        )

    def _numbered(self, i: int, loc: Loc, key: str, rest: str) -> None:
        """``N. rest``: a 1936 article heading, a titled subsection, or a subsection with text.

        A title in capitals that does not head an article here (``3.
        UITZONDERINGEN.`` on another article's page) is a subsection's title.
        """
        if self._heads_article(key, rest):
            self.add(Block(BlockKind.ARTICLE, loc, label=f"{key}.", key=key, title=rest))
            return
        label = f"{key}."
        if self.held_title is not None:
            # 1936: the title line read just before ("Inzien van een
            # losgelaten slag."), then "3. Indien ...": one paragraph.
            title, title_loc = self.held_title
            self.held_title = None
            marked = self.text_with_markers(rest)
            self.add(
                Block(
                    BlockKind.LABELED,
                    title_loc,
                    LabelStyle.NUMBER,
                    label,
                    key,
                    title=title,
                    text=marked.text,
                    inlines=marked.inlines,
                    notes=marked.notes,
                )
            )
            return
        # 1997: "1. Leider speelt tweede kaart", a blank line, then its text.
        # 1987: "1. Informatie verstrekken" and its text on the next line; a
        # next line starting in lower case continues a sentence instead.
        # (A line longer than a title is text: the common case, settled first.)
        is_title = False
        if len(rest) <= TITLE_MAX_CHARS:
            j, blank = self._next_nonblank(i)
            nxt = self.lines[j] if j < len(self.lines) else ""
            is_title = _is_capitals_title(rest) or (
                _is_title(rest) and bool(nxt) and not self._is_labeled(nxt) and (blank or nxt[:1].isupper())
            )
        self.add(self._labeled(loc, LabelStyle.NUMBER, label, key, rest, is_title))

    def _titles_paragraph(self, i: int, line: str) -> bool:
        """Whether ``line`` is a 1936 paragraph title: one short sentence, then ``N. text``."""
        if not _is_paragraph_title(line):
            return False
        j, _ = self._next_nonblank(i)
        if j >= len(self.lines):
            return False
        nxt = self.lines[j]
        m = _NUMBER.match(nxt)
        # A numbered line with a title of its own ("2. UITZONDERINGEN.") takes
        # none; one ending in "Art. 41 t/m 49" is a container heading.
        return bool(m and m.group("rest") and not _is_capitals_title(m.group("rest")) and not _RANGE.search(nxt))

    def _labeled(self, loc: Loc, style: LabelStyle, label: str, key: str, rest: str, is_title: bool) -> Block:
        if is_title:
            return Block(BlockKind.LABELED, loc, style, label, key, title=rest)
        marked = self.text_with_markers(rest)
        return Block(
            BlockKind.LABELED, loc, style, label, key, text=marked.text, inlines=marked.inlines, notes=marked.notes
        )


def _may_hold_digit(text: str) -> bool:
    """False only for a text without a decimal digit: an ASCII text without 0-9 (others are not looked at)."""
    return not text.isascii() or any(d in text for d in "0123456789")


def _year(edition: str) -> int:
    """The year of an edition name ("1936", "2017+2024-03-01", "2017@wiki")."""
    return int(edition[:4])


def _is_paragraph_scope(scope: str) -> bool:
    """Whether a page's scope is a numbered paragraph of an article (1936 page ``28-3``: ``28.3``)."""
    art, dot, par = scope.partition(".")
    return bool(dot) and art.isdigit() and par.isdigit()


def _is_title(rest: str) -> bool:
    return bool(rest) and len(rest) <= TITLE_MAX_CHARS and not rest.endswith(_SENTENCE_END)


def _is_capitals_title(rest: str) -> bool:
    """``DE KAARTEN.``: short, every letter a capital (at least two), not ending like a clause."""
    # The cheap tests first: almost every numbered line is long, or has a small letter.
    if len(rest) > TITLE_MAX_CHARS or not rest.isupper() or rest.endswith((";", ":", ",")):
        return False
    letters = [c for c in rest if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _is_paragraph_title(line: str) -> bool:
    """``Inzien van een losgelaten slag.``: one short sentence starting with a capital."""
    return (
        len(line) <= PARAGRAPH_TITLE_MAX_CHARS
        and line[:1].isupper()
        and not line.endswith((";", ":", ","))
        and not _SENTENCE_BREAK.search(line)
    )
