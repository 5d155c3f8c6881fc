"""How long ``lawdiff report`` takes: the bundled corpus and four full-size editions.

Run from the repository root::

    python3 benchmarks/bench_report.py            # best and median of 3 runs each
    python3 benchmarks/bench_report.py --runs 1

Each run is the whole command in a fresh process (``python3 -m lawdiff.cli
report --no-cache -o DIR``: cold, every run), as a committee member would run it: reading the corpus,
the comparisons, the histories, rendering and writing the site.  The
full-size editions are the benchmark's generated ones (``generate.py``: 93
articles x 4 editions), written as wiki pages.  The figures are printed and
written as JSON to ``benchmarks/output/bench_report.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402


def time_report(corpus: Path | None, out: Path, runs: int) -> dict[str, float | int]:
    times: list[float] = []
    peak_kib = 0
    for _ in range(runs):
        # --no-cache: each run cold (a run reading the previous run's cache would be a warm report).
        cmd = [sys.executable, "-m", "lawdiff.cli", "report", "--no-cache", "-o", str(out)]
        if corpus is not None:
            cmd += ["--corpus", str(corpus)]
        # Each run in a fresh child started from here, so that its peak RSS
        # is its own (a child forked from this process would inherit ours).
        cmd = [sys.executable, "-c", _MEASURE, *cmd]
        start = time.perf_counter()
        done = subprocess.run(cmd, check=True, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        peak_kib = max(peak_kib, int(done.stdout.strip().splitlines()[-1]))
    files = [p for p in out.rglob("*") if p.is_file()]
    return {
        "best_s": round(min(times), 3),
        "median_s": round(statistics.median(times), 3),
        "peak_rss_mb": round(peak_kib / 1024, 1),
        "files": len(files),
        "bytes": sum(p.stat().st_size for p in files),
    }


# Runs the command given as arguments and prints its peak RSS (KiB) last.
_MEASURE = (
    "import resource, subprocess, sys; "
    "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=HERE / "output" / "bench_report.json")
    args = parser.parse_args()
    results: dict[str, dict[str, float | int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        results["bundled corpus"] = time_report(None, root / "bundled-report", args.runs)
        editions = root / "editions"
        generate.write(generate.generate(), editions)
        results["4 full-size editions"] = time_report(editions, root / "full-report", args.runs)
    print("lawdiff report (whole command, fresh process; seconds)")
    for name, r in results.items():
        print(
            f"  {name:22} best {r['best_s']:7.3f}  median {r['median_s']:7.3f}  "
            f"peak RSS {r['peak_rss_mb']} MB  {r['files']} files, {int(r['bytes']) / 1e6:.1f} MB"
        )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
