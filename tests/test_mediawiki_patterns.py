"""The MediaWiki reader's faster spellings find what their plain spellings found.

Patterns written so that the regex engine scans for a literal first, and
places counted without a list of line breaks, checked against the plain
versions on random wikitext.
"""

from __future__ import annotations

import bisect
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from lawdiff.sources.mediawiki.syntax import _INCLUDE_TOKEN, _ONLY_INCLUDE, Located

_OLD_INCLUDE_TOKEN = re.compile(r"<!--.*?(?:-->|\Z)|<(/?)(noinclude|includeonly|onlyinclude)\s*(/?)>", re.I | re.S)
_OLD_ONLY_INCLUDE = re.compile(r"<onlyinclude\s*>", re.I)

_WIKITEXT = st.lists(
    st.sampled_from(
        [
            *"ab <>/-!\n\t ſK",
            *("<!--", "-->", "<noinclude>", "</NoInclude>", "<includeonly/>", "<onlyinclude >", "</onlyinclude>"),
            *("<ONLYINCLUDE>", "<onlyınclude>", "İ", "x\n"),
        ]
    ),
    max_size=25,
).map("".join)


@settings(max_examples=1000, deadline=None)
@given(_WIKITEXT)
def test_the_include_tags_are_found_as_before(text: str) -> None:
    for old, new in ((_OLD_INCLUDE_TOKEN, _INCLUDE_TOKEN), (_OLD_ONLY_INCLUDE, _ONLY_INCLUDE)):
        assert [(m.span(), m.groups()) for m in old.finditer(text)] == [
            (m.span(), m.groups()) for m in new.finditer(text)
        ]


@settings(max_examples=300, deadline=None)
@given(_WIKITEXT, st.lists(st.integers(min_value=0, max_value=40), max_size=8))
def test_the_line_of_an_offset_is_counted_as_before(text: str, offsets: list[int]) -> None:
    located = Located(text, 7, "Sjabloon:2017:45")
    newlines = [m.start() for m in re.finditer("\n", text)]
    # In order, as expand asks, and in any order.
    for wanted in (sorted(offsets), offsets):
        for offset in wanted:
            offset = min(offset, len(text))
            assert located.line_at(offset) == 7 + bisect.bisect_left(newlines, offset)
