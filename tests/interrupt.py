"""Ctrl-C as a terminal sends it: a command started in a process group of its own, interrupted once it is
at work, and what it must leave (one line, nothing running)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest


def interrupt(command: Sequence[str], cwd: Path, started: Callable[[], bool], what: str) -> None:
    """Run ``command`` with two processes and no cache, send Ctrl-C to its whole group once ``started()``,
    and check that it says ``Aborted!`` alone, fails, and leaves no process of its group running."""
    proc = subprocess.Popen(
        list(command),
        cwd=cwd,
        env={**os.environ, "LAWDIFF_JOBS": "2", "LAWDIFF_CACHE": "off"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a process group of its own, as a terminal's Ctrl-C reaches
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not started() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started(), f"{what} never started"
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode != 0
    assert err.decode().strip() == "Aborted!", err.decode()
    # Nothing of the command is left running: its output closed, every process of its group has ended or
    # is ending (a loaded machine may take a moment to reap the last; one left behind would sleep on).
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail(f"a process of the interrupted command ({what}) is still running after 5 s")
