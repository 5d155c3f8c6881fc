"""Clause addresses: ``45C4(b)``, ``45E.p2``, ``45A.fn1``, ``H6.3.I``.

See :mod:`lawdiff.model` for the rules.  Pure functions on strings.
"""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------
# Addresses

_ADDRESS_PART = re.compile(r"\d+|[A-Z]|\([a-z]+\)|\.p\d+|\.fn\d+|\.\d+|~\d+")
_ARTICLE_ADDRESS = re.compile(r"^\d+")


def article_of(address: str) -> str:
    """``45C4(b)`` -> ``45``; "" for addresses outside articles."""
    m = _ARTICLE_ADDRESS.match(address)
    return m.group(0) if m else ""


def normalize_address(address: str) -> str:
    """Tolerant spelling of an address: spaces out, ``45 (d)`` -> ``45(d)``, ``45c`` -> ``45C``, ``h6`` -> ``H6``."""
    text = address.strip().replace(" ", "")
    m = _LOWER_SECTION.match(text)
    if m:
        text = m.group(1) + m.group(2).upper() + text[m.end() :]
    elif _LOWER_CHAPTER.match(text):
        text = "H" + text[1:]
    return text


_LOWER_SECTION = re.compile(r"^(\d+)([a-z])(?=$|\d|\(|\.)")  # 45c, 45c4, 45c(d)
_LOWER_CHAPTER = re.compile(r"^h\d")  # h6


def address_parts(address: str) -> list[str]:
    """Split an article address into its labels: ``45C4(b)`` -> ``['45', 'C', '4', '(b)']``."""
    if not _ARTICLE_ADDRESS.match(address):
        return address.split(".")
    return _ADDRESS_PART.findall(address)


def parent_address(address: str) -> str:
    """``45C4(b)`` -> ``45C4``, ``45E.p2`` -> ``45E``, ``H6.3.I`` -> ``H6.3``; "" for a top-level address."""
    parts = address_parts(address)
    if len(parts) <= 1:
        return ""
    if not _ARTICLE_ADDRESS.match(address):
        # Outside the articles every level is joined with a dot.
        return ".".join(parts[:-1])
    last = parts[-1]
    return address[: len(address) - len(last)]


def article_and_parent(address: str) -> tuple[str, str]:
    """``(article_of(address), parent_address(address))``, the address read once (the alignment asks for both
    of every clause's address)."""
    m = _ARTICLE_ADDRESS.match(address)
    if m is None:
        parts = address.split(".")
        return "", ".".join(parts[:-1]) if len(parts) > 1 else ""
    parts = _ADDRESS_PART.findall(address)
    return m.group(0), address[: len(address) - len(parts[-1])] if len(parts) > 1 else ""


_ROMAN_PART = re.compile(r"^[IVXLC]+$")
_FOOTNOTE_PART = re.compile(r"^fn(\d+)$")
_PARAGRAPH_PART = re.compile(r"^p(\d+)$")
_DIGITS = re.compile(r"(\d+)")


# Python refuses to turn more than 4,300 digits into an int (a guard
# against quadratic conversion); a label that long is hostile, not law.
_INT_DIGITS = 4000
_BEYOND = 10**_INT_DIGITS  # greater than any number of _INT_DIGITS digits


def _number(digits: str) -> tuple[int, str]:
    """A run of digits as a sort key in numeric order, whatever its length.

    Up to :data:`_INT_DIGITS` digits, the number itself; longer ones come
    after all of those, ordered by length and then digit by digit (the
    numeric order of numbers without leading zeros).
    """
    stripped = digits.lstrip("0")
    if len(stripped) <= _INT_DIGITS:
        return int(stripped or "0"), ""
    return _BEYOND + len(stripped), stripped


def natural_key(address: str) -> tuple[tuple[int, int, str], ...]:
    """A sort key that puts ``45C10`` after ``45C9``, ``.p`` after labels and ``.fn`` last.

    Outside the articles, numbers inside a part count as numbers (``H9``
    before ``H10``) and paragraph numerals as their value (``H6.3.V`` before
    ``H6.3.IX``).  Numbers of any length keep their order (see :func:`_number`).
    """
    article = bool(_ARTICLE_ADDRESS.match(address))
    key: list[tuple[int, int, str]] = []
    for part in address_parts(address):
        p = part.lstrip(".")
        if p.isdigit():
            key.append((0, *_number(p)))
        elif m := _FOOTNOTE_PART.match(p):
            key.append((3, *_number(m.group(1))))
        elif m := _PARAGRAPH_PART.match(p):
            key.append((2, *_number(m.group(1))))
        elif not article and _ROMAN_PART.match(p) and roman_to_int(p):
            key.append((0, roman_to_int(p), ""))
        elif not article:
            for i, piece in enumerate(_DIGITS.split(p)):
                if piece:
                    key.append((0, *_number(piece)) if i % 2 else (1, 0, piece))
        else:
            key.append((1, 0, p))
    return tuple(key)


_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def roman_to_int(text: str) -> int:
    """Value of a roman numeral (``VI`` -> 6); 0 if it is not one."""
    total = 0
    prev = 0
    for ch in reversed(text.upper()):
        value = _ROMAN.get(ch)
        if value is None:
            return 0
        total = total - value if value < prev else total + value
        prev = max(prev, value)
    return total


_ANCHOR_PART = re.compile(r"\.p\d+|\.fn\d+|\.\d+|_\d+|\d+|[A-Z]|[a-z]+|.")


def from_anchor(anchor: str) -> str:
    """An address from the anchor form of the report (``45C4b`` -> ``45C4(b)``, ``45E_2`` -> ``45E~2``).

    The anchor drops an item's parentheses; lower-case letters occur in an
    article address only inside them or after a dot (``.p1``, ``.fn1``), so
    they can be put back.  Addresses outside the articles are returned as
    given.
    """
    text = anchor.strip()
    if not _ARTICLE_ADDRESS.match(text) or "(" in text:
        return text
    out = []
    for part in _ANCHOR_PART.findall(text):
        if part.isalpha() and part.islower():
            out.append(f"({part})")
        elif part.startswith("_"):
            out.append("~" + part[1:])
        else:
            out.append(part)
    return "".join(out)


def spellings(address: str) -> tuple[str, str, str]:
    """The ways a user may have meant an address, to look up in this order: as written, in the report's
    anchor form (``45C4b``), and that form spelt loosely (``45c4b``); :meth:`Edition.find` then takes each
    spelt tolerantly (``45c4(b)``)."""
    return address, from_anchor(address), from_anchor(normalize_address(address))
