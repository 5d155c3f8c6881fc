"""A corpus: folders of dumps, read into one clause tree per edition.

A corpus folder holds any number of files of any known format, usually in
``<year>/`` subfolders (``corpus/2007/...``); the format is recognised by
content.  Pages of one edition are merged by address: the same clause from two
files is one clause, and where their wording differs a :class:`Conflict` is
recorded for ``lawdiff check``.

The package also does the lossless accounting behind ``lawdiff check``: for
each page, every word and sign of its source text (after the normalization of
:mod:`lawdiff.sources.normalize`, and apart from the furniture a reader
declares, such as list bullets and the ``---`` rule) must be found among the
strings of the tree built from it (:mod:`lawdiff.corpus.account`).

Modules: ``account`` (lossless accounting), ``merge`` (pages of an edition
into one tree), ``settings`` (``lawdiff.toml``), ``timeline`` (editions,
sources of a year, amended versions), ``dangling`` (references that lead
nowhere); this module finds and reads the files.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

from lawdiff.cache import Cache, key
from lawdiff.collector import collector_paused
from lawdiff.corpus.account import PageCheck, Unplaced, account, tokens
from lawdiff.corpus.dangling import Dangling, dangling_references
from lawdiff.corpus.settings import SETTINGS_FILE, Settings, read_settings
from lawdiff.corpus.timeline import FAMILY, Corpus, from_pages, from_trees, read_page
from lawdiff.errors import InputError, UsageError
from lawdiff.sources import iter_file
from lawdiff.sources.build import PageTree
from lawdiff.sources.draft import read_draft
from lawdiff.sources.wikiname import parse_title

__all__ = [
    "FAMILY",
    "SETTINGS_FILE",
    "Corpus",
    "Dangling",
    "DraftFile",
    "PageCheck",
    "Settings",
    "Unplaced",
    "account",
    "corpus_files",
    "dangling_references",
    "default_corpus",
    "from_pages",
    "from_trees",
    "load",
    "read_settings",
    "tokens",
]

_YEAR_DIR = re.compile(r"^(\d{4})(?:[+@].*)?$")


def default_corpus() -> Path:
    """The bundled corpus: shipped inside the package, or the repository's ``corpus/``."""
    packaged = resources.files("lawdiff") / "data" / "corpus"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent.parent / "corpus"


# The kinds of file a corpus folder is read for (a file without an extension
# too): every other file (a README.md, a review store, notes) is skipped, and
# ``lawdiff check`` lists it.  A file of these kinds is read, or refused with
# a message: a .docm is refused, not skipped, so that its owner learns why.
READ_SUFFIXES = frozenset({"", ".txt", ".json", ".xml", ".docx", ".odt", ".docm", ".dotx", ".dotm", ".ott"})


def corpus_files(paths: list[Path], skipped: list[str] | None = None) -> list[tuple[Path, str, str]]:
    """Files to read: (path, display name, edition hint from a year folder).

    Files are named in reports relative to their corpus folder
    (``2017/nuxt-artikel-45.payload.json``), so that reports read the same on
    every machine; error messages name the path as given (see :func:`load`).
    Files in a folder that no reader takes (see :data:`READ_SUFFIXES`) are
    added to ``skipped`` instead; a file named on its own is always read.
    """
    out: list[tuple[Path, str, str]] = []
    for root in paths:
        if root.is_dir():
            for f in sorted(root.rglob("*")):
                rel = f.relative_to(root)
                if not f.is_file() or f.name == SETTINGS_FILE:
                    continue
                if any(p.startswith(".") for p in rel.parts) or f.suffix.lower() not in READ_SUFFIXES:
                    if skipped is not None:
                        skipped.append(rel.as_posix() if len(paths) == 1 else f"{root.name}/{rel.as_posix()}")
                    continue
                hint = next((m.group(1) for p in reversed(rel.parts[:-1]) if (m := _YEAR_DIR.match(p))), "")
                display = rel.as_posix() if len(paths) == 1 else f"{root.name}/{rel.as_posix()}"
                out.append((f, display, hint))
        elif root.exists():
            m = _YEAR_DIR.match(root.parent.name)
            out.append((root, str(root), m.group(1) if m else ""))
        else:
            raise UsageError(f"{root}: no such file or folder", fix="give an existing corpus folder or file")
    return out


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
    k = ""
    if cache.folder is not None:
        try:
            data = path.read_bytes()
        except OSError:
            data = b""
        if data:
            k = key("file", hashlib.sha256(data).digest(), display, hint)
            hit = cache.get("pages", k)
            if isinstance(hit, list):
                return hit
    # One page at a time: a large dump is never held as rendered pages all at once.
    read = [read_page(p) for p in iter_file(path, display, hint)]
    if k:
        cache.put("pages", k, read)
    return read
