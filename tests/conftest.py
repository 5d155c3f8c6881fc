"""Shared fixtures: the bundled corpus, read once per test session; one headless chromium per module."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

# The tests never read or fill the user's cache: a cached tree would hide a
# parser that a test breaks on purpose. The cache's own tests give a folder.
os.environ["LAWDIFF_CACHE"] = "off"

from chromium import launch, unavailable

from lawdiff.corpus import Corpus, load


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
