"""A command's whole answer, kept in the cache by everything that made it.

``lawdiff compare`` run again on a corpus that did not change gives the same
bytes: the cache then hands back the answer (what went to standard output,
the notes on stderr, whether there were differences) without reading a page.
The key holds every input of the answer:

* lawdiff's version and the hash of its code (as every key of the cache);
* the command and all its options as given (editions, filters, format,
  thresholds, whether the text is coloured), and the interface's language
  (its words are in the answer and its notes);
* the corpus: the relative name and the SHA-256 of every file under each
  corpus folder (all editions, not only the ones compared), the names of the
  files skipped, and each folder's ``lawdiff.toml``; a ``--draft`` file's
  content, name and state.

A review store is not part of any key: while one is in use (found, and no
``--no-review``), the command reads it and computes its answer every time,
because the committee's decisions and hand corrections change between runs.
A Word document carries the time it was made, so it is never kept either.

An entry is a cache entry like any other (:mod:`lawdiff.cache`): checked
whole, else ignored and made again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lawdiff.cache import Cache, file_hash, key
from lawdiff.i18n import language

_KIND = "answers"

# A command's output: text, a document's bytes, or text in pieces to be written one after the other (a
# comparison of a paragraph of megabytes, never joined whole).
Rendered = str | bytes | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Answer:
    """What a command said: its notes on stderr (before the output), its output, whether it found differences,
    and its output in the terminal's colours, when it was asked for in colour."""

    notes: tuple[str, ...]
    rendered: Rendered
    differs: bool
    coloured: str | None = None


class Answers:
    """The cached answer of one command line, read and written under one key."""

    def __init__(
        self,
        cache: Cache,
        k: str,
        dirs: tuple[Path, ...] = (),
        draft: tuple[Path, str, str] | None = None,
        identity: str = "",
    ) -> None:
        self.cache = cache
        self.key = k
        self.dirs = dirs
        self.draft = draft
        self.identity = identity

    @classmethod
    def of(
        cls,
        cache: Cache,
        dirs: tuple[Path, ...],
        draft: tuple[Path, str, str] | None,
        command: str,
        *options: object,
    ) -> Answers | None:
        """The answers of ``command`` with ``options`` on these corpus folders; None when the cache is off
        or a file cannot be read (the command then says what is wrong as it reads it)."""
        if cache.folder is None:
            return None
        identity = corpus_identity(dirs, draft)
        if identity is None:
            return None
        return cls(cache, key(_KIND, command, repr(options), language(), identity), dirs, draft, identity)

    def get(self) -> Answer | None:
        hit = self.cache.get(_KIND, self.key)
        return hit if isinstance(hit, Answer) else None

    def put(self, answer: Answer) -> None:
        """Keep ``answer``, unless the corpus changed while it was made: it would be kept under the key of
        files it was not made from."""
        if corpus_identity(self.dirs, self.draft) != self.identity:
            return
        self.cache.put(_KIND, self.key, answer)


def corpus_identity(dirs: tuple[Path, ...], draft: tuple[Path, str, str] | None) -> str | None:
    """A digest of everything a command reads from the corpus (see the module's text), or None when a file
    cannot be read."""
    from lawdiff.corpus.files import corpus_files, default_corpus
    from lawdiff.corpus.settings import SETTINGS_FILE

    roots = list(dirs) or [default_corpus()]
    skipped: list[str] = []
    parts: list[str | bytes | None] = []
    for path, display, hint in corpus_files(roots, skipped):
        parts += ["file", display, hint, file_hash(path)]
    parts += ["skipped", str(len(skipped)), *skipped]
    for root in roots:
        settings = root / SETTINGS_FILE
        parts += ["root", str(root), file_hash(settings) if root.is_dir() and settings.is_file() else b"-"]
    if draft is not None:
        path, name, state = draft
        parts += ["draft", str(path), name, state, file_hash(path)]
    if None in parts:
        return None
    return key("corpus", *(p for p in parts if p is not None))
