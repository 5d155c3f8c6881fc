"""The command line in Dutch: how the language is chosen, and every command's output and help in the catalog's
Dutch, with nothing of the catalog left in English.

A committee's afternoon is run once in Dutch (:func:`dutch`): the corpus read, compared and checked, a meeting
with decisions in Dutch words, the log, hand corrections, usage errors.  The completeness test reads all of it,
and every command's ``--help``, for the English of any catalog message that has a Dutch of its own.
"""

from __future__ import annotations

import json
import re
import symtable
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner, Result
from untranslated import page_texts

from lawdiff import i18n
from lawdiff.cli import clickwords, main
from lawdiff.i18n import terms

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
PO = i18n.LOCALE_DIR / "nl" / "LC_MESSAGES" / "lawdiff.po"
# The variables that choose the language, cleared for a test that sets its own (conftest sets LAWDIFF_LANG=en).
UNSET = {"LAWDIFF_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}

# Catalog entries whose Dutch is the English, reviewed: the same word in both languages, or nothing to translate.
SAME_IN_DUTCH = {
    ("decision", "open"),
    ("meeting", "open"),
    ("clause", "paragraaf"),  # the 1936 edition's own word for a division of a part
    ("log", "import"),
    ("log", "status"),
    ("field", "status"),
    (None, "ok"),
    (None, "consistent"),
    (None, "SQLite: {exc}"),
    (None, "{spec}: {what}"),
    (None, "{what}: {titles}"),
    (None, "{edition}: {n} payloads: {summary}"),
    (None, "Agenda"),  # the served app's (tests/test_i18n_serve.py reviews it there too)
    (None, "Status:"),
    (None, "id {id}"),
    (None, "Synopsis"),  # the report's (tests/test_i18n_report.py reviews them there too)
    (None, "in {clauses}"),
    (None, "synopsis"),
}


def run(args: list[str], env: dict[str, str | None] | None = None) -> Result:
    return CliRunner().invoke(main, args, env=env, prog_name="lawdiff")


# ---------------------------------------------------------------------------
# Choosing the language


def test_lang_nl_and_a_dutch_locale_give_the_same_dutch_comparison(tmp_path: Path) -> None:
    """The issue's two commands: `lawdiff --lang nl compare 2007 2017 --article 45` and the same under
    LANG=nl_NL.UTF-8 read as Dutch, from the counts to the last line."""
    by_option = run(["--lang", "nl", "compare", "2007", "2017", "--article", "45"])
    by_locale = run(
        ["compare", "2007", "2017", "--article", "45"],
        {**UNSET, "LANG": "nl_NL.UTF-8", "XDG_CONFIG_HOME": str(tmp_path)},
    )
    assert by_option.exit_code == 0, by_option.output
    assert by_locale.output == by_option.output
    lines = by_option.stdout.splitlines()
    assert lines[0].startswith("2007 -> 2017: 9 ongewijzigd, 11 gewijzigd (1 alleen redactioneel), 0 gesplitst")
    assert lines[0].endswith("3 vernummerd, 0 verplaatst, 2 opschriften gewijzigd; 4 normatief")
    assert lines[1].startswith("redactiepatroon (één keer geteld): modaal: moet -> wordt geacht")
    assert "Artikel 45" in lines
    assert "  6cb1736f4a  ingevoegd    45D2  (gewicht 1)" in lines
    assert "woorden 99,8% gelijk" in by_option.stdout  # the decimal comma
    assert lines[-1] == "7 ongewijzigde bepaling(en) niet getoond (--all toont ze)"


def _said(result: Result) -> str:
    assert result.exit_code == 0, result.output
    return "nl" if "geen vergaderingen" in result.stdout else "en" if "no meetings" in result.stdout else "?"


def test_the_language_is_chosen_option_variable_configuration_locale_english(tmp_path: Path) -> None:
    store = str(tmp_path / "review.sqlite")
    listing = ["review", "meeting", "list", "--review", store]
    home = tmp_path / "home"
    (home / "lawdiff").mkdir(parents=True)
    (home / "lawdiff" / "config.toml").write_text('lang = "nl"\n', encoding="utf-8")
    nothing = {**UNSET, "XDG_CONFIG_HOME": str(tmp_path / "none")}
    configured = {**UNSET, "XDG_CONFIG_HOME": str(home)}
    assert _said(run(listing, nothing)) == "en"
    assert _said(run(listing, {**nothing, "LANG": "nl_NL.UTF-8"})) == "nl"
    assert _said(run(listing, {**nothing, "LC_ALL": "C", "LANG": "nl_NL.UTF-8"})) == "en"
    assert _said(run(listing, {**configured, "LANG": "en_GB.UTF-8"})) == "nl"  # the configuration before the locale
    assert _said(run(listing, {**configured, "LAWDIFF_LANG": "en"})) == "en"  # the variable before the configuration
    assert _said(run(["--lang", "en", *listing], {**configured, "LAWDIFF_LANG": "nl"})) == "en"  # --lang first
    assert _said(run([*listing, "--lang", "nl"], nothing)) == "nl"  # after the command's name too
    assert _said(run([*listing, "--lang=nl"], nothing)) == "nl"
    assert i18n.language() == "en"  # a command line gives its language back


def test_an_unknown_language_is_one_line_said_in_the_language_the_rest_chooses(tmp_path: Path) -> None:
    nothing = {**UNSET, "XDG_CONFIG_HOME": str(tmp_path)}
    english = run(["--lang", "fr", "editions"], nothing)
    assert (english.exit_code, english.stdout) == (2, "")
    assert english.stderr == "lawdiff: error: --lang: no interface in 'fr'; use one of en, nl\n"
    dutch = run(["editions", "--lang", "fr"], {**nothing, "LANG": "nl_NL.UTF-8"})
    assert dutch.stderr == "lawdiff: fout: --lang: geen interface in 'fr'; gebruik een van en, nl\n"
    variable = run(["editions"], {**nothing, "LAWDIFF_LANG": "xx"})
    assert (variable.exit_code, variable.stderr) == (
        2,
        "lawdiff: error: LAWDIFF_LANG: no interface in 'xx'; use one of en, nl\n",
    )


def test_help_in_dutch_even_when_lang_follows_help() -> None:
    result = run(["compare", "--help", "--lang", "nl"])
    assert result.exit_code == 0
    assert result.stdout.startswith(
        "Gebruik: lawdiff compare [OPTIES] OLD NEW\n\n  Vergelijk twee edities bepaling voor"
    )
    assert "\nOpties:\n" in result.stdout and "--lang en|nl" in result.stdout
    assert "Toon deze hulp en stop." in result.stdout
    assert "Voorbeeld: lawdiff compare 2007 2017 --article 45" in result.stdout


# ---------------------------------------------------------------------------
# A committee's afternoon in Dutch


@pytest.fixture(scope="module")
def dutch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Result]:
    """Each command's result, run in Dutch in one folder, in the order a committee would run them."""
    home = tmp_path_factory.mktemp("nl")
    env = {
        **UNSET,
        "LAWDIFF_LANG": "nl",
        "LAWDIFF_CACHE": str(home / "cache"),
        "LAWDIFF_AUTHOR": "Anne",
        "LAWDIFF_REVIEW": str(home / "review.sqlite"),
    }
    pair = ["--pair", "2007", "2017"]
    export = str(home / "anne.jsonl")
    commands: dict[str, list[str]] = {
        "editions": ["editions"],
        "show": ["show", "2017"],
        "show-clause": ["show", "1963:48"],
        "check": ["check", str(CORPUS / "2007")],
        "check-notes": ["check", str(CORPUS / "1963")],
        "compare": ["compare", "2007", "2017", "--article", "45", "--all", "-v"],
        "compare-uncertain": ["compare", "1963", "2007", "--article", "45"],
        "history": ["history", "1963:45(d)"],
        "correlate": ["correlate", "2007", "2017", "--article", "45"],
        "correlate-md": ["correlate", "2007", "2017", "--article", "45", "--format", "md"],
        "correlate-csv": ["correlate", "2007", "2017", "--article", "45", "--format", "csv"],
        "compare-html": ["compare", "2007", "2017", "--article", "45C", "--format", "html"],
        "meeting-start": ["review", "meeting", "start", "--date", "2026-12-02", "--attendees", "Anne,Bert"],
        "set": ["review", "set", "2017:45C4(b)", "aanvaard", "--comment", "Akkoord.", *pair],
        "set-query": ["review", "set", "2017:45C1", "vraag", *pair],
        "assign": ["review", "assign", "2017:45C1", "Bert", *pair],
        "comment": ["review", "comment", "2017:45C1", "Vergelijk met 1997.", *pair],
        "list": ["review", "list", "--article", "45", *pair],
        "list-json": ["review", "list", "--article", "45C4", "--format", "json", *pair],
        "compare-reviewed": ["compare", "2007", "2017", "--article", "45C"],
        "meeting-list": ["review", "meeting", "list"],
        "meeting-end": ["review", "meeting", "end"],
        "pin": ["review", "pin", "2007:45D", "2017:45D1"],
        "forbid": ["review", "forbid", "2007:45C", "2017:45E"],
        "unpin": ["review", "unpin", "2007:45D"],
        "log": ["review", "log"],
        "undo": ["review", "undo"],
        "export": ["review", "export", "-o", export],
        "import": ["review", "import", export],
        "bad-status": ["review", "set", "2017:45C4(b)", "misschien"],
        "bad-choice": ["compare", "2007", "2017", "--format", "pdf"],
        "unknown-option": ["compare", "2007", "2017", "--bogus"],
        "missing-argument": ["compare", "2007"],
        "no-edition": ["show", "1999"],
        "no-clause": ["show", "2017:99"],
    }
    return {name: run(args, env) for name, args in commands.items()}


ERRORS = ("bad-status", "bad-choice", "unknown-option", "missing-argument", "no-edition", "no-clause")


def test_every_command_of_the_afternoon_did_its_work(dutch: dict[str, Result]) -> None:
    for name, result in dutch.items():
        expected = 2 if name in ERRORS else 0
        assert result.exit_code == expected, (name, result.output)
        if name in ERRORS:
            assert result.stderr.startswith("lawdiff: fout: ") and result.stderr.count("\n") == 1, (name, result.stderr)


def test_review_set_takes_the_dutch_words_and_the_store_keeps_english_values(dutch: dict[str, Result]) -> None:
    assert dutch["set"].stdout.endswith(
        " 2007 -> 2017 gewijzigd 45C4(b): aanvaard (vergadering " + dutch["set"].stdout[-12:]
    )
    assert ": vraag (vergadering " in dutch["set-query"].stdout
    listed = json.loads(dutch["list-json"].stdout)
    assert {c["status"] for c in listed["changes"] if c["decision"]} == {"accepted"}  # JSON stays English
    assert "gebruik een van: open, aanvaard, vraag, vertaalcorrectie, afgewezen" in dutch["bad-status"].stderr
    # The decision's line in Dutch, its date too (whatever the day the test runs on).
    months = "januari|februari|maart|april|mei|juni|juli|augustus|september|oktober|november|december"
    assert re.search(
        rf"aanvaard; door Anne, [1-3]?\d ({months}) \d{{4}} \d\d:\d\d UTC", dutch["compare-reviewed"].stdout
    )


def test_csv_stays_english(dutch: dict[str, Result]) -> None:
    english = run(["correlate", "2007", "2017", "--article", "45", "--format", "csv"])
    assert dutch["correlate-csv"].stdout == english.stdout
    assert english.stdout.startswith("old,new,relation,ratio,words,heading,change\n")


def test_compare_format_html_is_dutch(dutch: dict[str, Result]) -> None:
    """``compare --format html`` in a Dutch run is a Dutch page (its words checked with the rest of the afternoon's
    below); the same command in English is the English page."""
    english = run(["compare", "2007", "2017", "--article", "45C", "--format", "html"])
    page = dutch["compare-html"].stdout
    assert page.startswith('<!DOCTYPE html>\n<html lang="nl">')
    assert english.stdout.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert "Elke bepaling van 2007 naast haar tegenhanger in 2017." in page
    assert "Every clause of 2007 beside its counterpart in 2017." in english.stdout


def test_the_readers_notes_and_the_reasons_of_a_match_are_dutch(dutch: dict[str, Result]) -> None:
    """What the readers noticed and why the aligner matched two clauses are made with the corpus, in English,
    and kept in the cache: they are said in Dutch where they are shown (``check``, ``show``, ``compare``)."""
    notes = dutch["check-notes"].stdout
    assert ":37: 43(c): tekst loopt door na een lege regel, als één geheel gelezen\n" in notes
    assert ":105: 48.fn1: voetnootteken gedrukt als '!)', gelezen als 1)\n" in notes
    assert "noot: voetnootteken gedrukt als '!)', gelezen als 1)" in dutch["show-clause"].stdout
    why = "    waarom: gedeelde woorden 0,20, zelfde artikel (gat tussen koppelingen)\n"
    assert why in dutch["compare-uncertain"].stdout


def _english_markers() -> tuple[dict[str, str], set[tuple[str | None, str]]]:
    """Each catalog message's English pieces (between its placeholders, of two words or more) that its Dutch
    does not hold, lower case with white space as one space; and the entries whose Dutch is the English."""
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="nl")
    markers: dict[str, str] = {}
    same: set[tuple[str | None, str]] = set()
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if tuple(ids) == tuple(strings[: len(ids)]):
            same.add((m.context, ids[0]))
            continue
        dutch = " ".join(" ".join(strings).split()).lower()
        for english in ids:
            for piece in re.split(r"\{[^{}]*\}", english):
                piece = " ".join(piece.split()).strip(" ;:,.()").lower()
                if len(piece.split()) >= 2 and piece not in dutch:
                    markers[piece] = english
    return markers, same


def _commands(cmd: click.Command, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    if isinstance(cmd, click.Group):
        for name, sub in sorted(cmd.commands.items()):
            yield from _commands(sub, (*path, name))


def test_nothing_of_the_catalog_comes_out_in_english(dutch: dict[str, Result]) -> None:
    """Every command's output and every help, in Dutch, holds no catalog message in its English (the
    reviewed same-word entries aside, which the catalog must match exactly)."""
    markers, same = _english_markers()
    assert same == SAME_IN_DUTCH, "review the entries whose Dutch is the English word"
    machine = ("correlate-csv", "list-json")  # for programs
    shown = {name: r.stdout + r.stderr for name, r in dutch.items() if name not in machine}
    # A page is read as a reader reads it: outside the law text, its labels and its script's words.
    shown["compare-html"] = "\n".join(page_texts(dutch["compare-html"].stdout))
    for path in _commands(main):
        shown[f"{' '.join(path)} --help"] = run([*path, "--help"], {**UNSET, "LAWDIFF_LANG": "nl"}).stdout
    flat = {name: " ".join(text.split()).lower() for name, text in shown.items()}
    left = [
        f"{name}: {english!r}" for name, text in flat.items() for piece, english in markers.items() if piece in text
    ]
    assert left == []


def test_the_commands_use_the_glossarys_words() -> None:
    """The kinds of change, the decisions and the flags are said in the words of lawdiff/locale/GLOSSARY-nl.md."""
    glossary = (i18n.LOCALE_DIR / "GLOSSARY-nl.md").read_text(encoding="utf-8")
    dutch_words = {w.strip() for row in re.findall(r"^\|[^|]+\|([^|]+)\|$", glossary, re.M) for w in row.split(",")}
    dutch_words |= {w.strip() for w in " / ".join(dutch_words).split("/")}
    with i18n.use("nl"):
        said = [terms.kind(k) for k in ("unchanged", "modified", "split", "merged", "added", "removed")]
        said += [terms.note(n) for n in ("renumbered", "moved", "title changed", "editorial only", "normative")]
        said += [terms.status(s) for s in ("open", "accepted", "query", "translation-fix", "rejected")]
        said += [terms.flag(f) for f in ("modal", "negation", "actor", "number", "reference", "condition")]
    assert [w for w in said if w not in dutch_words] == []


# ---------------------------------------------------------------------------
# The machinery's own rules


def test_no_function_shadows_the_translation_function() -> None:
    """A function that assigns ``_`` (``for _, x in ...``) and calls ``_("...")`` fails when it runs (and ruff
    then removes the import it thinks unused): no module of lawdiff has one."""

    def scopes(table: symtable.SymbolTable) -> Iterator[symtable.SymbolTable]:
        yield table
        for child in table.get_children():
            yield from scopes(child)

    found = []
    for path in sorted((ROOT / "lawdiff").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "_(" not in source:
            continue
        for scope in scopes(symtable.symtable(source, str(path), "exec")):
            if scope.get_type() != "function" or "_" not in scope.get_identifiers():
                continue
            symbol = scope.lookup("_")
            if symbol.is_local() and symbol.is_referenced():
                found.append(f"{path.relative_to(ROOT)}: {scope.get_name()}")
    assert found == []


def test_no_message_is_marked_inside_an_f_string() -> None:
    """Babel does not read inside an f-string's braces: a message marked there is never in the catalog."""
    inside = re.compile(r"""f(["'])[^"'\n]*\{[^}\n]*\b(_|N_|pgettext|ngettext)\(""")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "lawdiff").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if inside.search(line)
    ]
    assert found == []


def test_the_click_messages_in_the_catalog_are_clicks() -> None:
    """Each of click's messages lawdiff translates is still a message of click's (a changed one would just be
    shown in English: this says to list it again)."""
    from babel.messages.extract import extract_from_file

    folder = Path(click.__file__).parent
    theirs: set[str] = set()
    for name in ("core.py", "decorators.py", "exceptions.py", "formatting.py", "parser.py", "types.py"):
        for _line, message, _comments, _context in extract_from_file("python", str(folder / name)):
            theirs.update(message if isinstance(message, tuple) else (message,))
    # "required" is translated from a variable (``_(extra["required"])``), which Babel cannot follow.
    theirs.add("required")
    assert [m for m in (*clickwords.MESSAGES, *clickwords.PLURALS) if m not in theirs] == []
