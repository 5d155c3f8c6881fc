"""The reader of a rendered page's lines: each line by its first characters, into blocks."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from lawdiff.errors import LawdiffBug
from lawdiff.i18n import N_
from lawdiff.i18n.said import Said
from lawdiff.sources.base import Block, BlockKind, Fragment, Furniture, LabelStyle, Loc
from lawdiff.sources.normalize import SUPERSCRIPT_DIGITS, superscript_number
from lawdiff.sources.wikiname import PageName, parse_title
from lawdiff.sources.wikitext.inlines import Inlines, LinkSpan
from lawdiff.sources.wikitext.patterns import (
    ARTICLE,
    DASH,
    LOWER,
    LOWER_PAREN,
    NOTE,
    NUMBER,
    PARAGRAAF_HEADING,
    PARAGRAPH_TITLES_BEFORE,
    PAREN,
    RANGE,
    RULE,
    TITLE_MAX_CHARS,
    UPPER,
    is_capitals_title,
    is_paragraph_title,
    is_title_text,
    short_article,
)

# What the reader sets aside as no law text, and why: a typed or rendered draft lists them as page notes.
_FOOTNOTE_RULE = Said(N_("footnote rule"))
_LIST_BULLET = Said(N_("list bullet"))


class WikitextReader(Inlines):
    def __init__(
        self,
        file: str,
        lines: list[str],
        locs: Sequence[Loc] | None = None,
        links: Mapping[int, Sequence[LinkSpan]] | None = None,
        notes: Mapping[int, Sequence[str]] | None = None,
        name: PageName | None = None,
    ) -> None:
        super().__init__(lines, links)
        self.file = file
        self.locs = locs
        self.line_notes = {i: tuple(n) for i, n in (notes or {}).items() if n}
        # The lines that carry notes, in order, and how many are attached.
        self.note_lines = sorted(self.line_notes)
        self.notes_done = 0
        self.blocks: list[Block] = []
        self.furniture: list[Furniture] = []
        # The page's name, as the caller read it from the title line, else read here.
        self.name: PageName | None = name if name is not None else parse_title(lines[0]) if lines else None
        self.paragraph_titles = self.name is not None and (
            _year(self.name.edition) < PARAGRAPH_TITLES_BEFORE or _is_paragraph_scope(self.name.scope)
        )
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
            ARTICLE.match(line)
            or short_article(line)
            or PARAGRAAF_HEADING.match(line)
            or RANGE.search(line)
            or UPPER.match(line)
            or NUMBER.match(line)
            or LOWER.match(line)
            or PAREN.match(line)
            or LOWER_PAREN.match(line)
            or DASH.match(line)
            or RULE.match(line)
            or NOTE.match(line)
        )

    def _heads_article(self, key: str, rest: str) -> bool:
        """Whether ``N. REST`` is a 1936 article heading (``1. DE KAARTEN.``).

        Its title is in capitals and short; and the page may hold article N:
        a page of several articles (a chapter) or article N's own page, never
        another article's page or a section or paragraph page, where the same
        line is a subsection.
        """
        if not is_capitals_title(rest):
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

    def line(self, i: int, line: str) -> None:
        loc = self.loc(i)
        # Most patterns need a certain first character (or, for the article
        # range, "t/m"): a line is tried only against those it could match.
        head = line[0]
        if head == "-" and RULE.match(line):
            self.in_notes = True
            self.furniture.append(Furniture(line, loc, _FOOTNOTE_RULE))
            return
        # (A note starts with its number, "!", "*" or a superscript digit: no other line is tried.)
        note = NOTE.match(line) if head.isdecimal() or head in _NOTE_HEADS else None
        if note and self._footnote(note, loc, line):
            return
        self.in_notes = False
        if head == "A" and (m := ARTICLE.match(line) or short_article(line)):
            self._article(m, loc, line)
            return
        m = PARAGRAAF_HEADING.match(line) if head in "PHD" else None
        if m or ("t/m" in line and RANGE.search(line)):
            self._container(m is not None, loc, line)
            return
        if head == "-" and (m := DASH.match(line)):
            self._dash(m.group("rest"), loc)
            return
        self.fragments.append(Fragment(line, loc))
        if "A" <= head <= "Z" and (m := UPPER.match(line)):
            rest = m.group("rest") or ""
            self.add(
                self._labeled(loc, LabelStyle.UPPER, f"{m.group('key')}.", m.group("key"), rest, is_title_text(rest))
            )
            return
        if m := NUMBER.match(line):
            self._numbered(i, loc, m.group("key"), m.group("rest") or "")
            return
        lower = "a" <= head <= "z"
        if lower and (m := LOWER.match(line)):
            self.add(self._labeled(loc, LabelStyle.LOWER, f"{m.group('key')}.", m.group("key"), m.group("rest"), False))
            return
        if head == "(" and (m := PAREN.match(line)):
            self.add(
                self._labeled(
                    loc, LabelStyle.PAREN, f"({m.group('key')})", m.group("key"), m.group("rest") or "", False
                )
            )
            return
        if lower and (m := LOWER_PAREN.match(line)):
            # 1936: "a) text" is item (a), as "(a) text" is.
            key = m.group("key")
            self.add(self._labeled(loc, LabelStyle.PAREN, f"{key})", key, m.group("rest"), False))
            return
        if self.paragraph_titles and self._titles_paragraph(i, line):
            self.held_title = (line, loc)
            return
        text, inlines, notes = self.text_with_markers(line)
        self.add(Block(BlockKind.PARAGRAPH, loc, text=text, inlines=inlines, notes=notes))

    def _article(self, m: re.Match[str], loc: Loc, line: str) -> None:
        """An article heading ``ARTIKEL 45 Gespeelde kaart`` (``m``: its match)."""
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

    def _container(self, paragraaf: bool, loc: Loc, line: str) -> None:
        """A container heading: ``PARAGRAAF I ...`` (``paragraaf``), or one ending in ``Art. 53 t/m 56``."""
        self.fragments.append(Fragment(line, loc))
        rng = RANGE.search(line)
        head = line[: rng.start()].rstrip() if rng else line
        label, title = "", head
        if paragraaf:
            pm = PARAGRAAF_HEADING.match(head)
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
            printed = N_("note marker printed as {mark!r}, read as {number})")
            notes = (Said(printed, mark=note.group("mark"), number=number),)
        self.pending.take(number)
        self.fragments.append(Fragment(line, loc))
        text, inlines, marked = self.text_with_markers(note.group("rest"))
        self.add(
            Block(
                BlockKind.FOOTNOTE,
                loc,
                label=note.group("mark"),
                key=number,
                text=text,
                inlines=inlines,
                notes=(*notes, *marked),
            )
        )
        return True

    def _dash(self, rest: str, loc: Loc) -> None:
        """A ``- `` list item: ``- (a) text`` is item (a), ``- 1. text`` (1987) item 1, else unlabeled."""
        self.furniture.append(Furniture("-", loc, _LIST_BULLET))
        self.fragments.append(Fragment(rest, loc))
        if p := PAREN.match(rest):
            self.add(
                self._labeled(
                    loc, LabelStyle.PAREN, f"({p.group('key')})", p.group("key"), p.group("rest") or "", False
                )
            )
            return
        if p := LOWER_PAREN.match(rest):
            self.add(self._labeled(loc, LabelStyle.PAREN, f"{p.group('key')})", p.group("key"), p.group("rest"), False))
            return
        if (p := NUMBER.match(rest)) and p.group("rest"):
            # 1987: "- 1. onvoldoende aandacht aan het spel te besteden;" is
            # item 1 of the clause whose lead-in precedes it (74B1), not a
            # bullet with the number left in its text.
            self.add(
                self._labeled(loc, LabelStyle.NUMBER, f"{p.group('key')}.", p.group("key"), p.group("rest"), False)
            )
            return
        text, inlines, notes = self.text_with_markers(rest)
        self.add(Block(BlockKind.LIST_ITEM, loc, LabelStyle.DASH, "-", text=text, inlines=inlines, notes=notes))

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
            text, inlines, notes = self.text_with_markers(rest)
            self.add(
                Block(
                    BlockKind.LABELED,
                    title_loc,
                    LabelStyle.NUMBER,
                    label,
                    key,
                    title=title,
                    text=text,
                    inlines=inlines,
                    notes=notes,
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
            is_title = is_capitals_title(rest) or (
                is_title_text(rest) and bool(nxt) and not self._is_labeled(nxt) and (blank or nxt[:1].isupper())
            )
        self.add(self._labeled(loc, LabelStyle.NUMBER, label, key, rest, is_title))

    def _titles_paragraph(self, i: int, line: str) -> bool:
        """Whether ``line`` is a 1936 paragraph title: one short sentence, then ``N. text``."""
        if not is_paragraph_title(line):
            return False
        j, _ = self._next_nonblank(i)
        if j >= len(self.lines):
            return False
        nxt = self.lines[j]
        m = NUMBER.match(nxt)
        # A numbered line with a title of its own ("2. UITZONDERINGEN.") takes
        # none; one ending in "Art. 41 t/m 49" is a container heading.
        return bool(m and m.group("rest") and not is_capitals_title(m.group("rest")) and not RANGE.search(nxt))

    def _labeled(self, loc: Loc, style: LabelStyle, label: str, key: str, rest: str, is_title: bool) -> Block:
        if is_title:
            return Block(BlockKind.LABELED, loc, style, label, key, title=rest)
        text, inlines, notes = self.text_with_markers(rest)
        return Block(BlockKind.LABELED, loc, style, label, key, text=text, inlines=inlines, notes=notes)


# The first characters of a note line other than a digit (NOTE: ``!)``, ``*)``, a superscript number).
_NOTE_HEADS = "!*" + SUPERSCRIPT_DIGITS


def _year(edition: str) -> int:
    """The year of an edition name ("1936", "2017+2024-03-01", "2017@wiki")."""
    return int(edition[:4])


def _is_paragraph_scope(scope: str) -> bool:
    """Whether a page's scope is a numbered paragraph of an article (1936 page ``28-3``: ``28.3``)."""
    art, dot, par = scope.partition(".")
    return bool(dot) and art.isdigit() and par.isdigit()
