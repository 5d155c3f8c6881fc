"""``review log`` and ``review undo``: the audit log, read and taken back from."""

from __future__ import annotations

from pathlib import Path

import click

from lawdiff.cli.language import command
from lawdiff.cli.options import Inputs, corpus_option, emit, format_option, review_file_option, thresholds_option
from lawdiff.cli.review.options import author_option, pair_option, reader, runner, store_option, write
from lawdiff.cli.terminal import echo
from lawdiff.i18n import N_, format_stamp, terms
from lawdiff.i18n import gettext as _


@command(
    "log",
    help=N_(
        "Show the audit log: every write, who, when, before and after.\n\n"
        "With an ID (a change, comment, meeting or correction id prefix, or a change's EDITION:ADDRESS), "
        "only that record's entries; a change's include its comments'.\n\n"
        "Example: lawdiff review log '2017:45C4(b)'"
    ),
)
@click.argument("record_id", metavar="[ID]", required=False)
@pair_option
@corpus_option
@review_file_option
@format_option("text", "json")
@thresholds_option
def log(
    record_id: str | None,
    pair: tuple[str, str] | None,
    inputs: Inputs,
    fmt: str,
    overrides: dict[str, float],
) -> None:
    from lawdiff.review import render
    from lawdiff.review.ids import log_records, resolve

    with reader(inputs.review) as store:
        records = None
        if record_id:
            records = log_records(
                store,
                record_id,
                lambda: resolve(record_id, store, runner(inputs, pair, overrides, store), pair).target.id,
            )
        entries = store.log(records)
    emit(render.log_json(entries) if fmt == "json" else render.log_text(entries), None, fmt)


@command(
    "undo", help=N_("Take back your last write (the undo is logged too).\n\nExample: lawdiff review undo --author Anne")
)
@author_option
@store_option
def undo(author: str, review_file: Path | None) -> None:
    from lawdiff.review.ids import short

    entries = write(review_file, lambda store: store.undo(author))
    for e in entries:
        echo(
            _("undone: {action} of {record} {id} ({when} UTC)").format(
                action=terms.action(e.action), record=terms.record(e.table), id=short(e.record), when=format_stamp(e.at)
            )
        )
