"""Shared fixtures: the bundled corpus, read once per test session; one headless chromium per module.

``scripts/test.sh`` runs the tests on every core (pytest-xdist, one worker per CPU and one more,
``--dist loadgroup``): a session is then one worker's, and each worker makes its own session fixtures, in
its own temporary folder.  ``pytest_collection_modifyitems`` below keeps tests that share an expensive
fixture on one worker, so that it is still made once.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# The tests never read or fill the user's cache: a cached tree would hide a
# parser that a test breaks on purpose. The cache's own tests give a folder.
os.environ["LAWDIFF_CACHE"] = "off"
# Nor a review store of the user's: one named by the environment, or one in the folder the tests
# are run from (a checkout where `lawdiff review` was tried holds lawdiff-review.sqlite), would
# show its decisions in every report and comparison. The store's own tests name theirs.
os.environ.pop("LAWDIFF_REVIEW", None)
# The interface in English, whatever the user's locale or configuration (LANG=nl_NL, lang = "nl"): the tests
# of the Dutch interface choose it themselves (tests/test_i18n_cli.py).
os.environ["LAWDIFF_LANG"] = "en"

from chromium import launch, unavailable
from office import Office, start

from lawdiff.corpus import Corpus, load

# On CI the property tests draw the same examples on every run (hypothesis's derandomize), so that a
# submission's CI does not pass or fail by the draw; a developer's runs still draw afresh and find
# new cases (tests/test_minutes.py's bare domain was found so), which then become examples.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# The modules that take longest (their browsers, LibreOffice, the growth checks, the generated corpora),
# longest first (their wall time on an idle two-core machine, 2026-12-02): scheduled first, so that
# while one worker holds a long group the other takes the many short tests, and no long test is left
# to run alone at the end (xdist hands out the tests in this order, one unit at a time, as a worker
# runs short: test_words_long's 12-second property test, last in the alphabet, ran alone at the end
# of a whole run for as long as it takes, the other worker done).
FIRST = (
    "tests/test_browser_report.py",
    "tests/test_serve_browser.py",
    "tests/test_hostile.py",
    "tests/test_agreement.py",
    "tests/test_roundtrip.py",
    "tests/test_linear_wikitext.py",
    "tests/test_cache_differential.py",
    "tests/test_browser.py",
    "tests/test_words_long.py",
    "tests/test_smoke.py",
    "tests/test_html.py",
    "tests/test_check_stream.py",
    "tests/test_serve_meeting.py",
    "tests/test_fetch_wiki.py",
    "tests/test_serve.py",
    "tests/test_jsontext.py",
    "tests/test_review_concurrency.py",
    "tests/test_scale.py",
)


# First, before xdist's own hook of the same name reads the marks (run after it, the groups were
# ignored and each browser module started its browser on both workers).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup``, the tests that share a fixture made once per module (or class), the
    browsers among them, run on one worker; every other test goes to whichever worker is free, the
    longest modules (:data:`FIRST`) first.  The browser modules are groups of their own, so that they
    share the workers (a minute and a half of browser tests on one worker held the whole run).
    Without xdist the mark does nothing."""
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(FIRST)))  # stable: the rest keep their order
    for item in items:
        # pytest has no public name for the fixtures a test uses with their scopes; plugins read this one.
        defs = getattr(item, "_fixtureinfo", None)
        named = defs.name2fixturedefs if defs is not None else {}
        if any(d.scope in ("module", "class", "package") for ds in named.values() for d in ds):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


@pytest.fixture(scope="session", autouse=True)
def _away_from_the_users_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Run the tests from a folder of their own (see above): the default store is looked for there."""
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    yield
    os.chdir(here)


@pytest.fixture(scope="session", autouse=True)
def _every_pool_on() -> Iterator[None]:
    """Every stage that may fork does, in the tests and the commands they start (``LAWDIFF_POOLS=all``):
    the tests of the pools, of Ctrl-C in their workers and of their results being the one process's
    hold for every pool, whichever the default table (``lawdiff.forked.POOLS``) keeps."""
    before = os.environ.get("LAWDIFF_POOLS")
    os.environ["LAWDIFF_POOLS"] = "all"
    yield
    if before is None:
        os.environ.pop("LAWDIFF_POOLS", None)
    else:
        os.environ["LAWDIFF_POOLS"] = before


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache of the test's own (``LAWDIFF_CACHE``), for the tests of the cache and what it keeps."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("LAWDIFF_CACHE", str(folder))
    yield folder


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return load()


@pytest.fixture(scope="session")
def bundled_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``lawdiff report`` of the bundled corpus, written once per session: the browser tests only read it."""
    from click.testing import CliRunner

    from lawdiff.cli import main

    folder = tmp_path_factory.mktemp("bundled") / "report"
    result = CliRunner().invoke(main, ["report", "-o", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture(scope="session")
def office(tmp_path_factory: pytest.TempPathFactory) -> Office:
    """Headless LibreOffice from a profile made once per session (``tests/office.py``), or the test
    skipped (failed on CI)."""
    return start(tmp_path_factory.mktemp("office") / "profile")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, driven by Playwright (see ``tests/chromium.py``).  One per module, not per
    session: while Playwright runs, asyncio keeps a thread waiting on its driver process, and beside a
    thread lawdiff forks no worker (``lawdiff.forked.can_fork``), so the tests of forking that came
    after the browser tests on the same worker would run unforked."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is missing (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()
