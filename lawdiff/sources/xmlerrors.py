"""libxml2's error messages, as the one line an error of lawdiff is.

libxml2 ends some messages with its own line break and place (a NUL byte:
``"Invalid character: Char 0x0 out of allowed range\\n, line 56, column 1"``);
lxml passes them on as they are.  The readers give the place themselves, so
the message is cut to its words, on one line.
"""

from __future__ import annotations

import re

__all__ = ["one_line"]

_PLACE_SUFFIX = re.compile(r"\s*,\s*line \d+, column \d+\s*$")


def one_line(message: str) -> str:
    """A parser's message without its trailing place, its white space (line breaks too) made single spaces."""
    return " ".join(_PLACE_SUFFIX.sub("", message).split())
