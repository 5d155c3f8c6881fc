"""The synopsis of one article: its titles and texts lined up across all editions.

Each clause of the article in each edition gives a node (an article's heading
apart from its text); the changes of each pair of consecutive editions join
the nodes they connect into one line (a union-find), and each line carries the
words for the change at each step (``("split", "renumbered")``).
"""

from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from lawdiff.align import Aspect
from lawdiff.diff.vocabulary import Change, ChangeKind
from lawdiff.model import Edition

if TYPE_CHECKING:
    # Only a type here: article.py builds the pairs and imports this module.
    from lawdiff.diff.article import PairView


class Part(enum.StrEnum):
    """Which part of a clause a synopsis node shows.

    A ``str`` enum: a node is hashed at every step of the union-find, and a string member hashes in C.
    """

    HEAD = "head"  # an article's title, a heading line of its own
    BODY = "body"  # the title and text of any other clause, or an article's own text


class Node(NamedTuple):
    """A clause in one edition as a unit of the synopsis: an article's heading, or a clause's title and text.

    A named tuple, not a frozen dataclass: the union-find hashes and compares nodes some 350,000 times for
    93 articles, and a tuple does both in C.
    """

    edition: str
    address: str
    part: Part


@dataclass(frozen=True, slots=True)
class SynopsisRow:
    """One line of the synopsis: what corresponds across the editions.

    cells: per edition of the article (oldest first), its nodes in the line.
    steps: per edition, the words for the change from the previous edition's
        cell, the kind of change first (``("split", "renumbered")``); none for
        the first edition, or where both cells are empty.
    """

    cells: tuple[tuple[Node, ...], ...]
    steps: tuple[tuple[str, ...], ...]


# The words of a step whose clause only one of its two editions' corpora holds.
NOT_COMPARED = "not compared"
_UNCHANGED = ("unchanged",)


def synopsis(
    number: str,
    editions: tuple[Edition, ...],
    pairs: list[PairView],
) -> tuple[SynopsisRow, ...]:
    lines = _Lines()
    position = _own_nodes(number, editions, lines)
    joined = _join_changes(pairs, lines, position)
    # Only once every pair is joined are the lines final.
    step_changes = _changes_by_line(joined, lines)
    groups = lines.groups(position)
    names = [e.name for e in editions]
    return tuple(_row(r, groups[r], names, step_changes) for r in _line_order(groups, names, position))


class _Lines:
    """The synopsis lines as they are joined: a union-find over the nodes."""

    def __init__(self) -> None:
        self.parent: dict[Node, Node] = {}

    def find(self, x: Node) -> Node:
        parent = self.parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: Node, b: Node) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # The older node roots the set, so that the result does not
            # depend on the order of the unions.
            # (A node is a tuple of strings: its part a string enum, compared as its value.)
            if ra > rb:
                ra, rb = rb, ra
            self.parent[rb] = ra

    def groups(self, position: dict[Node, tuple[int, int]]) -> dict[Node, list[Node]]:
        """Each line's root -> its nodes, by edition and document order."""
        groups: dict[Node, list[Node]] = {}
        for node in sorted(self.parent, key=lambda x: (x.edition, position.get(x, (0, 0)), x.address, x.part)):
            groups.setdefault(self.find(node), []).append(node)
        return groups


def _own_nodes(number: str, editions: tuple[Edition, ...], lines: _Lines) -> dict[Node, tuple[int, int]]:
    """Every title and every own text of the article in every edition, each a line
    of its own to start with, with its place in its edition."""
    position: dict[Node, tuple[int, int]] = {}
    for e in editions:
        art = e.find(number)
        if art is None:
            continue
        base = e.positions()
        name, parent = e.name, lines.parent
        for c in art.walk():
            # An article's title (a heading line of its own) first, then the clause's title and text as one.
            head = bool(c.title) and _part(c.address, True) is Part.HEAD
            if head:
                node = Node(name, c.address, Part.HEAD)
                parent.setdefault(node, node)  # a line of its own
                position[node] = (base[c.address], 0)
            if c.text or (c.title and not head):
                node = Node(name, c.address, Part.BODY)
                parent.setdefault(node, node)
                position[node] = (base[c.address], 1)
    return position


# A change joined into the lines: the name of its pair's new edition, the first node of a group it joins, and the
# change (a change of two groups, a text and its folded title, is here twice).
_Joined = tuple[str, Node, Change]


def _join_changes(pairs: list[PairView], lines: _Lines, position: dict[Node, tuple[int, int]]) -> list[_Joined]:
    """Join into one line the nodes each change of each pair joins; the groups joined, in order."""
    joined: list[_Joined] = []
    for pv in pairs:
        base_old, base_new = pv.old.positions(), pv.new.positions()
        for ch in pv.changes:
            for nodes in _change_nodes(ch, pv.old.name, pv.new.name):
                for node in nodes:
                    lines.find(node)
                    if node not in position:
                        # A clause of another article (a move): placed by
                        # its own edition's order.
                        where = base_old if node.edition == pv.old.name else base_new
                        position[node] = (where.get(node.address, 0), 0 if node.part is Part.HEAD else 1)
                for a, b in itertools.pairwise(nodes):
                    lines.union(a, b)
                if nodes:
                    joined.append((pv.new.name, nodes[0], ch))
    return joined


def _changes_by_line(joined: list[_Joined], lines: _Lines) -> dict[tuple[str, Node], list[Change]]:
    """(new edition, line's root) -> the changes of that step on that line (the nodes each change joined,
    :func:`_join_changes`, found in the lines once every pair is joined)."""
    step_changes: dict[tuple[str, Node], list[Change]] = {}
    for new, first, ch in joined:
        step_changes.setdefault((new, lines.find(first)), []).append(ch)
    return step_changes


def _line_order(groups: dict[Node, list[Node]], names: list[str], position: dict[Node, tuple[int, int]]) -> list[Node]:
    """Line order: the newest edition's order, then the lines that end
    earlier, each after the line it followed in its own edition."""
    # The order is a chain (each line -> the next and the one before; None stands before the first and after
    # the last), not a list searched and inserted into at every line: an article of thousands of clauses
    # made that quadratic.
    after: dict[Node | None, Node | None] = {None: None}
    before: dict[Node | None, Node | None] = {None: None}

    def insert_after(at: Node | None, r: Node) -> None:
        nxt = after[at]
        after[at], after[r], before[r], before[nxt] = r, nxt, at, r

    for name in reversed(names):
        present = sorted(
            (r for r, ns in groups.items() if any(x.edition == name for x in ns)),
            key=lambda r: min(position[x] for x in groups[r] if x.edition == name),
        )
        last: Node | None = None
        for r in present:
            if r in after:
                last = r
                continue
            if last is not None:
                insert_after(last, r)
            else:
                # Before the first of this edition's lines already in the order, or at its end if none is
                # (only for this edition's first line: every later one has a line before it).
                ours = set(present)
                first = after[None]
                while first is not None and first not in ours:
                    first = after[first]
                insert_after(before[first], r)
            last = r
    order: list[Node] = []
    at = after[None]
    while at is not None:
        order.append(at)
        at = after[at]
    return order


def _row(
    r: Node,
    nodes: list[Node],
    names: list[str],
    step_changes: dict[tuple[str, Node], list[Change]],
) -> SynopsisRow:
    """One line (root ``r``): its nodes per edition, and the words for each step."""
    # The line's nodes come in edition and document order (_Lines.groups): each edition's, in its order.
    by_edition: dict[str, list[Node]] = {}
    for x in nodes:
        by_edition.setdefault(x.edition, []).append(x)
    cells = tuple(tuple(by_edition.get(name, ())) for name in names)
    steps: list[tuple[str, ...]] = []
    for i, name in enumerate(names):
        if i == 0:
            steps.append(())
            continue
        chs = step_changes.get((name, r), [])
        if chs:
            words = _step_words(chs)
            steps.append(_STEPS.setdefault(words, words))
        elif cells[i] and not cells[i - 1]:
            steps.append(("added",))
        elif cells[i - 1] and not cells[i]:
            steps.append(("removed",))
        else:
            steps.append(())
    return SynopsisRow(cells, tuple(steps))


# The words of the steps made so far, each once: a few dozen, standing on a report's every line
# (``("unchanged",)``, ``("modified", "editorial only")``).
_STEPS: dict[tuple[str, ...], tuple[str, ...]] = {}


def _part(address: str, title: bool) -> Part:
    # An article's title is a heading line of its own (1963 prints the
    # article's opening text under it); a section's title and text are one.
    # (An address that is its own article's number is its digits alone, or nothing: article_of.)
    return Part.HEAD if title and (address.isdecimal() or not address) else Part.BODY


def _change_nodes(ch: Change, old: str, new: str) -> list[list[Node]]:
    """The nodes a change joins into lines: its texts, and an article's titles apart."""
    title = ch.aspect is Aspect.TITLE
    groups = [[Node(old, a, _part(a, title)) for a in ch.old] + [Node(new, a, _part(a, title)) for a in ch.new]]
    if not title and ch.old_title and ch.new_title:
        # A title folded into its text change: the headings correspond too.
        a, b = ch.old[0], ch.new[0]
        groups.append([Node(old, a, _part(a, True)), Node(new, b, _part(b, True))])
    return groups


def _step_words(changes: list[Change]) -> tuple[str, ...]:
    """``("split", "renumbered", "heading added")``: the change of one line between two editions, kind first;
    ``("not compared",)`` where the corpus of one of them does not hold the line's place."""
    if len(changes) == 1:
        # Most lines: one clause's text kept as it was.
        ch = changes[0]
        if (
            ch.counterpart_in_corpus
            and ch.kind is ChangeKind.UNCHANGED
            and ch.aspect is Aspect.TEXT
            and not (ch.renumbered or ch.moved or ch.title_changed)
            and not any(r.stale for r in ch.references)
        ):
            return _UNCHANGED
    compared = [ch for ch in changes if ch.counterpart_in_corpus]
    if not compared:
        return (NOT_COMPARED,)
    changes = compared
    parts: list[str] = []
    texts = [ch for ch in changes if ch.aspect is Aspect.TEXT]
    for kind in dict.fromkeys(ch.kind.value for ch in texts):
        parts.append(kind)
    if any(ch.renumbered for ch in changes):
        parts.append("renumbered")
    if any(ch.moved for ch in changes):
        parts.append("moved")
    modified = [ch for ch in texts if ch.kind is ChangeKind.MODIFIED]
    if modified and all(ch.editorial_only for ch in modified):
        parts.append("editorial only")
    if any(ch.stale_references for ch in changes):
        parts.append("stale reference")
    for ch in changes:
        if ch.aspect is Aspect.TITLE and ch.kind is not ChangeKind.UNCHANGED:
            word = {"modified": "changed"}.get(ch.kind.value, ch.kind.value)
            if ch.kind is ChangeKind.MODIFIED and ch.editorial_only:
                word = "changed (editorial)"
            parts.append(f"heading {word}")
        elif ch.aspect is Aspect.TEXT and ch.title_changed:
            parts.append("title changed")
    return tuple(dict.fromkeys(parts)) or ("unchanged",)
