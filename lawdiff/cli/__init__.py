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
import re
import signal
import sys
from typing import Any, NoReturn

import click

from lawdiff import __version__, i18n
from lawdiff.cli import language

language.install()  # before the commands are made: click's words in lawdiff's catalog

from lawdiff.cli import compare, ingest, report, review, serve, terminal  # noqa: E402
from lawdiff.cli.fetch import fetch as fetch_command  # noqa: E402
from lawdiff.cli.terminal import echo, error_line  # noqa: E402
from lawdiff.errors import LawdiffBug, LawdiffError  # noqa: E402
from lawdiff.i18n import N_  # noqa: E402
from lawdiff.i18n import gettext as _  # noqa: E402


class _Group(language.Group):
    """The one boundary where errors become messages.

    Library errors (bad input, a bad request), click's usage errors (an
    unknown option, a bad choice, a missing file) and the operating system's
    (a folder that cannot be written) become one line and exit code 2; an
    internal error says that it is a bug, with exit code 3, and shows its
    traceback only when ``LAWDIFF_DEBUG`` is set.  What a command prints goes
    through :mod:`lawdiff.cli.terminal` (the terminal rule, a closed pipe).
    """

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        # The language first (--lang anywhere on the line): the help and a usage error are said in it.
        # Set for this process, and given back after (tests run many command lines in one process).
        before = language.start(args)
        try:
            with terminal.watch():
                return super().main(args, *rest, **kwargs)
        finally:
            i18n.set_language(before)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:  # the group's own options: `lawdiff --bogus`
            _usage_error(exc)
        except BrokenPipeError:  # `lawdiff --help | head -n 0`: the help's status
            if terminal.stdout_closed():
                terminal.let_go()
                sys.exit(0)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a command's arguments and options, or a command no one knows
            _usage_error(exc)
        except click.ClickException as exc:
            echo(error_line(_one_line(exc.format_message())), err=True)
            sys.exit(2)
        except LawdiffError as exc:
            echo(error_line(exc.message()), err=True)
            sys.exit(2)
        except BrokenPipeError as exc:
            if terminal.stdout_closed():  # click's help text, written past its reader's end: the help's status
                terminal.let_go()
                sys.exit(0)
            _os_error(exc)
        except OSError as exc:
            _os_error(exc)
        except LawdiffBug as exc:
            echo(
                _("lawdiff: internal error (this is a bug in lawdiff, please report it): {what}").format(what=exc.what),
                err=True,
            )
            sys.exit(3)
        except (click.exceptions.Exit, click.exceptions.Abort, KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:
            # The one place a failure nobody foresaw is caught: a user sees one
            # line, not a traceback; a developer sets LAWDIFF_DEBUG.
            if os.environ.get("LAWDIFF_DEBUG"):
                raise
            echo(
                _(
                    "lawdiff: internal error (this is a bug in lawdiff, please report it): {what}"
                    "; set LAWDIFF_DEBUG=1 to see where"
                ).format(what=f"{type(exc).__name__}: {exc}"),
                err=True,
            )
            sys.exit(3)


def _usage_error(exc: click.UsageError) -> NoReturn:
    """click's usage error as one line, as every other error: what is wrong, then what to do (click would
    print four: the usage, a hint, a blank line and the error).  A group called without a command shows its
    help, as before."""
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        raise exc
    ctx = exc.ctx
    path = ctx.command_path if ctx is not None else "lawdiff"
    what = _one_line(exc.format_message())
    if isinstance(exc, click.MissingParameter) and ctx is not None:
        usage = " ".join(ctx.get_usage().split()).removeprefix(_("Usage:")).strip()
        fix = _("usage: {usage} (see '{command} --help')").format(usage=usage, command=path)
    else:
        fix = _("see '{command} --help'").format(command=path)
    echo(error_line(f"{what}; {fix}"), err=True)
    sys.exit(2)


def _one_line(message: str) -> str:
    """A message of click's as one clause of ours: one line, lower case first, no full stop; click's "Did
    you mean '--x'?" after it in brackets."""
    text = " ".join(message.split()).rstrip(".")
    text = re.sub(r"\. (\(?)([^.]+\?)\)?$", lambda m: f" ({m[2][:1].lower()}{m[2][1:]})", text)
    return text[:1].lower() + text[1:]


def _os_error(exc: OSError) -> NoReturn:
    where = exc.filename if exc.filename is not None else _("output")
    reason = exc.strerror or str(exc)
    echo(
        error_line(
            _("{where}: {reason}; check the path and that you may write there").format(where=where, reason=reason)
        ),
        err=True,
    )
    sys.exit(2)


@click.group(
    cls=_Group,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=N_(
        "Compare editions of the Dutch Laws of Duplicate Bridge.\n\n"
        "lawdiff reads each edition's wiki pages, MediaWiki exports, site payloads or drafts into one clause"
        " tree per edition, aligns the editions clause by clause, and reports what changed. Without --corpus,"
        " commands read the bundled corpus. --lang nl (or LAWDIFF_LANG=nl) speaks Dutch.\n\n"
        "Example: lawdiff show 2017:45C4"
    ),
)
@language.version_option(__version__)
def main() -> None:
    """The ``lawdiff`` group: its help is the ``help`` above (translated where shown)."""


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
    from lawdiff.forked import process_ends_with_command

    process_ends_with_command()  # (what a command made need not be walked by the collector as Python exits)
    try:
        main(prog_name="lawdiff")
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
