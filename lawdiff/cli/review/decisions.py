"""The decisions on changes and their threads: ``review list``, ``set``, ``assign``, ``comment``,
``comment-edit`` and ``comment-delete``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from lawdiff.cli.language import command, option
from lawdiff.cli.options import (
    Inputs,
    article_option,
    corpus_option,
    emit,
    format_option,
    output_option,
    review_file_option,
    thresholds_option,
)
from lawdiff.cli.review.options import (
    author_option,
    pair_option,
    parse_status,
    reader,
    runner,
    store_option,
    write,
)
from lawdiff.cli.terminal import echo
from lawdiff.i18n import N_, terms
from lawdiff.i18n import gettext as _

if TYPE_CHECKING:
    from lawdiff.review import Store
    from lawdiff.review.ids import Named
    from lawdiff.review.values import Comment, Decision


@command(
    "list",
    help=N_(
        "List the changes of the corpus with their review status.\n\n"
        "Runs the comparisons (all consecutive pairs, or --pair: then only its two editions are read, "
        "and only its decisions and hand corrections; the other pairs' decisions are counted per pair, "
        "not listed) and shows each change with its id, status, assignee and comments; decisions made on "
        "an earlier text (outdated), decisions whose clauses vanished (orphaned) or whose pair is not "
        "compared, and hand corrections naming clauses that no longer exist.\n\n"
        "Example: lawdiff review list --article 45 --status open"
    ),
)
@option("--status", "status_name", metavar="STATUS", help=N_("Only changes with this status."))
@article_option
@option("--outdated", is_flag=True, help=N_("Only changes whose decision was made on an earlier text."))
@output_option
@pair_option
@corpus_option
@review_file_option
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
    from lawdiff.diff import scopes
    from lawdiff.review import attach, render, runs

    status = parse_status(status_name) if status_name else None
    # With --pair only the two editions are read (as `compare` reads them); their corrections are checked.
    corpus = inputs.load(editions=pair or ())
    # As `compare --article`: a section or clause and what is under it; a name no edition holds is refused.
    wanted = scopes(articles, [e for e in corpus.editions if pair is None or e.name in pair])
    with reader(inputs.review) as store:
        study = inputs.study(corpus, runs.timeline(corpus), overrides, store)
        comps = runs.comparisons(study, corpus, pair)
        editions = {e.name: e for e in (*corpus.variants, *corpus.editions)}
        view = attach(store, comps, editions, partial=pair is not None)
    items = render.select(view, comps, status, wanted, outdated)
    if fmt == "json":
        rendered = render.as_json(view, items)
    elif fmt == "csv":
        rendered = render.as_csv(items)
    else:
        rendered = render.text(view, items)
    emit(rendered, output, fmt)


@command(
    "set",
    help=N_(
        "Set a change's status: open, accepted, query, translation-fix or rejected.\n\n"
        "ID is an id prefix (at least 4 hex digits, as review list shows) or the new side's "
        "EDITION:ADDRESS.\n\n"
        "Example: lawdiff review set '2017:45C4(b)' accepted --comment \"Agreed in the meeting.\""
    ),
)
@click.argument("change_id", metavar="ID")
@click.argument("status_name", metavar="STATUS")
@option("--comment", "comment", metavar="TEXT", help=N_("Add this comment in the same write."))
@pair_option
@author_option
@corpus_option
@review_file_option
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
    from lawdiff.review.ids import resolve

    status = parse_status(status_name)

    def set_status(store: Store) -> tuple[Named, Decision]:
        named = resolve(change_id, store, runner(inputs, pair, overrides, store), pair)
        return named, store.set_status(named.target, status, author, comment or "")

    named, d = write(inputs.review, set_status)
    echo(f"{_named(named)}: {terms.status(d.status.value)}{_meeting_note(d.meeting)}")


@command(
    "comment",
    help=N_(
        "Add a comment to a change's thread (ID as for review set).\n\n"
        "Example: lawdiff review comment '2017:45C4(b)' \"Check the 2007 wording of (b).\""
    ),
)
@click.argument("change_id", metavar="ID")
@click.argument("text")
@pair_option
@author_option
@corpus_option
@review_file_option
@thresholds_option
def comment(
    change_id: str,
    text: str,
    pair: tuple[str, str] | None,
    author: str,
    inputs: Inputs,
    overrides: dict[str, float],
) -> None:
    from lawdiff.review.ids import resolve, short

    def add_comment(store: Store) -> tuple[Named, Comment]:
        named = resolve(change_id, store, runner(inputs, pair, overrides, store), pair)
        return named, store.add_comment(named.target, text, author)

    named, c = write(inputs.review, add_comment)
    echo(f"{_named(named)}: " + _("comment {id} added").format(id=short(c.id)) + _meeting_note(c.meeting))


@command(
    "assign",
    help=N_(
        'Assign a change to a committee member ("" for nobody; ID as for review set).\n\n'
        "Example: lawdiff review assign '2017:45C4(b)' Anne"
    ),
)
@click.argument("change_id", metavar="ID")
@click.argument("name")
@pair_option
@author_option
@corpus_option
@review_file_option
@thresholds_option
def assign(
    change_id: str,
    name: str,
    pair: tuple[str, str] | None,
    author: str,
    inputs: Inputs,
    overrides: dict[str, float],
) -> None:
    from lawdiff.review.ids import resolve

    def assign_to(store: Store) -> tuple[Named, Decision]:
        named = resolve(change_id, store, runner(inputs, pair, overrides, store), pair)
        return named, store.assign(named.target, name.strip(), author)

    named, d = write(inputs.review, assign_to)
    echo(f"{_named(named)}: " + _("assigned to {name}").format(name=d.assignee or _("nobody")))


@command(
    "comment-edit",
    help=N_(
        "Change the text of one of your comments (the old text stays in the log).\n\n"
        "COMMENT_ID is a prefix of the comment's id, as review list shows it in brackets.\n\n"
        'Example: lawdiff review comment-edit 1a2b3c4d "Check the 2007 wording of (a)."'
    ),
)
@click.argument("comment_id", metavar="COMMENT_ID")
@click.argument("text")
@author_option
@store_option
def comment_edit(comment_id: str, text: str, author: str, review_file: Path | None) -> None:
    from lawdiff.review.ids import resolve_record, short

    c = write(
        review_file,
        lambda store: store.edit_comment(resolve_record(store, "comments", comment_id, _("comment")), text, author),
    )
    echo(_("comment {id} edited").format(id=short(c.id)))


@command(
    "comment-delete",
    help=N_(
        "Delete one of your comments (its text stays in the log).\n\n"
        "COMMENT_ID is a prefix of the comment's id, as review list shows it in brackets.\n\n"
        "Example: lawdiff review comment-delete 1a2b3c4d"
    ),
)
@click.argument("comment_id", metavar="COMMENT_ID")
@author_option
@store_option
def comment_delete(comment_id: str, author: str, review_file: Path | None) -> None:
    from lawdiff.review.ids import resolve_record, short

    c = write(
        review_file,
        lambda store: store.delete_comment(resolve_record(store, "comments", comment_id, _("comment")), author),
    )
    echo(_("comment {id} deleted").format(id=short(c.id)))


def _named(n: Named) -> str:
    from lawdiff.review.ids import short

    t = n.target
    where = ", ".join(t.new or t.old)
    if t.old and t.new and t.old != t.new:
        where = f"{', '.join(t.old)} -> {', '.join(t.new)}"
    heading = f" ({terms.note('heading')})" if t.aspect == "title" else ""
    return f"{short(t.id)} {t.old_edition} -> {t.new_edition} {terms.kind(t.kind)} {where}{heading}"


def _meeting_note(meeting: str) -> str:
    from lawdiff.review.ids import short

    return _(" (meeting {id})").format(id=short(meeting)) if meeting else ""
