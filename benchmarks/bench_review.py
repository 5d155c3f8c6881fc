"""How long ``lawdiff review list`` takes against ``lawdiff compare`` of the same pairs.

Run from the repository root::

    python3 benchmarks/bench_review.py            # median of 3 runs each
    python3 benchmarks/bench_review.py --runs 1 --blocks 2

The editions: four generated full-size editions (``generate.py``) eight
times over, 744 articles each.  ``generate.generate(articles=744)`` checks
every new text against all earlier ones and takes hours at that size, so
the editions are made as eight blocks of 93 articles (seeds 2017 to 2024),
each block's articles renumbered after the previous block's (1-93, 94-186,
...), and written as wiki pages.

The store: a decision on every change of the three consecutive pairs (about
20,000, unchanged clauses included) and 50,000 comments spread over them,
imported in one go from a JSONL export (``lawdiff review import``, timed
too).

Each timing is the whole command in a fresh process, as a committee member
would run it, output to /dev/null: ``lawdiff compare OLD NEW`` for each
pair, and ``lawdiff review list`` for each pair (``--pair``) and for all
pairs at once (one process reads the corpus once and compares the three
pairs).  The issue's bound: ``review list`` at most 1.5 times ``compare`` of
the same pairs, medians.  Printed and written as JSON to
``benchmarks/output/bench_review.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
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

BLOCK = 93
COMMENTS = 50_000


def write_editions(folder: Path, blocks: int) -> None:
    """Eight blocks of generated editions, their articles numbered one after the other."""
    for b in range(blocks):
        g = generate.generate(articles=BLOCK, seed=2017 + b)
        for edition in g.editions:
            sub = folder / edition.name
            sub.mkdir(parents=True, exist_ok=True)
            for _name, text in edition.pages:
                m = re.match(r"Sjabloon:(\d+):(\d+)\n", text)
                assert m, "a generated page starts with its title line"
                number = int(m.group(2)) + b * BLOCK
                # The title line and the article heading carry the number;
                # the clause addresses follow from the heading.
                renumbered = re.sub(
                    r"\A(Sjabloon:\d+:)\d+\nARTIKEL \d+",
                    lambda mm, n=number: f"{mm.group(1)}{n}\nARTIKEL {n}",
                    text,
                    count=1,
                )
                (sub / f"wiki-Sjabloon-{edition.name}-{number:04}.txt").write_text(renumbered, encoding="utf-8")


def build_export(corpus_dir: Path, out: Path) -> tuple[list[tuple[str, str]], int]:
    """A JSONL export with a decision on every change and 50,000 comments; the pairs and the decision count."""
    from lawdiff.align import DEFAULT_THRESHOLDS
    from lawdiff.corpus import load
    from lawdiff.review import Status, records, runs, target
    from lawdiff.review.schema import SCHEMA_VERSION
    from lawdiff.review.store import new_id, texts_hash

    corpus = load([corpus_dir])
    comps = runs.comparisons(corpus, None, DEFAULT_THRESHOLDS)
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
        comment = records.Comment(
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
        lines.append(json.dumps({"type": "comment", **records.as_row(comment)}, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [(c.old, c.new) for c in comps], len(ids)


def timed(args: list[str], runs: int, env: dict[str, str]) -> dict[str, float]:
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "lawdiff.cli", *args], check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env
        )
        times.append(time.perf_counter() - start)
    return {"best_s": round(min(times), 3), "median_s": round(statistics.median(times), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--blocks", type=int, default=8, help="blocks of 93 articles (default 8: 744 articles)")
    parser.add_argument("--json", type=Path, default=HERE / "output" / "bench_review.json")
    args = parser.parse_args()
    env = {**os.environ, "LAWDIFF_AUTHOR": "bench", "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        editions, store, export = root / "editions", root / "review.sqlite", root / "export.jsonl"
        start = time.perf_counter()
        write_editions(editions, args.blocks)
        made = time.perf_counter() - start
        pairs, decisions = build_export(editions, export)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "lawdiff.cli", "review", "import", str(export), "--review", str(store)],
            check=True,
            stdout=subprocess.DEVNULL,
            cwd=ROOT,
            env=env,
        )
        imported = time.perf_counter() - start
        corpus = ["--corpus", str(editions)]
        results: dict[str, object] = {
            "articles": args.blocks * BLOCK,
            "decisions": decisions,
            "comments": COMMENTS,
            "store_mb": round(store.stat().st_size / 2**20, 1),
            "generate_s": round(made, 1),
            "import_s": round(imported, 2),
            "runs": args.runs,
        }
        rows: list[dict[str, object]] = []
        for old, new in pairs:
            compare = timed(["compare", old, new, *corpus], args.runs, env)
            listed = timed(["review", "list", "--pair", old, new, "--review", str(store), *corpus], args.runs, env)
            rows.append({"pair": f"{old} -> {new}", "compare": compare, "review_list": listed})
        all_pairs = timed(["review", "list", "--review", str(store), *corpus], args.runs, env)
        results["pairs"] = rows
        results["review_list_all_pairs"] = all_pairs
        compare_sum = sum(float(r["compare"]["median_s"]) for r in rows)  # type: ignore[index]
        results["compare_sum_median_s"] = round(compare_sum, 3)
        results["ratio_all_pairs"] = round(all_pairs["median_s"] / compare_sum, 2)
    print(
        f"{results['articles']} articles x 4 editions; {decisions} decisions, {COMMENTS} comments; "
        f"store {results['store_mb']} MB, imported in {results['import_s']} s"
    )
    print("whole commands, fresh processes (seconds, median of", args.runs, "runs)")
    for r in rows:
        c, v = r["compare"], r["review_list"]
        ratio = v["median_s"] / c["median_s"]  # type: ignore[index]
        r["ratio"] = round(ratio, 2)
        print(
            f"  {r['pair']:16} compare {c['median_s']:7.3f}  review list --pair {v['median_s']:7.3f}  ratio {ratio:.2f}"
        )  # type: ignore[index]
    print(
        f"  all pairs        compare x3 {compare_sum:7.3f}  review list {all_pairs['median_s']:7.3f}  "
        f"ratio {results['ratio_all_pairs']}"
    )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
