"""``review log`` and ``review undo``: the audit log, read and taken back from."""

from __future__ import annotations

from pathlib import Path

import click

from lawdiff.cli.options import Inputs, corpus_option, emit, format_option, review_file_option, thresholds_option
from lawdiff.cli.review.options import author_option, pair_option, reader, runner, store_option, write
from lawdiff.cli.terminal import echo


@click.command("log")
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
    """Show the audit log: every write, who, when, before and after.

    With an ID (a change, comment, meeting or correction id prefix, or a
    change's EDITION:ADDRESS), only that record's entries; a change's include
    its comments'.

    Example: lawdiff review log '2017:45C4(b)'
    """
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


@click.command("undo")
@author_option
@store_option
def undo(author: str, review_file: Path | None) -> None:
    """Take back your last write (the undo is logged too).

    Example: lawdiff review undo --author Anne
    """
    from lawdiff.review.ids import short

    entries = write(review_file, lambda store: store.undo(author))
    for e in entries:
        echo(f"undone: {e.action} of {e.table[:-1]} {short(e.record)} ({e.at[:16].replace('T', ' ')} UTC)")
