"""A clause with thousands of references is read and drawn in time linear in its size.

Three steps once scanned every reference for each one (a clause of 8,000 references, 195 KB, took 5.4 s
of CPU to `check`, 6.8 s to `compare --format html` and 14 s to `report`; now a third of a second
each): a bare address was checked against every reference read before it (`find_references`), a
source's link against every reference read from the words (`references_in`), and each piece of a drawn
text against every link (`report/html/law.py`, `law_text`).  Each is checked here two ways: its answer
against the scan it replaced (written out in the test), on texts made to hold many references of every
kind, overlapping ones included; and its time at four times the references, which may be at most ten
times the time (a linear step takes four, a quadratic one sixteen; `tests/growth.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import lxml.html
from growth import grows_linearly
from hypothesis import given, settings
from hypothesis import strategies as st

from lawdiff.diff import Op, refchanges, significance
from lawdiff.diff.vocabulary import RefChange, RefStatus
from lawdiff.model import article_of, find_references, references_in
from lawdiff.model import references as module
from lawdiff.report.html.law import Link, law_text

# The words of reference-rich texts: trigger words, lists, bare and lettered addresses, the 1963 items.
WORDS = ["zie", "artikel", "art.", "artikelen", "45A", "16D1", "53", "en", "of", ",", "sub. a. en b. van art. 42", "x"]


class _ScannedSpans:
    """The scan ``find_references`` made before: every span asked for every position."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = spans

    def holds(self, pos: int) -> bool:
        return any(s <= pos < e for s, e in self.spans)


def _references_by_scan(text: str, links: Iterable[tuple[int, int, str]]) -> list[tuple[str, int, int, str]]:
    """``references_in`` as it was, each link's references found by a scan of them all."""
    textual = find_references(text)
    out: list[tuple[str, int, int, str]] = []
    used: set[int] = set()
    for link_start, link_end, value in links:
        inside = [(i, t) for i, t in enumerate(textual) if link_start <= t[1] and t[2] <= link_end]
        precise = [(i, t) for i, t in inside if module._refines(t[0], value) or module._refines(value, t[0])]
        for i, (target, s, e) in precise:
            used.add(i)
            chosen = target if len(module.address_parts(target)) >= len(module.address_parts(value)) else value
            out.append((chosen, s, e, "link" if chosen == value else "link+text"))
        if not precise:
            out.append((value, link_start, link_end, "link"))
    out.extend((t, s, e, "text") for i, (t, s, e) in enumerate(textual) if i not in used)
    return sorted(out, key=lambda r: (r[1], r[2]))


texts = st.lists(st.sampled_from(WORDS), max_size=60).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_a_bare_address_is_told_inside_a_reference_as_the_scan_told_it(text: str) -> None:
    found = find_references(text)
    scanned = module.Spans
    try:
        module.Spans = _ScannedSpans  # type: ignore[assignment,misc]
        assert find_references(text) == found
    finally:
        module.Spans = scanned  # type: ignore[misc]


@settings(max_examples=300, deadline=None)
@given(texts, st.data())
def test_a_link_takes_the_references_inside_it_as_the_scan_found_them(text: str, data: st.DataObject) -> None:
    # Links anywhere in the text, some over several references, some over none, some overlapping.
    spans = st.tuples(st.integers(0, len(text)), st.integers(0, 12), st.sampled_from(["45A", "16D", "53", "42(a)"]))
    links = [(s, min(len(text), s + n), v) for s, n, v in data.draw(st.lists(spans, max_size=8))]
    got = [(r.target, r.start, r.end, r.via) for r in references_in(text, links)]
    assert got == _references_by_scan(text, links)


def _drawn(segments: list[tuple[Op, str]], links: list[Link]) -> list[tuple[str, str | None]]:
    """Each character of a drawn law text with the href of the link it stands in (None: in none)."""
    root = lxml.html.fragment_fromstring(str(law_text("x", segments, links)))
    out: list[tuple[str, str | None]] = []

    def walk(el: lxml.html.HtmlElement, href: str | None) -> None:
        here = el.get("href") if el.tag == "a" else href
        out.extend((c, here) for c in el.text or "")
        for child in el:
            walk(child, here)
            out.extend((c, here) for c in child.tail or "")

    walk(root, None)
    return out


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_each_piece_of_a_drawn_text_stands_in_the_first_link_that_holds_it(data: st.DataObject) -> None:
    ops = st.sampled_from([Op.EQUAL, Op.INSERT, Op.DELETE])
    segments = data.draw(st.lists(st.tuples(ops, st.text("ab ,", min_size=1, max_size=6)), min_size=1, max_size=10))
    full = "".join(t for _, t in segments)
    # Links over any span, overlapping, nested, empty or outside the text (those are left out).
    bounds = st.tuples(st.integers(-2, len(full) + 2), st.integers(-2, len(full) + 2))
    links = [Link(s, e, f"#l{k}", "t") for k, (s, e) in enumerate(data.draw(st.lists(bounds, max_size=8)))]
    drawn = _drawn(segments, links)
    assert "".join(c for c, _ in drawn) == full
    for p, (_, href) in enumerate(drawn):
        first = next((lk.href for lk in links if 0 <= lk.start < lk.end <= len(full) and lk.start <= p < lk.end), None)
        assert href == first, (p, full, links)


def _words_with_references(n: int) -> str:
    # A reference after a trigger word and a bare one, n of each (each bare one asked of all before it).
    return "".join(f"zie artikel 45A en x 16D{k % 9 + 1} x " for k in range(n))


def test_references_are_read_from_words_in_time_linear_in_their_number() -> None:
    assert len(find_references(_words_with_references(10))) == 20
    grows_linearly(lambda n: lambda: find_references(_words_with_references(n)), 5_000, "references")


def test_links_take_their_references_in_time_linear_in_their_number() -> None:
    def make(n: int) -> Callable[[], object]:
        text = _words_with_references(n)
        starts = [s for _, s, _ in find_references(text)]
        links = [(s, s + 3, "45A") for s in starts[::2]]
        return lambda: references_in(text, links)

    grows_linearly(make, 5_000, "references")


def test_a_text_with_links_is_drawn_in_time_linear_in_their_number() -> None:
    def make(n: int) -> Callable[[], object]:
        text = "zie 45A en x " * n
        segments = [(Op.EQUAL, text[: len(text) // 2]), (Op.INSERT, "y "), (Op.EQUAL, text[len(text) // 2 :])]
        links = [Link(13 * k + 4, 13 * k + 7, "#a", "45A") for k in range(n)]
        return lambda: law_text("x", segments, links)

    assert str(make(3)()).count('class="ref"') == 3
    grows_linearly(make, 4_000, "references")


def _numbers_by_scan(
    digits: list[tuple[int, int, str]], text: str, spans: list[tuple[int, int]]
) -> list[tuple[str, str]]:
    """``significance._numbers`` as it was: every span asked for every word."""
    return [(w, text[s:e]) for s, e, w in digits if not any(a < e and s < b for a, b in spans)]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_number_is_told_inside_a_reference_as_the_scan_told_it(data: st.DataObject) -> None:
    text = "ab 12 cd 3e 45 f6 7 " * 3
    # Words and spans anywhere, overlapping, nested, empty, in any order.
    bounds = st.tuples(st.integers(0, len(text)), st.integers(0, 6)).map(lambda t: (t[0], min(len(text), t[0] + t[1])))
    digits = [(s, e, text[s:e]) for s, e in sorted(data.draw(st.lists(bounds, max_size=12)))]
    spans = data.draw(st.lists(bounds, max_size=8))
    assert significance._numbers(digits, text, spans) == _numbers_by_scan(digits, text, spans)


def test_numbers_are_told_from_references_in_time_linear_in_their_number() -> None:
    def make(n: int) -> Callable[[], object]:
        # "zie artikel 45A en 16 x ": a reference's span and a number outside it, n of each.
        text = "zie artikel 45A en 16 x " * n
        spans = [(24 * k + 4, 24 * k + 15) for k in range(n)]
        digits = [(24 * k + 19, 24 * k + 21, "16") for k in range(n)]
        return lambda: significance._numbers(digits, text, spans)

    assert significance._numbers([(12, 15, "45a"), (19, 21, "16")], "zie artikel 45A en 16 x ", [(4, 15)]) == [
        ("16", "16")
    ]
    grows_linearly(make, 5_000, "references")


def _matched_by_scan(
    old_refs: list[str], new_refs: list[str], successors: Callable[[str], tuple[str, ...] | None]
) -> tuple[RefChange, ...]:
    """``refchanges.references_matched`` as it was: the new targets a list, scanned for each old one."""
    out: list[RefChange] = []
    remaining_new = list(new_refs)
    pending_old: list[str] = []
    for t in old_refs:
        if t in remaining_new:
            remaining_new.remove(t)
            succ = successors(t)
            out.append(RefChange(RefStatus.KEPT, t, t, None if succ is None else t in succ))
        else:
            pending_old.append(t)
    still_old: list[str] = []
    for t in pending_old:
        succ = successors(t)
        hit = next((n for n in remaining_new if succ and n in succ), None)
        if hit is not None:
            remaining_new.remove(hit)
            out.append(RefChange(RefStatus.RETARGETED, t, hit, True))
        else:
            still_old.append(t)
    for t in still_old:
        hit = next((n for n in remaining_new if article_of(n) == article_of(t)), None)
        if hit is not None:
            remaining_new.remove(hit)
            succ = successors(t)
            out.append(RefChange(RefStatus.RETARGETED, t, hit, None if succ is None else hit in succ))
        else:
            out.append(RefChange(RefStatus.REMOVED, t, "", None))
    out.extend(RefChange(RefStatus.ADDED, "", n, None) for n in remaining_new)
    return tuple(dict.fromkeys(out))


TARGETS = ["45A", "45B", "45C1", "16D1", "16C1", "16", "50", "H6", "6A"]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(TARGETS), max_size=20),
    st.lists(st.sampled_from(TARGETS), max_size=20),
    st.dictionaries(st.sampled_from(TARGETS), st.none() | st.lists(st.sampled_from(TARGETS), max_size=3).map(tuple)),
)
def test_references_are_matched_as_the_scan_matched_them(
    old_refs: list[str], new_refs: list[str], went: dict[str, tuple[str, ...] | None]
) -> None:
    def successors(t: str) -> tuple[str, ...] | None:
        return went.get(t, ())

    assert refchanges.references_matched(old_refs, new_refs, successors) == _matched_by_scan(
        old_refs, new_refs, successors
    )


def test_references_are_matched_in_time_linear_in_their_number() -> None:
    went = {"45E": ("45F",), "16D1": ("16C1",)}

    def make(n: int) -> Callable[[], object]:
        # Kept, retargeted where the target went, within its article, removed and added: n of each.
        old = ["45A", "45E", "16D1", "53", "50"] * n
        new = ["45A", "45F", "16C2", "6B", "50"] * n
        return lambda: refchanges.references_matched(old, new, lambda t: went.get(t, ()))

    old, new = ["45A", "45E", "16D1", "53", "50"], ["45A", "45F", "16C2", "6B", "50"]
    one = refchanges.references_matched(old, new, went.get)
    assert [(r.status, r.old, r.new) for r in one] == [
        (RefStatus.KEPT, "45A", "45A"),
        (RefStatus.KEPT, "50", "50"),
        (RefStatus.RETARGETED, "45E", "45F"),
        (RefStatus.RETARGETED, "16D1", "16C2"),
        (RefStatus.REMOVED, "53", ""),
        (RefStatus.ADDED, "", "6B"),
    ]
    grows_linearly(make, 2_000, "references")
