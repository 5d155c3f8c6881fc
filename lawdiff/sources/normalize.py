"""The one normalization lawdiff applies to law text, at the entry.

What it does, and nothing more:

1. Line endings: CRLF and CR become LF.
2. Unicode: NFC composition (so that "é" is one character whatever the dump).
3. Spaces: non-breaking spaces (U+00A0, U+202F, U+2007), tabs and other
   horizontal white space become a plain space; runs of spaces become one;
   spaces at the start and end of a line are dropped.
4. Footnote markers: superscript markers (``¹⁾``, ``²``) are recognised with
   the same number as ``1)``; the marker is taken out of the text (kept on the
   footnote as printed), and the space it leaves is closed.

Law text is never rewritten beyond that: no spelling, case or punctuation is
changed.  Misprints are read, not corrected, and the reading is noted.
"""

from __future__ import annotations

import re
import unicodedata

_HSPACE = re.compile(r"[ \t\u00a0\u2007\u202f\u2000-\u200a\u3000\f\v]+")

SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPER_TO_DIGIT = {ch: str(i) for i, ch in enumerate(SUPERSCRIPT_DIGITS)}


def normalize_lines(raw: str) -> list[str]:
    """Split text into normalized lines (rules 1-3)."""
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n").replace("\r", "\n"))
    return [_HSPACE.sub(" ", line).strip() for line in text.split("\n")]


def normalize_inline(raw: str) -> str:
    """Normalize a run of inline text (rules 1-3), keeping edge spaces as one space.

    Used for the text nodes of structured formats, whose edges meet other
    nodes (``"naar boven"`` + marker + ``" voor zich"``).
    """
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n").replace("\r", "\n"))
    return _HSPACE.sub(" ", text)


def superscript_number(marker: str) -> str:
    """The number of a superscript marker such as ``¹⁾`` or ``¹²``, or ""."""
    digits = "".join(_SUPER_TO_DIGIT.get(ch, "") for ch in marker)
    return digits


def close_gap(text: str, pos: int) -> tuple[str, int]:
    """Remove the doubled space left where a marker was taken out at ``pos``.

    Returns the new text and the position where the marker stood.
    """
    left = text[:pos]
    right = text[pos:]
    if left.endswith(" ") and (right.startswith(" ") or right == "" or right[:1] in ".,;:)"):
        left = left[:-1]
    elif left == "" and right.startswith(" "):
        right = right[1:]
    return left + right, len(left)
