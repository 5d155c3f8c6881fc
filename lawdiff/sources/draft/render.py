"""A draft's paragraphs as the lines a reader sees, read by the wiki line rules.

The .docx and .odt readers turn a document into :class:`Para` values: each
paragraph's text as the word processor shows it (tracked changes resolved,
the automatic number as its label, footnote references as superscript
marks) with its footnotes.  This module renders them as the lines of a
printed page (``"1. " + text``, ``"- " + text`` for a bullet, a footnote as
``"¹ note"`` right after its paragraph) and reads those lines with
:func:`lawdiff.sources.wikitext.read_lines`, so that a draft follows exactly
the rules of the printed book that the wiki pages follow.

What a heading style adds to the line rules:

* a heading paragraph whose label reads as a section or subsection
  (``"A. Spelen van een kaart"``, ``"1. Leider speelt tweede kaart"``) holds
  a title, never text, whatever its length or last sign;
* a heading paragraph without a label (``"Inleiding"``) is a title;
* a heading that is a number and a title (``"45 Gespeelde kaart"``,
  ``"45 — Gespeelde kaart"``) starts article 45;
* a heading that is only a clause address (``"45C4(b)"``, ``"45.p1"``, as the
  redline of ``lawdiff compare --format docx`` may write before each clause)
  is furniture: the address is derived, not law text.  A bare number
  (``"45"``) counts as such an address heading only where the next line is
  that article's own heading; otherwise it starts the article.

What the redline adds, where no line rule can do the job (:func:`read_sections`):
a heading that is only a chapter, part or paragraph address (``H6``,
``H6.3``, ``H6.3.I``, ``H6.juiste-gang-van-zaken``) opens that container, and
the paragraph right after it is the container's heading as printed: its
label is the text inside a hidden bookmark whose name starts with
:data:`LABEL_BOOKMARK` (none: no label), its title the rest.  The printed
editions take a container's label and title from page names and site
records (``HVI``, ``3``), which no printed line says; each container opens a
page of its own (:class:`Section`), as the site's pages do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from lawdiff.sources.base import Block, BlockKind, Container, Fragment, Furniture, Inline, InlineKind, Loc
from lawdiff.sources.draft.asides import ADDRESS_HEADING
from lawdiff.sources.normalize import SUPERSCRIPT_DIGITS, normalize_lines, superscript_number
from lawdiff.sources.wikitext import read_lines

_SUPER = str.maketrans("0123456789", SUPERSCRIPT_DIGITS)

# A clause address on its own: 45, 45C, 45C4, 45C4(b), 45.1, 45E.p2, 45A.fn1, H6, H6.1, H6.3.I
_ADDRESS = re.compile(
    r"^(?:H\d{1,2}(?:\.[\w-]+)*|\d{1,3}(?:[A-Z])?(?:\.?\d{1,2})?(?:\([a-z]{1,2}\)|\(\d{1,2}\)|\d{1,2})*"
    r"(?:\.p\d+|\.fn\d+)*(?:~\d+)?)$"
)
_BARE_NUMBER = re.compile(r"^\d{1,3}$")
_NUMBER_TITLE = re.compile(r"^(?P<num>\d{1,3})(?P<sep>\s*[—–-])?\s+(?P<title>[^\d\s].*)$")
_ARTICLE_LINE = re.compile(r"^(?:ARTIKEL|Artikel)\s+(?P<num>\d{1,3})\b")
# A chapter, part or paragraph address on its own: H6, H6.3, H6.3.I, H6.juiste-gang-van-zaken.
_CONTAINER_ADDRESS = re.compile(r"^H\d{1,2}(?:\.[\w-]+){0,2}$")
_CONTAINER_KINDS = ("chapter", "part", "paragraph")  # by the address's depth
# The hidden bookmark around a container's label in lawdiff's redline (a
# leading underscore hides a bookmark in Word).
LABEL_BOOKMARK = "_LawLabel"
# A note whose text starts with its own label as the book prints notes
# ("1) ...", "1. ...", "¹⁾ ...", the 1963 misprint "!) ..."), then a space.
_TYPED_LABEL = re.compile(f"^(?P<label>(?P<num>[0-9]{{1,3}})[).]|(?P<sup>[{SUPERSCRIPT_DIGITS}]{{1,3}})⁾?|!\\))\\s+")


def superscript(number: str) -> str:
    """A footnote number as the superscript mark put in the rendered text (``12`` -> ``¹²``)."""
    return number.translate(_SUPER)


@dataclass(frozen=True, slots=True)
class Note:
    """A footnote (or endnote) of a paragraph.

    number: the note's number as shown ("1"); its mark in the rendered text
        is that number in superscript digits.
    printed: the mark as the document prints it, when it is not the plain
        number (a custom mark such as ``1)``), else "".
    text: the note's text, its paragraphs joined by a space.
    label: the label typed before the text in the note ("1)", "1."), when
        there is one: the note's label as printed; else its mark is.
    """

    number: str
    text: str
    loc: Loc
    printed: str = ""
    label: str = ""


def typed_label(note: Note) -> Note:
    """The note with the label typed before its text taken out as its label.

    People type a note's label at the start of its text ("1) Zie ook ...")
    as the printed book shows notes; a note with a custom mark repeats the
    mark there (Word and LibreOffice write it so), alone ("1) Zie ...") or
    before such a typed label ("11. Zie ...", "¹⁾1) Zie ..."): the label is the
    note's, not its text.  A typed label's digits must be the note's number.
    """
    text = note.text.lstrip()
    printed = note.printed
    if printed and text.startswith(printed):
        rest = text[len(printed) :]
        typed = _typed_label(rest, note.number)
        if typed is not None:
            return replace(note, text=rest[typed.end() :], label=typed.group("label"))
        if rest[:1] in ("", " "):
            return replace(note, text=rest.lstrip(), label=printed)
    typed = _typed_label(text, note.number)
    if typed is None:
        return note
    return replace(note, text=text[typed.end() :], label=typed.group("label"))


def _typed_label(text: str, number: str) -> re.Match[str] | None:
    m = _TYPED_LABEL.match(text)
    if m is None:
        return None
    digits = m.group("num") or superscript_number(m.group("sup") or "")
    return None if digits and digits != number else m


@dataclass(frozen=True, slots=True)
class Para:
    """One paragraph of a draft, as the word processor shows it.

    text: the text, footnote references as superscript marks, line breaks
        as ``\\n``.
    label: the automatic number as shown ("1.", "(a)", "A."), ``-`` for a
        bullet, or "".
    heading: in a heading style (or with an outline level).
    notes: the paragraph's footnotes, in the order of their marks.
    marked_label: the text inside a :data:`LABEL_BOOKMARK` bookmark, if any.
    """

    text: str
    loc: Loc
    label: str = ""
    heading: bool = False
    notes: tuple[Note, ...] = ()
    marked_label: str = ""


@dataclass
class Rendered:
    """What :func:`read_paras` made of the paragraphs."""

    blocks: list[Block]
    fragments: list[Fragment]
    furniture: list[Furniture]
    has_text: bool


@dataclass
class Section:
    """Paragraphs inside one chain of containers (outermost first): a page of the draft."""

    containers: tuple[Container, ...]
    rendered: Rendered


def read_sections(paras: list[Para], file: str, title: str) -> list[Section]:
    """The paragraphs cut where a container address heading opens a container, each part read.

    A draft without such headings is one section without containers.
    """
    groups: list[tuple[tuple[Container, ...], list[Para], list[Fragment], list[Furniture]]] = [((), [], [], [])]
    chain: tuple[Container, ...] = ()
    i = 0
    while i < len(paras):
        para = paras[i]
        address = para.text.strip()
        if para.heading and not para.label and i + 1 < len(paras) and _CONTAINER_ADDRESS.match(address):
            own = paras[i + 1]
            text = " ".join(line for line in normalize_lines(" ".join(_render(own))) if line)
            label = " ".join(normalize_lines(own.marked_label)).strip()
            if not text.startswith(label):
                label = ""
            container = Container(_CONTAINER_KINDS[address.count(".")], address, label, text[len(label) :].strip())
            chain = (*(c for c in chain if address.startswith(c.address + ".")), container)
            groups.append(
                (
                    chain,
                    [],
                    [Fragment(text, own.loc)] if text else [],
                    [Furniture(address, para.loc, ADDRESS_HEADING)],
                )
            )
            i += 2
            continue
        groups[-1][1].append(para)
        i += 1
    out: list[Section] = []
    for containers, members, fragments, furniture in groups:
        if not containers and not members:
            continue
        rendered = read_paras(members, file, title)
        rendered.fragments[:0] = fragments
        rendered.furniture[:0] = furniture
        rendered.has_text = rendered.has_text or bool(fragments)
        out.append(Section(containers, rendered))
    return out


def read_paras(paras: list[Para], file: str, title: str) -> Rendered:
    """Render the paragraphs as lines and read them with the wiki line rules."""
    lines: list[str] = [title]
    locs: list[Loc] = [Loc(file, 0, "")]
    furniture: list[Furniture] = []
    heading_lines: dict[int, Para] = {}
    article_labels: dict[int, str] = {}  # line -> the article label as printed ("45")
    marks: dict[tuple[Loc, str], str] = {}  # (paragraph, number) -> the mark as printed
    note_marks: dict[Loc, str] = {}  # note -> its label as printed
    in_text: dict[Loc, list[tuple[str, str]]] = {}  # paragraph -> (rendered, printed) marks, in order
    rendered = [_render(p) for p in paras]
    has_text = False
    for i, para in enumerate(paras):
        body = rendered[i]
        if not any(body):
            lines.append("")
            locs.append(para.loc)
            continue
        has_text = True
        first = body[0]
        if para.heading and len(body) == 1 and _ADDRESS.match(first) and not para.label:
            nxt = next((b[0] for b in rendered[i + 1 :] if any(b)), "")
            m = _ARTICLE_LINE.match(nxt)
            if not _BARE_NUMBER.match(first) or (m and m.group("num") == first):
                furniture.append(Furniture(first, para.loc, ADDRESS_HEADING))
                continue
        if para.heading and not para.label and (m2 := _NUMBER_TITLE.match(first) or _BARE_NUMBER.match(first)):
            # "45 Gespeelde kaart" in a heading style: article 45.
            num = m2.group("num") if m2.groupdict() else first
            article_labels[len(lines)] = num
            body = [f"ARTIKEL {num} {m2.group('title')}".rstrip() if m2.groupdict() else f"ARTIKEL {num}", *body[1:]]
        if para.heading:
            heading_lines[len(lines)] = para
        for line in body:
            lines.append(line)
            locs.append(para.loc)
        for note in para.notes:
            lines.append(f"{superscript(note.number)} {' '.join(normalize_lines(note.text))}".rstrip())
            locs.append(note.loc)
            shown = superscript(note.number)
            in_text.setdefault(para.loc, []).append((shown, note.printed or shown))
            if note.printed:
                marks[(para.loc, note.number)] = note.printed
            if note.printed or note.label:
                note_marks[note.loc] = note.label or note.printed
    blocks, fragments, more = read_lines(lines, file, locs)
    blocks = _patch(blocks, lines, locs, heading_lines, article_labels, marks, note_marks)
    if in_text:
        fragments = [_printed_fragment(f, in_text, note_marks) for f in fragments]
    return Rendered(blocks, fragments, [*furniture, *more], has_text)


def _printed_fragment(
    frag: Fragment, in_text: dict[Loc, list[tuple[str, str]]], note_marks: dict[Loc, str]
) -> Fragment:
    """The fragment of a line as the document prints it.

    A note line is its label and text.  In a paragraph, the rendered line has
    ``¹`` where the document prints its mark (``1)`` for a custom mark) right
    after a word (``boven¹``): the mark stands apart, as the tree keeps it
    apart from the word (the clause's marker), so that both are counted.
    """
    text = frag.text
    if frag.loc in note_marks:
        _number, _, rest = text.partition(" ")
        return Fragment(f"{note_marks[frag.loc]} {rest}".rstrip(), frag.loc)
    start = 0
    for shown, printed in in_text.get(frag.loc, []):
        at = text.find(shown, start)
        if at < 0:
            continue
        text = f"{text[:at]} {printed}{text[at + len(shown) :]}"
        start = at + len(printed) + 1
    return Fragment(text, frag.loc) if text != frag.text else frag


def _render(para: Para) -> list[str]:
    """A paragraph's lines as printed: its label before the first."""
    lines = normalize_lines(para.text)
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    if para.label:
        head = f"{para.label} {lines[0]}".rstrip() if lines else para.label
        lines = [head, *lines[1:]]
    return lines


def _patch(
    blocks: list[Block],
    lines: list[str],
    locs: list[Loc],
    heading_lines: dict[int, Para],
    article_labels: dict[int, str],
    marks: dict[tuple[Loc, str], str],
    note_marks: dict[Loc, str],
) -> list[Block]:
    """What a heading style and a custom footnote mark add to the line reader's blocks."""
    first_line: dict[Loc, int] = {}
    for line_index in sorted(heading_lines, reverse=True):
        first_line[locs[line_index]] = line_index
    out: list[Block] = []
    seen: set[Loc] = set()
    for block in blocks:
        index = first_line.get(block.loc) if block.loc not in seen else None
        seen.add(block.loc)
        if index is not None:
            block = _heading(block, article_labels.get(index))
        if marks and any(x.kind is InlineKind.FOOTNOTE_REF for x in block.inlines):
            block = replace(block, inlines=tuple(_printed(x, block.loc, marks) for x in block.inlines))
        if block.kind is BlockKind.FOOTNOTE and block.loc in note_marks:
            block = replace(block, label=note_marks[block.loc])
        out.append(block)
    return out


def _heading(block: Block, article_label: str | None) -> Block:
    if block.kind is BlockKind.ARTICLE and article_label is not None:
        return replace(block, label=article_label)
    has_marks = any(x.kind is InlineKind.FOOTNOTE_REF for x in block.inlines)
    if block.kind is BlockKind.LABELED and block.text and not block.title and not has_marks:
        # A heading style holds a title, whatever its length or last sign.
        return replace(block, title=block.text, text="", inlines=())
    if block.kind is BlockKind.PARAGRAPH and block.text and not has_marks:
        return replace(block, title=block.text, text="", inlines=())
    return block


def _printed(x: Inline, loc: Loc, marks: dict[tuple[Loc, str], str]) -> Inline:
    if x.kind is not InlineKind.FOOTNOTE_REF:
        return x
    printed = marks.get((loc, x.value))
    return replace(x, printed=printed) if printed else x
