"""The rendered-wiki-page reader takes time linear in its input.

Each case is a page of 250 KB built here (not committed; 125 KB for the
duplicate labels, 25,000 of them; 1 MB for the long clause, whose copying
is quick per byte) that once took time quadratic in its size: at four
times this size, from a minute to hours, where it now takes about a second.  The test reads each
page at a quarter of its size too and checks the shape, not a figure: four
times the text may take at most ten times the CPU time (a linear reader
takes four, a quadratic one sixteen), and a smaller page read in under
FLOOR counts as FLOOR, so that a case read in hundredths of a second is not
failed by a moment of the host's.  A bound in seconds failed on a busy
machine (5.8 CPU seconds against 5); the figures are bench_pathological.py's,
as whole processes.

Three of the quadratic steps below, each put back for a try, still fail at
these sizes: the bigger page's read was stopped at its bound, ten times the
smaller page's, at 94 s for the markers' search (markers after words; the
smaller page 9.4 s), 48 s for the duplicates' retries (4.8 s), and 3.0 s
for the long clause's copying (0.30 s), the cheapest step, which at half
its size would pass (1.0 s against a bound of 1.3 s): hence its 1 MB.

Where the time went:

* markers: each footnote marker was taken out by rebuilding the line and
  searching it again from its start (``text_with_markers``);
* white space: U+001F, U+0085, U+1680 and the like survived normalization,
  and the container-range pattern rescanned the run from each of its
  characters (``\\s*`` in an unanchored search);
* duplicate labels: the Nth duplicate of an address tried ``~2`` ... ``~N``
  before finding a free one (``_register``);
* a long clause: its text grew by string concatenation, one copy per line.
"""

from __future__ import annotations

import gc
import signal
import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lawdiff.sources import read_text
from lawdiff.sources.build import PageTree, build_page
from lawdiff.sources.wikitext.inlines import Inlines

SIZE = 250_000  # characters of a page (see the module's docstring for what a quadratic reader takes at it)
GROWTH = 4  # the page at SIZE is this many times the one it is measured against
BOUND = 10.0  # the most times the smaller page's CPU time that the page at SIZE may take (linear 4, quadratic 16)
# CPU seconds: a smaller page read faster than this is counted as this.  In a virtual machine a process's
# CPU time also runs while the host holds its processor back: a 0.03 s read once measured 0.5 s.
FLOOR = 0.1


def repeated(piece: str, size: int) -> str:
    """``piece`` repeated to ``size`` characters or just over."""
    return piece * -(-size // len(piece))


def markers_after_words(size: int) -> str:
    return "Sjabloon:2007:45\n" + repeated("w 1) ", size) + "\n1) De uitkomst geschiedt gedekt.\n"


def bare_markers(size: int) -> str:
    return "Sjabloon:2007:45\n" + repeated("1) ", size) + "\n"


def spaces_in_text(space: str) -> Callable[[int], str]:
    return lambda size: "Sjabloon:2007:45\nElke" + space * size + "speler\n"


def spaces_in_heading(space: str) -> Callable[[int], str]:
    return lambda size: "Sjabloon:2007:45\nA. Spelen" + space * size + "van een kaart\n"


def spaces_in_container_heading(space: str) -> Callable[[int], str]:
    return lambda size: "Sjabloon:1997:HVI3I\nPARAGRAAF I Voor de beurt" + space * size + "voorspelen Art. 53 t/m 56\n"


def duplicate_labels(size: int) -> str:
    return "Sjabloon:2007:45\n" + repeated("A. x\n", size // 2)


def one_long_clause(size: int) -> str:
    return "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\n" + repeated("Een kaart.\n", 4 * size)


def notes_after_their_markers(size: int) -> str:
    return "Sjabloon:2007:45\n" + repeated("Elke speler 1) speelt.\n1) Gedekt.\n", size)


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def superscript_notes(size: int) -> str:
    # Thousands of superscript notes, each after the line holding its marker: every line was tested for the
    # printed form of every note's number (Inlines.ascii_printed, fused_numbers).
    pieces = [f"Elke speler{k}⁾ speelt.\n{k}⁾ Gedekt.\n".translate(_SUPERSCRIPT) for k in range(1, size // 25)]
    return "Sjabloon:2007:45\n" + "".join(pieces)


def wiki_chrome_lookalike(size: int) -> str:
    # One line of the version navigation's words repeated: too long to be the wiki's own line.
    return "Sjabloon:2007:45\n" + repeated("(wijz) ← Oudere versie | ", size) + "\nA. x\n"


def wiki_chrome_lines(size: int) -> str:
    # The wiki's own lines (head and tail), 6,250 of each at SIZE, around one section.
    lines = size // 40
    return "Sjabloon:2007:45\n" + "Naar zoeken springen\n" * lines + "A. x\n" + "Categorie: Spelregels 2007\n" * lines


CASES: dict[str, Callable[[int], str]] = {
    "markers-after-words": markers_after_words,
    "bare-markers": bare_markers,
    "duplicate-labels": duplicate_labels,
    "one-long-clause": one_long_clause,
    "notes-after-their-markers": notes_after_their_markers,
    "superscript-notes": superscript_notes,
    "wiki-chrome-lookalike": wiki_chrome_lookalike,
    "wiki-chrome-lines": wiki_chrome_lines,
}
for name, space in (("u001f", "\x1f"), ("u0085", "\x85"), ("u1680", "\u1680")):
    CASES[f"{name}-in-text"] = spaces_in_text(space)
    CASES[f"{name}-in-heading"] = spaces_in_heading(space)
    CASES[f"{name}-in-container-heading"] = spaces_in_container_heading(space)


def read_and_build(text: str) -> tuple[float, PageTree]:
    """The CPU seconds to read a page and build its tree, and the tree."""
    start = time.process_time()
    (page,) = read_text(text, "big.txt")
    tree = build_page(page)
    return time.process_time() - start, tree


class _OutOfTime(Exception):
    pass


def _out_of_time(*_args: object) -> None:
    raise _OutOfTime


def seconds(make: Callable[[int], str], size: int, most: float = 600.0) -> float:
    """The CPU time of a read of the page ``make`` builds at ``size``; the read is stopped once it has
    taken ``most`` CPU seconds (a quadratic case would take hours), and counted as that."""
    text = make(size)
    assert len(text) >= size // 2
    gc.collect()  # each read starts with the same garbage: none
    before = signal.signal(signal.SIGPROF, _out_of_time)
    try:
        signal.setitimer(signal.ITIMER_PROF, most)  # this process's CPU time, as process_time counts it
        try:
            took, tree = read_and_build(text)
        except _OutOfTime:
            return most
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    finally:
        signal.signal(signal.SIGPROF, before)
    assert tree.roots, "the page was read into nothing"
    return took


@pytest.mark.parametrize("make", CASES.values(), ids=CASES.keys())
def test_a_big_page_is_read_in_time_linear_in_its_size(make: Callable[[int], str]) -> None:
    # The verdict of the least of two reads of each page, with each second read made only where it can
    # change the verdict: the smaller page's where the first is over FLOOR and the bigger page's read over
    # BOUND * FLOOR (a lesser time could lower the bound below it), the bigger page's where the first is
    # over the bound (one run cut off does not decide).
    smaller = [seconds(make, SIZE // GROWTH)]
    big = seconds(make, SIZE, most=BOUND * max(smaller[0], FLOOR))
    if big >= BOUND * FLOOR and smaller[0] > FLOOR:
        smaller.append(seconds(make, SIZE // GROWTH))
    small = max(min(smaller), FLOOR)
    if big >= BOUND * small:
        big = seconds(make, SIZE, most=BOUND * small)
    assert big < BOUND * small, (
        f"{GROWTH} times the text took {big / small:.1f} times as long or more ({big:.2f} s against {small:.2f} s)"
    )


def test_the_cases_are_read_as_intended() -> None:
    """The inputs do exercise what they are named for (a fast wrong reading would prove nothing)."""
    small = 1_000
    _, tree = read_and_build("Sjabloon:2007:45\n" + repeated("w 1) ", small) + "\n1) Gedekt.\n")
    (article,) = tree.roots
    assert article.text == " ".join(["w"] * (small // 5))
    assert len(article.footnotes) == 1
    _, tree = read_and_build("Sjabloon:2007:45\n" + repeated("A. x\n", small))
    sections = tree.roots[0].children
    assert [s.address for s in sections[:3]] == ["45A", "45A~2", "45A~3"]
    assert len(sections) == small // 5
    assert sections[-1].address == f"45A~{small // 5}"
    _, tree = read_and_build(superscript_notes(small * 5))
    (article,) = tree.roots
    assert len(article.footnotes) == small // 5 - 1
    assert article.footnotes[-1].address == f"45.fn{small // 5 - 1}"
    assert article.text.startswith("Elke speler speelt.\nElke speler speelt.")  # the markers taken out
    _, tree = read_and_build("Sjabloon:2007:45\nA. Spelen" + "\u1680" * small + "van een kaart\n")
    assert tree.roots[0].children[0].title == "Spelen van een kaart"
    _, tree = read_and_build(spaces_in_container_heading("\x85")(small))
    assert tree.roots[0].children[0].children[0].title == "Voor de beurt voorspelen"
    _, tree = read_and_build(
        "Sjabloon:2007:45\n" + "Naar zoeken springen\n" * small + "A. x\n" + "Categorie: y\n" * small
    )
    assert [(s.address, s.title) for s in tree.roots[0].children] == [("45A", "x")]
    _, tree = read_and_build("Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\n" + "Elke speler.\n" * small)
    assert tree.roots[0].text == "\n".join(["Elke speler."] * small)


# Lines of notes (ASCII, superscript, of one to four digits) and of text holding markers of every kind.
_NUMBERS = st.integers(0, 1200).map(str)
_NOTE_LINES = st.one_of(
    _NUMBERS.map(lambda n: f"{n}) Noot."), _NUMBERS.map(lambda n: f"{n}⁾ Noot.".translate(_SUPERSCRIPT))
)
_TEXT_LINES = st.lists(
    st.one_of(
        _NUMBERS.map(lambda n: f"w {n})"),
        _NUMBERS.map(lambda n: f"speler{n}"),
        _NUMBERS.map(lambda n: f"w{n}⁾".translate(_SUPERSCRIPT)),
        st.sampled_from(["x", "(1)", "*)", "12)3", ",", "."]),
    ),
    max_size=12,
).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(_NOTE_LINES, max_size=8), st.lists(_TEXT_LINES, min_size=1, max_size=6))
def test_a_line_is_searched_for_markers_where_every_numbers_test_would_search_it(
    notes: list[str], texts: list[str]
) -> None:
    # The test a line passes before a search for markers once asked for every note's number, however long.
    lines = ["Sjabloon:2007:45", *texts, *notes]
    every = Inlines(lines, None)
    every.ascii_printed = tuple(sorted(f"{n})" for n in every.ascii_numbers))
    every.fused_numbers = tuple(sorted(every.note_numbers))
    short = Inlines(lines, None)
    for text in texts:
        assert short._markers(text) == every._markers(text)


def test_markers_of_every_kind_are_found_beside_many_long_numbers() -> None:
    notes = [f"{n}⁾ Noot.".translate(_SUPERSCRIPT) for n in range(1, 300)] + ["12) Noot."]
    text = "w 12) x speler7 w¹²³⁾"
    found = Inlines(["Sjabloon:2007:45", text, *notes], None)._markers(text)
    assert [(m[2], m[3]) for m in found] == [("12", "12)"), ("7", "7"), ("123", "¹²³⁾")]
