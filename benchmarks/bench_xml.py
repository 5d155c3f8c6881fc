"""Benchmark: read a MediaWiki XML export of 10,000 pages and 50 MB.

The export is generated into a temporary folder (never committed) from the
seed texts of ``corpus/`` alone, shaped like the wiki's full history dump:

* editions ``2101``, ``2102``, ... each with 93 articles in 10 part pages
  (``Sjabloon:<year>:HI GROEP 1`` ...), as the 1963 wiki has them; one article
  in three is a single page (a 1963 article's text), the others an article
  page that transcludes its section pages (1997 and 2007 sections, with their
  own headings);
* a table of contents per edition and talk pages beside a fifth of the
  articles, which the reader must recognise and keep out of the law text;
* older revisions of every page (an earlier state: the text without its last
  line), so that the file reaches 50 MB as a dump with history does, while
  only the latest revision of each page is law.

The read runs in a fresh Python process (``lawdiff.corpus.load`` on the
folder, i.e. the real path: format sniffing, streaming, expansion, the clause
tree, merging and the lossless check), and its peak resident memory is that
process's ``ru_maxrss``; an idle process that only imports lawdiff gives the
baseline.

A second shape, ``--shape sections`` (issue 8: the export at full size), is
the wiki's current law as one export: 2,000 articles (editions ``2101``...,
93 articles each) of five section pages ``A``-``E``, one revision each, every
section page about 1,200 words (numbered subsections, each a prose paragraph
of the seeds), and the article pages that transclude them: 12,000 pages,
about 70 MB and 12 million words.  It is measured as whole ``lawdiff check``
processes (``python3 -m lawdiff.cli check FILE``): wall time and peak RSS
of each run.

Run: ``python3 benchmarks/bench_xml.py [--shape history|sections] [--pages N] [--mb M] [--keep DIR]
[--repeat N]``; the time reported against the target is the median of the runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 10.0
TARGET_MB = 300.0
ARTICLES = 93
PARTS = 10

_ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"]


def _fixture_builder() -> Any:
    """The fixture builder of the tests: it turns the seeds into wikitext."""
    path = ROOT / "tests" / "fixtures" / "mediawiki" / "build.py"
    spec = importlib.util.spec_from_file_location("mediawiki_fixture_build", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class Material:
    """Wikitext cut from the seeds: 1963 article bodies, 1997/2007 sections with their headings."""

    def __init__(self) -> None:
        build = _fixture_builder()
        article = re.compile(r"^(?:ARTIKEL|Artikel)\s+(\d{1,3})\b")
        section = re.compile(r"^([A-Z])\.\s")
        self.singles: list[tuple[str, str]] = []  # (title, body wikitext)
        for number, chunk in build.chunks(build.seed_lines("1963"), article):
            if number:
                head = re.sub(r"^Artikel\s+\d+\.\s*", "", chunk[0]).rstrip(".")
                self.singles.append((head, build.wikitext(chunk[1:])))
        self.titles: list[str] = []
        self.sections: list[str] = []
        for year in ("1997", "2007"):
            lines = build.seed_lines(year)
            for number, chunk in build.chunks(lines, article):
                if not number:
                    continue
                self.titles.append(re.sub(r"^ARTIKEL\s+\d+\s*", "", chunk[0]))
                for key, part in build.chunks(chunk[1:], section):
                    if key:
                        self.sections.append(build.wikitext(part))


def _revision(rev_id: int, timestamp: str, text: str) -> str:
    return (
        f"    <revision>\n      <id>{rev_id}</id>\n      <timestamp>{timestamp}</timestamp>\n"
        f"      <contributor><username>Commissie</username><id>7</id></contributor>\n"
        f"      <comment>bijgewerkt</comment>\n      <model>wikitext</model>\n      <format>text/x-wiki</format>\n"
        f'      <text bytes="{len(text.encode())}" xml:space="preserve">{escape(text)}</text>\n'
        f"      <sha1>0000000000000000000000000000000</sha1>\n    </revision>\n"
    )


def _edition_pages(year: int, m: Material) -> list[tuple[str, int, str]]:
    """(title, namespace, latest text) of one edition's pages, in dump order."""
    pages: list[tuple[str, int, str]] = []
    per_part = -(-ARTICLES // PARTS)
    toc: list[str] = []
    for part in range(PARTS):
        first, last = part * per_part + 1, min(ARTICLES, (part + 1) * per_part)
        name = f"H{_ROMAN[part]} GROEP {part + 1}"
        calls = "\n\n".join(f"{{{{Sjabloon:{year}:{n}}}}}" for n in range(first, last + 1))
        pages.append((f"Sjabloon:{year}:{name}", 10, f"'''GROEP {part + 1}. Art. {first} t/m {last}'''\n\n{calls}\n"))
        toc.append(f"* [[Sjabloon:{year}:{name}|Groep {part + 1}]]")
        for n in range(first, last + 1):
            if n % 3 == 0:
                head, body = m.singles[n % len(m.singles)]
                pages.append((f"Sjabloon:{year}:{n}", 10, f"'''Artikel {n}. {head}.'''\n\n{body}\n"))
            else:
                count = 3 + n % 5
                title = m.titles[n % len(m.titles)]
                calls = "\n\n".join(f"{{{{template:{year}:{n}{chr(65 + k)}|{n}{chr(65 + k)}}}}}" for k in range(count))
                pages.append((f"Sjabloon:{year}:{n}", 10, f"'''ARTIKEL {n} {title}'''\n\n{calls}\n"))
                for k in range(count):
                    text = m.sections[(n * 7 + k) % len(m.sections)]
                    text = re.sub(r"^'''[A-Z]\.", f"'''{chr(65 + k)}.", text)
                    pages.append((f"Sjabloon:{year}:{n}{chr(65 + k)}", 10, text + "\n"))
            if n % 5 == 0:
                pages.append((f"Overleg sjabloon:{year}:{n}", 11, f"Klopt de tekst van artikel {n}? --~~~~\n"))
    pages.append((f"Sjabloon:{year}:Inhoudsopgave {year}", 10, "\n".join(toc) + "\n"))
    return pages


def generate(folder: Path, pages_wanted: int, mb_wanted: float) -> dict[str, float]:
    """Write ``folder/dump.xml``; returns what it holds."""
    m = Material()
    pages: list[tuple[str, int, str]] = []
    year = 2101
    while True:
        edition = _edition_pages(year, m)
        if len(pages) + len(edition) > pages_wanted:
            break
        pages.extend(edition)
        year += 1
    editions = year - 2101
    # Whole editions only (a cut one would transclude pages it does not
    # hold); talk pages make up the count.
    n = 0
    while len(pages) < pages_wanted:
        n += 1
        pages.append((f"Overleg sjabloon:{2101 + n % editions}:Vraag {n}", 11, f"Vraag {n} over de tekst. --~~~~\n"))
    latest = sum(len(t.encode()) for _, _, t in pages)
    path = folder / "dump.xml"
    revisions = 0
    with path.open("wb") as out:
        out.write(
            b'<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="nl">\n'
            b"  <siteinfo>\n    <sitename>Spelregels</sitename>\n    <namespaces>\n"
            b'      <namespace key="0" case="first-letter" />\n'
            b'      <namespace key="10" case="first-letter">Sjabloon</namespace>\n'
            b'      <namespace key="11" case="first-letter">Overleg sjabloon</namespace>\n'
            b"    </namespaces>\n  </siteinfo>\n"
        )
        for i, (title, ns, text) in enumerate(pages, 1):
            head = f"  <page>\n    <title>{escape(title)}</title>\n    <ns>{ns}</ns>\n    <id>{i}</id>\n".encode()
            tail = _revision(100 * i, "2020-06-01T10:00:00Z", text).encode() + b"  </page>\n"
            # Older revisions (an earlier state: the text without its last
            # line) while the file is behind its share of the size wanted.
            older = text.rstrip("\n").rsplit("\n", 1)[0] + "\n"
            due = mb_wanted * 1e6 * i / len(pages) - out.tell() - len(head) - len(tail)
            body: list[bytes] = []
            for k in range(60):
                rev = _revision(100 * i + k + 1, f"2010-01-{1 + k % 28:02d}T10:00:00Z", older).encode()
                if len(rev) > due:
                    break
                body.append(rev)
                due -= len(rev)
            out.write(head + b"".join(body) + tail)
            revisions += len(body) + 1
        out.write(b"</mediawiki>\n")
    return {
        "pages": len(pages),
        "editions": editions,
        "revisions": revisions,
        "mb": path.stat().st_size / 1e6,
        "latest_mb": latest / 1e6,
    }


# ---------------------------------------------------------------------------
# The full-size shape: 2,000 articles x sections A-E, ~1,200 words a page

SECTION_WORDS = 1200
SECTION_KEYS = "ABCDE"
_LABEL = re.compile(r"^(?:[A-Z]\.|\d+\.|\([a-z]\)|[a-z]\.|-)\s+")
_MARKER = re.compile(r"\s\d+\)(?=\s|$)|\s?[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾")
_NOT_PROSE = re.compile(r"^(?:ARTIKEL|Artikel|PARAGRAAF|JUISTE|HOOFDSTUK|GROEP|\d+\)|[^a-z]*$)")


def prose() -> list[str]:
    """The seeds' prose lines (8 words or more), labels and note markers taken off."""
    build = _fixture_builder()
    out: list[str] = []
    for year in ("1963", "1997", "2007"):
        for line in build.seed_lines(year):
            text = _MARKER.sub("", _LABEL.sub("", line.strip()))
            # Prose only: no headings, notes or lines the line reader would take as labels.
            if len(text.split()) >= 8 and not _NOT_PROSE.match(line.strip()) and not _NOT_PROSE.match(text):
                out.append(text)
    return out


def _section_text(key: str, title: str, paragraphs: list[str], start: int) -> str:
    """A section page: its heading, then numbered subsections of seed prose until ~SECTION_WORDS words."""
    parts = [f"'''{key}. {title}'''"]
    words = 0
    k = 0
    while words < SECTION_WORDS:
        para = paragraphs[(start + k) % len(paragraphs)]
        k += 1
        parts.append(f"{k}. {para}")
        words += len(para.split()) + 1
    return "\n\n".join(parts) + "\n"


def generate_sections(folder: Path, articles: int) -> dict[str, float]:
    """Write ``folder/dump.xml``: ``articles`` articles of five section pages, one revision each."""
    m = Material()
    paragraphs = prose()
    path = folder / "dump.xml"
    pages = 0
    words = 0
    with path.open("wb") as out:
        out.write(
            b'<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="nl">\n'
            b"  <siteinfo>\n    <sitename>Spelregels</sitename>\n    <namespaces>\n"
            b'      <namespace key="10" case="first-letter">Sjabloon</namespace>\n'
            b"    </namespaces>\n  </siteinfo>\n"
        )

        def page(title: str, text: str) -> None:
            nonlocal pages
            pages += 1
            out.write(
                f"  <page>\n    <title>{escape(title)}</title>\n    <ns>10</ns>\n    <id>{pages}</id>\n".encode()
                + _revision(100 * pages, "2020-06-01T10:00:00Z", text).encode()
                + b"  </page>\n"
            )

        for i in range(articles):
            year, n = 2101 + i // ARTICLES, i % ARTICLES + 1
            title = m.titles[i % len(m.titles)]
            calls = "\n\n".join(f"{{{{template:{year}:{n}{key}|{n}{key}}}}}" for key in SECTION_KEYS)
            page(f"Sjabloon:{year}:{n}", f"'''ARTIKEL {n} {title}'''\n\n{calls}\n")
            for j, key in enumerate(SECTION_KEYS):
                heading = paragraphs[(i * 5 + j) % len(paragraphs)].split(".")[0].split(",")[0][:60]
                text = _section_text(key, heading, paragraphs, i * 37 + j * 11)
                words += len(text.split())
                page(f"Sjabloon:{year}:{n}{key}", text)
        out.write(b"</mediawiki>\n")
    return {"pages": pages, "articles": articles, "words": words, "mb": path.stat().st_size / 1e6}


def check_process(path: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    """One ``lawdiff check`` of ``path`` in a fresh process: wall time, peak memory, exit code, last line.

    The memory is the peak of the resident memory of the whole process tree
    (the check and the workers it forks), summed and sampled every 20 ms on
    Linux: pages a worker shares with its parent count in both.  Elsewhere
    (and as a floor), the largest single process's ``ru_maxrss``.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "lawdiff.cli", "check", str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    peak = 0
    out: list[str] = []
    err: list[str] = []
    # The output is read by threads, so that a full pipe never stops the check while we sample.
    readers = [
        threading.Thread(target=lambda: out.append(proc.stdout.read() if proc.stdout else "")),
        threading.Thread(target=lambda: err.append(proc.stderr.read() if proc.stderr else "")),
    ]
    for t in readers:
        t.start()
    while True:
        # Reaped here (not by Popen) for this run's own peak: the largest
        # process of its tree, the check or one of the workers it waited for.
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, _tree_rss_kb(proc.pid))
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join()
    single = usage.ru_maxrss / 1024
    stdout, stderr = "".join(out), "".join(err)
    last = (stdout.strip().splitlines() or [stderr.strip()])[-1]
    return {
        "seconds": seconds,
        "rss_mb": max(peak / 1024, single),
        "single_mb": single,
        "rc": proc.returncode,
        "last": last,
        "stdout": stdout,
    }


def _tree_rss_kb(pid: int) -> int:
    """The resident memory of a process and all its descendants, in kB (0 where /proc cannot tell)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            continue
        m = re.search(r"^VmRSS:\s+(\d+)", status, re.M)
        total += int(m.group(1)) if m else 0
        todo.extend(int(c) for c in children)
    return total


def _summary(runs: list[dict[str, Any]]) -> tuple[float, float, float, float]:
    """Median and best time, largest peak memory (tree), largest single process."""
    times = sorted(r["seconds"] for r in runs)
    return times[len(times) // 2], times[0], max(r["rss_mb"] for r in runs), max(r["single_mb"] for r in runs)


def main_sections(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        dump = folder / "dump.xml"
        if args.reuse and dump.exists():
            made = {"pages": -1, "articles": args.articles, "words": -1, "mb": dump.stat().st_size / 1e6}
        else:
            made = generate_sections(folder, args.articles)
        # Cold: a fresh cache folder for every run (the run reads everything, and
        # writes what the next would read); warm: the second run on that folder.
        cold: list[dict[str, Any]] = []
        warm: list[dict[str, Any]] = []
        jobs = {"LAWDIFF_JOBS": args.jobs} if args.jobs else {}
        for i in range(args.repeat):
            cache = {"LAWDIFF_CACHE": str(Path(tmp) / f"cache-{i}"), **jobs}
            cold.append(check_process(dump, cache))
            warm.append(check_process(dump, cache))
        alone = [check_process(dump, {"LAWDIFF_CACHE": "off", "LAWDIFF_JOBS": "1"}) for _ in range(args.repeat)]
    outputs = {r["stdout"] for r in cold + warm + alone}
    median, best, rss, single = _summary(cold)
    ok_time, ok_mem = median < TARGET_SECONDS, rss < TARGET_MB
    verdict = {True: "ok", False: "MISSED"}
    words = f"{made['words']:,} words, " if made["words"] >= 0 else ""
    rows = [
        ("export", f"{made['articles']:,} articles x A-E and their article pages, {made['mb']:.1f} MB"),
        ("law text", f"{words}one revision a page"),
        ("check says", cold[0]["last"] + f" (exit {cold[0]['rc']})"),
        ("same output", "yes, every run" if len(outputs) == 1 else f"NO: {len(outputs)} different outputs"),
        (
            f"cold, {len(cold)} run(s)",
            f"median {median:.2f} s, best {best:.2f} s (target < {TARGET_SECONDS:.0f} s: {verdict[ok_time]}); "
            f"peak {rss:.0f} MB, the process tree summed (target < {TARGET_MB:.0f} MB: {verdict[ok_mem]}), "
            f"{single:.0f} MB the largest process",
        ),
    ]
    median, best, rss, single = _summary(warm)
    rows.append(("warm (cache)", f"median {median:.2f} s, best {best:.2f} s; peak {rss:.0f} MB"))
    median, best, rss, single = _summary(alone)
    rows.append(
        ("one process, no cache", f"median {median:.2f} s, best {best:.2f} s; peak {rss:.0f} MB (LAWDIFF_JOBS=1)")
    )
    width = max(len(k) for k, _ in rows)
    print(f"| {'':{width}} | MediaWiki XML export at full size, whole `lawdiff check` processes |")
    print(f"|{'-' * (width + 2)}|{'-' * 44}|")
    for key, value in rows:
        print(f"| {key:{width}} | {value} |")
    if not (ok_time and ok_mem) or len(outputs) != 1:
        sys.exit(1)


CHILD = """
import json, resource, sys, time
from pathlib import Path
import lawdiff.corpus.reading
from lawdiff.corpus import load
if sys.argv[1] == "--baseline":
    print(json.dumps({"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
    raise SystemExit
reading = 0.0
iter_file = lawdiff.corpus.reading.iter_file
def timed(*args, **kwargs):
    global reading
    pages = iter_file(*args, **kwargs)
    while True:
        t = time.perf_counter()
        try:
            page = next(pages)
        except StopIteration:
            return
        finally:
            reading += time.perf_counter() - t
        yield page
lawdiff.corpus.reading.iter_file = timed  # the reader's share of the load
t = time.perf_counter()
corpus = load([Path(sys.argv[1])])
seconds = time.perf_counter() - t
clauses = sum(1 for e in corpus.editions for _ in e.walk())
articles = sum(len(e.articles()) for e in corpus.editions)
print(json.dumps({
    "seconds": seconds,
    "reading": reading,
    "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "editions": len(corpus.editions),
    "articles": articles,
    "clauses": clauses,
    "law_pages": len(corpus.checks),
    "tokens": sum(c.tokens for c in corpus.checks),
    "placed": sum(c.placed for c in corpus.checks),
}))
"""


def _child(arg: str) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, arg], capture_output=True, text=True, check=True, cwd=ROOT, env=None
    )
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--mb", type=float, default=50.0)
    parser.add_argument("--keep", type=Path, help="write the export here and keep it")
    parser.add_argument("--repeat", type=int, default=3, help="read it this many times (fresh processes)")
    parser.add_argument(
        "--shape",
        choices=("history", "sections"),
        default="history",
        help="history: 10,000 pages with old revisions (default); sections: 2,000 articles x A-E, ~1,200 words a page",
    )
    parser.add_argument("--articles", type=int, default=2000, help="with --shape sections: how many articles")
    parser.add_argument("--jobs", default="", help="with --shape sections: LAWDIFF_JOBS for the cold and warm runs")
    parser.add_argument(
        "--reuse", action="store_true", help="with --keep: read the export already there instead of generating it"
    )
    args = parser.parse_args()
    if args.shape == "sections":
        main_sections(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        made = generate(folder, args.pages, args.mb)
        base = _child("--baseline")
        runs = [_child(str(folder)) for _ in range(args.repeat)]
    times = sorted(r["seconds"] for r in runs)
    median_reading = sorted(r["reading"] for r in runs)[len(runs) // 2]
    run = runs[0]
    rss = max(r["rss_mb"] for r in runs)
    ok_time = times[len(times) // 2] < TARGET_SECONDS
    ok_mem = rss < TARGET_MB
    verdict = {True: "ok", False: "MISSED"}
    rows = [
        ("export", f"{made['pages']:,} pages, {made['mb']:.1f} MB, {made['revisions']:,} revisions"),
        ("law text that counts", f"{made['latest_mb']:.1f} MB of wikitext in the latest revisions"),
        ("read into", f"{run['editions']} editions, {run['articles']:,} articles, {run['clauses']:,} clauses"),
        ("pages emitted", f"{run['law_pages']:,} (the others are read inside them, or are not law)"),
        ("lossless", f"{run['placed']:,}/{run['tokens']:,} words and signs placed"),
        (
            f"time, {len(times)} run(s)",
            f"median {times[len(times) // 2]:.2f} s, best {times[0]:.2f} s"
            f"   (target < {TARGET_SECONDS:.0f} s: {verdict[ok_time]})",
        ),
        (
            "of which",
            f"{median_reading:.2f} s the XML reader (stream, expand, lines), the rest the clause trees,"
            " merging and the lossless check",
        ),
        (
            "peak RSS",
            f"{rss:.0f} MB, of which {base['rss_mb']:.0f} MB is Python + lawdiff idle"
            f"   (target < {TARGET_MB:.0f} MB: {verdict[ok_mem]})",
        ),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"| {'':{width}} | MediaWiki XML export, lawdiff.corpus.load |")
    print(f"|{'-' * (width + 2)}|{'-' * 44}|")
    for key, value in rows:
        print(f"| {key:{width}} | {value} |")
    if not (ok_time and ok_mem):
        sys.exit(1)


if __name__ == "__main__":
    main()
