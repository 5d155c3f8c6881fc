"""Editorial differences: white space, punctuation, case and changed terminology."""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------
# Editorial differences

# Terminology that changed between printings without changing the rule: each
# pair is read as one word for the "editorial only" test (never in output).
TERMINOLOGY: tuple[tuple[str, str], ...] = (
    ("maat", "partner"),
    ("maten", "partners"),
    ("mapje", "bord"),
    ("mapjes", "borden"),
    ("der", "van de"),
    ("den", "de"),
    ("wedstrijdleider", "arbiter"),
)

_CANON_WORD = re.compile(r"\w+")


def canonical(text: str) -> str:
    """Text reduced to what an editorial change cannot touch."""
    words = _CANON_WORD.findall(text.lower())
    joined = " " + " ".join(words) + " "
    for a, b in TERMINOLOGY:
        joined = joined.replace(f" {b} ", f" {a} ")
    return joined.strip()


def editorial_only(old: str, new: str) -> bool:
    """Whether two different texts differ only in editorial ways."""
    return old != new and canonical(old) == canonical(new)
