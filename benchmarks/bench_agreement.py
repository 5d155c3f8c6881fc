"""Benchmark and sweep: every rendering agrees with the study over many generated corpora (issue 22).

The wide sweep of ``tests/test_agreement.py``: ``--corpora`` corpora of ``generate.py`` (1 to
``--articles`` articles, four editions each, seeds from ``--seed``), each pair of consecutive editions
compared, rendered as text, JSON, HTML and the Word redline, and read back by the checks of
``tests/agreement.py``: the same kind, addresses and scope for every change in every rendering; the
redline accepted is the new edition's compared text and rejected the old one's; nothing not compared is
tracked; no heading paired with a body.  It prints every disagreement it finds (none is the target),
and the time per corpus, CPU (this process) beside wall.

Run: ``python3 benchmarks/bench_agreement.py [--corpora 2000] [--articles 5] [--seed 0]``
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the checks: tests/agreement.py and test_docx.check
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
from agreement import disagreements  # noqa: E402
from test_docx import check  # noqa: E402

from lawdiff.corpus import from_pages  # noqa: E402
from lawdiff.diff import compare  # noqa: E402
from lawdiff.sources import read_text  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=int, default=2000)
    parser.add_argument("--articles", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ.setdefault("SOURCE_DATE_EPOCH", "1700000000")
    lexicon = generate.seed_lexicon()
    found = 0
    pairs = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for k in range(args.corpora):
        seed = args.seed + k
        made = generate.generate(articles=1 + k % args.articles, seed=seed, lexicon=lexicon)
        pages = [p for e in made.editions for name, t in e.pages for p in read_text(t, f"{e.name}/{name}", e.name)]
        corpus = from_pages(pages)
        for old, new in itertools.pairwise(corpus.editions):
            pairs += 1
            for fault in disagreements(compare(old, new), old, new, check):
                found += 1
                print(f"seed {seed}, {old.name} -> {new.name}: {fault}")
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"{args.corpora} corpora, {pairs} pairs: {found} disagreement(s); "
        f"{1000 * cpu / args.corpora:.1f} ms CPU and {1000 * wall / args.corpora:.1f} ms wall per corpus"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
