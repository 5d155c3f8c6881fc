"""One headless Debian chromium driven by Playwright, for the browser tests of the report and of ``serve``.

``scripts/test.sh`` installs both (``apt-get install chromium-headless-shell``, and ``playwright`` from the test extra;
never ``playwright install``, which downloads a browser of its own).  Without them the browser tests are
skipped on a developer's machine and fail on CI (``CI=true``), so that CI never passes by skipping them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

# Debian's headless shell of chromium (package chromium-headless-shell, built from the same source as
# chromium), the browser Playwright itself runs headless: it has no windowing layer to start, and
# takes about half the CPU time of the whole browser for the same pages. The whole browser where only
# it is installed.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = HEADLESS_SHELL if HEADLESS_SHELL.is_file() else Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def unavailable(why: str) -> None:
    """Skip the test on a developer's machine; fail it on CI."""
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail(f"{why}: CI must run the browser tests (scripts/test.sh installs chromium and playwright)")
    pytest.skip(why)


def launch(p: Any) -> Any:
    """The headless chromium of a Playwright session (``sync_playwright()``), or the test skipped."""
    if not CHROMIUM.is_file():
        unavailable(f"{CHROMIUM} is missing (apt-get install chromium-headless-shell)")
    return p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
