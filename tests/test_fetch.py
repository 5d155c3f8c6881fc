"""``lawdiff fetch --site`` against a tiny local site, and the one-line errors of every fetch.

The site serves payloads made from the bundled ones (``corpus/2017``) with a small table of contents of its
own (``navigation_docs``: two chapters without a page, two articles), from a ``http.server`` on a free port,
with or without answering conditional requests. The MediaWiki side is tested against a real wiki in
``tests/test_fetch_wiki.py``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from test_versions import encode as devalue_text

from lawdiff import __version__
from lawdiff.cli import main
from lawdiff.fetch import client as fetch_client
from lawdiff.fetch.client import Client, FetchError
from lawdiff.fetch.manifest import MANIFEST
from lawdiff.fetch.wikiapi import Api, find_api
from lawdiff.sources import nuxt
from lawdiff.sources.base import Block
from lawdiff.sources.nuxt import devalue

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "2017"
PATHS = {
    "/voorbereiding-en-voortgang/artikel-6": "nuxt-artikel-6.payload.json",
    "/spelen/juiste-gang-van-zaken/artikel-45": "nuxt-artikel-45.payload.json",
}
NAVIGATION = [
    {"title": "Voorwoord", "path": "/voorwoord", "page": False},
    {
        "title": "3 — Voorbereiding en voortgang",
        "path": "/voorbereiding-en-voortgang",
        "page": False,
        "children": [{"title": "Artikel 6", "path": "/voorbereiding-en-voortgang/artikel-6"}],
    },
    {
        "title": "6 — Het spelen",
        "path": "/spelen",
        "page": False,
        "children": [
            {
                "title": "Juiste gang van zaken",
                "path": "/spelen/juiste-gang-van-zaken",
                "page": False,
                "children": [{"title": "Artikel 45", "path": "/spelen/juiste-gang-van-zaken/artikel-45"}],
            }
        ],
    },
]


def encode(root: Any) -> bytes:
    """A payload's bytes (:func:`test_versions.encode`, the small devalue encoder)."""
    return devalue_text(root).encode("utf-8")


def site_payload(name: str, navigation: list[Any] = NAVIGATION) -> bytes:
    """A bundled payload with the small site's table of contents."""
    value = devalue.loads((CORPUS / name).read_text(encoding="utf-8")).value
    value["data"]["navigation_docs"] = navigation
    return encode(value)


@dataclass
class Site:
    """What the local server serves (path -> body), whether it answers conditional requests, and what it saw."""

    files: dict[str, bytes]
    etags: bool = True
    honours: bool = True  # answers If-None-Match with 304
    seen: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    url: str = ""

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        path = handler.path.split("?", 1)[0]
        self.seen.append((handler.command, handler.path, {k.lower(): v for k, v in handler.headers.items()}))
        if path == "/loop/_payload.json":
            handler.send_response(302)
            handler.send_header("Location", "/loop/_payload.json")
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        if path == "/broken/_payload.json":
            self._send(handler, 500, b"<h1>Internal Server Error</h1>")
            return
        if path == "/busy/_payload.json":
            handler.send_response(503)
            handler.send_header("Retry-After", "0")
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        body = self.files.get(path)
        if body is None:
            self._send(handler, 404, b"<h1>Not Found</h1>")
            return
        etag = f'"{hash(body) & 0xFFFFFFFF:08x}"'
        if self.etags and self.honours and handler.headers.get("If-None-Match") == etag:
            handler.send_response(304)
            handler.send_header("ETag", etag)
            handler.end_headers()
            return
        self._send(handler, 200, body, etag if self.etags else "")

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, body: bytes, etag: str = "") -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json" if body.startswith(b"[") else "text/html")
        handler.send_header("Content-Length", str(len(body)))
        if etag:
            handler.send_header("ETag", etag)
        handler.end_headers()
        handler.wfile.write(body)


@pytest.fixture()
def site() -> Iterator[Site]:
    files = {f"{path}/_payload.json": site_payload(name) for path, name in PATHS.items()}
    served = Site(files)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            served.answer(self)

        do_POST = do_GET

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    served.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _text(blocks: tuple[Block, ...]) -> list[tuple[str, str, str, str]]:
    return [(b.kind.value, b.label, b.title, b.text) for b in blocks]


def test_the_sites_payloads_read_as_the_bundled_ones() -> None:
    for name in PATHS.values():
        ours = nuxt.read(site_payload(name).decode("utf-8"), name)
        bundled = nuxt.read((CORPUS / name).read_text(encoding="utf-8"), name)
        assert [_text(p.blocks) for p in ours] == [_text(p.blocks) for p in bundled]
        assert ours[0].navigation != bundled[0].navigation


def test_the_site_is_crawled_into_files_named_as_the_bundled_ones(site: Site, tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    result = run("fetch", f"{site.url}/spelen/juiste-gang-van-zaken/artikel-45", "--site", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"2017: 2 payloads: 2 new -> {out}/2017\n"
        "  2017/nuxt-artikel-6.payload.json: new\n"
        "  2017/nuxt-artikel-45.payload.json: new\n"
    )
    assert sorted(p.name for p in (out / "2017").iterdir()) == sorted([MANIFEST, *PATHS.values()])
    check = run("check", "--corpus", str(out))
    assert check.exit_code == 0, check.output
    assert "(100.0%), 0 fragment(s) unplaced" in check.stdout and ".lawdiff" not in check.stdout
    agent = site.seen[0][2]["user-agent"]
    assert agent.startswith(f"lawdiff/{__version__} (") and "use --contact" in agent

    again = run("fetch", f"{site.url}/voorbereiding-en-voortgang/artikel-6/_payload.json", "--site", "-o", str(out))
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines()[0] == (
        "2017: 2 payloads: 2 not modified (conditional request)"
        f" (the server honours conditional requests) -> {out}/2017"
    )
    assert site.seen[-1][2]["if-none-match"].startswith('"')


def test_without_conditional_requests_only_changed_files_are_rewritten(site: Site, tmp_path: Path) -> None:
    site.etags = False
    out = tmp_path / "corpus"
    url = f"{site.url}/voorbereiding-en-voortgang/artikel-6"
    assert run("fetch", url, "--site", "-o", str(out), "--contact", "me@example.org").exit_code == 0
    assert "contact: me@example.org" in site.seen[0][2]["user-agent"]
    six = out / "2017" / "nuxt-artikel-6.payload.json"
    before = six.stat().st_mtime_ns
    key = "/spelen/juiste-gang-van-zaken/artikel-45/_payload.json"
    site.files[key] = site.files[key].replace(b"Gespeelde kaart", b"Gespeelde kaarten")
    again = run("fetch", url, "--site", "-o", str(out))
    assert again.stdout == (
        f"2017: 2 payloads: 1 unchanged (downloaded, not rewritten), 1 changed (the server gives no ETag or"
        f" Last-Modified: all downloaded, only changed files rewritten) -> {out}/2017\n"
        "  2017/nuxt-artikel-45.payload.json: changed\n"
    )
    assert six.stat().st_mtime_ns == before
    assert b"Gespeelde kaarten" in (out / "2017" / "nuxt-artikel-45.payload.json").read_bytes()


def test_a_server_that_ignores_conditional_requests_is_named(site: Site, tmp_path: Path) -> None:
    site.honours = False
    out = tmp_path / "corpus"
    url = f"{site.url}/spelen/juiste-gang-van-zaken/artikel-45"
    assert run("fetch", url, "--site", "-o", str(out)).exit_code == 0
    again = run("fetch", url, "--site", "-o", str(out))
    assert again.stdout == (
        "2017: 2 payloads: 2 unchanged (downloaded, not rewritten) (the server ignores conditional requests: all"
        f" downloaded, only changed files rewritten) -> {out}/2017\n"
    )
    assert "if-none-match" in site.seen[-1][2]


def test_a_page_the_site_no_longer_lists_is_said_and_left(site: Site, tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    url = f"{site.url}/spelen/juiste-gang-van-zaken/artikel-45"
    assert run("fetch", url, "--site", "-o", str(out)).exit_code == 0
    site.files[f"{url[len(site.url) :]}/_payload.json"] = site_payload("nuxt-artikel-45.payload.json", NAVIGATION[2:])
    again = run("fetch", url, "--site", "-o", str(out))
    assert again.stdout == (
        f"2017: 1 payloads: 1 changed, 1 no longer listed by the site (left in place) -> {out}/2017\n"
        "  2017/nuxt-artikel-45.payload.json: changed\n"
        "  2017/nuxt-artikel-6.payload.json: no longer listed by the site (left in place)\n"
    )
    assert (out / "2017" / "nuxt-artikel-6.payload.json").is_file()


def test_an_interrupted_crawl_resumes(site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "corpus"
    url = f"{site.url}/voorbereiding-en-voortgang/artikel-6"
    get = Client.get
    calls: list[str] = []

    def cut(self: Client, target: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(target)
        if len(calls) == 3:  # the start page, article 6, then Ctrl-C
            raise KeyboardInterrupt
        return get(self, target, *args, **kwargs)

    monkeypatch.setattr(Client, "get", cut)
    assert run("fetch", url, "--site", "-o", str(out)).exit_code != 0
    monkeypatch.setattr(Client, "get", get)
    assert sorted(p.name for p in (out / "2017").iterdir()) == [MANIFEST, "nuxt-artikel-6.payload.json"]
    stray = out / "2017" / ".lawdiff-fetch.tmp-k1ll3d"  # as a fetch killed while writing leaves one
    stray.write_bytes(b"[")
    resumed = run("fetch", url, "--site", "-o", str(out))
    assert resumed.stdout == (
        f"2017: 2 payloads: 1 checked before the interruption, 1 new -> {out}/2017\n"
        "  2017/nuxt-artikel-45.payload.json: new\n"
    )
    assert not stray.exists()
    assert calls == [
        f"{url}/_payload.json",
        f"{url}/_payload.json",
        f"{site.url}/spelen/juiste-gang-van-zaken/artikel-45/_payload.json",
    ]


def test_dry_run_lists_and_writes_nothing(site: Site, tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    result = run("fetch", f"{site.url}/voorbereiding-en-voortgang/artikel-6", "--site", "-o", str(out), "--dry-run")
    assert result.stdout == (
        f"2017: would fetch 2 payloads into {out}/2017:\n"
        f"  nuxt-artikel-6.payload.json <- {site.url}/voorbereiding-en-voortgang/artikel-6/_payload.json\n"
        f"  nuxt-artikel-45.payload.json <- {site.url}/spelen/juiste-gang-van-zaken/artikel-45/_payload.json\n"
    )
    assert not out.exists()


def _error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("lawdiff: error: "), result.stderr
    return result.stderr


def test_errors_are_one_line(site: Site, tmp_path: Path) -> None:
    out = str(tmp_path / "corpus")
    assert "not a MediaWiki: no api.php answered there" in _error(
        run("fetch", site.url, "--edition", "2017", "-o", out)
    )
    assert "500" in _error(run("fetch", f"{site.url}/broken", "--site", "-o", out))
    assert "no payload there (HTTP 404)" in _error(run("fetch", f"{site.url}/nothing", "--site", "-o", out))
    assert "redirect loop" in _error(run("fetch", f"{site.url}/loop", "--site", "-o", out))
    assert "stayed busy (HTTP 503) after 5 tries" in _error(run("fetch", f"{site.url}/busy", "--site", "-o", out))
    tls = _error(run("fetch", site.url.replace("http:", "https:"), "--edition", "2017", "-o", out))
    assert "the secure connection to 127.0.0.1" in tls and "(TLS: " in tls
    site.files["/plain/_payload.json"] = encode({"data": {"-page": {"title": "x"}}})
    assert "has no navigation_docs" in _error(run("fetch", f"{site.url}/plain", "--site", "-o", out))
    site.files["/html/_payload.json"] = b"<html></html>"
    assert "not a Nuxt page payload" in _error(run("fetch", f"{site.url}/html", "--site", "-o", out))
    with socket_closed() as port:
        refused = _error(run("fetch", f"http://127.0.0.1:{port}/", "--edition", "2017", "-o", out))
    assert f"cannot connect to 127.0.0.1:{port}" in refused
    assert "not a year" in _error(run("fetch", site.url, "--edition", "17", "-o", out))
    assert "give --edition YEAR" in _error(run("fetch", site.url, "-o", out))
    assert "--against lists its differences as text only" in _error(
        run("check", "--against", site.url, "--format", "json")
    )
    assert not Path(out).exists()


def test_an_answer_over_the_size_bound_is_refused(site: Site, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(fetch_client, "MAX_BYTES", 1000)
    result = run("fetch", f"{site.url}/voorbereiding-en-voortgang/artikel-6", "--site", "-o", str(tmp_path))
    assert "the answer is larger than 1,000 bytes" in _error(result)


def test_the_api_is_asked_where_the_server_answers(site: Site) -> None:
    site.files["/w/api.php"] = b'{"query": {"general": {"generator": "MediaWiki 1.39.17"}}}'
    redirect = site.answer

    def moved(self: Site, handler: BaseHTTPRequestHandler) -> None:
        if handler.path.startswith("/old/api.php"):
            handler.send_response(301)
            handler.send_header("Location", "/w/api.php?" + handler.path.partition("?")[2])
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        redirect(handler)

    site.answer = moved.__get__(site)  # type: ignore[method-assign]
    with Client() as client:
        assert find_api(client, f"{site.url}/old/api.php").url == f"{site.url}/w/api.php"
        assert find_api(client, f"{site.url}/wiki/Hoofdpagina").url == f"{site.url}/w/api.php"


def test_busy_servers_are_waited_for_as_they_ask(site: Site) -> None:
    waits: list[float] = []
    with Client(sleep=waits.append) as client, pytest.raises(FetchError):
        client.get(f"{site.url}/busy/_payload.json")
    assert waits == [0.0, 0.0, 0.0, 0.0]
    lagging = iter([b'{"error": {"code": "maxlag", "info": "Waiting for a database server: 7 seconds lagged"}}'])

    def maxlag_then_ok(self: Site, handler: BaseHTTPRequestHandler) -> None:
        self.seen.append((handler.command, handler.path, {}))
        body = next(lagging, b'{"batchcomplete": true, "query": {}}')
        handler.send_response(200)
        handler.send_header("Retry-After", "3")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    site.answer = maxlag_then_ok.__get__(site)  # type: ignore[method-assign]
    waits.clear()
    site.seen.clear()
    with Client(sleep=waits.append) as client:
        assert Api(client, f"{site.url}/api.php").query({"action": "query"}) == {"batchcomplete": True, "query": {}}
    assert waits == [3.0]
    assert len(site.seen) == 2 and all("maxlag=5" in path for _, path, _ in site.seen)
    waits.clear()
    with Client(sleep=waits.append) as client:
        for tries in (1, 2, 3, 4):
            client.wait_busy(site.url, tries, None, "HTTP 429")  # no Retry-After: a growing backoff
        with pytest.raises(FetchError, match="asks us to wait 600 s"):
            client.wait_busy(site.url, 1, 600.0, "HTTP 429")
    assert waits == [1.0, 2.0, 4.0, 8.0]


class socket_closed:
    """A port nothing listens on (bound, never listening, closed on exit)."""

    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        port: int = self.sock.getsockname()[1]
        return port

    def __exit__(self, *exc: object) -> None:
        self.sock.close()
