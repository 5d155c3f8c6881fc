"""Fetching the 2017 Nuxt site: every page's ``_payload.json``, named as the bundled ones are.

Every page of the site has a ``_payload.json`` beside it, and each payload
lists the whole site under ``navigation_docs``. From one payload (the address
given, or the ``_payload.json`` of the page given) the crawl follows that
table of contents to every page that has a page of its own (a chapter entry
with ``page: false`` has none), and writes each payload as
``nuxt-<last part of its path>.payload.json`` (``nuxt-artikel-45.payload.json``).

Again later: where the server answers conditional requests (``ETag``,
``Last-Modified``), an unchanged payload costs a ``304`` and is not
downloaded; where it does not, every payload is downloaded and only those
whose bytes changed are written. The manifest records each payload's
validators and the run that checked it, so an interrupted crawl resumes with
the payloads it has not checked yet.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from lawdiff.fetch.client import Client, FetchError
from lawdiff.fetch.manifest import Manifest, clear_temporaries, write_atomic
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _
from lawdiff.sources.nuxt import devalue

__all__ = ["KIND", "PAYLOAD", "SiteFetch", "crawl_site", "payload_name"]

KIND = "nuxt-site"
PAYLOAD = "_payload.json"
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")


class Outcome:
    """How one payload fared (the words the summary uses)."""

    NEW = N_("new")
    CHANGED = N_("changed")
    NOT_MODIFIED = N_("not modified (conditional request)")
    SAME = N_("unchanged (downloaded, not rewritten)")
    RESUMED = N_("checked before the interruption")
    GONE = N_("no longer listed by the site (left in place)")


@dataclass(frozen=True, slots=True)
class SiteFetch:
    """What a crawl did (or, with ``dry_run``, would fetch): per file, its outcome, in site order."""

    edition: str
    folder: Path
    files: tuple[tuple[str, str, str], ...]  # (file name, payload URL, outcome)
    not_modified: int  # conditional requests answered 304
    ignored: int  # conditional requests answered with the same bytes (the server ignores them)
    unvalidated: int  # payloads fetched again without a validator to ask with (the server gave none)


def payload_url(url: str) -> str:
    """The ``_payload.json`` of a page address (or the address itself when it is one)."""
    base = url.split("#", 1)[0].split("?", 1)[0]
    if base.endswith(PAYLOAD):
        return base
    return base.rstrip("/") + "/" + PAYLOAD


def payload_name(path: str) -> str:
    """The file a page's payload is saved as: ``/spelen/.../artikel-45`` -> ``nuxt-artikel-45.payload.json``."""
    last = [part for part in path.split("/") if part][-1:] or ["index"]
    return f"nuxt-{last[0]}.payload.json"


def _decode(body: bytes, url: str) -> dict[str, Any]:
    try:
        decoded = devalue.loads(body.decode("utf-8", errors="replace"))
    except devalue.DevalueError:
        decoded = None
    value = decoded.value if decoded is not None else None
    data = value.get("data") if isinstance(value, dict) else None
    if not isinstance(data, dict):
        raise FetchError(
            _("not a Nuxt page payload (no devalue-encoded data)"),
            file=url,
            fix=_(
                "give a page of the site, or its _payload.json (as in https://site.example.org/voorwoord/_payload.json)"
            ),
        )
    return data


def _site_pages(data: dict[str, Any], url: str) -> Iterator[str]:
    """The paths of the site's pages, in the order of its table of contents."""
    nav = data.get("navigation_docs")
    if not isinstance(nav, list) or not nav:
        raise FetchError(
            _("the payload has no navigation_docs (the site's table of contents)"),
            file=url,
            fix=_("give a page of the law's site, whose payloads list the whole site"),
        )

    def walk(entries: list[Any]) -> Iterator[str]:
        for entry in entries:
            if not isinstance(entry, dict):
                continue
            path = entry.get("path")
            if isinstance(path, str) and path.startswith("/") and entry.get("page") is not False:
                yield path
            children = entry.get("children")
            if isinstance(children, list):
                yield from walk(children)

    yield from walk(nav)


def _edition_of(data: dict[str, Any]) -> str:
    """The year the page record's ``source`` names (``Vertaling spelregels 2017 3e druk.pdf``), or ""."""
    for key, record in data.items():
        if key != "navigation_docs" and isinstance(record, dict) and isinstance(record.get("source"), str):
            m = _YEAR.search(record["source"])
            if m:
                return m.group(1)
    return ""


def _names(paths: list[str]) -> dict[str, str]:
    """Path -> file name; two pages whose paths end alike are named by their whole path."""
    first: dict[str, str] = {}
    for path in paths:
        first.setdefault(payload_name(path), path)
    out: dict[str, str] = {}
    for path in paths:
        name = payload_name(path)
        if first[name] != path:
            name = payload_name(path.strip("/").replace("/", "-"))
        out[path] = name
    return out


@dataclass(frozen=True, slots=True)
class _Plan:
    """What the start payload says: the edition, the site's address, and each page's (file name, payload URL)."""

    year: str
    origin: str
    pages: tuple[tuple[str, str], ...]


def _plan(client: Client, url: str, edition: str) -> _Plan:
    """Read the start payload: the site's pages in the order of its table of contents."""
    start = payload_url(url)
    first = client.get(start, any_status=True)
    if first.status != 200:
        raise FetchError(
            _("no payload there (HTTP {status})").format(status=first.status),
            file=start,
            fix=_("give a page of the Nuxt site, or its _payload.json (as in https://site.example.org/voorwoord/)"),
        )
    data = _decode(first.body, first.url)
    paths = list(dict.fromkeys(_site_pages(data, first.url)))
    year = edition or _edition_of(data)
    if not year:
        raise FetchError(
            _("the payload does not say which edition the site holds"),
            file=first.url,
            fix=_("give it with --edition YEAR"),
        )
    origin = "{0.scheme}://{0.netloc}/".format(urlsplit(first.url))
    names = _names(paths)
    return _Plan(year, origin, tuple((names[p], urljoin(origin, p.lstrip("/") + "/" + PAYLOAD)) for p in paths))


def crawl_site(
    client: Client,
    url: str,
    out: Path,
    edition: str = "",
    dry_run: bool = False,
    progress: Callable[[str], None] | None = None,
) -> SiteFetch:
    """Fetch every payload of the site at ``url`` into ``out/YEAR/`` (see the module's docstring)."""
    say = progress or (lambda _line: None)
    plan = _plan(client, url, edition)
    folder = out / plan.year
    if dry_run:
        return SiteFetch(plan.year, folder, tuple((name, target, "to fetch") for name, target in plan.pages), 0, 0, 0)
    manifest = Manifest.read(folder)
    if manifest is not None:
        manifest.refuse_other(plan.origin, KIND, folder)
    clear_temporaries(folder)
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    state = manifest or Manifest(plan.origin, KIND, plan.year)
    resuming = bool(manifest and not manifest.fetched and manifest.run)
    state.run, state.fetched = (state.run if resuming else now), ""
    state.write(folder)
    done: list[tuple[str, str, str]] = []
    not_modified = ignored = unvalidated = 0
    for i, (name, target) in enumerate(plan.pages, 1):
        say(_("{year}: payload {i} of {n}: {name}").format(year=plan.year, i=i, n=len(plan.pages), name=name))
        record = state.files.get(name, {})
        if resuming and record.get("run") == state.run and (folder / name).is_file():
            done.append((name, target, Outcome.RESUMED))
            continue
        outcome, record, conditional = _fetch_one(client, target, folder / name, record)
        not_modified += outcome == Outcome.NOT_MODIFIED
        ignored += conditional and outcome == Outcome.SAME
        unvalidated += not conditional and outcome in (Outcome.SAME, Outcome.CHANGED)
        state.files[name] = {**record, "run": state.run}
        state.write(folder)
        done.append((name, target, outcome))
    listed = {name for name, _target in plan.pages}
    # A page the site no longer lists: its file is the user's to remove; said, and left in place.
    done += [(name, str(r.get("url", "")), Outcome.GONE) for name, r in state.files.items() if name not in listed]
    state.fetched = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    state.write(folder)
    return SiteFetch(plan.year, folder, tuple(done), not_modified, ignored, unvalidated)


def _fetch_one(client: Client, url: str, path: Path, record: dict[str, Any]) -> tuple[str, dict[str, Any], bool]:
    """One payload: a conditional request where the last one gave validators, written when it changed.
    Returns the outcome, what the manifest records, and whether the request was conditional."""
    headers: dict[str, str] = {}
    exists = path.is_file()
    if exists and record.get("etag"):
        headers["If-None-Match"] = str(record["etag"])
    if exists and record.get("last_modified"):
        headers["If-Modified-Since"] = str(record["last_modified"])
    answer = client.get(url, headers=headers)
    if answer.status == 304:
        return Outcome.NOT_MODIFIED, record, True
    _decode(answer.body, answer.url)  # a payload, not an error page served with 200
    digest = hashlib.sha256(answer.body).hexdigest()
    fresh = {
        "url": url,
        "etag": answer.headers.get("etag", ""),
        "last_modified": answer.headers.get("last-modified", ""),
        "sha256": digest,
    }
    if exists and hashlib.sha256(path.read_bytes()).hexdigest() == digest:
        return Outcome.SAME, fresh, bool(headers)
    write_atomic(path, answer.body)
    return (Outcome.CHANGED if exists else Outcome.NEW), fresh, bool(headers)
