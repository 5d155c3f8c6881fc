"""The review store at scale (issue 10's figures): ``review list`` against ``compare``, ``report`` with the store
against without.

Run from the repository root::

    python3 benchmarks/bench_review.py                      # 744 articles, medians of 5 runs
    python3 benchmarks/bench_review.py --articles 93 --runs 3

The editions: four generated editions (``generate.py``) of 744 articles
(eight times the full size, about 8,000 clauses with text each), written as
wiki pages.

The store: a decision on every change of the three consecutive pairs (about
20,000, unchanged clauses included), each with a status and an assignee, and
50,000 comments spread over them, imported in one go from a JSONL export
(``lawdiff review import``, timed once).

Each timing is the whole command in a fresh process, as a committee member
would run it, output to /dev/null (``bench_speed.Timer``: the commands
interleaved run by run, medians of wall and CPU time, peak RSS):

* ``lawdiff compare OLD NEW --no-review`` for each pair against ``lawdiff review
  list --pair OLD NEW`` (which compares the pair too), and the three
  ``compare`` runs against one ``review list`` of all pairs (one process reads
  the corpus once and compares the three pairs).  Bound: 1.5.
* ``lawdiff report`` with the store against ``lawdiff report --no-review``.
  Bound: 1.1.

Both cold (``LAWDIFF_CACHE=off``: every comparison computed) and warm (a
cache folder of this run, filled by one ``report`` first: the comparisons
read back, so that what the store costs is not hidden behind them; ``compare``'s
whole answers are removed before each of its runs, so that it reads them back too).  The
commands run in an empty folder, so that no ``lawdiff-review.sqlite`` there
is picked up.  Printed and written as JSON to
``benchmarks/output/bench_review.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import generate  # noqa: E402
from bench_speed import LAWDIFF, Timer, installed_env, ratio  # noqa: E402

ARTICLES = 8 * generate.FULL_ARTICLES
COMMENTS = 50_000


def build_export(corpus_dir: Path, out: Path) -> tuple[list[tuple[str, str]], int]:
    """A JSONL export with a decision on every change and 50,000 comments; the pairs and the decision count."""
    from lawdiff.corpus import load
    from lawdiff.diff import Study
    from lawdiff.review import Status, runs, target, values
    from lawdiff.review.journal import new_id
    from lawdiff.review.schema import SCHEMA_VERSION
    from lawdiff.review.targets import texts_hash

    corpus = load([corpus_dir])
    comps = runs.comparisons(Study(runs.timeline(corpus)), corpus, None)
    rng = random.Random(2017)
    statuses = [s.value for s in Status]
    lines = [json.dumps({"type": "lawdiff-review", "schema": SCHEMA_VERSION, "lawdiff": "bench"})]
    ids: list[str] = []
    at = "2024-05-14T10:00:00.000000Z"
    for comp in comps:
        for ch in comp.changes:
            t = target(comp, ch)
            row = {
                "id": t.id,
                "old_edition": t.old_edition,
                "new_edition": t.new_edition,
                "aspect": t.aspect,
                "kind": t.kind,
                "article": t.article,
                "old": list(t.old),
                "new": list(t.new),
                "old_hash": texts_hash(t.old_texts),
                "new_hash": texts_hash(t.new_texts),
                "old_texts": list(t.old_texts),
                "new_texts": list(t.new_texts),
                "status": rng.choice(statuses),
                "assignee": rng.choice(["", "Anne", "Bert"]),
                "meeting": "",
                "lawdiff_version": "bench",
                "thresholds": dict(t.thresholds),
                "author": "bench",
                "created": at,
                "updated": at,
            }
            lines.append(json.dumps({"type": "decision", **row}, ensure_ascii=False))
            ids.append(t.id)
    for i in range(COMMENTS):
        comment = values.Comment(
            id=new_id(),
            decision=ids[i % len(ids)],
            author=rng.choice(["Anne", "Bert", "Carla"]),
            created=at,
            updated=at,
            text=f"Opmerking {i}: de formulering van dit lid nakijken.",
            deleted=False,
            edited="",
            meeting="",
        )
        lines.append(json.dumps({"type": "comment", **values.as_row(comment)}, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [(c.old, c.new) for c in comps], len(ids)


def measure(
    timer: Timer,
    corpus: Path,
    store: Path,
    pairs: list[tuple[str, str]],
    reports: Path,
    answers: Path | None = None,
) -> dict[str, object]:
    """The timings of one state of the cache (the timer's environment), and their ratios.

    ``answers``: the cache's folder of whole answers, emptied before each ``compare``, so that a warm
    ``compare`` reads the cached pages and comparison as ``review list`` does, instead of printing the
    answer it gave in the previous run (``lawdiff.cli.kept``; a review store is never answered so).
    """
    src = ["--corpus", str(corpus)]
    commands: dict[str, list[str]] = {}
    for old, new in pairs:
        commands[f"compare {old} {new}"] = [*LAWDIFF, "compare", old, new, *src, "--no-review"]
        commands[f"review list --pair {old} {new}"] = [
            *LAWDIFF,
            "review",
            "list",
            "--pair",
            old,
            new,
            "--review",
            str(store),
            *src,
        ]
    commands["review list (all pairs)"] = [*LAWDIFF, "review", "list", "--review", str(store), *src]
    commands["report --no-review"] = [*LAWDIFF, "report", *src, "-o", str(reports / "without"), "--no-review"]
    commands["report with the store"] = [*LAWDIFF, "report", *src, "-o", str(reports / "with"), "--review", str(store)]

    def before(name: str) -> dict[str, str] | None:
        if answers is not None and name.startswith("compare "):
            shutil.rmtree(answers, ignore_errors=True)
        return None

    timings = timer.compare(commands, before)
    summed = {
        key: round(sum(timings[f"compare {o} {n}"][key] for o, n in pairs), 4) for key in ("median_s", "median_cpu_s")
    }
    timings["compare (all pairs, summed)"] = summed
    # (what is timed, what it is measured against)
    against = {
        **{f"review list / compare, {o} -> {n}": (f"review list --pair {o} {n}", f"compare {o} {n}") for o, n in pairs},
        "review list (all pairs) / compare x3": ("review list (all pairs)", "compare (all pairs, summed)"),
        "report with the store / without": ("report with the store", "report --no-review"),
    }
    r: dict[str, object] = dict(timings)
    r["ratios"] = {name: ratio(timings[a], timings[b]) for name, (a, b) in against.items()}
    r["ratios_cpu"] = {
        name: round(timings[a]["median_cpu_s"] / timings[b]["median_cpu_s"], 3) for name, (a, b) in against.items()
    }
    return r


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command (default 5)")
    parser.add_argument("--articles", type=int, default=ARTICLES, help=f"articles per edition (default {ARTICLES})")
    parser.add_argument("--parts", default="cold,warm", help="cold, warm or both (default)")
    parser.add_argument("--json", type=Path, default=HERE / "output" / "bench_review.json")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        base_env = installed_env(root, LAWDIFF_AUTHOR="bench", PYTHONPATH=str(ROOT))
        base_env.pop("LAWDIFF_REVIEW", None)
        corpus, store, export = root / "editions", root / "review.sqlite", root / "export.jsonl"
        start = time.perf_counter()
        generated = generate.generate(articles=args.articles)
        generate.write(generated, corpus)
        made = time.perf_counter() - start
        pairs, decisions = build_export(corpus, export)
        start = time.perf_counter()
        subprocess.run(
            [*LAWDIFF, "review", "import", str(export), "--review", str(store)],
            check=True,
            stdout=subprocess.DEVNULL,
            env={**base_env, "LAWDIFF_CACHE": "off"},
        )
        imported = time.perf_counter() - start
        results: dict[str, object] = {
            "articles": args.articles,
            "clauses_with_text": [len(e.units) for e in generated.editions],
            "decisions": decisions,
            "comments": COMMENTS,
            "store_mb": round(store.stat().st_size / 2**20, 1),
            "generate_s": round(made, 1),
            "import_s": round(imported, 2),
            "runs": args.runs,
            "python": sys.version.split()[0],
        }
        # An empty working folder: no lawdiff-review.sqlite of the caller's is found.
        work = root / "cwd"
        work.mkdir()
        os.chdir(work)
        if "cold" in parts:
            timer = Timer(args.runs, {**base_env, "LAWDIFF_CACHE": "off"})
            results["cold"] = measure(timer, corpus, store, pairs, root / "reports-cold")
        if "warm" in parts:
            cache = root / "cache"
            env = {**base_env, "LAWDIFF_CACHE": str(cache)}
            subprocess.run(
                [*LAWDIFF, "report", "--corpus", str(corpus), "-o", str(root / "fill"), "--no-review"],
                check=True,
                stdout=subprocess.DEVNULL,
                env=env,
            )
            results["warm"] = measure(
                Timer(args.runs, env), corpus, store, pairs, root / "reports-warm", answers=cache / "answers"
            )
        os.chdir(ROOT)
        shutil.rmtree(root / "cwd", ignore_errors=True)
    print(json.dumps(results, indent=2))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
