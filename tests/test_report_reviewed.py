"""The review matched in a forked process beside the report's plan (``lawdiff.report.reviewed``).

The same result as in this process; the store's errors are the command's
errors; a process that is stopped, or whose parent stops listening, never
keeps anyone waiting.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from interrupt import interrupt
from test_review_view import run_of

from lawdiff.corpus import load
from lawdiff.diff.comparison import Comparison
from lawdiff.errors import InputError, LawdiffBug
from lawdiff.report import reviewed
from lawdiff.review import Status, Store, open_for_reading, open_for_writing, runs
from lawdiff.review.ids import resolve


@pytest.fixture(scope="module")
def run() -> list[Comparison]:
    return run_of(load())


@pytest.fixture
def store(tmp_path: Path, run: list[Comparison]) -> Iterator[Store]:
    path = tmp_path / "review.sqlite"
    with open_for_writing(path) as s:
        t = resolve("2017:45C4(b)", s, lambda: run).target
        s.set_status(t, Status.ACCEPTED, "Anne", comment="Akkoord.")
    with open_for_reading(path) as s:
        yield s


@pytest.fixture(scope="module")
def eds() -> dict[str, Any]:
    return {e.name: e for e in runs.timeline(load())}


def test_forked_and_here_give_the_same_review(
    store: Store, run: list[Comparison], eds: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LAWDIFF_JOBS", "1")
    here = reviewed.start(store, run, eds).result()
    monkeypatch.setenv("LAWDIFF_JOBS", "2")
    pending = reviewed.start(store, run, eds)
    assert pending._process is not None  # this one was forked
    forked = pending.result()
    assert forked.notes == here.notes and forked.marks == here.marks
    assert (forked.decisions, forked.comments) == (here.decisions, here.comments) == (1, 1)
    assert pending._process is None and pending._reader is None  # reaped, pipe closed


def test_a_store_gone_before_the_fork_reads_is_an_input_error_not_an_empty_review(
    store: Store, run: list[Comparison], eds: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LAWDIFF_JOBS", "2")
    assert store.path is not None
    store.path.unlink()  # this process's connection still reads it; a new one would find nothing
    with pytest.raises(InputError, match="went away"):
        reviewed.start(store, run, eds).result()


def test_closing_stops_a_process_still_at_work(
    store: Store, run: list[Comparison], eds: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import lawdiff.review

    monkeypatch.setenv("LAWDIFF_JOBS", "2")
    monkeypatch.setattr(lawdiff.review, "attach", lambda *_a, **_k: time.sleep(60))
    pending = reviewed.start(store, run, eds)
    process = pending._process
    started = time.monotonic()
    pending.close()
    assert time.monotonic() - started < 10 and process is not None and not process.is_alive()


def test_a_process_whose_parent_stops_listening_ends_instead_of_waiting(
    store: Store, run: list[Comparison], eds: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A result far larger than a pipe holds: the send fails once no one can read, it does not hang.
    from lawdiff.review import attach

    big = reviewed.ReviewShown({}, {}, attach(store, run), 0, 0)
    monkeypatch.setenv("LAWDIFF_JOBS", "2")
    monkeypatch.setattr(reviewed, "shown", lambda *_a: (big, "x" * 20_000_000))
    pending = reviewed.start(store, run, eds)
    process = pending._process
    assert pending._reader is not None and process is not None
    pending._reader.close()  # the parent's end gone, nothing read
    process.join(30)
    assert not process.is_alive()


def test_an_internal_error_keeps_its_words_through_pickling() -> None:
    error = pickle.loads(pickle.dumps(LawdiffBug("x went wrong")))
    assert str(error) == str(LawdiffBug("x went wrong")) and error.what == "x went wrong"


_DRIVER = """
import sys, time, pathlib
marker = pathlib.Path(sys.argv[1])
stage = sys.argv[2]

def busy(*_args, **_kwargs):
    marker.touch()
    time.sleep(60)

if stage == "pages":
    import lawdiff.report.files as files
    files._write_one = busy
else:
    import lawdiff.review
    lawdiff.review.attach = busy
from lawdiff.cli import main
main(sys.argv[3:])
"""


@pytest.mark.parametrize("stage", ["pages", "review"])
def test_ctrl_c_stops_the_command_and_its_workers_with_one_line(tmp_path: Path, stage: str) -> None:
    import sys

    store = tmp_path / "review.sqlite"
    open_for_writing(store).close()
    marker = tmp_path / "busy"
    command = [sys.executable, "-c", _DRIVER, str(marker), stage, "report", "--review", str(store)]
    interrupt([*command, "-o", str(tmp_path / "report")], tmp_path, marker.exists, "the workers")
    assert not (tmp_path / "report").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".report")]


def test_a_report_reads_a_store_in_a_read_only_folder_in_its_forked_process() -> None:
    """A store received by e-mail, saved where nothing may be written: the report shows its decisions."""
    import os
    import shutil
    import subprocess
    import tempfile

    from test_review_store import ROOT, another_user

    tmp = Path(tempfile.mkdtemp(prefix="lawdiff-report-"))  # not tmp_path: its folders are private
    tmp.chmod(0o755)
    mail, out = tmp / "mail", tmp / "out"
    mail.mkdir()
    out.mkdir()
    out.chmod(0o777)
    path = mail / "review.sqlite"
    with open_for_writing(path) as s:
        s.set_status(resolve("2017:45C4(b)", s, lambda: run_of(load())).target, Status.ACCEPTED, "Anne", "Akkoord.")
    mail.chmod(0o555)
    path.chmod(0o444)
    try:
        # Root may write anywhere: as another user.
        python, user = another_user(ROOT / "lawdiff" / "report" / "reviewed.py", "click, diff_match_patch, rapidfuzz")
        done = subprocess.run(
            [python, "-m", "lawdiff.cli", "report", "--review", str(path), "-o", str(out / "report")],
            capture_output=True,
            text=True,
            cwd=out,
            env={**os.environ, "PYTHONPATH": str(ROOT), "LAWDIFF_JOBS": "2", "LAWDIFF_CACHE": "off", "HOME": str(out)},
            **user,  # type: ignore[call-overload]
        )
        assert done.returncode == 0, done.stderr
        assert "1 decision(s), 1 comment(s)" in done.stderr
        assert "Akkoord." in (out / "report" / "articles" / "45.html").read_text(encoding="utf-8")
        assert sorted(p.name for p in mail.iterdir()) == ["review.sqlite"]
    finally:
        mail.chmod(0o755)
        path.chmod(0o644)
        shutil.rmtree(tmp)


def test_notes_cross_the_pipe_as_plain_strings_and_come_back_as_annotations() -> None:
    from lawdiff.report.html.markup import Markup, h
    from lawdiff.report.site import Annotation

    made = {
        "c1": Annotation(("reviewed", "r-open"), h("div", {"class": "review"}, "a < b")),
        "c2": Annotation(()),
        "c3": Annotation((), h("b", None, "x")),
    }
    notes = reviewed.Notes.of(made)
    assert dict(notes) == made and len(notes) == 3 and list(notes) == ["c1", "c2", "c3"]
    payload = pickle.dumps(notes, protocol=pickle.HIGHEST_PROTOCOL)
    assert b"Annotation" not in payload  # what made the pickle slow is not in it
    back = pickle.loads(payload)
    assert dict(back) == made
    block, inline = back["c1"].markup, back["c3"].markup
    # A block element's markup stays one: it is followed by a line break where it is placed.
    assert type(block) is type(made["c1"].markup) and type(block) is not Markup and type(inline) is Markup
    assert h("td", None, block) == h("td", None, made["c1"].markup) == '<td>\n<div class="review">a &lt; b</div>\n</td>'
    assert back["c2"].markup is None and back.get("c4") is None
