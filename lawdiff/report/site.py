"""What the committee report shows, before any markup: articles, pairs, rows.

:func:`plan` decides, from a corpus and the editions asked for, which
articles get a page, which pairs of editions each page compares, in which
order the changes stand side by side, how the synopsis lines up the editions
of an article, and how much each article changed (the heat of the index's
matrix).  :mod:`lawdiff.report.html` turns the plan into pages.

Two rules shape the plan, both because a corpus may hold only part of an
edition (the seed corpus holds article 45 of 1963, 2007 and 2017, but
articles 53-56 of 1997 only):

* an article page compares each pair of *consecutive editions that both hold
  the article* (1963 -> 2007 for article 45 when 1997 lacks it), never an
  edition whose corpus does not have it;
* the counts per pair of editions on the index add up the article pages that
  compare that pair, so that a partial corpus does not count a missing page as
  a removed one.

The index lists every edition of the corpus, compared or not (each source
of a year held from two, ``2017@wiki`` beside ``2017@nuxt``; see
:func:`listing`), so that no source is left out silently.

Anchors (:func:`anchor`) are the report's citation contract.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from lawdiff.align import DEFAULT_THRESHOLDS, Thresholds
from lawdiff.corpus import Corpus
from lawdiff.diff import Change, ChangeKind, Comparer, Comparison, History, Op, RefChange, history
from lawdiff.errors import LawdiffBug, UsageError
from lawdiff.model import Clause, Edition, Kind, article_of, chronological, natural_key, parent_address

# ---------------------------------------------------------------------------
# Anchors

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def anchor(edition: str, address: str) -> str:
    """The stable HTML id of a clause: ``2017``, ``45C4(b)`` -> ``2017-45C4b``.

    The edition name, a hyphen, then the address with its parentheses
    dropped; ``~`` (a duplicate label) becomes ``_`` and any other character
    outside ``A-Z a-z 0-9 . _ -`` becomes ``_``.  Dropping the parentheses
    loses nothing: lower-case letters occur in article addresses only inside
    parentheses or after a dot (``.p1``, ``.fn1``), so ``45C4b``, ``45(p)1``
    -> ``45p1`` and ``45.p1`` stay apart.  Examples: ``2017-45C4b``,
    ``2007-45E.p1``, ``1963-45d``, ``2007-45A.fn1``, ``1963-48.fn1``.
    """
    return (
        f"{_UNSAFE.sub('_', edition)}-{_UNSAFE.sub('_', address.replace('(', '').replace(')', '').replace('~', '_'))}"
    )


def pair_id(old: str, new: str) -> str:
    """The id of a pair's side-by-side view on a page: ``diff-2007-2017``."""
    return f"diff-{_UNSAFE.sub('_', old)}-{_UNSAFE.sub('_', new)}"


def article_file(number: str) -> str:
    """The page of an article, relative to the report: ``articles/45.html``."""
    return f"articles/{_UNSAFE.sub('_', number)}.html"


def history_file(number: str) -> str:
    """The clause histories of an article: ``articles/45-history.html``."""
    return f"articles/{_UNSAFE.sub('_', number)}-history.html"


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


def heat(comp: Comparison, changes: tuple[Change, ...]) -> Heat:
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
    elif all(_editorial(ch) for ch in differences):
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
        replace(comp, changes=changes).counts(),
        editorial_by_kind(changes),
        sum(len(stale_references(ch)) for ch in changes),
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


def stale_references(ch: Change) -> tuple[RefChange, ...]:
    """References the change kept as written although their target moved.

    The clause's text may be unchanged, yet ``zie 16D`` now leads to another
    rule than it did: a reader must see it, so the report never files such a
    row among the unchanged ones.
    """
    return tuple(r for r in ch.references if r.status == "kept" and r.consistent is False)


def _editorial(ch: Change) -> bool:
    """A difference that leaves the rule as it was: editorial wording, or a new number only."""
    return ch.editorial_only or (ch.kind is ChangeKind.UNCHANGED and not ch.moved)


# ---------------------------------------------------------------------------
# The plan


@dataclass(frozen=True, slots=True)
class PairView:
    """One article in one pair of editions: the rows of its side-by-side view.

    changes: the changes touching the article, in reading order: the new
        edition's document order, with removed clauses where they stood in the
        old edition.
    moved_targets: for each stale reference (:func:`stale_references`), where
        its old target went in the new edition.
    """

    old: Edition
    new: Edition
    changes: tuple[Change, ...]
    heat: Heat
    moved_targets: dict[str, tuple[str, ...]]

    @property
    def id(self) -> str:
        return pair_id(self.old.name, self.new.name)


@dataclass(frozen=True, slots=True)
class Node:
    """A clause in one edition as a unit of the synopsis: an article's heading, or a clause's title and text."""

    edition: str
    address: str
    aspect: str  # "head" (an article's title) or "body" (the title and text of any other clause)


@dataclass(frozen=True, slots=True)
class SynopsisRow:
    """One line of the synopsis: what corresponds across the editions.

    cells: per edition of the article (oldest first), its nodes in the line.
    steps: per edition, the kind of change from the previous edition's cell
        ("" for the first edition, or where both cells are empty).
    """

    cells: tuple[tuple[Node, ...], ...]
    steps: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ArticlePlan:
    """An article's page: its editions, pairs, synopsis and clause histories.

    number: the article number (``45``).
    title: the title in the newest edition that holds it.
    editions: the editions that hold it, oldest first.
    pairs: consecutive editions among those, oldest pair first.
    synopsis: the lines of the synopsis.
    histories: per clause of every edition (document order, oldest edition
        first), the clause's history across the editions.
    anchors: every canonical anchor on the page (``2017-45C4b``).
    """

    number: str
    title: str
    editions: tuple[Edition, ...]
    pairs: tuple[PairView, ...]
    synopsis: tuple[SynopsisRow, ...]
    histories: tuple[tuple[Edition, Clause, History], ...]
    anchors: frozenset[str]


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


@dataclass(frozen=True, slots=True)
class Listed:
    """An edition of the corpus as the index lists it, compared or not.

    edition: the edition as read (one entry of :meth:`Corpus.listing`: each
        source of a year on its own, ``2017@wiki`` and ``2017@nuxt``).
    compared_as: its name in this report's comparisons (``2017`` for
        ``2017@nuxt`` when the bare year means that source), or "" when the
        report does not compare it.
    means: the bare year that stands for this source (``2017``), or "".
    """

    edition: Edition
    compared_as: str
    means: str


@dataclass(frozen=True, slots=True)
class Site:
    """The whole report.

    editions: every edition of the corpus, as the index lists it: the ones
        compared and the ones that are not (another source of a year, an
        edition not named), so that no source is left out silently.
    compared: the editions compared, oldest first: the columns of the matrix.
    """

    corpus: Corpus
    editions: tuple[Listed, ...]
    compared: tuple[Edition, ...]
    thresholds: Thresholds
    articles: tuple[ArticlePlan, ...]
    totals: tuple[PairTotal, ...]

    def article(self, number: str) -> ArticlePlan | None:
        return next((a for a in self.articles if a.number == number), None)

    def href(self, edition: str, address: str, page: str) -> str | None:
        """A link from ``page`` to a clause's canonical anchor, or None when the report has no page for it.

        A clause without an anchor of its own (a bare label such as 45C4)
        leads to its nearest ancestor that has one, then to its article.
        """
        number = article_of(address)
        plan = self.article(number) if number else None
        if plan is None or not any(e.name == edition for e in plan.editions):
            return None
        target = article_file(number)
        prefix = "" if target == page else _relative(page, target)
        addr = address
        while addr:
            a = anchor(edition, addr)
            if a in plan.anchors:
                return f"{prefix}#{a}"
            addr = parent_address(addr)
        return prefix or "#top"


def _relative(page: str, target: str) -> str:
    # Every page sits at the root or in articles/: one level at most.
    if "/" in page and target.startswith("articles/"):
        return target.split("/", 1)[1]
    if "/" in page:
        return "../" + target
    return target


def touches(ch: Change, articles: frozenset[str] | set[str]) -> bool:
    """Whether a change concerns one of ``articles`` (on either side)."""
    return ch.article in articles or any(article_of(a) in articles for a in ch.old + ch.new)


class _Index:
    """The comparisons of one run, and their changes by the articles they touch."""

    def __init__(self, comparer: Comparer) -> None:
        self.comparer = comparer
        self._by_article: dict[tuple[str, str], dict[str, list[Change]]] = {}
        self._positions: dict[str, dict[str, int]] = {}

    def changes(self, old: Edition, new: Edition, article: str) -> list[Change]:
        """The changes from ``old`` to ``new`` touching ``article``, in the comparison's order."""
        key = (old.name, new.name)
        if key not in self._by_article:
            index: dict[str, list[Change]] = {}
            for ch in self.comparer.compare(old, new).changes:
                for art in dict.fromkeys([ch.article, *(article_of(a) for a in ch.old + ch.new)]):
                    if art:
                        index.setdefault(art, []).append(ch)
            self._by_article[key] = index
        return self._by_article[key].get(article, [])

    def positions(self, e: Edition) -> dict[str, int]:
        """Document order of an edition's clauses (walked once per run)."""
        if e.name not in self._positions:
            self._positions[e.name] = {c.address: i for i, c in enumerate(e.walk())}
        return self._positions[e.name]


class _ScopedComparer(Comparer):
    """A Comparer that hands out only the changes touching some articles.

    :func:`lawdiff.diff.history` scans every change of a comparison at each
    step; scoping the comparisons to the article (and the articles its
    clauses moved to or from) keeps a report of full-size editions fast
    without changing what a history finds.
    """

    def __init__(self, index: _Index, articles: frozenset[str]) -> None:
        super().__init__(index.comparer.editions, index.comparer.thresholds)
        self._index = index
        self._articles = sorted(articles, key=natural_key)
        self._scoped: dict[tuple[str, str], Comparison] = {}

    def compare(self, old: Edition, new: Edition) -> Comparison:
        key = (old.name, new.name)
        if key not in self._scoped:
            comp = self._index.comparer.compare(old, new)
            if len(self._articles) == 1:
                changes = tuple(self._index.changes(old, new, self._articles[0]))
            else:
                wanted = {id(ch) for a in self._articles for ch in self._index.changes(old, new, a)}
                changes = tuple(ch for ch in comp.changes if id(ch) in wanted)
            self._scoped[key] = replace(comp, changes=changes)
        return self._scoped[key]


def select(corpus: Corpus, names: Iterable[str]) -> tuple[Edition, ...]:
    """The editions asked for (all when none), in the corpus's timeline.

    Two names of one source (``2017`` and ``2017@nuxt`` when the bare year
    means the site's) are one edition: the first named.
    """
    wanted = list(dict.fromkeys(names))
    aliases = corpus.aliases()
    eds: list[Edition] = []
    seen: set[str] = set()
    for e in (corpus.edition(n) for n in wanted) if wanted else corpus.editions:
        source = aliases.get(e.name, e.name)
        if source not in seen:
            seen.add(source)
            eds.append(e)
    if not eds:
        raise UsageError("the corpus holds no edition", fix="give a corpus folder with dumps")
    # Oldest first, as `lawdiff history` orders them (lawdiff.model.chronological:
    # an amended version after the edition it amends, two sources of one year
    # by printing, older first), so that a page's pairs and its clause
    # histories run the same way.
    return tuple(sorted(eds, key=chronological))


def listing(corpus: Corpus, compared: tuple[Edition, ...]) -> tuple[Listed, ...]:
    """Every edition of the corpus (:meth:`Corpus.listing`), and what the report does with each."""
    means = {source: year for year, source in corpus.aliases().items()}
    names = {e.name for e in compared}
    out: list[Listed] = []
    for e in corpus.listing():
        year = means.get(e.name, "")
        as_ = e.name if e.name in names else year if year in names else ""
        out.append(Listed(e, as_, year))
    listed = {x.edition.name for x in out} | set(means.values())
    # An edition compared but not listed cannot come from this corpus's
    # listing; it is listed all the same rather than left out.
    out.extend(Listed(e, e.name, "") for e in compared if e.name not in listed)
    return tuple(out)


def article_numbers(editions: tuple[Edition, ...]) -> list[str]:
    numbers: dict[str, None] = {}
    for e in editions:
        for a in e.articles():
            numbers.setdefault(a.address, None)
    return sorted(numbers, key=natural_key)


def plan(
    corpus: Corpus,
    names: Iterable[str] = (),
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    progress: Callable[[int, int], None] | None = None,
) -> Site:
    """Plan the report of ``names`` (all editions when empty).

    ``progress(done, total)`` is called once per article planned.
    """
    editions = select(corpus, names)
    comparer = Comparer(editions, thresholds)
    numbers = article_numbers(editions)
    index = _Index(comparer)

    # Pairs per article, and the articles each one is linked to by moves.
    holders: dict[str, tuple[Edition, ...]] = {}
    for n in numbers:
        holders[n] = tuple(e for e in editions if _holds(e, n))
    links: dict[str, set[str]] = {n: {n} for n in numbers}
    for n in numbers:
        hs = holders[n]
        for old, new in itertools.pairwise(hs):
            for ch in index.changes(old, new, n):
                if ch.moved:
                    for a in ch.old + ch.new:
                        art = article_of(a)
                        if art:
                            links[n].add(art)
    articles: list[ArticlePlan] = []
    for i, n in enumerate(numbers):
        hs = holders[n]
        pairs: list[PairView] = []
        for old, new in itertools.pairwise(hs):
            comp = comparer.compare(old, new)
            changes = _reading_order(index.positions(old), tuple(index.changes(old, new, n)))
            moved = {r.old: comp.alignment.successors(r.old) for ch in changes for r in stale_references(ch)}
            pairs.append(PairView(old, new, changes, heat(comp, changes), moved))
        rows = _synopsis(n, hs, pairs, index.positions)
        anchors = frozenset(
            anchor(node.edition, node.address)
            for row in rows
            for cell in row.cells
            for node in cell
            if article_of(node.address) == n
        )
        scoped = _ScopedComparer(index, frozenset(_closure(n, links)))
        hist = tuple(
            (e, c, history(scoped, e, c.address)) for e in hs for c in _article(e, n).walk() if c.text or c.title
        )
        title = _article(hs[-1], n).title
        articles.append(ArticlePlan(n, title, hs, tuple(pairs), rows, hist, anchors))
        if progress is not None:
            progress(i + 1, len(numbers))
    totals: list[PairTotal] = []
    seen_pairs: dict[tuple[str, str], list[ArticlePlan]] = {}
    for plan_ in articles:
        for p in plan_.pairs:
            seen_pairs.setdefault((p.old.name, p.new.name), []).append(plan_)
    order = {e.name: i for i, e in enumerate(editions)}
    for (o, nw), arts in sorted(seen_pairs.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]])):
        old_ed, new_ed = editions[order[o]], editions[order[nw]]
        nums = frozenset(a.number for a in arts)
        comp = comparer.compare(old_ed, new_ed)
        changes = tuple(ch for ch in comp.changes if touches(ch, nums))
        totals.append(
            PairTotal(
                old_ed,
                new_ed,
                tuple(a.number for a in arts),
                replace(comp, changes=changes).counts(),
                editorial_by_kind(changes),
                sum(len(stale_references(ch)) for ch in changes),
            )
        )
    return Site(corpus, listing(corpus, editions), editions, comparer.thresholds, tuple(articles), tuple(totals))


def _article(e: Edition, number: str) -> Clause:
    c = e.find(number)
    if c is None:
        raise LawdiffBug(f"{e.name} was planned to hold article {number} but does not")
    return c


def _holds(e: Edition, number: str) -> bool:
    c = e.find(number)
    return c is not None and c.kind is Kind.ARTICLE


def _closure(start: str, links: dict[str, set[str]]) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt in sorted(links.get(todo.pop(), set())):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


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


def _synopsis(
    number: str,
    editions: tuple[Edition, ...],
    pairs: list[PairView],
    positions: Callable[[Edition], dict[str, int]],
) -> tuple[SynopsisRow, ...]:
    parent: dict[Node, Node] = {}

    def find(x: Node) -> Node:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: Node, b: Node) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            # The older node roots the set, so that the result does not
            # depend on the order of the unions.
            if (ra.edition, ra.address, ra.aspect) > (rb.edition, rb.address, rb.aspect):
                ra, rb = rb, ra
            parent[rb] = ra

    # Every title and every own text of the article in every edition.
    position: dict[Node, tuple[int, int]] = {}
    for e in editions:
        art = e.find(number)
        if art is None:
            continue
        base = positions(e)
        for c in art.walk():
            aspects = {_aspect(c.address, True) if c.title else "", "body" if c.text else ""} - {""}
            for aspect in sorted(aspects, key=lambda x: x != "head"):
                node = Node(e.name, c.address, aspect)
                find(node)
                position[node] = (base[c.address], 0 if aspect == "head" else 1)
    step_changes: dict[tuple[str, str], list[Change]] = {}
    for pv in pairs:
        base_old, base_new = positions(pv.old), positions(pv.new)
        for ch in pv.changes:
            for nodes in _change_nodes(ch, pv.old.name, pv.new.name):
                for node in nodes:
                    find(node)
                    if node not in position:
                        # A clause of another article (a move): placed by
                        # its own edition's order.
                        where = base_old if node.edition == pv.old.name else base_new
                        position[node] = (where.get(node.address, 0), 0 if node.aspect == "head" else 1)
                for a, b in itertools.pairwise(nodes):
                    union(a, b)
    # Only once every pair is joined are the lines final.
    for pv in pairs:
        for ch in pv.changes:
            for nodes in _change_nodes(ch, pv.old.name, pv.new.name):
                if nodes:
                    step_changes.setdefault((pv.new.name, _key(find(nodes[0]))), []).append(ch)
    groups: dict[Node, list[Node]] = {}
    for node in sorted(parent, key=lambda x: (x.edition, position.get(x, (0, 0)), x.address, x.aspect)):
        groups.setdefault(find(node), []).append(node)
    names = [e.name for e in editions]
    # Line order: the newest edition's order, then the lines that end
    # earlier, each after the line it followed in its own edition.
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
    rows: list[SynopsisRow] = []
    for r in order:
        nodes = groups[r]
        cells = tuple(
            tuple(sorted((x for x in nodes if x.edition == name), key=lambda x: position[x])) for name in names
        )
        steps: list[str] = []
        for i, name in enumerate(names):
            if i == 0:
                steps.append("")
                continue
            chs = step_changes.get((name, _key(r)), [])
            if chs:
                steps.append(_step_label(chs))
            elif cells[i] and not cells[i - 1]:
                steps.append("added")
            elif cells[i - 1] and not cells[i]:
                steps.append("removed")
            else:
                steps.append("")
        rows.append(SynopsisRow(cells, tuple(steps)))
    return tuple(rows)


def _key(node: Node) -> str:
    return f"{node.edition}\x00{node.address}\x00{node.aspect}"


def _aspect(address: str, title: bool) -> str:
    # An article's title is a heading line of its own (1963 prints the
    # article's opening text under it); a section's title and text are one.
    return "head" if title and address == article_of(address) else "body"


def _change_nodes(ch: Change, old: str, new: str) -> list[list[Node]]:
    """The nodes a change joins into lines: its texts, and an article's titles apart."""
    title = ch.aspect == "title"
    groups = [[Node(old, a, _aspect(a, title)) for a in ch.old] + [Node(new, a, _aspect(a, title)) for a in ch.new]]
    if not title and ch.old_title and ch.new_title:
        # A title folded into its text change: the headings correspond too.
        a, b = ch.old[0], ch.new[0]
        groups.append([Node(old, a, _aspect(a, True)), Node(new, b, _aspect(b, True))])
    return groups


def _step_label(changes: list[Change]) -> str:
    """``split, renumbered, heading added``: the kinds of change of one line between two editions."""
    parts: list[str] = []
    texts = [ch for ch in changes if ch.aspect == "text"]
    for kind in dict.fromkeys(ch.kind.value for ch in texts):
        parts.append(kind)
    if any(ch.renumbered for ch in changes):
        parts.append("renumbered")
    if any(ch.moved for ch in changes):
        parts.append("moved")
    modified = [ch for ch in texts if ch.kind is ChangeKind.MODIFIED]
    if modified and all(ch.editorial_only for ch in modified):
        parts.append("editorial only")
    if any(stale_references(ch) for ch in changes):
        parts.append("stale reference")
    for ch in changes:
        if ch.aspect == "title" and ch.kind is not ChangeKind.UNCHANGED:
            word = {"modified": "changed"}.get(ch.kind.value, ch.kind.value)
            if ch.kind is ChangeKind.MODIFIED and ch.editorial_only:
                word = "changed (editorial)"
            parts.append(f"heading {word}")
        elif ch.aspect == "text" and ch.title_changed:
            parts.append("title changed")
    return ", ".join(dict.fromkeys(parts)) or "unchanged"
