"""A MediaWiki's ``api.php``: finding it, asking it, and listing an edition's pages with their revisions.

An edition lives on the wiki as template pages ``Sjabloon:YEAR:...``
(namespace 10), transcluded by article and chapter pages. The listing asks
for the template pages with prefix ``YEAR:`` (``gaplimit=max``: generators
give 10 results unless told), each with its latest revision id, the pages
of the main namespace that transclude it, and the templates it uses; then the
same for the pages so found outside the prefix, until nothing new turns up.
Every request carries ``maxlag`` and follows the API's ``continue``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from lawdiff.fetch.client import Answer, Client, FetchError
from lawdiff.i18n import gettext as _

__all__ = ["LIMIT", "MAXLAG", "TITLES_PER_REQUEST", "Api", "WikiPage", "find_api"]

# Seconds of replication lag beyond which the wiki asks bots to wait (Wikimedia's advice is 5).
MAXLAG = "5"
# Results per list and per page's list in one answer: "max" (500, or 5,000 for bots); generators give 10
# unless told. Whatever it is, the listing follows the API's "continue" to the end.
LIMIT = "max"
# Titles or page ids per request: the API's limit for clients without the apihighlimits right.
TITLES_PER_REQUEST = 50
# The template namespace (``Sjabloon:``), and the namespace of article pages that transclude templates.
TEMPLATE_NS = 10
MAIN_NS = 0


@dataclass(frozen=True, slots=True)
class WikiPage:
    """One page of the wiki as the listing gives it: id, namespace, title and latest revision id."""

    id: int
    ns: int
    title: str
    revision: int


def _candidates(url: str) -> list[str]:
    """Where a wiki's ``api.php`` may be, for the address a user gives (the api.php itself, the wiki's
    root, its index.php, or a page ``/wiki/Title``): the root's ``api.php``, then ``/w/api.php``."""
    parts = urlsplit(url)
    path = parts.path
    if path.endswith("api.php"):
        return [urlunsplit((parts.scheme, parts.netloc, path, "", ""))]
    for page in ("/wiki/", "/index.php/"):
        if page in path:
            path = path.split(page, 1)[0]
    if path.endswith(".php"):
        path = path.rsplit("/", 1)[0]
    root = urlunsplit((parts.scheme, parts.netloc, path.rstrip("/"), "", ""))
    return [f"{root}/api.php", f"{root}/w/api.php"]


class Api:
    """Requests to one wiki's api.php (JSON, format version 2, ``maxlag`` on every one)."""

    def __init__(self, client: Client, url: str) -> None:
        self.client = client
        self.url = url

    def query(self, params: dict[str, str], post: bool = False) -> dict[str, Any]:
        """One API request; a ``maxlag`` answer is waited for and asked again, an error refused."""
        full = {"format": "json", "formatversion": "2", "maxlag": MAXLAG, "errorformat": "plaintext", **params}
        tries = 0
        while True:
            tries += 1
            answer = self.client.post(self.url, full) if post else self.client.get(self.url, full)
            data = _json(answer)
            error = _first_error(data)
            if error is None:
                return data
            code, info = error
            if code == "maxlag":
                lag = answer.headers.get("retry-after", "")
                self.client.wait_busy(self.url, tries, float(lag) if lag.isdigit() else None, "maxlag")
                continue
            raise FetchError(
                _("the wiki refused the request ({code}: {info})").format(code=code, info=info),
                file=self.url,
                fix=_fix(code),
            )

    def query_all(self, params: dict[str, str], post: bool = False) -> Iterator[dict[str, Any]]:
        """Every answer of a query, following ``continue`` until the wiki says the batch is complete."""
        go_on: dict[str, str] = {}
        while True:
            data = self.query({**params, **go_on}, post)
            yield data
            more = data.get("continue")
            if not isinstance(more, dict):
                return
            go_on = {str(k): str(v) for k, v in more.items()}

    def export(self, ids: list[int]) -> bytes:
        """The wiki's export (its XML) of these pages, latest revisions only."""
        data = {"action": "query", "export": "1", "exportnowrap": "1", "pageids": "|".join(map(str, ids))}
        answer = self.client.post(self.url, {"format": "json", "maxlag": MAXLAG, **data})
        if not answer.body.lstrip().startswith(b"<"):
            error = _first_error(_json(answer))
            what = f"{error[0]}: {error[1]}" if error else "no XML"
            raise FetchError(
                _("the wiki gave no export ({what})").format(what=what),
                file=self.url,
                fix=_("check that the wiki allows exports"),
            )
        return answer.body

    def parse(self, title: str) -> str:
        """MediaWiki's own rendering of a page (HTML), without edit links and table of contents."""
        data = self.query(
            {"action": "parse", "page": title, "prop": "text", "disableeditsection": "1", "disabletoc": "1"}
        )
        text = data.get("parse", {}).get("text", "")
        return text if isinstance(text, str) else str(text.get("*", ""))


def _json(answer: Answer) -> dict[str, Any]:
    try:
        data = json.loads(answer.body)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise FetchError(
            _("not a MediaWiki API answer (not JSON)"),
            file=answer.url,
            fix=_("give the wiki's address or its api.php (e.g. https://wiki.example.org/w/api.php)"),
        )
    return data


def _first_error(data: dict[str, Any]) -> tuple[str, str] | None:
    errors = data.get("errors")
    if isinstance(errors, list) and errors:
        first = errors[0] if isinstance(errors[0], dict) else {}
        return str(first.get("code", "error")), str(first.get("text", first.get("*", "")))
    error = data.get("error")
    if isinstance(error, dict):
        return str(error.get("code", "error")), str(error.get("info", ""))
    return None


def _fix(code: str) -> str:
    if code in ("readapidenied", "permissiondenied"):
        return _("the wiki lets only logged-in users read it; ask its administrators for an export")
    return _("check the address and the edition")


def find_api(client: Client, url: str) -> Api:
    """The wiki's api.php, checked to be a MediaWiki's; one line that says so when it is not."""
    tried: list[str] = []
    for candidate in _candidates(url):
        tried.append(candidate)
        params = {"action": "query", "meta": "siteinfo", "format": "json", "formatversion": "2"}
        answer = client.get(candidate, params, any_status=True)
        if answer.status != 200:
            continue
        try:
            data = json.loads(answer.body)
        except ValueError:
            continue
        general = data.get("query", {}).get("general", {}) if isinstance(data, dict) else {}
        # The address the server finally answered at (after http -> https, say): a redirected POST would
        # lose its form.
        final = urlunsplit((*urlsplit(answer.url)[:3], "", ""))
        if isinstance(general, dict) and str(general.get("generator", "")).startswith("MediaWiki"):
            return Api(client, final)
        if isinstance(data, dict) and _first_error(data):
            return Api(client, final)  # an api.php that refuses: its error is said at the first query
    raise FetchError(
        _("not a MediaWiki: no api.php answered there (tried {addresses})").format(addresses=", ".join(tried)),
        file=url,
        fix=_("give the wiki's api.php address (Special:Version on the wiki names it)"),
    )


def _pages_of(data: dict[str, Any], into: dict[int, dict[str, Any]]) -> None:
    """Merge the pages of one answer into ``into`` (continued answers add to a page's lists)."""
    for page in data.get("query", {}).get("pages", []):
        if not isinstance(page, dict) or "pageid" not in page:
            continue
        held = into.setdefault(int(page["pageid"]), {"templates": [], "transcludedin": []})
        for key in ("ns", "title", "lastrevid"):
            if key in page:
                held[key] = page[key]
        for key in ("templates", "transcludedin"):
            held[key].extend(page.get(key, []))


def list_edition(api: Api, edition: str) -> list[WikiPage]:
    """The pages an edition's export holds: its template pages, the main-namespace pages that
    transclude them, and every template those pages use; in page id order (the order they were made)."""
    found: dict[int, dict[str, Any]] = {}
    listing = {
        "action": "query",
        "generator": "allpages",
        "gapnamespace": str(TEMPLATE_NS),
        "gapprefix": f"{edition}:",
        "gaplimit": LIMIT,
        "prop": "info|templates|transcludedin",
        "tllimit": LIMIT,
        "tilimit": LIMIT,
        "tinamespace": str(MAIN_NS),
    }
    for data in api.query_all(listing):
        _pages_of(data, found)
    asked: set[str] = set()
    wanted = _more_titles(found, asked)
    while wanted:
        batch, wanted = wanted[:TITLES_PER_REQUEST], wanted[TITLES_PER_REQUEST:]
        asked.update(batch)
        params = {"action": "query", "titles": "|".join(batch), "prop": "info|templates", "tllimit": LIMIT}
        for data in api.query_all(params, post=True):
            _pages_of(data, found)
        if not wanted:
            wanted = _more_titles(found, asked)
    return [
        WikiPage(pid, int(p.get("ns", 0)), str(p.get("title", "")), int(p.get("lastrevid", 0)))
        for pid, p in sorted(found.items())
        if "title" in p
    ]


def _more_titles(found: dict[int, dict[str, Any]], asked: set[str]) -> list[str]:
    """Titles that pages found so far use or are used by, not asked for yet (a template that does not
    exist is asked once), first seen first."""
    known = {str(p.get("title")) for p in found.values()}
    more: dict[str, None] = {}
    for page in found.values():
        for link in (*page["templates"], *page["transcludedin"]):
            title = str(link.get("title", ""))
            if title and title not in known and title not in asked:
                more.setdefault(title)
    return list(more)


def batches(ids: Iterable[int], size: int = TITLES_PER_REQUEST) -> Iterator[list[int]]:
    """Page ids in batches of ``size``."""
    batch: list[int] = []
    for i in ids:
        batch.append(i)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
