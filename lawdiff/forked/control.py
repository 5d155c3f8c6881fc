"""What every pool of :mod:`lawdiff.forked` shares: how many processes, whether one may be forked, Ctrl-C
held around a fork, and the garbage collector around the work."""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import threading
from collections.abc import Iterator, Sequence


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the ``with`` block (and back on after it, if it was on).

    Reading a corpus, comparing two editions, walking every clause's history, matching a review store and
    making a report page each make hundreds of thousands of small objects (trees, vectors, records,
    strings), many kept to the end of the stage; each time enough have survived, the collector walks every
    object alive, the corpus included, and finds nothing to free.  At 744 articles that was a fifth of
    reading and of a comparison.  Reference counting still frees what each stage drops; only cycles wait
    for the collector to run again.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


# Whether this process ends when its command does: the ``lawdiff`` command itself (lawdiff.cli.run), not a
# test that runs commands in its own process.
_ENDS_WITH_COMMAND = False


def process_ends_with_command() -> None:
    """Say that this process ends when its command ends (:func:`lawdiff.cli.run` says it): what the command
    made is then left out of Python's last pass of the collector (:func:`collector_paused_for_command`)."""
    global _ENDS_WITH_COMMAND
    _ENDS_WITH_COMMAND = True


@contextlib.contextmanager
def collector_paused_for_command() -> Iterator[None]:
    """The cyclic garbage collector off for a whole command, and no pass over what the command made after it.

    :func:`collector_paused` turns the collector back on when its block ends, and the first object made
    after that starts a pass over every object the block made: a command of several paused stages
    (``compare``: reading, comparing) paid a pass over the corpus after each, and Python's last pass at
    exit over everything again, a twentieth of ``compare``'s time.  Here what the command made is frozen
    (``gc.freeze``: frozen objects are still freed by reference counting, but no pass walks them) when
    the process ends with the command (:func:`process_ends_with_command`); in a process that goes on
    (tests run commands in theirs) the collector is only turned back on, as :func:`collector_paused` does,
    so that cycles among them are collected (frozen, or moved to the oldest generation, they were not,
    and 45 commands run in one test process held 64 MB more).
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _ENDS_WITH_COMMAND:
            gc.freeze()
        if paused:
            gc.enable()


@contextlib.contextmanager
def frozen(freeze: bool) -> Iterator[None]:
    """What the workers inherit frozen out of the collector's passes while they run (``freeze``): each pass
    over the inherited plan cost a report's page worker a third of a second at 744 articles, and touched,
    and so copied, every page of memory it holds."""
    if not freeze:
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C held back while a process is forked and recorded, and delivered once it is.

    A terminal's Ctrl-C reaches every process of the command at once.  Landing between a fork and the
    parent's record of the child, it lost the child (nothing stopped it, and it outlived the command);
    landing in the child before the child ignores Ctrl-C, it printed the child's traceback beside the
    parent's ``Aborted!``.  Held, it reaches the parent after the record, and the child, which inherits the
    held mask, discards it as it ignores Ctrl-C (:func:`lawdiff.errors.leave_interrupts_to_parent`).
    """
    if not hasattr(signal, "pthread_sigmask"):  # no such mask on Windows, where nothing is forked
        yield
        return
    # The mask is read first and changed inside the try: pthread_sigmask runs the Python handlers of
    # signals already received, so a Ctrl-C that came just before would be raised from the call that
    # blocks it, and the mask left blocked.
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


# The stages that may work in several processes, and whether they do by default.  A pool is kept only
# where benchmarks/bench_processes.py shows that it costs at most 5 % more CPU time than one process,
# saves wall time on an idle machine, and loses none with a busy loop on every core beside it.  Measured
# on two cores (186 articles, medians of 3; pool / one process, CPU idle, wall idle, wall busy):
#   read      1.114  1.006  1.040   one process
#   describe  1.054  0.948  1.048   one process
#   compare   1.038  0.874  0.901   kept: the report's comparisons, a pair per process
#   pages     1.054  0.822  0.988   one process (its CPU just over the bound)
#   review    0.915  0.844  0.870   kept: the review matched beside the plan
#   export    1.175  0.704  0.746   one process (a large export's pages: 17 % more CPU)
# LAWDIFF_POOLS=all (or the stages' names) turns the others back on.
STAGES = ("read", "describe", "compare", "pages", "review", "export")
POOLS: dict[str, bool] = {stage: stage in ("compare", "review") for stage in STAGES}


def pooled(stage: str) -> bool:
    """Whether ``stage`` works in several processes: ``LAWDIFF_POOLS`` (``all``, ``none``, or the stages'
    names, comma-separated) when set, else :data:`POOLS`."""
    env = os.environ.get("LAWDIFF_POOLS", "").strip()
    if not env:
        return POOLS.get(stage, False)
    named = {n.strip() for n in env.split(",")}
    return "all" in named or stage in named


def jobs(most: int, stage: str | None = None) -> int:
    """How many processes a stage works in: 1 for a ``stage`` that works in one (:func:`pooled`), else
    ``LAWDIFF_JOBS`` when set, else one per CPU, at most ``most``."""
    if stage is not None and not pooled(stage):
        return 1
    env = os.environ.get("LAWDIFF_JOBS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, min(most, os.cpu_count() or 1))


def shares(weights: Sequence[int], processes: int) -> list[list[int]]:
    """The positions of ``weights`` dealt into ``processes`` shares of about equal weight (the heaviest
    first, each to the lightest share so far), each share in ascending order."""
    dealt: list[list[int]] = [[] for _ in range(processes)]
    loads = [0] * processes
    for i in sorted(range(len(weights)), key=lambda i: (-weights[i], i)):
        least = min(range(processes), key=loads.__getitem__)
        dealt[least].append(i)
        loads[least] += weights[i]
    return [sorted(share) for share in dealt]


def can_fork() -> bool:
    """Whether this process may fork a worker: the system forks, no other thread runs here (a child forked
    beside a running thread can inherit a lock that thread holds, such as the import lock, and wait on it
    forever: ``lawdiff serve`` reads the corpus again while it serves), and this is not itself a pool's
    worker (the report's comparisons are made in one each)."""
    import multiprocessing  # here, not at the top: ``check`` of a corpus of pages never forks

    return (
        "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and not multiprocessing.current_process().daemon  # a pool's worker (it may have no children)
    )
