"""``lawdiff review``: the committee's decisions, comments, meetings and hand corrections.

Thin commands over :mod:`lawdiff.review`: each finds the store
(``--review FILE``, else ``$LAWDIFF_REVIEW``, else ``lawdiff-review.sqlite``
here), calls the library, renders and echoes.  Commands that name a change
run the comparisons of the corpus to find it (all pairs, or ``--pair``).
"""

from __future__ import annotations

import functools
import getpass
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from lawdiff.cli.options import Inputs, corpus_option, emit, format_option, review_option, thresholds_option
from lawdiff.errors import UsageError

if TYPE_CHECKING:
    from lawdiff.diff.records import Comparison
    from lawdiff.review import Status, Store
    from lawdiff.review.ids import Named

F = TypeVar("F", bound=Callable[..., Any])
ENV_AUTHOR = "LAWDIFF_AUTHOR"


# ---------------------------------------------------------------------------
# Shared options


def store_option(f: F) -> F:
    """``--review FILE`` for the commands that read no corpus."""
    return click.option(
        "--review",
        "review_file",
        type=click.Path(path_type=Path, dir_okay=False),
        metavar="FILE",
        help="The review store. Default: $LAWDIFF_REVIEW, else lawdiff-review.sqlite in the current folder.",
    )(f)


def author_option(f: F) -> F:
    @click.option(
        "--author",
        "author",
        metavar="NAME",
        help=f"Who writes. Default: ${ENV_AUTHOR}, else git's user.name, else the login name.",
    )
    @functools.wraps(f)
    def wrapper(*args: Any, author: str | None, **kwargs: Any) -> Any:
        return f(*args, author=author or default_author(), **kwargs)

    return wrapper  # type: ignore[return-value]


def pair_option(f: F) -> F:
    return click.option(
        "--pair",
        nargs=2,
        metavar="OLD NEW",
        default=None,
        help="The edition pair (when several pairs hold a clause, or to compare only it).",
    )(f)


def default_author() -> str:
    """``$LAWDIFF_AUTHOR``, else git's ``user.name``, else the login name."""
    name = os.environ.get(ENV_AUTHOR, "").strip()
    if name:
        return name
    try:
        done = subprocess.run(["git", "config", "user.name"], capture_output=True, text=True, timeout=5, check=False)
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"


def _reader(review_file: Path | None) -> Store:
    from lawdiff.review import find_store, open_for_reading

    loc = find_store(review_file)
    if not loc.exists and loc.rule != "default":
        # Not an error (the first write creates it), but a typo should not pass unseen.
        click.echo(f"lawdiff: note: no review store at {loc.path} (named by {loc.rule}) yet: no decisions", err=True)
    return open_for_reading(loc)


def _writer(review_file: Path | None) -> Store:
    from lawdiff.review import find_store, open_for_writing

    return open_for_writing(find_store(review_file))


def _runner(
    inputs: Inputs, pair: tuple[str, str] | None, overrides: dict[str, float], store: Store
) -> Callable[[], list[Comparison]]:
    """The run's comparisons (with the store's hand corrections), computed when first asked for."""

    @functools.cache
    def run() -> list[Comparison]:
        from lawdiff.review import runs

        corpus = inputs.load()
        study = inputs.study(corpus, runs.timeline(corpus), overrides, store)
        return runs.comparisons(study, corpus, pair)

    return run


def _status(value: str) -> Status:
    from lawdiff.review import STATUSES, Status

    if value not in STATUSES:
        raise UsageError(f"unknown status {value!r}", fix=f"use one of: {', '.join(STATUSES)}")
    return Status(value)


def _named(n: Named) -> str:
    from lawdiff.review.ids import short

    t = n.target
    where = ", ".join(t.new or t.old)
    if t.old and t.new and t.old != t.new:
        where = f"{', '.join(t.old)} -> {', '.join(t.new)}"
    heading = " (heading)" if t.aspect == "title" else ""
    return f"{short(t.id)} {t.old_edition} -> {t.new_edition} {t.kind} {where}{heading}"


def _meeting_note(meeting: str) -> str:
    from lawdiff.review.ids import short

    return f" (meeting {short(meeting)})" if meeting else ""


# ---------------------------------------------------------------------------
# The group


@click.group()
def review() -> None:
    """The committee's review: decisions, comments, meetings, corrections.

    Decisions are kept in one SQLite file, found by --review FILE, else
    $LAWDIFF_REVIEW, else lawdiff-review.sqlite in the current folder
    (created by the first write). A decision belongs to a change id; when
    the draft changes, it stays with the change at the same addresses,
    shown as outdated beside the text it was made on. Commands that name
    a change or a clause take --corpus DIR to read another corpus.

    Example: lawdiff review set 2017:45C4(b) accepted --comment "Agreed."
    """


@review.command("list")
@click.option("--status", "status_name", metavar="STATUS", help="Only changes with this status.")
@click.option("--article", "articles", multiple=True, metavar="N", help="Only changes touching article N (repeatable).")
@click.option("--outdated", is_flag=True, help="Only changes whose decision was made on an earlier text.")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write to FILE instead of standard output.")
@pair_option
@corpus_option
@review_option
@format_option("text", "json", "csv")
@thresholds_option
def list_(
    status_name: str | None,
    articles: tuple[str, ...],
    outdated: bool,
    output: Path | None,
    pair: tuple[str, str] | None,
    inputs: Inputs,
    fmt: str,
    overrides: dict[str, float],
) -> None:
    """List the changes of the corpus with their review status.

    Runs the comparisons (all consecutive pairs, or --pair) and shows each
    change with its id, status, assignee and comments; decisions made on an
    earlier text (outdated), decisions whose clauses vanished (orphaned) or
    whose pair is not compared, and hand corrections naming clauses that no
    longer exist.

    Example: lawdiff review list --article 45 --status open
    """
    from lawdiff.review import attach, render, runs

    status = _status(status_name) if status_name else None
    corpus = inputs.load()
    with _reader(inputs.review) as store:
        study = inputs.study(corpus, runs.timeline(corpus), overrides, store)
        comps = runs.comparisons(study, corpus, pair)
        editions = {e.name: e for e in (*corpus.variants, *corpus.editions)}
        view = attach(store, comps, editions)
    items = render.select(view, comps, status, articles, outdated)
    if fmt == "json":
        rendered = render.as_json(view, items)
    elif fmt == "csv":
        rendered = render.as_csv(items)
    else:
        rendered = render.text(view, items)
    emit(rendered, output)


@review.command("set")
@click.argument("change_id", metavar="ID")
@click.argument("status_name", metavar="STATUS")
@click.option("--comment", "comment", metavar="TEXT", help="Add this comment in the same write.")
@pair_option
@author_option
@corpus_option
@review_option
@thresholds_option
def set_(
    change_id: str,
    status_name: str,
    comment: str | None,
    pair: tuple[str, str] | None,
    author: str,
    inputs: Inputs,
    overrides: dict[str, float],
) -> None:
    """Set a change's status: open, accepted, query, translation-fix or rejected.

    ID is an id prefix (at least 4 hex digits, as review list shows) or the
    new side's EDITION:ADDRESS.

    Example: lawdiff review set 2017:45C4(b) accepted --comment "Agreed in the meeting."
    """
    from lawdiff.review.ids import resolve

    status = _status(status_name)
    with _writer(inputs.review) as store:
        named = resolve(change_id, store, _runner(inputs, pair, overrides, store), pair)
        d = store.set_status(named.target, status, author, comment or "")
    click.echo(f"{_named(named)}: {d.status.value}{_meeting_note(d.meeting)}")


@review.command("comment")
@click.argument("change_id", metavar="ID")
@click.argument("text")
@pair_option
@author_option
@corpus_option
@review_option
@thresholds_option
def comment(
    change_id: str,
    text: str,
    pair: tuple[str, str] | None,
    author: str,
    inputs: Inputs,
    overrides: dict[str, float],
) -> None:
    """Add a comment to a change's thread.

    Example: lawdiff review comment 2017:45C4(b) "Check the 2007 wording of (b)."
    """
    from lawdiff.review.ids import resolve, short

    with _writer(inputs.review) as store:
        named = resolve(change_id, store, _runner(inputs, pair, overrides, store), pair)
        c = store.add_comment(named.target, text, author)
    click.echo(f"{_named(named)}: comment {short(c.id)} added{_meeting_note(c.meeting)}")


@review.command("assign")
@click.argument("change_id", metavar="ID")
@click.argument("name")
@pair_option
@author_option
@corpus_option
@review_option
@thresholds_option
def assign(
    change_id: str,
    name: str,
    pair: tuple[str, str] | None,
    author: str,
    inputs: Inputs,
    overrides: dict[str, float],
) -> None:
    """Assign a change to a committee member ("" for nobody).

    Example: lawdiff review assign 2017:45C4(b) Anne
    """
    from lawdiff.review.ids import resolve

    with _writer(inputs.review) as store:
        named = resolve(change_id, store, _runner(inputs, pair, overrides, store), pair)
        d = store.assign(named.target, name.strip(), author)
    click.echo(f"{_named(named)}: assigned to {d.assignee or 'nobody'}")


@review.command("comment-edit")
@click.argument("comment_id", metavar="COMMENT_ID")
@click.argument("text")
@author_option
@store_option
def comment_edit(comment_id: str, text: str, author: str, review_file: Path | None) -> None:
    """Change the text of one of your comments (the old text stays in the log).

    Example: lawdiff review comment-edit 1a2b3c4d "Check the 2007 wording of (a)."
    """
    from lawdiff.review.ids import resolve_record, short

    with _writer(review_file) as store:
        c = store.edit_comment(resolve_record(store, "comments", comment_id, "comment"), text, author)
    click.echo(f"comment {short(c.id)} edited")


@review.command("comment-delete")
@click.argument("comment_id", metavar="COMMENT_ID")
@author_option
@store_option
def comment_delete(comment_id: str, author: str, review_file: Path | None) -> None:
    """Delete one of your comments (its text stays in the log).

    Example: lawdiff review comment-delete 1a2b3c4d
    """
    from lawdiff.review.ids import resolve_record, short

    with _writer(review_file) as store:
        c = store.delete_comment(resolve_record(store, "comments", comment_id, "comment"), author)
    click.echo(f"comment {short(c.id)} deleted")


@review.command("log")
@click.argument("record_id", metavar="[ID]", required=False)
@pair_option
@corpus_option
@review_option
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

    Example: lawdiff review log 2017:45C4(b)
    """
    from lawdiff.review import render
    from lawdiff.review.ids import log_records, resolve

    with _reader(inputs.review) as store:
        records = None
        if record_id:
            records = log_records(
                store,
                record_id,
                lambda: resolve(record_id, store, _runner(inputs, pair, overrides, store), pair).target.id,
            )
        entries = store.log(records)
    click.echo(render.log_json(entries) if fmt == "json" else render.log_text(entries), nl=False)


@review.command("undo")
@author_option
@store_option
def undo(author: str, review_file: Path | None) -> None:
    """Take back your last write (the undo is logged too).

    Example: lawdiff review undo --author Anne
    """
    from lawdiff.review.ids import short

    with _writer(review_file) as store:
        entries = store.undo(author)
    for e in entries:
        click.echo(f"undone: {e.action} of {e.table[:-1]} {short(e.record)} ({e.at[:16].replace('T', ' ')} UTC)")


@review.group("meeting")
def meeting() -> None:
    """Start and end committee meetings; decisions made during one carry it.

    Example: lawdiff review meeting start --attendees Anne,Bert
    """


@meeting.command("start")
@click.option("--date", "date_", metavar="YYYY-MM-DD", help="The meeting's date. Default: today.")
@click.option("--attendees", metavar="A,B,...", default="", help="Who attends, separated by commas.")
@author_option
@store_option
def meeting_start(date_: str | None, attendees: str, author: str, review_file: Path | None) -> None:
    """Start a meeting: statuses set and comments made until it ends carry it.

    Example: lawdiff review meeting start --date 2024-05-14 --attendees Anne,Bert,Carla
    """
    import datetime

    from lawdiff.review.ids import short

    if date_:
        try:
            day = datetime.date.fromisoformat(date_).isoformat()
        except ValueError:
            raise UsageError(f"--date {date_!r} is not a date", fix="write YYYY-MM-DD, e.g. 2024-05-14") from None
    else:
        day = datetime.date.today().isoformat()
    people = tuple(a.strip() for a in attendees.split(",") if a.strip())
    with _writer(review_file) as store:
        m = store.start_meeting(day, people, author)
    click.echo(f"meeting {short(m.id)} of {m.date} started" + (f" ({', '.join(m.attendees)})" if m.attendees else ""))


@meeting.command("end")
@author_option
@store_option
def meeting_end(author: str, review_file: Path | None) -> None:
    """End the open meeting.

    Example: lawdiff review meeting end
    """
    from lawdiff.review.ids import short

    with _writer(review_file) as store:
        m = store.end_meeting(author)
    click.echo(f"meeting {short(m.id)} of {m.date} ended")


@meeting.command("list")
@store_option
def meeting_list(review_file: Path | None) -> None:
    """List the meetings: id, date, attendees, start and end (UTC).

    Example: lawdiff review meeting list
    """
    from lawdiff.review.ids import short
    from lawdiff.review.render import clean

    with _reader(review_file) as store:
        meetings = store.meetings()
    if not meetings:
        click.echo("no meetings")
    for m in meetings:
        span = f"{m.started[11:16]}-{m.ended[11:16] if m.ended else 'open'} UTC"
        people = clean(", ".join(m.attendees)) or "(attendees not given)"
        click.echo(f"{short(m.id)}  {m.date}  {span}  {people}")


@review.command("export")
@click.option(
    "--meeting", "meeting_name", metavar="M", default="", help="Only what was decided in meeting M (id or date)."
)
@click.option("--since", metavar="DATE", default="", help="Only what changed on or after DATE (UTC, YYYY-MM-DD).")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write to FILE instead of standard output.")
@store_option
@format_option("jsonl", "csv", "md")
def export(meeting_name: str, since: str, output: Path | None, review_file: Path | None, fmt: str) -> None:
    """Export the store: JSONL (to merge or back up), CSV, or the minutes in Markdown.

    The minutes (--format md) give decisions and comments per pair and
    article, each with its change as decided on: old and new wording and the
    differences marked [-...-]{+...+}.

    Example: lawdiff review export --format md --meeting 2024-05-14 -o minutes.md
    """
    from lawdiff.review import exchange

    with _reader(review_file) as store:
        rendered = exchange.export(store, fmt, meeting_name, since)
    emit(rendered, output)


@review.command("import")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@author_option
@store_option
def import_(file: Path, author: str, review_file: Path | None) -> None:
    """Merge a JSONL export of another store into this one.

    Records keep their ids, so importing a file twice adds nothing; where
    both stores changed a record, the later version (UTC) is kept and the
    other is logged.

    Example: lawdiff review import anne.jsonl
    """
    from lawdiff.review import exchange

    with _writer(review_file) as store:
        result = exchange.import_file(store, file, author)
    click.echo(
        f"{file}: {result.added} added, {result.replaced} replaced by a later version, {result.kept} kept "
        f"(this store's was later), {result.unchanged} already here; {result.log_added} log entries added"
    )
    for line in result.conflicts:
        click.echo(f"  {line}")


@review.command("pin")
@click.argument("clauses", nargs=-1, required=True, metavar="OLD_EDITION:ADDR NEW_EDITION:ADDR [MORE...]")
@author_option
@corpus_option
@review_option
def pin(clauses: tuple[str, ...], author: str, inputs: Inputs) -> None:
    """Tell the aligner that these clauses are the same (one to several for a split or merge).

    Example: lawdiff review pin 2007:45D 2017:45D1 2017:45D2
    """
    from lawdiff.review import CorrectionKind, pins

    if len(clauses) < 2:
        raise UsageError("a pin names at least two clauses", fix="e.g. lawdiff review pin 2007:45D 2017:45D1")
    pair, old, new = pins.sides(inputs.load(), clauses)
    with _writer(inputs.review) as store:
        c = store.add_correction(CorrectionKind.PIN, pair, old, new, author)
    click.echo(_correction_text(c, "pinned"))


@review.command("forbid")
@click.argument("first", metavar="A")
@click.argument("second", metavar="B")
@author_option
@corpus_option
@review_option
def forbid(first: str, second: str, author: str, inputs: Inputs) -> None:
    """Tell the aligner never to pair these two clauses.

    Example: lawdiff review forbid 2007:45D 2017:45E
    """
    from lawdiff.review import CorrectionKind, pins

    pair, old, new = pins.forbid_sides(inputs.load(), first, second)
    with _writer(inputs.review) as store:
        c = store.add_correction(CorrectionKind.FORBID, pair, old, new, author)
    click.echo(_correction_text(c, "forbidden"))


@review.command("unpin")
@click.argument("names", nargs=-1, required=True, metavar="ID|EDITION:ADDR...")
@author_option
@store_option
def unpin(names: tuple[str, ...], author: str, review_file: Path | None) -> None:
    """Remove hand corrections: by id, or every one naming all the clauses given.

    Example: lawdiff review unpin 2007:45D
    """
    from lawdiff.review import pins
    from lawdiff.review.ids import resolve_record

    with _writer(review_file) as store:
        if all(":" not in n for n in names):
            ids = [resolve_record(store, "corrections", n, "correction") for n in names]
        else:
            found = pins.matching(store.corrections(), names)
            if not found:
                raise UsageError(f"no correction names {' '.join(names)}", fix="see them with: lawdiff review list")
            ids = [c.id for c in found]
        removed = store.remove_corrections(ids, author)
    for c in removed:
        click.echo(_correction_text(c, "removed"))
    if not removed:
        click.echo("nothing to remove: already removed")


def _correction_text(c: Any, verb: str) -> str:
    from lawdiff.review.ids import short

    old = " ".join(f"{c.old_edition}:{a}" for a in c.old)
    new = " ".join(f"{c.new_edition}:{a}" for a in c.new)
    return f"{short(c.id)} {verb}: {old} {'=' if c.kind.value == 'pin' else '!='} {new}"
