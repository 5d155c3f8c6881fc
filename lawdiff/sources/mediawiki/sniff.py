"""Recognising a MediaWiki export by its first bytes, without loading the XML parser.

Kept apart from :mod:`lawdiff.sources.mediawiki.dump` so that a run that
reads only wiki pages never imports lxml.
"""

from __future__ import annotations

import re

_XML_DECL = re.compile(r"<\?xml[^>]*\?>")
_DOCTYPE = re.compile(r"<!DOCTYPE\s+(?:[\w.-]+:)?([\w.-]+)")
_ROOT = re.compile(r"<(?:[\w.-]+:)?mediawiki[\s>/]")


def looks_like_export(text: str) -> bool:
    """Whether text begins as a MediaWiki export: its root element, or a DOCTYPE naming it."""
    return _prolog(text)[0]


def has_internal_subset(text: str) -> bool:
    """Whether the export's DOCTYPE carries an internal subset (``<!DOCTYPE mediawiki [...]>``)."""
    return _prolog(text)[1]


def _prolog(text: str) -> tuple[bool, bool]:
    """(an export?, a DOCTYPE with an internal subset?), from the head of a file.

    The prolog is walked item by item (declaration, comments, DOCTYPE), never
    by one pattern with nested repeats, so hostile heads cost their length.
    A DOCTYPE with an internal subset still makes an export: the reader
    refuses it and says why.
    """
    pos = len(text) - len(text.lstrip("\ufeff \t\r\n"))
    if m := _XML_DECL.match(text, pos):
        pos = m.end()
    while True:
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if text.startswith("<!--", pos):
            end = text.find("-->", pos + 4)
            if end < 0:
                return False, False
            pos = end + 3
        elif m := _DOCTYPE.match(text, pos):
            end = text.find(">", m.end())
            bracket = text.find("[", m.end())
            subset = bracket >= 0 and (end < 0 or bracket < end)
            if m.group(1) == "mediawiki":
                return True, subset
            if end < 0 or subset:
                return False, False
            pos = end + 1
        else:
            return _ROOT.match(text, pos) is not None, False
