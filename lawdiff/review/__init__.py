"""The committee's review store: decisions about the changes of a run, kept across re-runs.

A rules committee decides about each change over several meetings while
the draft is corrected and the report regenerated.  The store is one SQLite
file (:mod:`~lawdiff.review.connect`) of decisions (one per change id, with
the texts it was made on), comment threads, meetings, hand corrections of the
alignment and an append-only audit log.  :func:`attach` matches its
decisions to the comparisons of a run (current, outdated, orphaned, not
compared); the report, the server and the meeting documents render from the
:class:`ReviewView` it returns.

Modules: ``records`` (the values), ``schema`` (tables and migrations),
``rows`` (rows as dicts), ``location`` (finding the file), ``connect`` (opening and migrating the
file), ``sqlite_errors`` (SQLite's errors as input errors), ``reading`` (the
store's reads), ``store`` (its writes and undo), ``targets`` (what a write is
made on, and the refusal of a stale one), ``merging`` (merging another
store's records), ``journal`` (a write's audit-log entries), ``view``
(matching decisions to a run), ``ids`` (naming a change), ``runs`` (which
pairs a run compares), ``pins`` (corrections named on the
command line), ``settings`` (the meeting's settings: the agenda's order), ``render``
(``review list`` and ``review log``), ``exchange`` (JSONL, CSV, Markdown
minutes, import).

This package sits after :mod:`lawdiff.diff` in the pipeline, but nothing in
it imports the diff stage when it is loaded (only inside functions or for type
checking), so that a command that only reads the store loads no comparison.
The value the aligner takes, :class:`lawdiff.align.links.Corrections`, is
the align stage's; ``reading`` makes it from the stored corrections.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lawdiff.lazy import loader

if TYPE_CHECKING:
    from lawdiff.align.links import Corrections, Forbid, Pin
    from lawdiff.review.connect import empty_store, open_for_reading, open_for_writing
    from lawdiff.review.location import DEFAULT_FILE, ENV_STORE, StoreLocation, find_store
    from lawdiff.review.store import Store
    from lawdiff.review.targets import Target
    from lawdiff.review.values import (
        STATUSES,
        Comment,
        Correction,
        CorrectionKind,
        Decision,
        LogEntry,
        Meeting,
        Status,
    )
    from lawdiff.review.view import (
        Entry,
        Outdated,
        ReviewView,
        StaleCorrection,
        State,
        attach,
        stale_corrections,
        target,
    )

# Each name by the module that holds it, loaded when first asked for: a command that finds no
# store (``compare`` in a folder without one) loads neither SQLite nor the schema.
_HOMES = {
    "lawdiff.align.links": ("Corrections", "Forbid", "Pin"),
    "lawdiff.review.connect": ("empty_store", "open_for_reading", "open_for_writing"),
    "lawdiff.review.location": ("DEFAULT_FILE", "ENV_STORE", "StoreLocation", "find_store"),
    "lawdiff.review.values": (
        "STATUSES",
        "Comment",
        "Correction",
        "CorrectionKind",
        "Decision",
        "LogEntry",
        "Meeting",
        "Status",
    ),
    "lawdiff.review.store": ("Store",),
    "lawdiff.review.targets": ("Target",),
    "lawdiff.review.view": (
        "Entry",
        "Outdated",
        "ReviewView",
        "StaleCorrection",
        "State",
        "attach",
        "stale_corrections",
        "target",
    ),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__getattr__ = loader(globals(), _HOME)


__all__ = [
    "DEFAULT_FILE",
    "ENV_STORE",
    "STATUSES",
    "Comment",
    "Correction",
    "CorrectionKind",
    "Corrections",
    "Decision",
    "Entry",
    "Forbid",
    "LogEntry",
    "Meeting",
    "Outdated",
    "Pin",
    "ReviewView",
    "StaleCorrection",
    "State",
    "Status",
    "Store",
    "StoreLocation",
    "Target",
    "attach",
    "empty_store",
    "find_store",
    "open_for_reading",
    "open_for_writing",
    "stale_corrections",
    "target",
]
