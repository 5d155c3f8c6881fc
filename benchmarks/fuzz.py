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

Besides, a share of the inputs (``--corpus-share``, a fifth) are whole corpus
folders run through the command line in this process (``check``, ``show``,
``compare``, ``correlate``), with the mutations that found issue 23's bugs:
a labeled heading repeated hundreds or thousands of times on a chapter page
(wiki text and export: each repeat nested in the last, RecursionError), an
article number of 4,301 and more digits in a page title (``int()`` refused
it), a second ``<text>`` in an export's revision or one inside
``<contributor>`` (dropped without a word), a NUL byte in an export (a
two-line message), and junk files and editors' backups beside the pages
(``check`` stopped at the first; a bad file in another edition blocked
``compare``; a backup was read as a page); and a section of thousands of
references (reading, comparing and drawing it once scanned every reference
for each), one where every other reference is retargeted (matched by a scan
of the new ones), and a page of thousands of superscript notes (each line
tested for every note's number): each command on these must take at most
``REFERENCES_BOUND`` CPU seconds, or ``BOUND_PER_MB`` a megabyte of the corpus's
files where that is more.  Such an input passes when every
command exits 0 or 1, or 2 with one line ``lawdiff: error: ...``, and what
its kind promises holds (see :func:`corpus_outcome`).

Run: ``python3 benchmarks/fuzz.py [--inputs N] [--seconds T] [--seed S] [--corpus-share F]``
(whichever limit comes first; default 2,000 inputs or 120 s).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import re
import shutil
import sys
import tempfile
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
    from lawdiff.report.check_text import check
    from lawdiff.report.text import outline
    from lawdiff.sources import read_text

    start = time.perf_counter()
    try:
        corpus = from_pages(read_text(text, file))
        dangling = [d for e in corpus.editions for d in dangling_references(e)]
        check(corpus, dangling).encode("utf-8")
        for edition in corpus.listing():
            outline(edition).encode("utf-8")
    except InputError as exc:
        # One line, whatever the library under it said (libxml2 ends some messages with a line break).
        outcome = "refused" if "\n" not in exc.message() else "an error message of several lines"
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


# ---------------------------------------------------------------------------
# Whole corpus folders through the command line (issue 23's mutation kinds)

CORPUS = ROOT / "corpus"
EXPORTS = ROOT / "tests" / "fixtures" / "mediawiki"
CORPUS_KINDS = (
    "heading-repeat",
    "title-number",
    "second-text",
    "nul-byte",
    "junk-files",
    "many-references",
    "retargeted-references",
    "many-notes",
)
# The kinds whose commands (HTML included: it draws every reference) must each keep within the CPU bound below.
BOUNDED_KINDS = ("many-references", "retargeted-references", "many-notes")
# CPU seconds a command may take on a corpus of a bounded kind (each takes about 0.3-1 s; a step that
# scans every reference for each one took 5-14 s).
REFERENCES_BOUND = 3.0
# ... or this many a megabyte of the corpus's files, where that is more: a page of 8,000 notes (890 KB in
# two editions) takes 1.5-2 s a command, up to 3.3 s in a campaign's long-running process; the old scans
# took 10 s and more at that size.
BOUND_PER_MB = 6.0
# A word no seed holds: where a mutation puts it, the commands must show it or name it as not placed.
MARKER = "Fuzzmarkeerwoord"
_BACKUPS = ("copy~", "{name}~", "#{name}#", ".{name}.swp", "{name}.bak", "{name}.orig", ".hidden")


def _seed_folder(folder: Path, years: tuple[str, ...]) -> None:
    for year in years:
        shutil.copytree(CORPUS / year, folder / year)


def make_corpus(rng: random.Random, kind: str, folder: Path) -> dict[str, Any]:
    """Write one hostile corpus of ``kind`` into ``folder``; returns what its properties need."""
    if kind == "heading-repeat":
        # A labeled heading repeated on a chapter page (wiki text or export), 600 to 5,000 times.
        n = rng.choice([600, 1500, 5000])
        line = rng.choice(
            ["A. Het begin van het spelen.", "1. Nadat het bieden is gesloten.", "(a) de spelers", "a. de"]
        )
        _seed_folder(folder, ("2007",))
        if rng.random() < 0.5:
            page = CORPUS / "1963" / "wiki-Sjabloon-1963-HVI-JUISTE-GANG-VAN-ZAKEN.txt"
            title, _, body = page.read_text(encoding="utf-8").partition("\n")
            first, _, rest = body.lstrip("\n").partition("\n")
            text = f"{title}\n\n{first}\n" + f"\n{line}\n" * n + rest
            (folder / "1963").mkdir()
            (folder / "1963" / page.name).write_text(text, encoding="utf-8")
        else:
            heading = "'''JUISTE GANG VAN ZAKEN. Art. 41 t/m 49'''\n"
            text = (EXPORTS / "1963.xml").read_text(encoding="utf-8").replace(heading, heading + f"\n{line}\n" * n, 1)
            (folder / "1963").mkdir()
            (folder / "1963" / "export.xml").write_text(text, encoding="utf-8")
        return {"pair": ("1963", "2007"), "show": "1963"}
    if kind == "title-number":
        # An article number of more than 4,300 digits, in the title line and the heading.
        number = rng.choice("123456789") + "".join(rng.choice("0123456789") for _ in range(rng.randrange(4300, 6000)))
        page = CORPUS / "2007" / "wiki-Sjabloon-2007-45.txt"
        _, _, body = page.read_text(encoding="utf-8").partition("\n")
        if rng.random() < 0.5:
            body = body.replace("ARTIKEL 45", f"ARTIKEL {number}", 1)
        (folder / "2007").mkdir()
        (folder / "2007" / "page.txt").write_text(f"Sjabloon:2007:{number}\n{body}", encoding="utf-8")
        _seed_folder(folder, ("2017",))
        return {"pair": ("2007", "2017"), "show": "2007"}
    if kind == "second-text":
        # Law text in a <text> the reader does not read: a second one in the revision, or one in <contributor>.
        seed = rng.choice(sorted(EXPORTS.glob("*.xml")))
        xml = seed.read_text(encoding="utf-8")
        # Into a law page of one revision (a template titled Sjabloon:<year>:..., not a table of contents,
        # not a redirect): another page's text is not law text, and an older revision is not read.
        starts: list[int] = []
        for page in re.finditer(r"<page>[\s\S]*?</page>", xml):
            one = page.group(0)
            if (
                re.search(r"<title>Sjabloon:\d{4}:(?!Inhoudsopgave)", one)
                and one.count("<revision>") == 1
                and not re.search(r"<redirect|#DOORVERWIJZING|#REDIRECT", one)
            ):
                starts += [page.start() + m.start() for m in re.finditer(r"<text xml:space=\"preserve\">", one)]
        at = rng.choice(starts)
        extra = f'<text xml:space="preserve">A. {MARKER} speelt een kaart.</text>\n'
        if rng.random() < 0.5:
            where = at if rng.random() < 0.5 else xml.index("</text>", at) + len("</text>")
            xml = xml[:where] + extra + xml[where:]
        else:
            contributor = xml.rfind("<contributor>", 0, at)
            if contributor < 0:
                xml = xml[:at] + f"<contributor>{extra}</contributor>" + xml[at:]
            else:
                where = contributor + len("<contributor>")
                xml = xml[:where] + extra + xml[where:]
        (folder / "dumps").mkdir()
        (folder / "dumps" / seed.name).write_text(xml, encoding="utf-8")
        return {"marker": MARKER}
    if kind == "many-notes":
        # 2007 article 45 with thousands of superscript notes, each after the line with its marker (each line
        # was once tested for every note's number), and the same page with three notes changed as 2017.
        n = rng.choice([4000, 6000, 8000])
        sup = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
        notes = [f"Elke speler{k}⁾ speelt.\n{k}⁾ Gedekt.\n".translate(sup) for k in range(1, n + 1)]
        for year in ("2007", "2017"):
            if year == "2017":
                # A few only: each note changed is weighed against every clause of its article (the aligner's
                # same-article candidates, quadratic by design: benchmarks/README.md, scan23).
                for at in rng.sample(range(n), 3):
                    notes[at] = notes[at].replace("Gedekt", MARKER)
            (folder / year).mkdir()
            text = f"Sjabloon:{year}:45\nARTIKEL 45 Gespeelde kaart\nA. Spelen van een kaart\n" + "".join(notes)
            (folder / year / f"wiki-Sjabloon-{year}-45.txt").write_text(text, encoding="utf-8")
        return {"pair": ("2007", "2017"), "show": "2017:45A"}
    if kind in ("many-references", "retargeted-references"):
        # One section of 2007 article 45 holding thousands of references, after trigger words and bare, to
        # clauses the corpus holds and not, and the same page with a few words changed as 2017; or, for
        # "retargeted-references", with every other reference after "artikel" made one to an article it did not cite
        # (each was once matched by a scan of the new references, each changed number checked against every
        # reference).
        n = rng.choice([6000, 8000, 10000])
        targets = ["45A", "45B", "45C1", "16D1", "50", "45"]
        pieces = [
            f"zie artikel {rng.choice(targets)} en {rng.choice(['speler', MARKER])} {rng.choice(targets)} "
            for _ in range(n)
        ]
        seed = (CORPUS / "2007" / "wiki-Sjabloon-2007-45.txt").read_text(encoding="utf-8")
        _, _, body = seed.partition("\n")
        heading = "A. Spelen van een kaart\n"
        for year in ("2007", "2017"):
            if year == "2017":
                for at in rng.sample(range(n), max(1, n // 100)):
                    pieces[at] = pieces[at].replace("zie", "lees", 1)
                if kind == "retargeted-references":
                    for at in range(0, n, 2):
                        pieces[at] = re.sub(r"artikel \S+", f"artikel {rng.randint(60, 99)}", pieces[at], count=1)
            (folder / year).mkdir()
            text = f"Sjabloon:{year}:45\n" + body.replace(heading, heading + "".join(pieces) + "\n", 1)
            (folder / year / f"wiki-Sjabloon-{year}-45.txt").write_text(text, encoding="utf-8")
        return {"pair": ("2007", "2017"), "show": "2017:45A"}
    if kind == "nul-byte":
        seed = rng.choice(sorted(EXPORTS.glob("*.xml")))
        data = seed.read_bytes()
        at = rng.randrange(len(data))
        (folder / "dumps").mkdir()
        (folder / "dumps" / seed.name).write_bytes(data[:at] + b"\0" * rng.choice([1, 1, 3]) + data[at:])
        return {}
    # junk-files: bad files beside the pages, in some year folders, and an editor's backup of a page.
    _seed_folder(folder, ("1963", "2007", "2017"))
    bad: list[str] = []
    for _ in range(rng.randrange(1, 6)):
        year = rng.choice(["1963", "1963", "2007"])
        source = rng.choice([*sorted(EXPORTS.glob("*.xml")), *sorted(CORPUS.glob("2017/*.json"))])
        data = source.read_bytes()
        junk = rng.choice([data[: rng.randrange(1, len(data) // 2)], b"PK\x03\x04junk", b"\x00" * 64, b"{"])
        name = f"junk{len(bad)}{rng.choice(['.xml', '.json', '.docx', ''])}"
        (folder / year / name).write_bytes(junk)
        bad.append(f"{year}/{name}")
    page = next((folder / "2007").glob("wiki-*.txt"))
    backup = rng.choice(_BACKUPS).format(name=page.name)
    (folder / "2007" / backup).write_text(page.read_text(encoding="utf-8").replace("speler", MARKER), encoding="utf-8")
    return {"bad": bad, "backup": f"2007/{backup}", "pair": ("2007", "2017"), "show": "2007"}


def corpus_outcome(kind: str, folder: Path, facts: dict[str, Any]) -> str:
    """``read`` or ``refused`` when the commands keep their promises on the corpus, else the failure."""
    from click.testing import CliRunner

    from lawdiff.cli import main as cli

    runs: list[tuple[str, int, str]] = []

    slow: list[str] = []
    megabytes = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6
    bound = max(REFERENCES_BOUND, BOUND_PER_MB * megabytes)

    def run(*args: str) -> tuple[int, str]:
        started = time.process_time()
        result = CliRunner().invoke(cli, [*args, "--corpus", str(folder), "--no-cache"])
        took = time.process_time() - started
        if kind in BOUNDED_KINDS and took > bound:
            slow.append(f"{kind}: {' '.join(args[:2])} took {took:.1f} s of CPU (bound {bound:.1f} s)")
        runs.append((args[0], result.exit_code, result.output))
        return result.exit_code, result.output

    status, checked = run("check")
    if "show" in facts:
        run("show", facts["show"])
    if "pair" in facts:
        run("compare", *facts["pair"])
        run("correlate", *facts["pair"])
    if kind in BOUNDED_KINDS:
        run("compare", *facts["pair"], "--format", "html")
    for command, code, output in runs:
        if code == 3 or "Traceback" in output:
            match = re.search(r"internal error[^:]*: (\w+)", output)
            return f"{kind}: {command} exits {code} ({match.group(1) if match else 'traceback'})"
        if code == 2 and not (output.startswith("lawdiff: error: ") and output.count("\n") == 1):
            return f"{kind}: {command}'s error is not one line"
        if code not in (0, 1, 2):
            return f"{kind}: {command} exits {code}"
        if "set_int_max_str_digits" in output:
            return f"{kind}: {command} passes on Python's advice"
    if slow:
        return slow[0]
    if kind == "second-text" and status in (0, 1) and facts["marker"] not in checked:
        # Not named as unplaced: then it must be read (placed in a clause).
        from lawdiff.corpus import load

        if not any(MARKER in c.text for e in load([folder]).editions for c in e.walk()):
            return f"{kind}: a <text> not read and not named (silent loss)"
    if kind == "junk-files":
        from lawdiff.corpus import corpus_files

        skipped: list[str] = []
        read = [display for _, display, _ in corpus_files([folder], skipped)]
        if facts["backup"] in read or facts["backup"] not in skipped:
            return f"{kind}: an editor's backup read as a page, or not listed as skipped"
        if any(MARKER in output for command, code, output in runs if command == "show" and code == 0):
            return f"{kind}: an editor's backup read as a page"
        unreadable = [name for name in facts["bad"] if _unreadable(folder / name)]
        if not all(name in checked for name in unreadable):
            return f"{kind}: check does not name every unreadable file"
        blocked = any(code == 2 for command, code, _ in runs if command in ("compare", "correlate"))
        if blocked and not any(name.startswith("2007/") for name in unreadable):
            return f"{kind}: a bad file of an edition not compared blocks the comparison"
    return "refused" if any(code == 2 for _, code, _ in runs) else "read"


def _unreadable(path: Path) -> bool:
    from lawdiff.errors import InputError
    from lawdiff.sources import read_file

    try:
        read_file(path, path.name, path.parent.name)
    except InputError:
        return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--inputs", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=2017)
    parser.add_argument("--corpus-share", type=float, default=0.2, help="the share of whole corpus folders")
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
        if rng.random() < args.corpus_share:
            kind = rng.choice(CORPUS_KINDS)
            with tempfile.TemporaryDirectory(prefix="lawdiff-fuzz-") as tmp:
                folder = Path(tmp) / "corpus"
                folder.mkdir()
                outcome = corpus_outcome(kind, folder, make_corpus(rng, kind, folder))
                if outcome not in ("read", "refused") and kept[outcome] < KEEP_PER_KIND:
                    kept[outcome] += 1
                    OUTPUT.mkdir(parents=True, exist_ok=True)
                    shutil.copytree(folder, OUTPUT / f"{len(list(OUTPUT.iterdir())):03d}-{kind}")
        else:
            kind, file, text = make_input(rng, props)
            outcome = classify(props, text, file)
            if outcome not in ("read", "refused") and kept[outcome] < KEEP_PER_KIND:
                kept[outcome] += 1
                OUTPUT.mkdir(parents=True, exist_ok=True)
                name = f"{len(list(OUTPUT.iterdir())):03d}-{kind}-{file}"
                (OUTPUT / name).write_text(text, encoding="utf-8", errors="surrogatepass")
        n += 1
        tried[kind] += 1
        outcomes[outcome] += 1
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
