"""What the server reads, kept between requests: the corpus, its study and plan; the store.

Pages are rendered on request, so that a draft corrected on disk shows
without a restart.  Re-reading and re-aligning for every page view would cost
a second; instead :class:`Workspace` keeps one :class:`Snapshot` (corpus,
study, report plan, changes by id) keyed by the corpus's state (every file's
path, size and modification time, the settings file, the drafts) and the
store's hand corrections (which change the alignment).  A request whose key
is unchanged reuses it; otherwise it is made again, with the on-disk cache
(:mod:`lawdiff.cache`) redoing only what changed.

Each thread of the server has its own store connection (SQLite connections
are not shared across threads here); every write is one transaction of the
store.  The store's decisions matched to the run (:class:`ReviewView`) and
rendered pages are kept per store version (the audit log's last entry), so a
page is rendered once per write, not once per view.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar, cast

from lawdiff.align import DEFAULT_THRESHOLDS, Corrections
from lawdiff.cache import Cache
from lawdiff.cache import key as cache_key
from lawdiff.corpus import SETTINGS_FILE, Corpus, DraftFile, corpus_files, default_corpus, load
from lawdiff.diff import Study
from lawdiff.diff.comparison import Comparison
from lawdiff.diff.vocabulary import Change
from lawdiff.errors import InputError
from lawdiff.model import Edition
from lawdiff.report.site import Site, plan
from lawdiff.review import ReviewView, Store, attach, open_for_writing
from lawdiff.review.runs import comparisons as run_comparisons
from lawdiff.serve.config import ServeConfig

# Rendered pages kept (per page, role and store version); older ones go first.
PAGES_KEPT = 64


@dataclass(frozen=True, slots=True)
class Located:
    """A change of the run and where the report shows it."""

    change: Change
    comparison: Comparison
    article: str  # the article page that shows its row ("" when none does)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The corpus as read at one state, its study and the report's plan of it.

    key: the corpus state and the hand corrections it was made from.
    comparisons: the run's comparisons (the report's pairs), as the review
        store's decisions are matched to them.
    changes: every change of those comparisons by id.
    order: the change ids in the order the agenda walks them (by article,
        then pair, then reading order); each once.
    on_pages: what :func:`lawdiff.serve.controls.fill` needs of each change.
    """

    key: str
    corpus: Corpus
    study: Study
    site: Site
    comparisons: tuple[Comparison, ...]
    changes: dict[str, Located]
    order: tuple[str, ...]
    on_pages: dict[str, tuple[Change, str, str]]  # every change id with its pair's old and new edition

    @property
    def editions(self) -> dict[str, Edition]:
        return {e.name: e for e in (*self.corpus.variants, *self.corpus.editions)}


T = TypeVar("T")


class _Pending:
    """A write waiting for its batch: its work, then its result or its error."""

    __slots__ = ("done", "error", "result", "work")

    def __init__(self, work: Callable[[Store], object]) -> None:
        self.work = work
        self.done = False
        self.result: object = None
        self.error: Exception | None = None


class Workspace:
    """The snapshot, the store connections and the rendered pages of one server."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self._lock = threading.Lock()
        self._local = threading.local()
        self._snapshot: Snapshot | None = None
        self._view: tuple[str, int, ReviewView] | None = None
        self._view_lock = threading.Lock()
        self._of_version: dict[str, tuple[int, object]] = {}
        self._pages: OrderedDict[tuple[str, ...], str] = OrderedDict()
        self._pages_lock = threading.Lock()
        self._making: dict[tuple[str, ...], threading.Lock] = {}
        self._stores: list[Store] = []
        # One batch of writes at a time in this process (see write()): SQLite
        # would serialize the writers anyway, but a writer that finds the store
        # locked sleeps in growing steps (up to 100 ms each) before it tries again.
        self._write_lock = threading.Lock()
        self._queue: list[_Pending] = []
        self._queue_lock = threading.Lock()
        self.rebuilds = 0  # snapshots made, for the tests and the benchmark
        self._generation = 0  # store connections older than this are opened again (reconnect())

    # -- the store ------------------------------------------------------

    def store(self) -> Store:
        """This thread's connection to the store (opened, created or migrated on first use; opened
        again after a write failed on the store itself, see :meth:`write`)."""
        found: Store | None = getattr(self._local, "store", None)
        if found is not None and getattr(self._local, "generation", 0) != self._generation:
            with self._lock:
                if found in self._stores:
                    self._stores.remove(found)
            found.close()
            found = None
        if found is None:
            found = open_for_writing(self.config.store)
            self._local.store = found
            self._local.generation = self._generation
            with self._lock:
                self._stores.append(found)
        return found

    def reconnect(self) -> None:
        """Have every thread open the store again before its next use.

        A connection opened while the file was read-only (or its disk gone for
        a moment) stays unable to write after the file is writable again;
        a new one writes, as the command line does.
        """
        with self._lock:
            self._generation += 1

    def write(self, work: Callable[[Store], T]) -> T:
        """Run one write (``work`` given a store to write with), committed together with those waiting.

        Writers queue; whoever holds the write lock runs every write queued
        so far, each in a savepoint of one transaction, and commits once
        (:meth:`Store.batch`): one wait for the disk for a batch of members
        instead of one each.  A write that fails is rolled back alone and its
        error raised in its own thread; nothing is answered as saved before
        the commit.
        """
        mine = _Pending(work)
        with self._queue_lock:
            self._queue.append(mine)
        with self._write_lock:
            if not mine.done:
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                store = self.store()
                try:
                    with store.batch():
                        for pending in batch:
                            try:
                                pending.result = pending.work(store)
                            except Exception as exc:  # re-raised in the writer's own thread below
                                pending.error = exc
                                if isinstance(exc, InputError):
                                    self.reconnect()  # the store failed, not the request: see below
                                if not store.in_transaction:
                                    # SQLite rolled the whole batch back (a full disk):
                                    # the writes before this one are lost too; none is saved.
                                    raise
                except Exception as exc:
                    for pending in batch:
                        pending.error = pending.error or exc
                        pending.result = None
                    if isinstance(exc, InputError):
                        # The store itself failed (read-only, full, gone): the next write
                        # opens it again rather than keep a connection that cannot write.
                        self.reconnect()
                for pending in batch:
                    pending.done = True
        if mine.error is not None:
            raise mine.error
        return mine.result  # type: ignore[return-value]

    def close(self) -> None:
        with self._lock:
            for s in self._stores:
                s.close()
            self._stores.clear()

    # -- the corpus -----------------------------------------------------

    def corpus_state(self) -> str:
        """A key of the corpus as it is on disk now: every file's path, size and modification time."""
        src = self.config.source
        roots = list(src.dirs) or [default_corpus()]
        parts: list[str] = []
        files = [f for f, _, _ in corpus_files(roots)]
        files += [r / SETTINGS_FILE for r in roots if (r / SETTINGS_FILE).is_file()]
        files += [path for path, _, _ in src.drafts]
        for f in files:
            try:
                st = f.stat()
            except OSError:
                parts.append(f"{f}\0gone")
                continue
            parts.append(f"{f}\0{st.st_size}\0{st.st_mtime_ns}")
        return cache_key("serve-corpus", *parts)

    def snapshot(self) -> Snapshot:
        """The snapshot of the corpus as it is now, made again when the corpus or the corrections changed."""
        corrections = self.store().all_corrections()
        key = cache_key(self.corpus_state(), repr(sorted(corrections.items())))
        current = self._snapshot
        if current is not None and current.key == key:
            return current
        with self._lock:
            current = self._snapshot
            if current is not None and current.key == key:
                return current
            made = self._make(key, corrections)
            self._snapshot = made
            self.rebuilds += 1
        with self._pages_lock:
            self._pages.clear()
        return made

    def _make(self, key: str, corrections: dict[tuple[str, str], Corrections]) -> Snapshot:
        src = self.config.source
        cache = Cache.default(src.use_cache)
        drafts = [DraftFile(path, name, state) for path, name, state in src.drafts]
        corpus = load(list(src.dirs) or None, (), cache, drafts)
        settings = corpus.settings
        thresholds = DEFAULT_THRESHOLDS.with_settings(settings.thresholds, settings.file, dict(src.overrides))
        study = Study(corpus.select(), thresholds, corrections, cache=cache)
        site = plan(corpus, study)
        comps = tuple(run_comparisons(study, corpus, None))
        changes: dict[str, Located] = {}
        order: list[str] = []
        for a in site.articles:
            for pv in a.pairs:
                comp = study.compare(pv.old, pv.new)
                for ch in pv.changes:
                    if ch.id not in changes:
                        changes[ch.id] = Located(ch, comp, a.number)
                        order.append(ch.id)
        for comp in comps:
            for ch in comp.changes:
                changes.setdefault(ch.id, Located(ch, comp, ""))
        on_pages = {cid: (f.change, f.comparison.old, f.comparison.new) for cid, f in changes.items()}
        return Snapshot(key, corpus, study, site, comps, changes, tuple(order), on_pages)

    # -- the review -----------------------------------------------------

    def review(self, snap: Snapshot) -> tuple[int, ReviewView]:
        """The store's version and its decisions matched to the snapshot's run (made once per version)."""
        store = self.store()
        version = store.version()
        kept = self._view
        if kept is not None and kept[0] == snap.key and kept[1] == version:
            return version, kept[2]
        with self._view_lock:
            kept = self._view
            if kept is not None and kept[0] == snap.key and kept[1] == version:
                return version, kept[2]
            view = attach(store, snap.comparisons, snap.editions)
            self._view = (snap.key, version, view)
        return version, view

    def of_version(self, name: str, version: int, make: Callable[[], T]) -> T:
        """What ``make`` reads from the store, read once per store version (every member's page
        after a write needs the same: who decided each change, each row's last write)."""
        with self._view_lock:
            kept = self._of_version.get(name)
            if kept is not None and kept[0] == version:
                return cast(T, kept[1])
        made = make()
        with self._view_lock:
            self._of_version[name] = (version, made)
        return made

    # -- rendered pages -------------------------------------------------

    def page(self, key: tuple[str, ...], render: Callable[[], str]) -> str:
        """A rendered page by its key (page, role, snapshot, store version), rendered when not kept.

        Members who ask for the same page at once wait for one rendering
        instead of each making it: after a write, everyone's next view of
        the page needs the new one.
        """
        with self._pages_lock:
            found = self._pages.get(key)
            if found is not None:
                self._pages.move_to_end(key)
                return found
            making = self._making.setdefault(key, threading.Lock())
        with making:
            with self._pages_lock:
                found = self._pages.get(key)
            if found is not None:
                return found
            made = render()
            with self._pages_lock:
                self._pages[key] = made
                self._making.pop(key, None)
                while len(self._pages) > PAGES_KEPT:
                    self._pages.popitem(last=False)
        return made
