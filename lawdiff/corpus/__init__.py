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

Modules: ``files`` (finding the files), ``reading`` (reading them, from the
cache when known), ``account`` (lossless accounting), ``merge`` (pages of an
edition into one tree), ``settings`` (``lawdiff.toml``), ``timeline``
(editions, sources of a year, amended versions), ``dangling`` (references
that lead nowhere).  This module only names what they export, and loads each
when it is first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lawdiff.lazy import loader

if TYPE_CHECKING:
    from lawdiff.corpus.account import PageCheck, Unplaced, tokens
    from lawdiff.corpus.dangling import Dangling, dangling_references
    from lawdiff.corpus.files import corpus_files, default_corpus
    from lawdiff.corpus.reading import DraftFile, load
    from lawdiff.corpus.settings import SETTINGS_FILE, Settings, read_settings
    from lawdiff.corpus.timeline import FAMILY, Corpus, from_pages, from_trees

# Each name by the module that holds it, loaded when first asked for: a cached answer
# (lawdiff.cli.kept) only hashes the corpus's files, and then loads no reader.
# ``account`` is not among them: it is also a submodule, and importing that binds the
# module to ``lawdiff.corpus.account`` (import the function from lawdiff.corpus.account).
_HOMES = {
    "lawdiff.corpus.account": ("PageCheck", "Unplaced", "tokens"),
    "lawdiff.corpus.dangling": ("Dangling", "dangling_references"),
    "lawdiff.corpus.files": ("corpus_files", "default_corpus"),
    "lawdiff.corpus.reading": ("DraftFile", "load"),
    "lawdiff.corpus.settings": ("SETTINGS_FILE", "Settings", "read_settings"),
    "lawdiff.corpus.timeline": ("FAMILY", "Corpus", "from_pages", "from_trees"),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__getattr__ = loader(globals(), _HOME)


__all__ = [
    "FAMILY",
    "SETTINGS_FILE",
    "Corpus",
    "Dangling",
    "DraftFile",
    "PageCheck",
    "Settings",
    "Unplaced",
    "corpus_files",
    "dangling_references",
    "default_corpus",
    "from_pages",
    "from_trees",
    "load",
    "read_settings",
    "tokens",
]
