"""Editorial differences: white space, punctuation, case and changed terminology."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

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
    import tomllib  # here: comparing two editions that kept every text reads no lexicon

    return tomllib.loads((resources.files("lawdiff.diff") / LEXICON_FILE).read_text("utf-8"))


# ---------------------------------------------------------------------------
# Editorial differences


@functools.cache
def terminology() -> tuple[tuple[str, str], ...]:
    """Terminology that changed between printings without changing the rule: each pair is read as one word
    for the "editorial only" test (never in output).  The pairs live in lexicon.toml, with the other word
    lists (``TERMINOLOGY``: the same, read when first asked for)."""
    return tuple((a, b) for a, b in lexicon()["terminology"]["pairs"])


if TYPE_CHECKING:
    TERMINOLOGY: tuple[tuple[str, str], ...]


def __getattr__(name: str) -> object:
    if name == "TERMINOLOGY":
        return terminology()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_CANON_WORD = re.compile(r"\w+")


def canonical(text: str) -> str:
    """Text reduced to what an editorial change cannot touch."""
    words: list[str] = _CANON_WORD.findall(text.lower())
    if len(words) == 1:
        # One word (a flag's word, many times a change): only a word of the pairs is put in another's place.
        return _one_word().get(words[0], words[0])
    return _replaced(words)


def _replaced(words: list[str]) -> str:
    joined = " " + " ".join(words) + " "
    for a, b in terminology():
        joined = joined.replace(f" {b} ", f" {a} ")
    return joined.strip()


@functools.cache
def _one_word() -> dict[str, str]:
    """The canonical form of each word of the pairs (any other word is its own); its keys are the words
    of the terminology pairs, the only words canonical() puts others in the place of."""
    return {w: _replaced([w]) for pair in terminology() for entry in pair for w in _CANON_WORD.findall(entry.lower())}


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
    terms = _one_word()
    return any(n and w not in terms for w, n in balance.items())
