"""The one HTTP client of lawdiff: polite by default, every failure one :class:`FetchError`.

Only this module imports ``httpx``. A :class:`Client` makes one request at a
time (a wiki run by volunteers should never see two from us at once), names
itself in a ``User-Agent`` with lawdiff's version and the user's contact,
waits as the server asks (``Retry-After`` on 429 and 503, and MediaWiki's
``maxlag`` answer) with a growing backoff where it does not say how long,
gives up after a timeout, and reads no answer larger than a bound: a page of
the law is a few kilobytes, an export of an edition a few megabytes.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import httpx

from lawdiff import __version__
from lawdiff.errors import LawdiffBug, LawdiffError
from lawdiff.i18n import gettext as _

__all__ = ["MAX_BYTES", "MAX_TRIES", "MAX_WAIT", "TIMEOUT", "Answer", "Client", "FetchError", "user_agent"]

# Seconds to wait for a connection or for the next bytes of an answer.
TIMEOUT = 30.0
# The largest answer read: an edition's export in a batch of 50 pages is well under it.
MAX_BYTES = 64 * 1024 * 1024
# How often one request is tried when the server says it is busy (429, 503, maxlag).
MAX_TRIES = 5
# The longest wait for a busy server that lawdiff accepts before giving up (seconds).
MAX_WAIT = 120.0
# The first wait when a busy server does not say how long; doubled at every try.
FIRST_BACKOFF = 1.0
# How many redirects one request may follow (a loop is refused after them).
MAX_REDIRECTS = 10


class FetchError(LawdiffError):
    """A server or the network failed us: printed as one line, exit code 2."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What a server answered: the final URL, the status, the headers we use, the body."""

    url: str
    status: int
    headers: Mapping[str, str]
    body: bytes


def user_agent(contact: str = "") -> str:
    """The ``User-Agent`` lawdiff sends: its name and version, and who to write to (as Wikimedia's policy asks)."""
    who = f"contact: {contact}" if contact else "no contact given; use --contact"
    return f"lawdiff/{__version__} (comparing editions of the Dutch bridge laws; {who}) httpx/{httpx.__version__}"


def _retry_after(value: str | None) -> float | None:
    """Seconds a ``Retry-After`` header asks for (a number, or an HTTP date), None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass
class Client:
    """One polite HTTP client; use it as a context manager.

    contact: an e-mail address or URL for the ``User-Agent``.
    timeout: seconds (see :data:`TIMEOUT`).
    max_bytes: the largest answer read (see :data:`MAX_BYTES`).
    sleep: waits (tests pass a recorder).
    progress: called with a short line before each request (the CLI draws it on stderr).
    """

    contact: str = ""
    timeout: float = TIMEOUT
    max_bytes: int = 0  # 0: MAX_BYTES
    sleep: Callable[[float], None] = time.sleep
    progress: Callable[[str], None] | None = None
    _http: httpx.Client | None = field(default=None, repr=False)

    def __enter__(self) -> Client:
        self.max_bytes = self.max_bytes or MAX_BYTES
        self._http = httpx.Client(
            headers={"User-Agent": user_agent(self.contact), "Accept-Encoding": "gzip, deflate"},
            timeout=httpx.Timeout(self.timeout),
            follow_redirects=True,
            max_redirects=MAX_REDIRECTS,
        )
        return self

    def __exit__(self, *exc: object) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None

    def get(
        self,
        url: str,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        any_status: bool = False,
    ) -> Answer:
        """GET ``url``; 304 and 200 are answers, other statuses raise :class:`FetchError` after the retries
        (or, with ``any_status``, are answers too: a 404 where a wiki's api.php may be)."""
        return self._request("GET", url, any_status, params=params, headers=headers)

    def post(self, url: str, data: Mapping[str, str]) -> Answer:
        """POST a form to ``url`` (long lists of page ids do not fit in a URL)."""
        return self._request("POST", url, False, data=data)

    def wait_busy(self, url: str, tries: int, asked: float | None, why: str) -> None:
        """Wait before trying again a request the server was too busy for, or give up."""
        if tries >= MAX_TRIES:
            raise FetchError(
                _("the server stayed busy ({why}) after {MAX_TRIES} tries").format(why=why, MAX_TRIES=MAX_TRIES),
                file=url,
                fix=_("try again later"),
            )
        wait = asked if asked is not None else FIRST_BACKOFF * 2 ** (tries - 1)
        if wait > MAX_WAIT:
            raise FetchError(
                _("the server asks us to wait {wait:.0f} s ({why})").format(wait=wait, why=why),
                file=url,
                fix=_("try again later"),
            )
        if self.progress is not None:
            self.progress(_("server busy ({why}): waiting {wait:.0f} s").format(why=why, wait=wait))
        self.sleep(wait)

    def _request(self, method: str, url: str, any_status: bool, **kwargs: object) -> Answer:
        tries = 0
        while True:
            tries += 1
            answer = self._once(method, url, **kwargs)
            if answer.status in (429, 503):
                self.wait_busy(url, tries, _retry_after(answer.headers.get("retry-after")), f"HTTP {answer.status}")
                continue
            if answer.status not in (200, 304) and not any_status:
                raise FetchError(
                    _("the server answered HTTP {status}").format(status=answer.status),
                    file=answer.url,
                    fix=_("check the address; if it is right, the server has a problem: try again later"),
                )
            return answer

    def _once(self, method: str, url: str, **kwargs: object) -> Answer:
        if self._http is None:
            raise LawdiffBug("fetch.client.Client used outside its with block")
        host = urlsplit(url).netloc or url
        try:
            with self._http.stream(method, url, **kwargs) as response:  # type: ignore[arg-type]
                declared = response.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > self.max_bytes:
                    raise _too_large(url, self.max_bytes)
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > self.max_bytes:
                        raise _too_large(url, self.max_bytes)
                    chunks.append(chunk)
                headers = {k.lower(): v for k, v in response.headers.items()}
                return Answer(str(response.url), response.status_code, headers, b"".join(chunks))
        except httpx.TooManyRedirects:
            raise FetchError(
                _("more than {MAX_REDIRECTS} redirects (a redirect loop)").format(MAX_REDIRECTS=MAX_REDIRECTS),
                file=url,
                fix=_("check the address, or give the one the server finally serves"),
            ) from None
        except httpx.TimeoutException:
            raise FetchError(
                _("no answer from {host} within {timeout:.0f} s").format(host=host, timeout=self.timeout),
                file=url,
                fix=_("check your network, or try again later (or raise --timeout)"),
            ) from None
        except httpx.ConnectError as exc:
            raise _connect_error(url, host, exc) from None
        except httpx.HTTPError as exc:
            raise FetchError(
                _("the connection to {host} failed ({name}: {exc})").format(
                    host=host, name=type(exc).__name__, exc=exc
                ),
                file=url,
                fix=_("check your network, or try again later"),
            ) from None


def _too_large(url: str, bound: int) -> FetchError:
    return FetchError(
        _("the answer is larger than {bound:,} bytes, more than the law's pages can be").format(bound=bound),
        file=url,
        fix=_("check that the address is the wiki's api.php or a page of the site"),
    )


def _connect_error(url: str, host: str, exc: httpx.ConnectError) -> FetchError:
    cause: BaseException | None = exc
    while cause is not None and not isinstance(cause, ssl.SSLError):
        cause = cause.__cause__ or cause.__context__
    if isinstance(cause, ssl.SSLError) or "SSL" in str(exc) or "certificate" in str(exc).lower():
        return FetchError(
            _("the secure connection to {host} failed (TLS: {exc})").format(host=host, exc=exc),
            file=url,
            fix=_("check the address (https or http) and the server's certificate; lawdiff does not skip the check"),
        )
    return FetchError(
        _("cannot connect to {host} ({exc})").format(host=host, exc=exc),
        file=url,
        fix=_("check the address and your network connection"),
    )
