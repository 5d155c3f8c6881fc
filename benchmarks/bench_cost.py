"""Cost follows change (issue 26): lawdiff's cost against difflib's, on held-out corpora.

Run from the repository root with lawdiff installed::

    python3 benchmarks/bench_cost.py             # every figure, 5 runs each (several minutes)
    python3 benchmarks/bench_cost.py --quick     # one run each, scaling to 372 articles (about a minute)
    python3 benchmarks/bench_cost.py --parts few,identical --runs 3 --json out.json
    python3 benchmarks/bench_cost.py --parts base --base /tmp/base --runs 11   # this tree against another

The corpora are *held out*: not the repository's generator (``generate.py``, which the aligner's
thresholds and the certainty model were tuned on) but ``heldout.build_corpus``, which copies the
seed article of the bundled corpus (2007 article 45, a wiki page) into N articles, each with its
own forms of the seed's content words, and edits each next edition: ``few`` (about one line in
seven changed per edition), ``many`` (nearly every line changed), ``identical`` (one edition
against a copy of itself).

Every figure is a whole process, started by a small measuring process so that its peak memory is
its own: the wall time, the CPU time (user + system, its forked workers included) and the peak
RSS (``ru_maxrss`` of the command and its waited-for children).  The commands of a figure run in
turn (A B A B ...) and a ratio is the median of the per-run ratios, for CPU time (steady on a
shared machine) and for wall time (what a user waits).  The baseline is ``difflib.HtmlDiff``
of the same editions flattened to lines (the pages' lines without their titles), in a process of
its own, writing its HTML.  lawdiff runs with its bytecode, as ``pip install`` leaves it: its modules
are compiled first into a pycache folder of the run (``PYTHONPYCACHEPREFIX``, with
``PYTHONDONTWRITEBYTECODE`` unset for the timed commands), and each command runs once untimed before
its timed runs, so that no timed run compiles a module (of lawdiff, the standard library or a package).

The figures (each printed beside the issue's target):

* ``few`` (``--articles``, default 186): ``check --no-cache`` of two editions / difflib of the
  pair; ``compare --no-cache`` of the last pair / difflib of it; ``report --no-cache`` of the four
  editions / difflib of the three pairs; the report's bytes (every file) / difflib's HTML bytes.
* ``many`` (93 articles): ``compare`` and ``report`` / difflib as above.
* ``identical`` (``--articles``): ``compare`` of a pair of identical editions / ``check`` of the
  two, and / ``compare`` of the many-change pair of the same size.
* ``scaling`` (many-change, 93 to 744 articles): the exponent of a least-squares fit of log(CPU
  time) on log(size), for ``compare`` and ``report``, and the peak memory of ``report``.
* ``warm`` (many-change, 93 articles): a ``report`` after one page of the newest edition
  changed, its cache filled by the report before the change, / a cold one (an empty cache).
* ``base`` (not among the default parts; ``--base DIR``, another commit's source tree, e.g. a
  ``git worktree add --detach /tmp/base <commit>``): the few-change and identical figures of this
  tree's lawdiff and of that one, every command of both in turn, and this / base of each command.

Written as JSON to ``benchmarks/output/bench_cost.json`` (``--json PATH``).
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from heldout import DEFAULT_ARTICLES, DEFAULT_SEED, HeldOut, build_corpus, change_one_page  # noqa: E402

SCALING = (93, 186, 372, 744)
PY = sys.executable
LAWDIFF = (PY, "-m", "lawdiff.cli")


# --- measuring ------------------------------------------------------------------------------------

# Runs the command given as arguments, its output thrown away, and prints its exit code, its wall
# seconds, and the peak RSS (KiB) and CPU seconds (user + system) of it and its children: a fresh
# process started from here, so that the peak is the command's own (Linux carries a process's peak
# over fork and exec).
_MEASURE = (
    "import os, resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
    "err = p.stderr.read()\n"
    "_, status, u = os.wait4(p.pid, 0)\n"
    "wall = time.perf_counter() - t\n"
    "c = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(os.waitstatus_to_exitcode(status), wall, max(u.ru_maxrss, c.ru_maxrss), c.ru_utime + c.ru_stime)\n"
    "print(err.decode(errors='replace')[-400:].replace(chr(10), ' '))\n"
)

# difflib.HtmlDiff of pairs of flat files (old, new, old, new ...), each page written to the folder
# named first: the baseline's HTML, and its size.
_DIFFLIB = (
    "import difflib, pathlib, sys\n"
    "out = pathlib.Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)\n"
    "args = sys.argv[2:]\n"
    "for i, (a, b) in enumerate(zip(args[::2], args[1::2])):\n"
    "    old = open(a, encoding='utf-8').read().splitlines()\n"
    "    new = open(b, encoding='utf-8').read().splitlines()\n"
    "    (out / f'pair-{i}.html').write_text(difflib.HtmlDiff().make_file(old, new), encoding='utf-8')\n"
)


@dataclass(frozen=True)
class Run:
    """One whole-process run: wall seconds, CPU seconds (user + system, children included), peak RSS (MB)."""

    wall: float
    cpu: float
    peak_mb: float


def installed_env(work: Path, root: Path = ROOT, **extra: str) -> dict[str, str]:
    """The environment of the timed commands: lawdiff's modules byte-compiled first, as ``pip install``
    leaves them, into a pycache folder under ``work`` (a machine with ``PYTHONDONTWRITEBYTECODE`` set would
    otherwise compile every module in every run, which no installed lawdiff and no baseline pays).

    ``root``: the source tree whose lawdiff the commands run (another commit's, for ``--base``: put first on
    the path, its bytecode in a folder of its own; its commands run from that folder, see :func:`measure`)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(work / ("pycache" if root == ROOT else "pycache-base"))
    if root != ROOT:
        env["PYTHONPATH"] = str(root)
    env.update(extra)
    subprocess.run([PY, "-m", "compileall", "-q", str(root / "lawdiff")], check=True, env=env, capture_output=True)
    return env


def warm(cmd: Sequence[str], env: dict[str, str], cwd: Path | None = None) -> None:
    """Run ``cmd`` once, untimed, before its timed runs: with ``PYTHONPYCACHEPREFIX`` set, Python reads the
    bytecode of every module (the standard library's and the installed packages' too) from that folder
    only, so the first run of a command compiles and writes what it imports that no run before it did."""
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=cwd)


def measure(cmd: Sequence[str], env: dict[str, str], cwd: Path | None = None) -> Run:
    """Run ``cmd`` once in a fresh measuring process; exit codes 0 and 1 (differences found) pass.

    ``cwd``: where it runs (``python -m`` puts that folder first on the path: another tree's lawdiff runs
    from its own folder)."""
    done = subprocess.run([PY, "-c", _MEASURE, *cmd], capture_output=True, text=True, env=env, check=True, cwd=cwd)
    head, err = [*done.stdout.splitlines(), ""][:2]
    code, wall, peak, cpu = head.split()
    if int(code) not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} exited {code}: {err}")
    return Run(float(wall), float(cpu), int(peak) / 1024)


def in_turn(
    commands: dict[str, Sequence[str]],
    runs: int,
    env: dict[str, str],
    before: Callable[[str], dict[str, str] | None] | None = None,
) -> dict[str, list[Run]]:
    """Each command ``runs`` times, in turn (A B A B ...); ``before(name)`` may set up a run (and give its env)."""
    out: dict[str, list[Run]] = {name: [] for name in commands}
    for name, cmd in commands.items():
        warm(cmd, (before(name) if before else None) or env)
    for _ in range(runs):
        for name, cmd in commands.items():
            extra = before(name) if before else None
            out[name].append(measure(cmd, extra or env))
    return out


def ratio(a: list[Run], b: list[Run], of: str = "cpu") -> float:
    """The median of the per-run ratios of ``a`` to ``b``, of CPU time (``cpu``) or wall time (``wall``)."""
    pairs = [getattr(x, of) / getattr(y, of) for x, y in zip(a, b, strict=True) if getattr(y, of)]
    return round(statistics.median(pairs), 3) if pairs else math.inf


def summary(runs: list[Run]) -> dict[str, Any]:
    return {
        "median_wall_s": round(statistics.median(r.wall for r in runs), 4),
        "median_cpu_s": round(statistics.median(r.cpu for r in runs), 4),
        "peak_mb": round(max(r.peak_mb for r in runs), 1),
        "runs_wall_s": [round(r.wall, 4) for r in runs],
        "runs_cpu_s": [round(r.cpu, 4) for r in runs],
    }


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Least-squares slope of log(y) on log(x): the exponent k of y ~ x^k."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = statistics.mean(lx), statistics.mean(ly)
    num = sum((x - mx) * (y - my) for x, y in zip(lx, ly, strict=True))
    return round(num / sum((x - mx) ** 2 for x in lx), 3)


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


# --- the figures ----------------------------------------------------------------------------------


@dataclass
class Figure:
    """One line of the table: a figure, its CPU and wall values, and the issue's target (a bound)."""

    corpus: str
    name: str
    cpu: float
    wall: float | None = None
    target: float | None = None
    before: str = ""

    def row(self) -> str:
        wall = "" if self.wall is None else f"{self.wall:.2f}"
        target = "" if self.target is None else f"<= {self.target:g}"
        ok = "" if self.target is None else ("met" if self.cpu <= self.target else "MISSED")
        return f"| {self.corpus} | {self.name} | {self.cpu:.2f} | {wall} | {target} | {ok} | {self.before} |"


class Bench:
    def __init__(self, work: Path, runs: int, seed: int) -> None:
        self.work = work
        self.runs = runs
        self.seed = seed
        self.env = installed_env(work, LAWDIFF_CACHE="off")
        self.figures: list[Figure] = []
        self.data: dict[str, Any] = {}
        self._built: dict[tuple[str, int], HeldOut] = {}

    def corpus(self, kind: str, articles: int) -> HeldOut:
        key = (kind, articles)
        if key not in self._built:
            self._built[key] = build_corpus(self.work / f"{kind}-{articles}", articles, kind, self.seed)
        return self._built[key]

    def add(self, figure: Figure) -> None:
        self.figures.append(figure)
        print(figure.row(), flush=True)

    def compare_cmd(self, held: HeldOut) -> list[str]:
        return [*LAWDIFF, "compare", held.years[-2], held.years[-1], "--corpus", str(held.corpus), "--no-cache"]

    def report_cmd(self, held: HeldOut, out: Path) -> list[str]:
        return [*LAWDIFF, "report", "--corpus", str(held.corpus), "-o", str(out), "--no-cache"]

    def check_cmd(self, held: HeldOut) -> list[str]:
        old, new = held.years[-2:]
        return [*LAWDIFF, "check", str(held.edition(old)), str(held.edition(new)), "--no-cache"]

    def difflib_cmd(self, held: HeldOut, out: Path, pairs: int) -> list[str]:
        years = held.years[-pairs - 1 :]
        flats = [str(held.flat[y]) for a, b in itertools.pairwise(years) for y in (a, b)]
        return [PY, "-c", _DIFFLIB, str(out), *flats]

    def against_difflib(self, kind: str, articles: int, label: str) -> None:
        held = self.corpus(kind, articles)
        root = held.corpus.parent
        r = in_turn(
            {
                "check": self.check_cmd(held),
                "compare": self.compare_cmd(held),
                "difflib pair": self.difflib_cmd(held, root / "difflib-1", 1),
                "report": self.report_cmd(held, root / "report"),
                "difflib 3 pairs": self.difflib_cmd(held, root / "difflib-3", 3),
                "check 4 editions": [*LAWDIFF, "check", "--corpus", str(held.corpus), "--no-cache"],
            },
            self.runs,
            self.env,
        )
        self.data[label] = {name: summary(runs) for name, runs in r.items()}
        targets = TARGETS[kind]
        for name, a, b in (
            ("`check` of two editions / difflib of the pair", "check", "difflib pair"),
            ("`compare` one pair / difflib of the pair", "compare", "difflib pair"),
            ("`report` of 4 editions / difflib of the 3 pairs", "report", "difflib 3 pairs"),
        ):
            self.add(Figure(label, name, ratio(r[a], r[b]), ratio(r[a], r[b], "wall"), *targets.get(a, (None, ""))))
        # The budget, whatever the baseline: what comparing costs beside reading the same editions.
        for name, a, b, before in (
            ("`compare` / `check` of the two editions", "compare", "check", BUDGET[kind][0]),
            ("`report` / `check` of the 4 editions", "report", "check 4 editions", BUDGET[kind][1]),
        ):
            self.add(Figure(label, name, ratio(r[a], r[b]), ratio(r[a], r[b], "wall"), None, before))
        if kind == "few":
            report, baseline = folder_bytes(root / "report"), folder_bytes(root / "difflib-3")
            self.data[label]["bytes"] = {"report": report, "difflib 3 pairs": baseline}
            self.add(
                Figure(label, "report bytes / difflib's HTML of the 3 pairs", report / baseline, None, 2.0, "4.27")
            )

    def identical(self, articles: int) -> None:
        same = self.corpus("identical", articles)
        many = self.corpus("many", articles)
        r = in_turn(
            {
                "compare identical": self.compare_cmd(same),
                "check identical": self.check_cmd(same),
                "compare many-change": self.compare_cmd(many),
            },
            self.runs,
            self.env,
        )
        label = f"identical pair, {articles} articles"
        self.data[label] = {name: summary(runs) for name, runs in r.items()}
        a, b, c = r["compare identical"], r["check identical"], r["compare many-change"]
        self.add(
            Figure(
                label, "cold `compare` / `check` of the two editions", ratio(a, b), ratio(a, b, "wall"), 1.15, "1.88"
            )
        )
        self.add(
            Figure(
                label, "`compare` / `compare` of the many-change pair", ratio(a, c), ratio(a, c, "wall"), None, "0.71"
            )
        )

    def against_base(self, base: Path, articles: int) -> None:
        """The few-change and identical figures of this tree's lawdiff and of the one at ``base`` (another
        commit's source tree), every command of both in turn (difflib, this, base, this, base ...), and each
        command's CPU time here against the base's (medians of the per-run ratios)."""
        base_env = installed_env(self.work, base, LAWDIFF_CACHE="off")
        few, same = self.corpus("few", articles), self.corpus("identical", articles)
        difflib = self.difflib_cmd(few, few.corpus.parent / "difflib-1", 1)
        commands = {
            "compare": self.compare_cmd(few),
            "check": self.check_cmd(few),
            "compare identical": self.compare_cmd(same),
            "check identical": self.check_cmd(same),
        }
        trees: dict[str, tuple[dict[str, str], Path]] = {"this": (self.env, ROOT), "base": (base_env, base)}
        warm(difflib, self.env)
        for cmd in commands.values():
            for env, cwd in trees.values():
                warm(cmd, env, cwd)
        runs: dict[str, list[Run]] = {f"{tree} {name}": [] for name in commands for tree in trees}
        runs["difflib pair"] = []
        for _ in range(self.runs):
            runs["difflib pair"].append(measure(difflib, self.env))
            for name, cmd in commands.items():
                for tree, (env, cwd) in trees.items():
                    runs[f"{tree} {name}"].append(measure(cmd, env, cwd))
        self.data[f"against {base}"] = {name: summary(r) for name, r in runs.items()}
        d = runs["difflib pair"]
        for tree in trees:
            label = f"{tree} ({ROOT if tree == 'this' else base}), {articles} articles"
            for name, a, b, target in (
                ("few-change `compare` / difflib of the pair", runs[f"{tree} compare"], d, 1.5),
                ("few-change `check` / difflib of the pair", runs[f"{tree} check"], d, 1.0),
                (
                    "identical `compare` / `check`",
                    runs[f"{tree} compare identical"],
                    runs[f"{tree} check identical"],
                    1.15,
                ),
            ):
                self.add(Figure(label, name, ratio(a, b), ratio(a, b, "wall"), target))
        for name in commands:
            a, b = runs[f"this {name}"], runs[f"base {name}"]
            self.add(Figure(f"this / base, {articles} articles", f"`{name}`", ratio(a, b), ratio(a, b, "wall")))

    def scaling(self, sizes: Sequence[int]) -> None:
        cpu: dict[str, list[float]] = {"compare": [], "report": []}
        rows: dict[str, Any] = {}
        for articles in sizes:
            held = self.corpus("many", articles)
            r = in_turn(
                {"compare": self.compare_cmd(held), "report": self.report_cmd(held, held.corpus.parent / "report")},
                self.runs,
                self.env,
            )
            rows[str(articles)] = {name: summary(runs) for name, runs in r.items()}
            for name in cpu:
                cpu[name].append(statistics.median(x.cpu for x in r[name]))
            shutil.rmtree(held.corpus.parent)
            del self._built[("many", articles)]
        label = f"many-change, {sizes[0]} to {sizes[-1]} articles"
        rows["exponent_cpu"] = {name: slope(sizes, ys) for name, ys in cpu.items()}
        self.data["scaling"] = rows
        for name in cpu:
            self.add(Figure(label, f"time exponent (CPU), `{name}`", rows["exponent_cpu"][name], None, 1.05))
        peak = rows[str(sizes[-1])]["report"]["peak_mb"]
        self.add(
            Figure(
                f"many-change, {sizes[-1]} articles",
                "peak memory of `report` (MB)",
                peak,
                None,
                250.0 if sizes[-1] == 744 else None,
                "312",
            )
        )

    def warm(self, articles: int) -> None:
        held = self.corpus("many", articles)
        root = held.corpus.parent
        store = root / "cache"
        page, original, edited = change_one_page(held, articles // 2)
        report = [*LAWDIFF, "report", "--corpus", str(held.corpus)]

        def before(name: str) -> dict[str, str]:
            env = {**self.env, "LAWDIFF_CACHE": str(store)}
            shutil.rmtree(store, ignore_errors=True)
            page.write_text(original, encoding="utf-8")
            if name == "warm":
                subprocess.run([*report, "-o", str(root / "fill")], check=True, capture_output=True, env=env)
                page.write_text(edited, encoding="utf-8")
            return env

        r = in_turn(
            {"cold": [*report, "-o", str(root / "cold")], "warm": [*report, "-o", str(root / "warm")]},
            self.runs,
            self.env,
            before,
        )
        page.write_text(original, encoding="utf-8")
        label = f"many-change, {articles} articles"
        self.data["warm"] = {name: summary(runs) for name, runs in r.items()}
        self.add(
            Figure(
                label,
                "warm `report` after one page changed / cold",
                ratio(r["warm"], r["cold"]),
                ratio(r["warm"], r["cold"], "wall"),
                0.5,
                "0.41",
            )
        )


# The targets and its "now" figures, per corpus and command: (bound, before).
TARGETS: dict[str, dict[str, tuple[float | None, str]]] = {
    "few": {"check": (1.0, "1.39"), "compare": (1.5, "3.30-3.76"), "report": (2.5, "6.71-7.04")},
    "many": {"check": (None, "0.47"), "compare": (0.8, "1.25-1.40"), "report": (1.0, "1.19-1.22")},
}


# The budget figures (compare / its own reading; report / reading the four editions).
BUDGET: dict[str, tuple[str, str]] = {"few": ("2.37", "9.9"), "many": ("2.78", "")}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one run of each, scaling to 372 articles")
    parser.add_argument("--runs", type=int, help="timed runs of each command (default 5, 1 with --quick)")
    parser.add_argument("--articles", type=int, default=DEFAULT_ARTICLES, help="articles of the few-change corpus")
    parser.add_argument("--parts", default="few,many,identical,scaling,warm")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--json", type=Path, default=HERE / "output" / "bench_cost.json")
    parser.add_argument(
        "--base",
        type=Path,
        help="another commit's source tree (a worktree): the part 'base' measures its lawdiff beside this one",
    )
    args = parser.parse_args(argv)
    runs = args.runs or (1 if args.quick else 5)
    parts = args.parts.split(",")
    load = os.getloadavg()
    print(f"bench_cost: {runs} run(s) each, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print("| corpus | figure | CPU | wall | target (CPU) | | issue's 'now' |")
    print("|---|---|---:|---:|---:|---|---:|")
    with tempfile.TemporaryDirectory(prefix="bench_cost-") as tmp:
        bench = Bench(Path(tmp), runs, args.seed)
        if "few" in parts:
            bench.against_difflib("few", args.articles, f"few-change, {args.articles} articles")
        if "many" in parts:
            bench.against_difflib("many", 93, "many-change, 93 articles")
        if "identical" in parts:
            bench.identical(args.articles)
        if "warm" in parts:
            bench.warm(93)
        if "base" in parts:
            if args.base is None:
                parser.error("the part 'base' needs --base DIR")
            bench.against_base(args.base.resolve(), args.articles)
        if "scaling" in parts:
            bench.scaling(SCALING[:3] if args.quick else SCALING)
    results = {
        "runs": runs,
        "seed": args.seed,
        "python": sys.version.split()[0],
        "load_before": load,
        "load_after": os.getloadavg(),
        "figures": [vars(f) for f in bench.figures],
        "measured": bench.data,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
