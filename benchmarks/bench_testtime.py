"""How long the test command's pytest takes (issue 23), as whole processes: wall time and CPU time.

Run from the repository root, after ``sh scripts/test.sh`` has installed what the tests need (its
virtual environment, ``.venv-test``, is used when it is there)::

    python3 benchmarks/bench_testtime.py                  # the whole suite, then the tests of issue 23's day
    python3 benchmarks/bench_testtime.py --workers 2 3 4  # each worker count in turn
    python3 benchmarks/bench_testtime.py --only then --runs 3

``then`` is the tests the command ran when issue 23 was filed (``data/tests-at-issue-23.txt``, collected
at commit 1d0d395's parent), the ones the issue asks to run in at most 90 s of wall time on an idle
two-core machine; ``all`` is every test of today.  Each run is ``pytest -q -n N --dist loadgroup`` as
``scripts/test.sh`` runs it, with compiled modules kept (``PYTHONDONTWRITEBYTECODE`` unset); CPU time is
user and system time of pytest and every process it waited for.  A test of ``then`` that was renamed
since is not run (the script says how many of its ids it found).  Wall time means something only on an
idle machine: the load average is printed before each run.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
THEN = HERE / "data" / "tests-at-issue-23.txt"
sys.path.insert(0, str(HERE))

from testselect import key, named  # noqa: E402


def python() -> str:
    venv = ROOT / ".venv-test" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def environment(only: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if only == "then":
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE), env.get("PYTHONPATH", "")) if p)
        env["LAWDIFF_TESTS_FROM"] = str(THEN)
    return env


def found_of_then() -> tuple[int, int]:
    """How many of ``then``'s ids today's suite still has, of how many."""
    out = subprocess.run(
        [python(), "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=environment("all"),
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    today = {key(line) for line in out.splitlines() if "::" in line}
    wanted = named(THEN)
    return len(wanted & today), len(wanted)


def run(only: str, workers: int) -> tuple[float, float, str]:
    """One pytest run: wall seconds, CPU seconds (user + system, its children included), its last line."""
    args = [python(), "-m", "pytest", "-q", "-n", str(workers), "--dist", "loadgroup", "-p", "no:cacheprovider"]
    if only == "then":
        args += ["-p", "testselect"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, env=environment(only), capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    last = lines[-1] if lines else done.stderr.strip()[-200:]
    if done.returncode != 0:
        failed = "".join(f"\n  {line}" for line in lines if line.startswith(("FAILED", "ERROR")))
        sys.exit(f"bench_testtime: pytest exited {done.returncode}: {last}{failed}")
    return wall, cpu, re.sub(r"=+", "", last).strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--only", nargs="*", default=["all", "then"], choices=["all", "then"])
    parser.add_argument("--workers", nargs="*", type=int, default=[(os.cpu_count() or 1) + 1])
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    if "then" in args.only:
        found, wanted = found_of_then()
        print(f"then: {found} of its {wanted} tests are in today's suite (the others were renamed)")
    print("| tests | workers | load average before | wall | CPU | pytest says |")
    print("|---|---:|---|---:|---:|---|")
    for _ in range(args.runs):
        for only in args.only:
            for workers in args.workers:
                load = " ".join(f"{x:.1f}" for x in os.getloadavg())
                wall, cpu, said = run(only, workers)
                print(f"| {only} | {workers} | {load} | {wall:.1f} s | {cpu:.1f} s | {said} |", flush=True)


if __name__ == "__main__":
    main()
