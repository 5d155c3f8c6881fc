"""``review pin``, ``forbid`` and ``unpin``: the hand corrections of the alignment."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from lawdiff.cli.language import command
from lawdiff.cli.options import Inputs, corpus_option, review_file_option
from lawdiff.cli.review.options import author_option, store_option, write
from lawdiff.cli.terminal import echo
from lawdiff.errors import UsageError
from lawdiff.i18n import N_, pgettext
from lawdiff.i18n import gettext as _

if TYPE_CHECKING:
    from lawdiff.review import Store
    from lawdiff.review.values import Correction


@command(
    "pin",
    help=N_(
        "Tell the aligner that these clauses are the same (one to several for a split or merge).\n\n"
        "Example: lawdiff review pin 2007:45D 2017:45D1 2017:45D2"
    ),
)
@click.argument("clauses", nargs=-1, required=True, metavar="OLD_EDITION:ADDR NEW_EDITION:ADDR [MORE...]")
@author_option
@corpus_option
@review_file_option
def pin(clauses: tuple[str, ...], author: str, inputs: Inputs) -> None:
    from lawdiff.review import CorrectionKind, pins

    if len(clauses) < 2:
        raise UsageError(_("a pin names at least two clauses"), fix=_("e.g. lawdiff review pin 2007:45D 2017:45D1"))
    pair, old, new = pins.sides(inputs.load(), clauses)
    c = write(inputs.review, lambda store: store.add_correction(CorrectionKind.PIN, pair, old, new, author))
    echo(_correction_text(c, _("pinned")))


@command(
    "forbid",
    help=N_("Tell the aligner never to pair these two clauses.\n\nExample: lawdiff review forbid 2007:45D 2017:45E"),
)
@click.argument("first", metavar="A")
@click.argument("second", metavar="B")
@author_option
@corpus_option
@review_file_option
def forbid(first: str, second: str, author: str, inputs: Inputs) -> None:
    from lawdiff.review import CorrectionKind, pins

    pair, old, new = pins.forbid_sides(inputs.load(), first, second)
    c = write(inputs.review, lambda store: store.add_correction(CorrectionKind.FORBID, pair, old, new, author))
    echo(_correction_text(c, _("forbidden")))


@command(
    "unpin",
    help=N_(
        "Remove hand corrections: by id, or every one naming all the clauses given.\n\n"
        "Example: lawdiff review unpin 2007:45D"
    ),
)
@click.argument("names", nargs=-1, required=True, metavar="ID|EDITION:ADDR...")
@author_option
@store_option
def unpin(names: tuple[str, ...], author: str, review_file: Path | None) -> None:
    from lawdiff.review import pins
    from lawdiff.review.ids import resolve_record

    def remove(store: Store) -> list[Correction]:
        if all(":" not in n for n in names):
            ids = [resolve_record(store, "corrections", n, _("correction")) for n in names]
        else:
            found = pins.matching(store.corrections(), names)
            if not found:
                raise UsageError(
                    _("no correction names {names}").format(names=" ".join(names)),
                    fix=_("see them with: lawdiff review list"),
                )
            ids = [c.id for c in found]
        return store.remove_corrections(ids, author)

    removed = write(review_file, remove)
    for c in removed:
        echo(_correction_text(c, pgettext("correction", "removed")))
    if not removed:
        echo(_("nothing to remove: already removed"))


def _correction_text(c: Any, verb: str) -> str:
    from lawdiff.review.ids import short

    old = " ".join(f"{c.old_edition}:{a}" for a in c.old)
    new = " ".join(f"{c.new_edition}:{a}" for a in c.new)
    return f"{short(c.id)} {verb}: {old} {'=' if c.kind.value == 'pin' else '!='} {new}"
