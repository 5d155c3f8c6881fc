"""The interface's language: Dutch or English, through gettext.

Every label lawdiff puts around the law (report pages, the served app, the
Word redline and minutes, every command's output, errors, ``--help``) is
English in the source, marked with :func:`_` (or :func:`ngettext`,
:func:`pgettext`; :func:`N_` marks a constant that is translated where it is
shown) and translated from the catalog of the domain ``lawdiff`` in
``lawdiff/locale/<lang>/LC_MESSAGES/`` (its ``.po``, compiled to the ``.mo``
beside it and shipped in the wheel).  The law text
itself is never translated: it passes through untouched.

The language is a person's choice, not the corpus's (:func:`choose`):
``--lang``, else ``LAWDIFF_LANG``, else ``$XDG_CONFIG_HOME/lawdiff/config.toml``
(``lang = "nl"``), else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``),
else English.  A command sets it once for its process (:func:`set_language`,
inherited by the processes it forks); the served app sets it per request
(:func:`use`, a context variable, so that two members reading in two
languages at once each get their own).

Text made long before it is shown, and kept in the cache (the alignment's reasons for a match, the
readers' notes), is a :class:`lawdiff.i18n.said.Said`: English that carries its message, said in the
reader's language by the renderer that shows it.

Dates, numbers and the order of names follow the language (:func:`format_date`,
:func:`format_percent`, :func:`sort_key`); clause addresses keep document order
and are never sorted here.  JSON and CSV keys stay English: they are for programs.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext as _gettext
import os
import unicodedata
from collections.abc import Iterator, Mapping
from datetime import date, datetime
from functools import cache
from pathlib import Path

#: The interface languages, English first (the source language, and the fallback).
LANGUAGES: tuple[str, ...] = ("en", "nl")
#: Each language's name in itself, for the switch on every served page.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "nl": "Nederlands"}
DEFAULT = "en"
DOMAIN = "lawdiff"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_process_language = DEFAULT
_request_language: contextvars.ContextVar[str | None] = contextvars.ContextVar("lawdiff_language", default=None)


class LanguageError(ValueError):
    """A language lawdiff has no interface in (``--lang fr``, ``LAWDIFF_LANG=xx``)."""


def normalize(value: str) -> str | None:
    """``nl``, ``nl_NL.UTF-8``, ``nl-BE``, ``NL`` -> ``"nl"``; ``C``, ``POSIX`` or an unknown language -> None."""
    code = value.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    return code if code in LANGUAGES else None


def checked(value: str, where: str) -> str:
    """``value`` as a language code, or :class:`LanguageError` naming ``where`` it came from and what to do."""
    code = normalize(value)
    if code is None:
        raise LanguageError(
            _("{where}: no interface in {value!r}; use one of {languages}").format(
                where=where, value=value, languages=", ".join(LANGUAGES)
            )
        )
    return code


def configured(environ: Mapping[str, str] | None = None) -> str | None:
    """The ``lang`` of the user's ``$XDG_CONFIG_HOME/lawdiff/config.toml`` (``~/.config`` by default), if any.

    A file that cannot be read or parsed is passed over, as a locale would be:
    a person's configuration must not stop a command from running.
    """
    env = os.environ if environ is None else environ
    home = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME", os.path.expanduser("~")), ".config")
    path = Path(home) / "lawdiff" / "config.toml"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    import tomllib

    try:
        value = tomllib.loads(text).get("lang")
    except tomllib.TOMLDecodeError:
        return None
    return normalize(value) if isinstance(value, str) else None


def from_locale(environ: Mapping[str, str] | None = None) -> str | None:
    """The language of the locale, as POSIX reads it: ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``.

    The first of them that is set decides (``LC_ALL=C`` means English even
    when ``LANG`` is Dutch); ``LANGUAGE``, GNU's list of preferences, is not read.
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return normalize(value)
    return None


def choose(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The interface language: ``--lang``, ``LAWDIFF_LANG``, the user's configuration, the locale, English.

    ``option`` and ``LAWDIFF_LANG`` are a person's explicit choice: an unknown
    language there is an error (:class:`LanguageError`); in the configuration
    and the locale it is passed over.
    """
    env = os.environ if environ is None else environ
    if option:
        return checked(option, "--lang")
    if env.get("LAWDIFF_LANG"):
        return checked(env["LAWDIFF_LANG"], "LAWDIFF_LANG")
    return configured(env) or from_locale(env) or DEFAULT


def from_accept_language(header: str | None) -> str:
    """The first language of an HTTP ``Accept-Language`` header lawdiff has, by quality; else English."""
    best: tuple[float, int, str] | None = None
    for position, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        code = normalize(tag) if tag and tag != "*" else None
        if code is None:
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0 and (best is None or (-quality, position) < (-best[0], best[1])):
            best = (quality, position, code)
    return best[2] if best else DEFAULT


def set_language(code: str) -> None:
    """The process's language (a command's choice); processes forked later inherit it."""
    global _process_language
    _process_language = checked(code, "language")


def language() -> str:
    """The language in force: the request's (served app), else the process's."""
    return _request_language.get() or _process_language


@contextlib.contextmanager
def use(code: str) -> Iterator[str]:
    """Within the block, the interface speaks ``code`` (in this thread or task only)."""
    token = _request_language.set(checked(code, "language"))
    try:
        yield code
    finally:
        _request_language.reset(token)


@cache
def translations(code: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``code``; English is the source language and needs none."""
    if code == DEFAULT:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[code], fallback=True)


# The messages translated so far, per language: a report's pages ask for some 100,000 translations of a few
# hundred messages, and a catalog's own lookup is three calls of Python.  The messages are the code's, but a
# message made from data would grow it: it is emptied past a bound.
_TRANSLATED: dict[str, dict[str, str]] = {}
_TRANSLATED_KEPT = 4096


def gettext(message: str) -> str:
    """``message`` in the interface's language (``message`` itself when the catalog lacks it)."""
    code = _request_language.get() or _process_language  # language(), written out: this runs per row
    known = _TRANSLATED.get(code)
    if known is None:
        known = _TRANSLATED[code] = {}
    said = known.get(message)
    if said is None:
        if len(known) >= _TRANSLATED_KEPT:
            known.clear()
        said = known[message] = translations(code).gettext(message)
    return said


#: The name gettext gives it: modules import ``gettext as _`` (Babel extracts the ``_()`` calls).
_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message by ``n``, in the interface's language (fill in ``n`` yourself)."""
    return translations(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A message whose translation depends on where it stands (``pgettext("status", "open")``)."""
    return translations(language()).pgettext(context, message)


def N_(message: str) -> str:  # gettext's own name for "mark, translate later"
    """Marks ``message`` for the catalog without translating it: a constant translated where it is shown."""
    return message


def babel_locale() -> str:
    """The language's name for Babel's formatting functions."""
    return language()


def format_date(value: date | datetime) -> str:
    """A date as the language writes it: "2 december 2026", "December 2, 2026"."""
    from babel.dates import format_date as babel_format_date

    day = value.date() if isinstance(value, datetime) else value
    return babel_format_date(day, format="long", locale=babel_locale())


def format_datetime(value: datetime) -> str:
    """A moment as the language writes it, to the minute: "2 december 2026 14:05"."""
    from babel.dates import format_datetime as babel_format_datetime

    return babel_format_datetime(value, format="d MMMM y HH:mm", locale=babel_locale())


def format_percent(share: float, digits: int = 0) -> str:
    """A share (0.73) as the language writes a percentage: "73%"; ``digits`` after the decimal sign."""
    from babel.numbers import format_percent as babel_format_percent

    pattern = "#,##0%" if digits == 0 else "#,##0." + "0" * digits + "%"
    return babel_format_percent(share, format=pattern, locale=babel_locale())


def format_number(value: float, digits: int = 0) -> str:
    """A number with the language's decimal sign and grouping: "1.234,5" in Dutch."""
    from babel.numbers import format_decimal

    pattern = "#,##0" if digits == 0 else "#,##0." + "0" * digits
    return format_decimal(value, format=pattern, locale=babel_locale())


def sort_key(text: str) -> tuple[str, str]:
    """How names and free text sort (members, comments), by the language's alphabet, not by code point.

    Dutch and English both sort letters with their accents as the letters
    themselves ("Élise" beside "Elise"), case last; ties keep a stable order
    by the text itself.  Clause addresses are never sorted with this.
    """
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()
    if language() == "nl":
        # Dutch dictionaries (Van Dale, the Groene Boekje) sort "ij" as i + j, which is what
        # a plain letter order does; an initial "'s-" or "'t " is passed over ("'s-Gravenhage" under G).
        for prefix in ("'s-", "'t "):
            if folded.startswith(prefix):
                folded = folded[len(prefix) :]
                break
    return folded, text


# Each interface language's decimal sign, as Babel gives it (tests/test_i18n.py checks): loading Babel's
# locale data costs a process a fifth of reading two editions (``lawdiff check``), for one character.
DECIMAL_SIGNS: Mapping[str, str] = {"en": ".", "nl": ","}


def decimal_sign() -> str:
    """The language's decimal sign ("," in Dutch), for a number written by Python's own format (``:g``)."""
    sign = DECIMAL_SIGNS.get(babel_locale())
    if sign is not None:
        return sign
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(babel_locale())


def format_stamp(stamp: str) -> str:
    """A stored UTC time (``2024-05-14T10:02:03.123Z``) to the minute, for the terminal: in English as lawdiff
    has always written it (``2024-05-14 10:02``: scripts read it), in another language in its own words
    (``14 mei 2024 10:02``).  Text that is no time is given back as it is."""
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    if language() == DEFAULT:
        return stamp[:16].replace("T", " ")
    return format_datetime(moment)


def format_day(day: str) -> str:
    """A stored date (``2024-05-14``), for the terminal: as it is in English, in the language's words otherwise
    (``14 mei 2024``); text that is no date is given back as it is."""
    try:
        value = date.fromisoformat(day)
    except ValueError:
        return day
    return day if language() == DEFAULT else format_date(value)
