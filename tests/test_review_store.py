"""The review store on its own: opening, schema, writes and their log, undo, merging, bad files."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from lawdiff.errors import InputError, UsageError
from lawdiff.review import (
    CorrectionKind,
    Status,
    Store,
    Target,
    find_store,
    open_for_reading,
    open_for_writing,
)
from lawdiff.review import store as store_module
from lawdiff.review.exchange import export, import_file, read_jsonl
from lawdiff.review.schema import APPLICATION_ID, SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent


def tgt(n: int = 1, old: tuple[str, ...] = ("45C4(b)",), new: tuple[str, ...] = ("45C4(b)",)) -> Target:
    return Target(
        id=f"{n:040x}",
        old_edition="2007",
        new_edition="2017",
        aspect="text",
        kind="modified",
        article="45",
        old=old,
        new=new,
        old_texts=("zo wordt gehouden dat aangegeven wordt dat de kaart gespeeld is.",),
        new_texts=("zo wordt gehouden dat aangegeven wordt dat de kaart gespeeld is;",),
        thresholds=(("match_min", 0.42),),
    )


class Clock:
    """A clock that ticks one second per write, so that every time is known."""

    def __init__(self) -> None:
        self.t = 0

    def __call__(self) -> str:
        self.t += 1
        return f"2024-05-14T10:{self.t // 60:02}:{self.t % 60:02}.000000Z"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "review.sqlite"


@pytest.fixture
def store(path: Path) -> Iterator[Store]:
    with open_for_writing(path) as s:
        s.clock = Clock()
        yield s


# ---------------------------------------------------------------------------
# Finding and opening


def test_the_package_names_load_when_asked_for_and_finding_a_store_needs_no_sqlite() -> None:
    import lawdiff.review as package

    code = (
        "import sys, lawdiff.review as r; r.find_store(); print('lawdiff.review.connect' in sys.modules);"
        " print(all(getattr(r, n) is not None for n in r.__all__))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.split() == ["False", "True"]
    assert set(package._HOME) == set(package.__all__)


def test_find_store_follows_one_rule(tmp_path: Path) -> None:
    env = {"LAWDIFF_REVIEW": str(tmp_path / "env.sqlite")}
    assert find_store("given.sqlite", env, tmp_path).path == Path("given.sqlite")
    assert find_store(None, env, tmp_path).path == tmp_path / "env.sqlite"
    assert find_store(None, {}, tmp_path).path == tmp_path / "lawdiff-review.sqlite"
    assert find_store(None, {}, tmp_path).rule == "default"


def test_a_new_store_has_the_schema_wal_and_foreign_keys(store: Store, path: Path) -> None:
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    conn.close()


def test_reading_a_missing_default_store_reads_empty_and_creates_nothing(tmp_path: Path) -> None:
    loc = find_store(None, {}, tmp_path)
    with open_for_reading(loc) as s:
        assert s.decisions() == []
    assert list(tmp_path.iterdir()) == []


def test_reading_a_missing_named_store_reads_empty_and_creates_nothing(tmp_path: Path) -> None:
    with open_for_reading(find_store(tmp_path / "new.sqlite")) as s:
        assert s.counts()["decisions"] == 0
    assert list(tmp_path.iterdir()) == []


def test_a_newer_store_is_refused(path: Path) -> None:
    open_for_writing(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    for opener in (open_for_writing, open_for_reading):
        with pytest.raises(InputError, match="newer lawdiff") as exc:
            opener(path)
        assert str(path) in exc.value.message()


def test_an_older_store_is_migrated_by_writers_and_only_in_memory_by_readers(path: Path) -> None:
    # Schema 0: an empty SQLite file marked as nothing yet.
    sqlite3.connect(path).close()
    path.write_bytes(b"")
    with open_for_reading(path) as s:
        assert s.decisions() == []
    assert path.stat().st_size == 0, "a reader wrote the file"
    with open_for_writing(path) as s:
        assert s.counts()["decisions"] == 0
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_another_sqlite_database_is_not_taken_for_a_store(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    with pytest.raises(InputError, match="not a lawdiff review store"):
        open_for_writing(path)


def test_a_file_that_is_not_sqlite_is_named(path: Path) -> None:
    path.write_text("Minutes of the meeting\n" * 100, encoding="utf-8")
    for opener in (open_for_writing, open_for_reading):
        with pytest.raises(InputError, match="not an SQLite database") as exc:
            opener(path)
        assert exc.value.file == str(path)


def test_a_corrupt_store_is_named(path: Path) -> None:
    with open_for_writing(path) as s:
        for n in range(200):
            s.set_status(tgt(n), Status.ACCEPTED, "Anne", comment="x" * 200)
    data = bytearray(path.read_bytes())
    # Overwrite pages in the middle (not the header): the b-trees break.
    data[8192:40960] = b"\xff" * (40960 - 8192)
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match="corrupt") as exc, open_for_reading(path) as s:
        s.decisions()
        s.comments()
    assert exc.value.file == str(path)


def test_a_text_damaged_into_bytes_that_are_not_utf8_is_named_corrupt(path: Path) -> None:
    with open_for_writing(path) as s:
        s.set_status(tgt(), Status.ACCEPTED, "Anne", comment="Akkoord, zie 45C4.")
    with sqlite3.connect(path) as raw:  # a damaged page as a disk leaves it: the bytes of a text changed
        raw.execute("UPDATE comments SET text = CAST(X'416bff6f6f7264' AS TEXT)")
    raw.close()
    with pytest.raises(InputError) as exc, open_for_reading(path) as s:
        s.comments()
    assert exc.value.file == str(path)
    assert "the review store is corrupt (its column 'text' holds bytes that are not UTF-8)" in exc.value.message()
    assert "restore it from a backup" in exc.value.message()
    assert "Ak" not in exc.value.message()  # not the damaged text itself


def test_a_store_locked_beyond_the_timeout_is_an_error_not_a_hang(path: Path) -> None:
    open_for_writing(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(InputError, match="locked") as exc, open_for_writing(path, timeout=0.2) as s:
            s.set_status(tgt(), Status.ACCEPTED, "Anne")
        assert "0.2 s" in exc.value.message()
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_read_only_store_file_is_read_and_never_written(path: Path) -> None:
    with open_for_writing(path) as s:
        s.set_status(tgt(), Status.ACCEPTED, "Anne")
    before = path.read_bytes()
    path.chmod(0o444)
    try:
        with open_for_reading(path) as s:
            assert [d.status for d in s.decisions()] == [Status.ACCEPTED]
            with pytest.raises(InputError):
                s.set_status(tgt(2), Status.ACCEPTED, "Anne")
    finally:
        path.chmod(0o644)
    assert path.read_bytes() == before


_READ = """
import sys
from lawdiff.review import open_for_reading
with open_for_reading(__import__("pathlib").Path(sys.argv[1])) as s:
    print(len(s.decisions()), len(s.comments()))
"""


def _others_can_run(path: Path) -> bool:
    """Whether a user other than the owner can reach and read this file (root's own Python may not be)."""
    if not path.exists():
        return False
    resolved = path.resolve()
    return all(p.stat().st_mode & 0o001 for p in resolved.parents) and bool(resolved.stat().st_mode & 0o004)


def another_user(module: Path, imports: str) -> tuple[str, dict[str, str]]:
    """The Python and ``subprocess.run`` arguments that run lawdiff as a user who may not write what root
    may (``nobody``, when the tests run as root), or skip: ``module`` must be readable by that user, and
    ``imports`` (the dependencies, e.g. ``"click, rapidfuzz"``) importable by its Python."""
    if os.geteuid() != 0:
        return sys.executable, {}
    python = next((p for p in (sys.executable, "/usr/bin/python3") if _others_can_run(Path(p))), "")
    user = {"user": "nobody"}
    runs_there = bool(python) and _others_can_run(module)
    if runs_there:
        probe = [python, "-c", f"import {imports}"]
        runs_there = subprocess.run(probe, capture_output=True, **user).returncode == 0  # type: ignore[call-overload]
    if not runs_there:
        pytest.skip("no Python with lawdiff's dependencies that another user may run, to drop root's rights")
    return python, user


def test_a_store_in_a_read_only_folder_is_read() -> None:
    """A store received by e-mail and saved where nothing may be written: no -shm can be made."""
    # Not pytest's tmp_path: its folders are private to their owner.
    tmp_path = Path(tempfile.mkdtemp(prefix="lawdiff-review-"))
    tmp_path.chmod(0o755)
    folder = tmp_path / "mail"
    folder.mkdir()
    path = folder / "review.sqlite"
    with open_for_writing(path) as s:
        s.set_status(tgt(), Status.ACCEPTED, "Anne", comment="Akkoord.")
    assert sorted(p.name for p in folder.iterdir()) == ["review.sqlite"], "closing checkpoints the WAL away"
    folder.chmod(0o555)
    path.chmod(0o444)
    try:
        # Root may write anywhere: read as another user to make the folder truly read-only.
        python, user = sys.executable, {}
        if os.geteuid() == 0:
            python = next((p for p in (sys.executable, "/usr/bin/python3") if _others_can_run(Path(p))), "")
            code = ROOT / "lawdiff" / "review" / "store.py"
            if not python or not _others_can_run(code) or not _others_can_run(path):
                pytest.skip("no Python and checkout that another user may run, to drop root's rights")
            user = {"user": "nobody"}
        done = subprocess.run(
            [python, "-c", _READ, str(path)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            **user,  # type: ignore[call-overload]
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["1", "1"]
        assert sorted(p.name for p in folder.iterdir()) == ["review.sqlite"]
    finally:
        folder.chmod(0o755)
        path.chmod(0o644)
        shutil.rmtree(tmp_path)


# ---------------------------------------------------------------------------
# Writes and the log


def test_set_status_records_the_change_and_the_run(store: Store) -> None:
    d = store.set_status(tgt(), Status.ACCEPTED, "Anne")
    assert (d.status, d.author, d.pair, d.old, d.new) == (
        Status.ACCEPTED,
        "Anne",
        ("2007", "2017"),
        tgt().old,
        tgt().new,
    )
    assert d.new_texts == tgt().new_texts and d.old_hash != d.new_hash
    assert d.thresholds == (("match_min", 0.42),)
    assert d.lawdiff_version and d.created == d.updated
    assert store.decision(d.id) == d


def test_every_write_is_logged_with_before_and_after(store: Store) -> None:
    store.set_status(tgt(), Status.QUERY, "Anne", comment="Waarom 'geacht'?")
    store.set_status(tgt(), Status.ACCEPTED, "Bert")
    store.assign(tgt(), "Carla", "Bert")
    log = store.log()
    assert [(e.author, e.action, e.table) for e in log] == [
        ("Anne", "status", "decisions"),
        ("Anne", "comment", "comments"),
        ("Bert", "status", "decisions"),
        ("Bert", "assign", "decisions"),
    ]
    assert log[0].before is None and log[0].after is not None and log[0].after["status"] == "query"
    assert log[2].before is not None and log[2].before["status"] == "query"
    assert log[2].after is not None and log[2].after["status"] == "accepted"
    assert log[0].write == log[1].write != log[2].write, "one command is one write"


def test_the_log_is_append_only(store: Store) -> None:
    store.set_status(tgt(), Status.ACCEPTED, "Anne")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._conn.execute("UPDATE log SET author = 'Mallory'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._conn.execute("DELETE FROM log")


def test_comments_edit_and_delete_own_only_keeping_the_old_text_in_the_log(store: Store) -> None:
    c = store.add_comment(tgt(), "Eerste versie.", "Anne")
    with pytest.raises(UsageError, match="only its author"):
        store.edit_comment(c.id, "Gewijzigd door Bert.", "Bert")
    with pytest.raises(UsageError, match="only its author"):
        store.delete_comment(c.id, "Bert")
    edited = store.edit_comment(c.id, "Tweede versie.", "Anne")
    assert edited.text == "Tweede versie." and edited.edited
    store.delete_comment(c.id, "Anne")
    assert store.comments() == []
    texts = [e.before["text"] for e in store.log([c.id]) if e.before]
    assert texts == ["Eerste versie.", "Tweede versie."]
    with pytest.raises(UsageError, match="no comment"):
        store.edit_comment(c.id, "again", "Anne")


def test_an_empty_comment_or_author_is_refused(store: Store) -> None:
    with pytest.raises(UsageError, match="empty"):
        store.add_comment(tgt(), "  ", "Anne")
    with pytest.raises(UsageError, match="no author"):
        store.set_status(tgt(), Status.ACCEPTED, " ")
    assert store.counts()["log"] == 0


def test_decisions_made_during_a_meeting_carry_it(store: Store) -> None:
    store.set_status(tgt(1), Status.QUERY, "Anne")
    m = store.start_meeting("2024-05-14", ("Anne", "Bert"), "Anne")
    with pytest.raises(UsageError, match="still open"):
        store.start_meeting("2024-05-14", (), "Anne")
    d = store.set_status(tgt(2), Status.ACCEPTED, "Bert", comment="In de vergadering.")
    store.end_meeting("Anne")
    after = store.set_status(tgt(3), Status.ACCEPTED, "Bert")
    assert store.decision(tgt(1).id).meeting == ""  # type: ignore[union-attr]
    assert d.meeting == m.id and after.meeting == ""
    assert [c.meeting for c in store.comments()] == [m.id]
    with pytest.raises(UsageError, match="no meeting is open"):
        store.end_meeting("Anne")
    assert store.meetings()[0].ended


def test_undo_takes_back_the_authors_last_write_and_is_logged(store: Store) -> None:
    store.set_status(tgt(), Status.QUERY, "Anne")
    store.set_status(tgt(), Status.ACCEPTED, "Anne", comment="Toch akkoord.")
    store.assign(tgt(2), "Carla", "Bert")
    undone = store.undo("Anne")
    assert {e.action for e in undone} == {"status", "comment"}
    assert store.decision(tgt().id).status is Status.QUERY  # type: ignore[union-attr]
    assert store.comments() == []
    assert store.decision(tgt(2).id) is not None, "Bert's write is not Anne's to undo"
    store.undo("Anne")
    assert store.decision(tgt().id) is None
    with pytest.raises(UsageError, match="nothing to undo"):
        store.undo("Anne")
    assert [e.action for e in store.log()][-3:] == ["undo", "undo", "undo"]


def test_undo_refuses_to_overwrite_someone_elses_later_write(store: Store) -> None:
    store.set_status(tgt(), Status.QUERY, "Anne")
    store.set_status(tgt(), Status.ACCEPTED, "Bert")
    with pytest.raises(UsageError, match="changed since by Bert"):
        store.undo("Anne")
    assert store.decision(tgt().id).status is Status.ACCEPTED  # type: ignore[union-attr]


def test_corrections_for_a_pair_are_the_aligners_value(store: Store) -> None:
    store.add_correction(CorrectionKind.PIN, ("2007", "2017"), ("45D",), ("45D1", "45D2"), "Anne")
    store.add_correction(CorrectionKind.FORBID, ("2007", "2017"), ("45D",), ("45E1",), "Bert")
    store.add_correction(CorrectionKind.PIN, ("1963", "2007"), ("45(d)",), ("45C4",), "Bert")
    with pytest.raises(UsageError, match="already set"):
        store.add_correction(CorrectionKind.PIN, ("2007", "2017"), ("45D",), ("45D2", "45D1"), "Carla")
    c = store.corrections_for("2007", "2017")
    assert [(p.old, p.new, p.by) for p in c.pins] == [(("45D",), ("45D1", "45D2"), "Anne")]
    assert [(f.old, f.new, f.by) for f in c.forbids] == [("45D", "45E1", "Bert")]
    removed = store.remove_corrections([p.id for p in c.pins], "Anne")
    assert len(removed) == 1 and not store.corrections_for("2007", "2017").pins
    assert len(store.corrections(include_removed=True)) == 3
    assert not store.corrections_for("2017", "2017+2024-03-01")


# ---------------------------------------------------------------------------
# Export and import


def _fill(s: Store) -> None:
    s.start_meeting("2024-05-14", ("Anne", "Bert"), "Anne")
    s.set_status(tgt(1), Status.ACCEPTED, "Anne", comment="Akkoord.")
    s.end_meeting("Anne")
    s.add_comment(tgt(2), "Nog bespreken.", "Bert")
    s.add_correction(CorrectionKind.PIN, ("2007", "2017"), ("45D",), ("45D1",), "Anne")


def test_import_merges_and_reimporting_adds_nothing(tmp_path: Path, store: Store) -> None:
    _fill(store)
    exported = tmp_path / "anne.jsonl"
    exported.write_text(export(store, "jsonl"), encoding="utf-8")
    with open_for_writing(tmp_path / "other.sqlite") as other:
        other.clock = Clock()
        first = import_file(other, exported, "Carla")
        assert (first.added, first.replaced, first.kept) == (6, 0, 0)
        counts = other.counts()
        again = import_file(other, exported, "Carla")
        assert (again.added, again.replaced, again.kept, again.log_added) == (0, 0, 0, 0)
        assert other.counts() == counts
        assert {d.id for d in other.decisions()} == {d.id for d in store.decisions()}
        theirs = {e.id for e in store.log()}
        ours = [e for e in other.log() if e.id not in theirs]
        assert theirs <= {e.id for e in other.log()}, "the other store's history comes along"
        assert [(e.author, e.action) for e in ours] == [("Carla", "import")] * 6


def test_two_statuses_for_one_change_keep_the_later_and_log_the_other(tmp_path: Path) -> None:
    a_path, b_path = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    with open_for_writing(a_path) as a, open_for_writing(b_path) as b:
        a.clock = lambda: "2024-05-14T10:00:00.000000Z"
        b.clock = lambda: "2024-05-14T11:00:00.000000Z"
        a.set_status(tgt(), Status.ACCEPTED, "Anne")
        b.set_status(tgt(), Status.REJECTED, "Bert")
        (tmp_path / "a.jsonl").write_text(export(a, "jsonl"), encoding="utf-8")
        (tmp_path / "b.jsonl").write_text(export(b, "jsonl"), encoding="utf-8")
        # Into a: b's later version wins.
        r = import_file(a, tmp_path / "b.jsonl", "Anne")
        assert (r.replaced, a.decision(tgt().id).status) == (1, Status.REJECTED)  # type: ignore[union-attr]
        # Into b: b's own later version is kept, and a's is logged.
        r = import_file(b, tmp_path / "a.jsonl", "Bert")
        assert (r.kept, b.decision(tgt().id).status) == (1, Status.REJECTED)  # type: ignore[union-attr]
        lost = [e for e in b.log() if e.action == "import-lost"]
        assert len(lost) == 1 and lost[0].before is not None and lost[0].before["status"] == "accepted"
        # Importing again logs nothing more.
        import_file(b, tmp_path / "a.jsonl", "Bert")
        assert len([e for e in b.log() if e.action == "import-lost"]) == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty"),
        ('{"type": "decision"}\n', "no lawdiff-review header"),
        ('{"type": "lawdiff-review", "schema": 99}\n', "schema 99"),
        ('{"type": "lawdiff-review", "schema": 1}\nnot json\n', "line 2: not JSON"),
        ('{"type": "lawdiff-review", "schema": 1}\n{"type": "decision", "id": "x"}\n', "line 2: a decision lacks"),
        ('{"type": "lawdiff-review", "schema": 1}\n{"type": "vote"}\n', "unknown record type"),
    ],
)
def test_a_bad_import_file_names_the_line(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as exc:
        read_jsonl(bad)
    assert exc.value.file == str(bad)


def test_an_import_whose_comment_lacks_its_decision_is_refused_whole(tmp_path: Path, store: Store) -> None:
    row = {
        "type": "comment",
        "id": "c" * 32,
        "decision": "f" * 40,
        "author": "Anne",
        "created": "2024",
        "updated": "2024",
        "text": "los",
        "deleted": False,
        "edited": "",
        "meeting": "",
    }
    bad = tmp_path / "orphan.jsonl"
    bad.write_text(
        json.dumps({"type": "lawdiff-review", "schema": 1}) + "\n" + json.dumps(row) + "\n", encoding="utf-8"
    )
    with pytest.raises(InputError, match="neither in the file nor in the store"):
        import_file(store, bad, "Anne")
    assert store.counts()["log"] == 0


def test_utc_now_is_iso_utc() -> None:
    now = store_module.utc_now()
    assert now.endswith("Z") and now[10] == "T" and len(now) == 27


def test_the_fast_readers_give_what_the_rows_say(store: Store) -> None:
    from lawdiff.review import columns
    from lawdiff.review.values import as_row

    store.set_status(tgt(1), Status.TRANSLATION_FIX, "Anne", comment="Eén.")
    c = store.add_comment(tgt(1), "Twee.", "Bert")
    store.delete_comment(c.id, "Bert")
    # The generic path reads the columns by name.
    by_name = [columns.record("decisions", r) for r in store._rows("decisions", "ORDER BY created, id")]
    assert store.decisions() == by_name
    assert [as_row(d)["status"] for d in by_name] == ["translation-fix"]
    by_name = [columns.record("comments", r) for r in store._rows("comments", "ORDER BY created, id")]
    assert store.comments(include_deleted=True) == by_name
    assert [cm.deleted for cm in store.comments(include_deleted=True)] == [False, True]
