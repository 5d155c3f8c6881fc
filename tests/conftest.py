"""Shared fixtures: the bundled corpus, read once per test session."""

from __future__ import annotations

import os

import pytest

# The tests never read or fill the user's cache: a cached tree would hide a
# parser that a test breaks on purpose. The cache's own tests give a folder.
os.environ["LAWDIFF_CACHE"] = "off"

from lawdiff.corpus import Corpus, load


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return load()
