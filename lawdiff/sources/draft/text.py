"""Reader for a typed draft: plain text in the printed book's habits.

A typed draft is a wiki page without the wiki: the same line rules
(:func:`lawdiff.sources.wikitext.read_lines`), but no ``Sjabloon:`` title
line.  Because a wiki page that lost its title line looks just the same (and
lawdiff says so rather than guessing), a typed draft declares itself: its
first non-blank line is a **draft title** that says it is a draft (it holds
``concept``, ``ontwerp`` or ``draft``), and an article or chapter heading
(``ARTIKEL 45 ...``, ``Artikel 41. ...``, ``HOOFDSTUK 6 ...``) follows within
:data:`HEADING_WITHIN` lines::

    Concept spelregels 2027

    ARTIKEL 45 Gespeelde kaart
    A. Spelen van een kaart
    ...

The title line is furniture; the edition comes from the corpus folder
(``2027/``) or the caller, else from a year in the title line.
"""

from __future__ import annotations

import re

from lawdiff.sources.base import Block, Fragment, Furniture, Loc
from lawdiff.sources.draft import asides
from lawdiff.sources.normalize import normalize_lines
from lawdiff.sources.wikitext import read_lines

HEADING_WITHIN = 20
_DRAFT_WORD = re.compile(r"\b(?:concept|ontwerp|draft)\b", re.IGNORECASE)
_HEADING = re.compile(r"^(?:ARTIKEL|Artikel|HOOFDSTUK|Hoofdstuk)\s+(?:\d{1,3}|[IVXL]+)\b")
_YEAR = re.compile(r"\b(19\d\d|20\d\d|21\d\d)\b")


def title_line(text: str) -> tuple[int, str] | None:
    """The draft title line (its 0-based index and text), or None when ``text`` is no typed draft."""
    lines = normalize_lines(text[:8192].lstrip("\ufeff"))
    first = next((i for i, line in enumerate(lines) if line), None)
    if first is None or not _DRAFT_WORD.search(lines[first]) or _HEADING.match(lines[first]):
        return None
    if any(_HEADING.match(line) for line in lines[first + 1 : first + 1 + HEADING_WITHIN]):
        return first, lines[first]
    return None


def looks_like(text: str) -> bool:
    """Whether ``text`` is a typed draft (see the module docstring)."""
    return title_line(text) is not None


def year_in_title(text: str) -> str:
    """A year named in the draft title line, or ""."""
    found = title_line(text)
    m = _YEAR.search(found[1]) if found else None
    return m.group(1) if m else ""


def read_typed(text: str, file: str) -> tuple[list[Block], list[Fragment], list[Furniture], str]:
    """The blocks of a typed draft, its fragments, its furniture and its title line."""
    lines = normalize_lines(text.lstrip("\ufeff"))
    found = title_line(text)
    first, title = found if found else (-1, "")
    # Line i of the file is lines[i - 1]; the title line is read as furniture, not text.
    rendered = ["", *("" if i == first else line for i, line in enumerate(lines))]
    locs = [Loc(file, 0), *(Loc(file, i + 1) for i in range(len(lines)))]
    blocks, fragments, furniture = read_lines(rendered, file, locs)
    if found:
        furniture.insert(0, Furniture(title, Loc(file, first + 1), asides.DRAFT_TITLE))
    return blocks, fragments, furniture, title
