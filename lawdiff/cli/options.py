"""Options shared by the commands: decorators, as sqlite-utils has them.

Nothing heavy is imported here (``lawdiff --help`` starts fast): the
library is imported by each command when it runs.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from lawdiff.cli.language import FilePath, option
from lawdiff.cli.terminal import echo, note_line, warning_line
from lawdiff.errors import UsageError
from lawdiff.i18n import N_, terms
from lawdiff.i18n import gettext as _

if TYPE_CHECKING:
    from lawdiff.cache import Cache
    from lawdiff.cli.kept import Answer, Answers, Rendered
    from lawdiff.corpus import Corpus
    from lawdiff.diff import Study
    from lawdiff.diff.comparison import Comparison
    from lawdiff.diff.vocabulary import Change
    from lawdiff.model import Edition
    from lawdiff.report.text import Style
    from lawdiff.review import Store
    from lawdiff.review.view import ReviewView

F = TypeVar("F", bound=Callable[..., Any])

# The alignment's thresholds by name, for the help text (lawdiff.align.Thresholds has them all).
THRESHOLD_NAMES = (
    "identity_min, match_min, text_min, verbatim_min, address_bonus, article_bonus, reference_bonus, piece_min, "
    "gain_min, explained_max, adjacent_piece_min, lead_in_min, gap_min, title_min, sentence_min, certain"
)


@dataclass(frozen=True)
class Inputs:
    """Where a command reads from: the corpus folders, and whether the cache is used."""

    dirs: tuple[Path, ...] = ()
    use_cache: bool = True
    draft: Path | None = None
    draft_name: str = ""
    draft_state: str = "accepted"
    review: Path | None = None  # --review FILE
    use_review: bool = True  # --no-review leaves the store out

    def cache(self) -> Cache:
        from lawdiff.cache import Cache

        return Cache.default(self.use_cache)

    def load(self, editions: Iterable[str] = ()) -> Corpus:
        """The corpus (only the files that may hold ``editions``, when named)."""
        from lawdiff.corpus import DraftFile, load

        drafts = [DraftFile(self.draft, self.draft_name, self.draft_state)] if self.draft else []
        # A draft named on the command line is always read, whatever else is named.
        return load(list(self.dirs) or None, editions, self.cache(), drafts)

    def answers(self, command: str, *options: object) -> Answers | None:
        """Where the answer of ``command`` with ``options`` on this corpus is kept (:mod:`lawdiff.cli.kept`);
        None when the cache is off or a review store is in use (its decisions change between runs)."""
        if self.use_review:
            from lawdiff.review.location import find_store

            if find_store(self.review).exists:
                return None
        from lawdiff.cli.kept import Answers

        draft = (self.draft, self.draft_name, self.draft_state) if self.draft else None
        return Answers.of(self.cache(), self.dirs, draft, command, *options)

    def answer(self, command: str, options: tuple[object, ...], make: Callable[[], tuple[Answer, bool]]) -> Answer:
        """The answer of ``command`` with ``options``: the one kept for this corpus, its notes said again on
        stderr, else ``make()``'s (which says its notes as it goes, and whether it read a review store),
        kept unless it read one (:mod:`lawdiff.cli.kept`)."""
        answers = self.answers(command, *options)
        answer = answers.get() if answers is not None else None
        if answer is None:
            answer, reviewed = make()
            # A store that appeared since the answers were looked up is read, and its answer not kept.
            if answers is not None and not reviewed:
                answers.put(answer)
            return answer
        for note in answer.notes:
            echo(note, err=True)
        self.say_no_store()  # as a run without the cache says it, after its notes
        return answer

    def store(self) -> Store | None:
        """The review store to read, when there is one and the command was not told --no-review."""
        if not self.use_review:
            return None
        from lawdiff.review.location import find_store

        where = find_store(self.review)
        if not where.exists:
            self.say_no_store()
            return None
        from lawdiff.review.connect import open_for_reading

        return open_for_reading(where)

    def say_no_store(self) -> None:
        """Say that a store named by --review or $LAWDIFF_REVIEW is not there (the current folder's may be
        missing without a word)."""
        from lawdiff.review.location import find_store

        where = find_store(self.review)
        if self.use_review and where.rule != "default" and not where.exists:
            echo(
                note_line(_("no review store at {path} (named by {rule})").format(path=where.path, rule=where.rule)),
                err=True,
            )

    def study(
        self,
        corpus: Corpus,
        editions: Iterable[Edition],
        overrides: dict[str, float] | None = None,
        store: Store | None = None,
    ) -> Study:
        """The study of ``editions``: thresholds from the defaults, the corpus settings, then ``--threshold``;
        the hand corrections of ``store`` handed to the aligner."""
        from lawdiff.align import DEFAULT_THRESHOLDS
        from lawdiff.diff import Study

        settings = corpus.settings
        thresholds = DEFAULT_THRESHOLDS.with_settings(settings.thresholds, settings.file, overrides or {})
        corrections = store.all_corrections() if store is not None else {}
        return Study(tuple(editions), thresholds, corrections, cache=self.cache())


def corpus_option(f: F) -> F:
    """``--corpus DIR`` (repeatable) and ``--no-cache``: the command gets ``inputs``."""

    @option(
        "--corpus",
        "corpus_dirs",
        type=FilePath(path_type=Path),
        multiple=True,
        metavar="DIR",
        help=N_("Corpus folder to read (repeatable). Default: the bundled corpus."),
    )
    @option(
        "--draft",
        type=FilePath(path_type=Path, dir_okay=False),
        metavar="FILE",
        help=N_("A draft (.docx, .odt or typed text) to read as an edition beside the corpus."),
    )
    @option(
        "--as",
        "draft_name",
        default="",
        metavar="NAME",
        help=N_(
            "The edition name of --draft (default: a year in its folder or file name: 2027/concept.docx,"
            " concept-2027.docx)."
        ),
    )
    @option(
        "--draft-state",
        type=click.Choice(["accepted", "original"]),
        default="accepted",
        show_default=True,
        help=N_("Read --draft with its tracked changes accepted, or as it was before them."),
    )
    @option(
        "--no-cache",
        is_flag=True,
        help=N_(
            "Read and compare everything afresh, without the cache ($LAWDIFF_CACHE, else"
            " $XDG_CACHE_HOME/lawdiff, else ~/.cache/lawdiff)."
        ),
    )
    @functools.wraps(f)
    def wrapper(
        *args: Any,
        corpus_dirs: tuple[Path, ...],
        no_cache: bool,
        draft: Path | None,
        draft_name: str,
        draft_state: str,
        **kwargs: Any,
    ) -> Any:
        if draft_name and draft is None:
            raise UsageError(
                _("--as names the edition of a --draft, but no --draft is given"), fix=_("add --draft FILE")
            )
        inputs = Inputs(corpus_dirs, not no_cache, draft, draft_name, draft_state)
        return f(*args, inputs=inputs, **kwargs)

    return wrapper  # type: ignore[return-value]


def review_option(f: F) -> F:
    """``--review FILE`` and ``--no-review``; listed below ``corpus_option``, whose ``inputs`` it completes."""
    return _review_options(f, leave_out=True)


def review_file_option(f: F) -> F:
    """``--review FILE`` alone, for the ``review`` commands: they work on the store, so there is no
    ``--no-review`` to leave it out (it was taken and ignored: ``review set --no-review`` wrote)."""
    return _review_options(f, leave_out=False)


def _review_options(f: F, leave_out: bool) -> F:
    @functools.wraps(f)
    def wrapper(*args: Any, inputs: Inputs, review_file: Path | None, no_review: bool = False, **kwargs: Any) -> Any:
        if no_review and review_file is not None:
            raise UsageError(_("--review and --no-review contradict each other"), fix=_("give one of them"))
        return f(*args, inputs=replace(inputs, review=review_file, use_review=not no_review), **kwargs)

    if leave_out:
        wrapper = option(
            "--no-review",
            is_flag=True,
            help=N_("Leave the committee's review out: no decisions, comments or hand corrections."),
        )(wrapper)
    return review_file(wrapper)  # type: ignore[return-value]


def review_file(f: F) -> F:
    """The ``--review FILE`` option itself (``review_file``), for every command that names the store."""
    return option(
        "--review",
        "review_file",
        type=FilePath(path_type=Path, dir_okay=False),
        metavar="FILE",
        help=N_("The review store. Default: $LAWDIFF_REVIEW, else lawdiff-review.sqlite in the current folder."),
    )(f)


def output_option(f: F) -> F:
    """``-o/--output PATH`` for a command that writes one file, checked as it is parsed: a folder, a
    read-only file or a missing folder is refused before the work, not after it."""

    def checked(_ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path | None:
        if value is not None:
            from lawdiff.report.files import check_output

            check_output(value)
        return value

    return option(
        "-o",
        "--output",
        type=FilePath(path_type=Path),
        callback=checked,
        help=N_("Write to the file PATH, not standard output."),
    )(f)


def article_option(f: F) -> F:
    """``--article ADDRESS`` (repeatable, ``articles``): what :func:`lawdiff.diff.scopes` takes."""
    return option(
        "--article",
        "articles",
        multiple=True,
        metavar="ADDRESS",
        help=N_("Only changes touching article N, or a section or clause and what is under it (45, 45C; repeatable)."),
    )(f)


def format_option(*choices: str) -> Callable[[F], F]:
    def deco(f: F) -> F:
        return option(
            "--format",
            "fmt",
            type=click.Choice(list(choices)),
            default=choices[0],
            show_default=True,
            help=N_("Output format."),
        )(f)

    return deco


def _colours() -> Style:
    # Loaded only when colours are on: a command whose answer is in the cache (lawdiff.cli.kept) never
    # needs the report's renderers.
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
    """``--color/--no-color``: the command gets ``colours``, the style of the terminal's colours, or None for
    plain text.  A coloured output is drawn plain too (:func:`lawdiff.cli.terminal.echo_coloured`)."""

    @option(
        "--color/--no-color",
        "color",
        default=None,
        help=N_("Colour the text output, even when piped (default: on a terminal, unless NO_COLOR is set)."),
    )
    @functools.wraps(f)
    def wrapper(*args: Any, color: bool | None, **kwargs: Any) -> Any:
        enabled = (sys.stdout.isatty() and not os.environ.get("NO_COLOR")) if color is None else color
        # click.echo strips colours from a pipe unless the context says otherwise.
        click.get_current_context().color = enabled
        return f(*args, colours=_colours() if enabled else None, **kwargs)

    return wrapper  # type: ignore[return-value]


def thresholds_option(f: F) -> F:
    @option(
        "--threshold",
        "threshold_overrides",
        multiple=True,
        metavar="NAME=VALUE",
        # THRESHOLD_NAMES written out (a help is a msgid: no placeholders); tests/test_docs_true.py checks it.
        help=N_(
            "Override an alignment threshold (repeatable), e.g. --threshold match_min=0.5; a corpus may set them"
            " in its lawdiff.toml ([thresholds]). Names: identity_min, match_min, text_min, verbatim_min,"
            " address_bonus, article_bonus, reference_bonus, piece_min, gain_min, explained_max,"
            " adjacent_piece_min, lead_in_min, gap_min, title_min, sentence_min, certain."
        ),
    )
    @functools.wraps(f)
    def wrapper(*args: Any, threshold_overrides: tuple[str, ...], **kwargs: Any) -> Any:
        values: dict[str, float] = {}
        for item in threshold_overrides:
            name, sep, value = item.partition("=")
            if not sep or not name.strip():
                raise UsageError(
                    _("--threshold {item!r} is not NAME=VALUE").format(item=item),
                    fix=_("write e.g. --threshold match_min=0.5"),
                )
            try:
                values[name.strip()] = float(value)
            except ValueError:
                raise UsageError(
                    _("--threshold {item!r}: {value!r} is not a number").format(item=item, value=value),
                    fix=_("write e.g. --threshold match_min=0.5"),
                ) from None
        if values:
            # Names and ranges checked before any work (without any, the alignment is not loaded:
            # an answer from the cache needs none of it).
            from lawdiff.align import DEFAULT_THRESHOLDS

            DEFAULT_THRESHOLDS.with_overrides(values)
        return f(*args, overrides=values, **kwargs)

    return wrapper  # type: ignore[return-value]


def emit(rendered: Rendered, output: Path | None, fmt: str = "text", coloured: str | None = None) -> None:
    """Write to ``output``, atomically and as it is (text in pieces one piece after the other), or to standard
    output under the terminal rule (:mod:`lawdiff.cli.terminal`; bytes only when it is not a terminal).
    ``fmt`` says what the text is (``json``, ``jsonl`` and ``html`` are escaped in their own syntax);
    ``coloured``: the same text with colours."""
    if output is None:
        from lawdiff.cli import terminal

        if isinstance(rendered, tuple):
            rendered = "".join(rendered)
        if isinstance(rendered, bytes):
            if sys.stdout.isatty():
                raise UsageError(
                    _("a Word document cannot be shown on a terminal"), fix=_("write it to a file with -o FILE")
                )
            terminal.write_bytes(rendered)
        elif coloured is not None:
            terminal.echo_coloured(rendered, coloured)
        else:
            kinds = {"json": terminal.Kind.JSON, "jsonl": terminal.Kind.JSON, "html": terminal.Kind.HTML}
            terminal.echo(rendered, nl=False, kind=kinds.get(fmt, terminal.Kind.TEXT))
        return
    from lawdiff.report.files import write_atomic

    write_atomic(output, rendered)


def review_of(store: Store | None, comparisons: list[Comparison], editions: Iterable[Edition]) -> ReviewView | None:
    """The store's decisions on these comparisons, said on stderr in one line; None without a store."""
    if store is None:
        return None
    from lawdiff.review import attach

    view = attach(store, comparisons, {e.name: e for e in editions})
    say_review(store, *view.counts())
    return view


def unplaced_warning(corpus: Corpus, editions: Iterable[Edition]) -> str | None:
    """One line when pages of these editions hold source text that their clause trees do not place
    (what ``lawdiff check`` lists), so that no command compares a lossy reading unawares; else None."""
    from lawdiff.report import where

    read = {(s.file, s.page) for e in editions for s in e.sources}
    lossy = [ch for ch in corpus.checks if ch.unplaced and (ch.file, ch.page) in read]
    if not lossy:
        return None
    fragments = sum(len(ch.unplaced) for ch in lossy)
    first = where(lossy[0].unplaced[0].loc)
    return warning_line(
        _(
            "{fragments} fragment(s) of source text in {pages} page(s) are not in the clause tree, so not compared"
            " (the first at {first}); `lawdiff check` lists them"
        ).format(fragments=fragments, pages=len(lossy), first=first)
    )


def say_unplaced(corpus: Corpus, editions: Iterable[Edition]) -> tuple[str, ...]:
    """Say :func:`unplaced_warning` on stderr, when there is one; the lines said (an answer's notes)."""
    line = unplaced_warning(corpus, editions)
    if line is None:
        return ()
    echo(line, err=True)
    return (line,)


def say_review(store: Store, decided: int, comments: int) -> None:
    """The one line on stderr saying that a command shows a review store, and how much of it."""
    echo(
        _(
            "lawdiff: with the review of {path}: {decisions} decision(s), {comments} comment(s)"
            " (--no-review leaves it out)"
        ).format(path=store.path, decisions=decided, comments=comments),
        err=True,
    )


def word_comments(view: ReviewView | None, changes: Iterable[Change]) -> dict[str, list[tuple[str, str, str]]]:
    """Decisions and comments as the Word redline's comments: change id -> (author, UTC time, text)."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    if view is None:
        return out
    for ch in changes:
        entry = view.entry(ch.id)
        d = entry.decision
        if d is None:
            continue
        note = terms.status(d.status.value)
        if entry.state.value == "outdated":
            note = _("{status} (decided on an earlier text)").format(status=note)
        if d.assignee:
            note = _("{status}; assigned to {name}").format(status=note, name=d.assignee)
        out[ch.id] = [(d.author, d.updated, note)] + [(c.author, c.created, c.text) for c in entry.comments]
    return out
