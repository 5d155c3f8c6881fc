"""Parser fixture cases: files in, a dump of the clause tree out.

Every case is a file ``tests/fixtures/parse/<case>.txt`` (a rendered wiki
page), ``<case>.json`` (a Nuxt payload) or a folder ``<case>/`` (several files
of one corpus, read and merged as a corpus folder is), next to
``<case>.expected``: the dump below.  One loop collects them, so adding a case
adds no code.  The test id is the case name.

To write the expected files after a deliberate change, run
``LAWDIFF_UPDATE_GOLDEN=1 python3 -m pytest tests/test_parse_fixtures.py``
and read every changed line against its input before keeping it.

The dump, one line per clause (indented by depth)::

    ADDRESS KIND [label=".."] [title=".."] [text=".."] [extra=".."]
        [marker=".." anchor=N (after "..")] [refs=[TARGET "PRINTED" START:END VIA; ...]]
        [notes=[".."]] @SOURCE

Strings are JSON-quoted (so a line break in a text reads ``\\n``); a
footnote's anchor is shown with the words before it in its parent's text;
``@SOURCE`` is the line number or JSON path (with the file name in folder
cases).  Before the tree: each page (format, edition, name, scope,
containers, metadata, furniture) and what the lossless check says about it;
after it, the edition's contents (navigation) and conflicts.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from lawdiff.corpus import corpus_files, from_pages
from lawdiff.model import Clause
from lawdiff.sources import read_file, read_text
from lawdiff.sources.base import Loc, Page

FIXTURES = Path(__file__).parent / "fixtures" / "parse"
UPDATE = os.environ.get("LAWDIFF_UPDATE_GOLDEN") == "1"
ANCHOR_CONTEXT = 24  # characters of the parent's text shown before a footnote anchor


def q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def case_inputs(case: Path) -> list[tuple[Path, str, str]]:
    """(path, display name, edition hint) for each file of a case."""
    if case.is_dir():
        return corpus_files([case])
    return [(case, case.name, "")]


def read_case(case: Path) -> list[Page]:
    pages: list[Page] = []
    for path, display, hint in case_inputs(case):
        pages.extend(read_file(path, display, hint))
    return pages


def dump(pages: list[Page]) -> str:
    """The readable, stable dump of what the pages parse into."""
    several = len({p.file for p in pages}) > 1
    corpus = from_pages(pages)

    def where(loc: Loc) -> str:
        place = str(loc.line) if loc.line else loc.path or "-"
        return f"@{loc.file}:{place}" if several else f"@{place}"

    out: list[str] = []
    for page, check in zip(pages, corpus.checks, strict=True):
        head = f"page {page.file} format={page.format} edition={page.edition} name={q(page.name)}"
        if page.scope:
            head += f" scope={q(page.scope)}"
        if page.printing:
            head += f" printing={q(page.printing)}"
        out.append(head)
        for cont in page.containers:
            out.append(f"  container {cont.kind} {cont.address} label={q(cont.label)} title={q(cont.title)}")
        for key, value in page.meta:
            out.append(f"  meta {key}={q(value)}")
        for furn in page.furniture:
            out.append(f"  furniture {where(furn.loc)} {q(furn.text)} ({furn.reason})")
        out.append(f"  check {check.placed}/{check.tokens} placed")
        for u in check.unplaced:
            out.append(f"  unplaced {where(u.loc)} {q(u.text)}")
        for loc, note in check.notes:
            out.append(f"  note {where(loc)} {note}")

    def clause(c: Clause, depth: int, parent: Clause | None) -> None:
        fields = [c.address, c.kind.value]
        for name in ("label", "title", "text", "extra"):
            value = getattr(c, name)
            if value:
                fields.append(f"{name}={q(value)}")
        if c.marker:
            fields.append(f"marker={q(c.marker)}")
        if c.anchor >= 0 and parent is not None:
            before = parent.text[max(0, c.anchor - ANCHOR_CONTEXT) : c.anchor]
            fields.append(f"anchor={c.anchor} (after {q(before)})")
        if c.references:
            refs = "; ".join(f"{r.target} {q(r.printed)} {r.start}:{r.end} {r.via}" for r in c.references)
            fields.append(f"refs=[{refs}]")
        if c.notes:
            fields.append(f"notes=[{', '.join(q(n) for n in c.notes)}]")
        fields.append(where(c.source))
        out.append("  " * depth + " ".join(fields))
        for f in c.footnotes:
            clause(f, depth + 1, c)
        for ch in c.children:
            clause(ch, depth + 1, c)

    for e in corpus.editions:
        head = f"edition {e.name}"
        if e.printings:
            head += f" printing={q(', '.join(e.printings))}"
        out.append(head)
        for c in e.clauses:
            clause(c, 1, None)
        for n in e.navigation:
            out.append(f"  nav {'  ' * n.depth}{n.address} {q(n.title)} {n.path}")
        for conflict in e.conflicts:
            out.append(
                f"  conflict {conflict.address} {conflict.field} {where(conflict.first)} {q(conflict.first_text)}"
                f" / {where(conflict.second)} {q(conflict.second_text)}"
            )
    return "\n".join(out) + "\n"


def cases() -> list[Path]:
    found = [
        p
        for p in sorted(FIXTURES.iterdir())
        if (p.is_dir() or p.suffix in (".txt", ".json")) and not p.name.startswith(".")
    ]
    return found


def expected_path(case: Path) -> Path:
    name = case.name if case.is_dir() else case.stem
    return case.parent / f"{name}.expected"


CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[expected_path(c).stem for c in CASES])
def test_fixture(case: Path) -> None:
    actual = dump(read_case(case))
    golden = expected_path(case)
    if UPDATE:
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"{golden.name} is missing: run with LAWDIFF_UPDATE_GOLDEN=1 and review it"
    assert actual == golden.read_text(encoding="utf-8")


def test_every_expected_file_has_an_input() -> None:
    inputs = {expected_path(c).name for c in CASES}
    orphans = sorted(p.name for p in FIXTURES.glob("*.expected") if p.name not in inputs)
    assert orphans == []


@pytest.mark.parametrize("case", CASES, ids=[expected_path(c).stem for c in CASES])
def test_fixture_spans_are_consistent(case: Path) -> None:
    """Every reference's span is the text it names; every footnote marker stood inside its parent's text."""
    corpus = from_pages(read_case(case))
    for edition in corpus.editions:
        for c in edition.walk():
            for r in c.references:
                assert c.text[r.start : r.end] == r.printed, (c.address, r)
                assert r.printed, (c.address, r)
            for f in c.footnotes:
                assert f.address == f"{c.address}.fn{f.address.rsplit('.fn', 1)[1]}"
                if f.marker:
                    assert 0 <= f.anchor <= len(c.text), (f.address, f.anchor)
                if not f.marker.isdigit():
                    # a printed marker ("1)", "¹⁾") is taken out of the text
                    assert f.marker not in c.text, f.address


# ---------------------------------------------------------------------------
# The one normalization, at the entry (README "Normalization")


def test_wiki_reader_normalizes_line_ends_spaces_and_unicode(tmp_path: Path) -> None:
    raw = (
        "Sjabloon:2007:45\r\n"
        "ARTIKEL 45\u00a0Gespeelde kaart\r\n"
        "A. Spelen van een kaart\r"
        "Elke  speler\tbehalve de blinde speelt een kaart \u00a0 voor zich.   \r\n"
        "De leider spreidt de kaarten vo\u0301o\u0301r zich uit.\n"
    )
    path = tmp_path / "page.txt"
    path.write_bytes(raw.encode("utf-8"))
    (page,) = read_file(path, "page.txt")
    edition = from_pages([page]).editions[0]
    article = edition.find("45")
    section = edition.find("45A")
    assert article is not None and section is not None
    assert article.title == "Gespeelde kaart"
    # NFC turns e + combining acute into one character; nothing else changes.
    assert (
        section.text
        == "Elke speler behalve de blinde speelt een kaart voor zich.\nDe leider spreidt de kaarten vóór zich uit."
    )


def test_a_bom_before_the_title_line_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "page.txt"
    path.write_bytes("\ufeffSjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\n".encode())
    (page,) = read_file(path, "page.txt")
    assert (page.edition, page.name, page.scope) == ("2007", "45", "45")


def test_payload_text_nodes_collapse_white_space_as_a_browser_does() -> None:
    payload = json.dumps(
        [
            {"data": 1},
            {"p": 2},
            {"title": 3, "path": 4, "source": 5, "body": 6},
            "Artikel 45 — Gespeelde kaart",
            "/spelen/juiste-gang-van-zaken/artikel-45",
            "Vertaling spelregels 2017 3e druk.pdf",
            {"type": 7, "value": 8},
            "minimark",
            [9],
            [10, 11, 12],
            "p",
            {},
            "  Elke speler\n   speelt\u00a0een  kaart.  ",
        ]
    )
    (page,) = read_text(payload, "p.json")
    article = from_pages([page]).editions[0].find("45")
    assert article is not None
    assert article.text == "Elke speler speelt een kaart."
