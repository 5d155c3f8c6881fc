"""The terminal rule, for every command that prints text.

Control and bidirectional characters in law text, comments and names, and the characters the output's
encoding cannot hold, are printed as visible escapes (``\\u202e``), with one note on stderr saying so;
JSON and files written with ``-o`` keep the text as it is.  The corpus is the bundled one, copied, with
such characters put into a clause, a heading and a file name.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from lawdiff import marks
from lawdiff.cli import main, terminal

ROOT = Path(__file__).resolve().parent.parent
HIDDEN_IN_TEXT = "\u202e\x1b[9m\u2066\x07"  # an override, a strike-through code, an isolate, a bell
NOTE = "lawdiff: note: control and bidi characters are printed as escapes"
PAGE = "2007/wiki-Sjabloon-2007-45.txt"
PAGE_NAMED = "2007/wiki-Sjabloon-2007-45\u2067.txt"  # a file name holding an isolate


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled 2007 and 2017 pages, the 2007 page's first clause and a heading holding hidden
    characters, and its file name an isolate."""
    root = tmp_path_factory.mktemp("hostile")
    for year in ("2007", "2017"):
        shutil.copytree(ROOT / "corpus" / year, root / year)
    page = (root / PAGE).read_text(encoding="utf-8")
    assert "Elke speler" in page and "A. Spelen van een kaart" in page
    page = page.replace("Elke speler", f"Elke{HIDDEN_IN_TEXT} speler", 1)
    page = page.replace("A. Spelen van een kaart", "A. Spelen\u2066 van een kaart", 1)
    (root / PAGE).unlink()
    (root / PAGE_NAMED).write_text(page, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def store(hostile: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A review store with a comment and an author's name holding hidden characters."""
    path = tmp_path_factory.mktemp("store") / "review.sqlite"
    result = _run(
        "review", "comment", "2017:45C4(b)", f"rood{HIDDEN_IN_TEXT}", "--author", "Anne\u202e", "--review", str(path)
    )
    assert result.exit_code == 0, result.stderr
    return path


def _run(*args: str, color: bool = False, charset: str = "utf-8") -> Result:
    return CliRunner(charset=charset).invoke(main, list(args), color=color)


# What each command prints of the hostile corpus; {c}: the corpus folder, {s}: the store.
TEXT_CASES = {
    "show-clause": ["show", "2007:45A", "--corpus", "{c}"],
    "show-outline": ["show", "2007", "--corpus", "{c}"],
    "compare": ["compare", "2007", "2017", "--corpus", "{c}", "--no-review"],
    "compare-all": ["compare", "2007", "2017", "--all", "--corpus", "{c}", "--no-review"],
    "history": ["history", "2007:45A", "--corpus", "{c}", "--no-review"],
    "check": ["check", "--corpus", "{c}"],
    "editions": ["editions", "--corpus", "{c}"],
    "review-list": ["review", "list", "--pair", "2007", "2017", "--article", "45", "--review", "{s}"],
    "review-log": ["review", "log", "--review", "{s}"],
    "error": ["show", "2007", "--corpus", "{c}/no\u202esuch"],
}
JSON_CASES = {
    "show-clause": ["show", "2007:45A", "--corpus", "{c}", "--format", "json"],
    "compare": ["compare", "2007", "2017", "--corpus", "{c}", "--no-review", "--format", "json"],
    "history": ["history", "2007:45A", "--corpus", "{c}", "--no-review", "--format", "json"],
    "check": ["check", "--corpus", "{c}", "--format", "json"],
    "editions": ["editions", "--corpus", "{c}", "--format", "json"],
    "review-list": ["review", "list", "--pair", "2007", "2017", "--review", "{s}", "--format", "json"],
}


def _args(case: list[str], hostile: Path, store: Path) -> list[str]:
    return [a.format(c=hostile, s=store) for a in case]


@pytest.mark.parametrize("name", sorted(TEXT_CASES))
def test_text_shows_hidden_characters_as_escapes_with_one_note(name: str, hostile: Path, store: Path) -> None:
    result = _run(*_args(TEXT_CASES[name], hostile, store))
    assert result.exit_code in (0, 1, 2), result.output
    printed = result.stdout + result.stderr
    assert not marks.has_hidden(printed), [ch for ch in printed if marks.has_hidden(ch)]
    assert "\\u202e" in printed or "\\u2066" in printed or "\\u2067" in printed
    assert result.stderr.count(NOTE) == 1, result.stderr
    assert result.stderr.rstrip("\n").split("\n")[-1].startswith(NOTE)  # one line, said last


@pytest.mark.parametrize("name", sorted(JSON_CASES))
def test_json_keeps_the_characters_and_needs_no_note(name: str, hostile: Path, store: Path) -> None:
    result = _run(*_args(JSON_CASES[name], hostile, store))
    assert result.exit_code in (0, 1), result.output
    assert not marks.has_hidden(result.stdout)  # escaped in JSON's own syntax on the terminal ...
    text = json.dumps(json.loads(result.stdout), ensure_ascii=False)
    assert any(ch in text for ch in "\u202e\u2066\u2067")  # ... and the same characters once read
    assert NOTE not in result.stderr


def test_a_file_written_with_o_keeps_the_text(hostile: Path, tmp_path: Path) -> None:
    out = tmp_path / "changes.txt"
    result = _run("compare", "2007", "2017", "--corpus", str(hostile), "--no-review", "-o", str(out))
    assert result.exit_code == 0, result.output
    written = out.read_text(encoding="utf-8")
    assert all(ch in written for ch in HIDDEN_IN_TEXT) and "\\u202e" not in written
    assert result.stdout == "" and NOTE not in result.stderr


def test_colours_never_pass_law_texts_escape_codes(hostile: Path) -> None:
    """Law text holding ESC [9m (strike-through) must not strike a clause through on a coloured terminal:
    the output is then printed plain, escaped."""
    result = _run("compare", "2007", "2017", "--corpus", str(hostile), "--no-review", "--color", color=True)
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\\x1b[9m" in result.stdout
    assert result.stderr.count(NOTE) == 1
    # Without hidden characters the colours are there.
    clean = _run("compare", "2007", "2017", "--no-review", "--color", color=True)
    assert "\x1b[" in clean.stdout and NOTE not in clean.stderr


@pytest.mark.parametrize("fmt", ["text", "md", "csv"])
def test_correlate_under_a_latin1_locale_escapes_what_latin1_cannot_hold(fmt: str) -> None:
    result = _run("correlate", "2007", "2017", "--format", fmt, charset="latin-1")
    assert result.exit_code == 0, result.output
    assert "\\u2014" in result.stdout and "\u2014" not in result.stdout
    assert result.stderr.count("lawdiff: note: characters that iso8859-1 cannot hold are printed as escapes") == 1


def test_json_under_a_latin1_locale_is_ascii_and_the_same_text() -> None:
    result = _run("compare", "2007", "2017", "--format", "json", "--no-review", charset="latin-1")
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes.isascii()
    plain = _run("compare", "2007", "2017", "--format", "json", "--no-review")
    assert json.loads(result.stdout) == json.loads(plain.stdout)


@given(
    st.text(alphabet=st.sampled_from(list("ab é\n\t\u2014\u202e\u2066\x1b\x00\x85\x7f\U0001f600\udcff"))),
    st.sampled_from(["utf-8", "iso8859-1", "ascii"]),
)
def test_shown_text_holds_nothing_hidden_and_fits_its_encoding(text: str, encoding: str) -> None:
    shown = terminal.shown_as(text, encoding)
    assert not marks.has_hidden(shown)
    shown.encode(encoding)  # never a UnicodeEncodeError
    as_json = terminal.shown_as(json.dumps(text, ensure_ascii=False), encoding, terminal.Kind.JSON)
    assert json.loads(as_json) == text and not marks.has_hidden(as_json)
    as_json.encode(encoding)


# ---------------------------------------------------------------------------
# File names that are not UTF-8


@pytest.fixture()
def named_in_bytes(tmp_path: Path) -> Path:
    """The bundled 2007 and 2017 pages, the 2007 page under a name that is not UTF-8 (b"\\xff")."""
    root = tmp_path / "corpus"
    for year in ("2007", "2017"):
        shutil.copytree(ROOT / "corpus" / year, root / year)
    os.rename(bytes(root / PAGE), bytes(root / "2007") + b"/wiki-\xff-2007-45.txt")
    return root


def test_a_file_name_that_is_not_utf8_is_shown_escaped_and_the_pages_written(
    named_in_bytes: Path, tmp_path: Path, cache_dir: Path
) -> None:
    shown = "2007/wiki-\\udcff-2007-45.txt"
    for _ in range(2):  # made, then from the cache
        result = _run("report", "--corpus", str(named_in_bytes), "-o", str(tmp_path / "report"), "--no-review")
        assert result.exit_code == 0, result.output
        assert shown in (tmp_path / "report" / "articles" / "45.html").read_text(encoding="utf-8")
        page = tmp_path / "compare.html"
        result = _run("compare", "2007", "2017", "--corpus", str(named_in_bytes), "--format", "html", "-o", str(page))
        assert result.exit_code == 0, result.output
        assert shown in page.read_text(encoding="utf-8")
    listed = _run("editions", "--corpus", str(named_in_bytes))
    assert shown in listed.stdout and "\udcff" not in listed.stdout
    assert listed.stderr.count("characters that utf-8 cannot hold are printed as escapes") == 1
