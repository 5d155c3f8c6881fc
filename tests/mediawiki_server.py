"""A real MediaWiki for the tests of ``lawdiff fetch``: Debian's ``mediawiki`` package on SQLite.

``scripts/test.sh`` installs it (``apt-get install mediawiki php-sqlite3 php-cli``); without it the tests
that need it are skipped with the reason. The wiki is made once per test session: ``install.php`` in Dutch
(so that ``Sjabloon:`` is namespace 10) with Cite, the parser cache off, the test exports imported with
``importDump.php`` and ``runJobs.php`` run after (pages imported before their templates render red links
until then). Under pytest-xdist the first worker makes it under a lock in the session's shared folder;
every worker then serves a copy of its own (its edits are its own) with ``php -S`` on a free port, and
stops it at the end. Nothing is written outside the session's temporary folders: ``MW_CONFIG_FILE``
names the copy's ``LocalSettings.php``.

The test exports hold no ``Hoofdpagina``: the installer's main page would hide an imported one.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

MEDIAWIKI = Path("/usr/share/mediawiki")
MAINTENANCE = MEDIAWIKI / "maintenance"
ADMIN_PASSWORD = "Spelregels-test-2024"
# Written into the copy's LocalSettings.php in place of the master's.
_SERVER = "http://127.0.0.1:1"
# A test wiki need not survive a power cut: SQLite without fsync makes the import several times faster.
_SETTINGS = """
$wgDBservers = [ [ 'host' => '', 'dbname' => $wgDBname, 'user' => '', 'password' => '', 'type' => 'sqlite',
    'dbDirectory' => $wgSQLiteDataDir, 'load' => 1, 'flags' => DBO_DEFAULT,
    'variables' => [ 'synchronous' => 'OFF' ] ] ];
$wgParserCacheType = CACHE_NONE;
$wgMainCacheType = CACHE_NONE;
$wgShowExceptionDetails = true;
"""


def missing() -> str:
    """Why the wiki cannot be made here, or ""."""
    if not (MAINTENANCE / "install.php").is_file():
        return f"{MEDIAWIKI} is missing (apt-get install mediawiki php-sqlite3 php-cli)"
    if shutil.which("php") is None:
        return "php is missing (apt-get install php-cli)"
    modules = subprocess.run(["php", "-m"], capture_output=True, text=True, check=False).stdout.split()
    if "pdo_sqlite" not in modules:
        return "PHP's SQLite driver is missing (apt-get install php-sqlite3)"
    return ""


def _php(script: str, settings: Path, *args: str, stdin: str | None = None) -> str:
    env = {**os.environ, "MW_CONFIG_FILE": str(settings)}
    done = subprocess.run(
        ["php", str(MAINTENANCE / script), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{script} failed ({done.returncode}): {done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done.stdout


def _install(folder: Path, exports: list[Path]) -> None:
    """The master wiki in ``folder``: installed, exports imported, jobs run."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            "php", str(MAINTENANCE / "install.php"), "--quiet", "--dbtype", "sqlite", "--dbpath", str(folder / "db"),
            "--dbname", "wiki", "--lang", "nl", "--pass", ADMIN_PASSWORD, "--server", _SERVER, "--scriptpath", "",
            "--confpath", str(folder), "--extensions", "Cite", "--skins", "", "Spelregels", "Admin",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )  # fmt: skip
    settings = folder / "LocalSettings.php"
    text = settings.read_text(encoding="utf-8").replace("'synchronous' => 'NORMAL'", "'synchronous' => 'OFF'")
    settings.write_text(text + _SETTINGS, encoding="utf-8")
    for export in exports:
        _php("importDump.php", settings, str(export))
    _php("runJobs.php", settings)
    (folder / "done").write_text("ok\n", encoding="utf-8")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Wiki:
    """A served test wiki: its address, its settings, and edits through its maintenance scripts."""

    url: str
    settings: Path

    @property
    def api(self) -> str:
        return f"{self.url}/api.php"

    def edit(self, title: str, text: str) -> None:
        _php("edit.php", self.settings, "--user", "Admin", "--summary", "test", title, stdin=text)

    def text(self, title: str) -> str:
        params = {"action": "query", "prop": "revisions", "rvprop": "content", "rvslots": "main", "titles": title,
                  "format": "json", "formatversion": "2"}  # fmt: skip
        page = httpx.get(self.api, params=params, timeout=30).json()["query"]["pages"][0]
        content: str = page["revisions"][0]["slots"]["main"]["content"]
        return content


@contextmanager
def serve(shared: Path, own: Path, exports: list[Path]) -> Iterator[Wiki]:
    """The test wiki: the master made once in ``shared`` (under a lock), a copy in ``own`` served."""
    shared.mkdir(parents=True, exist_ok=True)
    master = shared / "mediawiki-master"
    with (shared / "mediawiki.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (master / "done").is_file():
            shutil.rmtree(master, ignore_errors=True)
            _install(master, exports)
    shutil.copytree(master / "db", own / "db")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    text = (master / "LocalSettings.php").read_text(encoding="utf-8")
    text = text.replace(str(master / "db"), str(own / "db")).replace(_SERVER, url)
    settings = own / "LocalSettings.php"
    settings.write_text(text, encoding="utf-8")
    env = {**os.environ, "MW_CONFIG_FILE": str(settings)}
    log = (own / "server.log").open("w")
    server = subprocess.Popen(
        ["php", "-S", f"127.0.0.1:{port}", "-t", str(MEDIAWIKI)], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if (
                    httpx.get(f"{url}/api.php", params={"action": "query", "format": "json"}, timeout=5).status_code
                    == 200
                ):
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the test wiki did not start: {(own / 'server.log').read_text(encoding='utf-8')[-2000:]}")
            time.sleep(0.05)
        yield Wiki(url, settings)
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
