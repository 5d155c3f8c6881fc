"""Gold alignments of the bundled corpus, one data file per comparison.

Each ``tests/fixtures/align/*.gold`` file names a comparison in its header and
lists the changes it must give, one per line (the format is described at the
top of ``2007-2017-art45.gold``)::

    45E.p1 -> 45E1 : unchanged [renumbered]
    45(d) -> 45C4(a), 45C4(b) : split [renumbered, ref +47D, ref +16D1]

One loop reads them all; adding a case adds no code.  With ``mirror: yes`` the
reverse comparison is checked against the same file, mirrored: the sides
swapped, splits read as merges, additions as removals.

The line parser and :func:`change_line` are also used by the synthetic cases
(``test_align_synthetic.py``).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from lawdiff.corpus import Corpus, load
from lawdiff.diff import Change, Comparison, compare
from lawdiff.model import article_of

GOLD_DIR = Path(__file__).parent / "fixtures" / "align"

KINDS = ("unchanged", "modified", "split", "merged", "added", "removed")
MIRROR_KIND = {
    "unchanged": "unchanged",
    "modified": "modified",
    "split": "merged",
    "merged": "split",
    "added": "removed",
    "removed": "added",
}
# The yes/no flags of a change, in the order a line prints them.
FLAGS = ("heading", "renumbered", "moved", "title_changed", "editorial")
HEADERS = ("compare", "article", "mirror", "xfail")


class GoldError(ValueError):
    """A gold file that cannot be read (the test data is wrong, not lawdiff)."""


@dataclass(frozen=True, order=True)
class Line:
    """One expected change: what a gold line says, in a comparable form."""

    old: tuple[str, ...]
    new: tuple[str, ...]
    kind: str
    flags: frozenset[str] = frozenset()
    refs: tuple[str, ...] = ()  # "+X", "-X", "X>Y"; sorted (a multiset)

    def mirrored(self) -> Line:
        return Line(self.new, self.old, MIRROR_KIND[self.kind], self.flags, _sorted(_mirror_ref(r) for r in self.refs))

    def __str__(self) -> str:
        marks = [f for f in FLAGS if f in self.flags] + [f"ref {r}" for r in self.refs]
        tail = f" [{', '.join(marks)}]" if marks else ""
        return f"{', '.join(self.old) or '-'} -> {', '.join(self.new) or '-'} : {self.kind}{tail}"


def _sorted(refs: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(refs))


def _mirror_ref(ref: str) -> str:
    if ref.startswith("+"):
        return "-" + ref[1:]
    if ref.startswith("-"):
        return "+" + ref[1:]
    old, new = ref.split(">")
    return f"{new}>{old}"


def _addresses(side: str) -> tuple[str, ...]:
    side = side.strip()
    if side == "-":
        return ()
    return tuple(a.strip() for a in side.split(","))


def parse_line(text: str) -> Line:
    """``OLD -> NEW : kind [flags]`` -> :class:`Line` (raises GoldError)."""
    body, sep, kind_part = text.rpartition(" : ")
    old_side, arrow, new_side = body.partition(" -> ")
    if not sep or not arrow:
        raise GoldError(f"not 'OLD -> NEW : kind [flags]': {text!r}")
    kind, _, rest = kind_part.strip().partition(" ")
    if kind not in KINDS:
        raise GoldError(f"unknown kind {kind!r} in {text!r}")
    flags: set[str] = set()
    refs: list[str] = []
    rest = rest.strip()
    if rest:
        if not (rest.startswith("[") and rest.endswith("]")):
            raise GoldError(f"flags must be in brackets: {text!r}")
        for flag in (f.strip() for f in rest[1:-1].split(",")):
            if flag.startswith("ref "):
                ref = flag[4:].strip()
                if not (ref[:1] in "+-" or ref.count(">") == 1):
                    raise GoldError(f"a reference is '+X', '-X' or 'X>Y', not {ref!r}: {text!r}")
                refs.append(ref)
            elif flag in FLAGS:
                flags.add(flag)
            else:
                raise GoldError(f"unknown flag {flag!r} in {text!r} (flags: {', '.join(FLAGS)}, ref ...)")
    line = Line(_addresses(old_side), _addresses(new_side), kind, frozenset(flags), _sorted(refs))
    if not line.old and not line.new:
        raise GoldError(f"a change needs an address on one side at least: {text!r}")
    return line


def change_line(ch: Change) -> Line:
    """A change record in the gold form."""
    values = {
        "heading": ch.aspect.value == "title",
        "renumbered": ch.renumbered,
        "moved": ch.moved,
        "title_changed": ch.title_changed,
        "editorial": ch.editorial_only,
    }
    refs = []
    for r in ch.references:
        if r.status.value == "added":
            refs.append(f"+{r.new}")
        elif r.status.value == "removed":
            refs.append(f"-{r.old}")
        elif r.status.value == "retargeted":
            refs.append(f"{r.old}>{r.new}")
    return Line(ch.old, ch.new, ch.kind.value, frozenset(f for f, v in values.items() if v), _sorted(refs))


def lines_of(comp: Comparison, articles: Iterable[str] = ()) -> list[Line]:
    """The comparison's changes as gold lines, only those touching ``articles`` if given (as --article does)."""
    wanted = set(articles)
    return [
        change_line(ch) for ch in comp.changes if not wanted or any(article_of(a) in wanted for a in ch.old + ch.new)
    ]


def mismatch(got: Iterable[Line], expected: Iterable[Line]) -> str:
    """An empty string when the two multisets of lines agree, else what differs."""
    g, e = Counter(got), Counter(expected)
    missing = sorted((e - g).elements())
    unexpected = sorted((g - e).elements())
    if not missing and not unexpected:
        return ""
    out: list[str] = []
    if missing:
        out += ["expected but not found:", *(f"  {x}" for x in missing)]
    if unexpected:
        out += ["found but not expected:", *(f"  {x}" for x in unexpected)]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Gold files


@dataclass(frozen=True)
class Gold:
    name: str
    old: str
    new: str
    articles: tuple[str, ...]
    mirror: bool
    xfail: str
    lines: tuple[Line, ...] = field(default=())


def read_gold(path: Path) -> Gold:
    headers: dict[str, str] = {}
    lines: list[Line] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        key, colon, value = text.partition(":")
        try:
            if colon and key in HEADERS and " -> " not in text:
                if lines:
                    raise GoldError(f"header {key!r} after the first change")
                headers[key] = value.strip()
            else:
                lines.append(parse_line(text))
        except GoldError as exc:
            raise GoldError(f"{path.name}:{number}: {exc}") from None
    editions = headers.get("compare", "").split()
    if len(editions) != 2:
        raise GoldError(f"{path.name}: needs a header 'compare: OLD NEW'")
    if headers.get("mirror", "no") not in ("yes", "no"):
        raise GoldError(f"{path.name}: 'mirror' is yes or no")
    if len(set(lines)) != len(lines):
        raise GoldError(f"{path.name}: a line is given twice")
    articles = tuple(a.strip() for a in headers.get("article", "").split(",") if a.strip())
    return Gold(
        path.stem,
        editions[0],
        editions[1],
        articles,
        headers.get("mirror") == "yes",
        headers.get("xfail", ""),
        tuple(lines),
    )


GOLD_FILES = sorted(GOLD_DIR.glob("*.gold"))


def _cases() -> list[object]:
    out: list[object] = []
    for path in GOLD_FILES:
        gold = read_gold(path)
        marks = [pytest.mark.xfail(reason=gold.xfail, strict=True)] if gold.xfail else []
        out.append(pytest.param(gold, False, id=gold.name, marks=marks))
        if gold.mirror:
            out.append(pytest.param(gold, True, id=f"{gold.name}-mirrored", marks=marks))
    return out


@functools.cache
def bundled() -> Corpus:
    return load()


def test_gold_files_exist() -> None:
    names = {p.stem for p in GOLD_FILES}
    # The examples of issue 3 must stay among the cases.
    assert {"2007-2017-art45", "1963-2007-art45"} <= names


@pytest.mark.parametrize(("gold", "mirrored"), _cases())
def test_gold_alignment(gold: Gold, mirrored: bool) -> None:
    corpus = bundled()
    old, new = corpus.edition(gold.old), corpus.edition(gold.new)
    expected = list(gold.lines)
    if mirrored:
        old, new = new, old
        expected = [line.mirrored() for line in expected]
    got = lines_of(compare(old, new), gold.articles)
    problem = mismatch(got, expected)
    assert not problem, f"{old.name} -> {new.name}:\n{problem}"


# ---------------------------------------------------------------------------
# The gold format itself


def test_parse_line_reads_every_part() -> None:
    line = parse_line("45(d) -> 45C4(a), 45C4(b) : split [renumbered, ref +47D, ref 16D1>16C1]")
    assert line == Line(("45(d)",), ("45C4(a)", "45C4(b)"), "split", frozenset({"renumbered"}), ("+47D", "16D1>16C1"))
    assert str(line) == "45(d) -> 45C4(a), 45C4(b) : split [renumbered, ref +47D, ref 16D1>16C1]"
    assert parse_line("- -> 45D2 : added") == Line((), ("45D2",), "added")


def test_mirrored_line() -> None:
    line = parse_line("45(d) -> 45C4(a), 45C4(b) : split [renumbered, ref +47D, ref -50, ref 16D1>16C1]")
    assert str(line.mirrored()) == "45C4(a), 45C4(b) -> 45(d) : merged [renumbered, ref +50, ref -47D, ref 16C1>16D1]"
    assert line.mirrored().mirrored() == line


@pytest.mark.parametrize(
    "text",
    [
        "45 -> 45",
        "45 -> 45 : changed",
        "45 -> 45 : modified [renamed]",
        "45 -> 45 : modified renumbered",
        "- -> - : added",
        "45 -> 45 : modified [ref 16D1]",
    ],
)
def test_parse_line_rejects(text: str) -> None:
    with pytest.raises(GoldError):
        parse_line(text)
