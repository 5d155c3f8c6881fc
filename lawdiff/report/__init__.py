"""Renderers: one module per output format (text, json, html).

Each is fed values from the earlier stages (clause trees, checks, changes)
and dispatches on their kind; none of them changes law text.
"""

from lawdiff.sources.base import Loc


def where(loc: Loc) -> str:
    """A place for a reader: ``file:line``, or ``file $[533]`` for a payload element."""
    if loc.line:
        return f"{loc.file}:{loc.line}"
    if loc.path:
        return f"{loc.file} {loc.path}"
    return loc.file


def article_ranges(numbers: list[str], dash: str = "-") -> str:
    """Article numbers as ranges: ``['41', '42', '43', '45']`` -> ``41-43, 45``.

    Ordered by value without ``int()`` of the whole string (Python refuses one of more than 4,300 digits,
    a hostile page title's): a number's digits without leading zeros, shorter first, then digit by digit.
    Anything else (not ASCII digits) follows as written.
    """
    digits = sorted({n.lstrip("0") or "0" for n in numbers if n.isascii() and n.isdigit()}, key=lambda n: (len(n), n))
    others = sorted({n for n in numbers if not (n.isascii() and n.isdigit())})
    out: list[str] = []
    i = 0
    while i < len(digits):
        j = i
        while j + 1 < len(digits) and _follows(digits[j], digits[j + 1]):
            j += 1
        out.append(digits[i] if i == j else f"{digits[i]}{dash}{digits[j]}")
        i = j + 1
    return ", ".join([*out, *others])


def _follows(a: str, b: str) -> bool:
    """Whether the number ``b`` is ``a + 1`` (both digits without leading zeros)."""
    # Only the last run of nines carries: 1299 + 1 = 1300, compared without converting the rest.
    head = a.rstrip("9")
    nines = len(a) - len(head)
    if not head:
        return b == "1" + "0" * nines
    return b == head[:-1] + str(int(head[-1]) + 1) + "0" * nines
