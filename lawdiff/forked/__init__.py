"""The one home of processes: every worker pool, the signals around a fork, and the garbage collector.

No other module forks, keeps module globals for workers, or calls :mod:`gc`:
each stage hands this module a function (a closure is fine: a forked child
inherits it, nothing is pickled on the way in) and gets results back.

Every worker has a pipe of its own: no queue, lock or thread is shared with
it.  ``multiprocessing.Pool`` shares all three, and its ``terminate()`` could
wait forever on the task queue's lock (a report whose first page failed hung
so), or on its task handler while its worker handler forked new workers in
place of the stopped ones (Ctrl-C in a report, about one time in thirty).

:func:`forked_map`: jobs handed to a few workers one at a time, each result
yielded as it comes (the report's pages, its comparisons); a job that fails
stops the others, Ctrl-C kills them.  A result is read from the pipe as it
comes, and what the parent and the workers both hold (an edition's texts) is
sent as a reference to the parent's own (:mod:`lawdiff.forked.wire`).

:func:`map_beside`: a loop whose items are shared between this process and
forked ones, each sending its results at the end, for work too short to pay
for more (reading a corpus's files, describing a comparison's changes).

:func:`beside`: one function run in a forked process while this one goes on
(the report's review, matched during the plan); :class:`Pending` waits for it.

:class:`Stream`: workers forked before the data they work on exists, fed
batches in order through a pipe each (a large export read by ``check``).

:func:`jobs`: how many processes, as ``LAWDIFF_JOBS`` or the processors say.

:func:`collector_paused`: the cyclic garbage collector off for a stage that
makes many objects and no cycles; :func:`collector_paused_for_command`: off for a whole command
(``compare``), what it made left out of the passes after it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lawdiff.forked.beside import Pending, RemoteTraceback, beside
from lawdiff.forked.control import (
    POOLS,
    STAGES,
    can_fork,
    collector_paused,
    collector_paused_for_command,
    interrupts_held,
    jobs,
    pooled,
    process_ends_with_command,
    shares,
)
from lawdiff.lazy import loader

if TYPE_CHECKING:
    from lawdiff.forked.pool import StopSignal, forked_map
    from lawdiff.forked.share import map_beside
    from lawdiff.forked.stream import Stream

# The pools, each by the module that holds it, loaded when first asked for: a stage
# that only pauses the collector (``lawdiff check`` of a folder of pages) loads none
# of them, nor :mod:`multiprocessing`.  (``beside`` is loaded now: it is also the
# name of its module, which importing it later would bind here in its place.)
_HOME = {
    "StopSignal": "lawdiff.forked.pool",
    "forked_map": "lawdiff.forked.pool",
    "map_beside": "lawdiff.forked.share",
    "Stream": "lawdiff.forked.stream",
}

__getattr__ = loader(globals(), _HOME)

__all__ = [
    "POOLS",
    "STAGES",
    "Pending",
    "RemoteTraceback",
    "StopSignal",
    "Stream",
    "beside",
    "can_fork",
    "collector_paused",
    "collector_paused_for_command",
    "forked_map",
    "interrupts_held",
    "jobs",
    "map_beside",
    "pooled",
    "process_ends_with_command",
    "shares",
]
