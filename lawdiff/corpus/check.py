"""``lawdiff check`` page by page: each page read, accounted for and outlined, then dropped.

What check reports needs few of the clause trees' words: per page the
lossless accounting (:mod:`lawdiff.corpus.account`); per edition of the
timeline the clauses two pages give with different wording, and the
references whose target the edition does not hold.  So each page's tree is
kept only as an :class:`Outline`: its addresses and nesting, where each
clause starts, its title, a digest of its text, and its references.  An
export of 10,000 section pages is then checked in a fraction of the memory
its clause trees take (see ``benchmarks/bench_xml.py``).

The outlines are merged edition by edition exactly as
:class:`lawdiff.corpus.merge._EditionBuilder` merges the trees (same order,
same first clause of an address, same children sorted where several files
gave them), and walked in the order of :meth:`lawdiff.model.Edition.walk`,
so that the report is the one the full corpus gives, byte for byte.  Two
things need the words themselves, and are rare: a clause that two pages give
with different wording (the report prints both texts), and amendment pages
(their versions are built from the trees).  When either turns up, the
corpus is read the full way (:func:`lawdiff.corpus.load`) and that is what
is reported.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import multiprocessing
import os
import pickle
import re
import sys
from array import array
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING

from lawdiff.cache import Cache, key
from lawdiff.corpus import timeline
from lawdiff.corpus.account import PageCheck
from lawdiff.corpus.dangling import Dangling, dangling_references
from lawdiff.corpus.merge import DRAFT_YEAR
from lawdiff.corpus.settings import SETTINGS_FILE, Settings, read_settings
from lawdiff.errors import InputError, LawdiffBug, UsageError
from lawdiff.model import Edition, Kind, Loc, NavItem, SourceFile, article_of, natural_key, normalize_address
from lawdiff.model.references import find_references, references_in
from lawdiff.sources import READERS, SNIFF_BYTES, _checked, iter_file, mediawiki
from lawdiff.sources.base import Page
from lawdiff.sources.build import Draft, PageTree, link_spans

if TYPE_CHECKING:
    from lawdiff.sources.mediawiki.transclusion import Expanded

__all__ = ["Outline", "check", "outline"]

# What a clause of an outline is: a footnote (merged among its parent's
# footnotes, not its children), and whether it has text.
_FOOTNOTE = 1
_TEXT = 2

# The digest of a clause's text: two texts are told apart by it (128 bits:
# two different texts have the same digest with a chance of 2**-128).
_DIGEST_SIZE = 16
_NO_TEXT = bytes(_DIGEST_SIZE)

# How much of a file is hashed at a time for its cache key.
_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class Outline:
    """What ``lawdiff check`` keeps of one page's clause tree.

    The clauses are listed in the order the merge meets them: a clause, its
    footnotes, then its children, each with what follows it.

    addresses: each clause's address.
    parents: the index of each clause's parent in this outline, -1 for a root.
    flags: per clause, ``_FOOTNOTE`` and ``_TEXT``.
    titles: each clause's title ("" for none).
    digests: the text digests, :data:`_DIGEST_SIZE` bytes a clause (zeros for no text).
    lines, places: where each clause starts: its line, and the (file, path)
        of its :class:`~lawdiff.model.Loc`, an index into ``places``.
    where: per clause, the index of its place in ``places``.
    refs: for the clauses with references, the target and the printed text
        of each, one after the other: (target, printed, target, printed...).
    """

    addresses: tuple[str, ...]
    parents: array[int]
    flags: bytes
    titles: tuple[str, ...]
    digests: bytes
    lines: array[int]
    where: array[int]
    places: tuple[tuple[str, str], ...]
    refs: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def source(self, i: int) -> Loc:
        file, path = self.places[self.where[i]]
        return Loc(file, self.lines[i], path)

    def digest(self, i: int) -> bytes:
        return self.digests[i * _DIGEST_SIZE : (i + 1) * _DIGEST_SIZE]


def outline(tree: PageTree) -> Outline:
    """The outline of a page's tree, as :func:`lawdiff.sources.build.build_page` leaves it (texts joined)."""
    addresses: list[str] = []
    parents = array("i")
    flags = bytearray()
    titles: list[str] = []
    digests = bytearray()
    lines = array("i")
    where = array("i")
    places: dict[tuple[str, str], int] = {}
    refs: dict[int, tuple[str, ...]] = {}
    blake2b = hashlib.blake2b
    intern = sys.intern
    footnote = Kind.FOOTNOTE
    # Depth first, in the merge's order: a clause, its footnotes, its children.
    stack: list[tuple[Draft, int]] = [(d, -1) for d in reversed(tree.roots)]
    while stack:
        d, parent = stack.pop()
        i = len(addresses)
        # Addresses repeat from edition to edition (45C4 in each): one string for all.
        addresses.append(intern(d.address))
        parents.append(parent)
        text = d.text
        titles.append(d.title)
        if text:
            flags.append(_TEXT | _FOOTNOTE if d.kind is footnote else _TEXT)
            digests += blake2b(text.encode("utf-8", "surrogatepass"), digest_size=_DIGEST_SIZE).digest()
        else:
            flags.append(_FOOTNOTE if d.kind is footnote else 0)
            digests += _NO_TEXT
        links = link_spans(d.inlines) if d.inlines else None
        if links:
            found = [(r.target, r.printed) for r in references_in(text, links)]
        elif text:
            # references_in without links: the references read from the words, in order.
            found = [(target, text[start:end]) for target, start, end in find_references(text)]
        else:
            found = []
        if found:
            # References repeat ("artikel 45", page after page): one string for each.
            refs[i] = tuple(intern(s) for pair in found for s in pair)
        loc = d.source
        lines.append(loc.line)
        place = (loc.file, loc.path)
        at = places.get(place)
        if at is None:
            at = places[place] = len(places)
        where.append(at)
        # (No generator expressions here: one costs more than the rest of a clause.)
        for c in reversed(d.children):
            stack.append((c, i))
        for f in reversed(d.footnotes):
            stack.append((f, i))
    return Outline(
        tuple(addresses), parents, bytes(flags), tuple(titles), bytes(digests), lines, where, tuple(places), refs
    )


# One page as check keeps it: the page without its blocks, fragments and
# furniture (as :func:`lawdiff.corpus.timeline.read_page` slims it), its
# accounting, and its outline.
Record = tuple[Page, PageCheck, Outline]


class _NeedsWords(Exception):
    """The report needs the clause trees' words (a conflict, an amendment): read the corpus whole."""


def check(paths: list[Path] | None = None, cache: Cache | None = None) -> tuple[timeline.Corpus, list[Dangling]]:
    """Everything ``lawdiff check`` reports on the files under ``paths`` (default: the bundled corpus).

    Returns the corpus, whose editions are named and hold their conflicts
    but none of their clauses (unless it had to be read whole, see the
    module docstring), and the references that lead nowhere, edition by
    edition as :func:`lawdiff.corpus.dangling_references` lists them.
    """
    from lawdiff.corpus import corpus_files, default_corpus, load

    roots = paths or [default_corpus()]
    cache = cache or Cache(None)
    paused = gc.isenabled()
    # As in lawdiff.corpus.load: reading makes many small objects and no cycles.
    gc.disable()
    try:
        ignored: list[str] = []
        files = corpus_files(roots, ignored)
        records: list[Record] = []
        for path, display, hint in files:
            try:
                records.extend(_read_cached(path, display, hint, cache))
            except InputError as exc:
                exc.file = str(path)  # the path as given, as lawdiff.corpus.load names it
                raise
        if not records:
            raise UsageError(
                f"{', '.join(str(r) for r in roots)}: no editions found (the folder holds no dump)",
                fix="give a folder with wiki pages or Nuxt payloads, e.g. corpus/2017/",
            )
        try:
            corpus, dangling = _survey(records, tuple(str(r) for r in roots), read_settings(roots))
        except InputError as exc:
            given = {display: str(path) for path, display, _ in files}
            exc.file = given.get(exc.file, exc.file)
            raise
        except _NeedsWords:
            records.clear()
            corpus = load(roots, cache=cache)
            return corpus, [d for e in corpus.editions for d in dangling_references(e)]
        return replace(corpus, skipped=tuple(ignored)), dangling
    finally:
        if paused:
            gc.enable()


def _read_cached(path: Path, display: str, hint: str, cache: Cache) -> list[Record]:
    """A file's pages as check keeps them, from the cache when the file's content is known."""
    k = ""
    if cache.folder is not None:
        content = _content_hash(path)
        if content:
            k = key("file", content, display, hint)
            hit = cache.get("outlines", k)
            if isinstance(hit, list):
                return hit
    read = list(_records(path, display, hint))
    if k and read:
        cache.put("outlines", k, read)
    return read


def _content_hash(path: Path) -> bytes:
    """The SHA-256 of a file, read in pieces (a large dump is never held whole for its key); b"" if unreadable."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            while chunk := fh.read(_CHUNK):
                digest.update(chunk)
    except OSError:
        return b""  # iter_file says what is wrong
    return digest.digest()


def _records(path: Path, display: str, hint: str) -> Iterator[Record]:
    """A file's pages as check keeps them; a large MediaWiki export's made in several processes."""
    workers = jobs() - 1  # besides this process
    if workers > 0 and _large_export(path) and "fork" in multiprocessing.get_all_start_methods():
        with _Workers(workers) as pool:
            render, expanded = mediawiki.read_jobs(path, display)
            for page, page_check, page_outline in pool.records(render, expanded):
                # iter_file's refusal of edition names lawdiff keeps for itself, page by page.
                for _ in _checked([page]):
                    yield page, page_check, _interned(page_outline)
        return
    for page in iter_file(path, display, hint):
        yield _record(page)


def _record(page: Page) -> Record:
    # timeline.read_page, looked up when called: the same tree and
    # accounting as the full corpus gets (and the tests' stand-ins for it).
    tree, page_check = timeline.read_page(page)
    return tree.page, page_check, outline(tree)


# ---------------------------------------------------------------------------
# A large export in several processes
#
# The parent reads the export and expands each page (what needs the whole
# dump's text); the workers make each expanded page lines, a tree, its
# accounting and its outline (nine tenths of the time), knowing only the
# dump's titles.  The workers are forked before the export is read: forked
# after, each would share the parent's copy of the dump and be counted with
# it again in its resident memory; started afresh ("spawn"), each would run
# the caller's main script again.

# An export smaller than this is read in the one process (the workers cost
# a few tenths of a second).
PARALLEL_MIN_BYTES = 4_000_000
# How much expanded text makes a batch of pages, and how many batches are
# queued for each worker (one being read, one waiting in its pipe).
_BATCH_CHARS = 100_000
_QUEUED_PER_WORKER = 2


# The most processes check reads an export in unless LAWDIFF_JOBS says
# otherwise: each worker holds 40-50 MB (the interpreter, the titles, a batch
# of pages), and with the parent three stay well within 300 MB on the
# largest exports the wiki has.
MAX_JOBS = 3


def jobs() -> int:
    """How many processes read a large export: ``LAWDIFF_JOBS`` (as the report reads it), else one per CPU,
    at most :data:`MAX_JOBS`."""
    env = os.environ.get("LAWDIFF_JOBS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, min(MAX_JOBS, os.cpu_count() or 1))


def _large_export(path: Path) -> bool:
    """Whether iter_file would read the file as a MediaWiki export (the first streaming reader that claims it),
    and it is large enough to be worth the workers."""
    try:
        if path.stat().st_size < PARALLEL_MIN_BYTES:
            return False
        with path.open("rb") as stream:
            head = stream.read(SNIFF_BYTES).decode("utf-8", "replace")
    except OSError:
        return False  # iter_file says what is wrong
    reader = next((r for r in READERS if r.read_path is not None and r.looks_like(head)), None)
    return reader is not None and reader.name == mediawiki.FORMAT


class _Workers:
    """Forked processes that make records of expanded pages beside the parent, each fed through its own pipe.

    The parent sends each worker the export's titles once, then keeps two
    batches of pages queued for each, and reads a batch itself while they
    work; the records come back in the pages' order.  A worker's error is
    raised in the parent; a worker that dies is a bug.
    """

    def __init__(self, n: int) -> None:
        context = multiprocessing.get_context("fork")
        self.conns: list[Connection] = []
        self.procs: list[BaseProcess] = []
        for _ in range(n):
            mine, theirs = context.Pipe()
            proc = context.Process(target=_worker, args=(theirs,), daemon=True)
            proc.start()
            theirs.close()
            self.conns.append(mine)
            self.procs.append(proc)

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        for conn in self.conns:
            with contextlib.suppress(OSError):
                conn.send(None)
            conn.close()
        for proc in self.procs:
            # After an error, what the workers still hold is not wanted.
            proc.join(timeout=5 if kind is None else 0)
            if proc.is_alive():
                proc.terminate()
                proc.join()

    def records(self, render: Callable[[Expanded], Page], expanded: Iterator[Expanded]) -> Iterator[Record]:
        for conn in self.conns:
            conn.send(("titles", render))
        batches = _batches(expanded)
        queued: dict[Connection, deque[int]] = {conn: deque() for conn in self.conns}
        done: dict[int, list[Record]] = {}
        sent = given = 0
        more = True
        while more or any(queued.values()):
            for conn, waiting in queued.items():
                while more and len(waiting) < _QUEUED_PER_WORKER:
                    batch = next(batches, None)
                    if batch is None:
                        more = False
                        break
                    conn.send(("pages", batch))
                    waiting.append(sent)
                    sent += 1
            if more and (batch := next(batches, None)) is not None:
                # The parent's own share, while the workers are busy.
                done[sent] = [_record(render(job)) for job in batch]
                sent += 1
            else:
                more = False
            busy = [conn for conn, waiting in queued.items() if waiting]
            # Wait for a worker only when the parent has nothing left to read itself.
            ready = wait(busy, timeout=None if not more else 0) if busy else []
            for conn in [c for c in busy if c in ready]:
                try:
                    kind, payload = conn.recv()
                except EOFError:
                    raise LawdiffBug("a process reading the export stopped without a word") from None
                if kind == "error":
                    raise payload
                done[queued[conn].popleft()] = payload
            while given in done:
                yield from done.pop(given)
                given += 1


def _batches(expanded: Iterator[Expanded]) -> Iterator[list[Expanded]]:
    batch: list[Expanded] = []
    size = 0
    for job in expanded:
        batch.append(job)
        size += sum(len(f.text) for f in job.frags)
        if size >= _BATCH_CHARS:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _worker(conn: Connection) -> None:
    """A worker's loop: the titles, then batches of pages until told to stop."""
    render: Callable[[Expanded], Page] | None = None
    try:
        while (message := conn.recv()) is not None:
            kind, payload = message
            if kind == "titles":
                render = payload
                continue
            if render is None:
                raise LawdiffBug("a check worker was given pages before the export's titles")
            try:
                records = [_record(render(job)) for job in payload]
            except Exception as exc:  # not caught: raised again in the parent, in order
                conn.send(("error", _sendable(exc)))
            else:
                conn.send(("records", records))
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the parent is gone or stopped reading, or the user stopped it: the parent says so
    finally:
        conn.close()


def _sendable(exc: Exception) -> Exception:
    """The exception to raise in the parent: itself, or a bug that names it when it cannot be pickled."""
    try:
        pickle.dumps(exc)
    except Exception:  # any failure to pickle: name the exception instead
        return LawdiffBug(f"in a process reading the export: {type(exc).__name__}: {exc}")
    return exc


def _interned(o: Outline) -> Outline:
    """An outline from a worker, its strings made one with the same strings of other pages (as :func:`outline` does)."""
    intern = sys.intern
    refs = {i: tuple(intern(s) for s in r) for i, r in o.refs.items()}
    return replace(o, addresses=tuple(intern(a) for a in o.addresses), refs=refs)


def _survey(
    records: list[Record], roots: tuple[str, ...], settings: Settings
) -> tuple[timeline.Corpus, list[Dangling]]:
    """The editions of :func:`lawdiff.corpus.timeline.from_trees`, from outlines; their dangling references."""
    resolved = timeline._resolve_editions([(PageTree(p, [], []), c) for p, c, _ in records])
    pages = [t.page for t, _ in resolved]
    checks = [c for _, c in resolved]
    outlines = [o for _, _, o in records]
    have = {p.edition for p in pages if not p.effective}
    if any(p.effective and p.edition in have for p in pages):
        raise _NeedsWords("amendment pages: their versions are built from the trees")
    families: dict[str, set[str]] = {}
    for p in pages:
        families.setdefault(p.edition, set()).add(timeline.FAMILY.get(p.format, p.format))
    # The merge order of from_trees: container pages first, a draft's pages in its order.
    deepest: dict[str, int] = {}
    for p in pages:
        deepest[p.file] = max(deepest.get(p.file, 0), len(p.containers))

    def order(i: int) -> tuple[int, str]:
        p = pages[i]
        depth = deepest[p.file] if timeline.FAMILY.get(p.format) == "draft" else len(p.containers)
        return -depth, p.file

    builders: dict[tuple[str, str], _EditionOutline] = {}
    for i in sorted(range(len(pages)), key=order):
        p = pages[i]
        year = p.edition
        family = timeline.FAMILY.get(p.format, p.format)
        name = f"{year}@{family}" if len(families[year]) > 1 else year
        builders.setdefault((year, family), _EditionOutline(name)).add(p, outlines[i])
    # from_trees: the variants by year and name (their printings are known only after).
    variants = sorted(builders.values(), key=lambda b: (b.edition().year, b.edition().name))
    named = [(timeline._with_printing(b.edition(), settings), b) for b in variants]
    line: list[tuple[Edition, _EditionOutline]] = []
    choices: dict[str, str] = {}
    for year in sorted(families, key=lambda y: (int(y[:4]) if y[:4].isdigit() else 0, y)):
        of_year = [(e, b) for e, b in named if timeline._year_of(e) == year]
        chosen = timeline._default_variant(year, [e for e, _ in of_year], settings)
        builder = next(b for e, b in of_year if e is chosen)
        if len(of_year) > 1:
            choices[year] = (
                f"chosen in {SETTINGS_FILE}"
                if year in settings.default
                else "the newer printing, as no setting chooses"
            )
        line.append((chosen if len(of_year) == 1 else replace(chosen, name=year, variant=chosen.variant), builder))
    # Only the timeline's editions are reported on: each merged, walked and dropped in turn.
    dangling: list[Dangling] = []
    for edition, builder in line:
        dangling.extend(builder.dangling(edition.name))
    corpus = timeline.Corpus(
        tuple(e for e, _ in line), tuple(checks), roots, tuple(e for e, _ in named), choices, settings
    )
    return corpus, dangling


class _EditionOutline:
    """The outlines of one edition's pages, merged as :class:`lawdiff.corpus.merge._EditionBuilder` merges trees.

    Pages are added in the merge order; the merge itself runs when the
    edition's dangling references are asked for, and is dropped after.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.pages: list[tuple[str, Outline]] = []
        self.sources: list[SourceFile] = []
        self.navigation: tuple[NavItem, ...] = ()
        self._hollow: Edition | None = None

    def add(self, page: Page, page_outline: Outline) -> None:
        self.sources.append(
            SourceFile(page.file, page.format, page.name, page.printing, dict(page.meta).get("pages", ""))
        )
        if page.navigation and not self.navigation:
            self.navigation = tuple(NavItem(n.depth, n.title, n.address, n.path) for n in page.navigation)
        self.pages.append((page.file, page_outline))

    def edition(self) -> Edition:
        """The edition as :meth:`_EditionBuilder.build` names it, without clauses."""
        if self._hollow is None:
            year_m = re.match(r"\d{4}", self.name)
            drafts = all(s.format.startswith("draft-") for s in self.sources)
            self._hollow = Edition(
                name=self.name,
                year=int(year_m.group(0)) if year_m else DRAFT_YEAR if drafts else 0,
                clauses=(),
                sources=tuple(self.sources),
                navigation=self.navigation,
            )
        return self._hollow

    def dangling(self, name: str) -> list[Dangling]:
        """The references of the merged edition whose target it does not hold, in its walk order."""
        merged = _Merged()
        for file, page_outline in self.pages:
            merged.add(page_outline, file)
        order = merged.walk(len({s.file for s in self.sources}) > 1, self.navigation)
        held = {merged.address[m] for m in order}

        def holds(address: str) -> bool:
            # Edition.find: the address as given, else normalized.
            return address in held or normalize_address(address) in held

        out: list[Dangling] = []
        for m in order:
            refs = merged.text_outline[m].refs.get(merged.text_index[m], ())
            for target, printed in zip(refs[::2], refs[1::2], strict=True):
                if holds(target):
                    continue
                art = article_of(target)
                source = merged.src_outline[m].source(merged.src_index[m])
                out.append(Dangling(name, merged.address[m], target, printed, source, bool(art) and not holds(art)))
        return out


class _Merged:
    """One edition's clauses merged from outlines: the clause first met at an address is the clause.

    Clause ``m`` keeps where it was first met (its source), the title and
    the text it holds now: its own, or the first that another page gave it
    while it had none.  Its references go with its text (they are read from
    the text and its links).
    """

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.address: list[str] = []
        self.src_outline: list[Outline] = []
        self.src_index = array("i")
        self.title: list[str] = []
        self.text_outline: list[Outline] = []
        self.text_index = array("i")
        self.roots: list[int] = []
        self.children: dict[int, list[int]] = {}
        self.footnotes: dict[int, list[int]] = {}
        self.contributed: dict[int, set[str]] = {}

    def add(self, o: Outline, file: str) -> None:
        merged = array("i", bytes(4 * len(o.addresses)))
        for i, address in enumerate(o.addresses):
            p = o.parents[i]
            parent = merged[p] if p >= 0 else -1
            m = self.index.get(address)
            if m is None:
                m = len(self.address)
                self.index[address] = m
                self.address.append(address)
                self.src_outline.append(o)
                self.src_index.append(i)
                self.title.append(o.titles[i])
                self.text_outline.append(o)
                self.text_index.append(i)
                if parent < 0:
                    self.roots.append(m)
                else:
                    siblings = self.footnotes if o.flags[i] & _FOOTNOTE else self.children
                    siblings.setdefault(parent, []).append(m)
            else:
                self._fields(m, o, i)
            if parent >= 0:
                self.contributed.setdefault(parent, set()).add(file)
            merged[i] = m

    def _fields(self, m: int, o: Outline, i: int) -> None:
        """_EditionBuilder._fields: two wordings of a title or text are a conflict; a missing one is filled in."""
        a, b = self.title[m], o.titles[i]
        if a and b and a != b:
            raise _NeedsWords(f"{self.address[m]}: two titles")
        if b and not a:
            self.title[m] = b
        if o.flags[i] & _TEXT:
            held, at = self.text_outline[m], self.text_index[m]
            if not held.flags[at] & _TEXT:
                self.text_outline[m] = o
                self.text_index[m] = i
            elif held.digest(at) != o.digest(i):
                raise _NeedsWords(f"{self.address[m]}: two texts")

    def walk(self, several_files: bool, navigation: tuple[NavItem, ...]) -> list[int]:
        """The clauses in :meth:`Edition.walk` order, after :meth:`_EditionBuilder.build`'s sorting."""
        # _EditionBuilder._order: children given by several files, in label order.
        stack = list(self.roots)
        while stack:
            m = stack.pop()
            kids = self.children.get(m)
            if kids:
                if len(self.contributed.get(m, ())) > 1:
                    kids.sort(key=lambda c: natural_key(self.address[c]))
                stack.extend(kids)
        roots = self.roots
        if several_files:
            position: dict[str, int] = {}
            for i, n in enumerate(navigation):
                position.setdefault(n.address, i)
            end = len(position)
            roots = sorted(roots, key=lambda c: (position.get(self.address[c], end), natural_key(self.address[c])))
        # Clause.walk: a clause, its footnotes (themselves only), then its children's walks.
        out: list[int] = []
        todo = list(reversed(roots))
        while todo:
            m = todo.pop()
            out.append(m)
            out.extend(self.footnotes.get(m, ()))
            todo.extend(reversed(self.children.get(m, ())))
        return out
