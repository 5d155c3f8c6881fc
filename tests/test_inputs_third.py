"""Every input, third round (issue 23): what a mutation fuzzer and a new user found in the readers.

Each test here failed before its fix: a heading repeated on a chapter page nested each repeat in the
last (RecursionError at about 600, quadratic time in ``check``), a 5,000-digit article number broke
``compare``, an export's second ``<text>`` was dropped without a word, a NUL byte gave a two-line
message, one junk file stopped ``check`` and blocked every comparison, a long typed draft was
refused as a zip bomb, and ``check --draft`` did not list what it set aside.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from lawdiff.cli import main
from lawdiff.corpus import from_pages
from lawdiff.model import Clause
from lawdiff.sources import read_text

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
WIKI_1963 = CORPUS / "1963" / "wiki-Sjabloon-1963-HVI-JUISTE-GANG-VAN-ZAKEN.txt"
EXPORT_1963 = ROOT / "tests" / "fixtures" / "mediawiki" / "1963.xml"
_HEADING = "'''JUISTE GANG VAN ZAKEN. Art. 41 t/m 49'''\n"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _walk(clauses: tuple[Clause, ...]) -> list[tuple[int, Clause]]:
    """Every clause with its depth, without recursion (the trees under test may be deep)."""
    out: list[tuple[int, Clause]] = []
    stack = [(0, c) for c in reversed(clauses)]
    while stack:
        depth, c = stack.pop()
        out.append((depth, c))
        stack += [(depth + 1, k) for k in reversed(c.children)]
    return out


# ---------------------------------------------------------------------------
# 1, 2. A heading repeated on a chapter page: siblings, in linear work


def _repeated_wiki(n: int) -> str:
    title, _, body = WIKI_1963.read_text(encoding="utf-8").partition("\n")
    first, _, rest = body.lstrip("\n").partition("\n")
    return f"{title}\n\n{first}\n" + "\nA. Het begin van het spelen.\n" * n + rest


def _repeated_export(n: int) -> str:
    text = EXPORT_1963.read_text(encoding="utf-8")
    assert _HEADING in text
    return text.replace(_HEADING, _HEADING + "\nA. Het begin van het spelen.\n" * n, 1)


def _corpus_folder(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / "corpus"
    (folder / "1963").mkdir(parents=True)
    (folder / "1963" / name).write_text(text, encoding="utf-8")
    shutil.copytree(CORPUS / "2007", folder / "2007")
    return folder


def test_repeated_heading_on_a_chapter_page_is_a_row_of_siblings() -> None:
    corpus = from_pages(read_text(_repeated_wiki(600), "hvi.txt"))
    edition = corpus.edition("1963")
    clauses = _walk(edition.clauses)
    part = next(c for _, c in clauses if c.address == "H6.juiste-gang-van-zaken")
    repeats = [c.address for c in part.children if c.label == "A."]
    assert repeats == ["H6.juiste-gang-van-zaken.A"] + [f"H6.juiste-gang-van-zaken.A~{i}" for i in range(2, 601)]
    assert max(depth for depth, _ in clauses) <= 4


def test_repeated_heading_in_an_export_every_command_reads_it(tmp_path: Path, cache_dir: Path) -> None:
    # Past the interpreter's recursion limit (1,000): each repeat nested in the last failed at about 600.
    folder = _corpus_folder(tmp_path, "export.xml", _repeated_export(1500))
    for args in (
        ["check"],
        ["show", "1963"],
        ["show", "1963:H6.juiste-gang-van-zaken.A~1500"],
        ["compare", "1963", "2007"],
        ["history", "2007:45"],
        ["editions"],
        ["report", "-o", str(tmp_path / "site")],
    ):
        status, output = _run(*args, "--corpus", str(folder))
        assert status in (0, 1), (args, output[-500:])
        assert "RecursionError" not in output


def _address_characters(text: str) -> tuple[int, int]:
    """(clauses, characters of all their addresses) of a page: the work of building and freezing its tree."""
    corpus = from_pages(read_text(text, "export.xml"))
    clauses = _walk(corpus.edition("1963").clauses)
    return len(clauses), sum(len(c.address) for _, c in clauses)


def test_repeated_heading_costs_linear_work() -> None:
    # Counted, not timed: every repeat nested in the last made addresses as long as the page
    # (H6.juiste-gang-van-zaken.A.A.A...), so four times the repeats made sixteen times the characters.
    small_clauses, small_chars = _address_characters(_repeated_export(500))
    big_clauses, big_chars = _address_characters(_repeated_export(2000))
    assert big_clauses - small_clauses == 1500
    assert big_chars < 4.5 * small_chars


# ---------------------------------------------------------------------------
# 3. An article number of more than 4,300 digits


def test_article_ranges_orders_numbers_of_any_length() -> None:
    from lawdiff.report import article_ranges

    huge = "7" * 5000
    assert article_ranges(["45", huge, "041", "42", "43", "1" + "0" * 4999, "9" * 4999, "45A"]) == (
        f"41-43, 45, {'9' * 4999}-{'1' + '0' * 4999}, {huge}, 45A"
    )


def test_huge_article_number_in_a_page_title_compares(tmp_path: Path, cache_dir: Path) -> None:
    huge = "7" * 5000
    _, _, body = (CORPUS / "2007" / "wiki-Sjabloon-2007-45.txt").read_text(encoding="utf-8").partition("\n")
    folder = tmp_path / "corpus"
    (folder / "2007").mkdir(parents=True)
    (folder / "2007" / "page.txt").write_text(
        f"Sjabloon:2007:{huge}\n" + body.replace("ARTIKEL 45", f"ARTIKEL {huge}"), encoding="utf-8"
    )
    shutil.copytree(CORPUS / "2017", folder / "2017")
    for command in ("compare", "correlate"):
        status, output = _run(command, "2007", "2017", "--corpus", str(folder))
        assert status == 0, output[-400:]
        assert "not compared" in output and huge in output
        assert "set_int_max_str_digits" not in output


def test_huge_number_in_a_payload_says_so_without_pythons_advice(tmp_path: Path) -> None:
    path = tmp_path / "2017" / "_payload.json"
    path.parent.mkdir()
    path.write_text("[" + "9" * 4400 + "]", encoding="utf-8")
    status, output = _run("check", str(path))
    assert status == 2
    assert output.count("\n") == 1 and "lawdiff: error:" in output and "more than 4,300 digits" in output
    assert "set_int_max_str_digits" not in output


# ---------------------------------------------------------------------------
# 4 is in the parser fixtures (mediawiki-2007-two-texts, mediawiki-2007-text-in-contributor).
# 6. A NUL byte in an export


def test_nul_byte_in_an_export_is_a_one_line_error(tmp_path: Path) -> None:
    text = (ROOT / "tests" / "fixtures" / "mediawiki" / "2007.xml").read_text(encoding="utf-8")
    path = tmp_path / "2007.xml"
    path.write_text(text.replace("Elke speler", "Elke\x00speler", 1), encoding="utf-8")
    status, output = _run("check", str(path))
    assert status == 2
    assert output.count("\n") == 1 and output.startswith(f"lawdiff: error: {path}:")
    assert "Char 0x0" in output and ", line " not in output


def test_nul_byte_in_a_draft_part_is_a_one_line_error(tmp_path: Path) -> None:
    import zipfile

    with zipfile.ZipFile(ROOT / "tests" / "fixtures" / "draft" / "docx-numbering.docx") as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    document = parts["word/document.xml"]
    at = document.index(b"<w:t")
    parts["word/document.xml"] = document[:at] + b"\0" + document[at:]
    path = tmp_path / "2027" / "concept.docx"
    path.parent.mkdir()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    status, output = _run("check", str(tmp_path))
    assert status == 2
    assert output.count("\n") == 1 and "Char 0x0" in output and ", line " not in output


# ---------------------------------------------------------------------------
# 11. Unreadable files: all named in one run; an uninvolved edition's does not block; backups skipped


def _junk_corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    shutil.copytree(CORPUS, folder)
    (folder / "1963" / "bad.xml").write_text("<mediawiki><page>", encoding="utf-8")
    return folder


def test_check_names_every_unreadable_file_in_one_run(tmp_path: Path, cache_dir: Path) -> None:
    folder = _junk_corpus(tmp_path)
    (folder / "2007" / "bad.json").write_text('{"x": [', encoding="utf-8")
    (folder / "2017" / "bad.docx").write_bytes(b"PK\x03\x04junk")
    status, output = _run("check", str(folder))
    assert status == 2
    assert output.count("\n") == 1 and output.startswith("lawdiff: error: 3 files cannot be read: ")
    for name in ("1963/bad.xml:1:18: malformed XML", "2007/bad.json:line 1 column 8", "2017/bad.docx: the zip"):
        assert name in output


def test_a_bad_file_of_an_edition_not_compared_does_not_block(tmp_path: Path, cache_dir: Path) -> None:
    folder = _junk_corpus(tmp_path)
    status, output = _run("compare", "2007", "2017", "--corpus", str(folder))
    assert status == 0, output
    # One of the editions compared: refused, naming the file.
    (folder / "2007" / "bad.json").write_text('{"x": [', encoding="utf-8")
    status, output = _run("compare", "2007", "2017", "--corpus", str(folder))
    assert status == 2 and "2007/bad.json" in output and "1963/bad.xml" not in output


def test_editor_backups_and_hidden_files_are_skipped_and_listed(tmp_path: Path, cache_dir: Path) -> None:
    folder = tmp_path / "corpus"
    shutil.copytree(CORPUS / "2007", folder / "2007")
    page = (folder / "2007" / "wiki-Sjabloon-2007-45.txt").read_text(encoding="utf-8")
    backups = ["copy~", "wiki-Sjabloon-2007-45.txt~", "#wiki#", "page.swp", "page.bak", "page.txt.orig", ".hidden"]
    for name in backups:
        # The text changed a little, as a backup's is: read as a page, it would be a conflict.
        (folder / "2007" / name).write_text(page.replace("Elke speler", "Iedere speler"), encoding="utf-8")
    status, output = _run("check", str(folder))
    assert status == 0, output
    for name in backups:
        assert f"2007/{name}: skipped" in output
    assert "1 file(s), 1 page(s)" in output and "0 conflict(s)" in output


# ---------------------------------------------------------------------------
# 13. A long typed paragraph is no zip bomb


def test_a_draft_with_a_five_mb_paragraph_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import re
    import zipfile

    from lawdiff.errors import InputError
    from lawdiff.sources.draft import read_draft, zipsafe

    source = ROOT / "tests" / "fixtures" / "draft" / "docx-numbering.docx"
    with zipfile.ZipFile(source) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    document = parts["word/document.xml"].decode("utf-8")
    first = re.search(r"<w:t(?: [^>]*)?>([^<]*)</w:t>", document)
    assert first is not None
    long = "speler kaart " * (5_000_000 // 13)
    parts["word/document.xml"] = (document[: first.start(1)] + long + document[first.end(1) :]).encode("utf-8")
    path = tmp_path / "concept.docx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    info = zipfile.ZipFile(path).getinfo("word/document.xml")
    assert info.file_size > zipsafe.MAX_RATIO * info.compress_size  # as regular as a bomb
    pages = read_draft(path, "2027")
    assert any(long.strip() in b.text or long.strip() in b.title for p in pages for b in p.blocks)
    # Past the absolute limit of a part, the same file is refused, as a bomb would be.
    monkeypatch.setattr(zipsafe, "MAX_MEMBER_BYTES", 4_000_000)
    with pytest.raises(InputError, match="expands past"):
        read_draft(path, "2027")


# ---------------------------------------------------------------------------
# 14. check --draft lists each piece set aside


def test_check_draft_lists_each_piece_set_aside_in_text_and_json() -> None:
    import json

    draft = ROOT / "tests" / "fixtures" / "draft" / "docx-tracked-changes.docx"
    deleted = [
        ("paragraph 3", "tracked deletion by Commissie", "maat"),
        ("paragraph 8", "tracked deletion by Commissie", "Een grote of kleine strafkaart kan verplicht gespeeld"),
    ]
    status, output = _run("check", "--draft", str(draft), "--as", "2027", "--no-cache")
    assert status == 0, output
    for place, reason, text in deleted:
        assert f'  note {draft} {place}: set aside, {reason} (not in the accepted text): "{text}' in output
    status, output = _run("check", "--draft", str(draft), "--as", "2027", "--no-cache", "--format", "json")
    (page,) = [f for f in json.loads(output)["files"] if f["file"] == str(draft)]
    notes = [(n["source"].get("path"), n["note"]) for n in page["notes"]]
    for place, reason, text in deleted:
        assert any(
            p == place and n.startswith(f'set aside, {reason} (not in the accepted text): "{text}') for p, n in notes
        )
