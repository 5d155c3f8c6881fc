"""Pausing Python's cyclic garbage collector for a stage that makes many objects and no cycles.

Reading a corpus, comparing two editions, walking every clause's history,
matching a review store and making a report page each make hundreds of
thousands of small objects (trees, vectors, records, strings), many kept to
the end of the stage; each time enough have survived, the collector walks
every object alive, the corpus included, and finds nothing to free.  At 744
articles that was a fifth of reading and of a comparison, and a share that
grows with the editions.  Reference counting still frees what each stage
drops; only cycles wait for the collector to run again.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off for the ``with`` block (and back on after it, if it was on)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()
