"""A pytest plugin for ``bench_testtime.py``: run only the tests a file names (``LAWDIFF_TESTS_FROM``).

Loaded with ``-p testselect`` (this folder on ``PYTHONPATH``), in the controller and in every xdist worker.
An id longer than 200 characters is named by ``sha256:<hex of its UTF-8>``; the ``@group`` that
``--dist loadgroup`` appends to a grouped test's id is not part of it.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest

_GROUP = re.compile(r"@[^@\]]*$")


def key(nodeid: str) -> str:
    """How the file names a test: its id, or the digest of a long one."""
    return nodeid if len(nodeid) <= 200 else "sha256:" + hashlib.sha256(nodeid.encode()).hexdigest()


def named(path: Path) -> set[str]:
    """The ids a file names (a line starting with ``#`` is a comment)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = named(Path(os.environ["LAWDIFF_TESTS_FROM"]))
    kept = [i for i in items if key(_GROUP.sub("", i.nodeid)) in wanted]
    left = [i for i in items if key(_GROUP.sub("", i.nodeid)) not in wanted]
    if left:
        config.hook.pytest_deselected(items=left)
    items[:] = kept
