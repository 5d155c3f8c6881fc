"""Word differences of very long clauses (issue 24, item 4), as whole ``lawdiff`` processes.

Three cases, each an old side and a new side that differs in 1 % of its words (a third of them
replaced by a new word, a third deleted, a third with a new word inserted before them), written as
a corpus folder of two editions (2026, 2027) in a temporary folder:

* ``draft``: a typed .txt draft whose one paragraph is ``--mb`` megabytes of random words (from a
  vocabulary of 2,000 made-up words);
* ``wiki``: the same as one line of ``--wiki-mb`` megabytes on a wiki page (``Sjabloon:<year>:45``);
* ``repeated``: a typed draft whose paragraph is one sentence of the seed (2007 45A) repeated to
  ``--mb`` megabytes.

Each case runs ``lawdiff check --corpus DIR --no-cache`` (reading both sides) and
``lawdiff compare 2026 2027 --corpus DIR --no-cache --format json -o FILE`` in turn (check, compare,
check, compare ...), each a fresh process, ``--runs`` times, and prints their CPU times (user +
system of the process; the least and the most), the median of the per-run ratios, the compare's peak
memory (maxrss), and the words the difference marks changed (deleted and inserted words in the
JSON's pieces) against the words the edit changed.  Targets: compare at most 2x check (CPU), at most
300 MB, at most 2x the words changed.

lawdiff runs with its modules byte-compiled first, as ``pip install`` leaves them (into a pycache
folder of the run; a machine with ``PYTHONDONTWRITEBYTECODE`` set would otherwise compile every module
from source in every process, a tenth of a second no installed lawdiff pays).  ``--lawdiff DIR``
runs the lawdiff of another checkout (an older commit, for a before/after figure).

``--format json text html``: the compare's outputs, each run in turn (JSON alone by default; the words
marked are counted in the JSON).  ``--before DIR``: the compare of another checkout runs in turn too, after
this one's in one run and before it in the next, and its ratio to the same check is printed beside, with
the median of the per-run ratios of this compare's CPU time to that one's (a before/after figure on a
machine whose speed drifts).

Run: ``python3 benchmarks/bench_words.py [--mb 5] [--wiki-mb 1] [--only draft wiki repeated] [--seed 1] [--runs 3]
[--format json text html] [--before DIR]``.

``--ordinary``: clauses of ordinary length instead: every pair of two different texts that the comparison
of the generator's 2007 and 2017 editions (186 articles) diffs, by rapidfuzz's ``Indel`` (now) and by
diff-match-patch's own search (before), in one process: how many get the same difference, and the CPU
time of each.
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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lawdiff.diff.vocabulary import Piece

ROOT = Path(__file__).resolve().parents[1]
SEED_2007 = ROOT / "corpus" / "2007" / "wiki-Sjabloon-2007-45.txt"
RATE = 0.01
_WORD = re.compile(r"\w+")


def vocabulary(rng: random.Random, n: int = 2000) -> list[str]:
    letters = "abcdefghijklmnoprstuvwz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(2, 10))) for _ in range(n)]


def edit(words: list[str], rng: random.Random, rate: float = RATE) -> tuple[list[str], int]:
    """The words with ``rate`` of them edited (replaced, deleted, or a word inserted before), and how many
    words the edit changed (a replacement counts two: one gone, one come)."""
    new = list(words)
    chosen = sorted(rng.sample(range(len(words)), max(1, int(len(words) * rate))), reverse=True)
    changed = 0
    for m, i in enumerate(chosen):
        if m % 3 == 0:
            new[i] = f"nieuw{m}"
            changed += 2
        elif m % 3 == 1:
            del new[i]
            changed += 1
        else:
            new.insert(i, f"extra{m}")
            changed += 1
    return new, changed


def seed_sentence() -> list[str]:
    text = SEED_2007.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("Elke speler"))
    return line.split()


def words_of(kind: str, size: int, rng: random.Random) -> list[str]:
    if kind == "repeated":
        sentence = seed_sentence()
        out: list[str] = []
        total = 0
        while total < size:
            for w in sentence:
                out.append(w)
                total += len(w) + 1
        return out
    vocab = vocabulary(rng)
    out = []
    total = 0
    while total < size:
        w = rng.choice(vocab)
        out.append(w)
        total += len(w) + 1
    return out


def write_case(folder: Path, kind: str, size: int, rng: random.Random) -> int:
    """Write the two editions of a case; the words the edit changed."""
    old = words_of(kind, size, rng)
    new, changed = edit(old, rng)
    for year, words in (("2026", old), ("2027", new)):
        paragraph = " ".join(words) + "."
        if kind == "wiki":
            d = folder / year
            d.mkdir(parents=True, exist_ok=True)
            page = f"Sjabloon:{year}:45\nARTIKEL 45 Gespeelde kaart\nA. Spelen van een kaart\n{paragraph}\n"
            (d / f"wiki-Sjabloon-{year}-45.txt").write_text(page, encoding="utf-8")
        else:
            draft = f"Concept spelregels {year}\nARTIKEL 45 Gespeelde kaart\nA. Spelen van een kaart\n{paragraph}\n"
            (folder / f"concept-{year}.txt").write_text(draft, encoding="utf-8")
    return changed


def installed_env(work: Path, checkout: Path = ROOT) -> dict[str, str]:
    """The environment of the lawdiff processes: the checkout's lawdiff first on the path, its modules
    byte-compiled first into a pycache folder under ``work``, as ``pip install`` leaves them."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    env["PYTHONPATH"] = os.pathsep.join(x for x in (str(checkout), env.get("PYTHONPATH", "")) if x)
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(checkout / "lawdiff")], check=True, env=env, capture_output=True
    )
    return env


def run(args: list[str], env: dict[str, str] | None = None, checkout: Path = ROOT) -> tuple[float, float, int, int]:
    """Wall seconds, CPU seconds (user + system), peak memory in MB and exit code of one lawdiff process
    (run in the checkout, whose lawdiff ``python -m`` imports first)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "lawdiff.cli", *args],
        cwd=checkout,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if proc.stderr is not None:
        proc.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, os.waitstatus_to_exitcode(status)


def marked(path: Path) -> int:
    """Words in the deleted and inserted pieces of the comparison's changes."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return sum(
        len(_WORD.findall(text)) for ch in data["changes"] for op, text in ch["diff"] if op in ("delete", "insert")
    )


def searched(old: str, new: str) -> tuple[Piece, ...]:
    """diff-match-patch's own search on word characters, with its semantic cleanup: what word_diff made for
    every clause before rapidfuzz's Indel (the reference of ``--ordinary`` and of tests/test_words_long.py)."""
    from diff_match_patch import diff_match_patch

    from lawdiff.diff.vocabulary import Op, Piece
    from lawdiff.diff.words import TOKEN

    vocab: dict[str, str] = {}

    def encode(text: str) -> str:
        return "".join(vocab.setdefault(t, chr(0xE000 + len(vocab))) for t in TOKEN.findall(text))

    dmp = diff_match_patch()
    dmp.Diff_Timeout = 0
    diffs = dmp.diff_main(encode(old), encode(new), False)
    dmp.diff_cleanupSemantic(diffs)
    decode = {c: t for t, c in vocab.items()}
    ops = {0: Op.EQUAL, 1: Op.INSERT, -1: Op.DELETE}
    out: list[Piece] = []
    for op, chars in diffs:
        text = "".join(decode[c] for c in chars)
        if out and out[-1].op is ops[op]:
            out[-1] = Piece(ops[op], out[-1].text + text)
        elif text:
            out.append(Piece(ops[op], text))
    return tuple(out)


def ordinary(articles: int = 186, seed: int = 2017) -> None:
    """Clauses of ordinary length: the generator's editions of ``articles`` articles, 2007 -> 2017, every pair
    of two different texts the comparison diffs, against diff-match-patch's own search (what word_diff made
    before rapidfuzz's Indel); how many get the same difference, and the CPU time of each way."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import generate

    from lawdiff.corpus import load
    from lawdiff.diff import changes
    from lawdiff.diff.words import word_diff

    with tempfile.TemporaryDirectory() as tmp:
        generate.write(generate.generate(articles=articles, seed=seed), Path(tmp))
        corpus = load([Path(tmp)])
        pairs: list[tuple[str, str]] = []

        def spy(a: str, b: str) -> tuple[Piece, ...]:
            pairs.append((a, b))
            return word_diff(a, b)

        comparison = changes.compare(corpus.edition("2007"), corpus.edition("2017"), diff=spy)
    whole = sum(1 for ch in comparison.changes if bool(ch.old_texts) != bool(ch.new_texts))
    timed = {}
    for name, f in (("rapidfuzz Indel (now)", word_diff), ("diff-match-patch's search (before)", searched)):
        start = time.process_time()
        made = [f(a, b) for a, b in pairs]
        timed[name] = (time.process_time() - start, made)
    now, before = timed["rapidfuzz Indel (now)"][1], timed["diff-match-patch's search (before)"][1]
    same = sum(x == y for x, y in zip(now, before, strict=True))
    print(f"{articles} articles, 2007 -> 2017: {len(pairs)} pairs of two different texts, {same} the same difference")
    print(f"(and {whole} clauses added or removed whole, one piece each either way)")
    for name, (seconds, _) in timed.items():
        print(f"  {name}: {seconds:.3f} s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mb", type=float, default=5.0, help="size of the draft and repeated cases (MB)")
    parser.add_argument("--wiki-mb", type=float, default=1.0, help="size of the wiki line (MB)")
    parser.add_argument("--only", nargs="*", default=["draft", "wiki", "repeated"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3, help="runs of each command per case, in turn")
    parser.add_argument("--lawdiff", type=Path, default=ROOT, help="the checkout whose lawdiff runs")
    parser.add_argument(
        "--before", type=Path, help="another checkout whose compare runs in turn too (its ratio to the same check)"
    )
    parser.add_argument(
        "--format", nargs="*", default=["json"], choices=FORMATS, help="the compare's outputs (each run, in turn)"
    )
    parser.add_argument("--ordinary", action="store_true", help="only the generator's clauses of ordinary length")
    args = parser.parse_args()
    if args.ordinary:
        ordinary()
        return
    before = " | ratio, before | compare CPU / before's" if args.before else ""
    print(f"| case | size | output | check CPU | compare CPU | ratio (median){before}", end="")
    print(" | compare MB | words marked / changed |")
    print("|---|---:|---|---:|---:|---:|" + ("---:|---:|" if args.before else "") + "---:|---:|")
    with tempfile.TemporaryDirectory() as work:
        checkouts = [(args.lawdiff.resolve(), installed_env(Path(work), args.lawdiff.resolve()))]
        if args.before:
            checkouts.append((args.before.resolve(), installed_env(Path(work), args.before.resolve())))
        for kind in args.only:
            case(kind, args, checkouts)


# The compare's outputs (--format) and its option for each.
FORMATS = {"json": ["--format", "json"], "text": [], "html": ["--format", "html"]}


def case(kind: str, args: argparse.Namespace, checkouts: list[tuple[Path, dict[str, str]]]) -> None:
    """Write one case, run check and compare in turn ``args.runs`` times (each output, each checkout), print
    its rows."""
    rng = random.Random(args.seed)
    size = int((args.wiki_mb if kind == "wiki" else args.mb) * 1_000_000)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "corpus"
        folder.mkdir()
        changed = write_case(folder, kind, size, rng)
        (checkout, env), *_ = checkouts
        checks: list[float] = []
        # Per output and checkout: the compare's CPU seconds, and its peak.
        compares: dict[tuple[str, int], list[float]] = {(f, n): [] for f in args.format for n in range(len(checkouts))}
        peak = dict.fromkeys(args.format, 0)
        for r in range(args.runs):
            _, cc, _, code = run(["check", "--corpus", str(folder), "--no-cache"], env, checkout)
            if code not in (0, 1):
                sys.exit(f"{kind}: check exited {code}")
            checks.append(cc)
            for fmt in args.format:
                # The checkouts' compares in turn, the first one first in every other run.
                for n in range(len(checkouts)) if r % 2 == 0 else reversed(range(len(checkouts))):
                    there, its_env = checkouts[n]
                    out = Path(tmp) / f"compare-{n}.{fmt}"
                    compare = ["compare", "2026", "2027", "--corpus", str(folder), "--no-cache", *FORMATS[fmt]]
                    _, c, mb, code = run([*compare, "-o", str(out)], its_env, there)
                    if code not in (0, 1):
                        sys.exit(f"{kind}: compare ({fmt}, {there}) exited {code}")
                    compares[fmt, n].append(c)
                    if n == 0:
                        peak[fmt] = max(peak[fmt], mb)
        for fmt in args.format:
            ratios = [
                statistics.median(c / cc for c, cc in zip(compares[fmt, n], checks, strict=True))
                for n in range(len(checkouts))
            ]
            words = marked(Path(tmp) / "compare-0.json") if fmt == "json" else 0
            after = compares[fmt, 0]
            print(
                f"| {kind} | {size / 1e6:.1f} MB | {fmt} | {min(checks):.2f}-{max(checks):.2f} s"
                f" | {min(after):.2f}-{max(after):.2f} s | {ratios[0]:.2f} |"
                + "".join(f" {r:.2f} |" for r in ratios[1:])
                + "".join(
                    f" {statistics.median(c / d for c, d in zip(after, compares[fmt, n], strict=True)):.2f} |"
                    for n in range(1, len(checkouts))
                )
                + f" {peak[fmt]} | "
                + (f"{words:,} / {changed:,} ({words / changed:.2f}) |" if fmt == "json" else "- |"),
                flush=True,
            )


if __name__ == "__main__":
    main()
