"""The ingest commands through click's runner: exact output, exit codes, bad input.

Golden files live in ``tests/golden/ingest/`` and are compared byte for byte.
After a deliberate change, rewrite them with
``LAWDIFF_UPDATE_GOLDEN=1 python3 -m pytest tests/test_cli_ingest.py`` and
read every changed line against the seeds before keeping it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from lawdiff.cli import main
from lawdiff.corpus import timeline as corpus_timeline
from lawdiff.sources.base import Page
from lawdiff.sources.build import PageTree

GOLDEN = Path(__file__).parent / "golden" / "ingest"
ROOT = Path(__file__).resolve().parent.parent
UPDATE = os.environ.get("LAWDIFF_UPDATE_GOLDEN") == "1"


def run(*args: str, color: bool = False) -> Result:
    return CliRunner().invoke(main, list(args), color=color)


# ---------------------------------------------------------------------------
# Exact output


GOLDEN_CASES = {
    "show-2017-45C4.txt": ["show", "2017:45C4", "--no-color"],
    "show-2017-45C4.json": ["show", "2017:45C4", "--format", "json"],
    "show-1963-48.txt": ["show", "1963:48", "--no-color"],
    "check.txt": ["check", "--no-color"],
    "check.json": ["check", "--format", "json"],
    "editions.txt": ["editions"],
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_output(name: str) -> None:
    result = run(*GOLDEN_CASES[name])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    golden = GOLDEN / name
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(result.stdout_bytes)
    assert result.stdout_bytes == golden.read_bytes()


def test_every_golden_file_has_a_command() -> None:
    assert sorted(p.name for p in GOLDEN.iterdir()) == sorted(GOLDEN_CASES)


def test_the_json_goldens_are_json() -> None:
    for name in GOLDEN_CASES:
        if name.endswith(".json"):
            json.loads((GOLDEN / name).read_text(encoding="utf-8"))


def test_colour_adds_only_escape_codes() -> None:
    coloured = run("show", "2017:45C4", "--color", color=True)
    plain = run("show", "2017:45C4", "--no-color")
    assert coloured.exit_code == plain.exit_code == 0
    assert "\x1b[" in coloured.stdout
    assert click.unstyle(coloured.stdout) == plain.stdout


def test_text_output_is_plain_when_not_a_terminal() -> None:
    assert "\x1b[" not in run("show", "2017:45C4").stdout
    assert "\x1b[" not in run("check").stdout


# ---------------------------------------------------------------------------
# show says exactly what the seeds say


def seed_text(year: str) -> str:
    (path,) = (ROOT / "corpus" / year).iterdir()
    return path.read_text(encoding="utf-8")


def test_show_2017_45C4_has_the_payload_words_verbatim() -> None:
    out = run("show", "2017:45C4", "--no-color").stdout
    payload = json.loads((ROOT / "corpus" / "2017" / "nuxt-artikel-45.payload.json").read_text(encoding="utf-8"))
    # The li of 45C4: "(a) ... (maar zie " <a>artikel 47</a> ").\n(b) ... (zie "
    # <a>artikel 47D</a> " en " <a>16C1</a> ")."
    (li,) = (x for x in payload if isinstance(x, str) and x.startswith("(a) Een kaart is gespeeld"))
    (rest,) = (x for x in payload if isinstance(x, str) and x.startswith(").\n(b) De leider mag"))
    item_a = li.removeprefix("(a) ") + "artikel 47)."
    item_b = rest.removeprefix(").\n(b) ") + "artikel 47D en 16C1)."
    assert f"[45C4(a)] (a) {item_a}\n" in out
    assert f"[45C4(b)] (b) {item_b}\n" in out


def test_show_1963_48_has_the_seed_words_verbatim() -> None:
    out = run("show", "1963:48", "--no-color").stdout
    lines = seed_text("1963").split("\n")
    start = lines.index("Artikel 48. Tonen van één of meer kaarten door de leider.")
    heading, p1, p2, p3, note = (lines[start], lines[start + 2], lines[start + 4], lines[start + 6], lines[start + 10])
    assert f"[48] {heading}\n" in out
    assert f"  {p1}\n" in out
    assert f"  {p2}\n" in out  # the marker stands in the text, as printed
    assert f"  {p3}\n" in out
    # The note with the marker it belongs to, and the misprint as printed.
    assert f"  [48.fn1] ¹⁾ {note.removeprefix('!) ')} (printed '!)')\n" in out
    assert "note: note marker printed as '!)', read as 1)" in out


# ---------------------------------------------------------------------------
# Exit codes of check


def test_check_on_the_corpus_exits_0_and_says_100_percent() -> None:
    result = run("check", "--no-color")
    assert result.exit_code == 0
    assert "(100.0%), 0 fragment(s) unplaced" in result.stdout
    assert "LOST TEXT" not in result.stdout


def test_check_of_one_folder_and_one_file(tmp_path: Path) -> None:
    folder = run("check", str(ROOT / "corpus" / "1963"), "--no-color")
    assert folder.exit_code == 0
    assert folder.stdout.startswith("wiki-Sjabloon-1963-HVI-JUISTE-GANG-VAN-ZAKEN.txt: 1963 wiki-text")
    single = run("check", str(ROOT / "corpus" / "2007" / "wiki-Sjabloon-2007-45.txt"), "--format", "json")
    assert single.exit_code == 0
    (checked,) = json.loads(single.stdout)["files"]
    assert (checked["edition"], checked["placed"], checked["tokens"]) == ("2007", 693, 693)


def losing(monkeypatch: pytest.MonkeyPatch, address: str) -> None:
    """Make the tree builder lose the text of one clause, as a parser bug would."""
    real: Callable[[Page], PageTree] = corpus_timeline.build_page

    def lossy(page: Page) -> PageTree:
        tree = real(page)
        stack = list(tree.roots)
        while stack:
            draft = stack.pop()
            if draft.address == address:
                draft.text = ""
            stack.extend(draft.children)
        return tree

    monkeypatch.setattr(corpus_timeline, "build_page", lossy)


def test_check_exits_1_when_a_file_has_unplaced_text(monkeypatch: pytest.MonkeyPatch) -> None:
    losing(monkeypatch, "45B")
    result = run("check", str(ROOT / "corpus" / "2007"), "--no-color")
    assert result.exit_code == 1
    assert result.stderr == ""
    assert "LOST TEXT" in result.stdout
    assert "\n  unplaced at wiki-Sjabloon-2007-45.txt:7: De leider speelt een kaart uit de blinde" in result.stdout
    assert "1 fragment(s) unplaced" in result.stdout


def test_check_json_says_lost_and_where(monkeypatch: pytest.MonkeyPatch) -> None:
    losing(monkeypatch, "45D2")
    result = run("check", str(ROOT / "corpus" / "2017"), "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["lost"] is True
    (lost,) = [u for f in report["files"] for u in f["unplaced"]]
    assert lost["source"] == {"file": "nuxt-artikel-45.payload.json", "path": "$[591]"}
    assert lost["text"].startswith("Als het te laat is")


@pytest.mark.parametrize(
    "args",
    [
        ("compare", "2007", "2017"),
        ("compare", "2007", "2017", "--format", "json"),
        ("correlate", "2007", "2017"),
        ("history", "2007:45A"),
        ("report", "-o", "{tmp}/report"),
    ],
)
def test_a_command_that_compares_says_in_one_line_that_text_was_lost(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: tuple[str, ...]
) -> None:
    losing(monkeypatch, "45B")
    result = run(*(a.format(tmp=tmp_path) for a in args))
    assert result.exit_code == 0, result.output
    (line,) = [x for x in result.stderr.splitlines() if "warning" in x]
    assert line == (
        "lawdiff: warning: 2 fragment(s) of source text in 2 page(s) are not in the clause tree, so not compared"
        " (the first at 2007/wiki-Sjabloon-2007-45.txt:7); `lawdiff check` lists them"
    )


def test_only_text_lost_from_the_editions_compared_is_warned_about(monkeypatch: pytest.MonkeyPatch) -> None:
    losing(monkeypatch, "45B")  # 2007's and 2017's pages hold a 45B
    assert "warning" not in run("compare", "1963", "1997").stderr
    (line,) = run("compare", "1997", "2007").stderr.splitlines()
    assert line.startswith("lawdiff: warning: 1 fragment(s) of source text in 1 page(s) are not in the clause tree")


# ---------------------------------------------------------------------------
# Bad input: one line on stderr naming the file, what is wrong and what to do; exit 2


def write(folder: Path, name: str, data: bytes | str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


BAD_FILES: dict[str, tuple[str, bytes | str, list[str]]] = {
    # case: (file name, content, what stderr must say besides the file name)
    "empty-file": ("2017/empty.json", b"", ["the file is empty", "remove it from the corpus"]),
    "blank-file": ("2007/blank.txt", "\n \n\t\n", ["the file is empty"]),
    "truncated-json": (
        "2017/truncated.json",
        '[{"data":1},["ShallowReactive",2],{"-artikel-45":',
        ["line 1 column", "not valid JSON", "save the page's _payload.json again"],
    ),
    "invalid-json": ("2017/invalid.json", "[{data: 1}]", ["not valid JSON", "save the page's _payload.json again"]),
    "devalue-cycle": (
        "2017/cycle.json",
        '[{"data":1},{"page":2},{"body":3,"parent":1},{"type":4,"value":5},"minimark",[]]',
        [":$[2].parent:", "refers back to element 1, which holds it (a cycle)", "save the page's _payload.json again"],
    ),
    "dangling-index": (
        "2017/dangling.json",
        '[{"data":1},{"page":2},{"body":9}]',
        [":$[2].body:", "index 9 points past the end of the payload (3 elements)"],
    ),
    "payload-without-body": (
        "2017/nobody.json",
        '[{"data":1},{"navigation_docs":2},[]]',
        [":$[1]:", "the payload holds no page with a body", "give the _payload.json of a content page"],
    ),
    "payload-without-data": ("2017/nodata.json", '[{"prerenderedAt":1},1700000000000]', ["no 'data' object"]),
    "payload-without-edition": (
        "misc/noyear.json",
        '[{"data":1},{"p":2},{"title":3,"body":4},"Artikel 6 — Het schudden en geven",'
        '{"type":5,"value":6},"minimark",[]]',
        ["cannot tell which edition", "corpus folder named after the edition's year"],
    ),
    "text-without-title-line": (
        "2007/untitled.txt",
        "ARTIKEL 45 Gespeelde kaart\nA. Spelen van een kaart\nElke speler speelt een kaart.\n",
        [":1:", "is not a wiki page title", "put the page title (e.g. Sjabloon:2007:45) on the first line"],
    ),
    "not-utf8": (
        "1963/latin1.txt",
        "Sjabloon:1963:HVI JUISTE GANG VAN ZAKEN\n\nArtikel 48. Tonen van \xe9\xe9n kaart.\n".encode("latin-1"),
        [":line 3:", "not UTF-8 (byte 0xe9", "save the dump as UTF-8"],
    ),
    "unknown-format": (
        "2017/page.xml",
        "<html><body><h1>Artikel 45</h1></body></html>\n",
        [":1:", "unknown format", "give a file in one of the formats lawdiff reads"],
    ),
}


def assert_one_line_error(result: Result, *expected: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    assert isinstance(result.exception, SystemExit)
    err = result.stderr
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("lawdiff: error: ")
    # what happened; what to do
    assert "; " in err
    for part in expected:
        assert part in err, (part, err)
    return err


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_file_in_a_corpus_folder(tmp_path: Path, case: str) -> None:
    name, content, expected = BAD_FILES[case]
    write(tmp_path, name, content)
    # also a good file, so that the bad one is what stops the run
    write(tmp_path, "2007/wiki-Sjabloon-2007-45.txt", (ROOT / "corpus/2007/wiki-Sjabloon-2007-45.txt").read_bytes())
    err = assert_one_line_error(run("check", str(tmp_path)), *expected)
    # The message names the file by the path as given, so that it leads there.
    given = f"{tmp_path}/{name}"
    assert f"lawdiff: error: {given}:" in err or f"lawdiff: error: {given};" in err


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_file_given_by_path(tmp_path: Path, case: str) -> None:
    name, content, expected = BAD_FILES[case]
    path = write(tmp_path, name, content)
    err = assert_one_line_error(run("check", str(path)), *expected)
    assert str(path) in err


@pytest.mark.parametrize("command", [["show", "2017"], ["editions"], ["show", "2017:45C4", "--format", "json"]])
def test_bad_file_through_corpus_option(tmp_path: Path, command: list[str]) -> None:
    name, content, expected = BAD_FILES["devalue-cycle"]
    write(tmp_path, name, content)
    assert_one_line_error(run(*command, "--corpus", str(tmp_path)), f"{name}:$[2].parent:", *expected)


def test_a_folder_with_no_editions(tmp_path: Path) -> None:
    empty = tmp_path / "leeg"
    empty.mkdir()
    err = assert_one_line_error(run("check", str(empty)), "no editions found", "give a folder with wiki pages")
    assert str(empty) in err
    assert_one_line_error(run("show", "2017", "--corpus", str(empty)), "no editions found")


def test_a_folder_with_only_hidden_files_has_no_editions(tmp_path: Path) -> None:
    write(tmp_path, ".hidden/page.txt", "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\n")
    assert_one_line_error(run("editions", "--corpus", str(tmp_path)), "no editions found")


def test_a_path_that_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nergens"
    assert_one_line_error(run("check", str(missing)), f"{missing}: no such file or folder", "give an existing")


def test_an_address_that_does_not_exist() -> None:
    err = assert_one_line_error(run("show", "2017:45Z"), "2017 has no clause '45Z'", "article 45 has: 45, 45A")
    assert "45C4(b)" in err


def test_an_address_in_an_article_that_is_not_in_the_corpus() -> None:
    assert_one_line_error(run("show", "2017:99A"), "2017 has no clause '99A'", "the edition has articles 6, 45")


def test_an_edition_that_does_not_exist() -> None:
    assert_one_line_error(run("show", "1999"), "no edition '1999' in the corpus", "name one of: 1963, 1997, 2007, 2017")
    assert_one_line_error(run("show", "1999:45"), "no edition '1999'")


def test_json_errors_are_still_one_line_on_stderr() -> None:
    assert_one_line_error(run("show", "2017:45Z", "--format", "json"), "2017 has no clause '45Z'")


# ---------------------------------------------------------------------------
# Help


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_has_help_with_an_example_and_is_in_the_readme(command: str) -> None:
    result = run(command, "-h")
    assert result.exit_code == 0
    assert re.search(r"Example: lawdiff " + command, result.stdout)
    assert "--corpus DIR" in result.stdout
    assert f"lawdiff {command}" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_check_counts_files_and_pages_apart() -> None:
    # One MediaWiki export holds three pages: it said "3 file(s)".
    export = Path(__file__).parent / "fixtures" / "mediawiki" / "2017.xml"
    last = run("check", str(export), "--no-cache").stdout.splitlines()[-1]
    assert last.startswith("1 file(s), 3 page(s), 1 edition(s): ")
