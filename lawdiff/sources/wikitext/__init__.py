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

A page saved from the browser carries the wiki's own lines around the text
(tagline, revision line, navigation, categories, footer): those at its head
and tail are furniture (``chrome``).  A table of contents page is furniture
as a whole; the wiki's comparison of two versions is refused.

Every line is read in time linear in its length: the markers of a line are
taken out in one pass, and no pattern rescans a run of white space.

Modules: ``patterns`` (what a line looks like), ``inlines`` (footnote
markers and links taken out of a line), ``reader`` (each line into blocks),
``chrome`` (the wiki's own lines around a saved page).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _
from lawdiff.sources.base import Block, Fragment, Furniture, Loc, Page
from lawdiff.sources.normalize import normalize_lines
from lawdiff.sources.wikiname import PageName, parse_title
from lawdiff.sources.wikitext.chrome import chrome, is_diff_view
from lawdiff.sources.wikitext.inlines import LinkSpan
from lawdiff.sources.wikitext.reader import WikitextReader

__all__ = ["FORMAT", "LinkSpan", "looks_like", "read", "read_lines"]

FORMAT = "wiki-text"
TOC = "table of contents (not law text)"


def looks_like(text: str) -> bool:
    """Whether text is a rendered wiki page (its first line is a page title)."""
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    return parse_title(first) is not None


def read(text: str, file: str) -> list[Page]:
    """Read one rendered wiki page."""
    lines = normalize_lines(text.lstrip("\ufeff"))
    if not lines or not lines[0]:
        raise InputError(
            _("the first line is empty, but a wiki page starts with its title"),
            file=file,
            place="1",
            fix=_("put the page title (e.g. Sjabloon:2007:45) on the first line"),
        )
    if is_diff_view(lines[0]):
        raise InputError(
            _("the page {lines!r} is the wiki's comparison of two versions, not a page's text").format(
                lines=lines[0][:80]
            ),
            file=file,
            place="1",
            fix=_("save the page itself (its current version, or one old version) instead of the comparison"),
        )
    name = parse_title(lines[0])
    if name is None:
        raise InputError(
            _("the first line {lines!r} is not a wiki page title").format(lines=lines[0][:60]),
            file=file,
            place="1",
            fix=_("put the page title (e.g. Sjabloon:2007:45) on the first line"),
        )
    furniture = [Furniture(lines[0], Loc(file, 1), "page title (kept as the page name)")]
    if name.kind == "toc":
        # A table of contents lists the headings of pages read on their
        # own; it is not law text (as in an XML export).
        furniture += [Furniture(line, Loc(file, i + 1), TOC) for i, line in enumerate(lines) if i and line]
        return [_page(file, name, lines[0], (), (), furniture)]
    wiki = chrome(lines)
    if wiki:
        furniture += [Furniture(lines[i], Loc(file, i + 1), f"{why} (not law text)") for i, why in sorted(wiki.items())]
        lines = [("" if i in wiki else line) for i, line in enumerate(lines)]
    reader = WikitextReader(file, lines, name=name)
    reader.run()
    if wiki:
        # In the order of the page's lines, as the reader's own furniture is.
        furniture[1:] = sorted([*furniture[1:], *reader.furniture], key=lambda f: f.loc.line)
    else:
        furniture += reader.furniture
    return [_page(file, name, lines[0], reader.blocks, reader.fragments, furniture)]


def _page(
    file: str,
    name: PageName,
    title: str,
    blocks: Sequence[Block],
    fragments: Sequence[Fragment],
    furniture: Sequence[Furniture],
) -> Page:
    return Page(
        file=file,
        format=FORMAT,
        edition=name.edition,
        name=name.name,
        loc=Loc(file, 1),
        containers=name.containers,
        scope=name.scope,
        blocks=tuple(blocks),
        fragments=tuple(fragments),
        furniture=tuple(furniture),
        meta=(("title", title), ("kind", name.kind)),
    )


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
    reader = WikitextReader(file, lines, locs, links, notes)
    reader.run()
    if reader.line_notes and reader.blocks:
        last = reader.blocks[-1]
        extra = tuple(n for _, ns in sorted(reader.line_notes.items()) for n in ns)
        reader.blocks[-1] = replace(last, notes=(*last.notes, *extra))
    return reader.blocks, reader.fragments, reader.furniture
