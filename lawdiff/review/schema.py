"""The review store's schema and its migrations.

The file says what it is with ``PRAGMA application_id`` (so that another
SQLite database is never taken for a store) and which schema it has with
``PRAGMA user_version``.  Migrations run forward, each in one transaction,
when a writing command opens the store; a store newer than this program is
refused.  Reading commands migrate a copy in memory and leave the file alone.

Columns holding several values (addresses, texts, attendees, thresholds) are
JSON.  The audit log is append-only: triggers refuse any update or delete.
"""

from __future__ import annotations

# "LDRV": a lawdiff review store.
APPLICATION_ID = 0x4C445256

_V1 = (
    """
    CREATE TABLE meetings (
        id TEXT PRIMARY KEY,
        date TEXT NOT NULL,
        attendees TEXT NOT NULL DEFAULT '[]',
        started TEXT NOT NULL,
        ended TEXT NOT NULL DEFAULT '',
        author TEXT NOT NULL,
        updated TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE decisions (
        id TEXT PRIMARY KEY,
        old_edition TEXT NOT NULL,
        new_edition TEXT NOT NULL,
        aspect TEXT NOT NULL,
        kind TEXT NOT NULL,
        article TEXT NOT NULL,
        old TEXT NOT NULL,
        new TEXT NOT NULL,
        old_hash TEXT NOT NULL,
        new_hash TEXT NOT NULL,
        old_texts TEXT NOT NULL,
        new_texts TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'accepted', 'query', 'translation-fix', 'rejected')),
        assignee TEXT NOT NULL DEFAULT '',
        meeting TEXT NOT NULL DEFAULT '',
        lawdiff_version TEXT NOT NULL,
        thresholds TEXT NOT NULL,
        author TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL
    )
    """,
    # A run's decisions are loaded by pair, and a decision whose change is
    # gone is matched by its pair and old (or new) addresses.
    "CREATE INDEX decisions_old ON decisions (old_edition, new_edition, old)",
    "CREATE INDEX decisions_new ON decisions (old_edition, new_edition, new)",
    """
    CREATE TABLE comments (
        id TEXT PRIMARY KEY,
        decision TEXT NOT NULL REFERENCES decisions (id),
        author TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        text TEXT NOT NULL,
        deleted INTEGER NOT NULL DEFAULT 0,
        edited TEXT NOT NULL DEFAULT '',
        meeting TEXT NOT NULL DEFAULT ''
    )
    """,
    "CREATE INDEX comments_decision ON comments (decision)",
    """
    CREATE TABLE corrections (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('pin', 'forbid')),
        old_edition TEXT NOT NULL,
        new_edition TEXT NOT NULL,
        old TEXT NOT NULL,
        new TEXT NOT NULL,
        author TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        removed INTEGER NOT NULL DEFAULT 0
    )
    """,
    "CREATE INDEX corrections_pair ON corrections (old_edition, new_edition)",
    """
    CREATE TABLE log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        write TEXT NOT NULL,
        author TEXT NOT NULL,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        "table" TEXT NOT NULL,
        record TEXT NOT NULL,
        meeting TEXT NOT NULL DEFAULT '',
        before TEXT,
        after TEXT,
        undoes TEXT NOT NULL DEFAULT '',
        local INTEGER NOT NULL DEFAULT 1
    )
    """,
    "CREATE INDEX log_record ON log (record)",
    "CREATE INDEX log_author ON log (author, local, seq)",
    """
    CREATE TRIGGER log_no_update BEFORE UPDATE ON log
    BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
    """,
    """
    CREATE TRIGGER log_no_delete BEFORE DELETE ON log
    BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
    """,
)

# Schema 2: marks that a meeting shares, by name ("discussing": the change the
# chair has the committee look at now, set from ``lawdiff serve``).  A mark
# is not a record of the review (it is not exported); its writes are logged.
_V2 = (
    """
    CREATE TABLE marks (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        author TEXT NOT NULL,
        updated TEXT NOT NULL
    )
    """,
)

# Schema 3: a comment may be a question on a decided change (``lawdiff serve``: a member
# queries what a chair decided): "open" until a chair confirms or changes the decision,
# then "answered"; "" for a comment.  An open question counts as undecided.
# A change row's writes are found by the log's index of records (its decision) and, for its
# comments, by this index of the decision a comment's entry names (``row_writes``).
_V3 = (
    "ALTER TABLE comments ADD COLUMN question TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX log_comment_decision ON log (json_extract(coalesce(after, before), '$.decision')) "
    "WHERE \"table\" = 'comments'",
)

# MIGRATIONS[n] takes a store from schema n to schema n + 1.
MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3)
SCHEMA_VERSION = len(MIGRATIONS)

# The columns of each table that hold JSON, and those that hold a flag.
JSON_COLUMNS = {
    "decisions": frozenset({"old", "new", "old_texts", "new_texts", "thresholds"}),
    "comments": frozenset(),
    "meetings": frozenset({"attendees"}),
    "corrections": frozenset({"old", "new"}),
}
FLAG_COLUMNS = {
    "decisions": frozenset(),
    "comments": frozenset({"deleted"}),
    "meetings": frozenset(),
    "corrections": frozenset({"removed"}),
}
TABLES = tuple(JSON_COLUMNS)
