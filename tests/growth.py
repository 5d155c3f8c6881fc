"""Growth checks: a step given four times its input may take at most ten times its CPU time.

A linear step takes four times as long, a quadratic one sixteen.  A smaller input done in under FLOOR
counts as FLOOR, so that a step of hundredths of a second is not failed by a moment of the host's (see
tests/test_linear_wikitext.py for why in a virtual machine).  The bigger input's run is stopped once it
has taken the bound (a quadratic step would take minutes) and counted as that.
"""

from __future__ import annotations

import gc
import signal
import time
from collections.abc import Callable

GROWTH = 4
BOUND = 10.0
FLOOR = 0.1  # CPU seconds


class _OutOfTime(Exception):
    pass


def _out_of_time(*_args: object) -> None:
    raise _OutOfTime


def seconds(step: Callable[[], object], most: float = 600.0) -> float:
    """CPU seconds of ``step``, stopped at ``most`` and counted as that."""
    gc.collect()
    before = signal.signal(signal.SIGPROF, _out_of_time)
    try:
        signal.setitimer(signal.ITIMER_PROF, most)  # this process's CPU time, as process_time counts it
        start = time.process_time()
        try:
            step()
        except _OutOfTime:
            return most
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        return time.process_time() - start
    finally:
        signal.signal(signal.SIGPROF, before)


def grows_linearly(make: Callable[[int], Callable[[], object]], n: int, what: str) -> None:
    """``make(n)`` and ``make(GROWTH * n)`` give steps; the second may take less than BOUND times the first."""
    small = max(seconds(make(n)), FLOOR)
    big = seconds(make(GROWTH * n), most=BOUND * small)
    assert big < BOUND * small, f"{GROWTH} times the {what} took {big / small:.1f} times as long or more"
