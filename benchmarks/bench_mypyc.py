"""Would compiling the report's page builder with mypyc pass issue 26's report target?  An experiment.

Run from the repository root, with mypyc at hand (the test venv's mypy carries it)::

    python3 benchmarks/bench_mypyc.py --build /tmp/mypyc26     # copy lawdiff there and compile it
    python3 benchmarks/bench_mypyc.py --compiled /tmp/mypyc26 --runs 7

``--build DIR`` copies this checkout's ``lawdiff`` into ``DIR/lawdiff`` and compiles the modules of
``COMPILED`` there with mypyc (extension modules beside the ``.py`` files, which stay for the modules left
interpreted; see ``LEFT``).  Nothing of lawdiff is changed: the copy is a scratch folder, and lawdiff does
not install or need mypyc.

``--compiled DIR`` times whole processes, as ``bench_cost.py`` does (its measuring process, the bytecode
compiled first into one pycache folder, each command once untimed): ``report --no-cache`` of the held-out
few-change corpus (``heldout.build_corpus``, ``--articles``, four editions) with this checkout's lawdiff
(interpreted) and with ``DIR``'s (``PYTHONPATH``), and ``difflib.HtmlDiff`` of the corpus's three pairs, in
turn (A B C A B C ...).  CPU time (user + system, workers included); the medians of the per-run ratios.
The two reports' files are compared byte for byte first.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_cost import LAWDIFF, PY, Bench, in_turn, ratio  # noqa: E402
from heldout import DEFAULT_ARTICLES, DEFAULT_SEED  # noqa: E402

# The modules compiled: the page builder, the site's plan and the study's pieces the pages make.
COMPILED = (
    *(f"lawdiff/report/html/{m}.py" for m in ("__init__", "article", "compare", "context", "correlation")),
    *(f"lawdiff/report/html/{m}.py" for m in ("counts", "history", "index", "kind", "law", "nav", "pagecache")),
    *(f"lawdiff/report/html/{m}.py" for m in ("matrix", "pair", "review", "runs", "synopsis")),
    "lawdiff/report/site.py",
    "lawdiff/diff/history.py",
    "lawdiff/diff/synopsis.py",
    "lawdiff/diff/article.py",
)

# Left interpreted, and why (mypyc's own errors):
LEFT = {
    "lawdiff/report/html/markup.py": "Markup and BlockMarkup subclass str ('Inheriting from most builtin types "
    "is unimplemented'; a native class cannot, and marking them non-native changes lawdiff's code)",
    "lawdiff/report/html/template.py": "each Template gets a class of its own made by type() at run time, its "
    "call a function compiled from the template's source by exec ('Cannot access instance attribute "
    "__module__ through class object'); the rows' functions would stay interpreted in any case",
}

# mypy's settings for the copy (the project's table without [project], which setuptools would validate).
MYPY_TOML = """[tool.mypy]
python_version = "3.11"
strict = true

[[tool.mypy.overrides]]
module = ["diff_match_patch", "diff_match_patch.*"]
ignore_missing_imports = true
"""


def build(dest: Path) -> None:
    shutil.rmtree(dest / "lawdiff", ignore_errors=True)
    shutil.copytree(ROOT / "lawdiff", dest / "lawdiff", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (dest / "pyproject.toml").write_text(MYPY_TOML, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    mypyc = [PY, "-c", "import sys; from mypyc.__main__ import main; sys.exit(main())"]
    subprocess.run([*mypyc, *COMPILED], cwd=dest, env=env, check=True)
    for path, why in LEFT.items():
        print(f"left interpreted: {path}: {why}")


def same_files(a: Path, b: Path) -> bool:
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    other = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    return files == other and all(filecmp.cmp(a / f, b / f, shallow=False) for f in files)


def measure(compiled: Path, runs: int, articles: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench_mypyc-") as tmp:
        work = Path(tmp)
        os.chdir(work)  # `python -m` puts the working folder first on the path: a checkout's lawdiff would win
        bench = Bench(work, runs, DEFAULT_SEED)
        env = bench.env
        held = bench.corpus("few", articles)
        where = "import lawdiff.report.html.pair as m; print(m.__file__)"
        imported = subprocess.run([PY, "-c", where], env={**env, "PYTHONPATH": str(compiled)}, capture_output=True)
        if not imported.stdout.strip().endswith(b".so"):
            raise SystemExit(f"bench_mypyc: {compiled} holds no compiled lawdiff ({imported.stdout!r})")
        report = [*LAWDIFF, "report", "--corpus", str(held.corpus), "--no-cache", "-o"]
        commands: dict[str, Sequence[str]] = {
            "interpreted": [*report, str(work / "interpreted")],
            "compiled": ["env", f"PYTHONPATH={compiled}", *report, str(work / "compiled")],
            "difflib 3 pairs": bench.difflib_cmd(held, work / "difflib", 3),
        }
        load = os.getloadavg()
        r = in_turn(commands, runs, env)  # runs each once untimed first: the reports to compare are there
        after = os.getloadavg()
        same = same_files(work / "interpreted", work / "compiled")
        print(f"the two reports' files byte for byte the same: {same}")
        print(f"{runs} runs each in turn, load average {load[0]:.1f} -> {after[0]:.1f}")
        for name, rs in r.items():
            each = sorted(round(x.cpu, 2) for x in rs)
            print(f"{name}: CPU median {statistics.median(x.cpu for x in rs):.2f} s {each}")
        print(f"compiled / interpreted: {ratio(r['compiled'], r['interpreted']):.3f}")
        for name in ("interpreted", "compiled"):
            cpu, wall = ratio(r[name], r["difflib 3 pairs"]), ratio(r[name], r["difflib 3 pairs"], "wall")
            print(f"report ({name}) / difflib of the 3 pairs: {cpu:.2f} CPU ({wall:.2f} wall); target 2.5")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=Path, help="copy lawdiff into this folder and compile it")
    parser.add_argument("--compiled", type=Path, help="a folder holding a compiled lawdiff: time it")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--articles", type=int, default=DEFAULT_ARTICLES)
    args = parser.parse_args()
    if args.build:
        build(args.build.resolve())
    if args.compiled:
        measure(args.compiled.resolve(), args.runs, args.articles)


if __name__ == "__main__":
    main()
