"""Renderers: one module per output format (text, json, html).

Each is fed values from the earlier stages (clause trees, checks, changes)
and dispatches on their kind; none of them changes law text.
"""

from lawdiff.sources.base import Loc


def clean(text: str) -> str:
    """Text from a source, as the text renderers pass it on: as it is.

    It once became U+FFFD here for each control character, so that what a
    terminal showed differed from what JSON and files held without a word.
    The terminal rule (:mod:`lawdiff.marks`) now applies where text is
    printed, in :mod:`lawdiff.cli.terminal`: hidden characters shown as
    escapes, with a note; a file written with ``-o`` keeps them.
    """
    return text


def where(loc: Loc) -> str:
    """A place for a reader: ``file:line``, or ``file $[533]`` for a payload element."""
    if loc.line:
        return f"{loc.file}:{loc.line}"
    if loc.path:
        return f"{loc.file} {loc.path}"
    return loc.file


def article_ranges(numbers: list[str], dash: str = "-") -> str:
    """Article numbers as ranges: ``['41', '42', '43', '45']`` -> ``41-43, 45``."""
    # A number too long for int() (hostile input) is listed as written, after the ranges.
    ints = sorted({int(n) for n in numbers if n.isdigit() and len(n) <= 1000})
    huge = sorted({n for n in numbers if n.isdigit() and len(n) > 1000}, key=lambda n: (len(n), n))
    out: list[str] = []
    i = 0
    while i < len(ints):
        j = i
        while j + 1 < len(ints) and ints[j + 1] == ints[j] + 1:
            j += 1
        out.append(str(ints[i]) if i == j else f"{ints[i]}{dash}{ints[j]}")
        i = j + 1
    return ", ".join([*out, *huge])
