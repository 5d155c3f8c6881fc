"""The agreement of every rendering with the study: the checks of ``tests/test_agreement.py`` and of the
wide sweep ``benchmarks/bench_agreement.py`` (a helper module, not a test file).

For one pair of editions, :func:`disagreements` renders the comparison as text (``--all``), JSON, the
HTML page of ``compare --format html`` and the Word redline, reads each back, and says every place
where one of them names another kind, other addresses or another scope than the study
(:mod:`lawdiff.diff.scope`) for a change; where the redline, accepted (``w:del`` dropped, ``w:ins``
kept), is not the new edition's compared text or, rejected, the old one's; where what is not compared
is a tracked change; and where a heading is paired with a body.  An empty list is agreement.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterator
from typing import Any

from lxml import etree
from lxml import html as lxml_html

from lawdiff.align import Aspect
from lawdiff.diff import SHORT_ID, Change, Comparison, compared, scope_of
from lawdiff.model import Edition, article_of
from lawdiff.report import html, jsonout, text
from lawdiff.report.docx import docx

Row = tuple[str, tuple[str, ...], tuple[str, ...]]  # kind (as the rendering words it), old, new

_TEXT_LINE = re.compile(r"^  ([0-9a-f]{10})  (\S+)\s+(.+?)(?: \[[^\]]*\])?(?:  \((.*)\))?$")


def _split(where: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if " -> " in where:
        old, new = where.split(" -> ")
        return tuple(old.split(", ")), tuple(new.split(", "))
    both = tuple(where.split(", "))
    return both, both


def text_rows(out: str) -> dict[str, Row]:
    """Each change the text lists: its kind and addresses (both sides where they are the same)."""
    rows: dict[str, Row] = {}
    for line in out.splitlines():
        m = _TEXT_LINE.match(line)
        if m:
            old, new = _split(m.group(3))
            heading = "heading" in (m.group(4) or "").split("; ")
            rows[m.group(1)] = (("heading " if heading else "") + m.group(2), old, new)
    return rows


def expected_text_row(ch: Change) -> Row:
    kind = ("heading " if ch.aspect is Aspect.TITLE else "") + ch.kind.value
    if ch.old and ch.new:
        return (kind, ch.old, ch.new) if ch.old != ch.new else (kind, ch.old, ch.old)
    both = ch.old or ch.new
    return kind, both, both


def html_rows(page: str) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...], bool]]:
    """Each change row of a page: its badge, its addresses on each side, whether it marks words."""
    root = lxml_html.document_fromstring(page)
    out = {}
    for body in root.iter("tbody"):
        ident = body.get("id") or ""
        if not ident.startswith("change-"):
            continue
        badge = body.xpath("string(.//td[@class='kind']/span[contains(@class, 'badge')][1])")
        olds = tuple(a.text_content() for a in body.xpath(".//td[contains(@class, 'old')]//a[@class='addr']"))
        news = tuple(a.text_content() for a in body.xpath(".//td[contains(@class, 'new')]//a[@class='addr']"))
        marked = bool(
            body.xpath(".//td[contains(@class, 'old') or contains(@class, 'new')]//*[self::ins or self::del]")
        )
        out[ident.removeprefix("change-")] = (" ".join(badge.split()), olds, news, marked)
    # A run of clauses whose words did not change (lawdiff.report.html.runs): one entry per change, its id on
    # a span, the old clause's address first (one address: the same on both sides), no words marked.
    for span in root.xpath("//tbody[contains(@class, 'run')]//span[starts-with(@id, 'change-')]"):
        entry = span.getparent().getparent() if span.getparent().get("class") == "ch" else span.getparent()
        chips = tuple(a.text_content() for a in entry.xpath(".//a[@class='addr']"))
        heading = "heading " if (entry.get("id") or "").endswith("-title") else ""
        old, new = (chips[:1], chips[1:]) if len(chips) == 2 else (chips, chips)
        out[span.get("id").removeprefix("change-")] = (heading + "unchanged", old, new, False)
    return out


def study_faults(comp: Comparison, old: Edition, new: Edition) -> Iterator[str]:
    """Headings never paired with bodies: a heading change holds titles, a text change texts."""
    for ch in comp.changes:
        for edition, addresses, texts in ((old, ch.old, ch.old_texts), (new, ch.new, ch.new_texts)):
            for a, t in zip(addresses, texts, strict=True):
                clause = edition.find(a)
                if clause is None:
                    yield f"{ch.id[:SHORT_ID]}: {edition.name} has no clause {a}"
                elif t != (clause.title if ch.aspect is Aspect.TITLE else clause.text):
                    yield f"{ch.id[:SHORT_ID]}: the {ch.aspect.value} of {edition.name} {a} is not the change's"


def rendering_faults(comp: Comparison, old: Edition, new: Edition) -> Iterator[str]:
    """Text, JSON and HTML against the study, change by change (see the module docstring)."""
    changes = list(comp.changes)
    listed = text_rows(text.comparison(comp, changes, True, text.plain, False, None))
    doc = json.loads(jsonout.comparison(comp, changes, None, (old, new)))
    by_id = {c["id"][:SHORT_ID]: c for c in doc["changes"]}
    rows = html_rows(html.comparison(comp, changes, old, new))
    for ch in changes:
        short = ch.id[:SHORT_ID]
        scope = scope_of(ch)
        j = by_id.get(short)
        if j is None or (j["kind"], tuple(j["old"]), tuple(j["new"]), j["aspect"]) != (
            ch.kind.value,
            ch.old,
            ch.new,
            ch.aspect.value,
        ):
            yield f"{short}: JSON says {j and (j['kind'], j['old'], j['new'])}"
        elif j["counterpart_in_corpus"] != scope.compared or j["scope"] != scope.value:
            yield f"{short}: JSON's scope is not the study's ({scope.value})"
        if scope.compared and listed.get(short) != expected_text_row(ch):
            yield f"{short}: the text says {listed.get(short)}, the study {expected_text_row(ch)}"
        if not scope.compared and short in listed:
            yield f"{short}: the text lists a change it does not compare"
        row = rows.get(short)
        head = "heading " if ch.aspect is Aspect.TITLE else ""
        word = head + (ch.kind.value if scope.compared else "not compared")
        if row is None or row[0] != word or (row[1], row[2]) != (ch.old, ch.new):
            yield f"{short}: the HTML says {row and row[:3]}, the study {(word, ch.old, ch.new)}"
        elif not scope.compared and row[3]:
            yield f"{short}: the HTML marks words inserted or deleted that it does not compare"


def redline_faults(comp: Comparison, old: Edition, new: Edition, check: Any) -> Iterator[str]:
    """The Word redline: accepted it is the new edition's compared text, rejected the old one's
    (``check``: :func:`test_docx.check`, which raises on a difference); nothing not compared is tracked;
    no internal address is visible tracked text."""
    changes = list(comp.changes)
    data = docx(comp, changes, old, new)
    try:
        check(data, old, new, changes)
    except AssertionError as exc:
        yield f"the redline does not accept to {new.name} and reject to {old.name}: {exc}"
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        body = etree.fromstring(z.read("word/document.xml"))
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    shown = {a for ch in compared(changes) for a in ch.old + ch.new}
    around = {article_of(a) for ch in compared(changes) for a in ch.old + ch.new} - {""}
    for p in body.iter(f"{w}p"):
        style = p.find(f"{w}pPr/{w}pStyle")
        if style is None or not style.get(f"{w}val", "").startswith("Heading"):
            continue
        tracked = p.find(f".//{w}ins") is not None or p.find(f".//{w}del") is not None
        was = "".join(
            t.text or "" for t in p.iter(f"{w}t", f"{w}delText") if t.getparent().getparent().tag != f"{w}ins"
        )
        now = "".join(t.text or "" for t in p.iter(f"{w}t") if t.getparent().getparent().tag != f"{w}del")
        for address in {was, now} - {""}:
            if tracked and address not in shown and article_of(address) not in around:
                yield f"the redline tracks {address}, which no compared change names"
    for holder in body.iter(f"{w}ins", f"{w}del"):
        for r in holder.iter(f"{w}r"):
            words = "".join(t.text or "" for t in r.iter(f"{w}t", f"{w}delText"))
            if re.search(r"\.p\d|~\d", words) and r.find(f"{w}rPr/{w}vanish") is None:
                yield f"the redline shows the internal address {words!r} as tracked text"


def disagreements(comp: Comparison, old: Edition, new: Edition, check: Any) -> list[str]:
    """Every disagreement of the renderings of one pair with the study (empty: they agree)."""
    return [
        *study_faults(comp, old, new),
        *rendering_faults(comp, old, new),
        *redline_faults(comp, old, new, check),
    ]
