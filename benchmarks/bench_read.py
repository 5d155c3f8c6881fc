"""What reading costs (issue 26): ``lawdiff check --no-cache`` of two editions against difflib of the same.

Run from the repository root with lawdiff installed::

    python3 benchmarks/bench_read.py                      # 11 runs of each command (about two minutes)
    python3 benchmarks/bench_read.py --runs 5 --before main   # and the code of another commit beside it

Every figure is a whole process, timed as ``bench_cost.py`` times them (its measuring process: CPU time of
the command and its children beside wall time; the commands in turn, A B A B; a ratio the median of the
per-run ratios), on ``bench_cost.py``'s held-out corpora (``heldout.build_corpus``, from the bundled
corpus's seed article), 186 articles (``--articles``):

* ``check / difflib``: ``lawdiff check --no-cache`` of the few-change corpus's last two editions against
  ``difflib.HtmlDiff`` of the same two flattened to lines (issue 26: at most 1.0);
* ``compare identical / check identical``: a cold ``compare`` of an edition and an identical copy against
  ``check`` of the two (issue 26: at most 1.15);
* the floors, to say what no reading can go below: the interpreter alone (``python -c pass``), difflib's
  own start (``import difflib``), and ``lawdiff check`` of one page (the interpreter, the modules ``check``
  imports and a page read);
* with ``--before REV``: the same ``check`` and ``compare`` run by the code of ``REV`` (its ``lawdiff/``,
  taken with ``git archive``), in turn with this checkout's, and the ratios of this code's to it.

Printed, and written as JSON to ``benchmarks/output/bench_read.json`` (``--json PATH``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_cost import _DIFFLIB, PY, Run, installed_env, measure, ratio, summary, warm  # noqa: E402
from heldout import DEFAULT_ARTICLES, DEFAULT_SEED, HeldOut, build_corpus, seed_lines  # noqa: E402

LAWDIFF = (PY, "-m", "lawdiff.cli")


def in_turn(commands: dict[str, tuple[Sequence[str], dict[str, str]]], runs: int, cwd: Path) -> dict[str, list[Run]]:
    """Each command ``runs`` times, in turn (A B A B ...), each with its own environment, from ``cwd``
    (never the checkout: ``python -m`` would import the checkout's lawdiff before any other)."""
    out: dict[str, list[Run]] = {name: [] for name in commands}
    here = Path.cwd()
    os.chdir(cwd)
    try:
        for cmd, env in commands.values():
            warm(cmd, env)
        for _ in range(runs):
            for name, (cmd, env) in commands.items():
                out[name].append(measure(cmd, env))
    finally:
        os.chdir(here)
    return out


def code_of(rev: str, folder: Path) -> Path:
    """The ``lawdiff/`` package of commit ``rev``, written under ``folder``: a folder for ``PYTHONPATH``."""
    folder.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", rev, "lawdiff"], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def one_page(folder: Path) -> Path:
    """A corpus of one page: the seed article as a 2007 wiki page."""
    sub = folder / "2007"
    sub.mkdir(parents=True)
    (sub / "wiki-Sjabloon-2007-45.txt").write_text("Sjabloon:2007:45\n" + "\n".join(seed_lines()) + "\n", "utf-8")
    return folder


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=11, help="timed runs of each command (default 11)")
    parser.add_argument("--articles", type=int, default=DEFAULT_ARTICLES)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--before", metavar="REV", help="also time the code of this commit, in turn")
    parser.add_argument("--json", type=Path, default=HERE / "output" / "bench_read.json")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench_read-") as tmp:
        work = Path(tmp)
        env = installed_env(work, LAWDIFF_CACHE="off")
        few = build_corpus(work / "few", args.articles, "few", args.seed)
        same = build_corpus(work / "identical", args.articles, "identical", args.seed)
        old, new = few.years[-2:]

        def check(held: HeldOut) -> list[str]:
            return [*LAWDIFF, "check", *(str(held.edition(y)) for y in held.years[-2:]), "--no-cache"]

        compare = [*LAWDIFF, "compare", *same.years[-2:], "--corpus", str(same.corpus), "--no-cache"]
        commands: dict[str, tuple[Sequence[str], dict[str, str]]] = {
            "check": (check(few), env),
            "difflib": ([PY, "-c", _DIFFLIB, str(work / "difflib"), str(few.flat[old]), str(few.flat[new])], env),
            "check identical": (check(same), env),
            "compare identical": (compare, env),
            "check one page": ([*LAWDIFF, "check", str(one_page(work / "one")), "--no-cache"], env),
            "import difflib": ([PY, "-c", "import difflib"], env),
            "python": ([PY, "-c", "pass"], env),
        }
        if args.before:
            before = {**env, "PYTHONPATH": str(code_of(args.before, work / "before"))}
            subprocess.run([PY, "-m", "compileall", "-q", str(work / "before")], check=True, env=env)
            commands["check, before"] = (check(few), before)
            commands["compare identical, before"] = (compare, before)
        r = in_turn(commands, args.runs, work)
    named = {
        "check / difflib": ("check", "difflib"),
        "compare identical / check identical": ("compare identical", "check identical"),
        "check of one page / import difflib": ("check one page", "import difflib"),
    }
    if args.before:
        named["check / check before"] = ("check", "check, before")
        named["compare identical / before"] = ("compare identical", "compare identical, before")
        named["check before / difflib"] = ("check, before", "difflib")
    out: dict[str, Any] = {
        "runs": args.runs,
        "articles": args.articles,
        "before": args.before,
        "load_before": load,
        "load_after": os.getloadavg(),
        "measured": {name: summary(runs) for name, runs in r.items()},
        "cpu ratios": {name: ratio(r[a], r[b]) for name, (a, b) in named.items()},
        "wall ratios": {name: ratio(r[a], r[b], "wall") for name, (a, b) in named.items()},
    }
    print(f"bench_read: {args.runs} runs each, {args.articles} articles, load average {load[0]:.1f} -> ", end="")
    print(f"{out['load_after'][0]:.1f}")
    for name, figures in out["measured"].items():
        print(f"  {name:28s} CPU {figures['median_cpu_s']:.3f} s   wall {figures['median_wall_s']:.3f} s")
    for name in named:
        print(f"  {name:40s} CPU {out['cpu ratios'][name]:.3f}   wall {out['wall ratios'][name]:.3f}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
