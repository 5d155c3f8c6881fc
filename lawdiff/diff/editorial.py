"""Editorial differences: white space, punctuation, case and changed terminology."""

from __future__ import annotations

import functools
import re
import tomllib
from collections import Counter
from collections.abc import Sequence
from importlib import resources
from typing import Any

from lawdiff.diff.vocabulary import Op, Piece

# ---------------------------------------------------------------------------
# The word lists

LEXICON_FILE = "lexicon.toml"


@functools.cache
def lexicon() -> dict[str, Any]:
    """The word lists shipped beside this module (``lexicon.toml``), read once (do not change them).

    Terminology for the editorial test; modal, negation, actor, number and
    condition words for :mod:`lawdiff.diff.significance`.
    """
    return tomllib.loads((resources.files("lawdiff.diff") / LEXICON_FILE).read_text("utf-8"))


# ---------------------------------------------------------------------------
# Editorial differences

# Terminology that changed between printings without changing the rule: each
# pair is read as one word for the "editorial only" test (never in output).
# The pairs live in lexicon.toml, with the other word lists.
TERMINOLOGY: tuple[tuple[str, str], ...] = tuple((a, b) for a, b in lexicon()["terminology"]["pairs"])

_CANON_WORD = re.compile(r"\w+")


def canonical(text: str) -> str:
    """Text reduced to what an editorial change cannot touch."""
    words: list[str] = _CANON_WORD.findall(text.lower())
    if len(words) == 1:
        # One word (a flag's word, many times a change): only a word of the pairs is put in another's place.
        return _ONE_WORD.get(words[0], words[0])
    return _replaced(words)


def _replaced(words: list[str]) -> str:
    joined = " " + " ".join(words) + " "
    for a, b in TERMINOLOGY:
        joined = joined.replace(f" {b} ", f" {a} ")
    return joined.strip()


# The canonical form of each word of the pairs (any other word is its own).
_ONE_WORD = {w: _replaced([w]) for pair in TERMINOLOGY for entry in pair for w in _CANON_WORD.findall(entry.lower())}


# The words of the terminology pairs: the only words canonical() puts others in the place of.
_TERMS = frozenset(_ONE_WORD)
# The one letter whose lower case depends on the letters around it (a final sigma).
_SIGMA = "\u03a3"


def editorial_only(old: str, new: str, pieces: Sequence[Piece] | None = None) -> bool:
    """Whether two different texts differ only in editorial ways.

    ``pieces``: their word difference, if made: where it deletes or inserts some word outside the
    terminology more often than the other side does, the texts are not editorial variants, which is
    decided from the changed pieces alone (a long text's few changes) without reading the whole texts.
    """
    if old == new:
        return False
    if pieces is not None and _words_differ(old, new, pieces):
        return False
    return canonical(old) == canonical(new)


def _words_differ(old: str, new: str, pieces: Sequence[Piece]) -> bool:
    """Whether the deleted and the inserted pieces hold some word other than the terminology's a different
    number of times; then :func:`canonical` of the two texts differs, as it only puts terminology in the
    place of terminology.

    The pieces hold whole tokens, so that the words of a text are those of its pieces in turn, and their
    lower case theirs too but for a capital sigma (lower-cased by the letters around it): texts with one
    are left to :func:`canonical`.
    """
    if _SIGMA in old or _SIGMA in new:
        return False
    # Each side's changed pieces read at once, a line break (no word's) between two.
    deleted = "\n".join([p.text for p in pieces if p.op is Op.DELETE]).lower()
    inserted = "\n".join([p.text for p in pieces if p.op is Op.INSERT]).lower()
    balance = Counter(_CANON_WORD.findall(deleted))
    balance.subtract(_CANON_WORD.findall(inserted))
    return any(n and w not in _TERMS for w, n in balance.items())
