"""Drafts (.docx, .odt, typed .txt) read as editions: trees, accounting, errors.

The documents are made by ``tests/fixtures/draft/build.py`` (committed; a
test checks that the script still makes exactly them).  Each good document
has a golden dump per state (``<name>.<state>.expected``, the dump of
``tests/test_parse_fixtures.py``); to write them after a deliberate change,
run ``LAWDIFF_UPDATE_GOLDEN=1 python3 -m pytest tests/test_draft.py`` and
read every changed line against the document before keeping it.  Besides
the dumps, the tests below state the addresses and texts each habit must
give, so that a golden file written wrong cannot pass them.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner
from office import Office
from test_parse_fixtures import dump

from lawdiff.cli import main
from lawdiff.corpus import from_pages, load, tokens
from lawdiff.errors import InputError
from lawdiff.model import Edition
from lawdiff.sources import read_file
from lawdiff.sources.base import Page
from lawdiff.sources.draft import State, edition_from_name, read_draft, zipsafe
from lawdiff.sources.draft.docx import read_docx
from lawdiff.sources.draft.odt import read_odt
from lawdiff.sources.draft.render import _render
from lawdiff.sources.draft.zipsafe import SafeZip

FIXTURES = Path(__file__).parent / "fixtures" / "draft"
UPDATE = os.environ.get("LAWDIFF_UPDATE_GOLDEN") == "1"

GOOD = {
    "docx-numbering.docx": ("accepted",),
    "docx-tracked-changes.docx": ("accepted", "original"),
    "docx-footnotes.docx": ("accepted",),
    "docx-furniture.docx": ("accepted",),
    "odt-numbering.odt": ("accepted",),
    "odt-tracked-changes.odt": ("accepted", "original"),
    "odt-notes.odt": ("accepted",),
    "text-concept.txt": ("accepted",),
}
CASES = [(name, state) for name, states in GOOD.items() for state in states]


def build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("draft_build", FIXTURES / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read(name: str, state: str = "accepted") -> list[Page]:
    return read_draft(FIXTURES / name, "2027", state, name)


def edition(name: str, state: str = "accepted") -> Edition:
    return from_pages(read(name, state)).editions[0]


def texts(e: Edition) -> dict[str, str]:
    return {c.address: c.text for c in e.walk()}


def labels(e: Edition) -> dict[str, str]:
    return {c.address: c.label for c in e.walk()}


# ---------------------------------------------------------------------------
# The fixture files and their dumps


def test_fixture_files_are_what_build_makes(tmp_path: Path) -> None:
    build = build_module()
    build.HERE = tmp_path
    build.main()
    made = sorted(p.name for p in tmp_path.iterdir())
    # (Importing build.py may leave its compiled module beside it, in __pycache__, which git ignores.)
    committed = sorted(
        p.name for p in FIXTURES.iterdir() if p.suffix != ".expected" and p.name not in ("build.py", "__pycache__")
    )
    assert made == committed
    for name in made:
        assert (tmp_path / name).read_bytes() == (FIXTURES / name).read_bytes(), name


@pytest.mark.parametrize(("name", "state"), CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_golden_dump(name: str, state: str) -> None:
    actual = dump(read(name, state))
    golden = FIXTURES / f"{Path(name).stem}.{state}.expected"
    if UPDATE:
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"{golden.name} is missing: run with LAWDIFF_UPDATE_GOLDEN=1 and review it"
    assert actual == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "state"), CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_every_word_is_placed(name: str, state: str) -> None:
    corpus = from_pages(read(name, state))
    (check,) = corpus.checks
    assert check.unplaced == ()
    assert check.placed == check.tokens > 0


@pytest.mark.parametrize(("name", "state"), CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_furniture_is_not_law_text(name: str, state: str) -> None:
    """What a reader declares furniture (comments, headers, fields, dropped changes) is in no clause."""
    (page,) = read(name, state)
    clauses = list(from_pages([page]).editions[0].walk())
    law = " ".join(f"{c.label} {c.title} {c.text}" for c in clauses)
    for furn in page.furniture:
        if furn.reason.startswith(("comment", "page header", "page footer", "text box")):
            assert furn.text.strip() not in law, furn
        if furn.reason.startswith(("tracked insertion", "tracked deletion")):
            # Not in the clause read from the paragraph the change stands in.
            here = " ".join(c.text for c in clauses if c.source == furn.loc)
            assert furn.text.strip() not in here, furn


# ---------------------------------------------------------------------------
# Automatic numbering


def test_docx_numbering_as_word_shows_it() -> None:
    e = edition("docx-numbering.docx")
    got = labels(e)
    # A paragraph style that carries "ARTIKEL %1" (start 45), numbered on by each use.
    assert got["45"] == "ARTIKEL 45" and got["46"] == "ARTIKEL 46"
    assert e.find("45") is not None and e.find("45").title == "Gespeelde kaart"  # type: ignore[union-attr]
    # Sections by a numbered heading style; a heading holds a title.
    assert [got[a] for a in ("45A", "45B", "45C", "45D", "45E", "45F")] == ["A.", "B.", "C.", "D.", "E.", "F."]
    # Items restart under each subsection; an empty numbered paragraph still counts.
    assert [got[a] for a in ("45C2(a)", "45C2(b)", "45C3", "45C4", "45C4(a)", "45C4(b)")] == [
        "(a)", "(b)", "3.", "4.", "(a)", "(b)",
    ]  # fmt: skip
    assert texts(e)["45C4"] == ""
    # Another w:num of the same list goes on (5.); a start override restarts (D1, D2).
    assert texts(e)["45C5"].startswith("Een grote of kleine strafkaart")
    assert texts(e)["45D1"].startswith("Als de blinde een kaart") and "45D2" in got
    # A whole-level override changes the level, not the count (LibreOffice shows 3).
    assert texts(e)["45F3"].startswith("Een speler behoort zijn kaart niet dicht")
    # Bullets are unlabeled list items.
    assert got["45E.p1"] == got["45E.p2"] == "-"
    # 1963 habit: "a." items and "1." subitems, restarting under each item.
    assert [got[a] for a in ("46(a)", "46(b)", "46(b)1", "46(b)2", "46(c)")] == ["a.", "b.", "1.", "2.", "c."]


def test_odt_numbering_as_libreoffice_shows_it() -> None:
    e = edition("odt-numbering.odt")
    got = labels(e)
    assert got["45"] == "ARTIKEL 45" and got["46"] == "ARTIKEL 46"  # outline numbering of the headings
    assert [got[a] for a in ("45A", "45B", "45C", "45D", "45E")] == ["A.", "B.", "C.", "D.", "E."]
    assert [got[a] for a in ("45B2(a)", "45B2(b)", "45B3", "45B4", "45B4(a)", "45B4(b)")] == [
        "(a)", "(b)", "3.", "4.", "(a)", "(b)",
    ]  # fmt: skip
    # text:continue-numbering goes on after an empty paragraph; a new list restarts.
    assert texts(e)["45B5"].startswith("Een grote of kleine strafkaart")
    assert texts(e)["45C1"].startswith("Als de blinde") and texts(e)["45C2"].startswith("Een tegenspeler")
    # text:start-value on an item.
    assert texts(e)["45E7"].startswith("Een speler behoort")
    assert texts(e)["46(b)"].startswith("indien de leider wel een")
    assert [got[a] for a in ("46(c)1", "46(c)2", "46(d)")] == ["1.", "2.", "d."]


def _rendered(path: Path) -> list[str]:
    with SafeZip(path, path.name) as z:
        paras = (read_docx if path.suffix == ".docx" else read_odt)(z, path.name, True)[0]
    return [line for p in paras for line in _render(p)[:1] if line]


@pytest.mark.parametrize("name", ["docx-numbering.docx", "odt-numbering.odt"])
def test_numbers_are_those_libreoffice_shows(tmp_path: Path, name: str, office: Office) -> None:
    """The labels we resolve are the ones LibreOffice prints, line for line."""
    shutil.copy(FIXTURES / name, tmp_path / name)
    done = office.run(
        "--convert-to", "txt:Text (encoded):UTF8", "--outdir", str(tmp_path / "out"), str(tmp_path / name)
    )
    assert done.returncode == 0, done.stderr
    shown = (tmp_path / "out" / f"{Path(name).stem}.txt").read_text(encoding="utf-8-sig")
    lines = [re.sub(r"\s+", " ", line).strip().replace("•", "-") for line in shown.splitlines()]
    assert [line for line in lines if line] == _rendered(FIXTURES / name)


# ---------------------------------------------------------------------------
# Tracked changes


@pytest.mark.parametrize("name", ["docx-tracked-changes.docx", "odt-tracked-changes.odt"])
def test_tracked_changes_read_in_both_states(name: str) -> None:
    new = texts(edition(name, "accepted"))
    old = texts(edition(name, "original"))
    assert "dat zijn partner de beeldzijde" in new["45C1"] and "dat zijn maat de beeldzijde" in old["45C1"]
    # An inserted subsection is in the accepted text only, a deleted one in the original only.
    assert new["45C3"].startswith("Een kaart van de blinde moet worden gespeeld")
    assert "Een kaart van de blinde moet" not in " ".join(old.values())
    assert "Een grote of kleine strafkaart" not in " ".join(new.values())
    assert old["45C3"].startswith("Een grote of kleine strafkaart")


def test_docx_paragraph_marks_and_moves() -> None:
    new = texts(edition("docx-tracked-changes.docx", "accepted"))
    old = texts(edition("docx-tracked-changes.docx", "original"))
    # The deleted paragraph mark joins D's two paragraphs into one line; the moved words stand at their new place.
    assert new["45D"] == (
        "Als de blinde een kaart als gespeeld hanteert zonder dat ze door de leider is genoemd, moet deze kaart"
        " worden teruggenomen. Een tegenspeler mag een kaart terugnemen die gespeeld is na de vergissing (zie"
        " artikel 16D)."
    )
    assert old["45D"].split("\n")[1] == (
        "(zie artikel 16D) Een tegenspeler mag een kaart terugnemen die gespeeld is na de vergissing."
    )
    # w:pPrChange: a subsection now, an item under the (restored) subsection in the original.
    assert new["45C4"].startswith("Tot zijn partner") and old["45C3(a)"].startswith("Tot zijn partner")


def test_the_state_is_in_the_page_metadata() -> None:
    (page,) = read("docx-tracked-changes.docx", "original")
    assert dict(page.meta) == {"state": "original", "tracked changes": "3 insertions, 3 deletions"}
    with pytest.raises(InputError, match="unknown draft state"):
        read_draft(FIXTURES / "docx-tracked-changes.docx", "2027", "rejected")


# ---------------------------------------------------------------------------
# Footnotes, furniture


def test_word_footnotes_and_custom_marks() -> None:
    e = edition("docx-footnotes.docx")
    fn1, fn2 = e.find("44.fn1"), e.find("44.fn2")
    assert fn1 is not None and fn2 is not None
    assert fn1.marker == "¹" and fn1.text.startswith("tenzij hij onderworpen")
    assert fn2.text == "Voor de wijze, waarop kaarten gespeeld behoren te worden, zie art. 66."
    # Markers are out of the text; the note hangs on the clause that carries the marker.
    article = e.find("44")
    assert article is not None and "¹" not in article.text and "²" not in article.text
    assert article.text[: fn1.anchor].endswith("uit zijn hand spelen.")
    # A custom mark "1)" is the printed mark and gives the number; the note does not repeat it.
    note48 = e.find("48.fn1")
    assert note48 is not None and note48.marker == "1)"
    assert note48.text == "De leider behoort fatsoenshalve na te laten zijn kaarten welbewust open te leggen."
    # A typed note, as in the printed book.
    note49 = e.find("49.fn1")
    assert note49 is not None and note49.text == "Zie ook art. 50." and note49.marker == "1)"


def test_odf_notes() -> None:
    e = edition("odt-notes.odt")
    assert e.find("44.fn1") is not None and e.find("48.fn1") is not None
    assert e.find("48.fn1").marker == "1)"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "reasons"),
    [
        (
            "docx-furniture.docx",
            [
                "field code", "field result (TOC, not law text)", "field result (PAGE, not law text)", "image",
                "linked image (never fetched)", "text box (not read as law text)", "field result (DATE, not law text)",
                "comment by Secretaris (not law text)", "page header (not law text)", "page footer (not law text)",
                "external image (never fetched)", "external hyperlink (never fetched)",
                "external attachedTemplate (never fetched)",
            ],
        ),
        (
            "odt-notes.odt",
            [
                "page header (not law text)", "page footer (not law text)", "comment by Secretaris (not law text)",
                "field page-number (not law text)", "linked image (never fetched)",
            ],
        ),
    ],
)  # fmt: skip
def test_furniture_is_listed_with_its_reason(name: str, reasons: list[str]) -> None:
    (page,) = read(name)
    listed = {f.reason for f in page.furniture}
    assert set(reasons) <= listed
    law = " ".join(c.text for c in from_pages([page]).editions[0].walk())
    # A REF field's result is law text as shown; a PAGE field's is not.
    if name == "docx-furniture.docx":
        assert "(zie artikel 45B, bladzijde )." in law and "1 januari 2024" not in law
        assert "Moet hier niet" not in law and "Concept spelregels" not in law


# ---------------------------------------------------------------------------
# Headings


def test_heading_rules(tmp_path: Path) -> None:
    build = build_module()
    build.HERE = tmp_path
    body = [
        build.para("45", style="Heading1"),  # an address heading before the article's own heading
        build.para("ARTIKEL 45 Gespeelde kaart", style="Heading1"),
        build.para("45C", style="Heading2"),
        build.para("C. Verplicht spelen van een kaart", style="Heading2"),
        build.para("45C4(b)", style="Heading2"),
        build.para("(b) " + build.C4B),
        build.para("46 Onvolledige of onjuiste benaming van een kaart uit de blinde", style="Heading1"),
        build.para("1. Een titel die eindigt met een punt.", style="Heading2"),
        build.para(build.A46C1),
        build.para("Inleiding", style="Heading2"),
    ]
    build.docx("headings.docx", body)
    (page,) = read_draft(tmp_path / "headings.docx", "2027")
    e = from_pages([page]).editions[0]
    assert [c.address for c in e.clauses] == ["45", "46"]
    assert texts(e)["45C(b)"] == build.C4B
    furniture = [(f.text, f.reason) for f in page.furniture]
    assert ("45", "clause address heading (derived, not law text)") in furniture
    assert ("45C4(b)", "clause address heading (derived, not law text)") in furniture
    art46 = e.find("46")
    assert art46 is not None and art46.label == "46" and art46.title.startswith("Onvolledige")
    sub = e.find("46.1")
    assert sub is not None and sub.title == "Een titel die eindigt met een punt." and sub.text == build.A46C1


# ---------------------------------------------------------------------------
# General rules a Word redline relies on (tests/test_roundtrip.py reads lawdiff's own)


def test_a_chain_of_dropped_paragraph_marks_joins_every_paragraph(tmp_path: Path) -> None:
    build = build_module()
    build.HERE = tmp_path
    body = [
        build.para("ARTIKEL 45 Gespeelde kaart", style="Heading1"),
        # A sentence split over two paragraphs with a heading inserted between
        # them: rejecting the changes joins all three back into one.
        build.para("Elke speler speelt een kaart.", mark="ins"),
        build.para(build.ins(build.run("45B"), rid=2), style="Heading2", mark="ins"),
        build.para(build.ins(build.run(" De leider speelt uit de blinde."), rid=3), "", mark="ins"),
        build.para("Een gespeelde kaart blijft gespeeld."),
    ]
    build.docx("chain.docx", body)
    original = from_pages(read_draft(tmp_path / "chain.docx", "2027", "original")).editions[0]
    assert texts(original)["45"] == "Elke speler speelt een kaart.Een gespeelde kaart blijft gespeeld."
    accepted = from_pages(read_draft(tmp_path / "chain.docx", "2027")).editions[0]
    assert texts(accepted)["45"].startswith("Elke speler speelt een kaart.\n")


def test_note_labels_typed_or_custom(tmp_path: Path) -> None:
    build = build_module()
    build.HERE = tmp_path
    changed_mark = (
        '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:customMarkFollows="1"'
        ' w:id="3"/></w:r>' + build.dele("1)", 7) + build.ins(build.run("1"), rid=8)
    )
    body = [
        build.para("Artikel 42. De rechten van de blinde.", style="Heading1"),
        # An automatic note whose text starts with its label typed as the book prints it.
        build.para("De blinde mag de aandacht vestigen op een onregelmatigheid", build.fnref(1), " en zwijgen."),
        build.para("Artikel 48. Tonen van kaarten door de leider.", style="Heading1"),
        # A custom mark in superscript digits: its number is 1, not Word's 2.
        build.para("Indien de leider zijn kaarten openlegt, is art. 54 van toepassing", build.fnref(2, "¹⁾"), "."),
        build.para("Artikel 49. Een tegenspeler toont kaarten.", style="Heading1"),
        # A custom mark changed under tracking: each state reads its own.
        build.para("Een kaart die een tegenspeler toont, wordt een strafkaart", changed_mark, "."),
    ]
    notes = [
        build.footnote(1, "1) Hij mag de leider waarschuwen."),
        # Its note typed with the 1963 misprint "!)" as its label, as lawdiff's redline writes notes.
        f'<w:footnote w:id="2"><w:p>{build.run("!) De leider behoort zijn kaarten niet open te leggen.")}</w:p>'
        "</w:footnote>",
        build.footnote(3, "1. Zie ook art. 50."),
    ]
    build.docx("notes.docx", body, footnotes=notes)
    for state, mark49 in (("accepted", "1"), ("original", "1)")):
        read = from_pages(read_draft(tmp_path / "notes.docx", "2027", state))
        e = read.editions[0]
        found = {(c.address, c.label, c.marker, c.text) for c in e.walk() if c.kind.value == "footnote"}
        assert found == {
            ("42.fn1", "1)", "¹", "Hij mag de leider waarschuwen."),
            ("48.fn1", "!)", "¹⁾", "De leider behoort zijn kaarten niet open te leggen."),
            ("49.fn1", "1.", mark49, "Zie ook art. 50."),
        }
        assert texts(e)["42"] == "De blinde mag de aandacht vestigen op een onregelmatigheid en zwijgen."
        # The marks stand apart from the words they follow ("onregelmatigheid¹"): every word is placed.
        for check in read.checks:
            assert check.unplaced == ()


def test_a_container_address_heading_opens_that_container(tmp_path: Path) -> None:
    build = build_module()
    build.HERE = tmp_path

    def marked(label: str, rest: str, mark: int) -> str:
        # The label inside a hidden bookmark, as lawdiff's redline writes it.
        start = f'<w:bookmarkStart w:id="{mark}" w:name="_LawLabel{mark}"/>'
        return build.para(start + build.run(label) + f'<w:bookmarkEnd w:id="{mark}"/>', rest)

    body = [
        build.para("H3", style="Heading1"),
        marked("3", " Voorbereiding en voortgang", 1),
        build.para("ARTIKEL 6 Het schudden en geven", style="Heading2"),
        build.para("Voor het begin van het spel worden de kaarten grondig geschud."),
        build.para("H6", style="Heading1"),
        marked("HVI", "", 2),
        build.para("H6.juiste-gang-van-zaken", style="Heading2"),
        build.para("JUISTE GANG VAN ZAKEN."),
        build.para("ARTIKEL 45 Gespeelde kaart", style="Heading3"),
        build.para("Elke speler behalve de blinde speelt een kaart."),
    ]
    build.docx("containers.docx", body)
    pages = read_draft(tmp_path / "containers.docx", "2027")
    assert [[c.address for c in p.containers] for p in pages] == [["H3"], ["H6"], ["H6", "H6.juiste-gang-van-zaken"]]
    read = from_pages(pages)
    e = read.editions[0]
    got = [(c.address, c.kind.value, c.label, c.title) for c in e.walk() if not c.article]
    assert got == [
        ("H3", "chapter", "3", "Voorbereiding en voortgang"),
        ("H6", "chapter", "HVI", ""),
        ("H6.juiste-gang-van-zaken", "part", "", "JUISTE GANG VAN ZAKEN."),
    ]
    assert [c.address for c in e.walk()] == ["H3", "6", "H6", "H6.juiste-gang-van-zaken", "45"]
    assert all(check.unplaced == () for check in read.checks)


# ---------------------------------------------------------------------------
# Bad input: one clear error naming the file


BAD = {
    "bad-encrypted.docx": ["OLE compound file", "encrypted", "remove the password"],
    "bad-truncated.docx": ["the zip is damaged", "save it again"],
    "bad-macro.docx": ["macro-enabled document (.docm)", "without macros"],
    "bad-template.docx": ["a template (.dotx)", "save it as a Word document"],
    "bad-empty.docx": ["the document holds no text"],
    "bad-not-a-document.docx": ["neither a Word (.docx) nor an OpenDocument text (.odt)"],
    "bad-xml.docx": ["not well-formed XML", "word/document.xml line 1"],
    "bad-entities.docx": ["declares a DTD", "entities are never expanded"],
    "bad-encrypted.odt": ["encrypted (saved with a password)", "without a password"],
    "bad-template.odt": ["a template (.ott)", "OpenDocument text document"],
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_document(name: str) -> None:
    with pytest.raises(InputError) as info:
        read_draft(FIXTURES / name, "2027", display=name)
    message = str(info.value)
    assert message.startswith(name)
    for part in BAD[name]:
        assert part in message, (part, message)
    assert info.value.fix


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_document_in_a_corpus_folder_is_one_line_at_the_cli(tmp_path: Path, name: str) -> None:
    (tmp_path / "2027").mkdir()
    shutil.copy(FIXTURES / name, tmp_path / "2027" / name)
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 2, result.output
    err = result.stderr
    assert "Traceback" not in err and err.count("\n") == 1
    assert f"{tmp_path}/2027/{name}" in err and BAD[name][0] in err


def _zip(path: Path, members: dict[str, bytes]) -> None:
    """A .docx whose parts are those of docx-numbering.docx, with ``members`` instead."""
    with zipfile.ZipFile(FIXTURES / "docx-numbering.docx") as good:
        parts = {i.filename: good.read(i) for i in good.infolist()}
    parts.update(members)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def test_zip_bomb_stopped_by_ratio_while_reading(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.docx"
    _zip(bomb, {"word/document.xml": b"\0" * (16 * 1024 * 1024)})
    with pytest.raises(InputError, match=r"expands more than 200 times its compressed size: a zip bomb"):
        read_draft(bomb, "2027")


def test_zip_bomb_stopped_by_declared_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zipsafe, "MAX_TOTAL_BYTES", 1024 * 1024)
    bomb = tmp_path / "bomb.docx"
    _zip(bomb, {"word/document.xml": b"<w/>" * (512 * 1024)})
    with pytest.raises(InputError, match=r"would expand to \d+ bytes \(more than 1048576\)"):
        read_draft(bomb, "2027")


def test_zip_bomb_whose_header_lies(tmp_path: Path) -> None:
    """A member that says it is small but decompresses to more is never trusted."""
    bomb = tmp_path / "bomb.docx"
    data = b"<w/>" * (256 * 1024)
    _zip(bomb, {"word/document.xml": data})
    raw = bytearray(bomb.read_bytes())
    size = len(data).to_bytes(4, "little")
    for at in [m.start() for m in re.finditer(re.escape(size), bytes(raw))]:
        raw[at : at + 4] = (1000).to_bytes(4, "little")  # the local header and the central directory
    bomb.write_bytes(bytes(raw))
    with pytest.raises(InputError, match=r"cannot be decompressed|damaged"):
        read_draft(bomb, "2027")


def test_a_part_that_expands_past_the_member_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zipsafe, "MAX_MEMBER_BYTES", 4096)
    path = tmp_path / "big.docx"
    shutil.copy(FIXTURES / "docx-numbering.docx", path)
    with pytest.raises(InputError, match="expands past"):
        read_draft(path, "2027")


def test_no_edition_is_an_error_that_says_how_to_give_one(tmp_path: Path) -> None:
    path = tmp_path / "concept.docx"
    shutil.copy(FIXTURES / "docx-numbering.docx", path)
    with pytest.raises(InputError, match=r"cannot tell which edition.*--draft FILE --as NAME"):
        read_file(path)
    assert edition_from_name(tmp_path / "2027" / "concept.docx") == "2027"
    assert edition_from_name(tmp_path / "spelregels-concept-2031.docx") == "2031"
    assert read_draft(path, "2027-concept")[0].edition == "2027-concept"


# ---------------------------------------------------------------------------
# Recognition by content, and the typed draft


def test_formats_are_recognised_by_content_not_name(tmp_path: Path) -> None:
    (tmp_path / "2027").mkdir()
    for src, dst in (("odt-numbering.odt", "a.docx"), ("docx-numbering.docx", "b.odt"), ("text-concept.txt", "c.md")):
        shutil.copy(FIXTURES / src, tmp_path / "2027" / dst)
    formats = {p.file: p.format for p in (page for f in sorted((tmp_path / "2027").iterdir())
                                         for page in read_file(f, f.name, "2027"))}  # fmt: skip
    assert formats == {"a.docx": "draft-odt", "b.odt": "draft-docx", "c.md": "draft-text"}


def test_a_draft_edition_in_a_corpus_is_compared_like_any_other(tmp_path: Path) -> None:
    shutil.copytree(Path(__file__).parent.parent / "corpus" / "2007", tmp_path / "2007")
    (tmp_path / "2027").mkdir()
    shutil.copy(FIXTURES / "docx-numbering.docx", tmp_path / "2027" / "concept.docx")
    corpus = load([tmp_path])
    assert [e.name for e in corpus.editions] == ["2007", "2027"]
    assert all(c.unplaced == () for c in corpus.checks)
    result = CliRunner().invoke(main, ["compare", "2007", "2027", "--corpus", str(tmp_path), "--article", "45"])
    assert result.exit_code == 0, result.output
    assert "split     45D -> 45D1, 45D2" in result.output  # the draft's automatic 1., 2. under D


def test_typed_draft_needs_its_title_line() -> None:
    text = (FIXTURES / "text-concept.txt").read_text(encoding="utf-8")
    (page,) = read_file(FIXTURES / "text-concept.txt", "text-concept.txt")
    assert page.format == "draft-text" and page.edition == "2027"  # the year in the title line
    # Without the draft title, the text is a wiki page that lost its title, and says so.
    untitled = text.split("\n", 2)[2]
    with pytest.raises(InputError, match="is not a wiki page title"):
        from lawdiff.sources import read_text

        read_text(untitled, "2027/untitled.txt", "2027")
    # Named as a draft on purpose (--draft), it needs none.
    (page,) = read_draft(FIXTURES / "text-concept.txt", "2027")
    assert page.format == "draft-text"


def test_the_reader_takes_no_state_for_typed_text() -> None:
    a = read_draft(FIXTURES / "text-concept.txt", "2027", State.ORIGINAL)
    b = read_draft(FIXTURES / "text-concept.txt", "2027", State.ACCEPTED)
    assert a == b


def test_tokens_of_a_superscript_marker_are_counted_once() -> None:
    # The lossless check must see the rendered marks as the tree holds them.
    assert tokens("spelen.¹ Na") == ["spelen", ".", "¹", "Na"]
