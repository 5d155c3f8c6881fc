"""Fit the certainty of a link (issue 24, item 2): a logistic model on the benchmark's labelled links.

The rows: the links the aligner guesses in the bundled corpus's gold cases (``tests/fixtures/align``,
both ways), each weighing :data:`REAL_WEIGHT`, and, for each generator seed of ``--fit`` (default:
bench_align's seed 2017 and the next five), the four
editions of ``generate.py`` (93 articles) are written as wiki pages, read back and aligned pair by
pair; every text link with clauses on both sides that the aligner guessed (not an identity, a
declared or a pinned one) is a row: its features (:data:`lawdiff.align.certainty.FEATURES`) and
whether it is right (the same group as the gold, which the generator knows by construction).
A logistic regression with a small L2 penalty (Newton's method, pure Python) is fitted on them and
written to ``lawdiff/align/certainty.json``; the rows to ``benchmarks/data/certainty_links.csv``.
Running the script again on the same seeds gives the same files.

Then the model is checked on held-out seeds (``--held-out``, default 7, 11, 23: corpora the fit never
saw): of the links shown as certain (certainty >= 0.9) how many are right, how many right links are
shown as uncertain, how many wrong links are; the same for the old rule (evidence below 0.75), and
the reliability diagram (predicted certainty against the share right, by bins of 0.1), printed and,
with matplotlib installed (``pip install matplotlib``; the script's only need of it), drawn to
``benchmarks/certainty-reliability.png``.

Run: ``python3 benchmarks/fit_certainty.py [--fit 2017 2018 2019] [--held-out 7 11 23] [--articles 93]``
(``--check``: evaluate the model in the repository on the held-out seeds, without fitting).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import FULL_ARTICLES, YEARS, generate, write

from lawdiff.align import Aspect, Method, align, units
from lawdiff.align.certainty import FEATURES, MODEL_FILE, Sides, features, probability
from lawdiff.corpus import load
from lawdiff.model import Edition, article_of

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "lawdiff" / "align" / MODEL_FILE
DATA = Path(__file__).resolve().parent / "data" / "certainty_links.csv"
PICTURE = Path(__file__).resolve().parent / "certainty-reliability.png"
CERTAIN = 0.9
OLD_CERTAIN = 0.75
L2 = 1.0
# A link of the bundled corpus weighs as many generated ones: there are a few dozen of them, and they
# are the real re-draftings the generator does not make.
REAL_WEIGHT = 10.0
GOLD = ROOT / "tests" / "fixtures" / "align"
_GUESSED = frozenset({Method.IDENTITY, Method.DECLARED, Method.PINNED})


@dataclass(frozen=True, slots=True)
class Row:
    seed: int  # 0 for a link of the bundled corpus
    pair: str
    old: str
    new: str
    x: tuple[float, ...]
    right: bool

    @property
    def weight(self) -> float:
        return REAL_WEIGHT if self.seed == 0 else 1.0


def _guessed(
    old: Edition, new: Edition, gold: set[tuple[frozenset[str], frozenset[str]]], seed: int, scope: str
) -> list[Row]:
    """The links of one pair that the aligner guessed, labelled against ``gold`` (``scope``: an article, or all)."""
    out: list[Row] = []
    links = align(old, new).links
    sides = Sides(units(old), units(new), links)
    for link in links:
        if link.aspect is not Aspect.TEXT or not (link.old and link.new) or _GUESSED.intersection(link.methods):
            continue
        if scope and not any(article_of(a) == scope for a in link.old + link.new):
            continue
        right = (frozenset(link.old), frozenset(link.new)) in gold
        out.append(
            Row(seed, f"{old.name}->{new.name}", " ".join(link.old), " ".join(link.new), features(link, sides), right)
        )
    return out


def real_rows() -> list[Row]:
    """The links the aligner guesses in the bundled corpus's gold cases (``tests/fixtures/align/*.gold``, both
    ways where a case says ``mirror: yes``), labelled by the gold: real re-draftings (1963 -> 2007: every
    item of article 45 rewritten) that the generator does not make."""
    corpus = load()
    out: list[Row] = []
    for path in sorted(GOLD.glob("*.gold")):
        head: dict[str, str] = {}
        gold: set[tuple[frozenset[str], frozenset[str]]] = set()
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if "->" not in line:
                key, _, value = line.partition(":")
                head[key.strip()] = value.strip()
                continue
            link = line.split(":", 1)[0]
            olds, _, news = link.partition("->")
            side = [tuple(a.strip() for a in part.split(",") if a.strip() not in ("", "-")) for part in (olds, news)]
            gold.add((frozenset(side[0]), frozenset(side[1])))
        a, b = head["compare"].split()
        scope = head.get("article", "")
        out += _guessed(corpus.edition(a), corpus.edition(b), gold, 0, scope)
        if head.get("mirror") == "yes":
            out += _guessed(corpus.edition(b), corpus.edition(a), {(n, o) for o, n in gold}, 0, scope)
    return out


def rows(seed: int, articles: int) -> list[Row]:
    """The guessed text links of one generated corpus, labelled against its gold."""
    generated = generate(articles, YEARS, seed)
    out: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="lawdiff-certainty-") as tmp:
        write(generated, Path(tmp))
        editions = load([Path(tmp)]).editions
    for k, tr in enumerate(generated.transitions):
        gold = {(frozenset(g.old), frozenset(g.new)) for g in tr.links}
        out += _guessed(editions[k], editions[k + 1], gold, seed, "")
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a small, well-conditioned system)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(data: list[Row], l2: float = L2, steps: int = 50) -> tuple[list[float], float]:
    """Logistic regression by Newton's method, each row weighing :attr:`Row.weight`; ``l2`` penalizes the
    weights, not the bias."""
    n = len(FEATURES) + 1
    theta = [0.0] * n
    xs = [(*r.x, 1.0) for r in data]
    ys = [1.0 if r.right else 0.0 for r in data]
    cs = [r.weight for r in data]
    for _ in range(steps):
        grad = [l2 * t for t in theta[:-1]] + [0.0]
        hess = [[(l2 if i == j and i < n - 1 else 0.0) for j in range(n)] for i in range(n)]
        for x, y, c in zip(xs, ys, cs, strict=True):
            z = sum(t * v for t, v in zip(theta, x, strict=True))
            p = 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))
            for i in range(n):
                grad[i] += c * (p - y) * x[i]
                for j in range(n):
                    hess[i][j] += c * p * (1 - p) * x[i] * x[j]
        step = _solve(hess, grad)
        theta = [t - s for t, s in zip(theta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return theta[:-1], theta[-1]


def figures(data: list[Row], weights: list[float] | tuple[float, ...], bias: float) -> dict[str, float]:
    """The issue's figures for a set of links under a model, and under the old rule for comparison."""
    p = [probability(r.x, weights, bias) for r in data]
    right = [r.right for r in data]
    certain = [q >= CERTAIN for q in p]
    old_certain = [r.x[0] >= OLD_CERTAIN for r in data]

    def share(num: int, den: int) -> float:
        return round(num / den, 3) if den else float("nan")

    n_right = sum(right)
    n_wrong = len(right) - n_right
    return {
        "links": len(data),
        "wrong": n_wrong,
        "certain_right": share(sum(c and r for c, r in zip(certain, right, strict=True)), sum(certain)),
        "right_uncertain": share(sum(not c and r for c, r in zip(certain, right, strict=True)), n_right),
        "wrong_uncertain": share(sum(not c and not r for c, r in zip(certain, right, strict=True)), n_wrong),
        "old_certain_right": share(sum(c and r for c, r in zip(old_certain, right, strict=True)), sum(old_certain)),
        "old_right_uncertain": share(sum(not c and r for c, r in zip(old_certain, right, strict=True)), n_right),
        "old_wrong_uncertain": share(sum(not c and not r for c, r in zip(old_certain, right, strict=True)), n_wrong),
    }


def reliability(
    data: list[Row], weights: list[float] | tuple[float, ...], bias: float
) -> list[tuple[float, float, int]]:
    """Per bin of 0.1 of predicted certainty: the mean prediction, the share right, the links."""
    bins: list[list[tuple[float, bool]]] = [[] for _ in range(10)]
    for r in data:
        q = probability(r.x, weights, bias)
        bins[min(9, int(q * 10))].append((q, r.right))
    return [(sum(q for q, _ in b) / len(b), sum(1 for _, ok in b if ok) / len(b), len(b)) for b in bins if b]


def draw(points: list[tuple[float, float, int]], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(4.5, 4.5), dpi=100)
    ax.plot([0, 1], [0, 1], color="#999", linestyle="--", linewidth=1, label="perfectly calibrated")
    ax.plot([p for p, _, _ in points], [o for _, o, _ in points], marker="o", color="#1f4e79", label="held-out links")
    for p, o, n in points:
        ax.annotate(str(n), (p, o), textcoords="offset points", xytext=(4, -10), fontsize=7, color="#555")
    ax.axvline(CERTAIN, color="#b3261e", linewidth=0.8, label=f"certain from {CERTAIN}")
    ax.set_xlabel("predicted certainty (bin mean)")
    ax.set_ylabel("share of links right")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.02)
    ax.set_title("Certainty of a link: reliability", fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--fit", type=int, nargs="*", default=[2017, 2018, 2019, 2020, 2021, 2022])
    parser.add_argument("--held-out", type=int, nargs="*", default=[7, 11, 23])
    parser.add_argument("--articles", type=int, default=FULL_ARTICLES)
    parser.add_argument("--check", action="store_true", help="evaluate the model in the repository, do not fit")
    args = parser.parse_args()
    if args.check:
        model = json.loads(MODEL.read_text(encoding="utf-8"))
        weights, bias = model["weights"], model["bias"]
    else:
        train = real_rows() + [r for seed in args.fit for r in rows(seed, args.articles)]
        weights, bias = fit(train)
        MODEL.write_text(
            json.dumps(
                {
                    "features": list(FEATURES),
                    "weights": [round(w, 6) for w in weights],
                    "bias": round(bias, 6),
                    "fitted_on": {
                        "seeds": args.fit,
                        "articles": args.articles,
                        "gold_cases": sorted(p.name for p in GOLD.glob("*.gold")),
                        "real_weight": REAL_WEIGHT,
                        "links": len(train),
                        "l2": L2,
                    },
                    "made_by": "benchmarks/fit_certainty.py",
                },
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )
        DATA.parent.mkdir(parents=True, exist_ok=True)
        with DATA.open("w", encoding="utf-8", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(["seed", "pair", "old", "new", *FEATURES, "right"])
            for r in train:
                out.writerow([r.seed, r.pair, r.old, r.new, *(f"{v:.6f}" for v in r.x), int(r.right)])
        print(f"fitted on {len(train)} links ({sum(not r.right for r in train)} wrong): {MODEL}, {DATA}")
        print("fit: " + json.dumps(figures(train, weights, bias)))
        real = [r for r in train if r.seed == 0]
        print("bundled corpus: " + json.dumps(figures(real, weights, bias)))
    held = [r for seed in args.held_out for r in rows(seed, args.articles)]
    print("held out: " + json.dumps(figures(held, weights, bias)))
    points = reliability(held, weights, bias)
    print("| predicted (bin mean) | share right | links |")
    print("|---:|---:|---:|")
    for p, o, n in points:
        print(f"| {p:.3f} | {o:.3f} | {n} |")
    if draw(points, PICTURE):
        print(f"reliability diagram: {PICTURE}")
    else:
        print("matplotlib is not installed: no picture (pip install matplotlib)")


if __name__ == "__main__":
    main()
