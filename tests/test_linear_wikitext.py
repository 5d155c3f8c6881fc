"""The rendered-wiki-page reader takes time linear in its input.

Each case is a page of 500 KB built here (not committed; 250 KB for the
duplicate labels, 50,000 of them; 1 MB for the long clause, whose copying
is quick per byte) that once took time quadratic in its size: at twice
this size, from a minute to hours, where it now takes about a second.  The test reads each
page at a quarter of its size too and checks the shape, not a figure: four
times the text may take at most ten times the CPU time (a linear reader
takes four, a quadratic one sixteen), and a smaller page read in under
FLOOR counts as FLOOR, so that a case read in hundredths of a second is not
failed by a moment of the host's.  A bound in seconds failed on a busy
machine (5.8 CPU seconds against 5); the figures are bench_pathological.py's,
as whole processes.

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

from lawdiff.sources import read_text
from lawdiff.sources.build import PageTree, build_page

SIZE = 500_000  # characters of a page (quadratic cases take a quarter of a minute to hours at it)
GROWTH = 4  # the page at SIZE is this many times the one it is measured against
BOUND = 10.0  # the most times the smaller page's CPU time that the page at SIZE may take (linear 4, quadratic 16)
# CPU seconds: a smaller page read faster than this is counted as this.  In a virtual machine a process's
# CPU time also runs while the host holds its processor back: a 0.03 s read once measured 0.5 s.
FLOOR = 0.2


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
    return "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\n" + repeated("Een kaart.\n", 2 * size)


def notes_after_their_markers(size: int) -> str:
    return "Sjabloon:2007:45\n" + repeated("Elke speler 1) speelt.\n1) Gedekt.\n", size)


def wiki_chrome_lookalike(size: int) -> str:
    # One line of the version navigation's words repeated: too long to be the wiki's own line.
    return "Sjabloon:2007:45\n" + repeated("(wijz) ← Oudere versie | ", size) + "\nA. x\n"


def wiki_chrome_lines(size: int) -> str:
    # The wiki's own lines (head and tail), 12,500 of each at SIZE, around one section.
    lines = size // 40
    return "Sjabloon:2007:45\n" + "Naar zoeken springen\n" * lines + "A. x\n" + "Categorie: Spelregels 2007\n" * lines


CASES: dict[str, Callable[[int], str]] = {
    "markers-after-words": markers_after_words,
    "bare-markers": bare_markers,
    "duplicate-labels": duplicate_labels,
    "one-long-clause": one_long_clause,
    "notes-after-their-markers": notes_after_their_markers,
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


def least_seconds(make: Callable[[int], str], size: int, runs: int, most: float = 600.0, enough: float = 0.0) -> float:
    """The least CPU time of ``runs`` reads of the page ``make`` builds at ``size``; a read is stopped
    once it has taken ``most`` CPU seconds (a quadratic case would take hours), and counted as that.
    The runs end at the first read under ``enough`` seconds: a lesser time would change nothing for
    the caller (the floor of the smaller page, the bound of the bigger one), only cost a read more."""
    text = make(size)
    assert len(text) >= size // 2
    times = []
    before = signal.signal(signal.SIGPROF, _out_of_time)
    try:
        for _ in range(runs):
            gc.collect()  # each run starts with the same garbage: none
            signal.setitimer(signal.ITIMER_PROF, most)  # this process's CPU time, as process_time counts it
            try:
                seconds, tree = read_and_build(text)
            except _OutOfTime:
                times.append(most)  # the next run may be spared what held this one up
                continue
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            assert tree.roots, "the page was read into nothing"
            times.append(seconds)
            if seconds < enough:
                break
    finally:
        signal.signal(signal.SIGPROF, before)
    return min(times)


@pytest.mark.parametrize("make", CASES.values(), ids=CASES.keys())
def test_a_big_page_is_read_in_time_linear_in_its_size(make: Callable[[int], str]) -> None:
    small = max(least_seconds(make, SIZE // GROWTH, 2, enough=FLOOR), FLOOR)
    big = least_seconds(make, SIZE, 2, most=BOUND * small, enough=BOUND * small)
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
