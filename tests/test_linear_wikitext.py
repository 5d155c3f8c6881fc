"""The rendered-wiki-page reader takes time linear in its input.

Each case is a page of 1 MB built here (not committed; 500 KB for the
duplicate labels, 100,000 of them; 2 MB for the long clause, whose copying
is quick per byte) that once took time quadratic in its size: from a
minute to hours, where it now takes a second or two.  The bound
is generous and counts the CPU time of this process, not the wall clock, so
that other work on the machine does not fail it; a case that is quadratic
again exceeds it many times over.

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

import time
from collections.abc import Callable

import pytest

from lawdiff.sources import read_text
from lawdiff.sources.build import PageTree, build_page

SIZE = 1_000_000  # characters of a page
BOUND = 5.0  # CPU seconds to read and build it


def repeated(piece: str, size: int = SIZE) -> str:
    """``piece`` repeated to ``size`` characters or just over."""
    return piece * -(-size // len(piece))


def markers_after_words() -> str:
    return "Sjabloon:2007:45\n" + repeated("w 1) ") + "\n1) De uitkomst geschiedt gedekt.\n"


def bare_markers() -> str:
    return "Sjabloon:2007:45\n" + repeated("1) ") + "\n"


def spaces_in_text(space: str) -> Callable[[], str]:
    return lambda: "Sjabloon:2007:45\nElke" + space * SIZE + "speler\n"


def spaces_in_heading(space: str) -> Callable[[], str]:
    return lambda: "Sjabloon:2007:45\nA. Spelen" + space * SIZE + "van een kaart\n"


def spaces_in_container_heading(space: str) -> Callable[[], str]:
    return lambda: "Sjabloon:1997:HVI3I\nPARAGRAAF I Voor de beurt" + space * SIZE + "voorspelen Art. 53 t/m 56\n"


def duplicate_labels() -> str:
    return "Sjabloon:2007:45\n" + repeated("A. x\n", SIZE // 2)


def one_long_clause() -> str:
    return "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\n" + repeated("Een kaart.\n", 2 * SIZE)


def notes_after_their_markers() -> str:
    return "Sjabloon:2007:45\n" + repeated("Elke speler 1) speelt.\n1) Gedekt.\n")


def wiki_chrome_lookalike() -> str:
    # One line of the version navigation's words repeated: too long to be the wiki's own line.
    return "Sjabloon:2007:45\n" + repeated("(wijz) ← Oudere versie | ") + "\nA. x\n"


def wiki_chrome_lines() -> str:
    # The wiki's own lines (head and tail), 100,000 of them, around one section.
    lines = SIZE // 40
    return "Sjabloon:2007:45\n" + "Naar zoeken springen\n" * lines + "A. x\n" + "Categorie: Spelregels 2007\n" * lines


CASES: dict[str, Callable[[], str]] = {
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


@pytest.mark.parametrize("make", CASES.values(), ids=CASES.keys())
def test_a_big_page_is_read_in_seconds(make: Callable[[], str]) -> None:
    text = make()
    assert len(text) >= SIZE // 2
    seconds, tree = read_and_build(text)
    assert tree.roots, "the page was read into nothing"
    assert seconds < BOUND, f"{len(text):,} characters took {seconds:.1f} s"


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
    _, tree = read_and_build(spaces_in_container_heading("\x85")())
    assert tree.roots[0].children[0].children[0].title == "Voor de beurt voorspelen"
    _, tree = read_and_build(
        "Sjabloon:2007:45\n" + "Naar zoeken springen\n" * small + "A. x\n" + "Categorie: y\n" * small
    )
    assert [(s.address, s.title) for s in tree.roots[0].children] == [("45A", "x")]
    _, tree = read_and_build("Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\n" + "Elke speler.\n" * small)
    assert tree.roots[0].text == "\n".join(["Elke speler."] * small)
