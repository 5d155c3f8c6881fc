"""The options the review commands share, and the store and the run they open from them."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from lawdiff.cli.language import option
from lawdiff.cli.options import Inputs, review_file
from lawdiff.cli.terminal import echo, note_line
from lawdiff.errors import UsageError
from lawdiff.i18n import N_, terms
from lawdiff.i18n import gettext as _

if TYPE_CHECKING:
    from lawdiff.diff.comparison import Comparison
    from lawdiff.review import Status, Store

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
ENV_AUTHOR = "LAWDIFF_AUTHOR"


def store_option(f: F) -> F:
    """``--review FILE`` for the commands that read no corpus."""
    return review_file(f)


def author_option(f: F) -> F:
    @option(
        "--author",
        "author",
        metavar="NAME",
        help=N_("Who writes. Default: $LAWDIFF_AUTHOR, else git's user.name, else the login name."),
    )
    @functools.wraps(f)
    def wrapper(*args: Any, author: str | None, **kwargs: Any) -> Any:
        return f(*args, author=author or default_author(), **kwargs)

    return wrapper  # type: ignore[return-value]


def pair_option(f: F) -> F:
    return option(
        "--pair",
        nargs=2,
        metavar="OLD NEW",
        default=None,
        help=N_("The edition pair (when several pairs hold a clause, or to compare only it)."),
    )(f)


def default_author() -> str:
    """``$LAWDIFF_AUTHOR``, else git's ``user.name``, else the login name."""
    name = os.environ.get(ENV_AUTHOR, "").strip()
    if name:
        return name
    import getpass  # here, with subprocess: every command loads this module for its options
    import subprocess

    try:
        done = subprocess.run(["git", "config", "user.name"], capture_output=True, text=True, timeout=5, check=False)
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"


def reader(review_file: Path | None) -> Store:
    from lawdiff.review import find_store, open_for_reading

    loc = find_store(review_file)
    if not loc.exists and loc.rule != "default":
        # Not an error (the first write creates it), but a typo should not pass unseen.
        echo(
            note_line(
                _("no review store at {path} (named by {rule}) yet: no decisions").format(path=loc.path, rule=loc.rule)
            ),
            err=True,
        )
    return open_for_reading(loc)


def write(review_file: Path | None, body: Callable[[Store], T]) -> T:
    """``body(store)`` on the review store opened for writing, and what it returns.

    A store that is not there yet is made only by a write that succeeds: ``body`` runs first on an empty
    store in memory, and a write refused there (an id no change has, an unknown status, a comment that is
    not there) leaves no ``lawdiff-review.sqlite`` behind, which every later ``compare`` in that folder
    would have reported ("with the review of ...: 0 decision(s)").
    """
    from lawdiff.review import find_store, open_for_writing
    from lawdiff.review.connect import scratch_store

    where = find_store(review_file)
    if not where.exists:
        with scratch_store(where.path) as trial:
            body(trial)
    with open_for_writing(where) as store:
        return body(store)


def runner(
    inputs: Inputs, pair: tuple[str, str] | None, overrides: dict[str, float], store: Store
) -> Callable[[], list[Comparison]]:
    """The run's comparisons (with the store's hand corrections), computed when first asked for."""

    @functools.cache
    def run() -> list[Comparison]:
        from lawdiff.review import runs

        corpus = inputs.load()
        study = inputs.study(corpus, runs.timeline(corpus), overrides, store)
        return runs.comparisons(study, corpus, pair)

    return run


def parse_status(value: str) -> Status:
    """A decision as the command line names it: its English value (``accepted``, as stored) or the word of
    any interface language (``aanvaard``)."""
    from lawdiff.review import Status

    stored = terms.status_value(value)
    if stored is None:
        raise UsageError(
            _("unknown status {value!r}").format(value=value),
            fix=_("use one of: {names}").format(names=", ".join(terms.status_words())),
        )
    return Status(stored)
