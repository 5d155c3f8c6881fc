"""What the server is told, and the checks made before it starts.

Serving on any address but the loopback without a password is refused: an
unpublished draft is confidential.  Without ``--certfile``/``--keyfile`` on
such an address the password crosses the network in clear, which is said at
start.  ``--chairs`` names who may accept, reject, pin and forbid; without it
everyone who signs in may.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from pathlib import Path

from lawdiff.errors import InputError, UsageError
from lawdiff.i18n import gettext as _

ENV_PASSWORD = "LAWDIFF_PASSWORD"
# A committee member's name: what the store records as the author.
NAME_MAX = 60


@dataclass(frozen=True, slots=True)
class Source:
    """Where the corpus is read from (as the other commands' ``--corpus``, ``--draft`` and ``--threshold``)."""

    dirs: tuple[Path, ...] = ()
    drafts: tuple[tuple[Path, str, str], ...] = ()  # (file, edition name, state)
    use_cache: bool = True
    overrides: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """The server's settings.

    password: the committee's shared password, or None (loopback only).
    chairs: who may accept, reject, pin and forbid, by name as they sign in
        (compared without regard to case); empty: everyone.
    login_attempts: failed sign-ins an address may make before each next try
        waits (per address and name: 3), doubling up to ``login_wait_max`` seconds.
    session_idle: a session unused this long (seconds) ends.
    allowed_hosts: Host names besides the loopback names and ``host``
        that the server answers to (``--allowed-host``).
    forwarded_allow_ips: the reverse proxies whose X-Forwarded-For and
        X-Forwarded-Proto are believed (``--forwarded-allow-ips``), or "".
    lang: the server's own language, a member's whose browser names none of
        lawdiff's (each member may choose another); "": the language of the
        process when the app is made (``lawdiff --lang nl serve``).
    """

    store: Path
    source: Source = field(default_factory=Source)
    host: str = "127.0.0.1"
    port: int = 8000
    password: str | None = None
    chairs: frozenset[str] = frozenset()
    certfile: Path | None = None
    keyfile: Path | None = None
    login_attempts: int = 10
    login_wait_max: float = 30.0
    session_idle: float = 2 * 3600.0
    allowed_hosts: tuple[str, ...] = ()
    forwarded_allow_ips: str = ""
    lang: str = ""

    @property
    def https(self) -> bool:
        return self.certfile is not None

    def is_chair(self, name: str) -> bool:
        return not self.chairs or name.casefold() in self.chairs


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (127.0.0.0/8, ::1) or ``localhost``."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def read_password(password_file: Path | None, environ: dict[str, str] | None = None) -> str | None:
    """The shared password: ``--password-file`` (its first line), else ``$LAWDIFF_PASSWORD``, else None."""
    env = os.environ if environ is None else environ
    if password_file is not None:
        try:
            text = password_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(
                _("cannot read the password file ({reason})").format(reason=getattr(exc, "strerror", None) or exc),
                file=str(password_file),
                fix=_("give a readable text file whose first line is the password"),
            ) from None
        password = text.splitlines()[0] if text.splitlines() else ""
        if not password:
            raise InputError(
                _("the password file is empty"), file=str(password_file), fix=_("write the password on its first line")
            )
        return password
    value = env.get(ENV_PASSWORD, "")
    return value or None


_UNITS = {"s": 1, "m": 60, "h": 3600}


def duration(text: str, option: str) -> float:
    """``30m``, ``2h``, ``90s`` (a bare number: minutes) in seconds."""
    raw = text.strip().lower()
    unit = raw[-1:] if raw[-1:] in _UNITS else "m"
    number = raw[:-1] if raw[-1:] in _UNITS else raw
    try:
        seconds = float(number) * _UNITS[unit]
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise UsageError(
            _("{option} {value!r} is not a length of time").format(option=option, value=text),
            fix=_("write e.g. 30m, 2h or 90s"),
        )
    return seconds


def chairs_of(names: str) -> frozenset[str]:
    """``--chairs A,B`` as the names compared at sign-in."""
    return frozenset(n.strip().casefold() for n in names.split(",") if n.strip())


def check(config: ServeConfig) -> list[str]:
    """Refuse what must not start; return the warnings to print."""
    warnings: list[str] = []
    if (config.certfile is None) != (config.keyfile is None):
        raise UsageError(_("--certfile and --keyfile go together"), fix=_("give both, or neither"))
    for name, path in (("--certfile", config.certfile), ("--keyfile", config.keyfile)):
        if path is not None and not path.is_file():
            raise InputError(
                _("{option}: no such file").format(option=name),
                file=str(path),
                fix=_("give the PEM file of the certificate"),
            )
    if config.certfile is not None and config.keyfile is not None:
        _check_certificate(config.certfile, config.keyfile)
    if not (0 <= config.port <= 65535):
        raise UsageError(
            _("--port {port} is not a port").format(port=config.port), fix=_("give 1-65535, or 0 for any free port")
        )
    loopback = is_loopback(config.host)
    if not loopback and config.password is None:
        raise UsageError(
            _("serving on {host} without a password would show the draft to anyone who can reach it").format(
                host=config.host
            ),
            fix=_("give --password-file FILE or set {variable}, or serve on 127.0.0.1").format(variable=ENV_PASSWORD),
        )
    if not loopback and not config.https:
        warnings.append(
            _(
                "serving on {host} without --certfile/--keyfile: the password and the pages cross the network in "
                "clear; use HTTPS (a certificate from your organisation, or mkcert) on a network you do not trust"
            ).format(host=config.host)
        )
    if not config.chairs:
        warnings.append(_("no --chairs: everyone who signs in may accept, reject, pin and forbid"))
    return warnings


def _check_certificate(certfile: Path, keyfile: Path) -> None:
    """Load the certificate and key as the server will, so that a bad one is refused before serving starts
    (the server's own error names neither file). A key with a passphrase is refused, not prompted for."""
    import ssl

    def no_passphrase() -> bytes:
        return b""

    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile, no_passphrase)
    except (ssl.SSLError, OSError, ValueError) as exc:
        raise InputError(
            _("--certfile/--keyfile: not a certificate and its private key in PEM ({reason})").format(reason=exc),
            file=f"{certfile}, {keyfile}" if certfile != keyfile else str(certfile),
            fix=_("give the certificate and its unencrypted private key as PEM files (e.g. made by mkcert)"),
        ) from None
