"""Shared fixtures: the bundled corpus, read once per test session."""

from __future__ import annotations

import pytest

from lawdiff.corpus import Corpus, load


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return load()
