"""Speed as ratios measured in one run: lawdiff against difflib and git, and against itself.

Run from the repository root with lawdiff installed::

    python3 benchmarks/bench_speed.py                 # everything (several minutes)
    python3 benchmarks/bench_speed.py --parts ratios  # only the ratios at 93 and 186 articles
    python3 benchmarks/bench_speed.py --runs 3 --parts cache,help

Every figure is a whole process (``python3 -m lawdiff.cli ...``, the
baselines as ``python3 -c ...`` and ``git diff``), timed several times with
the commands interleaved (so that a busy spell of the shared machine hits all
of them alike), and reported as medians; a ratio is the median of the per-run
ratios, given twice in every part: of wall time (``ratios``: what a user
waits) and of CPU time, user and system, the command's processes included
(``cpu ratios``: steady on a shared machine).  The editions are the generator's (``generate.py``: 93
articles of about 10 clauses each, four editions with known edits), written as
wiki pages; the baselines read the same editions flattened to one plain text
per edition (the pages' lines).

Parts:

* ``ratios``: ``lawdiff compare`` of one pair (2007 -> 2017), cold (no cache),
  against ``difflib.HtmlDiff().make_file`` of that pair and ``git diff
  --no-index --word-diff``; ``lawdiff report`` of the four editions, cold,
  against difflib.HtmlDiff of the three consecutive pairs in one process; at
  93 and 186 articles.
* ``scaling``: compare and report at 1x, 2x, 4x and 8x articles, and the
  exponents of a least-squares fit of log(time) on log(size), for the wall
  time and for the CPU time (of all the command's processes); peak RSS (of
  its largest process) of each.
* ``boilerplate``: the generator's boilerplate editions (every article in one
  article's wording) against the distinct ones, compare and report, at 93 and
  186 articles.
* ``cache``: a warm ``compare`` (nothing changed) against a cold one (empty
  cache), and the same warm ``compare`` without the answer it kept (its pages
  and comparison read back); a warm ``report`` after one article page of the newest edition
  changed against a cold one (its pages, pairs and word differences kept); the cold one
  against one without the cache (what keeping costs); the outputs compared byte for byte.
* ``help``: ``lawdiff --help`` against ``python3 -c "import click"``.

The figures are printed and written as JSON to
``benchmarks/output/bench_speed.json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

PY = sys.executable
LAWDIFF = [PY, "-m", "lawdiff.cli"]

# Runs the command given as arguments, its output thrown away, and prints the
# peak RSS (KiB) of its largest process and the CPU seconds of all its
# processes (report's workers included): a fresh child started from here, so
# that its peak is its own (a child forked from this process would inherit ours).
_MEASURE = (
    "import resource, subprocess, sys; "
    "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
    "print(done.returncode, done.stderr.decode()[-300:].replace(chr(10), ' ') if done.returncode > 1 else ''); "
    "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print(u.ru_maxrss, u.ru_utime + u.ru_stime)"
)

_DIFFLIB = (
    "import difflib, sys\n"
    "args = sys.argv[1:]\n"
    "for a, b in zip(args[::2], args[1::2]):\n"
    "    old = open(a, encoding='utf-8').read().splitlines()\n"
    "    new = open(b, encoding='utf-8').read().splitlines()\n"
    "    difflib.HtmlDiff().make_file(old, new)\n"
)


def installed_env(work: Path, **extra: str) -> dict[str, str]:
    """The environment of the timed commands: lawdiff's modules byte-compiled first, as ``pip install``
    leaves them, into a pycache folder under ``work`` (never the checkout's).

    A machine with ``PYTHONDONTWRITEBYTECODE`` set (as this one is) would otherwise compile every module
    from source in every run, a tenth of a second that no installed lawdiff pays and the baselines
    (difflib from the standard library's own bytecode) never pay either.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    env.update(extra)
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "lawdiff")], check=True, env=env, capture_output=True)
    return env


class Timer:
    """Whole-process timings of several commands, interleaved run by run."""

    def __init__(self, runs: int, env: dict[str, str]) -> None:
        self.runs = runs
        self.env = env

    def once(self, cmd: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
        """Wall seconds (with the measuring process's start), CPU seconds and peak RSS (KiB) of one run."""
        start = time.perf_counter()
        done = subprocess.run(
            [PY, "-c", _MEASURE, *cmd], check=True, capture_output=True, text=True, env=env or self.env
        )
        seconds = time.perf_counter() - start
        status, usage = done.stdout.strip().splitlines()[-2:]
        # 0, or 1 from git diff (it found differences): anything else is a failure.
        if int(status.split()[0]) > 1:
            raise SystemExit(f"{' '.join(cmd)} failed: {status}")
        peak, cpu = usage.split()
        return seconds, float(cpu), int(peak)

    def compare(
        self, commands: dict[str, Sequence[str]], before: Callable[[str], dict[str, str] | None] | None = None
    ) -> dict[str, dict[str, float]]:
        """Median wall and CPU seconds and peak RSS (MB) of each command; ``before(name)`` may set up a run
        (and give its env)."""
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        peaks: dict[str, int] = dict.fromkeys(commands, 0)
        for _ in range(self.runs):
            for name, cmd in commands.items():
                env = before(name) if before else None
                seconds, cpu, peak = self.once(cmd, env)
                times[name].append(seconds)
                cpus[name].append(cpu)
                peaks[name] = max(peaks[name], peak)
        return {
            name: {
                "median_s": round(statistics.median(t), 4),
                "best_s": round(min(t), 4),
                "median_cpu_s": round(statistics.median(cpus[name]), 4),
                "peak_rss_mb": round(peaks[name] / 1024, 1),
                # Each run's figures, in the order the runs were made (the commands in turn, A B A B), so
                # that a ratio is the median of the per-run ratios: a busy spell hits both sides of a run.
                "runs_s": [round(x, 4) for x in t],
                "runs_cpu_s": [round(x, 4) for x in cpus[name]],
            }
            for name, t in times.items()
        }


def make_corpus(root: Path, articles: int, boilerplate: bool = False) -> tuple[Path, dict[str, Path]]:
    """Four generated editions as wiki pages under ``root``, and each flattened to one text."""
    gen = generate.generate(articles=articles, boilerplate=boilerplate)
    corpus = root / "corpus"
    generate.write(gen, corpus)
    flat: dict[str, Path] = {}
    for edition in gen.editions:
        path = root / f"flat-{edition.name}.txt"
        path.write_text(generate.flatten(edition), encoding="utf-8")
        flat[edition.name] = path
    return corpus, flat


def ratio(a: dict[str, Any], b: dict[str, Any], of: str = "runs_s") -> float:
    """The median of the per-run ratios of ``a`` to ``b``: wall time (``runs_s``), or CPU time of every
    process of the command (``runs_cpu_s``), which a shared machine disturbs far less."""
    pairs = [x / y for x, y in zip(a[of], b[of], strict=True) if y]
    return round(statistics.median(pairs), 3) if pairs else math.inf


def cpu_ratios(r: dict[str, Any], named: dict[str, tuple[str, str]]) -> dict[str, float]:
    """The CPU-time ratios beside the wall-time ones: ``named`` maps a ratio's name to its two commands."""
    return {name: ratio(r[a], r[b], "runs_cpu_s") for name, (a, b) in named.items()}


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log(y) on log(x): the exponent of y ~ x^k."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = statistics.mean(lx), statistics.mean(ly)
    num = sum((x - mx) * (y - my) for x, y in zip(lx, ly, strict=True))
    den = sum((x - mx) ** 2 for x in lx)
    return round(num / den, 3)


def part_ratios(timer: Timer, work: Path, sizes: list[int]) -> dict[str, object]:
    out: dict[str, object] = {}
    for articles in sizes:
        root = work / f"ratios-{articles}"
        corpus, flat = make_corpus(root, articles)
        years = sorted(flat)
        pairs = [str(p) for y0, y1 in itertools.pairwise(years) for p in (flat[y0], flat[y1])]
        report_dir = root / "report"
        r = timer.compare(
            {
                "lawdiff compare": [*LAWDIFF, "compare", "2007", "2017", "--corpus", str(corpus), "--no-cache"],
                "difflib pair": [PY, "-c", _DIFFLIB, str(flat["2007"]), str(flat["2017"])],
                "git word diff": [
                    "git",
                    "diff",
                    "--no-index",
                    "--word-diff",
                    "--no-color",
                    str(flat["2007"]),
                    str(flat["2017"]),
                ],
                "lawdiff report": [*LAWDIFF, "report", "--corpus", str(corpus), "-o", str(report_dir), "--no-cache"],
                "difflib 3 pairs": [PY, "-c", _DIFFLIB, *pairs],
            }
        )
        named = {
            "compare / difflib": ("lawdiff compare", "difflib pair"),
            "compare / git word diff": ("lawdiff compare", "git word diff"),
            "report / difflib 3 pairs": ("lawdiff report", "difflib 3 pairs"),
        }
        r["ratios"] = {name: ratio(r[a], r[b]) for name, (a, b) in named.items()}
        r["cpu ratios"] = cpu_ratios(r, named)
        out[f"{articles} articles"] = r
    return out


def part_scaling(timer: Timer, work: Path, base: int, factors: list[int]) -> dict[str, object]:
    rows: dict[str, object] = {}
    sizes: list[int] = []
    wall: dict[str, list[float]] = {"compare": [], "report": []}
    cpu: dict[str, list[float]] = {"compare": [], "report": []}
    for f in factors:
        articles = base * f
        root = work / f"scale-{articles}"
        corpus, _ = make_corpus(root, articles)
        r = timer.compare(
            {
                "compare": [*LAWDIFF, "compare", "2007", "2017", "--corpus", str(corpus), "--no-cache"],
                "report": [*LAWDIFF, "report", "--corpus", str(corpus), "-o", str(root / "report"), "--no-cache"],
            }
        )
        rows[f"{f}x ({articles} articles)"] = r
        sizes.append(articles)
        for name in wall:
            wall[name].append(r[name]["median_s"])
            cpu[name].append(r[name]["median_cpu_s"])
        shutil.rmtree(root)
    rows["exponent"] = {name: slope(sizes, wall[name]) for name in wall}
    rows["exponent_cpu"] = {name: slope(sizes, cpu[name]) for name in cpu}
    return rows


def part_boilerplate(timer: Timer, work: Path, sizes: list[int]) -> dict[str, object]:
    out: dict[str, object] = {}
    for articles in sizes:
        commands: dict[str, list[str]] = {}
        for name, boiler in (("distinct", False), ("boilerplate", True)):
            root = work / f"boiler-{name}-{articles}"
            corpus, _ = make_corpus(root, articles, boiler)
            commands[f"compare {name}"] = [*LAWDIFF, "compare", "2007", "2017", "--corpus", str(corpus), "--no-cache"]
            commands[f"report {name}"] = [
                *LAWDIFF,
                "report",
                "--corpus",
                str(corpus),
                "-o",
                str(root / "report"),
                "--no-cache",
            ]
        r: dict[str, object] = dict(timer.compare(commands))
        t: dict[str, dict[str, Any]] = r  # type: ignore[assignment]
        named = {
            "compare boilerplate / distinct": ("compare boilerplate", "compare distinct"),
            "report boilerplate / distinct": ("report boilerplate", "report distinct"),
        }
        r["ratios"] = {name: ratio(t[a], t[b]) for name, (a, b) in named.items()}
        r["cpu ratios"] = cpu_ratios(t, named)
        out[f"{articles} articles"] = r
    return out


def part_cache(timer: Timer, work: Path, articles: int) -> dict[str, object]:
    root = work / "cache"
    corpus, _ = make_corpus(root, articles)
    store = root / "store"
    newest = sorted((corpus / "2017").iterdir())[articles // 2]
    original = newest.read_text(encoding="utf-8")
    lines = original.split("\n")
    # One clause's words changed, as a committee member would edit a page.
    edited_line = next(i for i, line in enumerate(lines) if len(line.split()) > 8 and i > 2)
    lines[edited_line] = lines[edited_line].replace(" de ", " die ", 1) + " (gewijzigd)"
    edited = "\n".join(lines)
    compare_cmd = [*LAWDIFF, "compare", "2007", "2017", "--corpus", str(corpus), "--format", "json"]
    report_cmd = [*LAWDIFF, "report", "--corpus", str(corpus)]

    def env_with(folder: Path) -> dict[str, str]:
        return {**timer.env, "LAWDIFF_CACHE": str(folder)}

    def before(name: str) -> dict[str, str]:
        if name.startswith("cold"):
            shutil.rmtree(store, ignore_errors=True)
            newest.write_text(original, encoding="utf-8")
            return env_with(store)
        if name.startswith("warm compare"):
            # Filled by a run of its own, then timed with nothing changed: the answer it kept printed again,
            # or (without it) the pages and the comparison read back from the cache.
            newest.write_text(original, encoding="utf-8")
            subprocess.run(compare_cmd, check=True, capture_output=True, env=env_with(store))
            if name != "warm compare":
                shutil.rmtree(store / "answers")
            return env_with(store)
        # warm report: the cache filled from the original page, then one page edited.
        shutil.rmtree(store, ignore_errors=True)
        newest.write_text(original, encoding="utf-8")
        subprocess.run(
            [*LAWDIFF, "report", "--corpus", str(corpus), "-o", str(root / "fill")],
            check=True,
            capture_output=True,
            env=env_with(store),
        )
        newest.write_text(edited, encoding="utf-8")
        return env_with(store)

    r = timer.compare(
        {
            "cold compare": compare_cmd,
            "warm compare": compare_cmd,
            "warm compare, pages and comparison only": compare_cmd,
            "cold report": [*LAWDIFF, "report", "--corpus", str(corpus), "-o", str(root / "cold")],
            # What keeping the pages, pairs and word differences costs the first run of a corpus.
            "cold report, no cache": [*report_cmd, "-o", str(root / "nc"), "--no-cache"],
            "warm report after one page changed": [
                *LAWDIFF,
                "report",
                "--corpus",
                str(corpus),
                "-o",
                str(root / "warm"),
            ],
        },
        before,
    )
    # Byte identity: the warm report of the edited corpus against a cold one of it.
    shutil.rmtree(store, ignore_errors=True)
    newest.write_text(edited, encoding="utf-8")
    subprocess.run(
        [*LAWDIFF, "report", "--corpus", str(corpus), "-o", str(root / "cold-edited"), "--no-cache"],
        check=True,
        capture_output=True,
    )
    same_report = _same_tree(root / "warm", root / "cold-edited")
    cold_out = subprocess.run([*compare_cmd, "--no-cache"], check=True, capture_output=True).stdout
    warm_out = subprocess.run(compare_cmd, check=True, capture_output=True, env=env_with(store)).stdout
    newest.write_text(original, encoding="utf-8")
    named = {
        "warm compare / cold": ("warm compare", "cold compare"),
        "warm compare without its kept answer / cold": ("warm compare, pages and comparison only", "cold compare"),
        "warm report after one page changed / cold": ("warm report after one page changed", "cold report"),
        "cold report keeping / without the cache": ("cold report", "cold report, no cache"),
    }
    r["ratios"] = {name: ratio(r[a], r[b]) for name, (a, b) in named.items()}
    r["cpu ratios"] = cpu_ratios(r, named)
    r["identical"] = {"compare": cold_out == warm_out, "report": same_report}
    return r


def _same_tree(a: Path, b: Path) -> bool:
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    return files_a == files_b and all((a / f).read_bytes() == (b / f).read_bytes() for f in files_a)


def part_help(timer: Timer) -> dict[str, object]:
    r = timer.compare({"lawdiff --help": [*LAWDIFF, "--help"], "import click": [PY, "-c", "import click"]})
    named = {"help / import click": ("lawdiff --help", "import click")}
    r["ratios"] = {name: ratio(r[a], r[b]) for name, (a, b) in named.items()}
    r["cpu ratios"] = cpu_ratios(r, named)
    return r


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command (default 5)")
    parser.add_argument("--parts", default="ratios,scaling,boilerplate,cache,help")
    parser.add_argument("--sizes", default="93,186", help="article counts of the ratios and boilerplate parts")
    parser.add_argument("--factors", default="1,2,4,8", help="multiples of 93 articles for the scaling part")
    parser.add_argument("--json", type=Path, default=HERE / "output" / "bench_speed.json")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    results: dict[str, object] = {"runs": args.runs, "python": sys.version.split()[0]}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        timer = Timer(args.runs, installed_env(work, LAWDIFF_CACHE="off"))
        if "help" in parts:
            results["help"] = part_help(timer)
        if "ratios" in parts:
            results["ratios"] = part_ratios(timer, work, [int(s) for s in args.sizes.split(",")])
        if "cache" in parts:
            results["cache"] = part_cache(timer, work, generate.FULL_ARTICLES)
        if "boilerplate" in parts:
            results["boilerplate"] = part_boilerplate(timer, work, [int(s) for s in args.sizes.split(",")])
        if "scaling" in parts:
            results["scaling"] = part_scaling(
                timer, work, generate.FULL_ARTICLES, [int(f) for f in args.factors.split(",")]
            )
    text = json.dumps(results, indent=2)
    print(text)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
