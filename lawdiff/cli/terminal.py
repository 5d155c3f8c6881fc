"""What the commands print, and how: the terminal rule, at the one place text meets the streams.

The renderers draw law text as it is.  Here, where the text is written to
standard output or standard error, every character a reader cannot see
(:mod:`lawdiff.marks`: control and bidirectional characters) and every
character the stream's encoding cannot hold (a Latin-1 terminal and "—") is
shown as its escape (``\\u202e``, ``\\u2014``), and one note on stderr says,
at the end of the command, that something was.  A file written with ``-o``
gets the text as it is (:func:`lawdiff.report.files.write_atomic`); so does
JSON, whose characters are escaped in JSON's own syntax (the same text once
read), and an HTML page, in character references.

A reader that closes the pipe early (``lawdiff compare 2007 2017 | head -n 0``)
is no error: the rest of the output is let go without a word, and the command
ends as it would have (what it wrote with ``-o`` kept, its status its own: 0,
or 1 for ``--exit-code`` and ``check``).  Whether a write meets the closed
pipe depends on the output's size and on when the reader leaves (``| head -1``
of a short output never does), so no other status could be the same for both.
"""

from __future__ import annotations

import codecs
import contextlib
import contextvars
import enum
import os
import select
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TextIO

import click

from lawdiff import marks
from lawdiff.i18n import gettext as _


class Kind(enum.Enum):
    """What is written, which decides how a character is escaped."""

    TEXT = "text"  # text for a reader: escapes such as \u202e, and the note
    JSON = "json"  # a JSON document: \uXXXX inside its strings, the same text once read
    HTML = "html"  # an HTML page: character references, the same text once read


@dataclass
class Escaped:
    """What one command run showed as escapes: the first character, and why."""

    first: str = ""
    hidden: bool = False  # a control or bidirectional character
    encodings: list[str] = field(default_factory=list)  # encodings that could not hold a character

    def note(self) -> str:
        reasons = [_("control and bidi characters")] if self.hidden else []
        reasons += [_("characters that {encoding} cannot hold").format(encoding=enc) for enc in self.encodings]
        return note_line(
            _(
                "{what} are printed as escapes ({code} is {name}); the text itself is unchanged: JSON and files"
                " written with -o keep it"
            ).format(what=_(" and ").join(reasons), code=marks.code(self.first), name=marks.label(self.first))
        )


def error_line(message: str) -> str:
    """``lawdiff: error: MESSAGE``, the one line of every error (its label in the interface's language)."""
    return _("lawdiff: error: {message}").format(message=message)


def warning_line(message: str) -> str:
    """``lawdiff: warning: MESSAGE``: something the reader must know about the output (text not compared)."""
    return _("lawdiff: warning: {message}").format(message=message)


def note_line(message: str) -> str:
    """``lawdiff: note: MESSAGE``: something worth knowing that changes nothing in the output."""
    return _("lawdiff: note: {message}").format(message=message)


_RUN: contextvars.ContextVar[Escaped | None] = contextvars.ContextVar("lawdiff_escaped", default=None)


@contextlib.contextmanager
def watch() -> Iterator[None]:
    """One command run: what it prints is watched, and the note said once at its end (on stderr)."""
    record = Escaped()
    token = _RUN.set(record)
    try:
        yield
    finally:
        _RUN.reset(token)
        if record.first:
            with contextlib.suppress(OSError):
                click.echo(marks.escape(record.note(), _encoding(sys.stderr)), err=True)


def echo(message: str = "", nl: bool = True, err: bool = False, kind: Kind = Kind.TEXT) -> None:
    """Write ``message`` to standard output (``err``: standard error) under the terminal rule."""
    stream = sys.stderr if err else sys.stdout
    shown = shown_as(message + ("\n" if nl else ""), _encoding(stream), kind)
    if err:
        click.echo(shown, nl=False, err=True)
    else:
        _out(shown)


def echo_coloured(plain: str, coloured: str | None) -> None:
    """Write one output drawn without and with the terminal's colours: the coloured one when nothing in it
    needs an escape, else the plain one, escaped.  (Law text holding an escape character could otherwise
    pass for a colour code of ours, and strike a clause through.)"""
    if coloured is None or _needs_escape(plain, _encoding(sys.stdout)):
        echo(plain, nl=False)
    else:
        _out(coloured)


def write_bytes(data: bytes) -> None:
    """Write a document's bytes (a Word file) to standard output."""
    _out(data)


def _out(text: str | bytes) -> None:
    """Write to standard output, all of it, or up to where its reader closed the pipe (:func:`let_go`).

    Through the file descriptor, in a loop: a buffered stream's ``write`` of more than the pipe holds
    returns how much the first write took when the reader then leaves, and its text layer drops the rest
    without an error (``| head -1`` of a 90 kB page ended with status 0 and 4 kB written)."""
    stream = sys.stdout
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):  # click's runner, a StringIO: no descriptor
        fd = -1
    try:
        if fd < 0:
            if isinstance(text, bytes):
                stream.buffer.write(text)
                stream.flush()
            else:
                click.echo(text, nl=False)
            return
        stream.flush()
        data = memoryview(text if isinstance(text, bytes) else text.encode(_encoding(stream)))
        while data:
            try:
                data = data[os.write(fd, data[: 1 << 16]) :]
            except BlockingIOError:  # a descriptor left non-blocking by whoever started us
                select.select([], [fd], [])
    except BrokenPipeError:
        let_go()


def let_go() -> None:
    """The reader closed standard output: what is written to it from now on goes to the null device (and
    Python's last flush at exit finds nowhere to fail), and no note is said of escapes no one read."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    record = _RUN.get()
    if record is not None:
        record.first = ""


def stdout_closed() -> bool:
    """Whether standard output is a pipe whose reader has gone (Linux and the BSDs say so by POLLERR)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def shown_as(text: str, encoding: str, kind: Kind = Kind.TEXT) -> str:
    """``text`` as written to a stream of ``encoding``: every hidden character, and every character the
    encoding cannot hold, escaped as ``kind`` escapes it; what was escaped is recorded for the note."""
    if not _needs_escape(text, encoding, kind):
        return text
    if kind is Kind.TEXT:
        _record(text, encoding)
        return marks.escape(text, encoding)
    ascii_only = not _is_utf8(encoding)
    out = []
    for ch in text:
        if marks.HIDDEN.match(ch) or (ascii_only and ord(ch) > 0x7F) or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(_json_escape(ch) if kind is Kind.JSON else _html_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


def _needs_escape(text: str, encoding: str, kind: Kind = Kind.TEXT) -> bool:
    if marks.has_hidden(text):
        return True
    if kind is not Kind.TEXT and not _is_utf8(encoding):
        return not text.isascii()
    return not _holds(encoding, text)


def _record(text: str, encoding: str) -> None:
    record = _RUN.get()
    if record is None:
        return
    hidden = marks.HIDDEN.search(text)
    if hidden is not None:
        record.hidden = True
    strange = next((ch for ch in text if not _holds(encoding, ch)), "") if not _holds(encoding, text) else ""
    if strange and encoding not in record.encodings:
        record.encodings.append(encoding)
    if not record.first:
        candidates = [m for m in (hidden.group() if hidden else "", strange) if m]
        record.first = min(candidates, key=text.index)


def _json_escape(ch: str) -> str:
    n = ord(ch)
    if n > 0xFFFF:  # JSON writes a character beyond the first plane as its surrogate pair
        n -= 0x10000
        return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"
    return f"\\u{n:04x}"


def _html_escape(ch: str) -> str:
    # A lone surrogate (a file name's undecodable byte) has no character reference: shown as its escape.
    return marks.code(ch) if 0xD800 <= ord(ch) <= 0xDFFF else f"&#x{ord(ch):x};"


def _encoding(stream: TextIO) -> str:
    name = getattr(stream, "encoding", None) or "utf-8"
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "utf-8"


def _is_utf8(encoding: str) -> bool:
    return encoding in ("utf-8", "utf-8-sig")


def _holds(encoding: str, text: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True
