"""The alignment benchmark: accuracy, time and memory on full-size generated editions.

Run from the repository root::

    python3 benchmarks/bench_align.py            # the full run (best and median of 5)
    python3 benchmarks/bench_align.py --quick    # one run of each timing

It generates four editions of 93 articles with known edits (``generate.py``),
writes them as wiki pages and reads them with ``lawdiff.corpus.load`` (the real
parser, timed on its own), then

1. measures the text alignment of each pair of consecutive editions against
   the gold: precision and recall of link groups (a predicted group counts
   when it equals a gold group), of (old address, new address) pairs, and per
   kind of edit;
2. times one comparison (two editions) and the three consecutive comparisons
   of four editions plus :func:`lawdiff.diff.history` for a sample of clauses,
   best of N and median, and their peak memory (``tracemalloc`` in this
   process, ``ru_maxrss`` in a fresh child process);
3. times what a user would reach for instead, on the same texts flattened to
   one plain file per edition: ``difflib.HtmlDiff().make_file`` and
   ``git diff --no-index --word-diff``, and prints the ratios.

The figures are printed as a table and written as JSON to
``benchmarks/output/bench_align.json``.
"""

from __future__ import annotations

import argparse
import difflib
import gc
import hashlib
import itertools
import json
import os
import pickle
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The generator sits beside this script; running the script puts this folder
# on sys.path, importing it from elsewhere (the tests) does not.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import (
    DEFAULT_SEED,
    FULL_ARTICLES,
    SPLIT_REWORDED_RATES,
    YEARS,
    Generated,
    GeneratedEdition,
    Transition,
    flatten,
    generate,
    kinds_of,
    write,
)

import lawdiff
from lawdiff.align import DEFAULT_THRESHOLDS, Alignment, Aspect, Link, align
from lawdiff.corpus import load
from lawdiff.diff import Study, compare, history
from lawdiff.model import Edition

OUTPUT = Path(__file__).resolve().parent / "output"
TARGET_PR = 0.95
TARGET_FOUR_SECONDS = 2.0
HISTORY_CLAUSES = 100
KINDS = ("unchanged", "renumbered", "moved", "split", "merged", "rewritten", "added", "removed")
Group = tuple[frozenset[str], frozenset[str]]


# ---------------------------------------------------------------------------
# Accuracy


@dataclass(frozen=True, slots=True)
class Score:
    """Precision and recall: hits among predicted and among gold."""

    hits_predicted: int
    predicted: int
    hits_gold: int
    gold: int

    @property
    def precision(self) -> float:
        return self.hits_predicted / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.hits_gold / self.gold if self.gold else 1.0

    def __add__(self, other: Score) -> Score:
        return Score(
            self.hits_predicted + other.hits_predicted,
            self.predicted + other.predicted,
            self.hits_gold + other.hits_gold,
            self.gold + other.gold,
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "predicted": self.predicted,
            "gold": self.gold,
            "correct_predicted": self.hits_predicted,
            "correct_gold": self.hits_gold,
        }


def _score(predicted: Iterable[Any], gold: Iterable[Any]) -> Score:
    p, g = list(predicted), list(gold)
    ps, gs = set(p), set(g)
    return Score(sum(1 for x in p if x in gs), len(p), sum(1 for x in g if x in ps), len(g))


def _group(old: Iterable[str], new: Iterable[str]) -> Group:
    return (frozenset(old), frozenset(new))


@dataclass(frozen=True, slots=True)
class Accuracy:
    """The accuracy of one alignment (or a sum of several)."""

    groups: Score
    edit_groups: Score  # leaving out the unchanged ones, on both sides
    pairs: Score
    by_kind: dict[str, Score]
    by_edit: dict[str, Score]  # recall by the generator's edit behind a gold group
    failures: tuple[dict[str, Any], ...]
    coverage_errors: int  # own-text clauses not in exactly one link per side

    def __add__(self, other: Accuracy) -> Accuracy:
        return Accuracy(
            self.groups + other.groups,
            self.edit_groups + other.edit_groups,
            self.pairs + other.pairs,
            _add_maps(self.by_kind, other.by_kind),
            _add_maps(self.by_edit, other.by_edit),
            self.failures + other.failures,
            self.coverage_errors + other.coverage_errors,
        )


def _add_maps(a: dict[str, Score], b: dict[str, Score]) -> dict[str, Score]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out[k] + v if k in out else v
    return out


def accuracy(alignment: Alignment, transition: Transition, old: GeneratedEdition, new: GeneratedEdition) -> Accuracy:
    """Compare an alignment's text links with the gold of a transition."""
    old_text = {u.address: u.text for u in old.units}
    new_text = {u.address: u.text for u in new.units}
    links = [link for link in alignment.links if link.aspect is Aspect.TEXT]
    pred = {_group(link.old, link.new): link for link in links}
    gold = {_group(g.old, g.new): g for g in transition.links}
    pred_kinds = {k: kinds_of(link.old, link.new, old_text, new_text) for k, link in pred.items()}
    gold_kinds = {k: kinds_of(g.old, g.new, old_text, new_text) for k, g in gold.items()}

    def pairs(groups: Iterable[Group]) -> list[tuple[str, str]]:
        return [(o, n) for olds, news in groups for o in sorted(olds) for n in sorted(news)]

    by_kind: dict[str, Score] = {}
    for kind in (*KINDS, "tangle"):
        p_keys = [k for k, tags in pred_kinds.items() if kind in tags]
        g_keys = [k for k, tags in gold_kinds.items() if kind in tags]
        if p_keys or g_keys:
            s_p = sum(1 for k in p_keys if k in gold)
            s_g = sum(1 for k in g_keys if k in pred)
            by_kind[kind] = Score(s_p, len(p_keys), s_g, len(g_keys))
    # Recall only: a predicted group has no generator edit to be counted under.
    by_edit: dict[str, Score] = {}
    for k, g in gold.items():
        for e in g.edits or ("none",):
            hit = int(k in pred)
            by_edit[e] = by_edit.get(e, Score(0, 0, 0, 0)) + Score(0, 0, hit, 1)
    edits_pred = [k for k, t in pred_kinds.items() if t != ("unchanged",)]
    edits_gold = [k for k, t in gold_kinds.items() if t != ("unchanged",)]

    # Every own-text clause in exactly one link on each side.
    seen_old = [a for link in links for a in link.old]
    seen_new = [a for link in links for a in link.new]
    coverage = abs(len(seen_old) - len(set(seen_old))) + abs(len(seen_new) - len(set(seen_new)))
    coverage += len(set(old_text) ^ set(seen_old)) + len(set(new_text) ^ set(seen_new))

    failures: list[dict[str, Any]] = []
    for k, g in gold.items():
        if k in pred:
            continue
        touching = [link for link in links if set(link.old) & set(g.old) or set(link.new) & set(g.new)]
        failures.append(
            {
                "transition": f"{transition.old}->{transition.new}",
                "side": "missed",
                "kinds": list(gold_kinds[k]),
                "edits": list(g.edits),
                "gold": {"old": list(g.old), "new": list(g.new)},
                "predicted": [_link_json(link) for link in touching],
                "texts": _texts(g.old, g.new, old_text, new_text),
            }
        )
    for k, link in pred.items():
        if k in gold:
            continue
        touching_gold = [g for g in transition.links if set(g.old) & set(link.old) or set(g.new) & set(link.new)]
        failures.append(
            {
                "transition": f"{transition.old}->{transition.new}",
                "side": "wrong",
                "kinds": list(pred_kinds[k]),
                "predicted": [_link_json(link)],
                "gold": [{"old": list(g.old), "new": list(g.new), "edits": list(g.edits)} for g in touching_gold],
                "texts": _texts(link.old, link.new, old_text, new_text),
            }
        )
    return Accuracy(
        groups=_score(pred, gold),
        edit_groups=Score(
            sum(1 for k in edits_pred if k in gold),
            len(edits_pred),
            sum(1 for k in edits_gold if k in pred),
            len(edits_gold),
        ),
        pairs=_score(pairs(pred), pairs(gold)),
        by_kind=by_kind,
        by_edit=by_edit,
        failures=tuple(failures),
        coverage_errors=coverage,
    )


def reworded_splits(articles: int, seed: int) -> tuple[Score, list[dict[str, Any]]]:
    """Splits under rewording (issue 24), on editions made with ``SPLIT_REWORDED_RATES`` (the default
    edits plus 3 % of clauses of 2-5 sentences split into 2-5 clauses, some reordered, each reworded
    30-60 % by word insertions and deletions): counted as links between the old clause and each new
    part; a predicted pair counts against precision when it touches the case's old clause or a part.
    Also the failures, for the JSON."""
    generated = generate(articles, YEARS, seed, SPLIT_REWORDED_RATES)
    score = Score(0, 0, 0, 0)
    failures: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="lawdiff-bench-") as tmp:
        write(generated, Path(tmp))
        editions = load([Path(tmp)]).editions
    for k, tr in enumerate(generated.transitions):
        alignment = align(editions[k], editions[k + 1])
        gold = {(o, n) for g in tr.links if "split-reworded" in g.edits for o in g.old for n in g.new}
        olds = {o for o, _ in gold}
        news = {n for _, n in gold}
        pred = {
            (o, n)
            for link in alignment.links
            if link.aspect is Aspect.TEXT
            for o in link.old
            for n in link.new
            if o in olds or n in news
        }
        score = score + Score(len(pred & gold), len(pred), len(pred & gold), len(gold))
        for o in sorted(olds):
            want = sorted(n for x, n in gold if x == o)
            got = sorted(n for x, n in pred if x == o)
            if want != got:
                failures.append({"transition": f"{tr.old}->{tr.new}", "old": o, "gold": want, "got": got})
    return score, failures


def _link_json(link: Link) -> dict[str, Any]:
    return {
        "old": list(link.old),
        "new": list(link.new),
        "score": link.score,
        "method": link.method,
        "reasons": list(link.reasons),
    }


def _texts(
    old: Iterable[str], new: Iterable[str], old_text: dict[str, str], new_text: dict[str, str]
) -> dict[str, str]:
    out = {f"old {a}": old_text.get(a, "") for a in old}
    out.update({f"new {a}": new_text.get(a, "") for a in new})
    return out


# ---------------------------------------------------------------------------
# Timing and memory


@dataclass(frozen=True, slots=True)
class Timing:
    """Seconds of N runs."""

    runs: tuple[float, ...]

    @property
    def best(self) -> float:
        return min(self.runs)

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    def as_dict(self) -> dict[str, Any]:
        return {"best": round(self.best, 4), "median": round(self.median, 4), "runs": [round(r, 4) for r in self.runs]}


def timed(work: Callable[[], object], runs: int) -> Timing:
    out: list[float] = []
    for _ in range(runs):
        # A full collection first, so that no run pays for the garbage of the one before.
        gc.collect()
        start = time.perf_counter()
        work()
        out.append(time.perf_counter() - start)
    return Timing(tuple(out))


def peak_bytes(work: Callable[[], object]) -> int:
    """Peak memory allocated by Python while ``work`` runs (tracemalloc)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def two_editions(editions: tuple[Edition, ...]) -> Callable[[], object]:
    return lambda: compare(editions[0], editions[1])


def four_editions(editions: tuple[Edition, ...], addresses: list[tuple[int, str]]) -> Callable[[], object]:
    """The three consecutive comparisons, then the history of a sample of clauses."""

    def work() -> object:
        comparer = Study(editions)
        out: list[object] = [comparer.compare(a, b) for a, b in itertools.pairwise(editions)]
        out.extend(history(comparer, editions[k], address) for k, address in addresses)
        return out

    return work


def histories_only(editions: tuple[Edition, ...], addresses: list[tuple[int, str]]) -> Callable[[], object]:
    """The histories alone, on a comparer whose three comparisons are already made."""
    comparer = Study(editions)
    for a, b in itertools.pairwise(editions):
        comparer.compare(a, b)
    return lambda: [history(comparer, editions[k], address) for k, address in addresses]


def history_sample(editions: tuple[Edition, ...], count: int) -> list[tuple[int, str]]:
    """Every n-th own-text clause of the middle editions (histories run both ways from there)."""
    out: list[tuple[int, str]] = []
    for k in range(1, len(editions) - 1) if len(editions) > 2 else range(len(editions)):
        addrs = [c.address for c in editions[k].walk() if c.text]
        step = max(1, len(addrs) * max(1, len(editions) - 2) // max(1, count))
        out.extend((k, a) for a in addrs[::step])
    return out[:count]


def start_child(mode: str) -> subprocess.Popen[str]:
    """A fresh process that will time nothing, only measure its peak resident memory.

    Linux carries a process's peak (ru_maxrss) over fork and exec, so a child
    started late would report this process's peak; children started before
    anything big is made report their own.  The child waits for the path of
    the pickled editions (parsing peaks higher than comparing, and would hide
    the comparison's own peak).
    """
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--child", mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def child_rss(child: subprocess.Popen[str], pickled: Path) -> dict[str, int]:
    """ru_maxrss (KiB) of the child after loading the editions, and after the work."""
    out, _ = child.communicate(str(pickled) + "\n")
    if child.returncode != 0:
        raise RuntimeError(f"the memory child failed with exit code {child.returncode}")
    result: dict[str, int] = json.loads(out.strip().splitlines()[-1])
    return result


def _child(mode: str) -> None:
    pickled = Path(sys.stdin.readline().strip())
    editions: tuple[Edition, ...] = pickle.loads(pickled.read_bytes())
    loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if mode == "two":
        two_editions(editions)()
    else:
        four_editions(editions, history_sample(editions, HISTORY_CLAUSES))()
    done = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"after_load_kib": loaded, "after_work_kib": done, "work_kib": done - loaded}))


# ---------------------------------------------------------------------------
# Baselines


def baselines(flat: list[Path], runs: int) -> dict[str, Any]:
    """difflib.HtmlDiff and git diff --word-diff on the flattened editions."""
    texts = [p.read_text(encoding="utf-8").splitlines() for p in flat]
    pairs = list(zip(range(len(flat)), range(1, len(flat)), strict=False))

    def html(which: list[tuple[int, int]]) -> Callable[[], object]:
        return lambda: [difflib.HtmlDiff().make_file(texts[a], texts[b]) for a, b in which]

    out: dict[str, Any] = {
        "htmldiff_two": timed(html(pairs[:1]), runs),
        "htmldiff_four": timed(html(pairs), runs),
    }
    git = shutil.which("git")
    if git:

        def gitdiff(which: list[tuple[int, int]]) -> Callable[[], object]:
            def work() -> object:
                for a, b in which:
                    # Exit code 1 means "the files differ".
                    subprocess.run(
                        [git, "diff", "--no-index", "--word-diff", "--no-color", str(flat[a]), str(flat[b])],
                        capture_output=True,
                        check=False,
                    )
                return None

            return work

        out["git_two"] = timed(gitdiff(pairs[:1]), runs)
        out["git_four"] = timed(gitdiff(pairs), runs)
    return out


# ---------------------------------------------------------------------------
# The run


def check_parse(generated: Generated, editions: tuple[Edition, ...]) -> list[str]:
    """Whether the parser read back every generated clause: what differs."""
    problems: list[str] = []
    for gen, ed in zip(generated.editions, editions, strict=True):
        parsed = [(c.address, c.text) for c in ed.walk() if c.text]
        want = [(u.address, u.text) for u in gen.units]
        if parsed != want:
            got = dict(parsed)
            for address, text in want:
                if got.get(address) != text:
                    problems.append(f"{gen.name}:{address}: generated {text[:80]!r}, parsed {got.get(address)!r}")
            problems.extend(f"{gen.name}:{a}: parsed but not generated" for a, _ in parsed if a not in dict(want))
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="one run of each timing instead of --runs")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each workload (default 5)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"generator seed (default {DEFAULT_SEED})")
    parser.add_argument("--articles", type=int, default=FULL_ARTICLES, help="articles per edition (default 93)")
    parser.add_argument("--keep", type=Path, help="write the generated editions here and keep them")
    parser.add_argument("--json", type=Path, default=OUTPUT / "bench_align.json", help="where to write the figures")
    parser.add_argument("--examples", type=int, default=3, help="failures shown per kind (default 3)")
    parser.add_argument("--child", choices=("two", "four"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child)
        return 0
    runs = 1 if args.quick else max(1, args.runs)
    children = {mode: start_child(mode) for mode in ("two", "four")}

    start = time.perf_counter()
    generated = generate(args.articles, YEARS, args.seed)
    gen_seconds = time.perf_counter() - start
    with tempfile.TemporaryDirectory(prefix="lawdiff-bench-") as tmp:
        folder = args.keep or Path(tmp) / "editions"
        if args.keep and folder.exists():
            shutil.rmtree(folder)
        write(generated, folder)
        flat_dir = Path(tmp) / "flat"
        flat_dir.mkdir()
        flat = []
        for ed in generated.editions:
            path = flat_dir / f"edition-{ed.name}.txt"
            path.write_text(flatten(ed), encoding="utf-8")
            flat.append(path)

        parse = timed(lambda: load([folder]), runs)
        editions = load([folder]).editions
        problems = check_parse(generated, editions)
        if problems:
            for child in children.values():
                child.kill()
            print("The parser did not read back the generated editions:", file=sys.stderr)
            for p in problems[:20]:
                print(f"  {p}", file=sys.stderr)
            return 2

        # Accuracy, per transition and summed.
        per: list[tuple[str, Accuracy]] = []
        for k, tr in enumerate(generated.transitions):
            alignment = align(editions[k], editions[k + 1])
            per.append(
                (f"{tr.old}->{tr.new}", accuracy(alignment, tr, generated.editions[k], generated.editions[k + 1]))
            )
        total = per[0][1]
        for _, acc in per[1:]:
            total = total + acc
        reworded, reworded_failures = reworded_splits(args.articles, args.seed)

        # Time and memory.
        sample = history_sample(editions, HISTORY_CLAUSES)
        align_two = timed(lambda: align(editions[0], editions[1]), runs)
        two = timed(two_editions(editions), runs)
        three = timed(lambda: [Study(editions).compare(a, b) for a, b in itertools.pairwise(editions)], runs)
        four = timed(four_editions(editions, sample), runs)
        hist_time = timed(histories_only(editions, sample), runs)
        mem_two = peak_bytes(two_editions(editions))
        mem_four = peak_bytes(four_editions(editions, sample))
        pickled = Path(tmp) / "editions.pickle"
        pickled.write_bytes(pickle.dumps(editions))
        rss_two = child_rss(children["two"], pickled)
        rss_four = child_rss(children["four"], pickled)
        base = baselines(flat, runs)

    figures = _figures(args, generated, gen_seconds, per, total, parse, two, align_two, four, len(sample))
    figures["time_seconds"]["compare_four_editions"] = three.as_dict()
    figures["time_seconds"]["histories_alone"] = hist_time.as_dict()
    figures["memory"] = {
        "tracemalloc_peak_mib": {"two": round(mem_two / 2**20, 1), "four": round(mem_four / 2**20, 1)},
        "ru_maxrss_kib": {"two": rss_two, "four": rss_four},
    }
    figures["baselines"] = {k: v.as_dict() for k, v in base.items()}
    figures["split_reworded"] = {
        "precision": round(reworded.precision, 4),
        "recall": round(reworded.recall, 4),
        "predicted": reworded.predicted,
        "gold": reworded.gold,
        "failures": reworded_failures,
    }
    # Like for like: one comparison against one baseline diff, the three
    # consecutive comparisons against three (histories are lawdiff's own extra).
    figures["ratios"] = {
        f"lawdiff/{k}": round((two if k.endswith("two") else three).best / v.best, 3)
        for k, v in base.items()
        if v.best > 0
    }
    _print(figures, total, args.examples)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nfigures written to {args.json}")
    return 0


def _figures(
    args: argparse.Namespace,
    generated: Generated,
    gen_seconds: float,
    per: list[tuple[str, Accuracy]],
    total: Accuracy,
    parse: Timing,
    two: Timing,
    align_two: Timing,
    four: Timing,
    histories: int,
) -> dict[str, Any]:
    def acc_json(acc: Accuracy) -> dict[str, Any]:
        return {
            "groups": acc.groups.as_dict(),
            "edit_groups": acc.edit_groups.as_dict(),
            "pairs": acc.pairs.as_dict(),
            "by_kind": {k: v.as_dict() for k, v in acc.by_kind.items()},
            "recall_by_generator_edit": {
                k: {"recall": round(v.recall, 4), "gold": v.gold, "correct": v.hits_gold}
                for k, v in sorted(acc.by_edit.items())
            },
            "coverage_errors": acc.coverage_errors,
        }

    return {
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
        },
        # Which alignment code the figures are for (it changes between commits).
        "code": {
            "lawdiff": lawdiff.__version__,
            "git_head": _git_head(),
            "sha256_align_diff": hashlib.sha256(
                b"".join(
                    f.read_bytes()
                    for sub in ("align", "diff")
                    for f in sorted((Path(lawdiff.__file__).parent / sub).glob("*.py"))
                )
            ).hexdigest()[:16],
        },
        "setup": {
            "seed": generated.seed,
            "articles": args.articles,
            "editions": [e.name for e in generated.editions],
            "clauses_with_text": {e.name: len(e.units) for e in generated.editions},
            "edits": {
                f"{t.old}->{t.new}": dict(sorted(_count(e.kind for e in t.edits).items()))
                for t in generated.transitions
            },
            "thresholds": DEFAULT_THRESHOLDS.as_dict(),
            "runs": 1 if args.quick else args.runs,
            "history_clauses": histories,
            "generate_seconds": round(gen_seconds, 3),
        },
        "accuracy": {"total": acc_json(total), **{name: acc_json(acc) for name, acc in per}},
        "time_seconds": {
            "parse_four_editions": parse.as_dict(),
            "align_two_editions": align_two.as_dict(),
            "compare_two_editions": two.as_dict(),
            "compare_four_editions_with_history": four.as_dict(),
        },
        "targets": {
            "precision_recall_min": TARGET_PR,
            "four_editions_seconds_max": TARGET_FOUR_SECONDS,
            "met_precision_recall": min(total.edit_groups.precision, total.edit_groups.recall) >= TARGET_PR,
            "met_time": four.best < TARGET_FOUR_SECONDS,
            "kinds_below_target": sorted(
                k for k, v in total.by_kind.items() if min(v.precision, v.recall) < TARGET_PR and k != "tangle"
            ),
        },
        "failures": list(total.failures),
    }


def _git_head() -> str:
    git = shutil.which("git")
    if not git:
        return ""
    proc = subprocess.run(
        [git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False, cwd=Path(__file__).parent
    )
    return proc.stdout.strip()


def _count(items: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out


def _print(f: dict[str, Any], total: Accuracy, examples: int) -> None:
    setup = f["setup"]
    print(
        f"lawdiff alignment benchmark: {setup['articles']} articles x {len(setup['editions'])} editions "
        f"({', '.join(setup['editions'])}), seed {setup['seed']}, "
        f"{'/'.join(str(n) for n in setup['clauses_with_text'].values())} clauses with text"
    )
    print(f"python {f['machine']['python']} on {f['machine']['platform']}, {f['machine']['cpus']} cpus\n")

    print("ACCURACY (text links, three consecutive comparisons summed)")
    print(f"  {'':26} {'precision':>9} {'recall':>7} {'predicted':>9} {'gold':>6}")

    def row(name: str, s: Score) -> None:
        print(f"  {name:26} {s.precision:9.3f} {s.recall:7.3f} {s.predicted:9d} {s.gold:6d}")

    row("groups (all)", total.groups)
    sr = f["split_reworded"]
    print(
        f"  {'splits under rewording':26} {sr['precision']:9.3f} {sr['recall']:7.3f} {sr['predicted']:9d}"
        f" {sr['gold']:6d}   (pairs old -> each part, on editions of their own)"
    )
    row("groups (edits only)", total.edit_groups)
    row("pairs (old, new)", total.pairs)
    for kind in (*KINDS, "tangle"):
        if kind in total.by_kind:
            row(f"  {kind}", total.by_kind[kind])
    print("  recall by generator edit:")
    for edit, s in sorted(total.by_edit.items()):
        print(f"    {edit:24} {s.recall:7.3f} of {s.gold}")
    if total.coverage_errors:
        print(f"  !! {total.coverage_errors} own-text clauses not in exactly one link per side")

    t = f["time_seconds"]
    print("\nTIME (seconds; best / median of runs)")
    for name, label in (
        ("parse_four_editions", "parse 4 editions"),
        ("align_two_editions", "align 2 editions"),
        ("compare_two_editions", "compare 2 editions"),
        ("compare_four_editions", "compare 4 editions (3 comparisons)"),
        ("histories_alone", f"{setup['history_clauses']} histories (comparisons cached)"),
        ("compare_four_editions_with_history", f"compare 4 + {setup['history_clauses']} histories"),
    ):
        print(f"  {label:34} {t[name]['best']:8.3f} {t[name]['median']:8.3f}")
    m = f["memory"]
    print("\nMEMORY")
    print(
        f"  tracemalloc peak      2 editions {m['tracemalloc_peak_mib']['two']:7.1f} MiB"
        f"   4 editions {m['tracemalloc_peak_mib']['four']:7.1f} MiB"
    )
    for mode in ("two", "four"):
        r = m["ru_maxrss_kib"][mode]
        print(
            f"  ru_maxrss ({mode:4})      after load {r['after_load_kib'] / 1024:7.1f} MiB"
            f"   after work {r['after_work_kib'] / 1024:7.1f} MiB"
        )
    print("\nBASELINES on the flattened texts (seconds; best / median) and lawdiff time / baseline time")
    for name, b in f["baselines"].items():
        print(f"  {name:34} {b['best']:8.3f} {b['median']:8.3f}   ratio {f['ratios'].get('lawdiff/' + name, 0):.3f}")
    tg = f["targets"]
    print(
        f"\nTARGETS  precision and recall >= {tg['precision_recall_min']} on edits: "
        f"{'met' if tg['met_precision_recall'] else 'NOT met'}"
        f";  four editions < {tg['four_editions_seconds_max']} s: {'met' if tg['met_time'] else 'NOT met'}"
    )
    if tg["kinds_below_target"]:
        print(f"         kinds below {tg['precision_recall_min']}: {', '.join(tg['kinds_below_target'])}")
    if examples and total.failures:
        print(f"\nFAILURES ({len(total.failures)}; up to {examples} per kind, all in the JSON)")
        shown: dict[str, int] = {}
        for fail in total.failures:
            key = f"{fail['side']} {'+'.join(fail['kinds'])}"
            if shown.get(key, 0) >= examples:
                continue
            shown[key] = shown.get(key, 0) + 1
            gold = fail["gold"]
            golds = gold if isinstance(gold, list) else [gold]
            print(f"  [{key}] {fail['transition']}")
            for g in golds:
                print(f"     gold {g['old']} -> {g['new']}  edits {g.get('edits', fail.get('edits'))}")
            for p in fail["predicted"]:
                print(f"     got  {p['old']} -> {p['new']}  score {p['score']} {p['method']}")


if __name__ == "__main__":
    sys.exit(main())
