"""Characters a reader cannot see: control and bidirectional formatting characters.

One rule for every output.  Law text, comments and names may hold characters
that show nothing or reorder what is around them: C0 and C1 controls (an
escape sequence repaints a terminal), DEL, and the bidirectional marks,
embeddings, overrides and isolates (U+202E shows "abc" as "cba").  A hidden
override in a draft is what a committee must see, so every output shows each
such character as a visible mark, and keeps the text itself as it is:

- a terminal prints :func:`escape` (``\\u202e``, ``\\x1b``), and also escapes the
  characters its encoding cannot hold;
- an HTML page draws each run of :func:`runs` that is hidden as a mark naming the
  character (:func:`label`), inside an isolate, so that no override reaches the
  text around it;
- JSON, CSV and files keep the text as it is (JSON escapes controls by itself).

The line break and the tab are layout, not hidden characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# C0 controls but tab and line break, DEL and the C1 controls; the Arabic
# letter mark, the left-to-right and right-to-left marks, the embeddings and
# overrides (U+202A-202E) and the isolates (U+2066-2069).
HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

# Short names a committee member can look up; the rest are named by code point.
_NAMES = {
    "\u061c": "ALM",
    "\u200e": "LRM",
    "\u200f": "RLM",
    "\u202a": "LRE",
    "\u202b": "RLE",
    "\u202c": "PDF",
    "\u202d": "LRO",
    "\u202e": "RLO",
    "\u2066": "LRI",
    "\u2067": "RLI",
    "\u2068": "FSI",
    "\u2069": "PDI",
    "\x1b": "ESC",
    "\x00": "NUL",
    "\x7f": "DEL",
}


def has_hidden(text: str) -> bool:
    """Whether ``text`` holds a character of :data:`HIDDEN`."""
    return HIDDEN.search(text) is not None


def code(ch: str) -> str:
    """The escape of one character as Python writes it: ``\\x1b``, ``\\u202e``, ``\\U0001f600``."""
    n = ord(ch)
    if n < 0x100:
        return f"\\x{n:02x}"
    if n < 0x10000:
        return f"\\u{n:04x}"
    return f"\\U{n:08x}"


def label(ch: str) -> str:
    """A visible name for a hidden character: ``U+202E RLO``, ``U+001B ESC``, ``U+0007``."""
    n = ord(ch)
    name = _NAMES.get(ch)
    return f"U+{n:04X} {name}" if name else f"U+{n:04X}"


def escape(text: str, encoding: str | None = None) -> str:
    """``text`` with every hidden character shown as its escape (:func:`code`), and, when an
    ``encoding`` is given, every character that encoding cannot hold too.  Text without either
    is returned as it is (no copy)."""
    if encoding is None or _holds_all(encoding, text):
        if HIDDEN.search(text) is None:
            return text
        return HIDDEN.sub(lambda m: code(m.group()), text)
    out = []
    for ch in text:
        if HIDDEN.match(ch) or not _holds_all(encoding, ch):
            out.append(code(ch))
        else:
            out.append(ch)
    return "".join(out)


def runs(text: str) -> Iterator[tuple[str, bool]]:
    """``text`` cut into runs, in order: ``(run, hidden)``, where a hidden run is one character of
    :data:`HIDDEN` and every other run is the plain text between them."""
    start = 0
    for m in HIDDEN.finditer(text):
        if m.start() > start:
            yield text[start : m.start()], False
        yield m.group(), True
        start = m.end()
    if start < len(text):
        yield text[start:], False


def _holds_all(encoding: str, text: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    except LookupError:  # an encoding Python does not know: treat as holding everything
        return True
    return True
