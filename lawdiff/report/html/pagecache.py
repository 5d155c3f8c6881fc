"""The report's article and history pages kept between runs, each by everything it shows.

A page is kept in the cache (:mod:`lawdiff.cache`, kind ``html``) under a key
made of:

* its article's view (:class:`~lawdiff.diff.article.ArticleView`): the
  changes of each pair, the synopsis and the clause histories, written out
  canonically (``repr`` of the records, whose fields are all shown; editions
  and clauses by name and address);
* the clauses of every article the view names, in every edition compared
  (:meth:`~lawdiff.model.Edition.part_digests`), for what the page looks up
  in the editions beside the view;
* what every page reads of the whole report (:func:`site_digest`): the
  editions' names and sources, the thresholds, every article's number,
  title, editions and anchors, and which clauses have a history: the links
  and the navigation;
* lawdiff's code (:func:`lawdiff.cache.key` holds its fingerprint).

The one thing a page shows of the whole corpus, each edition's digest in the
footer and the running foot, is kept as a placeholder and filled in when the
page is written, so that one edited page of 2017 makes again only the pages
that show it: a report read back is byte for byte the report made afresh.
Nothing is kept while a review is shown (its notes change between runs).
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from lawdiff.cache import Cache, key
from lawdiff.diff.article import ArticleView, PairTotal
from lawdiff.diff.records import Change, History
from lawdiff.model import article_of
from lawdiff.report.html.correlation import pair_changes
from lawdiff.report.site import Site

KIND = "html"


def site_digest(site: Site) -> str:
    """What every article and history page reads of the whole report, as one hash (see the module)."""
    digest = hashlib.sha256()
    digest.update(repr(sorted(site.thresholds.as_dict().items())).encode())
    for e in site.compared:
        head = (e.name, e.year, e.variant, e.effective, e.base, [(s.file, s.format, s.page, s.printing, s.pages)
                                                                 for s in e.sources])  # fmt: skip
        digest.update(repr(head).encode("utf-8", "surrogatepass"))
        with_history = [c.address for c in e.walk() if c.text or c.title]
        digest.update(repr(with_history).encode("utf-8", "surrogatepass"))
    for v in site.articles:
        row = (v.number, v.title, [e.name for e in v.editions], sorted(site.anchors.get(v.number, ())))
        digest.update(repr(row).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


# The fields of a change that its id (:func:`lawdiff.diff.records.change_id`: the pair, the aspect, the
# addresses and the texts) holds, with what lawdiff's code makes of the texts alone.
BY_ID = frozenset({"old_texts", "new_texts", "diff", "id"})


def change_digest(ch: Change) -> str:
    """A change as a page shows it, as a hash: its id and every field the id does not hold (:data:`BY_ID`)."""
    if not ch.id:
        return hashlib.sha256(repr(ch).encode("utf-8", "surrogatepass")).hexdigest()
    rest = (
        ch.kind, ch.aspect, ch.old, ch.new, ch.article, ch.renumbered, ch.moved, ch.title_changed, ch.old_title,
        ch.new_title, ch.similarity, ch.editorial_only, ch.references, ch.score, ch.uncertain, ch.methods,
        ch.reasons, ch.counterpart_in_corpus, ch.pinned_by, ch.signals,
    )  # fmt: skip
    return ch.id + hashlib.sha256(repr(rest).encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass
class PageKeys:
    """The keys of one report's pages: made once per report, before the pages are made in forked processes."""

    site: Site
    _site: str = ""
    _changes: dict[int, tuple[Change, str]] = field(default_factory=dict)
    _views: dict[str, tuple[ArticleView, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._site = site_digest(self.site)
        for e in self.site.compared:
            e.digest()

    def key(self, page: str, view: ArticleView) -> str:
        """The key of the page ``page`` (``article`` or ``history``) of ``view``."""
        memo = self._views.get(view.number)
        if memo is None or memo[0] is not view:
            memo = self._views[view.number] = (view, self._view(view))
        return key(KIND, page, memo[1])

    def _view(self, view: ArticleView) -> str:
        addresses: set[str] = {view.number}
        shown = repr(
            (
                view.number,
                view.title,
                [e.name for e in view.editions],
                [
                    (pv.old.name, pv.new.name, self._digests(pv.changes, addresses), repr(pv.heat),
                     sorted(pv.moved_targets.items()))
                    for pv in view.pairs
                ],
                [self._row(row.cells, addresses) + repr(row.steps) for row in view.synopsis],
                [(e.name, c.address, self._history(h, addresses)) for e, c, h in view.histories],
            )
        )  # fmt: skip
        articles = sorted({article_of(a) for a in addresses})
        parts = [(e.name, [e.part_digests().get(n, "") for n in articles]) for e in self.site.compared]
        return key(self._site, shown, repr((articles, parts)))

    def correlation(self, total: PairTotal) -> str:
        """The key of a pair's correlation table: the pair's editions whole, and every change it lists."""
        old, new = total.old, total.new
        changes, pages = pair_changes(self.site, old.name, new.name)
        shown = repr(
            (
                old.name, new.name, total.articles, sorted(total.counts.items()), sorted(total.editorial.items()),
                total.stale, self._digests(tuple(changes), set()), sorted(pages.items()),
            )
        )  # fmt: skip
        return key(KIND, "correlation", self._site, shown, old.digest(), new.digest())

    def _digests(self, changes: tuple[Change, ...], addresses: set[str]) -> list[str]:
        out = []
        for ch in changes:
            memo = self._changes.get(id(ch))
            if memo is None or memo[0] is not ch:
                # The change itself is held beside its digest, so that its id is never another's.
                memo = self._changes[id(ch)] = (ch, change_digest(ch))
            addresses.update(ch.old)
            addresses.update(ch.new)
            out.append(memo[1])
        return out

    def _row(self, cells: tuple[tuple[object, ...], ...], addresses: set[str]) -> str:
        for cell in cells:
            for node in cell:
                addresses.add(node.address)  # type: ignore[attr-defined]
        return repr(cells)

    def _history(self, h: History, addresses: set[str]) -> tuple[object, ...]:
        steps = []
        for s in h.steps:
            addresses.update(s.addresses)
            # The texts are those of the addresses, whose articles the key holds.
            steps.append((s.edition, s.addresses, s.kinds, self._digests(s.changes, addresses), s.in_corpus))
        return (h.start, h.introduced, steps)


# The editions' digests in a kept page: the whole one (a title) and its first 16 digits.
_HOLE = re.compile("\x00([FP])([^\x00]*)\x00")


def holes(text: str, site: Site) -> str | None:
    """``text`` with each compared edition's digest as a placeholder (U+0000, which no page holds otherwise:
    the markup writes it as U+FFFD wherever a source has it), or None when the page would not come back whole.

    (Two editions never have the same digest: each holds its name.)
    """
    if "\x00" in text:
        return None
    out = text
    for e in site.compared:
        out = out.replace(e.digest(), f"\x00F{e.name}\x00").replace(e.digest()[:16], f"\x00P{e.name}\x00")
    return out if filled(out, site) == text else None


def filled(text: str, site: Site) -> str:
    """A kept page with this report's digests in its placeholders."""
    digests = {e.name: e.digest() for e in site.compared}
    return _HOLE.sub(lambda m: digests[m.group(2)] if m.group(1) == "F" else digests[m.group(2)][:16], text)


def kept(cache: Cache, keys: PageKeys, page: Callable[[], str], make: Callable[[], str]) -> str:
    """The page whose key ``page()`` gives, read from ``cache`` when it holds it, else made and kept.

    Kept compressed (a report's pages are some 200 KB per article, and shrink to a seventh).
    """
    k = page()
    hit = cache.get(KIND, k)
    if isinstance(hit, bytes):
        with contextlib.suppress(zlib.error, UnicodeDecodeError):
            return filled(zlib.decompress(hit).decode("utf-8"), keys.site)
    text = make()
    keep = holes(text, keys.site)
    if keep is not None:
        cache.put(KIND, k, zlib.compress(keep.encode("utf-8"), 1))
    return text
