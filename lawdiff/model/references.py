"""Cross-references: read from a clause's words, merged with the source's links."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from lawdiff.frozen import slot_init
from lawdiff.model.address import address_parts, normalize_address


@slot_init
@dataclass(frozen=True, slots=True)
class Reference:
    """A cross-reference found in a clause's text.

    target: the address it points at (``47E1``, ``45(d)``).
    start, end: the span of ``Clause.text`` it was read from.
    printed: that span's text.
    via: "text" (read from the words), "link" (a hyperlink of the source),
        or "link+text" (a link whose words name a more precise target).
    """

    target: str
    start: int
    end: int
    printed: str
    via: str


# ---------------------------------------------------------------------------
# Cross-references read from text

_ADDR = r"\d{1,3}(?:[A-Z](?:\d{1,2})?)?(?:\s?\([a-z]\))?"
# The trigger words and the bare addresses start with the character class
# the regex engine scans for quickly (a letter of the words, a digit); the
# word boundary before them is the look-behind that follows it.  Written as
# ``\b(?:[Aa]rtikelen|...)`` and ``(?<![\w/.-])\d{1,3}...``, the same
# patterns try every position of the text (four times slower).
_TRIGGER = re.compile(r"[AaZz](?<!\w.)(?:(?<=[Aa])(?:rtikelen|rtikel|rt\.)|(?<=[Zz])ie)\s+(?=\d)")
_LIST_ITEM = re.compile(rf"(?P<addr>{_ADDR})(?![\d\w/])")
_LIST_SEP = re.compile(r"(?:\s*,\s*|\s+en\s+|\s+of\s+|\s+and\s+)(?=\d)")
_SUB_ITEMS = re.compile(
    r"\bsub\.?\s+(?P<items>[a-z]\.?(?:\s*(?:,|en|of)\s*[a-z]\.?)*)\s+van\s+(?:art\.|artikel)\s*(?P<art>\d{1,3})\b"
)
_BARE = re.compile(r"(?P<addr>\d(?<![\w/.-]\d)\d{0,2}[A-Z]\d{0,2}(?:\s?\([a-z]\))?)(?![\w/])")
# The same, for a text in Latin-1: its only decimal digits are 0-9, which
# the engine tells apart faster than any Unicode digit.
_BARE_LATIN1 = re.compile(r"(?P<addr>[0-9](?<![\w/.-][0-9])[0-9]{0,2}[A-Z][0-9]{0,2}(?:\s?\([a-z]\))?)(?![\w/])")


_DIGIT = re.compile(r"\d")


def _is_latin1(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("latin-1")  # a copy of its bytes, for a text in Latin-1
    except UnicodeEncodeError:
        return False
    return True


def _has_digit(text: str, latin1: bool) -> bool:
    """Whether ``text`` holds a decimal digit; in Latin-1 only 0-9 are, found by the fast ``in``."""
    if (
        "0" in text
        or "1" in text
        or "2" in text
        or "3" in text
        or "4" in text
        or "5" in text
        or "6" in text
        or "7" in text
        or "8" in text
        or "9" in text
    ):
        return True
    return not latin1 and _DIGIT.search(text) is not None


def _holds_trigger(text: str) -> bool:
    """Whether ``text`` holds what every match of :data:`_TRIGGER` holds (``artikel``, ``art.``, ``zie``)."""
    return "rtikel" in text or "rt." in text or "zie" in text or "Zie" in text


def find_references(text: str) -> list[tuple[str, int, int]]:
    """Addresses named in ``text``: ``[(target, start, end), ...]`` in order.

    Reads ``artikel 45E``, ``art. 50``, ``zie 53C``, ``art. 45 (d)``, lists
    such as ``de artikelen 64A, 64B7 en 64C`` and ``artikel 53 of 56``, and
    bare lettered addresses such as ``16D1``, and the 1963 way of naming
    items, ``sub. a. en b. van art. 42`` (``42(a)``, ``42(b)``).  Bare
    numbers without a trigger word are not read (they are counts, not
    references).
    """
    latin1 = _is_latin1(text)
    if not _has_digit(text, latin1):
        return []  # every form of reference names a number
    found: dict[int, tuple[str, int, int]] = {}
    named_items: set[int] = set()  # article numbers whose items were named
    for sub in _SUB_ITEMS.finditer(text) if "sub" in text else ():
        article = sub.group("art")
        named_items.add(sub.start("art"))
        for item in re.finditer(r"\b([a-z])\b", sub.group("items")):
            start = sub.start("items") + item.start(1)
            found[start] = (f"{article}({item.group(1)})", start, start + 1)
    # (Every trigger word holds one of these: a text without them is not scanned for one.)
    for trig in _TRIGGER.finditer(text) if _holds_trigger(text) else ():
        pos = trig.end()
        while True:
            m = _LIST_ITEM.match(text, pos)
            if not m:
                break
            if m.start() not in named_items:
                found[m.start()] = (normalize_address(m.group("addr")), m.start(), m.end())
            sep = _LIST_SEP.match(text, m.end())
            if not sep:
                break
            pos = sep.end()
    covered = Spans((s, e) for _, s, e in found.values())
    # A bare address inside a reference read already is part of it.  (The bare matches do not overlap
    # each other, so only the spans read before them can hold one.)
    for m in (_BARE_LATIN1 if latin1 else _BARE).finditer(text):
        if not covered.holds(m.start()):
            found[m.start()] = (normalize_address(m.group("addr")), m.start(), m.end())
    return [found[k] for k in sorted(found)]


class Spans:
    """Spans ``[start, end)``, asked whether any of them holds a position or overlaps a range, by a binary
    search rather than a scan of them all (a clause with thousands of references asks once per word)."""

    __slots__ = ("_reach", "_starts")

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._starts = [s for s, _ in ordered]
        # The furthest end of the spans that start at or before each one.
        self._reach = list(itertools.accumulate((e for _, e in ordered), max))

    def overlaps(self, start: int, end: int) -> bool:
        """Whether a span shares a position with ``[start, end)``: one starting before ``end`` reaches past
        ``start``."""
        i = bisect.bisect_left(self._starts, end) - 1
        return i >= 0 and self._reach[i] > start

    def holds(self, pos: int) -> bool:
        return self.overlaps(pos, pos + 1)


def _refines(address: str, other: str) -> bool:
    """Whether ``address`` is ``other`` or lies inside it, label by label (``16C1`` in ``16C``, not ``45`` in ``4``)."""
    mine, theirs = address_parts(address), address_parts(other)
    return mine[: len(theirs)] == theirs


def references_in(text: str, links: Iterable[tuple[int, int, str]]) -> tuple[Reference, ...]:
    """Merge the references read from words with the links of the source.

    ``links``: the source's hyperlinks in ``text`` as (start, end, target
    address).
    """
    refs: list[Reference] = []
    textual = find_references(text)
    used: set[int] = set()
    # ``textual`` is in order of its starts: a link's references are found by a binary search, not a scan of
    # them all for every link (a page of thousands of links).
    starts = [s for _, s, _ in textual]
    for link_start, link_end, link_value in links:
        inside = []
        for i in range(bisect.bisect_left(starts, link_start), bisect.bisect_right(starts, link_end)):
            if textual[i][2] <= link_end:
                inside.append((i, textual[i]))
        # A link's words may name a more precise target than its href does
        # ("16C1" linking to #artikel-16-c): keep the words' target then.
        # Words naming another clause stay references read from the text.
        precise = [(i, t) for i, t in inside if _refines(t[0], link_value) or _refines(link_value, t[0])]
        for i, (target, s, e) in precise:
            used.add(i)
            chosen = target if len(address_parts(target)) >= len(address_parts(link_value)) else link_value
            refs.append(Reference(chosen, s, e, text[s:e], "link" if chosen == link_value else "link+text"))
        if not precise:
            refs.append(Reference(link_value, link_start, link_end, text[link_start:link_end], "link"))
    for i, (target, s, e) in enumerate(textual):
        if i not in used:
            refs.append(Reference(target, s, e, text[s:e], "text"))
    refs.sort(key=lambda r: (r.start, r.end))
    return tuple(refs)
