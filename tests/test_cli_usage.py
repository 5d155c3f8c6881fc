"""Usage errors in one line, and a pipe its reader closed: what a command says, and with which status."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from lawdiff.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _one_line(result: Result, *words: str) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lawdiff: error: "), result.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


# What was wrong, and the words the one line must hold (the option or argument named, what to do).
USAGE_CASES = {
    "missing-file": (["review", "import", "/no/such/file.jsonl"], ["'FILE'", "does not exist", "review import --help"]),
    "bad-choice": (["compare", "2007", "2017", "--format", "pdf"], ["'--format'", "'pdf'", "'docx'", "--help"]),
    "unknown-option": (["compare", "2007", "2017", "--bogus"], ["no such option '--bogus'", "compare --help"]),
    "missing-argument": (["compare", "2007"], ["missing argument 'NEW'", "usage:", "OLD NEW"]),
    "option-without-value": (["compare", "2007", "2017", "--threshold"], ["'--threshold' requires an argument"]),
    "unknown-command": (["bogus"], ["no such command 'bogus'", "--help"]),
    "group-option": (["--bogus"], ["no such option '--bogus'"]),
    "review-subcommand": (["review", "set", "2017:45C4(b)", "accepted", "--bogus"], ["'--bogus'", "review set"]),
    "bad-choice-of-a-review-command": (
        ["review", "export", "--format", "pdf"],
        ["'--format'", "'pdf'", "'jsonl'"],
    ),
}


@pytest.mark.parametrize("name", sorted(USAGE_CASES))
def test_every_usage_error_is_one_line(name: str) -> None:
    args, words = USAGE_CASES[name]
    _one_line(_run(*args), *words)


def test_a_group_without_a_command_still_shows_its_help() -> None:
    result = _run("review")
    assert result.exit_code == 2 and "Usage:" in result.output and "Commands:" in result.output


def test_a_source_name_says_when_there_is_one() -> None:
    line = _one_line(_run("report", "2017@wiki", "2017@nuxt"), "no edition '2017@wiki'")
    assert "given only when the corpus holds one edition from two sources" in line
    assert "2017 comes from one source here (nuxt), so it is named 2017" in line
    assert line.endswith("name one of: 1963, 1997, 2007, 2017")


# ---------------------------------------------------------------------------
# A closed pipe: a real one, a real process


def _lawdiff(*args: str, stdout: int, cwd: Path = ROOT) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LAWDIFF_CACHE": "off"}
    return subprocess.Popen(
        [sys.executable, "-m", "lawdiff", *args], stdout=stdout, stderr=subprocess.PIPE, cwd=cwd, env=env
    )


def _closed_pipe() -> int:
    """The writing end of a pipe whose reader is gone (`| head -n 0`)."""
    read, write = os.pipe()
    os.close(read)
    return write


# A command's own status: 1 for the differences --exit-code asks about, 0 for help (and 0 for a plain
# compare, as the next test shows).
CLOSED_PIPE_CASES = {
    "compare-exit-code": (["compare", "2007", "2017", "--exit-code"], 1),
    "help": (["compare", "--help"], 0),
}


@pytest.mark.parametrize("name", sorted(CLOSED_PIPE_CASES))
def test_a_pipe_closed_before_the_first_line_is_let_go_quietly(name: str) -> None:
    args, status = CLOSED_PIPE_CASES[name]
    write = _closed_pipe()
    try:
        p = _lawdiff(*args, stdout=write)
    finally:
        os.close(write)
    _, err = p.communicate(timeout=120)
    assert (p.returncode, err) == (status, b"")


def test_a_pipe_closed_after_the_first_line_ends_the_same_way() -> None:
    """`| head -1` of an output longer than the pipe holds: the same quiet end, and the command's status (a
    guard: the text stream's write returned short here and dropped the rest, which ended quietly too)."""
    read, write = os.pipe()
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)  # the page's 90 kB would not fit anyway; now surely not
    try:
        p = _lawdiff("compare", "2007", "2017", "--format", "html", stdout=write)
    finally:
        os.close(write)
    with os.fdopen(read, "rb") as reader:
        assert reader.readline().startswith(b"<!DOCTYPE html>")
    _, err = p.communicate(timeout=120)
    assert (p.returncode, err) == (0, b"")


def test_a_report_written_whole_is_kept_when_stdout_is_closed(tmp_path: Path) -> None:
    write = _closed_pipe()
    try:
        p = _lawdiff("report", "2007", "2017", "-o", str(tmp_path / "report"), stdout=write, cwd=tmp_path)
    finally:
        os.close(write)
    _, err = p.communicate(timeout=300)
    assert (p.returncode, err) == (0, b"")
    assert (tmp_path / "report" / "index.html").is_file()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["report"]  # no staging folder left


# ---------------------------------------------------------------------------
# A refused review write creates no store


# Writes refused in a folder without a store: an id no change has, a clause with no change, a bad status,
# comments and corrections that are not there, no open meeting, nothing to undo, a bad import.
REFUSED_WRITES = {
    "set-unknown-id": ["review", "set", "ffff0000", "accepted"],
    "set-unknown-status": ["review", "set", "2017:45C4(b)", "bogus"],
    "comment-no-change": ["review", "comment", "2017:45Z", "Klopt dit?"],
    "comment-empty": ["review", "comment", "2017:45C4(b)", "  "],
    "assign-unknown-id": ["review", "assign", "ffff0000", "Anne"],
    "comment-edit": ["review", "comment-edit", "abcd1234", "Anders."],
    "comment-delete": ["review", "comment-delete", "abcd1234"],
    "meeting-end": ["review", "meeting", "end"],
    "undo": ["review", "undo"],
    "unpin": ["review", "unpin", "abcd1234"],
    "import-not-jsonl": ["review", "import", "{here}/not.jsonl"],
}


@pytest.mark.parametrize("name", sorted(REFUSED_WRITES))
def test_a_refused_write_creates_no_store(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "not.jsonl").write_text("no export\n", encoding="utf-8")
    args = [a.format(here=tmp_path) for a in REFUSED_WRITES[name]]
    result = CliRunner().invoke(main, args, env={"LAWDIFF_AUTHOR": "Anne", "LAWDIFF_REVIEW": ""})
    _one_line(result)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not.jsonl"]
    # So a compare there says nothing of a review.
    compared = CliRunner().invoke(main, ["compare", "2007", "2017"], env={"LAWDIFF_REVIEW": ""})
    assert compared.exit_code == 0 and "with the review of" not in compared.stderr


def test_a_write_that_succeeds_creates_the_store_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    env = {"LAWDIFF_AUTHOR": "Anne", "LAWDIFF_REVIEW": ""}
    result = CliRunner().invoke(main, ["review", "comment", "2017:45C4(b)", "Klopt dit?"], env=env)
    assert result.exit_code == 0, result.output
    listed = CliRunner().invoke(main, ["review", "list", "--format", "json"], env=env)
    comments = [c for ch in json.loads(listed.stdout)["changes"] for c in ch.get("comments", [])]
    assert [c["text"] for c in comments] == ["Klopt dit?"]  # written once, not once per try
