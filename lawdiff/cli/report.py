"""The committee report: ``lawdiff report``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from lawdiff.cli.language import FilePath, command, option
from lawdiff.cli.options import Inputs, corpus_option, review_option, say_unplaced, thresholds_option
from lawdiff.cli.terminal import echo, note_line
from lawdiff.i18n import N_, ngettext
from lawdiff.i18n import gettext as _

if TYPE_CHECKING:
    from lawdiff.diff import Study
    from lawdiff.report.reviewed import PendingReview
    from lawdiff.report.site import Site
    from lawdiff.review import Store


class _Progress:
    """A progress bar on stderr: only on a terminal, and only once the work has taken a moment."""

    DELAY = 0.5  # seconds before a bar is worth showing

    def __init__(self, label: str, clock: Callable[[], float] | None = None) -> None:
        import time

        self.label = label
        self.clock = clock or time.monotonic
        self.start = self.clock()
        self.bar: Any = None
        self.done = 0

    def __enter__(self) -> Callable[[int, int], None]:
        return self.update

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            if not sys.stderr.isatty() or self.clock() - self.start < self.DELAY:
                return
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.done)
        self.done = done

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _review(store: Store | None, study: Study) -> PendingReview | None:
    """The store's decisions on every comparison the report makes, being matched while the report is
    planned; None without a store."""
    if store is None:
        return None
    from lawdiff.diff.article import article_numbers, pairs_of
    from lawdiff.report.files import jobs
    from lawdiff.report.reviewed import start

    pairs = pairs_of(study.editions, article_numbers(study.editions))
    study.prepare(pairs, jobs("compare"))  # the comparisons the report makes next, made once
    return start(store, [study.compare(old, new) for old, new in pairs], {e.name: e for e in study.editions})


def _say_kept(output: Path, kept: list[str]) -> None:
    """Say what was carried from the old report folder; a page the new report wrote again is kept beside
    it, renamed, and the line says where (it said "kept articles/45.html" of the page it had replaced)."""
    from lawdiff.report.files import KEPT_SUFFIX

    named = [
        _("{name} (changed: kept as {kept})").format(name=rel, kept=f"{rel.rstrip('/')}{KEPT_SUFFIX}")
        if (output / f"{rel.rstrip('/')}{KEPT_SUFFIX}").exists()
        else rel
        for rel in kept
    ]
    shown = ", ".join(named[:5])
    if len(named) > 5:
        shown = _("{names} and {n} more").format(names=shown, n=len(named) - 5)
    echo(_("lawdiff: kept what you added or changed in the report folder: {names}").format(names=shown), err=True)


@command(
    help=N_(
        "Write the committee report: a static HTML site, for a browser or for paper.\n\n"
        "An index (the editions and their sources, the counts of changes per pair of editions, a matrix "
        "of articles by editions), one page per article (each pair of consecutive editions side by side "
        "with word-level insertions and deletions, and a synopsis of all editions) and the history of "
        "every clause, and each pair's correlation table. All editions of the corpus when none are "
        "named. The pages need no internet and no JavaScript. With a review store (--review, "
        "$LAWDIFF_REVIEW or lawdiff-review.sqlite here), each change shows the committee's status, "
        "assignee and comments as they stand now; --no-review leaves them out.\n\n"
        "Example: lawdiff report 2007 2017 -o lawdiff-report"
    )
)
@click.argument("editions", nargs=-1, metavar="[EDITION]...")
@option(
    "-o",
    "--output",
    type=FilePath(path_type=Path),
    default=Path("lawdiff-report"),
    show_default=True,
    metavar="DIR",
    help=N_(
        "Folder to write the report to: replaced once the report is complete; files you added to an earlier"
        " report there (notes) are carried into the new one, and a page you edited is kept beside the new page"
        " as NAME.kept."
    ),
)
@corpus_option
@review_option
@thresholds_option
def report(editions: tuple[str, ...], output: Path, inputs: Inputs, overrides: dict[str, float]) -> None:
    from lawdiff.report import html as html_report
    from lawdiff.report.files import kept_files, recover_leftovers

    for line in recover_leftovers(output):
        echo(f"lawdiff: {line}", err=True)
    kept = kept_files(output)
    corpus = inputs.load()
    store = inputs.store()
    pending = None
    try:
        study = inputs.study(corpus, corpus.select(editions), overrides, store)
        say_unplaced(corpus, study.editions)
        with _Progress(_("Writing the report")) as progress:
            pending = _review(store, study)
            site = html_report.write_report(corpus, study, output, progress, pending)
    finally:
        if pending is not None:
            pending.close()
        if store is not None:
            store.close()
    if store is not None and site.review is not None:
        from lawdiff.cli.options import say_review

        say_review(store, site.review.decisions, site.review.comments)
    echo(_written(output, site))
    if kept:
        _say_kept(output, kept)
    if not site.totals and len(site.compared) > 1:
        from lawdiff.report import article_ranges

        held = "; ".join(
            f"{e.name}: " + (article_ranges([a.address for a in e.articles()]) or _("none")) for e in site.compared
        )
        echo(
            note_line(
                _(
                    "no article is held by two of these editions ({held}), so no pair is compared;"
                    " the index lists the editions and each article stands on its own page"
                ).format(held=held)
            ),
            err=True,
        )


def _written(output: Path, site: Site) -> str:
    """The report's closing line: what it compares.  An edition in no pair (1997 of the bundled corpus,
    which holds no article another edition holds) is passed over, as the index says, not compared."""
    paired = {e.name for t in site.totals for e in (t.old, t.new)}
    passed = [e.name for e in site.compared if e.name not in paired] if site.totals else []
    # ngettext with one English text for both: the English reads "(s)", as it always did; Dutch has its plurals.
    compared = len(site.compared) - len(passed)
    line = ngettext("{n} edition(s) compared", "{n} edition(s) compared", compared).format(n=compared)
    if passed:
        line += _(", {names} passed over (in no pair)").format(names=", ".join(passed))
    if len(site.editions) != len(site.compared):
        line += _(" ({n} listed)").format(n=len(site.editions))
    articles = ngettext("{n} article(s)", "{n} article(s)", len(site.articles)).format(n=len(site.articles))
    pairs = ngettext("{n} pair(s)", "{n} pair(s)", len(site.totals)).format(n=len(site.totals))
    return f"{output / 'index.html'}: {line}, {articles}, {pairs}"
