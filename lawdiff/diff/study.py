"""The study: everything a run shows, computed once and read by every renderer.

A :class:`Study` holds the editions of a run and the comparisons between
them.  Each comparison of a pair is computed once, on first use, and indexed
once, when first looked up (``compare`` of one pair looks nothing up): by the old
and the new addresses of its changes and by the articles they touch.
Histories (:mod:`lawdiff.diff.history`) and the per-article views of the
report (:mod:`lawdiff.diff.article`) are walks over those indexes, so that
their cost grows with what they show, not with the size of the comparisons.

Renderers (text, JSON, HTML, the review store, the server) read the study and
compute nothing of their own: a fact a renderer needs is added here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lawdiff.align import DEFAULT_THRESHOLDS, Aspect, Corrections, Thresholds
from lawdiff.cache import Cache
from lawdiff.cache import key as cache_key
from lawdiff.diff.changes import WordDiff, compare, word_diff
from lawdiff.diff.comparison import Comparison
from lawdiff.diff.vocabulary import Change, Op, Piece
from lawdiff.errors import UsageError
from lawdiff.forked import can_fork, collector_paused, jobs
from lawdiff.i18n import gettext as _
from lawdiff.i18n.said import made_once
from lawdiff.model import Edition, article_of, chronological, natural_key, parent_address, spellings

# The most processes that describe one comparison's changes (LAWDIFF_JOBS may say otherwise).
MAX_DESCRIBERS = 4


@dataclass(frozen=True, slots=True)
class PairIndex:
    """One comparison's changes by old address, new address and article (positions into ``changes``)."""

    by_old: dict[str, tuple[int, ...]]
    by_new: dict[str, tuple[int, ...]]
    by_article: dict[str, tuple[int, ...]]

    @staticmethod
    def of(changes: Sequence[Change]) -> PairIndex:
        by_old: dict[str, list[int]] = {}
        by_new: dict[str, list[int]] = {}
        by_article: dict[str, list[int]] = {}
        articles: dict[str, str] = {}  # article_of, once per address (both sides share most of them)
        for i, ch in enumerate(changes):
            for a in ch.old:
                by_old.setdefault(a, []).append(i)
            for a in ch.new:
                by_new.setdefault(a, []).append(i)
            touched = [ch.article]
            for a in ch.old + ch.new:
                art = articles.get(a)
                if art is None:
                    art = articles[a] = article_of(a)
                touched.append(art)
            for art in dict.fromkeys(touched):
                if art:
                    by_article.setdefault(art, []).append(i)
        # Most addresses have one change, the same on both sides: one tuple each (2.75 -> 1.9 MB a
        # comparison of 744 articles).
        ones = [(i,) for i in range(len(changes))]

        def frozen(found: list[int]) -> tuple[int, ...]:
            return ones[found[0]] if len(found) == 1 else tuple(found)

        return PairIndex(
            {k: frozen(v) for k, v in by_old.items()},
            {k: frozen(v) for k, v in by_new.items()},
            {k: frozen(v) for k, v in by_article.items()},
        )


@dataclass
class Study:
    """The comparisons of one run, each computed once, and their indexes.

    editions: the timeline of the run, oldest first (the corpus's editions,
        or those named); histories follow it.
    thresholds: the alignment's thresholds, the same for every pair.
    corrections: hand corrections of the alignment per pair of edition names
        (from the review store), handed to the aligner as data.
    cache: where comparisons are kept between runs, by the two editions'
        contents, the thresholds and the corrections (:mod:`lawdiff.cache`).
    """

    editions: tuple[Edition, ...]
    thresholds: Thresholds = DEFAULT_THRESHOLDS
    corrections: dict[tuple[str, str], Corrections] = field(default_factory=dict)
    cache: Cache = field(default_factory=lambda: Cache(None))
    _comparisons: dict[tuple[str, str], Comparison] = field(default_factory=dict, init=False, repr=False)
    _indexes: dict[tuple[str, str], PairIndex] = field(default_factory=dict, init=False, repr=False)
    _timelines: dict[str, tuple[Edition, list[Edition]]] = field(default_factory=dict, init=False, repr=False)
    # The walks of the histories made so far, per timeline (lawdiff.diff.history).
    walks: dict[tuple[str, ...], dict[tuple[object, ...], object]] = field(default_factory=dict, init=False, repr=False)

    def compare(self, old: Edition, new: Edition) -> Comparison:
        """The comparison of two editions, computed once per run."""
        key = (old.name, new.name)
        comp = self._comparisons.get(key)
        if comp is None:
            comp = self._cached(old, new)
            if comp is None:
                with collector_paused():
                    fixes = self.corrections.get(key)
                    comp = compare(
                        old, new, self.thresholds, fixes, self.diffs(old, new), jobs(MAX_DESCRIBERS, "describe")
                    )
                self._put(old, new, comp)
            self.add(comp)
        return comp

    def prepare(self, pairs: Iterable[tuple[Edition, Edition]], workers: int = 1) -> None:
        """Compute the comparisons of ``pairs`` now, ``workers`` at a time in forked processes.

        The results are those :meth:`compare` would give (the same function
        runs in each process); where processes cannot be forked, or there is
        only one pair to compute, they are computed here, one after another.
        """
        todo: list[tuple[Edition, Edition]] = []
        for old, new in pairs:
            key = (old.name, new.name)
            if key in self._comparisons or any((o.name, n.name) == key for o, n in todo):
                continue
            hit = self._cached(old, new)
            if hit is not None:
                self.add(hit)
            else:
                todo.append((old, new))
        if workers > 1 and len(todo) > 1 and can_fork():
            from lawdiff.forked import forked_map  # here: one pair's comparison loads no pool

            def compare_one(k: int) -> Comparison:  # in a worker, which inherits the study and the pairs
                old, new = todo[k]
                return compare(
                    old, new, self.thresholds, self.corrections.get((old.name, new.name)), self.diffs(old, new)
                )

            # A process per comparison, up to twice the workers: three pairs on two workers took two
            # rounds, the second with one processor idle; three processes share both to the end.
            # The texts a comparison quotes are the editions': sent back as references to the parent's own.
            quoted = [s for e in {e.name: e for pair in todo for e in pair}.values() for s in quoted_by(e)]
            made = dict(
                forked_map(compare_one, len(todo), min(len(todo), 2 * workers), shared=quoted, makers=_made_once())
            )
            for k in range(len(todo)):  # in the pairs' order, as the loop below would store them
                self._store(made[k], todo)
        for old, new in todo:
            self.compare(old, new)

    def _store(self, comp: Comparison, todo: list[tuple[Edition, Edition]]) -> None:
        old, new = next((o, n) for o, n in todo if (o.name, n.name) == (comp.old, comp.new))
        self.add(comp)
        self._put(old, new, comp)

    def _key(self, old: Edition, new: Edition) -> str:
        fixes = self.corrections.get((old.name, new.name))
        return cache_key("pair", old.digest(), new.digest(), repr(self.thresholds), repr(fixes))

    def _cached(self, old: Edition, new: Edition) -> Comparison | None:
        if self.cache.folder is None:
            return None
        with collector_paused():  # unpickling a comparison makes as many objects as computing it
            hit = self.cache.get("pairs", self._key(old, new))
        return hit if isinstance(hit, Comparison) else None

    def _put(self, old: Edition, new: Edition, comp: Comparison) -> None:
        if self.cache.folder is not None:
            self.cache.put("pairs", self._key(old, new), comp)
            words = {
                ("\n".join(ch.old_texts), "\n".join(ch.new_texts)): ch.diff
                for ch in comp.changes
                if ch.old_texts and ch.new_texts and ch.old_texts != ch.new_texts
            }
            # A clause's heading's difference too (a heading of its own has it as its ``diff``).
            words.update(((ch.old_title, ch.new_title), ch.title_diff) for ch in comp.changes if ch.title_diff)
            self.cache.put("words", cache_key("words", old.name, new.name), words)

    def diffs(self, old: Edition, new: Edition) -> WordDiff:
        """How the word differences of a pair are made: read, where they are the same two texts, from the
        pair's last comparison kept in the cache (one edited page leaves the others' differences as they
        were), else made (:func:`~lawdiff.diff.words.word_diff`).

        The entry is kept by the editions' names and holds each difference by its two texts, so that it is
        never wrong, only of no use when the pair's texts are all new."""
        known = self.cache.get("words", cache_key("words", old.name, new.name)) if self.cache.folder else None
        if not isinstance(known, dict):
            return word_diff
        return lambda a, b: known.get((a, b)) or word_diff(a, b)

    def add(self, comparison: Comparison) -> None:
        """Take a comparison computed elsewhere (read from the cache)."""
        key = (comparison.old, comparison.new)
        self._comparisons[key] = comparison
        self._indexes.pop(key, None)  # made again from this comparison when first looked up

    def index(self, old: Edition, new: Edition) -> PairIndex:
        self.compare(old, new)
        return self._index((old.name, new.name))

    def _index(self, key: tuple[str, str]) -> PairIndex:
        found = self._indexes.get(key)
        if found is None:
            with collector_paused():
                found = self._indexes[key] = PairIndex.of(self._comparisons[key].changes)
        return found

    def timeline(self, edition: Edition) -> list[Edition]:
        """The study's editions in order, with ``edition`` standing in for its year's edition
        (:func:`timeline_with`); made once per edition, not once per history: ordering
        editions reads all their sources, as many as the articles for wiki pages."""
        made = self._timelines.get(edition.name)
        if made is None or made[0] is not edition:
            made = self._timelines[edition.name] = (edition, timeline_with(self.editions, edition))
        return list(made[1])

    @property
    def comparisons(self) -> tuple[Comparison, ...]:
        """The comparisons computed so far, in the order they were first asked for."""
        return tuple(self._comparisons.values())

    def involved(
        self,
        old: Edition,
        new: Edition,
        old_side: Iterable[str] = (),
        new_side: Iterable[str] = (),
        aspect: Aspect | None = None,
    ) -> tuple[Change, ...]:
        """The changes of a pair whose old addresses meet ``old_side`` or new ones meet ``new_side``.

        In the comparison's order; those of ``aspect`` when it is given (a history follows a clause's
        text, or a heading-only clause's heading: never one into the other), else the text changes when
        there are any, else the heading changes.
        """
        comp = self.compare(old, new)
        idx = self._index((old.name, new.name))
        hits: set[int] = set()
        for a in old_side:
            hits.update(idx.by_old.get(a, ()))
        for a in new_side:
            hits.update(idx.by_new.get(a, ()))
        found = [comp.changes[i] for i in sorted(hits)]
        if aspect is not None:
            return tuple(ch for ch in found if ch.aspect is aspect)
        text = [ch for ch in found if ch.aspect is Aspect.TEXT]
        return tuple(text or found)

    def touching(self, old: Edition, new: Edition, article: str) -> tuple[Change, ...]:
        """The changes of a pair touching ``article`` on either side, in the comparison's order."""
        comp = self.compare(old, new)
        return tuple(comp.changes[i] for i in self._index((old.name, new.name)).by_article.get(article, ()))


# A piece of a word difference this short is made once per comparisons read (see _made_once).
SHORT_PIECE = 32


def _made_once() -> dict[Any, Any]:
    """What the comparisons made in other processes are read back with (:class:`lawdiff.forked.wire.Wire`'s
    makers): each short piece of their word differences, each reason of a match without a score and each
    change's article and methods made once.

    A comparison of 744 articles that changed throughout holds 100,000 pieces, two thirds of them a few
    words long ("de ", " en een"), the same few thousand over and over: read one by one, they were 14 MB a
    comparison; a piece is a frozen value, so equal ones are one object."""
    known: dict[Op, dict[str, Piece]] = {op: {} for op in Op}

    def piece(op: Op, text: str) -> Piece:
        if len(text) > SHORT_PIECE:
            return Piece(op, text)
        by_text = known[op]
        found = by_text.get(text)
        if found is None:
            found = by_text[text] = Piece(op, text)
        return found

    # A change's article and methods are a few values said over and over: each once.
    fields = [f.name for f in dataclasses.fields(Change)]
    article, methods = fields.index("article"), fields.index("methods")
    values: dict[object, object] = {}

    def change(*made: Any) -> Change:
        given = list(made)
        given[article] = values.setdefault(given[article], given[article])
        given[methods] = values.setdefault(given[methods], given[methods])
        return Change(*given)

    return {Piece: piece, Change: change, **made_once()}


def quoted_by(edition: Edition) -> list[str]:
    """What a comparison of the edition quotes of it: each clause's address, title and text (see
    :meth:`Study.prepare`)."""
    return [s for c in edition.walk() for s in (c.address, c.title, c.text) if s]


def timeline_with(editions: tuple[Edition, ...], edition: Edition) -> list[Edition]:
    """The editions in order, with ``edition`` standing in for its year's edition
    when it is one of two sources of that year (``2017@wiki``)."""
    eds = list(editions)
    if all(e.name != edition.name for e in eds):
        same = [k for k, e in enumerate(eds) if e.year == edition.year and e.effective == edition.effective]
        if same:
            eds[same[0]] = edition
        else:
            eds.append(edition)
    return sorted(eds, key=chronological)


def scopes(addresses: Iterable[str], editions: Iterable[Edition]) -> tuple[str, ...]:
    """The clause addresses a selection names (``--article 45``, ``45C``), checked against the editions.

    Each is an article number or any clause address; the anchor form of the
    report (``45C4b``) is taken too.  A name none of the editions holds is
    refused with the articles they do hold.
    """
    eds = list(editions)
    out: list[str] = []
    for given in addresses:
        found = next((c.address for e in eds for a in spellings(given) if (c := e.find(a)) is not None), None)
        if found is None:
            held = sorted({a.address for e in eds for a in e.articles()}, key=natural_key)
            names = " nor ".join(e.name for e in eds)
            raise UsageError(
                _("neither {names} has an article or clause {given!r}").format(names=names, given=given),
                fix=_("name an article ({names}) or a clause in one of them, e.g. 45C").format(
                    names=", ".join(held) or "none held"
                ),
            )
        out.append(found)
    return tuple(out)


def within(change: Change, scopes: tuple[str, ...]) -> bool:
    """Whether a change touches one of the clauses ``scopes`` names or what is under them (all when none)."""
    if not scopes:
        return True
    wanted = set(scopes)
    if change.article in wanted:
        return True
    for address in change.old + change.new:
        a = address
        while a:
            if a in wanted:
                return True
            a = parent_address(a)
    return False
