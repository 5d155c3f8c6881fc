"""``review export`` and ``review import``: the store as JSONL, CSV or minutes, and merging another's."""

from __future__ import annotations

from pathlib import Path

import click

from lawdiff.cli.language import FilePath, command, option
from lawdiff.cli.options import emit, format_option, output_option
from lawdiff.cli.review.options import author_option, reader, store_option, write
from lawdiff.cli.terminal import echo
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _


@command(
    "export",
    help=N_(
        "Export the store: JSONL (to merge or back up), CSV, or the minutes in Markdown or Word.\n\n"
        "The minutes (--format md, or docx with -o FILE) give decisions and comments per pair and "
        "article, in article order, each with its change as decided on: its significance flags, old and "
        "new wording, and the difference, deleted words struck through and inserted ones in bold "
        "(GitHub-flavoured Markdown, every markup character of law text and comments escaped) or "
        "underlined (Word).\n\n"
        "Example: lawdiff review export --format md --meeting 2024-05-14 -o minutes.md"
    ),
)
@option(
    "--meeting", "meeting_name", metavar="M", default="", help=N_("Only what was decided in meeting M (id or date).")
)
@option("--since", metavar="DATE", default="", help=N_("Only what changed on or after DATE (UTC, YYYY-MM-DD)."))
@output_option
@store_option
@format_option("jsonl", "csv", "md", "docx")
def export(meeting_name: str, since: str, output: Path | None, review_file: Path | None, fmt: str) -> None:
    from lawdiff.review import exchange

    rendered: str | bytes
    with reader(review_file) as store:
        if fmt == "docx":
            from lawdiff.report.minutes import minutes

            if since:
                exchange.check_date(since)
            rendered = minutes(exchange.select(store, meeting_name, since), fmt)
        else:
            rendered = exchange.export(store, fmt, meeting_name, since)
    emit(rendered, output, fmt)


@command(
    "import",
    help=N_(
        "Merge a JSONL export of another store into this one.\n\n"
        "Records keep their ids, so importing a file twice adds nothing; where both stores changed a "
        "record, the later version (UTC) is kept and the other is logged.\n\n"
        "Example: lawdiff review import anne.jsonl"
    ),
)
@click.argument("file", type=FilePath(path_type=Path, dir_okay=False, exists=True))
@author_option
@store_option
def import_(file: Path, author: str, review_file: Path | None) -> None:
    from lawdiff.review import exchange

    result = write(review_file, lambda store: exchange.import_file(store, file, author))
    echo(
        _(
            "{file}: {added} added, {replaced} replaced by a later version, {kept} kept (this store's was later),"
            " {unchanged} already here; {log} log entries added"
        ).format(
            file=file,
            added=result.added,
            replaced=result.replaced,
            kept=result.kept,
            unchanged=result.unchanged,
            log=result.log_added,
        )
    )
    for line in result.conflicts:
        echo(f"  {line}")
