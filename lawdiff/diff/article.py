"""One article across the editions that hold it: the facts its report page shows.

Computed from the study (:class:`~lawdiff.diff.study.Study`), once per run,
before any markup: which pairs of editions compare the article, the changes of
each pair in reading order, how much the article changed (its heat), the
synopsis that lines up its clauses across all editions, and every clause's
history.  Renderers read these and compute nothing.

Two rules, both because a corpus may hold only part of an edition (the seed
corpus holds article 45 of 1963, 2007 and 2017, but articles 53-56 of 1997
only):

* an article is compared in each pair of *consecutive editions that both hold
  it* (1963 -> 2007 for article 45 when 1997 lacks it), never with an edition
  whose corpus does not have it;
* the counts per pair of editions add up the articles that compare that pair,
  so that a partial corpus does not count a missing article as removed.
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from lawdiff.align import Aspect
from lawdiff.collector import collector_paused
from lawdiff.diff.history import history
from lawdiff.diff.records import Change, ChangeKind, History, Op, counts
from lawdiff.diff.study import Study
from lawdiff.errors import LawdiffBug
from lawdiff.model import Clause, Edition, Kind, article_of, natural_key


class Part(enum.Enum):
    """Which part of a clause a synopsis node shows."""

    HEAD = "head"  # an article's title, a heading line of its own
    BODY = "body"  # the title and text of any other clause, or an article's own text


# ---------------------------------------------------------------------------
# How much an article changed

_WORD = re.compile(r"\w+")

# Heat levels of the matrix: 0 identical, 1 only editorial changes or
# renumbering, then by the share of words inserted or deleted.
HEAT_SMALL = 0.10  # below: level 2
HEAT_LARGE = 0.30  # below: level 3, from here: level 4
HEAT_SYMBOLS = ("=", "~", "▪", "▪▪", "▪▪▪")
HEAT_NAMES = ("identical", "editorial only", "small change", "substantial change", "large change")


@dataclass(frozen=True, slots=True)
class Heat:
    """How much one article changed from one edition to the next.

    level: 0..4 (see :data:`HEAT_NAMES`).
    share: words inserted plus words deleted, over the words of both sides.
    changed: changes that are differences (anything but unchanged in place).
    total: all changes touching the article.
    counts: the change counts, as :meth:`Comparison.counts` gives them.
    editorial: per kind of change, how many of the changes counted under it
        are editorial only (see :func:`editorial_by_kind`).
    stale: references kept while their target moved (see :func:`stale_references`).
    """

    level: int
    share: float
    changed: int
    total: int
    counts: dict[str, int]
    editorial: dict[str, int]
    stale: int


def heat(changes: tuple[Change, ...]) -> Heat:
    ins = dels = same = 0
    for ch in changes:
        for p in ch.diff:
            n = len(_WORD.findall(p.text))
            if p.op is Op.INSERT:
                ins += n
            elif p.op is Op.DELETE:
                dels += n
            else:
                same += n
    total_words = 2 * same + ins + dels
    share = (ins + dels) / total_words if total_words else 0.0
    differences = [ch for ch in changes if ch.is_difference]
    if not differences:
        level = 0
    elif all(ch.editorial for ch in differences):
        level = 1
    elif share < HEAT_SMALL:
        level = 2
    elif share < HEAT_LARGE:
        level = 3
    else:
        level = 4
    return Heat(
        level,
        round(share, 4),
        len(differences),
        len(changes),
        counts(changes),
        editorial_by_kind(changes),
        sum(len(ch.stale_references) for ch in changes),
    )


def editorial_by_kind(changes: Iterable[Change]) -> dict[str, int]:
    """Per kind of change (``modified``, ``split``, ...), how many are editorial only.

    ``Comparison.counts()["editorial_only"]`` is not a kind of its own: an
    editorial change is counted under its kind (mostly ``modified``; a split
    that only moved a line break is a split).  The report shows it there.
    """
    out: dict[str, int] = {}
    for ch in changes:
        if ch.editorial_only and ch.counterpart_in_corpus:
            out[ch.kind.value] = out.get(ch.kind.value, 0) + 1
    return out


@dataclass(frozen=True, slots=True)
class PairView:
    """One article in one pair of editions: the rows of its side-by-side view.

    changes: the changes touching the article, in reading order: the new
        edition's document order, with removed clauses where they stood in the
        old edition.
    moved_targets: for each stale reference (``Change.stale_references``),
        where its old target went in the new edition.
    """

    old: Edition
    new: Edition
    changes: tuple[Change, ...]
    heat: Heat
    moved_targets: dict[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Node:
    """A clause in one edition as a unit of the synopsis: an article's heading, or a clause's title and text."""

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


@dataclass(frozen=True, slots=True)
class ArticleView:
    """One article across the editions that hold it: pairs, synopsis and clause histories.

    number: the article number (``45``).
    title: the title in the newest edition that holds it.
    editions: the editions that hold it, oldest first.
    pairs: consecutive editions among those, oldest pair first.
    synopsis: the lines of the synopsis.
    histories: per clause of every edition (document order, oldest edition
        first), the clause's history across the editions.
    """

    number: str
    title: str
    editions: tuple[Edition, ...]
    pairs: tuple[PairView, ...]
    synopsis: tuple[SynopsisRow, ...]
    histories: tuple[tuple[Edition, Clause, History], ...]


@dataclass(frozen=True, slots=True)
class PairTotal:
    """The counts of one pair of editions over the articles that compare it.

    editorial: per kind, how many of its changes are editorial only.
    stale: references kept while their target moved.
    """

    old: Edition
    new: Edition
    articles: tuple[str, ...]
    counts: dict[str, int]
    editorial: dict[str, int]
    stale: int


def article_numbers(editions: Iterable[Edition]) -> list[str]:
    """Every article number the editions hold, in number order."""
    numbers: dict[str, None] = {}
    for e in editions:
        for a in e.articles():
            numbers.setdefault(a.address, None)
    return sorted(numbers, key=natural_key)


def holders(editions: Iterable[Edition], number: str) -> tuple[Edition, ...]:
    """The editions whose corpus holds the article, in the order given."""
    out = []
    for e in editions:
        c = e.find(number)
        if c is not None and c.kind is Kind.ARTICLE:
            out.append(e)
    return tuple(out)


def article_view(study: Study, number: str) -> ArticleView:
    """The article across the study's editions that hold it."""
    hs = holders(study.editions, number)
    if not hs:
        raise LawdiffBug(f"article {number} was asked for, but no edition of the study holds it")
    pairs: list[PairView] = []
    for old, new in itertools.pairwise(hs):
        comp = study.compare(old, new)
        changes = _reading_order(old.positions(), study.touching(old, new, number))
        moved = {r.old: comp.alignment.successors(r.old) for ch in changes for r in ch.stale_references}
        pairs.append(PairView(old, new, changes, heat(changes), moved))
    rows = synopsis(number, hs, pairs)
    hist = tuple(
        (e, c, history(study, e, c.address)) for e in hs for c in _article(e, number).walk() if c.text or c.title
    )
    return ArticleView(number, _article(hs[-1], number).title, hs, tuple(pairs), rows, hist)


def pairs_of(editions: tuple[Edition, ...], numbers: Iterable[str]) -> list[tuple[Edition, Edition]]:
    """The pairs the views of these articles compare: consecutive holders of each, each pair once."""
    out: dict[tuple[str, str], tuple[Edition, Edition]] = {}
    for n in numbers:
        for old, new in itertools.pairwise(holders(editions, n)):
            out.setdefault((old.name, new.name), (old, new))
    return list(out.values())


def article_views(
    study: Study,
    numbers: Iterable[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> tuple[ArticleView, ...]:
    """The views of ``numbers`` (all articles of the study's editions when None); the comparisons
    they need are made first, ``workers`` at a time (:meth:`Study.prepare`)."""
    wanted = article_numbers(study.editions) if numbers is None else list(numbers)
    study.prepare(pairs_of(study.editions, wanted), workers)
    out: list[ArticleView] = []
    with collector_paused():
        for i, n in enumerate(wanted):
            out.append(article_view(study, n))
            if progress is not None:
                progress(i + 1, len(wanted))
    return tuple(out)


def pair_totals(study: Study, views: Iterable[ArticleView]) -> tuple[PairTotal, ...]:
    """The counts of each pair of editions over the articles that compare it, oldest pair first."""
    seen: dict[tuple[str, str], list[str]] = {}
    for v in views:
        for p in v.pairs:
            seen.setdefault((p.old.name, p.new.name), []).append(v.number)
    order = {e.name: i for i, e in enumerate(study.editions)}
    out: list[PairTotal] = []
    for (o, nw), numbers in sorted(seen.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]])):
        old_ed, new_ed = study.editions[order[o]], study.editions[order[nw]]
        changes = _touching(study, old_ed, new_ed, numbers)
        out.append(
            PairTotal(
                old_ed,
                new_ed,
                tuple(numbers),
                counts(changes),
                editorial_by_kind(changes),
                sum(len(ch.stale_references) for ch in changes),
            )
        )
    return tuple(out)


def _touching(study: Study, old: Edition, new: Edition, numbers: list[str]) -> tuple[Change, ...]:
    """The changes of a pair touching any of the articles, each once, in the comparison's order."""
    comp = study.compare(old, new)
    idx = study.index(old, new)
    hits = sorted({i for n in numbers for i in idx.by_article.get(n, ())})
    return tuple(comp.changes[i] for i in hits)


def _article(e: Edition, number: str) -> Clause:
    c = e.find(number)
    if c is None:
        raise LawdiffBug(f"{e.name} was planned to hold article {number} but does not")
    return c


def _reading_order(old_pos: dict[str, int], changes: tuple[Change, ...]) -> tuple[Change, ...]:
    """The changes in the new edition's order, removals where they stood in the old one."""
    placed = [ch for ch in changes if ch.new]
    removed = [ch for ch in changes if not ch.new]
    keys: list[tuple[int, int, int, int]] = [(i, 0, 0, i) for i in range(len(placed))]
    for j, ch in enumerate(removed):
        p = min((old_pos.get(a, 0) for a in ch.old), default=0)
        after = -1
        for i, other in enumerate(placed):
            if other.old and max(old_pos.get(a, 0) for a in other.old) < p:
                after = max(after, i)
        keys.append((after, 1, p, j))
    ordered = sorted(zip(keys, [*placed, *removed], strict=True), key=lambda kc: kc[0])
    return tuple(ch for _, ch in ordered)


# ---------------------------------------------------------------------------
# The synopsis: corresponding titles and texts across all editions


def synopsis(
    number: str,
    editions: tuple[Edition, ...],
    pairs: list[PairView],
) -> tuple[SynopsisRow, ...]:
    lines = _Lines()
    position = _own_nodes(number, editions, lines)
    _join_changes(pairs, lines, position)
    # Only once every pair is joined are the lines final.
    step_changes = _changes_by_line(pairs, lines)
    groups = lines.groups(position)
    names = [e.name for e in editions]
    return tuple(_row(r, groups[r], names, position, step_changes) for r in _line_order(groups, names, position))


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
            if (ra.edition, ra.address, ra.part.value) > (rb.edition, rb.address, rb.part.value):
                ra, rb = rb, ra
            self.parent[rb] = ra

    def groups(self, position: dict[Node, tuple[int, int]]) -> dict[Node, list[Node]]:
        """Each line's root -> its nodes, by edition and document order."""
        groups: dict[Node, list[Node]] = {}
        for node in sorted(self.parent, key=lambda x: (x.edition, position.get(x, (0, 0)), x.address, x.part.value)):
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
        for c in art.walk():
            parts = ([_part(c.address, True)] if c.title else []) + ([Part.BODY] if c.text else [])
            for part in sorted(set(parts), key=lambda x: x is not Part.HEAD):
                node = Node(e.name, c.address, part)
                lines.find(node)
                position[node] = (base[c.address], 0 if part is Part.HEAD else 1)
    return position


def _join_changes(pairs: list[PairView], lines: _Lines, position: dict[Node, tuple[int, int]]) -> None:
    """Join into one line the nodes each change of each pair joins."""
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


def _changes_by_line(pairs: list[PairView], lines: _Lines) -> dict[tuple[str, str], list[Change]]:
    """(new edition, line's key) -> the changes of that step on that line."""
    step_changes: dict[tuple[str, str], list[Change]] = {}
    for pv in pairs:
        for ch in pv.changes:
            for nodes in _change_nodes(ch, pv.old.name, pv.new.name):
                if nodes:
                    step_changes.setdefault((pv.new.name, _key(lines.find(nodes[0]))), []).append(ch)
    return step_changes


def _line_order(groups: dict[Node, list[Node]], names: list[str], position: dict[Node, tuple[int, int]]) -> list[Node]:
    """Line order: the newest edition's order, then the lines that end
    earlier, each after the line it followed in its own edition."""
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


def _row(
    r: Node,
    nodes: list[Node],
    names: list[str],
    position: dict[Node, tuple[int, int]],
    step_changes: dict[tuple[str, str], list[Change]],
) -> SynopsisRow:
    """One line (root ``r``): its nodes per edition, and the words for each step."""
    cells = tuple(tuple(sorted((x for x in nodes if x.edition == name), key=lambda x: position[x])) for name in names)
    steps: list[tuple[str, ...]] = []
    for i, name in enumerate(names):
        if i == 0:
            steps.append(())
            continue
        chs = step_changes.get((name, _key(r)), [])
        if chs:
            steps.append(_step_words(chs))
        elif cells[i] and not cells[i - 1]:
            steps.append(("added",))
        elif cells[i - 1] and not cells[i]:
            steps.append(("removed",))
        else:
            steps.append(())
    return SynopsisRow(cells, tuple(steps))


def _key(node: Node) -> str:
    return f"{node.edition}\x00{node.address}\x00{node.part.value}"


def _part(address: str, title: bool) -> Part:
    # An article's title is a heading line of its own (1963 prints the
    # article's opening text under it); a section's title and text are one.
    return Part.HEAD if title and address == article_of(address) else Part.BODY


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
    """``("split", "renumbered", "heading added")``: the change of one line between two editions, kind first."""
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
