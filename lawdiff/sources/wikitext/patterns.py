"""What the lines of a rendered wiki page look like: the patterns of labels and notes, and the title tests.

Module-level precompiled patterns, tried by :mod:`.reader` on every line; see
the package docstring for the habits of each edition.
"""

from __future__ import annotations

import re

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

RULE = re.compile(r"^-{3,}$")
ARTICLE = re.compile(r"^(?P<label>(?:ARTIKEL|Artikel)\s+(?P<num>\d{1,3})\.?)(?:\s+(?P<title>.*))?$")
# The short form of the 1963 and 1975 tables and page names: "Art. 45. Gespeelde kaart."
_ART_SHORT = re.compile(r"^(?P<label>Art\.\s?(?P<num>\d{1,3})(?P<dot>\.)?)(?:\s+(?P<title>.*))?$")
# No leading \s*: with it, a search rescans every run of white space from
# each of its characters.  The heading before the range is stripped instead.
RANGE = re.compile(r"(?P<range>Art\.\s*\d+\s*t/m\s*\d+\.?)$")
PARAGRAAF_HEADING = re.compile(
    r"^(?P<label>(?:PARAGRAAF|Paragraaf|HOOFDSTUK|Hoofdstuk|DEEL|Deel)\s+[IVXL\d]+\.?)\s*(?P<title>.*)$"
)
UPPER = re.compile(r"^(?P<key>[A-Z])\.(?:\s+(?P<rest>.*))?$")
NUMBER = re.compile(r"^(?P<key>\d{1,2})\.(?:\s+(?P<rest>.*))?$")
LOWER = re.compile(r"^(?P<key>[a-z])\.\s+(?P<rest>.*)$")
PAREN = re.compile(r"^\((?P<key>[a-z]{1,2}|\d{1,2})\)(?:\s+(?P<rest>.*))?$")
LOWER_PAREN = re.compile(r"^(?P<key>[a-z])\)\s+(?P<rest>.*)$")  # 1936: "a) text"
DASH = re.compile(r"^-\s+(?P<rest>.*)$")
NOTE = re.compile(r"^(?P<mark>(?P<num>\d{1,2})\)|!\)|(?P<star>\*{1,3})\)|(?P<sup>[⁰¹²³⁴⁵⁶⁷⁸⁹]+)⁾?)\s+(?P<rest>.*)$")
_SENTENCE_BREAK = re.compile(r"[.!?;:]\s")


def short_article(line: str) -> re.Match[str] | None:
    """``Art. 45. Gespeelde kaart.`` (or ``Art. 45 Gespeelde kaart``): an article heading.

    Without the full stop after the number, only when a title follows (a
    capital, short, not a sentence): ``Art. 45 is van toepassing ...`` is
    text, and ``Art. 41 t/m 49`` a container's range.
    """
    m = _ART_SHORT.match(line)
    if m is None or m.group("dot"):
        return m
    title = m.group("title") or ""
    return m if title[:1].isupper() and is_title_text(title) else None


def is_title_text(rest: str) -> bool:
    return bool(rest) and len(rest) <= TITLE_MAX_CHARS and not rest.endswith(_SENTENCE_END)


def is_capitals_title(rest: str) -> bool:
    """``DE KAARTEN.``: short, every letter a capital (at least two), not ending like a clause."""
    # The cheap tests first: almost every numbered line is long, or has a small letter.
    if len(rest) > TITLE_MAX_CHARS or not rest.isupper() or rest.endswith((";", ":", ",")):
        return False
    letters = [c for c in rest if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def is_paragraph_title(line: str) -> bool:
    """``Inzien van een losgelaten slag.``: one short sentence starting with a capital."""
    return (
        len(line) <= PARAGRAPH_TITLE_MAX_CHARS
        and line[:1].isupper()
        and not line.endswith((";", ":", ","))
        and not _SENTENCE_BREAK.search(line)
    )
