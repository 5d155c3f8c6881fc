"""Whether each pool of lawdiff.forked pays for itself: one stage in several processes against none.

Run from the repository root with lawdiff installed::

    python3 benchmarks/bench_processes.py              # every stage, idle and busy (about 10 minutes)
    python3 benchmarks/bench_processes.py --runs 3 --stages compare,pages --articles 186

For each stage that may fork (``lawdiff.forked.STAGES``), the command that
uses it runs with that stage's pool alone (``LAWDIFF_POOLS=<stage>``) and
with none (``LAWDIFF_POOLS=none``), in turn (A B A B ...), as whole processes
(``bench_speed.Timer``: wall time, and CPU time of every process of the
command, children included); the ratios are medians of the per-run ratios.
Then the same again with a busy loop on every core beside it
(``--busy``, the default does both).  The rule of issue 22, which
``lawdiff.forked.POOLS`` follows: keep a pool only where it costs at most 5 %
more CPU time, saves wall time on an idle machine, and loses none with the
busy loops.

The commands, on the generator's editions (``generate.py``, as bench_speed
makes them) and, for ``export``, a MediaWiki export of section pages
(``bench_xml.generate_sections``):

* read, describe: ``lawdiff compare 2007 2017 --no-cache``;
* compare, pages: ``lawdiff report --no-cache`` (four editions);
* review: ``lawdiff report --no-cache --review STORE`` with a decision on
  every change of the three pairs;
* export: ``lawdiff check --no-cache dump.xml``.

The figures are printed and written to ``benchmarks/output/bench_processes.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_review  # noqa: E402
import bench_speed  # noqa: E402
import bench_xml  # noqa: E402

from lawdiff.forked import STAGES  # noqa: E402

LAWDIFF = bench_speed.LAWDIFF


def _spin() -> None:
    while True:
        pass


@contextlib.contextmanager
def busy(on: bool) -> Iterator[None]:
    """A busy loop on every core for the ``with`` block (none when ``on`` is false)."""
    procs = [multiprocessing.Process(target=_spin, daemon=True) for _ in range((os.cpu_count() or 1) if on else 0)]
    for p in procs:
        p.start()
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.join()


def review_store(corpus: Path, work: Path, env: dict[str, str]) -> Path:
    """A review store with a decision on every change of the report's three pairs (bench_review's export,
    its 50,000 comments included), imported as a committee would."""
    store, export = work / "review.sqlite", work / "export.jsonl"
    bench_review.build_export(corpus, export)
    subprocess.run([*LAWDIFF, "review", "import", str(export), "--review", str(store)], env=env, check=True,
                   capture_output=True)  # fmt: skip
    return store


def commands(work: Path, articles: int, env: dict[str, str]) -> dict[str, list[str]]:
    corpus, _ = bench_speed.make_corpus(work / "gen", articles)
    report = [*LAWDIFF, "report", "--corpus", str(corpus), "-o", str(work / "report"), "--no-cache"]
    (work / "xml").mkdir()
    bench_xml.generate_sections(work / "xml", max(200, articles * 4))
    return {
        "read": [*LAWDIFF, "compare", "2007", "2017", "--corpus", str(corpus), "--no-cache"],
        "describe": [*LAWDIFF, "compare", "2007", "2017", "--corpus", str(corpus), "--no-cache"],
        "compare": [*report, "--no-review"],
        "pages": [*report, "--no-review"],
        "review": [*report, "--review", str(review_store(corpus, work, env))],
        "export": [*LAWDIFF, "check", "--no-cache", str(work / "xml" / "dump.xml")],
    }


def measure(timer: bench_speed.Timer, cmd: Sequence[str], stage: str, runs: int) -> dict[str, float]:
    """Median per-run ratios of the stage's pool alone against one process, wall and CPU."""
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(runs):
        pooled = timer.once(cmd, {**timer.env, "LAWDIFF_POOLS": stage})
        alone = timer.once(cmd, {**timer.env, "LAWDIFF_POOLS": "none"})
        walls.append(pooled[0] / alone[0])
        cpus.append(pooled[1] / alone[1])
    return {"wall": round(statistics.median(walls), 3), "cpu": round(statistics.median(cpus), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--articles", type=int, default=186)
    parser.add_argument("--stages", default=",".join(STAGES))
    parser.add_argument("--busy", choices=["both", "idle", "busy"], default="both")
    parser.add_argument("--json", type=Path, default=HERE / "output" / "bench_processes.json")
    args = parser.parse_args()
    stages = [s for s in args.stages.split(",") if s]
    out: dict[str, object] = {"runs": args.runs, "articles": args.articles, "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = bench_speed.installed_env(work)
        timer = bench_speed.Timer(args.runs, env)
        cmds = commands(work, args.articles, env)
        results: dict[str, dict[str, object]] = {}
        for stage in stages:
            row: dict[str, object] = {}
            for load in ("idle", "busy"):
                if args.busy not in ("both", load):
                    continue
                with busy(load == "busy"):
                    time.sleep(0.5)
                    row[load] = measure(timer, cmds[stage], stage, args.runs)
            idle = row.get("idle", {})
            loaded = row.get("busy", {})
            assert isinstance(idle, dict) and isinstance(loaded, dict)
            row["keep"] = bool(idle and loaded and idle["cpu"] <= 1.05 and idle["wall"] < 1.0 and loaded["wall"] <= 1.0)
            results[stage] = row
            print(f"{stage:9} {json.dumps(row)}", flush=True)
        out["stages"] = results
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print("keep:", ", ".join(s for s, r in results.items() if r["keep"]) or "none")


if __name__ == "__main__":
    main()
