"""An article of thousands of clauses is lined up in time linear in their number.

The synopsis's line order (``diff/synopsis.py``, ``_line_order``) kept its lines in a list that it searched
for every line of every edition, and searched and inserted into at every line it placed: an article of
16,000 items (a 540 KB page, in two editions) took 26 s of CPU to ``report``, 11 s of them there; now a
chain of lines, each placed after the one before it.  Checked two ways, as in tests/test_many_references.py:
the order against the list's (the old step written out here), on lines made of nodes of four editions in
any order, and the time at four times the lines, which may be at most ten times the time (a linear step
takes four, a quadratic one sixteen; `tests/growth.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from growth import grows_linearly
from hypothesis import given, settings
from hypothesis import strategies as st

from lawdiff.diff import synopsis as module
from lawdiff.diff.synopsis import Node, Part

NAMES = ["1963", "1997", "2007", "2017"]

_Groups = dict[Node, list[Node]]
_Positions = dict[Node, tuple[int, int]]


def _line_order_by_scan(groups: _Groups, names: list[str], position: _Positions) -> list[Node]:
    """``_line_order`` as it was: a list, searched for every line and inserted into."""
    order: list[Node] = []
    for name in reversed(names):
        present = sorted(
            (r for r, ns in groups.items() if any(x.edition == name for x in ns)),
            key=lambda r: min(position[x] for x in groups[r] if x.edition == name),
        )
        last: Node | None = None
        for r in present:
            if r in order:
                last = r
                continue
            if last is not None:
                idx = order.index(last) + 1
            else:
                later = [order.index(x) for x in present if x in order]
                idx = min(later) if later else len(order)
            order.insert(idx, r)
            last = r
    return order


def _lines(spec: list[tuple[int, int, int]]) -> tuple[_Groups, _Positions]:
    """Lines from (line, edition, place) triples: each a node of that edition in that line at that place
    (places may repeat, and a line may hold several nodes of one edition)."""
    groups: _Groups = {}
    position: _Positions = {}
    roots: dict[int, Node] = {}
    for k, (line, edition, place) in enumerate(spec):
        node = Node(NAMES[edition], f"{k}", Part.BODY)
        position[node] = (place, k % 2)
        groups.setdefault(roots.setdefault(line, node), []).append(node)
    return groups, position


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 3), st.integers(0, 20)), max_size=40))
def test_the_lines_are_ordered_as_the_list_ordered_them(spec: list[tuple[int, int, int]]) -> None:
    groups, position = _lines(spec)
    assert module._line_order(groups, NAMES, position) == _line_order_by_scan(groups, NAMES, position)


def test_an_article_of_thousands_of_clauses_is_lined_up_in_time_linear_in_their_number() -> None:
    def make(n: int) -> Callable[[], object]:
        # Two editions of n clauses each, every third one only in the older (placed after the line before it),
        # every fifth one only in the newer.
        spec = [(k, 2, k) for k in range(n) if k % 5] + [(k, 3, k) for k in range(n) if k % 3]
        groups, position = _lines(spec)
        return lambda: module._line_order(groups, NAMES, position)

    groups, position = _lines([(0, 2, 0), (1, 2, 1), (1, 3, 0), (2, 3, 1)])
    assert [n.address for n in module._line_order(groups, NAMES, position)] == ["0", "1", "3"]
    grows_linearly(make, 5_000, "clauses")
