"""Comparing editions: ``lawdiff compare`` and ``lawdiff history``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from lawdiff.cli.language import command, option
from lawdiff.cli.options import (
    Inputs,
    article_option,
    color_option,
    corpus_option,
    emit,
    format_option,
    output_option,
    review_option,
    say_unplaced,
    thresholds_option,
    unplaced_warning,
)
from lawdiff.cli.terminal import echo, note_line
from lawdiff.errors import UsageError
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _

if TYPE_CHECKING:
    from collections.abc import Sequence

    from lawdiff.cli.kept import Answer, Rendered
    from lawdiff.corpus import Corpus
    from lawdiff.diff.comparison import Comparison
    from lawdiff.diff.vocabulary import Change
    from lawdiff.model import Edition
    from lawdiff.report.text import Style
    from lawdiff.review.view import ReviewView


@command(
    help=N_(
        "Compare two editions clause by clause.\n\n"
        "Lists every change grouped by article: unchanged, modified, split, merged, added, removed; "
        "renumberings, moves, title changes, word-level differences and what became of the references. "
        "The text output shows deletions as [-...-] and insertions as {+...+} (coloured on a terminal); "
        "--format html writes the side-by-side view of `lawdiff report` for this one pair as one "
        "self-contained page; --format docx a Word document of the new edition with the differences as "
        "tracked changes (-o FILE). Run again on a corpus that did not change, without a review store, "
        "it prints the answer it kept in the cache (--no-cache: compare afresh).\n\n"
        "Example: lawdiff compare 2007 2017 --article 45"
    )
)
@click.argument("old")
@click.argument("new")
@article_option
@option("--all", "show_all", is_flag=True, help=N_("Also list unchanged clauses in the text output."))
@option("-v", "--verbose", is_flag=True, help=N_("Show every alignment threshold, not only those set."))
@option("--exit-code", is_flag=True, help=N_("Exit 1 when there are differences, 0 when none (as git diff)."))
@option(
    "--sort",
    type=click.Choice(["document", "significance"]),
    default="document",
    show_default=True,
    help=N_(
        "Order of the changes: the new edition's document order, or the most significant first (the articles"
        " by their most significant change)."
    ),
)
@output_option
@corpus_option
@review_option
@format_option("text", "json", "html", "docx")
@thresholds_option
@color_option
def compare(
    old: str,
    new: str,
    articles: tuple[str, ...],
    show_all: bool,
    verbose: bool,
    exit_code: bool,
    sort: str,
    output: Path | None,
    inputs: Inputs,
    fmt: str,
    overrides: dict[str, float],
    colours: Style | None,
) -> None:
    coloured = fmt == "text" and output is None and colours is not None

    def make() -> tuple[Answer, bool]:
        return _comparison_answer(
            inputs, old, new, articles, show_all, verbose, fmt, overrides, colours if coloured else None, sort
        )

    # A Word document carries the time it was made: never an answer to keep.
    options = (old, new, articles, show_all, verbose, fmt, overrides, coloured, sort)
    from lawdiff.forked import collector_paused_for_command

    # The corpus, the comparison and its index are made once and kept to the end: no pass of the
    # collector over them finds anything to free.
    with collector_paused_for_command():
        answer = make()[0] if fmt == "docx" else inputs.answer("compare", options, make)
        emit(answer.rendered, output, fmt, answer.coloured)
    if exit_code and answer.differs:
        sys.exit(1)


def _comparison_answer(
    inputs: Inputs,
    old: str,
    new: str,
    articles: tuple[str, ...],
    show_all: bool,
    verbose: bool,
    fmt: str,
    overrides: dict[str, float],
    style: Style | None,
    sort: str = "document",
) -> tuple[Answer, bool]:
    """What ``compare`` says (its notes said on stderr as it goes), and whether a review store was read;
    ``style``: the text's colours, for a coloured drawing beside the plain one; None for plain only;
    ``sort``: ``significance`` lists the most significant change first."""
    from lawdiff.cli.kept import Answer
    from lawdiff.diff import scopes, within
    from lawdiff.diff.comparison import differs as any_difference
    from lawdiff.model import chronological
    from lawdiff.report import text

    notes: list[str] = []
    corpus = inputs.load(editions=(old, new))
    old_edition, new_edition = corpus.edition(old), corpus.edition(new)
    wanted = scopes(articles, (old_edition, new_edition))
    lossy = unplaced_warning(corpus, (old_edition, new_edition))
    if lossy is not None:
        notes.append(lossy)
        echo(lossy, err=True)
    if chronological(old_edition) > chronological(new_edition):
        notes.append(
            note_line(
                _("{old} is newer than {new}: the changes read from the newer to the older edition").format(
                    old=old, new=new
                )
            )
        )
        echo(notes[-1], err=True)
    comp, view, reviewed = _compare_pair(inputs, corpus, old_edition, new_edition, overrides, with_review=True)
    # Every change, as the comparison holds them (the records of the clauses that kept their text made only
    # where they are read), or those within the articles asked for.
    changes: Sequence[Change] = comp.changes if not wanted else [ch for ch in comp.changes if within(ch, wanted)]
    if sort == "significance":
        from lawdiff.diff.ranking import ranked

        changes = ranked(changes)
    rendered: Rendered
    coloured = None
    if fmt == "text":
        rendered = text.comparison(comp, changes, show_all, text.plain, verbose, view)
        if style is not None:
            coloured = text.comparison(comp, changes, show_all, style, verbose, view)
    else:
        rendered = _rendered_comparison(fmt, comp, list(changes), view, old_edition, new_edition)
    # What the counts count: a clause only one corpus holds is no difference.
    differs = any_difference(changes)
    return Answer(tuple(notes), rendered, differs, coloured), reviewed


def _compare_pair(
    inputs: Inputs,
    corpus: Corpus,
    old: Edition,
    new: Edition,
    overrides: dict[str, float],
    with_review: bool,
) -> tuple[Comparison, ReviewView | None, bool]:
    """The comparison of one pair under the review store's corrections,
    (``with_review``) the store's decisions on it, and whether a store was read."""
    from lawdiff.cli.options import review_of

    store = inputs.store()
    try:
        comp = inputs.study(corpus, (old, new), overrides, store).compare(old, new)
        view = review_of(store, [comp], (old, new)) if with_review else None
    finally:
        if store is not None:
            store.close()
    return comp, view, store is not None


def _rendered_comparison(
    fmt: str, comp: Comparison, changes: list[Change], view: ReviewView | None, old: Edition, new: Edition
) -> Rendered:
    """A comparison as JSON, as a Word redline or as an HTML page (the text output
    takes the terminal's options, so ``compare`` renders it itself); the JSON and the page in pieces, written
    one after the other."""
    if fmt == "json":
        from lawdiff.report import jsonout

        return jsonout.comparison_pieces(comp, changes, view, (old, new))
    if fmt == "docx":
        from lawdiff.cli.options import word_comments
        from lawdiff.report.docx import docx

        return docx(comp, changes, old, new, word_comments(view, changes))
    from lawdiff.report import html as html_report

    return html_report.comparison_pieces(comp, changes, old, new)


@command(
    help=N_(
        "Follow one clause through every edition of the corpus, oldest first.\n\n"
        "Shows its address and text in each edition, the kind of change at each step, and the edition "
        'that introduced its current wording ("or earlier" when the editions before it are missing from '
        "the corpus). Works from any edition's address. Run again on an unchanged corpus, without a "
        "review store, it prints the answer it kept (--no-cache: afresh).\n\n"
        "Example: lawdiff history '1963:45(d)'"
    )
)
@click.argument("spec", metavar="EDITION:ADDRESS")
@corpus_option
@review_option
@format_option("text", "json")
@thresholds_option
@color_option
def history(spec: str, inputs: Inputs, fmt: str, overrides: dict[str, float], colours: Style | None) -> None:
    _name, sep, address = spec.partition(":")
    if not sep or not address.strip():
        raise UsageError(
            _("{spec!r} names no clause").format(spec=spec), fix=_("write EDITION:ADDRESS, e.g. 2017:45C4(b)")
        )

    def make() -> tuple[Answer, bool]:
        from lawdiff.cli.kept import Answer
        from lawdiff.diff import history as clause_history
        from lawdiff.report import jsonout, text

        corpus = inputs.load()
        edition, clause = corpus.clause(spec)
        notes = say_unplaced(corpus, corpus.editions)
        store = inputs.store()
        try:
            study = inputs.study(corpus, corpus.editions, overrides, store)
            h = clause_history(study, edition, clause.address if clause else address)
        finally:
            if store is not None:
                store.close()
        if fmt == "json":
            return Answer(notes, jsonout.history(h, study.thresholds, study.editions), False), store is not None
        plain = text.history(h, text.plain, study.editions)
        coloured = text.history(h, colours, study.editions) if colours else None
        return Answer(notes, plain, False, coloured), store is not None

    answer = inputs.answer("history", (spec, fmt, overrides, fmt == "text" and colours is not None), make)
    emit(answer.rendered, None, fmt, answer.coloured)


@command(
    help=N_(
        "Print the correlation table of two editions: old number -> new number.\n\n"
        "One row per clause, as EU recasts and UK consolidations print them: unchanged, renumbered, "
        "moved to another article, split (1:n), merged (n:1), removed (1:0) and added (0:1), with "
        "whether the words changed. Ordered by the old number (--by new: by the new one). What only one "
        "corpus holds has no row; the text and md tables say it once. Run again on an unchanged corpus, "
        "without a review store, it prints the answer it kept (--no-cache: afresh).\n\n"
        "Example: lawdiff correlate 2007 2017 --format md -o correlatie.md"
    )
)
@click.argument("old")
@click.argument("new")
@option(
    "--article",
    "articles",
    multiple=True,
    metavar="ADDRESS",
    help=N_("Only clauses of article N, or of a section and what is under it (45, 45C; repeatable)."),
)
@option(
    "--by",
    type=click.Choice(["old", "new"]),
    default="old",
    show_default=True,
    help=N_("Order the rows by the old or the new number."),
)
@output_option
@corpus_option
@review_option
@format_option("text", "csv", "md", "json")
@thresholds_option
def correlate(
    old: str,
    new: str,
    articles: tuple[str, ...],
    by: str,
    output: Path | None,
    inputs: Inputs,
    fmt: str,
    overrides: dict[str, float],
) -> None:

    def make() -> tuple[Answer, bool]:
        from lawdiff.cli.kept import Answer
        from lawdiff.diff import correlate as table
        from lawdiff.diff import scopes, within
        from lawdiff.report import correlate as render
        from lawdiff.report.not_compared import NotCompared

        corpus = inputs.load(editions=(old, new))
        old_edition, new_edition = corpus.edition(old), corpus.edition(new)
        wanted = scopes(articles, (old_edition, new_edition))
        notes = say_unplaced(corpus, (old_edition, new_edition))
        comp, _, reviewed = _compare_pair(inputs, corpus, old_edition, new_edition, overrides, with_review=False)
        changes = [ch for ch in comp.changes if within(ch, wanted)]
        rows = table.rows(comp, changes)
        outside = NotCompared.of(comp, changes)
        if fmt == "csv":
            rendered = render.as_csv(rows, by)
        elif fmt == "md":
            rendered = render.markdown(comp.old, comp.new, rows, by, outside)
        elif fmt == "json":
            rendered = render.as_json(comp.old, comp.new, rows)
        else:
            rendered = render.text(comp.old, comp.new, rows, by, outside)
        return Answer(notes, rendered, False), reviewed

    emit(inputs.answer("correlate", (old, new, articles, by, fmt, overrides), make).rendered, output, fmt)
