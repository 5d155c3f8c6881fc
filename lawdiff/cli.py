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
from lawdiff.corpus import Corpus, dangling_references, load
from lawdiff.errors import LawdiffError
from lawdiff.report import jsonout, text

F = TypeVar("F", bound=Callable[..., Any])


class _Group(click.Group):
    """Turns library errors into one line and exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except LawdiffError as exc:
            click.echo(f"lawdiff: error: {exc.message()}", err=True)
            sys.exit(2)


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
    colours = {"heading": "bright_white", "address": "cyan", "title": "yellow", "warn": "red", "ok": "green"}

    def style(s: str, role: str) -> str:
        colour = colours.get(role)
        return click.style(s, fg=colour, bold=role == "heading") if colour else s

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

    Example: lawdiff check corpus/1963
    """
    corpus = load(list(paths) or list(corpus_dirs) or None)
    dangling = [d for e in corpus.editions for d in dangling_references(e)]
    if fmt == "json":
        click.echo(jsonout.check(corpus, dangling), nl=False)
    else:
        click.echo(text.check(corpus, dangling, style), nl=False)
    if any(c.unplaced for c in corpus.checks):
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
