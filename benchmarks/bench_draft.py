"""Benchmark: read a 300-page draft (.docx) against the same text as wiki pages.

The four generated editions of ``generate.py`` (93 articles each, from the
seed texts of ``corpus/`` alone) are written twice into a temporary folder:

* as wiki pages (``generate.write``: one page per article, about 370 files);
* as one .docx, the committee's way: every line of the four editions a
  paragraph, article headings in the "heading 1" style, section headings in
  "heading 2", subsections ``1.`` and items ``(a)`` made by Word's automatic
  numbering (``%1.`` and ``(%2)``, a new list restarting at each section),
  ``- `` items as bullets, notes typed ``1) ...`` as in the printed book.

Each is read in a fresh Python process, the real path: ``lawdiff.corpus.load``
on the wiki folder; ``read_draft`` plus the clause tree and the lossless check
(``from_pages``) on the .docx.  The figure is the median over ``--runs`` runs
of the whole process (interpreter start and imports included); the target of
issue 13 is the .docx in at most twice the wiki pages' time.  Before timing,
the .docx is checked to give every generated clause with its text (the same
check ``bench_align.py`` makes of the wiki pages), four editions in one page.

Run: ``python3 benchmarks/bench_draft.py [--runs N] [--keep DIR]``; with
LibreOffice installed (``soffice``), the .docx is also converted to .odt and
that read is timed too.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import generate  # noqa: E402

TARGET_RATIO = 2.0
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
WORDS_PER_PAGE = 450  # a printed page of the rule book, roughly

_ARTICLE = re.compile(r"^ARTIKEL \d+")
_SECTION = re.compile(r"^[A-Z]\. ")
_SUB = re.compile(r"^(\d+)\.(?: (.*))?$")
_ITEM = re.compile(r"^- \(([a-z]+)\) (.*)$")
_DASH = re.compile(r"^- (.*)$")


def _p(text: str, style: str = "", num: tuple[int, int] | None = None) -> str:
    ppr = f'<w:pStyle w:val="{style}"/>' if style else ""
    if num is not None:
        ppr += f'<w:numPr><w:ilvl w:val="{num[1]}"/><w:numId w:val="{num[0]}"/></w:numPr>'
    run = f'<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r>' if text else ""
    return f"<w:p>{f'<w:pPr>{ppr}</w:pPr>' if ppr else ''}{run}</w:p>"


def docx_of(editions: list[str], path: Path) -> int:
    """Write the editions' lines as one .docx; returns the number of paragraphs."""
    body: list[str] = []
    nums = 1  # numId 1 is the bullet list; each section's numbered list gets its own
    current = 0
    for text in editions:
        for line in text.splitlines():
            if not line:
                continue
            if _ARTICLE.match(line) or _SECTION.match(line):
                body.append(_p(line, "Heading1" if _ARTICLE.match(line) else "Heading2"))
                current = 0  # the next "1." starts a new list
            elif m := _SUB.match(line):
                if current == 0:
                    nums += 1
                    current = nums
                body.append(_p(m.group(2) or "", num=(current, 0)))
            elif m := _ITEM.match(line):
                if current == 0:
                    nums += 1
                    current = nums
                body.append(_p(m.group(2), num=(current, 1)))
            elif m := _DASH.match(line):
                body.append(_p(m.group(1), num=(1, 0)))
            else:
                body.append(_p(line))
    restart = "".join(f'<w:lvlOverride w:ilvl="{i}"><w:startOverride w:val="1"/></w:lvlOverride>' for i in (0, 1))
    numbering = (
        f'<w:numbering xmlns:w="{W}">'
        '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/>'
        '<w:lvlText w:val="-"/></w:lvl></w:abstractNum>'
        '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        '<w:lvlText w:val="%1."/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/>'
        '<w:lvlText w:val="(%2)"/></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
        + "".join(f'<w:num w:numId="{n}"><w:abstractNumId w:val="1"/>{restart}</w:num>' for n in range(2, nums + 1))
        + "</w:numbering>"
    )
    styles = (
        f'<w:styles xmlns:w="{W}">'
        '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>'
    )
    document = f'<w:document xmlns:w="{W}"><w:body>{"".join(body)}<w:sectPr/></w:body></w:document>'
    ct = (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        'wordprocessingml.document.main+xml"/></Types>'
    )
    rels = '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", ct)
        z.writestr("_rels/.rels", f'{rels}<Relationship Id="rId1" Type="{REL}/officeDocument" '
                                  'Target="word/document.xml"/></Relationships>')  # fmt: skip
        z.writestr(
            "word/_rels/document.xml.rels",
            f'{rels}<Relationship Id="rId1" Type="{REL}/numbering" Target="numbering.xml"/>'
            f'<Relationship Id="rId2" Type="{REL}/styles" Target="styles.xml"/></Relationships>',
        )
        z.writestr("word/document.xml", document)
        z.writestr("word/numbering.xml", numbering)
        z.writestr("word/styles.xml", styles)
    return len(body)


def check_docx(path: Path, generated: generate.Generated) -> tuple[int, int]:
    """(clauses the draft gives as generated, clauses generated): address and text, edition by edition."""
    from lawdiff.corpus import from_pages
    from lawdiff.sources.draft import read_draft

    corpus = from_pages(read_draft(path, "2027"))
    (check,) = corpus.checks
    assert check.unplaced == (), check.unplaced[:3]
    got = {c.address: c.text for c in corpus.editions[0].walk()}
    found = total = 0
    for i, edition in enumerate(generated.editions):
        # The second and later editions' articles are duplicates in one page: "45~2", "45~3", ...
        suffix = "" if i == 0 else f"~{i + 1}"
        for unit in edition.units:
            total += 1
            address = _tilde(unit.address, suffix)
            found += got.get(address) == unit.text
    return found, total


def _tilde(address: str, suffix: str) -> str:
    m = re.match(r"^(\d+)(.*)$", address)
    return f"{m.group(1)}{suffix}{m.group(2)}" if m and suffix else address


def timed(code: str, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "output" / "bench_draft.json")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="lawdiff-bench-draft-"))
    try:
        generated = generate.generate()
        generate.write(generated, folder / "wiki")
        flat = [generate.flatten(e) for e in generated.editions]
        docx = folder / "draft.docx"
        paragraphs = docx_of(flat, docx)
        words = sum(len(t.split()) for t in flat)
        found, total = check_docx(docx, generated)
        print(f"draft: {paragraphs} paragraphs, {words} words (about {words // WORDS_PER_PAGE} pages),"
              f" {docx.stat().st_size // 1024} KB; clauses read as generated: {found}/{total}")  # fmt: skip
        wiki_code = f"from pathlib import Path; from lawdiff.corpus import load; load([Path({str(folder / 'wiki')!r})])"
        draft_code = (
            "from pathlib import Path; from lawdiff.corpus import from_pages; from lawdiff.sources.draft import"
            f" read_draft; from_pages(read_draft(Path({str(docx)!r}), '2027'))"
        )
        results = {"wiki pages": timed(wiki_code, args.runs), ".docx": timed(draft_code, args.runs)}
        out_odt: list[int] = []
        if shutil.which("soffice"):
            subprocess.run(["soffice", "--headless", "--convert-to", "odt", "--outdir", str(folder), str(docx)],
                           check=True, capture_output=True, timeout=600)  # fmt: skip
            odt = folder / "draft.odt"
            odt_found, _ = check_docx(odt, generated)
            print(f"LibreOffice's .odt of it: clauses read as generated: {odt_found}/{total}")
            out_odt = [odt_found, total]
            odt_code = draft_code.replace(str(docx), str(odt))
            results[".odt (LibreOffice's)"] = timed(odt_code, args.runs)
        base = statistics.median(results["wiki pages"])
        out: dict[str, object] = {
            "paragraphs": paragraphs,
            "words": words,
            "clauses_read": [found, total],
            "clauses_read_odt": out_odt,
            "runs": args.runs,
        }
        for name, times in results.items():
            med = statistics.median(times)
            out[name] = {"median_s": round(med, 3), "best_s": round(min(times), 3), "ratio": round(med / base, 2)}
            print(f"  {name:22} median {med:6.3f} s  best {min(times):6.3f} s  ratio to wiki pages {med / base:4.2f}")
        ratio = statistics.median(results[".docx"]) / base
        print(f"target: .docx at most {TARGET_RATIO}x the wiki pages: {'met' if ratio <= TARGET_RATIO else 'NOT met'}")
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        if args.keep:
            shutil.copytree(folder, args.keep, dirs_exist_ok=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
