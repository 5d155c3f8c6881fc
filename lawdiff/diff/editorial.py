"""Editorial differences: white space, punctuation, case and changed terminology."""

from __future__ import annotations

import functools
import re
from importlib import resources
from typing import TYPE_CHECKING, Any

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
    words = _CANON_WORD.findall(text.lower())
    joined = " " + " ".join(words) + " "
    for a, b in terminology():
        joined = joined.replace(f" {b} ", f" {a} ")
    return joined.strip()


def editorial_only(old: str, new: str) -> bool:
    """Whether two different texts differ only in editorial ways."""
    return old != new and canonical(old) == canonical(new)
