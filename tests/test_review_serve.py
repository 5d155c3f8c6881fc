"""What the store gives ``lawdiff serve``: compare-and-set writes, the shared mark, and its queries."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from lawdiff.errors import UsageError
from lawdiff.review import Status, Store, Target, open_for_reading, open_for_writing
from lawdiff.review.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from lawdiff.review.targets import Expect, StaleWrite, texts_hash


def tgt(n: int = 1) -> Target:
    return Target(
        id=f"{n:040x}",
        old_edition="2007",
        new_edition="2017",
        aspect="text",
        kind="modified",
        article="45",
        old=("45C4(b)",),
        new=("45C4(b)",),
        old_texts=("Tot zijn partner een kaart gespeeld heeft, mag een speler een aanduiding wijzigen.",),
        new_texts=("De leider mag een onbedoeld aangeduide kaart van de blinde veranderen.",),
    )


class Clock:
    def __init__(self) -> None:
        self.t = 0

    def __call__(self) -> str:
        self.t += 1
        return f"2024-05-14T10:{self.t // 60:02}:{self.t % 60:02}.000000Z"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_for_writing(tmp_path / "review.sqlite") as s:
        s.clock = Clock()
        yield s


def test_a_status_set_on_the_state_seen_is_written(store: Store) -> None:
    t = tgt()
    d = store.set_status(t, Status.ACCEPTED, "Anne", expect=Expect(Status.OPEN, None, texts_hash(t.old_texts)))
    assert d.status is Status.ACCEPTED
    d = store.set_status(t, Status.REJECTED, "Bert", expect=Expect(Status.ACCEPTED))
    assert d.status is Status.REJECTED


def test_a_status_set_on_an_older_state_is_refused_naming_who_and_when(store: Store) -> None:
    t = tgt()
    store.set_status(t, Status.ACCEPTED, "Anne")
    before = store.counts()
    with pytest.raises(StaleWrite) as caught:
        store.set_status(t, Status.REJECTED, "Bert", "I disagree", expect=Expect(Status.OPEN))
    exc = caught.value
    assert isinstance(exc, UsageError)
    assert exc.by == "Anne" and exc.at == "2024-05-14T10:00:01.000000Z"
    assert exc.decision is not None and exc.decision.status is Status.ACCEPTED
    assert "by Anne at 2024-05-14 10:00 UTC: its status is now accepted (you saw open)" in exc.what
    # Nothing of the refused write, not even its comment, is in the store or its log.
    assert store.counts() == before
    assert store.decision(t.id).status is Status.ACCEPTED  # type: ignore[union-attr]


def test_an_assignment_on_an_older_state_is_refused(store: Store) -> None:
    t = tgt()
    store.assign(t, "Carla", "Anne", expect=Expect(assignee=""))
    with pytest.raises(StaleWrite, match="now assigned to Carla \\(you saw nobody\\)"):
        store.assign(t, "Dirk", "Bert", expect=Expect(assignee=""))
    assert store.decision(t.id).assignee == "Carla"  # type: ignore[union-attr]


def test_a_write_on_other_texts_is_refused(store: Store) -> None:
    t = tgt()
    with pytest.raises(StaleWrite, match="text of this change was changed"):
        store.add_comment(t, "Fine.", "Anne", expect=Expect(new_hash=texts_hash(("an earlier text",))))
    assert store.counts()["comments"] == 0
    store.add_comment(t, "Fine.", "Anne", expect=Expect(new_hash=texts_hash(t.new_texts)))
    assert store.counts()["comments"] == 1


def test_without_an_expectation_writes_are_as_before(store: Store) -> None:
    t = tgt()
    store.set_status(t, Status.ACCEPTED, "Anne")
    assert store.set_status(t, Status.QUERY, "Bert").status is Status.QUERY


def test_the_discussing_mark_is_shared_logged_and_never_undone(store: Store) -> None:
    assert store.mark("discussing") is None
    store.set_status(tgt(1), Status.ACCEPTED, "Anne")
    m = store.set_mark("discussing", tgt(2).id, "Anne")
    assert m is not None and (m.value, m.author) == (tgt(2).id, "Anne")
    assert store.mark("discussing") == m
    assert store.set_mark("discussing", "", "Anne") is None
    assert store.mark("discussing") is None
    marks = [e for e in store.log() if e.table == "marks"]
    assert [(e.action, (e.before or {}).get("value"), (e.after or {}).get("value")) for e in marks] == [
        ("mark", None, tgt(2).id),
        ("mark", tgt(2).id, ""),
    ]
    # Undo takes back Anne's last decision, not the mark.
    store.undo("Anne")
    assert store.decision(tgt(1).id) is None


def test_version_grows_with_every_write(store: Store) -> None:
    v0 = store.version()
    store.add_comment(tgt(), "One.", "Anne")
    v1 = store.version()
    store.set_mark("discussing", tgt().id, "Anne")
    assert v0 < v1 < store.version()


def test_who_did_what(store: Store) -> None:
    store.add_comment(tgt(1), "Why?", "Bert")
    store.assign(tgt(2), "Bert", "Anne")
    store.set_status(tgt(3), Status.QUERY, "Bert")
    store.set_status(tgt(3), Status.ACCEPTED, "Anne")
    did = store.involvement("Bert")
    assert (did.commented, did.assigned, did.decided) == ((tgt(1).id,), (tgt(2).id,), (tgt(3).id,))
    assert store.people() == ["Anne", "Bert"]
    writers = store.last_writes()
    assert writers[tgt(3).id][0] == "Anne" and writers[tgt(1).id][0] == "Bert"


def test_a_store_of_schema_1_is_migrated_forward(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    # A reader migrates a copy in memory and leaves the file as it was.
    with open_for_reading(path) as s:
        assert s.mark("discussing") is None
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()
    with open_for_writing(path) as s:
        s.set_mark("discussing", "x" * 40, "Anne")
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    conn.close()


def test_a_batch_commits_its_writes_together_and_a_refused_one_alone_is_rolled_back(store: Store) -> None:
    with store.batch():
        store.set_status(tgt(1), Status.ACCEPTED, "Anne")
        with pytest.raises(StaleWrite):
            store.set_status(tgt(1), Status.REJECTED, "Bert", "No.", expect=Expect(Status.OPEN))
        store.add_comment(tgt(2), "Fine.", "Bert")
    assert store.decision(tgt(1).id).status is Status.ACCEPTED  # type: ignore[union-attr]
    assert [c.author for c in store.comments()] == ["Bert"]
    assert [e.action for e in store.log()] == ["status", "decision", "comment"]
    # A failure outside any write rolls the whole batch back.
    with pytest.raises(RuntimeError), store.batch():
        store.add_comment(tgt(3), "Lost.", "Anne")
        raise RuntimeError("the server stopped")
    assert store.decision(tgt(3).id) is None and len(store.comments()) == 1
    with pytest.raises(Exception, match="a batch inside a batch"), store.batch(), store.batch():
        pass
