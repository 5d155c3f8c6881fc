"""Scope never hides a link (issue 24): what :func:`lawdiff.diff.scope.linked_across_parts` adds where one
corpus holds articles only by some of their sections' pages.

Editions are generated as for the alignment benchmark (``generate.py``, with the gold alignment of
each pair of consecutive editions).  For each pair, one side is cut into section pages as a 2017 wiki
gives them (``Sjabloon:<year>:<n><letter>``, the section's body without its heading): of every
article with two sections or more, one or two sections chosen at random; the other side stays
whole.  Both ways are measured: the new side cut (a clause of the old edition outside the sections
held may have moved into one of them) and the old side cut.  For each:

* ``across``: the gold links between a clause of the whole side that the cut side does not hold and
  a clause the cut side holds (a clause moved into a section held), and how many of them the
  aligner found (``before``) and the aligner with the scope pass (``after``);
* ``made``: the links the scope pass made, and how many of them are gold (``right``);
* the same without the pass's certainty bar (every pair whose words reach ``gap_min``): why the bar.

With ``--reworded`` the editions are rewritten harder (30-60 % of the words of 30 % of the clauses,
more moves and section swaps), so that more moved clauses are reworded.

Run: ``python3 benchmarks/bench_partial.py [--seeds 1 2 3] [--articles 40] [--reworded]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import DEFAULT_RATES, GeneratedEdition, Rates, generate

from lawdiff.align import Alignment, Aspect, align
from lawdiff.corpus import from_pages
from lawdiff.diff.scope import linked_across_parts
from lawdiff.model import Edition
from lawdiff.sources import read_text

REWORDED_RATES = Rates(rewrite=0.3, rewrite_min=0.3, rewrite_max=0.6, move=0.05, swap=0.2)
_SECTION = re.compile(r"[A-Z]\. ")


def edition_of(pages: list[tuple[str, str]]) -> Edition:
    read = [page for name, text in pages for page in read_text(text, name)]
    (edition,) = from_pages(read).editions
    return edition


def section_pages(edition: GeneratedEdition, rng: random.Random) -> list[tuple[str, str]]:
    """One or two sections' pages of every article with two sections or more (bodies without headings)."""
    out: list[tuple[str, str]] = []
    for _, text in edition.pages:
        lines = text.splitlines()
        number = lines[0].rsplit(":", 1)[1]
        heads = [k for k, line in enumerate(lines) if k >= 2 and _SECTION.match(line)]
        if len(heads) < 2:
            continue
        for c in sorted(rng.sample(range(len(heads)), rng.randint(1, min(2, len(heads) - 1)))):
            end = heads[c + 1] if c + 1 < len(heads) else len(lines)
            body = lines[heads[c] + 1 : end]
            label = lines[heads[c]][0]
            if body:
                out.append((f"{number}{label}.txt", f"Sjabloon:{edition.name}:{number}{label}\n" + "\n".join(body)))
    return out


def pairs(alignment: Alignment) -> set[tuple[str, str]]:
    return {(a, b) for link in alignment.links if link.aspect is Aspect.TEXT for a in link.old for b in link.new}


def measure(seeds: list[int], articles: int, rates: Rates) -> dict[str, dict[str, int]]:
    keys = ("across", "before", "after", "made", "right", "made_unbarred", "right_unbarred")
    out = {way: dict.fromkeys(keys, 0) for way in ("new cut", "old cut")}
    for seed in seeds:
        generated = generate(articles, seed=seed, rates=rates)
        rng = random.Random(seed)
        for k, transition in enumerate(generated.transitions):
            gold = {(a, b) for link in transition.links for a in link.old for b in link.new}
            older, newer = generated.editions[k], generated.editions[k + 1]
            for way in out:
                cut_new = way == "new cut"
                old = edition_of(list(older.pages)) if cut_new else edition_of(section_pages(older, rng))
                new = edition_of(section_pages(newer, rng)) if cut_new else edition_of(list(newer.pages))
                base = align(old, new)
                after = linked_across_parts(old, new, base)
                loose = dataclasses.replace(base.thresholds, certain=0.0)
                unbarred = linked_across_parts(old, new, dataclasses.replace(base, thresholds=loose))
                tally(out[way], gold, old, new, pairs(base), pairs(after), pairs(unbarred), cut_new)
    return out


def tally(
    row: dict[str, int],
    gold: set[tuple[str, str]],
    old: Edition,
    new: Edition,
    base: set[tuple[str, str]],
    after: set[tuple[str, str]],
    unbarred: set[tuple[str, str]],
    cut_new: bool,
) -> None:
    def texts(a: str, b: str) -> bool:
        x, y = old.find(a), new.find(b)
        return x is not None and y is not None and bool(x.text) and bool(y.text)

    if cut_new:
        across = {(a, b) for a, b in gold if texts(a, b) and not new.holds(a)}
    else:
        across = {(a, b) for a, b in gold if texts(a, b) and not old.holds(b)}
    row["across"] += len(across)
    row["before"] += len(across & base)
    row["after"] += len(across & after)
    row["made"] += len(after - base)
    row["right"] += len((after - base) & gold)
    row["made_unbarred"] += len(unbarred - base)
    row["right_unbarred"] += len((unbarred - base) & gold)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6])
    parser.add_argument("--articles", type=int, default=40)
    parser.add_argument("--reworded", action="store_true")
    args = parser.parse_args()
    rates = REWORDED_RATES if args.reworded else DEFAULT_RATES
    result = measure(args.seeds, args.articles, rates)
    print(f"seeds {args.seeds}, {args.articles} articles, {'reworded' if args.reworded else 'default'} rates")
    head = ("across", "before", "after", "made", "right")
    print(f"{'':8} " + " ".join(f"{h:>7}" for h in head) + f" {'unbarred: made':>15} {'right':>6}")
    for way, row in result.items():
        cells = " ".join(f"{row[h]:7}" for h in head)
        print(f"{way:8} {cells} {row['made_unbarred']:15} {row['right_unbarred']:6}")


if __name__ == "__main__":
    main()
