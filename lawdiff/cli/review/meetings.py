"""``review meeting start``, ``end`` and ``list``: the committee's meetings."""

from __future__ import annotations

from pathlib import Path

from lawdiff.cli.language import group, option
from lawdiff.cli.review.options import author_option, reader, store_option, write
from lawdiff.cli.terminal import echo
from lawdiff.errors import UsageError
from lawdiff.i18n import N_, format_day, pgettext
from lawdiff.i18n import gettext as _


@group(
    "meeting",
    help=N_(
        "Start and end committee meetings; decisions made during one carry it.\n\n"
        "Example: lawdiff review meeting start --attendees Anne,Bert"
    ),
)
def meeting() -> None:
    """The ``review meeting`` group: its help is the ``help`` above."""


@meeting.command(
    "start",
    help=N_(
        "Start a meeting: statuses set and comments made until it ends carry it.\n\n"
        "Example: lawdiff review meeting start --date 2024-05-14 --attendees Anne,Bert,Carla"
    ),
)
@option("--date", "date_", metavar="YYYY-MM-DD", help=N_("The meeting's date. Default: today."))
@option("--attendees", metavar="A,B,...", default="", help=N_("Who attends, separated by commas."))
@author_option
@store_option
def meeting_start(date_: str | None, attendees: str, author: str, review_file: Path | None) -> None:
    import datetime

    from lawdiff.review.ids import short

    if date_:
        try:
            day = datetime.date.fromisoformat(date_).isoformat()
        except ValueError:
            raise UsageError(
                _("--date {date!r} is not a date").format(date=date_), fix=_("write YYYY-MM-DD, e.g. 2024-05-14")
            ) from None
    else:
        day = datetime.date.today().isoformat()
    people = tuple(a.strip() for a in attendees.split(",") if a.strip())
    m = write(review_file, lambda store: store.start_meeting(day, people, author))
    started = _("meeting {id} of {date} started").format(id=short(m.id), date=format_day(m.date))
    echo(started + (f" ({', '.join(m.attendees)})" if m.attendees else ""))


@meeting.command("end", help=N_("End the open meeting.\n\nExample: lawdiff review meeting end"))
@author_option
@store_option
def meeting_end(author: str, review_file: Path | None) -> None:
    from lawdiff.review.ids import short

    m = write(review_file, lambda store: store.end_meeting(author))
    echo(_("meeting {id} of {date} ended").format(id=short(m.id), date=format_day(m.date)))


@meeting.command(
    "list",
    help=N_("List the meetings: id, date, attendees, start and end (UTC).\n\nExample: lawdiff review meeting list"),
)
@store_option
def meeting_list(review_file: Path | None) -> None:
    from lawdiff.review.ids import short

    with reader(review_file) as store:
        meetings = store.meetings()
    if not meetings:
        echo(_("no meetings"))
    for m in meetings:
        end = m.ended[11:16] if m.ended else pgettext("meeting", "open")
        span = f"{m.started[11:16]}-{end} UTC"
        people = ", ".join(m.attendees) or _("(attendees not given)")
        echo(f"{short(m.id)}  {format_day(m.date)}  {span}  {people}")
