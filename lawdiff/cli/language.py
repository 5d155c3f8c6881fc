"""The command line's language: ``--lang``, every help in it, and click's own words.

A command's language is chosen before its arguments are parsed
(:func:`chosen_in`: ``--lang`` anywhere on the line, else ``LAWDIFF_LANG``,
the user's configuration, the locale, English; :func:`lawdiff.i18n.choose`),
so that ``lawdiff compare --help --lang nl`` and a usage error are already in
it.  ``--lang`` is also a real option of the group and of every command
(:class:`Command` adds it), so that each ``--help`` lists it.

Help texts are English in the source, marked for the catalog with ``N_``
(``help=N_("...")``, docstrings are not extracted) and translated when the
help is formatted: :class:`Command`, :class:`Group` and :class:`Option` give
their ``help`` in the interface's language.  click's own words ("Usage:",
"Options", "Show this message and exit.", "No such option") come from its
modules' ``gettext`` calls; :func:`install` has those calls look in lawdiff's
catalog (:mod:`lawdiff.cli.clickwords` lists the messages a user can meet).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from lawdiff import i18n
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _

F = TypeVar("F", bound=Callable[..., Any])

LANG_HELP = N_(
    "The language of the interface: en or nl. Default: $LAWDIFF_LANG, else lang in"
    " $XDG_CONFIG_HOME/lawdiff/config.toml, else the locale ($LC_ALL, $LC_MESSAGES, $LANG), else en."
)


def chosen_in(args: Sequence[str]) -> str | None:
    """The value of ``--lang`` on a command line (``--lang nl`` or ``--lang=nl``, before ``--``), if any."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def translated(text: str | None) -> str | None:
    """A help text in the interface's language (the English text is the catalog's msgid)."""
    return _(text) if text else text


class TranslatedHelp:
    """A help text kept in English (the catalog's msgid) and said in the interface's language when read."""

    _help: str | None

    @property
    def help(self) -> str | None:
        return translated(self._help)

    @help.setter
    def help(self, value: str | None) -> None:
        self._help = value


class Option(TranslatedHelp, click.Option):
    """An option whose help is said in the interface's language, when the help is shown."""


def lang_option() -> Option:
    """``--lang en|nl``: read before parsing (:func:`chosen_in`); here so that it is accepted and listed."""
    return Option(
        ["--lang"],
        type=click.Choice(i18n.LANGUAGES),
        metavar="|".join(i18n.LANGUAGES),
        expose_value=False,
        is_eager=True,
        help=LANG_HELP,
    )


class Command(TranslatedHelp, click.Command):
    """A command whose help is in the interface's language, and which takes ``--lang``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(lang_option())

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        # click makes the help option once per command and keeps it (with its help in the language of the
        # command line that first asked): its words are said again in this one's.
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)
        if pieces and pieces[0] == self.options_metavar:
            pieces[0] = _("[OPTIONS]")
        return pieces


class Group(Command, click.Group):
    """A group of commands, as :class:`Command`; its commands and subgroups are made of these classes."""

    command_class = Command
    group_class = type

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)
        return [_("COMMAND [ARGS]...") if p == "COMMAND [ARGS]..." else p for p in pieces]


def command(name: str | None = None, *, help: str, **kwargs: Any) -> Callable[[Callable[..., Any]], Command]:
    """``click.command`` with :class:`Command`; ``help``: the English text, marked with ``N_``."""
    return click.command(name, cls=Command, help=help, **kwargs)


def group(name: str | None = None, *, help: str, **kwargs: Any) -> Callable[[Callable[..., Any]], Group]:
    """``click.group`` with :class:`Group`."""
    return click.group(name, cls=Group, help=help, **kwargs)


def option(*decls: str, **kwargs: Any) -> Callable[[F], F]:
    """``click.option`` with :class:`Option` (its ``help`` marked with ``N_``)."""
    return click.option(*decls, cls=Option, **kwargs)


class FilePath(click.Path):
    """``click.Path`` whose kind ("file", "directory", "path") is said in the interface's language when a
    check fails ("File '...' does not exist."): click names it once, when the option is made."""

    @property
    def name(self) -> str:
        return _(self._kind)

    @name.setter
    def name(self, value: str) -> None:
        self._kind = value


def version_option(version: str) -> Callable[[F], F]:
    """``--version``: ``lawdiff, version X`` in the interface's language."""

    def show(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
        if not value or ctx.resilient_parsing:
            return
        click.echo(_("lawdiff, version {version}").format(version=version))
        ctx.exit()

    return option(
        "--version",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=show,
        help=N_("Show the version and exit."),
    )


def install() -> None:
    """Have click's own messages looked up in lawdiff's catalog, in the interface's language.

    click marks its messages with the standard library's ``gettext`` (the
    global domain), which lawdiff leaves alone: each of click's modules that a
    user meets the words of is given lawdiff's ``_`` and ``ngettext`` instead.
    A message lawdiff's catalog lacks, and every message in English, is
    click's own text, unchanged.
    """
    import click.core
    import click.decorators
    import click.exceptions
    import click.formatting
    import click.parser
    import click.types

    for module in (click.core, click.decorators, click.exceptions, click.formatting, click.parser, click.types):
        if hasattr(module, "_"):
            module._ = _  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = i18n.ngettext  # type: ignore[attr-defined]


def start(args: Sequence[str] | None) -> str:
    """Set the language of this command line (:func:`chosen_in`, :func:`lawdiff.i18n.choose`) and return the
    one it replaces; an unknown language is one line and exit code 2, said in the language the environment
    chooses (or English)."""
    before = i18n.language()
    given = chosen_in(list(sys.argv[1:] if args is None else args))
    try:
        i18n.set_language(i18n.choose(given))
    except i18n.LanguageError:
        _say_unknown(given)
        i18n.set_language(before)
        sys.exit(2)
    return before


def _say_unknown(given: str | None) -> None:
    """The one line for a language lawdiff has no interface in, in the one the rest of the environment
    chooses (``--lang fr`` under ``LANG=nl_NL``: in Dutch), else in English."""
    from lawdiff.cli.terminal import echo, error_line

    try:
        i18n.set_language(i18n.choose(None))  # the environment's choice, without --lang
    except i18n.LanguageError:  # LAWDIFF_LANG is the unknown one
        i18n.set_language(i18n.DEFAULT)
    try:
        i18n.choose(given)
    except i18n.LanguageError as exc:
        echo(error_line(str(exc)), err=True)
