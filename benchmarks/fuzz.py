"""A longer fuzzing campaign on the readers: the properties of ``tests/test_properties.py``, at random.

Each input is a seed of the bundled corpus (wiki pages, the MediaWiki
fixtures, the Nuxt payloads) with one to six hostile edits (the same pieces
and edits as the property tests: markup, labels, entities, odd white space,
huge numbers, cut and doubled spans; for payloads also whole elements
replaced).  Each is read, built into clause trees, accounted and its check
and outlines rendered, in this process.  An input passes when it is read
with every word placed or reported, or refused with an InputError, within
the time bound (that of the pathological tests: 5 s a megabyte); anything
else is a failure, counted by kind, and the first few of each kind are written to ``benchmarks/output/fuzz/`` to replay.

Run: ``python3 benchmarks/fuzz.py [--inputs N] [--seconds T] [--seed S]``
(whichever limit comes first; default 2,000 inputs or 120 s).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "benchmarks" / "output" / "fuzz"
KEEP_PER_KIND = 3


def _properties() -> Any:
    spec = importlib.util.spec_from_file_location("lawdiff_properties", ROOT / "tests" / "test_properties.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _edit(rng: random.Random, hostile: list[str]) -> tuple[str, float, int, str]:
    what = rng.choice(["insert", "insert", "delete", "duplicate", "replace", "truncate"])
    if rng.random() < 0.75:
        piece = rng.choice(hostile)
    else:
        piece = "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x3000)])) for _ in range(8))
    if rng.random() < 0.1:
        piece *= rng.choice([10, 100, 1000])  # a run of one hostile piece
    return what, rng.random(), rng.randrange(1, 400), piece


def make_input(rng: random.Random, props: Any) -> tuple[str, str, str]:
    """(the format's name, a file name, the text) of one hostile input."""
    kind = rng.choice(["wiki", "wiki", "xml", "xml-raw", "payload", "payload-strings", "payload-raw"])
    edits = [_edit(rng, props.HOSTILE) for _ in range(rng.randrange(1, 7))]
    if kind == "wiki":
        seed = rng.choice(props.WIKI_SEEDS)
        text = seed.read_text(encoding="utf-8")
        if rng.random() < 0.7:
            title, _, body = text.partition("\n")
            return kind, seed.name, title + "\n" + props._mutate(body, edits)
        return kind, seed.name, props._mutate(text, edits)
    if kind == "xml":
        seed = rng.choice(props.XML_SEEDS)
        return kind, seed.name, props._inside_text(seed.read_text(encoding="utf-8"), edits)
    if kind == "xml-raw":
        seed = rng.choice(props.XML_SEEDS)
        return kind, seed.name, props._mutate(seed.read_text(encoding="utf-8"), edits[:3])
    seed = rng.choice(props.PAYLOAD_SEEDS)
    if kind == "payload-raw":
        return kind, seed.name, props._mutate(seed.read_text(encoding="utf-8"), edits[:3])
    data = json.loads(seed.read_text(encoding="utf-8"))
    if kind == "payload-strings":
        strings = [i for i, v in enumerate(data) if isinstance(v, str)]
        for _what, share, _size, piece in edits:
            i = strings[int(share * (len(strings) - 1))]
            data[i] = data[i][: len(data[i]) // 2] + piece + data[i][len(data[i]) // 2 :]
        return kind, seed.name, json.dumps(data)
    values: list[Any] = [None, True, -1, -7, 10**6, 2000, "Artikel 45", ["Date", "x"], ["Set", 1, 2], {"a": 1}, []]
    for _what, share, _size, piece in edits:
        value = rng.choice([*values, piece, [rng.randrange(-8, len(data) + 5) for _ in range(3)]])
        data[int(share * (len(data) - 1))] = value
    return "payload", seed.name, json.dumps(data)


def classify(props: Any, text: str, file: str) -> str:
    """``read`` or ``refused`` when the properties hold, else the kind of failure."""
    from lawdiff.corpus import dangling_references, from_pages
    from lawdiff.corpus.account import tokens
    from lawdiff.errors import InputError
    from lawdiff.report.text import check, outline
    from lawdiff.sources import read_text

    start = time.perf_counter()
    try:
        corpus = from_pages(read_text(text, file))
        dangling = [d for e in corpus.editions for d in dangling_references(e)]
        check(corpus, dangling).encode("utf-8")
        for edition in corpus.listing():
            outline(edition).encode("utf-8")
    except InputError:
        outcome = "refused"
    except RecursionError:
        outcome = "RecursionError"
    except Exception as exc:  # the point is to catch what the readers let through
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        outcome = f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno}"
    else:
        outcome = "read"
        for c in corpus.checks:
            lost = sum(len(tokens(u.text)) for u in c.unplaced)
            if c.placed + lost != c.tokens:
                outcome = "words dropped from the accounting"
    # The bound of the pathological tests: 1 MB in SECONDS (edits can double spans into large inputs).
    bound = props.SECONDS * max(1.0, len(text) / 1e6)
    if time.perf_counter() - start > bound and outcome in ("read", "refused"):
        outcome = f"slow (over {props.SECONDS:.0f} s a MB)"
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--inputs", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=2017)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    props = _properties()
    rng = random.Random(args.seed)
    tried: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    start = time.perf_counter()
    n = 0
    while n < args.inputs and time.perf_counter() - start < args.seconds:
        kind, file, text = make_input(rng, props)
        outcome = classify(props, text, file)
        n += 1
        tried[kind] += 1
        outcomes[outcome] += 1
        if outcome not in ("read", "refused") and kept[outcome] < KEEP_PER_KIND:
            kept[outcome] += 1
            OUTPUT.mkdir(parents=True, exist_ok=True)
            name = f"{len(list(OUTPUT.iterdir())):03d}-{kind}-{file}"
            (OUTPUT / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    seconds = time.perf_counter() - start
    failures = sum(v for k, v in outcomes.items() if k not in ("read", "refused"))
    print(f"inputs tried: {n:,} in {seconds:.0f} s (seed {args.seed})")
    print("  by format: " + ", ".join(f"{k} {v}" for k, v in sorted(tried.items())))
    print(f"  read: {outcomes['read']:,}   refused (InputError): {outcomes['refused']:,}")
    print(f"failures: {failures}")
    for outcome, count in outcomes.most_common():
        if outcome not in ("read", "refused"):
            print(f"  {count:5d}  {outcome}")
    if failures:
        print(f"(the first {KEEP_PER_KIND} inputs of each kind are in {OUTPUT.relative_to(ROOT)}/)")
        sys.exit(1)


if __name__ == "__main__":
    main()
