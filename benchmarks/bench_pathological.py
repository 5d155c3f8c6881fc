"""Pathological inputs (issue 9) as whole ``lawdiff check`` processes, at two sizes.

Every case is written to a temporary folder at its size and at twice that,
and checked by a fresh ``python3 -m lawdiff.cli check FILE``; the table gives
the wall time and the CPU time (user and system, of the child) of each and
the doubling ratio of the CPU times (about 2 for a linear reader,
about 4 for a quadratic one).  A run past ``--timeout`` is stopped and shown
as such.  Law text comes from the seed of 2007 article 45 only.

Cases: the MediaWiki export reader's (20,000 ``<ref `` and its kin, braces,
links, entities), the Nuxt reader's (text nodes, inline items), and those of
the wiki text reader and the clause builder (one line of 20,000 ``w 1) ``
markers and a note; 33,000 ``1) ``; 100,000 U+001F / U+0085 / U+1680 between
two words, in a text line and in a heading line; 5,000 lines ``A. x`` in one
page; 8,000 references after ``artikel`` and as many bare addresses in one
line, each once checked against every reference before it; 8,000
superscript notes, each line once tested for every note's number), and a chapter
page's (issue 23: 10,000 ``A.`` headings repeated on the 1963 chapter page of
the MediaWiki test export, each once nested in the last).  The cases in
``REPORTED`` are timed as ``lawdiff report`` of a corpus holding their page as
its one edition (an article of 5,000 ``A.`` lines, whose synopsis searched its
list of lines for each line), those in ``COMPARED`` as ``lawdiff compare`` of
their page as 2007 with a changed copy as 2017 (every other one of 8,000
links made a reference to another article: each number changed was once checked against every
reference).

Run: ``python3 benchmarks/bench_pathological.py [--only NAME...] [--timeout S] [--scale F]``.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
SEED_2007 = ROOT / "corpus" / "2007" / "wiki-Sjabloon-2007-45.txt"
SEED_PAYLOAD = ROOT / "corpus" / "2017" / "nuxt-artikel-6.payload.json"
SEED_EXPORT_1963 = ROOT / "tests" / "fixtures" / "mediawiki" / "1963.xml"
CHAPTER_HEADING = "'''JUISTE GANG VAN ZAKEN. Art. 41 t/m 49'''\n"

HEAD = "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\nA. Spelen van een kaart\n"
NOTE = "1) De uitkomst geschiedt eerst met de beeldzijde naar beneden.\n"
XML_HEAD = "'''ARTIKEL 45 GESPEELDE KAART'''\n\n'''A. Spelen van een kaart'''\n\nElke speler "


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _wiki(body: str) -> tuple[str, str]:
    return "page.txt", HEAD + body


def _heading(between: str) -> tuple[str, str]:
    return "page.txt", f"Sjabloon:2007:45\nARTIKEL 45 Gespeelde{between}kaart\nA. Spelen\nElke speler.\n"


def _xml(wikitext: str) -> tuple[str, str]:
    return "dump.xml", (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11">\n'
        "  <page>\n    <title>Sjabloon:2007:45</title>\n    <ns>10</ns>\n    <revision>\n"
        f'      <text xml:space="preserve">{escape(wikitext)}</text>\n'
        "    </revision>\n  </page>\n</mediawiki>\n"
    )


def _chapter_export(repeats: str) -> tuple[str, str]:
    """The 1963 test export with ``repeats`` after its chapter page's heading."""
    text = SEED_EXPORT_1963.read_text(encoding="utf-8")
    return "dump.xml", text.replace(CHAPTER_HEADING, CHAPTER_HEADING + escape(repeats), 1)


def _payload(nodes: list[object]) -> tuple[str, str]:
    data = json.loads(SEED_PAYLOAD.read_text(encoding="utf-8"))
    value_index = next(v["value"] for v in data if isinstance(v, dict) and set(v) == {"type", "value", "toc"})

    def encode(x: object) -> int:
        if isinstance(x, list):
            data.append([encode(c) for c in x])
        else:
            data.append(x)
        return len(data) - 1

    data[value_index] = [encode(n) for n in nodes]
    return "_payload.json", json.dumps(data)


# name -> (size at which the issue states it, the input at size n)
CASES: dict[str, tuple[int, Callable[[int], tuple[str, str]]]] = {
    # The MediaWiki export reader (sources/mediawiki/).
    "xml: <ref  (unclosed)": (20_000, lambda n: _xml(XML_HEAD + "<ref " * n)),
    "xml: <ref name=a  (unclosed)": (20_000, lambda n: _xml(XML_HEAD + "<ref name=a " * n)),
    "xml: <ref> on lines": (20_000, lambda n: _xml(XML_HEAD + "<ref>kaart\n" * n)),
    "xml: notes a<ref>b</ref>": (10_000, lambda n: _xml(XML_HEAD + "a<ref>b</ref> " * n)),
    "xml: {{ [[ {{{": (20_000, lambda n: _xml(XML_HEAD + "{{[[{{{" * n)),
    "xml: [http://a ": (20_000, lambda n: _xml(XML_HEAD + "[http://a " * n)),
    "xml: 8,000 links, retargeted": (8_000, lambda n: _xml(XML_HEAD + "zie [[template:2007:45E|artikel 45E]] en " * n)),
    "xml: chapter page, A. repeated": (10_000, lambda n: _chapter_export("\nA. Het begin.\n" * n)),
    # The Nuxt payload reader (sources/nuxt/).
    "nuxt: text nodes in one <p>": (50_000, lambda n: _payload([["p", {}, *(f"woord{i} " for i in range(n))]])),
    "nuxt: newlines in an <li>": (200_000, lambda n: _payload([["ol", {}, ["li", {}, "kop" + "\n" * n + "x"]]])),
    # The wiki text reader and the clause builder (sources/wikitext/, sources/build.py).
    "wiki: one line of w 1) + a note": (20_000, lambda n: _wiki("Elke speler " + "w 1) " * n + "\n" + NOTE)),
    "wiki: 1) 1) 1) ...": (33_000, lambda n: _wiki("1) " * n + "\n")),
    "wiki: U+001F in a text line": (100_000, lambda n: _wiki("Elke" + "\u001f" * n + "speler\n")),
    "wiki: U+0085 in a text line": (100_000, lambda n: _wiki("Elke" + "\u0085" * n + "speler\n")),
    "wiki: U+1680 in a text line": (100_000, lambda n: _wiki("Elke" + "\u1680" * n + "speler\n")),
    "wiki: U+001F in a heading line": (100_000, lambda n: _heading(chr(0x1F) * n)),
    "wiki: U+0085 in a heading line": (100_000, lambda n: _heading(chr(0x85) * n)),
    "wiki: 5,000 lines A. x": (5_000, lambda n: _wiki("A. x\n" * n)),
    "wiki: references, after artikel and bare": (8_000, lambda n: _wiki("zie artikel 45A en x 16D1 x " * n + "\n")),
    "wiki: 8,000 superscript notes": (
        8_000,
        lambda n: _wiki(
            "".join(f"Elke speler{k}⁾ speelt.\n{k}⁾ Gedekt.\n".translate(_SUPERSCRIPT) for k in range(1, n + 1))
        ),
    ),
    # The report's synopsis of an article (diff/synopsis.py).
    "report: 5,000 lines A. x": (5_000, lambda n: _wiki("A. x\n" * n)),
}
# The cases timed as ``lawdiff report`` of a corpus of their page, not as ``lawdiff check`` of it.
REPORTED = frozenset({"report: 5,000 lines A. x"})
# The cases timed as ``lawdiff compare`` of their page as 2007 and the copy each function makes as 2017.
COMPARED: dict[str, Callable[[str], str]] = {
    # Every other link made a reference to another article.
    "xml: 8,000 links, retargeted": lambda text: text.replace(
        "45E]] en zie [[template:2007:45E|artikel 45E]]", "45E]] en zie artikel 16"
    ).replace("2007", "2017"),
}


def run_check(path: Path, timeout: float, how: str = "check") -> tuple[float | None, float, int]:
    """Wall time of one ``lawdiff check`` of ``path`` (None past the timeout), its CPU time (user and
    system), and its exit code; with ``how`` "report" or "compare", of that command over the corpus two
    folders up."""
    corpus = path.parent.parent
    command = {
        "check": ["check", str(path)],
        # Without the cache: a second run of the same page would read the first's study.
        "report": ["report", "--corpus", str(corpus), "-o", str(corpus / "site"), "--no-cache"],
        "compare": ["compare", "2007", "2017", "--corpus", str(corpus), "--no-cache"],
    }[how]
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "lawdiff.cli", *command],
            cwd=ROOT,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None, 0.0, -1
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return time.perf_counter() - start, cpu, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--only", nargs="*", help="run the cases whose name holds one of these words")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a run is stopped")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size (0.1 for a quick look)")
    args = parser.parse_args()
    cases = {k: v for k, v in CASES.items() if not args.only or any(w in k for w in args.only)}
    times = f"{'wall':>8} | {'CPU':>8}"
    print(f"| {'case':36} | {'size':>8} | {times} | {'2 x size':>8} | {times} | ratio | exit |")
    print(f"|{'-' * 38}|{'-' * 10}|{'-' * 10}|{'-' * 10}|{'-' * 10}|{'-' * 10}|{'-' * 10}|-------|------|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (size, make) in cases.items():
            n = max(1, int(size * args.scale))
            shown: list[str] = []
            cpus: list[float] = []
            code = 0
            for k in (n, 2 * n):
                file, text = make(k)
                # A report's corpus is a folder of its own (the report written beside its page).
                how = "report" if name in REPORTED else "compare" if name in COMPARED else "check"
                folder = Path(tempfile.mkdtemp(dir=tmp)) if how != "check" else Path(tmp) / f"case-{k}"
                folder.mkdir(exist_ok=True)
                path = folder / "2007" / file if how != "check" else folder / file
                path.parent.mkdir(exist_ok=True)
                path.write_text(text, encoding="utf-8")
                if how == "compare":
                    (folder / "2017").mkdir()
                    (folder / "2017" / file).write_text(COMPARED[name](text), encoding="utf-8")
                seconds, cpu, code = run_check(path, args.timeout, how)
                path.unlink()
                if seconds is None:
                    break
                shown += [f"{seconds:7.2f}s", f"{cpu:7.2f}s"]
                cpus.append(cpu)
            shown += ["timeout"] * (4 - len(shown))
            ratio = f"{cpus[1] / cpus[0]:5.1f}" if len(cpus) == 2 and cpus[0] else "  -  "
            print(
                f"| {name:36} | {n:8,} | {shown[0]:>8} | {shown[1]:>8} | {2 * n:8,} | {shown[2]:>8} | {shown[3]:>8}"
                f" | {ratio} | {code:4} |"
            )


if __name__ == "__main__":
    main()
