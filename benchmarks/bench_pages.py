"""The pages of a report made in one process: what ``report`` spends after reading, comparing and planning.

Run from the repository root::

    python3 benchmarks/bench_pages.py                                  # this checkout, 5 turns
    python3 benchmarks/bench_pages.py --before /tmp/base --turns 10    # and another checkout's, in turn

The corpus is ``bench_cost.py``'s held-out few-change corpus (``heldout.build_corpus``, ``--articles``,
four editions).  Each checkout's lawdiff is imported in this process in turn (the modules of the one before
dropped first), reads the corpus, compares its three pairs and plans the report once; then every turn makes
every page of the report, with the collector off and the site planned afresh, in each checkout's code one
after the other (the order swapped every turn).  The figure is CPU time of the pages alone (the plan and the
writing of the files not counted): whole processes under load vary by more than a change to the pages saves,
the same work in one process does not.  Printed, and written to ``benchmarks/output/bench_pages.json``.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from heldout import DEFAULT_ARTICLES, build_corpus  # noqa: E402

# Makes every page of the report once and returns its CPU seconds and the characters it made.
Maker = Callable[[], tuple[float, int]]


def load(root: Path, corpus: Path) -> Maker:
    """The lawdiff of checkout ``root``, imported afresh, with ``corpus`` read, compared and ready to plan."""
    for name in [m for m in sys.modules if m == "lawdiff" or m.startswith("lawdiff.")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        lawdiff = importlib.import_module("lawdiff")
        if not str(lawdiff.__file__).startswith(str(root)):
            raise SystemExit(f"bench_pages: {root} has no lawdiff of its own (imported {lawdiff.__file__})")
        corpora = importlib.import_module("lawdiff.corpus")
        diff = importlib.import_module("lawdiff.diff")
        site_module = importlib.import_module("lawdiff.report.site")
        pages = importlib.import_module("lawdiff.report.html").pages
    finally:
        sys.path.remove(str(root))
    read = corpora.load([corpus], (), None, [])
    study = diff.Study(tuple(read.select()))
    for old, new in zip(study.editions, study.editions[1:], strict=False):
        study.compare(old, new)

    def make() -> tuple[float, int]:
        site_module.anchor.cache_clear()
        site = site_module.plan(read, study)
        for e in study.editions:
            e.digest()
        gc.collect()
        start = time.process_time()
        chars = 0
        for _path, content in pages(site):
            made: Any = content() if callable(content) else content
            chars += len(made) if isinstance(made, str | bytes) else sum(map(len, made))
        return time.process_time() - start, chars

    return make


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--articles", type=int, default=DEFAULT_ARTICLES)
    parser.add_argument("--before", type=Path, help="another checkout, whose pages are made in the same turns")
    parser.add_argument("--json", type=Path, default=HERE / "output" / "bench_pages.json")
    args = parser.parse_args()
    os.environ["LAWDIFF_JOBS"] = "1"  # the comparisons in this process: its modules are the ones timed
    with tempfile.TemporaryDirectory() as tmp:
        held = build_corpus(Path(tmp) / "few", args.articles, "few")
        makers = {"after": load(ROOT, held.corpus)}
        if args.before is not None:
            makers["before"] = load(args.before.resolve(), held.corpus)
        gc.disable()
        for make in makers.values():
            make()  # once untimed: the memos and the modules' first calls
        seconds: dict[str, list[float]] = {name: [] for name in makers}
        ratios: list[float] = []
        loads: list[float] = []
        for turn in range(args.turns):
            loads.append(os.getloadavg()[0])
            names = list(makers) if turn % 2 == 0 else list(reversed(makers))
            made = {name: makers[name]() for name in names}
            for name, (cpu, _chars) in made.items():
                seconds[name].append(cpu)
            if "before" in made:
                if made["before"][1] != made["after"][1]:
                    print("bench_pages: the two checkouts made pages of different sizes", file=sys.stderr)
                ratios.append(made["after"][0] / made["before"][0])
            said = "  ".join(f"{name} {cpu:.3f} s" for name, (cpu, _c) in made.items())
            print(f"turn {turn + 1}: {said}  load {loads[-1]:.1f}", flush=True)
    result: dict[str, Any] = {
        "articles": args.articles,
        "turns": args.turns,
        "load": [min(loads), max(loads)],
        "seconds": {name: {"min": min(s), "median": statistics.median(s), "runs": s} for name, s in seconds.items()},
    }
    for name, s in seconds.items():
        print(f"{name}: the pages {min(s):.3f} s (min), {statistics.median(s):.3f} s (median)")
    if ratios:
        result["after_over_before"] = {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios)}
        spread = f"{min(ratios):.3f}-{max(ratios):.3f}"
        print(f"after / before: {statistics.median(ratios):.3f} (median of the turns; {spread})")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
