"""Reading a corpus: every file's pages into trees with their accounting, from the cache when known.

The files are found by :mod:`lawdiff.corpus.files`; the pages are merged
into editions by :mod:`lawdiff.corpus.timeline`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from lawdiff.cache import Cache
from lawdiff.collector import collector_paused
from lawdiff.corpus.account import PageCheck
from lawdiff.corpus.files import corpus_files, default_corpus
from lawdiff.corpus.settings import read_settings
from lawdiff.corpus.timeline import Corpus, from_trees, read_page
from lawdiff.errors import InputError, UsageError
from lawdiff.sources import iter_file
from lawdiff.sources.build import PageTree
from lawdiff.sources.draft import read_draft
from lawdiff.sources.wikiname import parse_title

__all__ = ["DraftFile", "load"]


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
    read: list[tuple[PageTree, PageCheck]] = []
    skipped = False
    for path, display, hint in files:
        if years is not None and _sniff_year(path) not in (None, *years):
            skipped = True
            continue
        try:
            read.extend(_read_cached(path, display, hint, cache))
        except InputError as exc:
            # The message must lead the user to the file: the path as given.
            exc.file = str(path)
            raise
    for draft in drafts:
        try:
            read.extend(read_page(p) for p in read_draft(draft.path, draft.name, draft.state))
        except InputError as exc:
            exc.file = str(draft.path)
            raise
    if not read and not skipped:
        raise UsageError(
            f"{', '.join(str(r) for r in roots)}: no editions found (the folder holds no dump)",
            fix="give a folder with wiki pages or Nuxt payloads, e.g. corpus/2017/",
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
        with path.open("rb") as fh:
            head = fh.read(512)
    except OSError:
        return None  # read_file will say what is wrong
    first = head.decode("utf-8", "replace").lstrip("\ufeff").split("\n", 1)[0].strip()
    name = parse_title(first)
    return name.edition[:4] if name is not None and len(head) > len(first) else None


def _read_cached(path: Path, display: str, hint: str, cache: Cache) -> list[tuple[PageTree, PageCheck]]:
    """A file's pages as trees with their accounting, from the cache when the file's content is known."""
    # One page at a time: a large dump is never held as rendered pages all at once.
    return cache.by_file("pages", path, (display, hint), lambda: [read_page(p) for p in iter_file(path, display, hint)])
