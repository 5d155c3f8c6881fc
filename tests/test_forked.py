"""lawdiff.forked.map_beside: the loop's results and errors, shared with forked processes."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import sys
import threading
import time
from pathlib import Path

import pytest
from interrupt import interrupt

from lawdiff import forked
from lawdiff.corpus import load, reading
from lawdiff.diff.vocabulary import Change
from lawdiff.errors import InputError, LawdiffBug
from lawdiff.model import Edition

pytestmark = pytest.mark.skipif(not forked.can_fork(), reason="processes cannot be forked here")


def _pid_of(item: int) -> tuple[int, int]:
    return item * item, os.getpid()


def test_the_results_are_the_loops_in_its_order_and_another_process_made_some() -> None:
    items = list(range(40))
    made = forked.map_beside(_pid_of, items, [i % 7 + 1 for i in items], 3)
    assert [square for square, _ in made] == [i * i for i in items]
    pids = {pid for _, pid in made}
    assert os.getpid() in pids and len(pids) == 3


def test_the_first_error_in_the_items_order_is_raised_whichever_process_met_it() -> None:
    def work(item: int) -> int:
        if item in (5, 6, 30):
            raise InputError(f"bad item {item}", file=f"f{item}", place="3", fix="mend it")
        return item

    for processes in (1, 2, 3):
        with pytest.raises(InputError) as caught:
            forked.map_beside(work, list(range(40)), [1] * 40, processes)
        assert (caught.value.what, caught.value.file, caught.value.fix) == ("bad item 5", "f5", "mend it")


def test_a_share_whose_process_died_is_done_here() -> None:
    parent = os.getpid()

    def work(item: int) -> tuple[int, int]:
        if os.getpid() != parent:
            os._exit(3)  # killed before it sent anything
        return item, os.getpid()

    made = forked.map_beside(work, list(range(10)), [1] * 10, 2)
    assert made == [(i, parent) for i in range(10)]


def test_an_error_that_does_not_pickle_is_raised_as_a_bug_with_its_words() -> None:
    parent = os.getpid()

    class Unpicklable(Exception):
        def __reduce__(self) -> tuple[object, ...]:
            raise TypeError("no")

    def work(item: int) -> int:
        if os.getpid() != parent:
            raise Unpicklable("deep trouble")
        return item

    with pytest.raises(Exception, match="deep trouble") as caught:
        forked.map_beside(work, list(range(10)), [1] * 10, 2)
    assert "bug in lawdiff" in str(caught.value)


def test_with_another_thread_running_nothing_is_forked() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not forked.can_fork()
        made = forked.map_beside(_pid_of, list(range(10)), [1] * 10, 2)
    finally:
        stop.set()
        thread.join()
    assert {pid for _, pid in made} == {os.getpid()}


def test_shares_are_of_about_equal_weight_and_in_order() -> None:
    dealt = forked.shares([10, 1, 1, 1, 9, 1, 1], 2)
    assert sorted(i for share in dealt for i in share) == list(range(7))
    weights = [sum([10, 1, 1, 1, 9, 1, 1][i] for i in share) for share in dealt]
    assert abs(weights[0] - weights[1]) <= 1 and all(share == sorted(share) for share in dealt)


def test_a_corpus_read_in_several_processes_is_the_one_read_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWDIFF_JOBS", "1")
    alone = load()
    monkeypatch.setenv("LAWDIFF_JOBS", "3")
    monkeypatch.setattr(reading, "FORK_MIN_BYTES", 0)
    asked: list[int] = []
    real = forked.map_beside

    def counted(work, items, weights, processes):  # type: ignore[no-untyped-def]
        asked.append(processes)
        return real(work, items, weights, processes)

    # The reader loads the pool where it forks (from lawdiff.forked, when a corpus is large enough).
    monkeypatch.setattr(forked, "map_beside", counted)
    shared = load()
    assert asked == [3] and shared == alone


def test_a_bad_file_read_by_a_forked_process_is_named_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lawdiff.corpus.files import default_corpus

    for year in ("2007", "2017"):
        for page in sorted((default_corpus() / year).iterdir()):
            (tmp_path / f"{year}-{page.name}").write_bytes(page.read_bytes())
    bad = tmp_path / "zz-broken_payload.json"
    bad.write_text('{"data": [', encoding="utf-8")
    monkeypatch.setenv("LAWDIFF_JOBS", "2")
    monkeypatch.setattr(reading, "FORK_MIN_BYTES", 0)
    with pytest.raises(InputError) as caught:
        load([tmp_path])
    assert caught.value.file == str(bad)


_DRIVER = """
import os, sys, time, pathlib
marker = pathlib.Path(sys.argv[1])
import lawdiff.corpus.reading as reading
reading.FORK_MIN_BYTES = 0

def busy(*_args, **_kwargs):
    (marker / str(os.getpid())).touch()
    time.sleep(60)

reading.read_page = busy
from lawdiff.cli import main
main(sys.argv[2:])
"""


def test_ctrl_c_while_the_files_are_read_stops_every_reader_with_one_line(tmp_path: Path) -> None:
    marker = tmp_path / "busy"
    marker.mkdir()
    command = [sys.executable, "-c", _DRIVER, str(marker), "compare", "2007", "2017"]
    interrupt(command, tmp_path, lambda: len(list(marker.iterdir())) == 2, "the two readers")


def test_changes_described_in_several_processes_are_the_ones_described_in_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lawdiff.align import align
    from lawdiff.diff import changes
    from lawdiff.review import runs

    eds = {e.name: e for e in runs.timeline(load())}
    signalled = changes._signalled

    def noting(ch: Change, old: Edition, new: Edition) -> Change:
        (tmp_path / str(os.getpid())).touch()  # which processes made changes: each passes here once
        return signalled(ch, old, new)

    for old, new in (("1997", "2007"), ("2007", "2017")):
        alignment = align(eds[old], eds[new])
        alone = changes.describe(eds[old], eds[new], alignment)
        with monkeypatch.context() as patch:
            patch.setattr(changes, "FORK_MIN_LINKS", 0)
            patch.setattr(changes, "_signalled", noting)
            shared = changes.describe(eds[old], eds[new], alignment, processes=3)
        assert shared == alone and len(shared.changes) > 10
        made = {int(f.name) for f in tmp_path.iterdir()}
        assert os.getpid() in made and len(made) == 3
        for f in tmp_path.iterdir():
            f.unlink()


def _square(i: int) -> tuple[int, int]:
    return i * i, os.getpid()


def test_forked_map_yields_every_job_once_made_by_its_workers() -> None:
    made = dict(forked.forked_map(_square, 30, 3))
    assert sorted(made) == list(range(30)) and all(made[i][0] == i * i for i in made)
    pids = {pid for _, pid in made.values()}
    assert len(pids) == 3 and os.getpid() not in pids
    assert not multiprocessing.active_children()


def test_forked_map_results_refer_to_the_shared_objects_instead_of_copying_them() -> None:
    # The texts a comparison quotes are the parent's own, not copies (lawdiff.forked.wire); a string of the
    # same value that is not shared (made in the worker) comes back as a copy, and twice the same object once.
    shared = [f"text of clause {i} " * 20 for i in range(300)]
    shared.insert(5, shared[7])  # the same object named twice (two editions' texts)

    def work(i: int) -> tuple[str, str, list[str], str, int]:
        made = "".join(["made ", str(i)])
        return shared[i], shared[i], [shared[299 - i], made], made, os.getpid()

    made = dict(forked.forked_map(work, 30, 2, shared=shared))
    assert sorted(made) == list(range(30))
    for i, (a, b, (c, mine), again, pid) in made.items():
        assert a is shared[i] and b is shared[i] and c is shared[299 - i] and pid != os.getpid()
        assert mine == f"made {i}" and mine is again and all(mine is not s for s in shared)


def test_comparisons_made_in_workers_are_those_made_here_and_quote_the_editions_texts() -> None:
    from lawdiff.diff import Study

    corpus = load()
    alone = Study(corpus.select())
    pairs = list(itertools.pairwise(alone.editions))
    made_here = [alone.compare(old, new) for old, new in pairs]
    shared = Study(corpus.select())
    shared.prepare(pairs, 2)
    made = [shared.compare(old, new) for old, new in pairs]
    assert made == made_here
    texts = {id(s) for e in alone.editions for c in e.walk() for s in (c.text, c.title)}
    quoted = [t for comp in made for ch in comp.changes for t in ch.old_texts + ch.new_texts if t]
    assert quoted and all(id(t) in texts for t in quoted)  # the parent's own texts, not copies
    # The short pieces of the differences, equal, are one object.
    pieces = [p for comp in made for ch in comp.changes for p in ch.diff if len(p.text) <= 32]
    assert len({id(p) for p in pieces}) == len({(p.op, p.text) for p in pieces}) < len(pieces)


def test_forked_map_a_failed_job_stops_the_run_and_its_error_is_raised_here() -> None:
    told: list[bool] = []

    def work(i: int) -> int:
        if i == 4:
            raise InputError("page 4 is bad", file="p4")
        time.sleep(0.01)
        return i

    got: list[int] = []
    with pytest.raises(InputError, match="page 4 is bad"):
        for i, _ in forked.forked_map(work, 200, 2, lambda: told.append(True)):
            got.append(i)
    assert told == [True] and len(got) < 50  # no job was handed out once one had failed
    assert not multiprocessing.active_children()


def test_forked_map_a_worker_that_dies_is_an_internal_error_not_a_hang() -> None:
    def work(i: int) -> int:
        if i == 3:
            os._exit(9)
        return i

    with pytest.raises(LawdiffBug, match="exit code 9"):
        list(forked.forked_map(work, 10, 2))
    assert not multiprocessing.active_children()


def test_forked_map_a_consumer_that_stops_early_leaves_no_worker_running() -> None:
    def slow(i: int) -> int:
        time.sleep(0.2 if i else 0)
        return i

    run = forked.forked_map(slow, 50, 2)
    assert next(run)[0] in (0, 1)
    run.close()  # as a for loop left by an error in its body
    assert not multiprocessing.active_children()


# Ctrl-C landing in the moment after a fork, before the parent has the child in hand: os.fork is made to
# send it to the whole process group as it returns in the parent, at the second fork.
_FORK_WINDOW = """
import os, signal, sys, time
from lawdiff import forked

_fork = os.fork
forks = []

def fork():
    pid = _fork()
    if pid:
        forks.append(pid)
        if len(forks) == 2:
            os.killpg(0, signal.SIGINT)
    return pid

os.fork = fork
stage = sys.argv[1]
try:
    if stage == "forked_map":
        for _ in forked.forked_map(lambda i: time.sleep(30), 4, 3):
            pass
    elif stage == "map_beside":
        forked.map_beside(lambda i: time.sleep(30), list(range(6)), [1] * 6, 3)
    else:
        with forked.Stream(3):
            time.sleep(30)
except KeyboardInterrupt:
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        print("Aborted!", file=sys.stderr)
        sys.exit(1)
    print("Aborted, with a child of", len(forks), "left", file=sys.stderr)
    sys.exit(1)
print("not interrupted", file=sys.stderr)
"""


@pytest.mark.parametrize("stage", ["forked_map", "map_beside", "workers"])
def test_ctrl_c_just_after_a_fork_loses_no_child_and_prints_nothing_in_it(stage: str) -> None:
    """The signal is held while a process is forked and recorded: the parent stops and reaps every child
    it forked, and the child, which the signal reached too, says nothing (it printed a traceback of its
    own, and a child the parent had not yet recorded was left behind)."""
    import signal
    import subprocess

    try:
        done = subprocess.run(
            [sys.executable, "-c", _FORK_WINDOW, stage],
            capture_output=True,
            timeout=20,
            start_new_session=True,  # its own process group, which the driver interrupts whole
            # Ctrl-C as a terminal delivers it, even where the tests run in the background (a shell's
            # `&` starts them with SIGINT ignored, which Python would keep, raising nothing).
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    except subprocess.TimeoutExpired:  # its output stays open while a child it lost sleeps on
        pytest.fail("a forked child outlived the interrupted command")
    assert done.returncode == 1
    assert done.stderr.decode().strip() == "Aborted!", done.stderr.decode()


def test_a_ctrl_c_raised_as_it_is_held_leaves_it_unblocked(monkeypatch: pytest.MonkeyPatch) -> None:
    """pthread_sigmask runs the Python handlers of signals already received, after changing the mask: a
    Ctrl-C that came just before is raised from the call that blocks it (as the real call does, here made
    to), and the mask must still be put back."""
    import signal

    real = signal.pthread_sigmask

    def blocking_raises(how: int, mask: object) -> object:
        before = real(how, mask)
        if how == signal.SIG_BLOCK and signal.SIGINT in set(mask):
            raise KeyboardInterrupt
        return before

    monkeypatch.setattr(signal, "pthread_sigmask", blocking_raises)
    with pytest.raises(KeyboardInterrupt), forked.interrupts_held():
        pytest.fail("the interrupt is raised before the body")
    monkeypatch.undo()
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, ())
