"""``lawdiff review``: the committee's decisions, comments, meetings and hand corrections.

Thin commands over :mod:`lawdiff.review`: each finds the store
(``--review FILE``, else ``$LAWDIFF_REVIEW``, else ``lawdiff-review.sqlite``
here), calls the library, renders and echoes.  Commands that name a change
run the comparisons of the corpus to find it (all pairs, or ``--pair``).

Modules: ``options`` (the options the commands share, and the store and run
they open), ``decisions`` (list, set, assign, comment), ``audit`` (log,
undo), ``meetings``, ``exchange`` (export, import), ``pins`` (pin, forbid,
unpin).
"""

from __future__ import annotations

from lawdiff.cli.language import group
from lawdiff.cli.review import audit, decisions, exchange, meetings, pins
from lawdiff.i18n import N_


@group(
    help=N_(
        "The committee's review: decisions, comments, meetings, corrections.\n\n"
        "Decisions are kept in one SQLite file, found by --review FILE, else $LAWDIFF_REVIEW, else "
        "lawdiff-review.sqlite in the current folder (created by the first write). A decision belongs to "
        "a change id; when the draft changes, it stays with the change at the same addresses, shown as "
        "outdated beside the text it was made on. Commands that name a change or a clause take --corpus "
        "DIR to read another corpus.\n\n"
        "Example: lawdiff review set '2017:45C4(b)' accepted --comment \"Agreed.\""
    )
)
def review() -> None:
    """The ``review`` group: its help is the ``help`` above (translated where shown)."""


for command in (
    decisions.list_,
    decisions.set_,
    decisions.comment,
    decisions.assign,
    decisions.comment_edit,
    decisions.comment_delete,
    audit.log,
    audit.undo,
    meetings.meeting,
    exchange.export,
    exchange.import_,
    pins.pin,
    pins.forbid,
    pins.unpin,
):
    review.add_command(command)
