"""Reading the corpus: ``lawdiff editions``, ``show`` and ``check``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from lawdiff.cli.language import FilePath, command, option
from lawdiff.cli.options import Inputs, color_option, corpus_option, emit, format_option
from lawdiff.errors import UsageError
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _

if TYPE_CHECKING:
    from lawdiff.report.text import Style


@command(
    help=N_(
        "List the editions in the corpus: sources, printing, articles, counts.\n\n"
        "Example: lawdiff editions --format json"
    )
)
@corpus_option
@format_option("text", "json")
def editions(inputs: Inputs, fmt: str) -> None:
    from lawdiff.report import jsonout, text

    corpus = inputs.load()
    emit(jsonout.editions(corpus) if fmt == "json" else text.editions(corpus), None, fmt)


@command(
    help=N_(
        "Show an edition's outline, or one clause in full.\n\n"
        "ADDRESS follows the clause address rules: 45, 45C, 45C4(b), 45E.p2, 45A.fn1, H6 (a chapter), "
        "voorwoord (a front page). Quote an address with parentheses for the shell ('2017:45C4(b)'), or "
        "write it as the report's anchors do (2017:45C4b).\n\n"
        "Example: lawdiff show 1963:48"
    )
)
@click.argument("spec", metavar="EDITION[:ADDRESS]")
@corpus_option
@format_option("text", "json")
@color_option
def show(spec: str, inputs: Inputs, fmt: str, colours: Style | None) -> None:
    from lawdiff.report import jsonout, text

    corpus = inputs.load(editions=[spec.partition(":")[0]])
    edition, clause = corpus.clause(spec)
    if fmt == "json":
        emit(jsonout.show(edition, clause), None, fmt)
    elif clause is None:
        emit(text.outline(edition), None, fmt, text.outline(edition, colours) if colours else None)
    else:
        emit(text.clause(edition, clause), None, fmt, text.clause(edition, clause, colours) if colours else None)


@command(
    help=N_(
        "Check that the clause trees account for all of the source text.\n\n"
        "Checks the corpus, or the files and folders given. Reports, per page, how much of its text the "
        "tree places, every fragment it could not place and what the readers noticed; clauses read twice "
        "with different wording; references whose target is not in the edition; and the files no reader "
        "takes (skipped). Exit code 0 when nothing is lost, 1 when something is, 2 when an input cannot "
        "be read.\n\n"
        "With --against URL (a MediaWiki), the words of each wiki page lawdiff reads are compared with "
        "the wiki's rendering of the page instead, and the places they differ are listed per page (exit "
        "code 1 when any do).\n\n"
        "Example: lawdiff check --format json"
    )
)
@click.argument("paths", nargs=-1, type=FilePath(path_type=Path), metavar="[PATH]...")
@corpus_option
@format_option("text", "json")
@color_option
@option(
    "--against",
    metavar="URL",
    default="",
    help=N_("Instead: compare lawdiff's reading of every page of the MediaWiki exports with the wiki's own rendering."),
)
def check(paths: tuple[Path, ...], inputs: Inputs, fmt: str, colours: Style | None, against: str) -> None:
    if against:
        from lawdiff.cli.fetch import check_against

        if fmt == "json":
            raise UsageError(_("--against lists its differences as text only"), fix=_("leave out --format json"))
        from lawdiff.corpus.files import default_corpus

        if not check_against(against, list(paths) or list(inputs.dirs) or [default_corpus()]):
            sys.exit(1)
        return
    from lawdiff.corpus.check import check as check_corpus

    drafts = []
    if inputs.draft:
        from lawdiff.corpus import DraftFile

        drafts.append(DraftFile(inputs.draft, inputs.draft_name, inputs.draft_state))
    corpus, dangling = check_corpus(list(paths) or list(inputs.dirs) or None, cache=inputs.cache(), drafts=drafts)
    # Each rendering imported where it is used: the JSON one loads the comparisons' vocabulary.
    if fmt == "json":
        from lawdiff.report import jsonout

        emit(jsonout.check(corpus, dangling), None, fmt)
    else:
        from lawdiff.report import check_text

        coloured = check_text.check(corpus, dangling, colours, corpus.skipped) if colours else None
        emit(check_text.check(corpus, dangling, skipped=corpus.skipped), None, fmt, coloured)
    if any(c.unplaced for c in corpus.checks):
        sys.exit(1)
