"""The ``lawdiff`` command line: thin commands over the library.

Each command parses its arguments, calls one library function, renders and
echoes.  Library errors become one line on stderr and exit code 2 here, at
one boundary; nothing below this module prints or exits.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from lawdiff import __version__
from lawdiff.align import DEFAULT_THRESHOLDS, Thresholds
from lawdiff.corpus import Corpus, dangling_references, load
from lawdiff.diff import Comparer
from lawdiff.diff import compare as compare_editions
from lawdiff.diff import history as clause_history
from lawdiff.errors import LawdiffBug, LawdiffError, UsageError
from lawdiff.model import article_of
from lawdiff.report import jsonout, text

F = TypeVar("F", bound=Callable[..., Any])


class _Group(click.Group):
    """The one boundary where errors become messages.

    Library errors (bad input, a bad request) and the operating system's
    (a folder that cannot be written) become one line and exit code 2; an
    internal error says that it is a bug, with exit code 3.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except LawdiffError as exc:
            click.echo(f"lawdiff: error: {exc.message()}", err=True)
            sys.exit(2)
        except OSError as exc:
            where = exc.filename if exc.filename is not None else "output"
            reason = exc.strerror or str(exc)
            click.echo(f"lawdiff: error: {where}: {reason}; check the path and that you may write there", err=True)
            sys.exit(2)
        except LawdiffBug as exc:
            click.echo(f"lawdiff: {exc}", err=True)
            sys.exit(3)


def corpus_option(f: F) -> F:
    return click.option(
        "--corpus",
        "corpus_dirs",
        type=click.Path(path_type=Path),
        multiple=True,
        metavar="DIR",
        help="Corpus folder to read (repeatable). Default: the bundled corpus.",
    )(f)


def format_option(*choices: str) -> Callable[[F], F]:
    def deco(f: F) -> F:
        return click.option(
            "--format",
            "fmt",
            type=click.Choice(list(choices)),
            default=choices[0],
            show_default=True,
            help="Output format.",
        )(f)

    return deco


def _load(corpus_dirs: tuple[Path, ...]) -> Corpus:
    return load(list(corpus_dirs) or None)


def _style(enabled: bool) -> text.Style:
    if not enabled:
        return text.plain
    colours = {
        "heading": "bright_white",
        "address": "cyan",
        "title": "yellow",
        "warn": "red",
        "ok": "green",
        "insert": "green",
        "delete": "red",
        "modified": "yellow",
        "split": "magenta",
        "merged": "magenta",
        "added": "green",
        "removed": "red",
    }

    def style(s: str, role: str) -> str:
        colour = colours.get(role)
        return click.style(s, fg=colour, bold=role == "heading", strikethrough=role == "delete") if colour else s

    return style


def color_option(f: F) -> F:
    @click.option(
        "--color/--no-color", "color", default=None, help="Colour the text output (default: when a terminal)."
    )
    @functools.wraps(f)
    def wrapper(*args: Any, color: bool | None, **kwargs: Any) -> Any:
        enabled = sys.stdout.isatty() if color is None else color
        return f(*args, style=_style(enabled), **kwargs)

    return wrapper  # type: ignore[return-value]


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lawdiff")
def main() -> None:
    """Compare editions of the Dutch Laws of Duplicate Bridge.

    lawdiff reads the wiki and site dumps of each edition into one clause
    tree per edition, aligns the editions clause by clause, and reports what
    changed. Without --corpus, commands read the bundled corpus.

    Example: lawdiff show 2017:45C4
    """


@main.command()
@corpus_option
@format_option("text", "json")
def editions(corpus_dirs: tuple[Path, ...], fmt: str) -> None:
    """List the editions in the corpus: sources, printing, articles, counts.

    Example: lawdiff editions --format json
    """
    corpus = _load(corpus_dirs)
    click.echo(jsonout.editions(corpus) if fmt == "json" else text.editions(corpus), nl=False)


@main.command()
@click.argument("spec", metavar="EDITION[:ADDRESS]")
@corpus_option
@format_option("text", "json")
@color_option
def show(spec: str, corpus_dirs: tuple[Path, ...], fmt: str, style: text.Style) -> None:
    """Show an edition's outline, or one clause in full.

    ADDRESS follows the clause address rules: 45, 45C, 45C4(b), 45E.p2,
    45A.fn1, H6 (a chapter), voorwoord (a front page).

    Example: lawdiff show 1963:48
    """
    corpus = _load(corpus_dirs)
    edition, clause = corpus.clause(spec)
    if fmt == "json":
        click.echo(jsonout.show(edition, clause), nl=False)
    elif clause is None:
        click.echo(text.outline(edition, style), nl=False)
    else:
        click.echo(text.clause(edition, clause, style), nl=False)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path), metavar="[PATH]...")
@corpus_option
@format_option("text", "json")
@color_option
def check(paths: tuple[Path, ...], corpus_dirs: tuple[Path, ...], fmt: str, style: text.Style) -> None:
    """Check that the clause trees account for all of the source text.

    Reports, per file, how much of its text the tree places, every fragment
    it could not place, clauses read twice with different wording, and
    references whose target is not in the edition. Exit code 0 when nothing
    is lost, 1 when something is, 2 when an input cannot be read.

    Example: lawdiff check mydumps/2017 --format json
    """
    corpus = load(list(paths) or list(corpus_dirs) or None)
    dangling = [d for e in corpus.editions for d in dangling_references(e)]
    if fmt == "json":
        click.echo(jsonout.check(corpus, dangling), nl=False)
    else:
        click.echo(text.check(corpus, dangling, style), nl=False)
    if any(c.unplaced for c in corpus.checks):
        sys.exit(1)


def thresholds_option(f: F) -> F:
    @click.option(
        "--threshold",
        "threshold_overrides",
        multiple=True,
        metavar="NAME=VALUE",
        help="Override an alignment threshold (repeatable), e.g. --threshold match_min=0.5. "
        f"Names: {', '.join(DEFAULT_THRESHOLDS.as_dict())}.",
    )
    @functools.wraps(f)
    def wrapper(*args: Any, threshold_overrides: tuple[str, ...], **kwargs: Any) -> Any:
        values: dict[str, float] = {}
        for item in threshold_overrides:
            name, sep, value = item.partition("=")
            if not sep or not name.strip():
                raise UsageError(f"--threshold {item!r} is not NAME=VALUE", fix="write e.g. --threshold match_min=0.5")
            try:
                values[name.strip()] = float(value)
            except ValueError:
                raise UsageError(
                    f"--threshold {item!r}: {value!r} is not a number", fix="write e.g. --threshold match_min=0.5"
                ) from None
        return f(*args, thresholds=DEFAULT_THRESHOLDS.with_overrides(values), **kwargs)

    return wrapper  # type: ignore[return-value]


@main.command()
@click.argument("old")
@click.argument("new")
@click.option("--article", "articles", multiple=True, metavar="N", help="Only changes touching article N (repeatable).")
@click.option("--all", "show_all", is_flag=True, help="Also list unchanged clauses in the text output.")
@click.option("--exit-code", is_flag=True, help="Exit 1 when there are differences, 0 when none (as git diff).")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write to FILE instead of standard output.")
@corpus_option
@format_option("text", "json", "html")
@thresholds_option
@color_option
def compare(
    old: str,
    new: str,
    articles: tuple[str, ...],
    show_all: bool,
    exit_code: bool,
    output: Path | None,
    corpus_dirs: tuple[Path, ...],
    fmt: str,
    thresholds: Thresholds,
    style: text.Style,
) -> None:
    """Compare two editions clause by clause.

    Lists every change grouped by article: unchanged, modified, split,
    merged, added, removed; renumberings, moves, title changes, word-level
    differences and what became of the references. The text output shows
    deletions as [-...-] and insertions as {+...+} (coloured on a terminal);
    --format html writes the side-by-side view of `lawdiff report` for this
    one pair as one self-contained page.

    Example: lawdiff compare 2007 2017 --article 45
    """
    corpus = _load(corpus_dirs)
    old_edition, new_edition = corpus.edition(old), corpus.edition(new)
    for number in articles:
        if old_edition.find(number) is None and new_edition.find(number) is None:
            held = sorted({a.address for e in (old_edition, new_edition) for a in e.articles()}, key=int)
            raise UsageError(
                f"neither {old} nor {new} has an article {number!r}",
                fix=f"name one of: {', '.join(held) or '(none)'}",
            )
    comp = compare_editions(old_edition, new_edition, thresholds)
    wanted = set(articles)
    changes = [
        ch
        for ch in comp.changes
        if not wanted or ch.article in wanted or any(article_of(a) in wanted for a in ch.old + ch.new)
    ]
    if fmt == "json":
        rendered = jsonout.comparison(comp, changes)
    elif fmt == "html":
        from lawdiff.report import html as html_report

        rendered = html_report.comparison(comp, changes, corpus.edition(old), corpus.edition(new))
    else:
        rendered = text.comparison(comp, changes, show_all, style if output is None else text.plain)
    _emit(rendered, output)
    if exit_code and any(ch.is_difference for ch in changes):
        sys.exit(1)


def _emit(rendered: str, output: Path | None) -> None:
    if output is None:
        click.echo(rendered, nl=False)
        return
    from lawdiff.report.files import write_atomic

    write_atomic(output, rendered)


@main.command()
@click.argument("spec", metavar="EDITION:ADDRESS")
@corpus_option
@format_option("text", "json")
@thresholds_option
@color_option
def history(spec: str, corpus_dirs: tuple[Path, ...], fmt: str, thresholds: Thresholds, style: text.Style) -> None:
    """Follow one clause through every edition of the corpus, oldest first.

    Shows its address and text in each edition, the kind of change at each
    step, and the edition that introduced its current wording. Works from
    any edition's address.

    Example: lawdiff history '1963:45(d)'
    """
    corpus = _load(corpus_dirs)
    _name, sep, address = spec.partition(":")
    if not sep or not address.strip():
        raise UsageError(f"{spec!r} names no clause", fix="write EDITION:ADDRESS, e.g. 2017:45C4(b)")
    edition, clause = corpus.clause(spec)
    h = clause_history(Comparer(corpus.editions, thresholds), edition, clause.address if clause else address)
    click.echo(jsonout.history(h) if fmt == "json" else text.history(h, style), nl=False)


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


@main.command()
@click.argument("editions", nargs=-1, metavar="[EDITION]...")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=Path("lawdiff-report"),
    show_default=True,
    metavar="DIR",
    help="Folder to write the report to; replaced as a whole, and only once the report is complete.",
)
@corpus_option
@thresholds_option
def report(editions: tuple[str, ...], output: Path, corpus_dirs: tuple[Path, ...], thresholds: Thresholds) -> None:
    """Write the committee report: a static HTML site, for a browser or for paper.

    An index (the editions and their sources, the counts of changes per pair
    of editions, a matrix of articles by editions), one page per article
    (each pair of consecutive editions side by side with word-level
    insertions and deletions, and a synopsis of all editions) and the history
    of every clause. All editions of the corpus when none are named. The
    pages need no internet and no JavaScript.

    Example: lawdiff report 2007 2017 -o lawdiff-report
    """
    from lawdiff.report import html as html_report

    corpus = _load(corpus_dirs)
    with _Progress("Writing the report") as progress:
        site = html_report.write_report(corpus, editions, thresholds, output, progress)
    click.echo(
        f"{output / 'index.html'}: {len(site.compared)} edition(s) compared"
        + (f" ({len(site.editions)} listed)" if len(site.editions) != len(site.compared) else "")
        + f", {len(site.articles)} article(s), {len(site.totals)} pair(s)"
    )


if __name__ == "__main__":  # pragma: no cover
    main()
