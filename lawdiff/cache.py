"""The on-disk cache: parsed pages and pair comparisons, keyed by what made them.

Shared by the stages (like :mod:`lawdiff.errors`): the corpus caches each
file's pages, trees and lossless accounting by the file's content; the study
caches each pair's comparison by the two editions' contents, the thresholds
and the hand corrections.  Every key also holds lawdiff's version and a
fingerprint of its own code, so that a new lawdiff never reads an old entry.

An entry is trusted only when it is whole and in its place: it starts with a
magic line and the SHA-256 of its kind, key and payload, and a payload that
does not match, or does not load, is ignored (and rebuilt by the caller).  The
kind and key are in the checksum so that a whole entry found under another
entry's name (a file copied or renamed over another in the folder; the pages
and the outlines of a file have the same key) is not taken for that one.
Entries are written to a temporary file and moved into place, so that a
reader never sees half of one.  Nothing in the cache is needed: deleting the
folder costs time only.

The folder: ``LAWDIFF_CACHE``, else ``$XDG_CACHE_HOME/lawdiff``, else
``~/.cache/lawdiff``.  ``--no-cache`` turns it off for one run,
``LAWDIFF_CACHE=off`` for good.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from lawdiff import __version__

T = TypeVar("T")

_MAGIC = b"lawdiff-cache 2\n"
_HASH_LEN = 64
# Entries older than this many days are removed when the cache is opened
# (at most once a day), so that the folder does not grow without end.
KEEP_DAYS = 30


# LAWDIFF_CACHE set to one of these turns the cache off.
OFF = frozenset({"", "off", "0", "no", "none"})


def default_folder() -> Path | None:
    """Where the cache lives unless ``LAWDIFF_CACHE`` says otherwise (None: turned off)."""
    env = os.environ.get("LAWDIFF_CACHE")
    if env is not None:
        return None if env.strip().lower() in OFF else Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "lawdiff"


_FINGERPRINT: str = ""
# The libraries whose versions shape what lawdiff computes (their own packages, not imported to be found).
_LIBRARIES = ("rapidfuzz", "diff_match_patch", "lxml")


def fingerprint() -> str:
    """lawdiff's version and a hash of its code, Python's version and the source of the libraries it computes
    with: part of every key."""
    global _FINGERPRINT
    if not _FINGERPRINT:
        digest = hashlib.sha256(__version__.encode())
        root = Path(__file__).resolve().parent
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root)
            # Code and what it reads (the lexicon, the report's stylesheet and script, which an HTML answer
            # inlines, the compiled catalogs, whose words a Dutch answer holds); not the bundled corpus a wheel
            # carries in data/corpus (its files are keyed by content).
            if path.suffix in (".py", ".toml", ".json", ".css", ".js", ".mo") and rel.parts[:2] != ("data", "corpus"):
                digest.update(rel.as_posix().encode())
                digest.update(path.read_bytes())
        # What else shapes the results: Python (its unicodedata), and the libraries that align, diff and
        # parse, by their modules' source (a new version changes at least the one that names it).
        digest.update(sys.version.encode())
        for name in _LIBRARIES:
            spec = importlib.util.find_spec(name)
            folder = Path(spec.origin).parent if spec is not None and spec.origin else None
            for path in sorted(folder.glob("*.py")) if folder is not None else ():
                digest.update(f"{name}/{path.name}".encode())
                digest.update(path.read_bytes())
        _FINGERPRINT = digest.hexdigest()
    return _FINGERPRINT


def key(*parts: str | bytes) -> str:
    """A key from its parts (and the fingerprint): 64 hex digits."""
    digest = hashlib.sha256(fingerprint().encode())
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


_CHUNK = 1 << 20


def file_hash(path: Path) -> bytes | None:
    """The SHA-256 of a file's content, read in pieces (a large dump is never held whole for its key);
    None when the file cannot be read (its reader says why)."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            while chunk := fh.read(_CHUNK):
                digest.update(chunk)
    except OSError:
        return None
    return digest.digest()


def _checksum(kind: str, k: str, payload: bytes) -> bytes:
    """What an entry's head holds: the SHA-256 of its kind, its key and its payload, as hex digits."""
    digest = hashlib.sha256(f"{kind}/{k}\n".encode())
    digest.update(payload)
    return digest.hexdigest().encode()


class Cache:
    """A folder of entries, or nothing (``Cache(None)``: every lookup misses, nothing is written)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits = 0
        self.misses = 0
        self._folders: set[Path] = set()  # the entries' folders made by this run

    @classmethod
    def default(cls, enabled: bool = True) -> Cache:
        cache = cls(default_folder() if enabled else None)
        cache.prune()
        return cache

    def prune(self, now: float | None = None) -> int:
        """Remove entries unused for :data:`KEEP_DAYS` days; at most once a day. Returns how many."""
        if self.folder is None or not self.folder.is_dir():
            return 0
        now = time.time() if now is None else now
        stamp = self.folder / ".pruned"
        try:
            if now - stamp.stat().st_mtime < 86400:
                return 0
        except OSError:
            pass
        removed = 0
        with contextlib.suppress(OSError):
            stamp.touch()
            for entry in self.folder.glob("*/*/*.pickle"):
                if now - entry.stat().st_mtime > KEEP_DAYS * 86400:
                    entry.unlink()
                    removed += 1
        return removed

    def _path(self, kind: str, k: str) -> Path | None:
        if self.folder is None:
            return None
        return self.folder / kind / k[:2] / f"{k}.pickle"

    def get(self, kind: str, k: str) -> Any:
        """The entry's value, or None when there is none that can be trusted."""
        path = self._path(kind, k)
        if path is None:
            return None
        try:
            data = path.read_bytes()
        except OSError:
            self.misses += 1
            return None
        head = len(_MAGIC) + _HASH_LEN
        payload = data[head:]
        if not data.startswith(_MAGIC) or data[len(_MAGIC) : head] != _checksum(kind, k, payload):
            self.misses += 1
            return None
        import pickle  # here: a run without the cache (--no-cache) never loads it

        try:
            value = pickle.loads(payload)
        except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError, IndexError):
            self.misses += 1
            return None
        self.hits += 1
        with contextlib.suppress(OSError):
            os.utime(path)  # in use: kept by the pruning
        return value

    def kept_file(self, kind: str, path: Path, parts: tuple[str, ...]) -> tuple[list[Any] | None, bytes | None]:
        """What is kept of the file at ``path`` under its content and ``parts`` (None when nothing is), and
        that content's hash (None without a folder, or when the file cannot be read) for :meth:`by_file`."""
        content = file_hash(path) if self.folder is not None else None
        if content is None:
            return None, None
        hit = self.get(kind, key("file", content, *parts))
        return (hit if isinstance(hit, list) else None), content

    def by_file(
        self,
        kind: str,
        path: Path,
        parts: tuple[str, ...],
        make: Callable[[], list[T]],
        missed: bytes | None = None,
    ) -> list[T]:
        """What ``make()`` reads from the file at ``path``, kept by the file's content and ``parts``.

        The file is read again to be made: what was made is kept only when the file still holds the
        content its key was made of, so that what a text saved meanwhile gives is never kept under the
        old text's key.  Nothing is kept of a file that makes nothing.  ``missed``: the content's hash
        when :meth:`kept_file` just found nothing kept under it (the file is neither hashed nor looked up
        again).
        """
        content = missed if missed is not None else file_hash(path) if self.folder is not None else None
        k = key("file", content, *parts) if content is not None else ""
        if k and missed is None:
            hit = self.get(kind, k)
            if isinstance(hit, list):
                return hit
        made = make()
        if k and made and file_hash(path) == content:
            self.put(kind, k, made)
        return made

    def put(self, kind: str, k: str, value: Any) -> None:
        """Store an entry; a cache that cannot be written is silently skipped (it is only a cache)."""
        path = self._path(kind, k)
        if path is None:
            return
        import pickle

        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        data = _MAGIC + _checksum(kind, k, payload) + payload
        try:
            if path.parent not in self._folders:  # made once a run: a report puts hundreds of entries
                path.parent.mkdir(parents=True, exist_ok=True)
                self._folders.add(path.parent)
            fd, tmp = tempfile.mkstemp(prefix=".entry.", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            self._folders.discard(path.parent)  # removed meanwhile, perhaps: made again at the next entry
            return
