"""The Word redline of a pair: tracked changes that accept to the new edition and reject to the old.

The document is read back here with lxml as Word's "Accept all" and "Reject
all" would leave it (drop ``w:del`` and unwrap ``w:ins``, or the reverse, and
join a paragraph to the next where its mark was deleted, or inserted), then
parsed into clauses by the shape :mod:`lawdiff.report.docx` describes.
LibreOffice converts it to PDF in a test of its own; the PDF goes to
``tests/output/redline-45.pdf`` (not kept in git).
"""

from __future__ import annotations

import io
import itertools
import re
import shutil
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from benchscripts import generator as _generator
from lxml import etree
from office import Office

from lawdiff.corpus import Corpus, load
from lawdiff.diff import Change, ChangeKind, Comparison, Op, compare, compared
from lawdiff.model import Clause, Edition, Kind, Loc, article_of
from lawdiff.report.docx import docx, revision_date
from lawdiff.report.redline import redline

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = {"w": W}
HERE = Path(__file__).parent
OUTPUT = HERE / "output"


def w(tag: str) -> str:
    return f"{{{W}}}{tag}"


# ---------------------------------------------------------------------------
# Reading a .docx back


class _Parts(Mapping[str, Any]):
    """The parts of a .docx by name, each parsed when first looked up: a check reads one or two of a
    dozen (parsing them all was a tenth of tests/test_agreement.py's time)."""

    def __init__(self, raw: dict[str, bytes]) -> None:
        self._raw = raw
        self._parsed: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._parsed:
            self._parsed[name] = etree.fromstring(self._raw[name])
        return self._parsed[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def parts(data: bytes) -> Mapping[str, Any]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return _Parts({name: z.read(name) for name in z.namelist()})


@dataclass
class Para:
    style: str
    text: str  # labels between \x01 ... \x02; footnote references and their marks as \x03N\x04\x05mark\x06


# The qualified names _runs compares tags with (etree.QName for each element was a third of its time).
_INS_DEL = (w("ins"), w("del"))
_R, _TEXTS, _TAB, _BR, _NOTE_REF = w("r"), (w("t"), w("delText")), w("tab"), w("br"), w("footnoteReference")


def _runs(parent: Any, drop: str, out: list[str]) -> None:
    """The text of ``parent``'s runs, without those inside ``w:{drop}``."""
    dropped = w(drop)
    for child in parent:
        tag = child.tag
        if tag == dropped:
            continue
        if tag in _INS_DEL:
            _runs(child, drop, out)
        elif tag == _R:
            style = child.find("w:rPr/w:rStyle", NS)
            label = style is not None and style.get(w("val")) == "LawLabel"
            piece: list[str] = []
            noted = False
            for el in child:
                name = el.tag
                if name in _TEXTS:
                    piece.append(el.text or "")
                elif name == _TAB:
                    piece.append("\t")
                elif name == _BR:
                    piece.append("\n")
                elif name == _NOTE_REF:
                    # Its mark as printed follows in its run (w:customMarkFollows).
                    assert el.get(w("customMarkFollows")) == "1"
                    piece.append(f"\x03{el.get(w('id'))}\x04\x05")
                    noted = True
            if noted:
                piece.append("\x06")
            text = "".join(piece)
            out.append(f"\x01{text}\x02" if label and text else text)


def view(container: Any, accept: bool) -> list[Para]:
    """The paragraphs of ``container`` as Accept all (or Reject all) leaves them."""
    drop, joins = ("del", "del") if accept else ("ins", "ins")
    out: list[Para] = []
    carry = ""
    for p in container.iter(w("p")):
        style_el = p.find("w:pPr/w:pStyle", NS)
        style = style_el.get(w("val")) if style_el is not None else "Normal"
        texts: list[str] = []
        _runs(p, drop, texts)
        carry += "".join(texts)
        if p.find(f"w:pPr/w:rPr/w:{joins}", NS) is not None:
            continue  # this paragraph joins the next
        out.append(Para(style, carry))
        carry = ""
    if carry:
        out.append(Para("LawText", carry))
    return out


@dataclass
class ReadClause:
    address: str
    level: int
    title: tuple[str, str] | None = None  # (label, title)
    text: tuple[str, str] | None = None  # (label, text)
    notes: list[tuple[str, str]] = field(default_factory=list)  # (footnote id, its mark) in the text


_LABELLED = re.compile(r"^\x01(?P<label>[^\x02]*)\x02 (?P<rest>.*)$|^\x01(?P<only>[^\x02]*)\x02$", re.S)
_NOTE = re.compile(r"\x03(\d+)\x04\x05([^\x06]*)\x06")


def _label(text: str) -> tuple[str, str]:
    m = _LABELLED.match(text)
    if m is None:
        assert "\x01" not in text, f"a label inside a text: {text!r}"
        return "", text
    if m.group("only") is not None:
        return m.group("only"), ""
    return m.group("label"), m.group("rest")


def clauses(paras: list[Para]) -> list[ReadClause]:
    """The clauses of a document's paragraphs: a heading, then an optional title and text paragraph."""
    out: list[ReadClause] = []
    # The empty paragraph that may end a document holds nothing (a clause's
    # empty text would stand right after its heading or title).
    ender = paras and paras[-1] == Para("LawText", "")
    if ender and (len(paras) == 1 or not paras[-2].style.startswith(("Heading", "LawTitle"))):
        paras = paras[:-1]
    for p in paras:
        if p.style.startswith("Heading"):
            assert "\x01" not in p.text
            out.append(ReadClause(p.text, int(p.style.removeprefix("Heading"))))
        elif not out:
            assert p.style in ("Title", "Subtitle"), p
        elif p.style == "LawTitle":
            assert out[-1].title is None and out[-1].text is None, (out[-1], p)
            out[-1].title = _label(p.text)
        elif p.style == "LawText":
            assert out[-1].text is None, (out[-1], p)
            out[-1].notes = _NOTE.findall(p.text)
            out[-1].text = _label(_NOTE.sub("", p.text))
        else:
            pytest.fail(f"a paragraph of style {p.style}: {p.text!r}")
    return out


def footnotes(data: bytes, accept: bool) -> dict[str, tuple[str, str]]:
    """Each footnote by id: its label and its text (a custom mark's note has no w:footnoteRef)."""
    root = parts(data)["word/footnotes.xml"]
    out: dict[str, tuple[str, str]] = {}
    for fn in root.findall("w:footnote", NS):
        if fn.get(w("type")):
            continue
        assert fn.find(".//w:footnoteRef", NS) is None
        (para,) = view(fn, accept)
        out[fn.get(w("id"))] = _label(para.text)
    return out


def note_suffix(mark: str) -> str:
    """``fn1`` for a footnote whose mark in its clause's text is ``1)``, ``¹⁾`` or ``1``."""
    digits = "".join(str("⁰¹²³⁴⁵⁶⁷⁸⁹".index(ch)) if ch in "⁰¹²³⁴⁵⁶⁷⁸⁹" else ch for ch in mark if ch.isdigit())
    return f"fn{digits}"


# ---------------------------------------------------------------------------
# What the document must read back as


def _parents(edition: Edition) -> dict[str, str]:
    parents: dict[str, str] = {}
    for clause in edition.walk():
        for child in (*clause.children, *clause.footnotes):
            parents[child.address] = clause.address
    return parents


def context(old: Edition, new: Edition, changes: list[Change], side: str) -> set[str]:
    """The clauses shown around the changes on one side: ancestors within their article that no change
    names there (never a chapter's or part's heading: those only where a change names them)."""
    edition = old if side == "old" else new
    named = {a for ch in changes for a in (ch.old if side == "old" else ch.new)}
    parents = _parents(edition)
    out: set[str] = set()
    for a in named:
        up = parents.get(a, "")
        while up and article_of(a) and article_of(up) == article_of(a):
            out.add(up)
            up = parents.get(up, "")
    return out - named


def withheld(changes: list[Change]) -> set[str]:
    """What the changes the study does not compare name: around the changes, a bare heading."""
    return {a for ch in changes if not ch.counterpart_in_corpus for a in ch.old + ch.new}


def scope(edition: Edition, addresses: list[str], around: set[str]) -> list[Clause]:
    """The clauses named and those shown around them, in document order (footnotes apart)."""
    wanted = set(addresses) | around
    return [c for c in edition.walk() if c.address in wanted and c.kind is not Kind.FOOTNOTE]


def expected(clause: Clause) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
    title = (clause.label, clause.title) if clause.title else None
    has_text = clause.text or not clause.title
    text = ("" if clause.title else clause.label, clause.text) if has_text else None
    return title, text


def check_side(data: bytes, old: Edition, new: Edition, changes: list[Change], side: str) -> None:
    accept = side == "new"
    edition, other = (new, old) if accept else (old, new)
    read = clauses(view(parts(data)["word/document.xml"], accept))
    # What one corpus lacks is never a tracked change: the document holds the compared changes alone.
    bare = withheld(changes)
    changes = compared(changes)
    named = [a for ch in changes for a in (ch.new if accept else ch.old)]
    around = context(old, new, changes, side)
    want = scope(edition, named, around)
    assert [c.address for c in read] == [c.address for c in want]
    notes = footnotes(data, accept)
    for got, clause in zip(read, want, strict=True):
        title, text = expected(clause)
        twin = other.find(clause.address)
        if clause.address in around and clause.address in bare:
            # Around the changes, what the study does not compare is a bare heading.
            title = text = None
        if not accept and twin is not None and twin.label != clause.label:
            # A label printed otherwise at the same address ("ARTIKEL 45", "Artikel 45") is no change of
            # the study: where the two are paired, the new edition's print stands on both sides.
            relabel = {clause.label: twin.label}
            if got.title and title and got.title[0] == twin.label:
                title = (relabel.get(title[0], title[0]), title[1])
            if got.text and text and got.text[0] == twin.label:
                text = (relabel.get(text[0], text[0]), text[1])
        assert got.title == title, clause.address
        if text is None:
            # A titled clause without text keeps a text paragraph where a
            # change or a footnote needs one: it must be empty.
            assert got.text in (None, ("", "")), clause.address
        else:
            assert got.text == text, clause.address
        # A footnote's mark is printed after its reference: the marker, else its number.
        mine = [
            (fn.address, fn.marker or fn.address.rsplit(".fn", 1)[1], fn.label, fn.text)
            for fn in clause.footnotes
            if fn.address in named
        ]
        read_notes = [(f"{clause.address}.{note_suffix(m)}", m, *notes[n]) for n, m in got.notes]
        assert read_notes == mine, clause.address


def check(data: bytes, old: Edition, new: Edition, changes: list[Change]) -> None:
    check_side(data, old, new, changes, "new")
    check_side(data, old, new, changes, "old")


@pytest.fixture(autouse=True)
def fixed_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


# ---------------------------------------------------------------------------
# The bundled corpus


PAIRS = [("1963", "2007"), ("2007", "2017"), ("1963", "1997"), ("1997", "2007")]


@pytest.fixture(scope="module")
def comparisons(corpus: Corpus) -> dict[tuple[str, str], tuple[Comparison, Edition, Edition]]:
    out = {}
    for a, b in PAIRS:
        old, new = corpus.edition(a), corpus.edition(b)
        out[(a, b)] = (compare(old, new), old, new)
    return out


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
@pytest.mark.parametrize("article", ["45", None], ids=["article-45", "all"])
def test_accept_gives_the_new_edition_and_reject_the_old(
    comparisons: dict[tuple[str, str], tuple[Comparison, Edition, Edition]],
    pair: tuple[str, str],
    article: str | None,
) -> None:
    cmp, old, new = comparisons[pair]
    changes = [ch for ch in cmp.changes if article is None or ch.article == article]
    if not changes:
        pytest.skip(f"no change in article {article}")
    check(docx(cmp, changes, old, new), old, new, changes)


def _ranges(data: bytes) -> dict[str, list[Any]]:
    """Each comment's text and the body paragraphs it spans."""
    root = parts(data)
    texts = {
        c.get(w("id")): "".join(t.text or "" for t in c.iter(w("t")))
        for c in root["word/comments.xml"].findall("w:comment", NS)
    }
    paras = root["word/document.xml"].findall("w:body/w:p", NS)
    open_at: dict[str, int] = {}
    spans: dict[str, list[Any]] = {}
    for k, p in enumerate(paras):
        for el in p.iter(w("commentRangeStart")):
            open_at[el.get(w("id"))] = k
        for el in p.iter(w("commentRangeEnd")):
            cid = el.get(w("id"))
            spans[texts[cid]] = paras[open_at[cid] : k + 1]
    return spans


def _tracked(paras: list[Any], tag: str, style: str) -> str:
    """The words of ``w:{tag}`` in paragraphs of ``style``, labels and footnote marks left out."""
    out = []
    for p in paras:
        st = p.find("w:pPr/w:pStyle", NS)
        if st is None or st.get(w("val")) != style:
            continue
        for holder in p.findall(f"w:{tag}", NS):
            after_label = False
            for r in holder.findall("w:r", NS):
                rs = r.find("w:rPr/w:rStyle", NS)
                if rs is not None and rs.get(w("val")) == "LawLabel":
                    after_label = True
                    continue
                if r.find("w:footnoteReference", NS) is not None:
                    continue  # a footnote's mark, not a word of the text
                if after_label and "".join(t.text or "" for t in r) == " ":
                    after_label = False
                    continue  # the space between a label and its text
                after_label = False
                for el in r:
                    name = etree.QName(el).localname
                    if name in ("t", "delText"):
                        out.append(el.text or "")
                    elif name == "br":
                        out.append("\n")
    return "".join(out)


@pytest.mark.parametrize("pair", [("1963", "2007"), ("2007", "2017")], ids="-".join)
def test_tracked_words_are_the_comparisons(
    comparisons: dict[tuple[str, str], tuple[Comparison, Edition, Edition]], pair: tuple[str, str]
) -> None:
    cmp, old, new = comparisons[pair]
    changes = [ch for ch in cmp.changes if ch.article == "45"]
    # A comment on every change marks the paragraphs that show it.
    when = datetime(2024, 3, 1, 12, tzinfo=UTC)
    data = docx(cmp, changes, old, new, {ch.id: [("test", when, ch.id)] for ch in changes})
    spans = _ranges(data)
    footnote_changes = {ch.id for ch in changes if any("fn" in a for a in ch.old + ch.new)}
    assert set(spans) == {ch.id for ch in changes}
    seen = 0
    for ch in changes:
        if ch.id in footnote_changes:
            continue
        style = "LawText" if ch.aspect.value == "text" else "LawTitle"
        joined_ins = "".join(p.text for p in ch.diff if p.op is Op.INSERT)
        joined_del = "".join(p.text for p in ch.diff if p.op is Op.DELETE)
        # The line break that joins the texts of a split's pieces is a
        # paragraph mark in the document, not a word.
        ins, dele = _tracked(spans[ch.id], "ins", style), _tracked(spans[ch.id], "del", style)
        if ch.kind is ChangeKind.SPLIT:
            joined_ins = joined_ins.replace("\n", "")
        if ch.kind is ChangeKind.MERGED:
            joined_del = joined_del.replace("\n", "")
        if ch.new:
            assert ins == joined_ins, ch.new
        if ch.old and ch.new:
            assert dele == joined_del, ch.old
        seen += 1
    assert seen >= 15


def test_footnotes_are_real_footnotes(comparisons: dict[tuple[str, str], tuple[Comparison, Edition, Edition]]) -> None:
    cmp, old, new = comparisons[("2007", "2017")]
    changes = [ch for ch in cmp.changes if ch.article == "45"]
    data = docx(cmp, changes, old, new)
    root = parts(data)
    refs = root["word/document.xml"].findall(".//w:footnoteReference", NS)
    # 45A.fn1 is printed "1)" in 2007 and "1" in 2017: a mark is part of
    # Word's reference, so the old note stands deleted and the new inserted.
    assert [(r.get(w("id")), etree.QName(r.getparent().getparent()).localname) for r in refs] == [
        ("2", "del"),
        ("3", "ins"),
    ]
    assert footnotes(data, accept=True)["3"] == ("1.", new.find("45A.fn1").text)  # type: ignore[union-attr]
    assert footnotes(data, accept=False)["2"] == ("1)", old.find("45A.fn1").text)  # type: ignore[union-attr]
    (a45,) = [c for c in clauses(view(root["word/document.xml"], accept=True)) if c.address == "45A"]
    assert a45.notes == [("3", "1")]
    (a45,) = [c for c in clauses(view(root["word/document.xml"], accept=False)) if c.address == "45A"]
    assert a45.notes == [("2", "1)")]
    rels = root["word/_rels/document.xml.rels"]
    assert "footnotes.xml" in [r.get("Target") for r in rels]
    assert root["word/settings.xml"].find("w:trackRevisions", NS) is not None


def test_a_kept_footnote_carries_its_difference() -> None:
    def with_note(name: str, note: str) -> Edition:
        text = "Elke speler speelt een kaart door haar uit zijn hand te nemen en op tafel te leggen."
        fn = Clause(Kind.FOOTNOTE, "1A.fn1", "1)", "", note, (), (), (), Loc("hand-made"), marker="1)", anchor=28)
        a = Clause(Kind.SECTION, "1A", "A.", "Spelen", text, (), (fn,), (), Loc("hand-made"))
        return edition(name, article("1", "Kaarten", a))

    old = with_note("2001", "De uitkomst geschiedt eerst met de beeldzijde naar beneden.")
    new = with_note("2002", "De uitkomst geschiedt altijd eerst met de beeldzijde naar beneden.")
    cmp = compare(old, new)
    data = docx(cmp, list(cmp.changes), old, new)
    check(data, old, new, list(cmp.changes))
    root = parts(data)
    (ref,) = root["word/document.xml"].findall(".//w:footnoteReference", NS)
    # One reference, kept, with its mark in its own run.
    assert etree.QName(ref.getparent().getparent()).localname == "p"
    assert "".join(t.text or "" for t in ref.getparent().findall("w:t", NS)) == "1)"
    (note,) = [fn for fn in root["word/footnotes.xml"].findall("w:footnote", NS) if not fn.get(w("type"))]
    assert ["".join(t.text or "" for t in i.iter(w("t"))) for i in note.iter(w("ins"))] == ["altijd "]
    assert footnotes(data, accept=False)[note.get(w("id"))] == ("1)", old.find("1A.fn1").text)  # type: ignore[union-attr]


def test_comments_carry_author_time_and_text(
    comparisons: dict[tuple[str, str], tuple[Comparison, Edition, Edition]],
) -> None:
    cmp, old, new = comparisons[("2007", "2017")]
    changes = [ch for ch in cmp.changes if ch.article == "45"]
    target = next(ch for ch in changes if ch.new == ("45C1",))
    given = [("Rules committee", "2024-03-01T12:00:00+01:00", "Decision: accepted.\nSee minutes 12.")]
    root = parts(docx(cmp, changes, old, new, {target.id: given, "0" * 40: [("x", "2024-01-01T00:00:00Z", "x")]}))
    (comment,) = root["word/comments.xml"].findall("w:comment", NS)
    assert comment.get(w("author")) == "Rules committee"
    assert comment.get(w("date")) == "2024-03-01T11:00:00Z"
    assert [("".join(t.text or "" for t in p.iter(w("t")))) for p in comment.findall("w:p", NS)] == [
        "Decision: accepted.",
        "See minutes 12.",
    ]
    body = root["word/document.xml"]
    cid = comment.get(w("id"))
    (start,) = body.findall(".//w:commentRangeStart", NS)
    assert start.get(w("id")) == cid
    assert body.find(f".//w:commentReference[@w:id='{cid}']", NS) is not None
    # The comment spans the text paragraph of 45C1.
    para = start.getparent()
    assert "".join(t.text or "" for t in para.iter(w("t"))).startswith("1. Een kaart van een tegenspeler")


def test_revisions_are_by_lawdiff_at_the_source_date(
    comparisons: dict[tuple[str, str], tuple[Comparison, Edition, Edition]],
) -> None:
    cmp, old, new = comparisons[("2007", "2017")]
    body = parts(docx(cmp, list(cmp.changes), old, new))["word/document.xml"]
    marks = body.findall(".//w:ins", NS) + body.findall(".//w:del", NS)
    assert marks
    assert {m.get(w("author")) for m in marks} == {"lawdiff"}
    assert {m.get(w("date")) for m in marks} == {"2023-11-14T22:13:20Z"}
    ids = [el.get(w("id")) for el in body.iter() if etree.QName(el).localname in ("ins", "del")]
    assert len(ids) == len(set(ids))
    # Deleted words are w:delText, never w:t.
    for d in body.iter(w("del")):
        assert d.find(".//w:t", NS) is None


def test_same_input_same_bytes(
    comparisons: dict[tuple[str, str], tuple[Comparison, Edition, Edition]], monkeypatch: pytest.MonkeyPatch
) -> None:
    cmp, old, new = comparisons[("1963", "2007")]
    first = docx(cmp, list(cmp.changes), old, new)
    assert docx(cmp, list(cmp.changes), old, new) == first
    with zipfile.ZipFile(io.BytesIO(first)) as z:
        assert [i.filename for i in z.infolist()] == [
            "[Content_Types].xml",
            "_rels/.rels",
            "word/document.xml",
            "word/_rels/document.xml.rels",
            "word/styles.xml",
            "word/settings.xml",
            "word/footnotes.xml",
            "word/comments.xml",
            "word/header1.xml",
        ]
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    assert docx(cmp, list(cmp.changes), old, new) != first


def test_revision_date() -> None:
    assert revision_date({"SOURCE_DATE_EPOCH": "0"}) == "1970-01-01T00:00:00Z"
    now = revision_date({})
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", now)
    from lawdiff.errors import UsageError

    with pytest.raises(UsageError, match="SOURCE_DATE_EPOCH"):
        revision_date({"SOURCE_DATE_EPOCH": "yesterday"})


def test_python_docx_reads_it(comparisons: dict[tuple[str, str], tuple[Comparison, Edition, Edition]]) -> None:
    import docx as python_docx

    cmp, old, new = comparisons[("2007", "2017")]
    changes = [ch for ch in cmp.changes if ch.article == "45"]
    document = python_docx.Document(io.BytesIO(docx(cmp, changes, old, new)))
    headings = [p for p in document.paragraphs if p.style is not None and p.style.name.startswith("Heading")]
    # python-docx reads the runs outside w:ins and w:del: the unchanged addresses.
    assert "45C4(b)" in [p.text for p in headings]
    assert {p.style.name for p in document.paragraphs if p.style is not None} >= {"Law Title", "Law Text"}
    assert document.settings.element.find(w("trackRevisions")) is not None


# ---------------------------------------------------------------------------
# Hand-made editions


def clause(kind: Kind, address: str, label: str, title: str, text: str, *children: Clause) -> Clause:
    return Clause(kind, address, label, title, text, tuple(children), (), (), Loc("hand-made"))


def article(number: str, title: str, *children: Clause) -> Clause:
    return clause(Kind.ARTICLE, number, f"ARTIKEL {number}", title, "", *children)


def section(address: str, text: str, title: str = "") -> Clause:
    return clause(Kind.SECTION, address, f"{address[-1]}.", title, text)


def edition(name: str, *articles: Clause) -> Edition:
    return Edition(name, int(name), tuple(articles))


def test_hostile_text_is_safe() -> None:
    evil = "<script>alert('x')</script> & \x01\x0b\x1f ]]> \ufffe end"
    old = edition("2001", article("1", "Titel <b>", section("1A", "Een kaart & <script>x</script> blijft.")))
    new = edition("2002", article("1", "Titel <b> &amp;", section("1A", evil, title="<i>kop</i>")))
    cmp = compare(old, new)
    comments = {ch.id: [("<Eve & co>", "2024-01-01T00:00:00Z", "</w:t><w:t>\x07 & <script>")] for ch in cmp.changes}
    data = docx(cmp, list(cmp.changes), old, new, comments)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in z.namelist():
            root = etree.fromstring(z.read(name))  # well-formed
            assert not [el for el in root.iter() if isinstance(el.tag, str) and "script" in el.tag.lower()]
    read = clauses(view(parts(data)["word/document.xml"], accept=True))
    text = read[-1].text
    assert text is not None
    assert text[1] == "<script>alert('x')</script> & \ufffd\ufffd\ufffd ]]> \ufffd end"
    assert read[0].title == ("ARTIKEL 1", "Titel <b> &amp;")
    (comment,) = {
        "".join(t.text or "" for t in c.iter(w("t"))) for c in parts(data)["word/comments.xml"].iter(w("comment"))
    }
    assert comment == "</w:t><w:t>\ufffd & <script>"


def moved_clauses() -> tuple[Edition, Edition]:
    """Three sections whose texts each move one place on: every one a deletion there and an insertion here."""
    alpha = "De leider speelt een kaart uit de blinde door haar te noemen en legt haar open op tafel."
    beta = "Een tegenspeler die een kaart laat zien aan zijn partner krijgt een strafkaart van de arbiter."
    gamma = "Na de laatste slag legt elke speler zijn kaarten terug in het bord voor de volgende ronde."
    old = edition("2001", article("1", "Kaarten", section("1A", alpha), section("1B", beta), section("1C", gamma)))
    new = edition("2002", article("1", "Kaarten", section("1A", gamma), section("1B", alpha), section("1C", beta)))
    return old, new


def test_a_moved_clause_is_deleted_there_and_inserted_here() -> None:
    old, new = moved_clauses()
    cmp = compare(old, new)
    data = docx(cmp, list(cmp.changes), old, new)
    check(data, old, new, list(cmp.changes))
    remarks = list(_ranges(data))
    assert any(r.startswith("2001 1C went to 2002 1A") for r in remarks), remarks
    assert any(r.startswith("2002 1A came from 2001 1C") for r in remarks), remarks
    for root in parts(data)["word/comments.xml"].iter(w("comment")):
        assert root.get(w("author")) == "lawdiff"


def test_a_split_rejects_to_one_paragraph() -> None:
    first = "De leider speelt een kaart uit de blinde door haar te noemen."
    second = "Daarna legt de blinde de kaart open op tafel voor zich neer."
    old = edition("2001", article("1", "Kaarten", section("1A", f"{first} {second}")))
    new = edition(
        "2002",
        article(
            "1",
            "Kaarten",
            clause(
                Kind.SECTION,
                "1A",
                "A.",
                "Spelen",
                "",
                *[
                    clause(Kind.SUBSECTION, "1A1", "1.", "", first),
                    clause(Kind.SUBSECTION, "1A2", "2.", "", second),
                ],
            ),
        ),
    )
    cmp = compare(old, new)
    assert [ch.kind for ch in cmp.changes if ch.aspect.value == "text"] == [ChangeKind.SPLIT]
    data = docx(cmp, list(cmp.changes), old, new)
    check(data, old, new, list(cmp.changes))
    body = parts(data)["word/document.xml"]
    # The split's inner paragraph marks are inserted ones.
    assert body.findall(".//w:pPr/w:rPr/w:ins", NS)


def test_a_merge_accepts_to_one_paragraph() -> None:
    first = "De leider speelt een kaart uit de blinde door haar te noemen."
    second = "Daarna legt de blinde de kaart open op tafel voor zich neer."
    old = edition("2001", article("1", "Kaarten", section("1A", first), section("1B", second)))
    new = edition("2002", article("1", "Kaarten", section("1A", f"{first} {second}")))
    cmp = compare(old, new)
    data = docx(cmp, list(cmp.changes), old, new)
    check(data, old, new, list(cmp.changes))
    assert any(ch.kind is ChangeKind.MERGED for ch in cmp.changes)
    assert parts(data)["word/document.xml"].findall(".//w:pPr/w:rPr/w:del", NS)


def test_a_line_break_inside_a_text_is_kept() -> None:
    old = edition("2001", article("1", "Kaarten", section("1A", "Eerste regel.\nTweede regel hier.")))
    new = edition("2002", article("1", "Kaarten", section("1A", "Eerste regel.\nTweede regel daar.")))
    cmp = compare(old, new)
    data = docx(cmp, list(cmp.changes), old, new)
    check(data, old, new, list(cmp.changes))
    assert parts(data)["word/document.xml"].findall(".//w:br", NS)


# ---------------------------------------------------------------------------
# Generated editions: moves, splits, merges, swaps, additions, removals


@pytest.mark.parametrize("seed", [3, 8])
def test_generated_editions_read_back(seed: int, tmp_path: Path) -> None:
    gen = _generator()
    gen.write(gen.generate(articles=8, seed=seed), tmp_path)
    corpus = load([tmp_path])
    editions = corpus.editions
    remarks = 0
    for old, new in itertools.pairwise(editions):
        cmp = compare(old, new)
        changes = list(cmp.changes)
        data = docx(cmp, changes, old, new)
        check(data, old, new, changes)
        remarks += len(redline(changes, old, new).remarks)
    assert remarks, "no moved clause in the generated editions"


# ---------------------------------------------------------------------------
# LibreOffice


def test_libreoffice_opens_it(
    comparisons: dict[tuple[str, str], tuple[Comparison, Edition, Edition]], office: Office
) -> None:
    cmp, old, new = comparisons[("2007", "2017")]
    changes = [ch for ch in cmp.changes if ch.article == "45"]
    comments = {changes[3].id: [("Rules committee", "2024-03-01T12:00:00Z", "Decision: accepted.")]}
    OUTPUT.mkdir(exist_ok=True)
    work = OUTPUT / "redline"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    source = work / "redline-45.docx"
    source.write_bytes(docx(cmp, changes, old, new, comments))
    result = office.run("--convert-to", "pdf", "--outdir", str(work), str(source))
    pdf = work / "redline-45.pdf"
    assert result.returncode == 0, result.stderr
    assert pdf.exists() and pdf.stat().st_size > 1000, (result.stdout, result.stderr)
    assert pdf.read_bytes().startswith(b"%PDF")
    shutil.copy(pdf, OUTPUT / "redline-45.pdf")


# ---------------------------------------------------------------------------
# What the study does not compare, and what it finds unchanged, is never tracked


def _tracked_headings(data: bytes) -> list[str]:
    """The addresses of the heading paragraphs, each with any tracked (deleted or inserted) text."""
    body = parts(data)["word/document.xml"]
    out = []
    for p in body.iter(w("p")):
        style = p.find("w:pPr/w:pStyle", NS)
        if style is not None and style.get(w("val")).startswith("Heading"):
            out.append("".join(t.text or "" for t in p.iter(w("t"), w("delText"))))
    return out


def _visible_tracked(data: bytes) -> list[str]:
    """The text of every tracked run a reader sees (hidden runs left out)."""
    body = parts(data)["word/document.xml"]
    out = []
    for holder in body.iter(w("ins"), w("del")):
        for r in holder.findall("w:r", NS):
            if r.find("w:rPr/w:vanish", NS) is None:
                out.append("".join(t.text or "" for t in r.iter(w("t"), w("delText"))))
    return out


def test_what_one_corpus_lacks_is_never_tracked(corpus: Corpus) -> None:
    old, new = corpus.edition("1963"), corpus.edition("2017")
    cmp = compare(old, new)
    data = docx(cmp, list(cmp.changes), old, new)
    headings = _tracked_headings(data)
    # 1963's corpus holds chapter VI's articles 41-49, 2017's articles 6 and 45: only 45 is compared.
    assert [a for a in headings if article_of(a) not in ("", "45")] == []
    assert "H3" not in headings
    header = "".join(t.text or "" for t in parts(data)["word/header1.xml"].iter(w("t")))
    assert "Not compared: article(s) 6" in header and "41-44, 46-49 only in the 1963 corpus" in header


def test_article_45_holds_no_chapter_headings(corpus: Corpus) -> None:
    old, new = corpus.edition("2007"), corpus.edition("2017")
    cmp = compare(old, new)
    changes = [ch for ch in cmp.changes if ch.article == "45"]
    headings = _tracked_headings(docx(cmp, changes, old, new))
    assert headings and all(article_of(a) == "45" for a in headings), headings


def test_an_unchanged_heading_is_not_tracked(corpus: Corpus) -> None:
    old, new = corpus.edition("2007"), corpus.edition("2017")
    cmp = compare(old, new)
    (heading,) = [ch for ch in cmp.changes if ch.new == ("45",) and ch.aspect.value == "title"]
    assert heading.kind is ChangeKind.UNCHANGED
    assert (old.find("45").label, new.find("45").label) == ("ARTIKEL 45", "Artikel 45")  # type: ignore[union-attr]
    tracked = _visible_tracked(docx(cmp, [ch for ch in cmp.changes if ch.article == "45"], old, new))
    assert "ARTIKEL 45" not in tracked and "Artikel 45" not in tracked


def test_internal_addresses_are_never_shown_as_tracked_text(corpus: Corpus) -> None:
    old, new = corpus.edition("2007"), corpus.edition("2017")
    cmp = compare(old, new)
    assert any(a.startswith("45E.p") for ch in cmp.changes for a in ch.old)
    tracked = _visible_tracked(docx(cmp, list(cmp.changes), old, new))
    assert tracked and not [t for t in tracked if re.search(r"\.p\d|~\d", t)]


def test_a_draft_of_one_article_tracks_that_article_alone(corpus: Corpus, tmp_path: Path) -> None:
    # The draft: the 2017 article 45 as a Word document (the redline of 2007 -> 2017, read accepted).
    old, new = corpus.edition("2007"), corpus.edition("2017")
    cmp = compare(old, new)
    folder = tmp_path / "c"
    shutil.copytree(HERE.parent / "corpus" / "2017", folder / "2017")
    (folder / "2027").mkdir()
    (folder / "2027" / "concept.docx").write_bytes(
        docx(cmp, [ch for ch in cmp.changes if ch.article == "45"], old, new)
    )
    drafted = load([folder])
    base, draft = drafted.edition("2017"), drafted.edition("2027")
    pair = compare(base, draft)
    data = docx(pair, list(pair.changes), base, draft)
    assert not [a for a in _tracked_headings(data) if article_of(a) != "45"]
    assert not [t for t in _visible_tracked(data) if "schudden" in t or "Het spelen" in t]
