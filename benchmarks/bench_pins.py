"""Hand corrections on full-size editions: pinning an article's gold links gives its gold alignment.

Run from the repository root::

    python3 benchmarks/bench_pins.py               # every article of the 2007 -> 2017 pair
    python3 benchmarks/bench_pins.py --articles 93 --sample 30

For each article of the generator's editions (``generate.py``, 93 articles,
four editions with known edits; the pair 2007 -> 2017), the committee's
correction is simulated: every gold link of the article with clauses on both
sides is pinned (``lawdiff.align.Pin``).  The benchmark counts the articles
whose links then equal the gold exactly, and the links elsewhere that
changed although they involve neither a pinned clause nor a former partner
of one (there should be none).  A removal and an addition cannot be pinned
(a new subject at the same address, 2007 23 and 2017 23): an article whose
pins alone leave such a pair linked is counted apart, and counted again with
the committee's other correction, a forbidden pair (``lawdiff.align.Forbid``)
for each removed and added clause of the article.  It also times the alignment with and without
the pins.  The figures are printed and written as JSON to
``benchmarks/output/bench_pins.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

from lawdiff.align import Aspect, Corrections, Forbid, Pin, align  # noqa: E402
from lawdiff.corpus import from_pages  # noqa: E402
from lawdiff.sources import read_text  # noqa: E402

Links = set[tuple[tuple[str, ...], tuple[str, ...]]]


def _article(address: str) -> str:
    digits = ""
    for ch in address:
        if not ch.isdigit():
            break
        digits += ch
    return digits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--articles", type=int, default=generate.FULL_ARTICLES)
    parser.add_argument("--sample", type=int, default=0, help="only this many articles (0: all)")
    parser.add_argument("--json", type=Path, default=HERE / "output" / "bench_pins.json")
    args = parser.parse_args()
    generated = generate.generate(articles=args.articles, years=(2007, 2017))
    pages = [p for e in generated.editions for name, text in e.pages for p in read_text(text, f"{e.name}/{name}")]
    corpus = from_pages(pages)
    old, new = corpus.edition("2007"), corpus.edition("2017")
    gold = generated.transitions[0].links

    def text_links(corrections: Corrections | None = None) -> Links:
        return {(lk.old, lk.new) for lk in align(old, new, corrections=corrections).links if lk.aspect is Aspect.TEXT}

    start = time.perf_counter()
    before = text_links()
    plain_s = time.perf_counter() - start
    numbers = sorted({_article(a) for g in gold for a in g.old + g.new}, key=int)
    if args.sample:
        numbers = numbers[: args.sample]
    exact = 0
    exact_with_forbids = 0
    moved_elsewhere = 0
    wrong: list[str] = []
    pinned_s: list[float] = []
    for number in numbers:
        mine = [g for g in gold if any(_article(a) == number for a in g.old + g.new)]
        pins = tuple(Pin(g.old, g.new, "bench") for g in mine if g.old and g.new)
        start = time.perf_counter()
        after = text_links(Corrections(pins=pins))
        pinned_s.append(time.perf_counter() - start)
        got = {lk for lk in after if any(_article(a) == number for a in lk[0] + lk[1])}
        wanted = {(g.old, g.new) for g in mine}
        if got == wanted:
            exact += 1
            exact_with_forbids += 1
        else:
            wrong.append(number)
            removed = [a for g in mine if not g.new for a in g.old]
            added = [a for g in mine if not g.old for a in g.new]
            forbids = tuple(Forbid(o, n, "bench") for o in removed for n in added)
            again = text_links(Corrections(pins=pins, forbids=forbids))
            if {lk for lk in again if any(_article(a) == number for a in lk[0] + lk[1])} == wanted:
                exact_with_forbids += 1
        touched = {a for p in pins for a in p.old + p.new}
        touched |= {a for lk in before if touched & set(lk[0] + lk[1]) for a in lk[0] + lk[1]}
        untouched_before = {lk for lk in before if not touched & set(lk[0] + lk[1])}
        untouched_after = {lk for lk in after if not touched & set(lk[0] + lk[1])}
        moved_elsewhere += len(untouched_before ^ untouched_after)
    figures = {
        "articles": len(numbers),
        "exact_after_pinning": exact,
        "articles_not_exact_with_pins_alone": wrong,
        "exact_with_pins_and_forbids": exact_with_forbids,
        "unrelated_links_changed": moved_elsewhere,
        "align_s": round(plain_s, 3),
        "align_with_pins_median_s": round(statistics.median(pinned_s), 3) if pinned_s else 0.0,
    }
    print(json.dumps(figures, indent=2))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
