"""Comparing two editions: an alignment turned into change records."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from lawdiff.align import DEFAULT_THRESHOLDS, Alignment, Aspect, Corrections, Link, Thresholds, align
from lawdiff.align.space import walked
from lawdiff.diff.comparison import Changes, Comparison, Kept
from lawdiff.diff.editorial import canonical, editorial_only
from lawdiff.diff.ranking import patterns, rank
from lawdiff.diff.refchanges import Successors, reference_changes
from lawdiff.diff.scope import linked_across_parts
from lawdiff.diff.significance import reference_signals, significance
from lawdiff.diff.vocabulary import Change, ChangeKind, Op, Pattern, Piece, RefChange, Scope, change_id
from lawdiff.model import CONTAINER_KINDS, Clause, Edition, Kind, article_of

# ---------------------------------------------------------------------------
# Comparing editions


# The word difference of two texts: :func:`~lawdiff.diff.words.word_diff`, or the same read from a memo.
WordDiff = Callable[[str, str], tuple[Piece, ...]]


def word_diff(old: str, new: str) -> tuple[Piece, ...]:
    """:func:`lawdiff.diff.words.word_diff`, its module (and diff-match-patch and rapidfuzz with it) loaded
    when the first difference is made: two editions that kept every text need none."""
    from lawdiff.diff.words import word_diff as made

    return made(old, new)


# Fewer links than this are described in the one process: a forked process and its changes sent back
# cost about a hundredth of a second, what describing a thousand links (a fifth of them changed) saves.
FORK_MIN_LINKS = 1000


def compare(
    old: Edition,
    new: Edition,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    corrections: Corrections | None = None,
    diff: WordDiff = word_diff,
    processes: int = 1,
) -> Comparison:
    """Every change from ``old`` to ``new`` (``corrections``: the committee's pins and forbidden pairs;
    ``processes``: see :func:`describe`)."""
    # Where a corpus holds an article in part, its scope must not keep a clause from its counterpart.
    alignment = linked_across_parts(old, new, align(old, new, thresholds, corrections), corrections)
    return describe(old, new, alignment, diff, processes)


def describe(
    old: Edition, new: Edition, alignment: Alignment, diff: WordDiff = word_diff, processes: int = 1
) -> Comparison:
    """Turn an alignment into change records (``diff``: how the word differences are made).

    ``processes``: with more than one, and links enough to be worth it, the changes are made by this
    process and forked ones (:func:`~lawdiff.forked.map_beside`), the same records in the same order.
    """
    # (The edition walked as a list, not through a generator per level: Edition.articles walks it so.)
    old_articles = {c.address for c in walked(old) if c.kind is Kind.ARTICLE} | set(alignment.old_articles)
    new_articles = {c.address for c in walked(new) if c.kind is Kind.ARTICLE} | set(alignment.new_articles)
    text_links = [link for link in alignment.links if link.aspect is Aspect.TEXT]
    title_links = [link for link in alignment.links if link.aspect is Aspect.TITLE]
    folded: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    pair_titles = {(link.old, link.new) for link in title_links if link.old and link.new}
    todo: list[tuple[Link, bool]] = []
    for link in text_links:
        fold = len(link.old) == 1 and len(link.new) == 1 and (link.old, link.new) in pair_titles
        if fold:
            folded.add((link.old, link.new))
        todo.append((link, fold))
    unmatched_text = {a for link in text_links if not (link.old and link.new) for a in link.old + link.new}
    for link in title_links:
        if (link.old, link.new) in folded:
            continue
        # A titled clause added or removed together with its own text is
        # already told by its text change.
        if not (link.old and link.new) and (link.old or link.new)[0] in unmatched_text:
            continue
        todo.append((link, True))

    describer = _Describer(old, new, alignment, old_articles, new_articles, diff)

    def one(item: tuple[Link, bool]) -> Change | Kept:
        made = describer.change(*item)
        return made if isinstance(made, tuple) else _signalled(made, old, new)

    if len(todo) < FORK_MIN_LINKS or processes <= 1:
        changes = [one(item) for item in todo]  # (without loading the pools, nor multiprocessing)
    else:
        from lawdiff.forked import map_beside

        # The links dealt in turn (a share of each article's unchanged and changed clauses to each process).
        changes = map_beside(one, todo, [1] * len(todo), processes)
    order_old, order_new = old.positions(), new.positions()
    changes.sort(key=lambda ch: _order_key(ch[0] if isinstance(ch, tuple) else ch, order_old, order_new))
    # The drafting patterns of the pair, then each change's score (which weighs a pattern once); a clause that
    # kept its text has neither flag nor score.
    found = patterns([ch for ch in changes if not isinstance(ch, tuple)])
    scored = [ch if isinstance(ch, tuple) else _scored(ch, found) for ch in changes]
    return Comparison(old.name, new.name, alignment.thresholds, Changes(old.name, new.name, scored), alignment, found)


def _scored(ch: Change, found: tuple[Pattern, ...]) -> Change:
    score = rank(ch, found)
    return replace(ch, significance=score) if score else ch


def _signalled(ch: Change, old: Edition, new: Edition) -> Change:
    """The change with what kinds of words its difference touched (the committee's hints).

    A clause added or removed whole has no difference to weigh: every one of
    its words would raise its flag, and each such clause would count as
    normative.  Its kind says it, and its references are listed.  Texts that
    did not change have no word to flag: only their references are read
    (a clause that moved may cite other addresses with the same words).
    """
    if ch.old and ch.new and (ch.kind is not ChangeKind.UNCHANGED or ch.title_changed):
        signals = reference_signals(ch) if ch.old_texts == ch.new_texts else significance(ch, old, new)
        if signals:
            return replace(ch, signals=signals)
    return ch


def _order_key(ch: Change | Link, order_old: dict[str, int], order_new: dict[str, int]) -> tuple[int, int, int]:
    # Document order of the new edition; removals sit where their old
    # neighbours went (approximated by their old position).
    if ch.new:
        return (0, order_new.get(ch.new[0], 0), order_old.get(ch.old[0], -1) if ch.old else -1)
    return (1, order_old.get(ch.old[0], 0), 0)


def _comparable(
    clauses: list[Clause], articles: set[str], other: Edition, other_articles: set[str], heading: bool
) -> bool:
    """Whether the other edition's corpus could hold what these clauses are (``heading``: their headings),
    so that their absence there is news.

    An article's clause: when the other corpus holds the article, and the part of it where the clause
    lies (:meth:`Edition.holds`: a corpus of some of an article's section pages holds those sections,
    and a 2017 section page no section heading).  A chapter,
    part or paragraph heading: when the other corpus holds one of its
    articles under a heading of the same kind (a corpus of article pages
    alone says nothing of chapters).  A front page (preface, definitions):
    when the other corpus holds front pages at all.
    """
    inside = articles - {""}
    if inside:
        return bool(inside & other_articles) and any(other.holds(c.address, heading) for c in clauses)
    for c in clauses:
        if c.kind in CONTAINER_KINDS:
            under = {a.address for a in c.walk() if a.kind is Kind.ARTICLE}
            layers = _layers(other)
            if not any(c.kind in layers.get(a, ()) for a in under):
                return False
        elif c.kind is Kind.PAGE and not any(top.kind is Kind.PAGE for top in _pages(other)):
            return False
    return True


def _layers(edition: Edition) -> dict[str, set[Kind]]:
    """For each article, the kinds of heading above it (chapter, part, paragraph)."""
    out: dict[str, set[Kind]] = {}

    def visit(c: Clause, above: frozenset[Kind]) -> None:
        if c.kind is Kind.ARTICLE:
            out.setdefault(c.address, set()).update(above)
            return
        here = above | {c.kind} if c.kind in CONTAINER_KINDS else above
        for child in c.children:
            visit(child, here)

    for top in edition.clauses:
        visit(top, frozenset())
    return out


def _pages(edition: Edition) -> list[Clause]:
    """The front pages and other pages of an edition, wherever they sit."""
    out: list[Clause] = []

    def visit(c: Clause) -> None:
        if c.kind is Kind.PAGE:
            out.append(c)
        elif c.kind in CONTAINER_KINDS:
            for child in c.children:
                visit(child)

    for top in edition.clauses:
        visit(top)
    return out


# Texts up to this many characters on both sides together get rapidfuzz's ratio (quadratic, in C);
# longer ones the share of characters their word difference keeps, which costs nothing more.
RATIO_CHARS = 200_000


def _ratio(a: str, b: str, pieces: tuple[Piece, ...]) -> float:
    """Text similarity 0..1 (rapidfuzz's ratio, in C; imported on first use)."""
    if len(a) + len(b) > RATIO_CHARS:
        kept = sum(len(p.text) for p in pieces if p.op is Op.EQUAL)
        return round(2 * kept / (len(a) + len(b)), 4)
    from rapidfuzz import fuzz

    return round(fuzz.ratio(a, b) / 100, 4)


def _difference(old_text: str, new_text: str, diff: WordDiff) -> tuple[tuple[Piece, ...], float]:
    """The word difference of a change and the texts' similarity.

    Only a pair of different texts is compared: a text that did not change is its one piece (similarity
    1), and a text added or removed whole is inserted or deleted whole (similarity 0), as the word
    difference would have them, without making it."""
    if old_text == new_text:
        return ((Piece(Op.EQUAL, old_text),) if old_text else ()), 1.0
    if not old_text:
        return (Piece(Op.INSERT, new_text),), 0.0
    if not new_text:
        return (Piece(Op.DELETE, old_text),), 0.0
    pieces = diff(old_text, new_text)
    return pieces, _ratio(old_text, new_text, pieces)


class _Describer:
    """What the change records of one pair's links are made from, and what they look up again and again
    (the article of an address, where a reference's target went)."""

    def __init__(
        self,
        old: Edition,
        new: Edition,
        alignment: Alignment,
        old_articles: set[str],
        new_articles: set[str],
        diff: WordDiff,
    ) -> None:
        self.old = old
        self.new = new
        self.alignment = alignment
        self.old_articles = old_articles
        self.new_articles = new_articles
        self.diff = diff
        self.successors = Successors(old, new, alignment)
        self.certain = alignment.thresholds.certain
        self._articles: dict[str, str] = {}
        # Each side's clauses by address, read once per one-to-one link (Edition.find for one not found there).
        self._old_at = old.by_address()
        self._new_at = new.by_address()

    def article(self, address: str) -> str:
        """:func:`~lawdiff.model.article_of`, once per address (both sides of a pair share most of them)."""
        found = self._articles.get(address)
        if found is None:
            found = self._articles[address] = article_of(address)
        return found

    def change(self, link: Link, with_title: bool) -> Change | Kept:
        """The change record of one link: its kind, its word difference, and what became of its references;
        of a clause linked to one that kept its text, what its record is made of (:data:`Kept`, made into
        the same record as :meth:`_described` would make by :func:`~lawdiff.diff.comparison.kept_change`)."""
        if len(link.old) == 1 and len(link.new) == 1:
            was, now = link.old[0], link.new[0]
            a = self._old_at.get(was) or self.old.find(was)
            b = self._new_at.get(now) or self.new.find(now)
            if a is not None and b is not None:
                if link.aspect is Aspect.TEXT:
                    if a.text == b.text and (not with_title or a.title == b.title):
                        return self._kept(link, a, b, with_title)
                elif a.title == b.title:
                    return self._kept(link, a, b, with_title)
        return self._described(link, with_title)

    def _described(self, link: Link, with_title: bool) -> Change:
        """:meth:`change` of any link (what :meth:`_kept` gives for a clause that kept its text, and more)."""
        old, new = self.old, self.new
        olds = _clauses(old, link.old)
        news = _clauses(new, link.new)
        title_aspect = link.aspect is Aspect.TITLE
        old_texts, new_texts, old_title, new_title = _compared(title_aspect, olds, news, with_title)
        old_text = old_texts[0] if len(old_texts) == 1 else "\n".join(old_texts)
        new_text = new_texts[0] if len(new_texts) == 1 else "\n".join(new_texts)
        title_changed = with_title and bool(olds) and bool(news) and old_title != new_title
        kind = _kind(link, old_text == new_text and not title_changed)
        both = bool(link.old) and bool(link.new)
        renumbered = both and set(link.old) != set(link.new)
        old_arts = {self.article(a) for a in link.old}
        new_arts = {self.article(a) for a in link.new}
        moved = both and old_arts != new_arts
        pieces, similarity = _difference(old_text, new_text, self.diff)
        editorial = both and _editorial(old_text, new_text, old_title, new_title, title_changed, pieces)
        addresses = link.new or link.old
        article = self.article(addresses[0]) or addresses[0]
        counterpart = both or _counterpart(
            link, olds, news, old_arts, new_arts, old, new, self.old_articles, self.new_articles
        )
        scope = Scope.COMPARED if counterpart else _outside(link, self.old_articles, self.new_articles)
        return Change(
            kind=kind,
            aspect=link.aspect,
            old=link.old,
            new=link.new,
            article=article,
            renumbered=renumbered,
            moved=moved,
            title_changed=title_changed,
            old_title=old_title,
            new_title=new_title,
            similarity=similarity,
            editorial_only=editorial,
            diff=pieces,
            references=() if title_aspect else reference_changes(olds, news, self.successors),
            score=link.score,
            uncertain=both and link.certainty < self.certain,
            certainty=link.certainty,
            methods=link.methods,
            reasons=link.reasons,
            old_texts=old_texts,
            new_texts=new_texts,
            counterpart_in_corpus=counterpart,
            scope=scope,
            pinned_by=link.pinned_by,
            id=change_id(old.name, new.name, link.aspect, link.old, link.new, old_texts, new_texts),
            title_diff=self.diff(old_title, new_title) if title_changed and not title_aspect else (),
        )

    def _kept(self, link: Link, a: Clause, b: Clause, with_title: bool = False) -> Kept:
        """:meth:`change` of one clause linked to one clause whose text it kept (``with_title``: and its
        title, folded into the change), or of a heading linked to one whose title it kept: most changes of a
        pair, held as what their record is made of, the record made when read (a clause that moved or was
        renumbered with its words is such a change too).  A heading's change compares its titles as texts
        and has no references."""
        was, now = link.old[0], link.new[0]
        new_article = self.article(now)
        old_article = new_article if was == now else self.article(was)  # (most kept clauses kept their address)
        references: tuple[RefChange, ...] = ()
        if link.aspect is Aspect.TITLE:
            text = title = a.title
        else:
            text, title = a.text, a.title if with_title else ""
            if a.references or b.references:
                references = reference_changes([a], [b], self.successors)
        return (
            link,
            text,
            title,
            new_article or now,
            old_article != new_article,
            references,
            link.certainty < self.certain,
        )


def _clauses(edition: Edition, addresses: tuple[str, ...]) -> list[Clause]:
    """The clauses at ``addresses`` that the edition holds, in their order."""
    if len(addresses) == 1:
        found = edition.find(addresses[0])
        return [found] if found is not None else []
    return [c for c in (edition.find(a) for a in addresses) if c is not None]


def _compared(
    title_aspect: bool, olds: list[Clause], news: list[Clause], with_title: bool
) -> tuple[tuple[str, ...], tuple[str, ...], str, str]:
    """What a change compares: each side's texts (their titles, for a heading's
    link), and the titles folded into a one-to-one text change (``with_title``)."""
    if title_aspect:
        old_texts = tuple([c.title for c in olds])
        new_texts = tuple([c.title for c in news])
    else:
        old_texts = tuple([c.text for c in olds])
        new_texts = tuple([c.text for c in news])
    old_title = olds[0].title if with_title and len(olds) == 1 else ""
    new_title = news[0].title if with_title and len(news) == 1 else ""
    return old_texts, new_texts, old_title, new_title


def _counterpart(
    link: Link,
    olds: list[Clause],
    news: list[Clause],
    old_arts: set[str],
    new_arts: set[str],
    old: Edition,
    new: Edition,
    old_articles: set[str],
    new_articles: set[str],
) -> bool:
    """Whether a clause added or removed could be in the other edition's corpus
    (:func:`_comparable`), so that its absence there is news; a pair always is."""
    heading = link.aspect is Aspect.TITLE
    if link.old and not link.new:
        return _comparable(olds, old_arts, new, new_articles, heading)
    if link.new and not link.old:
        return _comparable(news, new_arts, old, old_articles, heading)
    return True


def _outside(link: Link, old_articles: set[str], new_articles: set[str]) -> Scope:
    """Why a clause added or removed is not compared: the other corpus holds its article by other sections'
    pages only (``HELD_IN_PART``), or not at all (``NOT_HELD``: also a heading outside the articles)."""
    other = new_articles if link.old and not link.new else old_articles
    if any((art := article_of(a)) and art in other for a in link.old + link.new):
        return Scope.HELD_IN_PART
    return Scope.NOT_HELD


def _kind(link: Link, same: bool) -> ChangeKind:
    """The kind of a change, from the shape of its link (``same``: the one-to-one
    pair keeps its text and its title)."""
    if not link.old:
        return ChangeKind.ADDED
    if not link.new:
        return ChangeKind.REMOVED
    if len(link.old) == 1 and len(link.new) > 1:
        return ChangeKind.SPLIT
    if len(link.old) > 1 and len(link.new) == 1:
        return ChangeKind.MERGED
    if len(link.old) > 1:
        return ChangeKind.SPLIT if len(link.new) >= len(link.old) else ChangeKind.MERGED
    return ChangeKind.UNCHANGED if same else ChangeKind.MODIFIED


def _editorial(
    old_text: str, new_text: str, old_title: str, new_title: str, title_changed: bool, pieces: tuple[Piece, ...]
) -> bool:
    """Whether what changed (the text, the folded title, or both) changed only editorially (``pieces``: the
    texts' word difference)."""
    return (
        old_text != new_text
        and editorial_only(old_text, new_text, pieces)
        and (not title_changed or canonical(old_title) == canonical(new_title))
    ) or (old_text == new_text and title_changed and editorial_only(old_title, new_title))
