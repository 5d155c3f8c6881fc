"""A large MediaWiki export read in several processes, for ``lawdiff check``.

The parent reads the export and expands each page (what needs the whole
dump's text); the workers make each expanded page lines, a tree, its
accounting and its outline (nine tenths of the time), knowing only the
dump's titles.  The workers are forked before the export is read: forked
after, each would share the parent's copy of the dump and be counted with
it again in its resident memory; started afresh ("spawn"), each would run
the caller's main script again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lawdiff import forked
from lawdiff.corpus.outline import Record, record
from lawdiff.forked import can_fork
from lawdiff.forked import jobs as forked_jobs
from lawdiff.sources import READERS, SNIFF_BYTES, mediawiki
from lawdiff.sources.base import Page

if TYPE_CHECKING:
    from lawdiff.sources.mediawiki.transclusion import Expanded

__all__ = ["MAX_JOBS", "PARALLEL_MIN_BYTES", "jobs", "large_export", "records", "workers_for"]

# An export smaller than this is read in the one process (the workers cost
# a few tenths of a second).
PARALLEL_MIN_BYTES = 4_000_000
# How much expanded text makes a batch of pages, and how many batches are
# queued for each worker (one being read, one waiting in its pipe).
_BATCH_CHARS = 100_000
_QUEUED_PER_WORKER = 2


# The most processes check reads an export in unless LAWDIFF_JOBS says
# otherwise: each worker holds 40-50 MB (the interpreter, the titles, a batch
# of pages), and with the parent three stay well within 300 MB on the
# largest exports the wiki has.
MAX_JOBS = 3


def jobs() -> int:
    """How many processes read a large export: ``LAWDIFF_JOBS`` (as the report reads it), else one per CPU,
    at most :data:`MAX_JOBS`."""
    return forked_jobs(MAX_JOBS, "export")


def workers_for(path: Path) -> int:
    """How many workers read ``path`` beside this process: none for a file that is not a large MediaWiki
    export, or where processes cannot be forked."""
    n = jobs() - 1
    # (The file first: asking whether this process may fork loads multiprocessing.)
    if n < 1 or not large_export(path) or not can_fork():
        return 0
    return n


def large_export(path: Path) -> bool:
    """Whether iter_file would read the file as a MediaWiki export (the first streaming reader that claims it),
    and it is large enough to be worth the workers."""
    try:
        if path.stat().st_size < PARALLEL_MIN_BYTES:
            return False
        with path.open("rb") as stream:
            head = stream.read(SNIFF_BYTES).decode("utf-8", "replace")
    except OSError:
        return False  # iter_file says what is wrong
    reader = next((r for r in READERS if r.read_path is not None and r.looks_like(head)), None)
    return reader is not None and reader.name == mediawiki.FORMAT


def records(n: int, read: Callable[[], tuple[Callable[[Expanded], Page], Iterator[Expanded]]]) -> Iterator[Record]:
    """The record of each expanded page of an export, in order, made by ``n`` forked workers beside this
    process.  ``read()`` reads the export (:func:`lawdiff.sources.mediawiki.read_jobs`): it is called once
    the workers are forked (see :class:`lawdiff.forked.Stream`)."""
    with forked.Stream[Any, Record](n, queued=_QUEUED_PER_WORKER) as stream:
        render, expanded = read()
        yield from stream.map(functools.partial(_record, render), _batches(expanded))


def _record(render: Callable[[Expanded], Page], job: Expanded) -> Record:
    return record(render(job))


def _batches(expanded: Iterator[Expanded]) -> Iterator[list[Expanded]]:
    batch: list[Expanded] = []
    size = 0
    for job in expanded:
        batch.append(job)
        size += sum(len(f.text) for f in job.frags)
        if size >= _BATCH_CHARS:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch
