"""Shared fixtures: the bundled corpus, read once per test session; one headless chromium per module."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The tests never read or fill the user's cache: a cached tree would hide a
# parser that a test breaks on purpose. The cache's own tests give a folder.
os.environ["LAWDIFF_CACHE"] = "off"
# Nor a review store of the user's: one named by the environment, or one in the folder the tests
# are run from (a checkout where `lawdiff review` was tried holds lawdiff-review.sqlite), would
# show its decisions in every report and comparison. The store's own tests name theirs.
os.environ.pop("LAWDIFF_REVIEW", None)

from chromium import launch, unavailable

from lawdiff.corpus import Corpus, load


@pytest.fixture(scope="session", autouse=True)
def _away_from_the_users_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Run the tests from a folder of their own (see above): the default store is looked for there."""
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    yield
    os.chdir(here)


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache of the test's own (``LAWDIFF_CACHE``), for the tests of the cache and what it keeps."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("LAWDIFF_CACHE", str(folder))
    yield folder


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return load()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, driven by Playwright (see ``tests/chromium.py``)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is missing (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()
