"""The ``lawdiff`` command line: thin commands over the library.

Each command parses its arguments, calls one library function, renders and
echoes.  Library errors become one line on stderr and exit code 2 here, at
one boundary; nothing below this module prints or exits.

Modules: ``options`` (shared options), ``ingest`` (editions, show, check),
``compare`` (compare, history), ``report``, ``review``, ``serve``.  The library is imported by the
commands when they run, so that ``lawdiff --help`` starts fast.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

import click

from lawdiff import __version__
from lawdiff.cli import compare, ingest, report, review, serve
from lawdiff.cli.fetch import fetch as fetch_command
from lawdiff.errors import LawdiffBug, LawdiffError


class _Group(click.Group):
    """The one boundary where errors become messages.

    Library errors (bad input, a bad request) and the operating system's
    (a folder that cannot be written) become one line and exit code 2; an
    internal error says that it is a bug, with exit code 3, and shows its
    traceback only when ``LAWDIFF_DEBUG`` is set.
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
        except (click.exceptions.Exit, click.ClickException, KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:
            # The one place a failure nobody foresaw is caught: a user sees one
            # line, not a traceback; a developer sets LAWDIFF_DEBUG.
            if os.environ.get("LAWDIFF_DEBUG"):
                raise
            click.echo(
                f"lawdiff: internal error (this is a bug in lawdiff, please report it): {type(exc).__name__}: {exc}"
                "; set LAWDIFF_DEBUG=1 to see where",
                err=True,
            )
            sys.exit(3)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lawdiff")
def main() -> None:
    """Compare editions of the Dutch Laws of Duplicate Bridge.

    lawdiff reads each edition's wiki pages, MediaWiki exports, site payloads
    or drafts into one clause tree per edition, aligns the editions clause by clause, and reports what
    changed. Without --corpus, commands read the bundled corpus.

    Example: lawdiff show 2017:45C4
    """


for command in (
    ingest.editions,
    ingest.show,
    ingest.check,
    compare.compare,
    compare.correlate,
    compare.history,
    report.report,
):
    main.add_command(command)
main.add_command(review.review)
main.add_command(serve.serve)
main.add_command(fetch_command)


def run() -> None:
    """The ``lawdiff`` command: :func:`main`, then deaf to Ctrl-C while Python exits.

    When :func:`main` returns, the command's output is whole (or, after an
    error, removed); an interrupt landing while the interpreter shuts down
    would only kill it with no word and status -2, or print a traceback from
    an exit handler. Tests call :func:`main` in their own process, so this is
    for the command itself (and ``python -m lawdiff``).
    """
    try:
        main(prog_name="lawdiff")
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
