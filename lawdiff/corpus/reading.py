"""Reading a corpus: every file's pages into trees with their accounting, from the cache when known.

The files are found by :mod:`lawdiff.corpus.files`; the pages are merged
into editions by :mod:`lawdiff.corpus.timeline`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from lawdiff.cache import Cache
from lawdiff.corpus.account import PageCheck
from lawdiff.corpus.files import corpus_files, default_corpus, unreadable
from lawdiff.corpus.settings import read_settings
from lawdiff.corpus.timeline import Corpus, from_trees, read_page
from lawdiff.errors import InputError, UsageError
from lawdiff.forked import collector_paused, jobs
from lawdiff.i18n import gettext as _
from lawdiff.sources import iter_file
from lawdiff.sources.build import PageTree
from lawdiff.sources.draft import read_draft
from lawdiff.sources.wikiname import parse_title

__all__ = ["FORK_MIN_BYTES", "DraftFile", "load"]

# Less text than this is read in the one process: a forked reader and its pages sent back cost about a
# hundredth of a second, what a quarter of a megabyte of wiki pages takes to read in two processes instead
# of one.
FORK_MIN_BYTES = 256_000
# A corpus with a file larger than this (a MediaWiki export of a whole edition) is read in the one process:
# a file's trees sent back pickled would be held twice over, in both processes, for a gain that reading
# the export (mostly expanding its pages in order) hardly has.
FORK_MAX_FILE_BYTES = 16_000_000
# The most processes that read a corpus's files (LAWDIFF_JOBS may say otherwise).
MAX_READERS = 4


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A file that cannot be read: its error's parts, as plain values (sent back by a forked reader)."""

    what: str
    place: str
    fix: str

    def error(self, file: str) -> InputError:
        return InputError(self.what, file=file, place=self.place, fix=self.fix)


@dataclass(frozen=True, slots=True)
class DraftFile:
    """A draft given beside the corpus (``--draft FILE --as NAME``).

    name: the edition it is read as ("" for a year in its file or folder name).
    state: ``accepted`` (tracked changes accepted) or ``original``.
    """

    path: Path
    name: str = ""
    state: str = "accepted"


def load(
    paths: list[Path] | None = None,
    editions: Iterable[str] = (),
    cache: Cache | None = None,
    drafts: Iterable[DraftFile] = (),
) -> Corpus:
    """Read every file under ``paths`` (default: the bundled corpus); see :func:`_load`.

    The cyclic garbage collector is paused while the corpus is read: reading
    makes millions of small objects and no reference cycles, so that its
    passes over the growing heap cost a fifth of the time and free nothing.
    """
    with collector_paused():
        return _load(paths, editions, cache, drafts)


def _load(
    paths: list[Path] | None,
    editions: Iterable[str],
    cache: Cache | None,
    drafts: Iterable[DraftFile],
) -> Corpus:
    """Read every file under ``paths`` (default: the bundled corpus).

    ``editions``: when given, only the files that may hold those editions are
    read (a wiki page's title line names its edition; files of other formats
    are always read), and the corpus holds only those editions' years.
    ``cache``: where each file's pages, trees and accounting are kept, by
    the file's content (see :mod:`lawdiff.cache`).  ``drafts``: draft files
    read as editions beside the corpus.
    """
    roots = paths or [default_corpus()]
    ignored: list[str] = []
    files = corpus_files(roots, ignored)
    years = _years(editions)
    cache = cache or Cache(None)
    wanted = [f for f in files if years is None or _sniff_year(f[0]) in (None, *years)]
    skipped = len(wanted) < len(files)
    read: list[tuple[PageTree, PageCheck]] = []
    errors: list[InputError] = []
    for (path, _display, hint), pages in zip(wanted, _read_files(wanted, cache), strict=True):
        if not isinstance(pages, Unreadable):
            read.extend(pages)
        elif years is not None and hint and hint not in years:
            # A file that cannot be read in the folder of an edition not asked for (1963/ when 2007 and
            # 2017 are compared) is passed over: it cannot be known to hold them, and `check` names it.
            skipped = True
        else:
            errors.append(pages.error(str(path)))
    if errors:
        raise unreadable(errors)
    for draft in drafts:
        try:
            read.extend(read_page(p) for p in read_draft(draft.path, draft.name, draft.state))
        except InputError as exc:
            exc.file = str(draft.path)
            raise
    if not read and not skipped:
        raise UsageError(
            _("{names}: no editions found (the folder holds no dump)").format(names=", ".join(str(r) for r in roots)),
            fix=_("give a folder with wiki pages or Nuxt payloads, e.g. corpus/2017/"),
        )
    try:
        corpus = from_trees(read, tuple(str(r) for r in roots), read_settings(roots))
    except InputError as exc:
        given = {display: str(path) for path, display, _ in files}
        exc.file = given.get(exc.file, exc.file)
        raise
    if skipped and not all(n in corpus.names() for n in editions):
        # An edition asked for is not where its name said: read everything,
        # so that the error lists every edition the corpus has.
        return _load(paths, (), cache, drafts)
    return replace(corpus, skipped=tuple(ignored))


def _years(names: Iterable[str]) -> set[str] | None:
    """The years of the editions named (``2017@wiki``, ``2017+2024-03-01`` -> ``2017``), or None for all."""
    years: set[str] = set()
    for name in names:
        m = re.match(r"\d{4}", name.strip())
        if not m:
            return None
        years.add(m.group(0))
    return years or None


def _sniff_year(path: Path) -> str | None:
    """The year of the edition a file holds, when its first line says it (a wiki page title); else None."""
    try:
        # The file's first bytes by the system's calls: pathlib's and io's wrappers cost twice the reading
        # (every file of a corpus is sniffed when two editions are compared).
        fd = os.open(path, os.O_RDONLY)
        try:
            head = os.read(fd, 512)
        finally:
            os.close(fd)
    except OSError:
        return None  # read_file will say what is wrong
    first = head.decode("utf-8", "replace").lstrip("\ufeff").split("\n", 1)[0].strip()
    name = parse_title(first)
    return name.edition[:4] if name is not None and len(head) > len(first) else None


def _read_files(
    files: list[tuple[Path, str, str]], cache: Cache
) -> list[list[tuple[PageTree, PageCheck]] | Unreadable]:
    """Each file's pages as trees with their accounting: what the cache knows read back here, the rest read
    in this process and, when it is enough text, one forked beside it for each other processor.  A file
    that cannot be read is its error (:class:`Unreadable`), and the others are read on.

    Reading a page is all Python: two editions of 186 articles take a sixth of a second in one process, a
    tenth in two (each process's pages sent back pickled cost a hundredth)."""
    out: dict[int, list[tuple[PageTree, PageCheck]] | Unreadable] = {}
    todo: list[int] = []
    missed: dict[int, bytes | None] = {}
    for i, (path, display, hint) in enumerate(files):
        kept, missed[i] = cache.kept_file("pages", path, (display, hint))
        if kept is None:
            todo.append(i)
        else:
            out[i] = kept
    sizes = [_size(files[i][0]) for i in todo]
    forks = sum(sizes) >= FORK_MIN_BYTES and max(sizes, default=0) <= FORK_MAX_FILE_BYTES
    processes = jobs(MAX_READERS, "read") if forks else 1

    def read(i: int) -> list[tuple[PageTree, PageCheck]] | Unreadable:
        path, display, hint = files[i]
        try:
            return _read_cached(path, display, hint, cache, missed[i])
        except InputError as exc:
            # Named by the path as given (Unreadable.error), where the message must lead the user.
            return Unreadable(exc.what, exc.place, exc.fix)

    if processes > 1:
        from lawdiff.forked import map_beside

        out.update(zip(todo, map_beside(read, todo, sizes, processes), strict=True))
    else:  # (without loading the pools, nor multiprocessing)
        out.update((i, read(i)) for i in todo)
    return [out[i] for i in range(len(files))]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # its reader says what is wrong


def _read_cached(
    path: Path, display: str, hint: str, cache: Cache, missed: bytes | None = None
) -> list[tuple[PageTree, PageCheck]]:
    """A file's pages as trees with their accounting, from the cache when the file's content is known
    (``missed``: see :meth:`Cache.by_file`)."""
    # One page at a time: a large dump is never held as rendered pages all at once.
    return cache.by_file(
        "pages", path, (display, hint), lambda: [read_page(p) for p in iter_file(path, display, hint)], missed
    )
