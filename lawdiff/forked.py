"""A pool of forked worker processes that ignore Ctrl-C and are never left hanging.

``Pool.terminate()`` can wait forever on the task queue's lock while a worker
waits for a task (a report whose first page failed hung so, one full test run
in a few): a pool whose work failed is closed and joined instead, after
``on_failure`` has told the workers to stop; only Ctrl-C terminates it, so
that the pages or comparisons being made are not waited for.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
from collections.abc import Callable, Iterator

from lawdiff.errors import leave_interrupts_to_parent


@contextlib.contextmanager
def forked_pool(processes: int, on_failure: Callable[[], None] | None = None) -> Iterator[multiprocessing.pool.Pool]:
    """``processes`` forked workers (Ctrl-C is the parent's); closed and joined when the block ends or fails,
    terminated when it is interrupted."""
    pool = multiprocessing.get_context("fork").Pool(processes, leave_interrupts_to_parent)
    try:
        yield pool
    except Exception:
        if on_failure is not None:
            on_failure()
        pool.close()
        pool.join()
        raise
    except BaseException:
        pool.terminate()
        raise
    pool.close()
    pool.join()
