"""The report's article pages, clause-history pages and correlation tables kept between runs, each by
everything it shows.

A page is kept in the cache (:mod:`lawdiff.cache`, kind ``html``) under a key
made of:

* its article's view (:class:`~lawdiff.diff.article.ArticleView`): the
  changes of each pair, the synopsis and the clause histories, written out
  canonically as JSON (editions and clauses by name and address, a change by
  :func:`change_digest`);
* the drafting patterns the page shows of each pair (their clauses may lie in other articles);
* the clauses of every article the view names, in every edition compared
  (:meth:`~lawdiff.model.Edition.part_digests`), for what the page looks up
  in the editions beside the view;
* what every page reads of the whole report (:func:`site_digest`): the
  editions' names and sources, the thresholds, every article's number,
  title, editions and anchors, and which clauses have a history: the links
  and the navigation;
* the interface's language (:func:`lawdiff.i18n.language`): an English report
  made after a Dutch one is English;
* lawdiff's code and its compiled catalogs (:func:`lawdiff.cache.key` holds their fingerprint).

A correlation table is kept by its pair's two editions whole and every change
it lists.  The one thing a page shows of the whole corpus, each edition's
digest in the footer and the running foot, is kept as a placeholder and
filled in when the page is written, so that one edited page of 2017 makes
again only the pages that show it: a report read back is byte for byte the
report made afresh.  With the committee's review shown, an article page's key
also holds what the page shows of it (each change's note and the article's
counts): a decision made since the last report makes its article's page
again, and no other.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lawdiff import i18n
from lawdiff.cache import Cache, key
from lawdiff.diff.article import ArticleView, Node, PairTotal, PairView
from lawdiff.diff.vocabulary import Change, History
from lawdiff.model import article_of
from lawdiff.report.files import utf8
from lawdiff.report.html.correlation import pair_changes
from lawdiff.report.html.review import review_counts
from lawdiff.report.site import Site

KIND = "html"


def site_digest(site: Site) -> str:
    """What every article and history page reads of the whole report, as one hash (see the module)."""
    digest = hashlib.sha256()
    digest.update(repr(sorted(site.thresholds.as_dict().items())).encode())
    for e in site.compared:
        digest.update(repr(e.head()).encode("utf-8", "surrogatepass"))
        with_history = [c.address for c in e.walk() if c.text or c.title]
        digest.update(repr(with_history).encode("utf-8", "surrogatepass"))
    for v in site.articles:
        row = (v.number, v.title, [e.name for e in v.editions], sorted(site.anchors(v.number)))
        digest.update(repr(row).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


# The fields of a change that its id (:func:`lawdiff.diff.vocabulary.change_id`: the pair, the aspect, the
# addresses and the texts) holds, with what lawdiff's code makes of the texts alone.
BY_ID = frozenset({"old_texts", "new_texts", "diff", "id"})


def change_digest(ch: Change) -> str:
    """A change as a page shows it, as a hash: its id and every field the id does not hold (:data:`BY_ID`)."""
    if not ch.id:
        return hashlib.sha256(repr(ch).encode("utf-8", "surrogatepass")).hexdigest()
    # A tuple of strings, numbers and booleans, whose repr is canonical and made in C.
    rest = (
        ch.kind.value, ch.aspect.value, ch.old, ch.new, ch.article, ch.renumbered, ch.moved, ch.title_changed,
        ch.old_title, ch.new_title, ch.similarity, ch.editorial_only,
        tuple((r.status.value, r.old, r.new, r.consistent) for r in ch.references), ch.score, ch.uncertain,
        tuple(m.value for m in ch.methods), ch.reasons, ch.counterpart_in_corpus, ch.pinned_by,
        tuple((g.flag.value, g.removed, g.added) for g in ch.signals), ch.significance, ch.certainty,
        ch.scope.value, tuple((p.op.value, p.text) for p in ch.title_diff),
    )  # fmt: skip
    return ch.id + hashlib.sha256(repr(rest).encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass
class PageKeys:
    """The keys of one report's pages: made once per report, before the pages are made in forked processes
    (each of which memoizes its own views' and changes' digests)."""

    site: Site
    _site: str = field(init=False)
    _changes: dict[int, tuple[Change, str]] = field(default_factory=dict, init=False)
    _views: dict[tuple[str, bool], tuple[ArticleView, str]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._site = site_digest(self.site)

    def key(self, page: str, view: ArticleView) -> str:
        """The key of the page ``page`` (``article`` or ``history``) of ``view``, in the interface's language.

        An article page shows no history: its key holds none, so that keeping it never makes the article's
        histories (the history page makes them, in its own process: :meth:`Site.histories`).
        """
        with_histories = page == "history"
        memo = self._views.get((view.number, with_histories))
        if memo is None or memo[0] is not view:
            memo = self._views[(view.number, with_histories)] = (view, self._view(view, with_histories))
        if page != "article" or (self.site.annotate is None and self.site.review is None):
            return key(KIND, page, i18n.language(), memo[1])
        return key(KIND, page, i18n.language(), memo[1], self._review(view))

    def _review(self, view: ArticleView) -> str:
        """What an article page shows of the committee's review: each change's note (its classes and markup:
        status, assignee and comments, or a form) and the article's counts, as the page writes them."""
        annotate = self.site.annotate
        # Joined by characters that neither the classes nor markup can hold (it writes them as U+FFFD).
        parts: list[str] = [str(review_counts(self.site, view))]
        for pv in view.pairs:
            parts.append("\x03")
            notes = [annotate(ch, pv.old.name, pv.new.name) for ch in pv.changes] if annotate is not None else []
            for note in notes:
                if note is None:
                    parts.append("\x02")
                else:
                    parts.append(" ".join(note.classes) + ("\x05" if note.markup is None else "\x01" + note.markup))
        return hashlib.sha256("\x04".join(parts).encode("utf-8", "surrogatepass")).hexdigest()

    def _view(self, view: ArticleView, with_histories: bool) -> str:
        addresses: set[str] = {view.number}
        histories = self.site.histories(view) if with_histories else ()
        seen: dict[int, Change] = {}
        # JSON of strings, numbers and booleans (a synopsis node is a named tuple of strings, its part a str
        # enum): canonical, and written by C; a history step's kinds are those of its changes.
        shown = json.dumps(
            [
                view.number,
                view.title,
                [e.name for e in view.editions],
                [
                    [pv.old.name, pv.new.name, self._digests(pv.changes, seen), repr(pv.heat),
                     sorted(pv.moved_targets.items()), self._patterns(pv)]
                    for pv in view.pairs
                ],
                [[self._nodes(row.cells, addresses), row.steps] for row in self.site.synopsis(view)],
                [[e.name, c.address, self._history(h, addresses, seen)] for e, c, h in histories],
            ],
            ensure_ascii=False,
        )  # fmt: skip
        for ch in seen.values():
            addresses.update(ch.old)
            addresses.update(ch.new)
        articles = sorted({article_of(a) for a in addresses})
        parts = [(e.name, [e.part_digests().get(n, "") for n in articles]) for e in self.site.compared]
        return key(self._site, shown, repr((articles, parts)))

    def _patterns(self, pv: PairView) -> str:
        """The drafting patterns an article page shows of a pair (and counts its normative changes by): those
        with a change of the page, each with all its clauses, some of which may be in other articles."""
        comp = self.site.comparisons.get((pv.old.name, pv.new.name))
        return repr(comp.patterns_of(pv.changes)) if comp is not None else ""

    def correlation(self, total: PairTotal) -> str:
        """The key of a pair's correlation table: the pair's editions whole, and every change it lists, in the
        interface's language."""
        old, new = total.old, total.new
        changes, pages = pair_changes(self.site, old.name, new.name)
        shown = repr(
            (
                old.name, new.name, total.articles, sorted(total.counts.items()), sorted(total.editorial.items()),
                total.stale, self._digests(tuple(changes), {}), sorted(pages.items()),
            )
        )  # fmt: skip
        return key(KIND, "correlation", i18n.language(), self._site, shown, old.digest(), new.digest())

    def _digests(self, changes: tuple[Change, ...], seen: dict[int, Change]) -> list[str]:
        """The changes' digests; ``seen`` gathers the changes, whose addresses the key holds the articles of."""
        out = []
        for ch in changes:
            memo = self._changes.get(id(ch))
            if memo is None or memo[0] is not ch:
                # The change itself is held beside its digest, so that its id is never another's.
                memo = self._changes[id(ch)] = (ch, change_digest(ch))
            seen[id(ch)] = ch
            out.append(memo[1])
        return out

    def _nodes(self, cells: tuple[tuple[Node, ...], ...], addresses: set[str]) -> tuple[tuple[Node, ...], ...]:
        for cell in cells:
            addresses.update(node.address for node in cell)
        return cells

    def _history(self, h: History, addresses: set[str], seen: dict[int, Change]) -> list[object]:
        steps: list[object] = [h.start, h.introduced, list(h.or_earlier)]
        for s in h.steps:
            addresses.update(s.addresses)
            # The texts are those of the addresses, whose articles the key holds; the kinds those of the changes.
            steps.append([s.edition, s.addresses, self._digests(s.changes, seen), s.in_corpus])
        return steps


# The editions' digests in a kept page: the whole one (a title) and its first 16 digits.
_HOLE = re.compile(b"\x00([FP])([^\x00]*)\x00")


def _punched(data: bytes, site: Site) -> tuple[memoryview, bytes] | None:
    """A page (UTF-8) with each compared edition's digest as a placeholder, in two parts: what comes before
    the first digest as it is, and the rest with its digests taken out.  None when the page has U+0000, the
    placeholders' own character, which no page holds otherwise (the markup writes it as U+FFFD wherever a
    source has it).

    Each placeholder stands for the very digits it took the place of, and none can be mistaken for text:
    :func:`filled` gives the page back.  (Two editions never have the same digest: each holds its name.)
    The digests stand in the footer and the running foot of the tables: a correlation table (some 5 MB at
    744 articles) is copied from its first table foot on, not whole once per digest.
    """
    if b"\x00" in data:
        return None
    marks = [(e.digest().encode(), e.digest()[:16].encode(), e.name.encode("utf-8")) for e in site.compared]
    first = min((i for i in (data.find(prefix) for _full, prefix, _name in marks) if i >= 0), default=len(data))
    tail = data[first:]
    for full, prefix, name in marks:
        tail = tail.replace(full, b"\x00F" + name + b"\x00").replace(prefix, b"\x00P" + name + b"\x00")
    return memoryview(data)[:first], tail


def holes(data: bytes, site: Site) -> bytes | None:
    """The page as it is kept, before it is compressed (:func:`_punched`, joined)."""
    parts = _punched(data, site)
    return None if parts is None else b"".join(parts)


def filled(data: bytes, site: Site) -> bytes:
    """A kept page with this report's digests in its placeholders."""
    digests = {e.name.encode("utf-8"): e.digest().encode() for e in site.compared}
    return _HOLE.sub(lambda m: digests[m.group(2)] if m.group(1) == b"F" else digests[m.group(2)][:16], data)


def kept(cache: Cache, keys: PageKeys, page: Callable[[], str], make: Callable[[], str | Sequence[str]]) -> bytes:
    """The page whose key ``page()`` gives (UTF-8), read from ``cache`` when it holds it, else made and kept.

    Kept compressed: a report's pages are some 200 KB per article, and shrink to a seventh.
    """
    k = page()
    hit = cache.get(KIND, k)
    if isinstance(hit, bytes):
        with contextlib.suppress(zlib.error, KeyError):
            return filled(zlib.decompress(hit), keys.site)
    made = make()
    # A file name that is not UTF-8 as its escape, as the files hold it; a page in pieces joined.
    data = utf8(made) if isinstance(made, str) else b"".join(utf8(piece) for piece in made)
    parts = _punched(data, keys.site)
    if parts is not None:
        packer = zlib.compressobj(1)
        cache.put(KIND, k, b"".join([packer.compress(parts[0]), packer.compress(parts[1]), packer.flush()]))
    return data
