"""The committee's minutes as a file to circulate: Markdown or a Word document.

:func:`minutes` is the one entry (``lawdiff review export --format md|docx``, and the served app's
download): the decisions of an export's selection in article order (:mod:`lawdiff.review.minutes`),
each with its status, its significance flags, the wording decided on and the difference, deleted words
struck through and inserted ones underlined, and its comments.  The Word document is built with lxml
(:mod:`lawdiff.report.wordml`): text goes into runs, never markup; characters a reader cannot see are
shown as their marks (:func:`lawdiff.marks.escape`), as in every text output.
"""

from __future__ import annotations

from lxml import etree

from lawdiff import i18n, marks
from lawdiff.diff.vocabulary import Op
from lawdiff.errors import UsageError
from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.report.wordml import (
    CT_BASE,
    CT_NS,
    LAW_LANG,
    NSMAP,
    REL_DOC,
    REL_STYLES,
    Element,
    child,
    relationships,
    styles_xml,
    text_runs,
    w,
    word_lang,
    xml_bytes,
    zipped,
)
from lawdiff.review.exchange import Selection
from lawdiff.review.ids import short
from lawdiff.review.minutes import (
    Minute,
    Minutes,
    about,
    article_heading,
    commented,
    decision_heading,
    flags_line,
    gather,
    markdown,
    title,
)

FORMATS = ("md", "docx")


def minutes(selection: Selection, fmt: str) -> bytes:
    """The minutes of ``selection`` (:func:`lawdiff.review.exchange.select`) as ``md`` or ``docx`` bytes."""
    gathered = gather(selection.meeting, selection.decisions, selection.comments)
    if fmt == "md":
        return markdown(gathered).encode("utf-8")
    if fmt == "docx":
        return docx(gathered)
    raise UsageError(
        _("unknown minutes format {format!r}").format(format=fmt),
        fix=_("use one of: {formats}").format(formats=", ".join(FORMATS)),
    )


def _para(body: Element, text: str = "", style: str = "Normal") -> Element:
    p = child(body, "p")
    child(child(p, "pPr"), "pStyle", val=style)
    if text:
        text_runs(child(p, "r"), marks.escape(text))
    return p


def _run(p: Element, text: str, op: Op = Op.EQUAL, bold: bool = False, law: bool = False) -> None:
    """A run of ``text``: struck (deleted) or underlined (inserted) words, a bold label; ``law``: law text,
    marked as Dutch whatever the interface's language (a spelling checker and a screen reader read it so)."""
    r = child(p, "r")
    if op is not Op.EQUAL or bold or law:
        rpr = child(r, "rPr")
        if bold:
            child(rpr, "b")
        if op is Op.DELETE:
            child(rpr, "strike")
            child(rpr, "color", val="C00000")
        elif op is Op.INSERT:
            child(rpr, "u", val="single")
            child(rpr, "color", val="2F5496")
        if law:
            child(rpr, "lang", val=LAW_LANG)
    text_runs(r, marks.escape(text))


def _labelled(body: Element, label: str, text: str, law: bool = False) -> Element:
    p = _para(body)
    _run(p, label + " ", bold=True)
    _run(p, text, law=law)
    return p


def _decision(body: Element, item: Minute) -> None:
    d = item.decision
    _para(body, decision_heading(item), "Heading3")
    _para(body, about(d, terms.kind(d.kind), short(d.id), d.assignee))
    if item.signals:
        _labelled(body, _("Flags:"), flags_line(item.signals))
    for a, t in zip(d.old, d.old_texts, strict=False):
        _labelled(body, _("Old ({edition} {address}):").format(edition=d.old_edition, address=a), t, law=True)
    for a, t in zip(d.new, d.new_texts, strict=False):
        _labelled(body, _("New ({edition} {address}):").format(edition=d.new_edition, address=a), t, law=True)
    if item.pieces:
        p = _para(body)
        _run(p, _("Difference:") + " ", bold=True)
        for piece in item.pieces:
            _run(p, piece.text, piece.op, law=True)
    for c in item.comments:
        _labelled(body, commented(c) + ":", c.text)


def document_xml(m: Minutes) -> Element:
    """``word/document.xml`` of the minutes: the meeting, then per pair and article each decision."""
    doc = etree.Element(w("document"), nsmap=NSMAP)
    body = child(doc, "body")
    meeting = m.meeting
    _para(body, title(m), "Title")
    if meeting is not None and meeting.attendees:
        _para(body, _("Attendees: {names}").format(names=", ".join(meeting.attendees)))
    if not m.minutes:
        _para(body, _("No decisions."))
    pair = article = None
    for item in m.minutes:
        d = item.decision
        if (d.old_edition, d.new_edition) != pair:
            pair, article = (d.old_edition, d.new_edition), None
            _para(body, f"{d.old_edition} → {d.new_edition}", "Heading1")
        if d.article != article:
            article = d.article
            _para(body, article_heading(d.article), "Heading2")
        _decision(body, item)
    sect = child(body, "sectPr")
    child(sect, "pgSz", w="11906", h="16838")  # A4
    child(sect, "pgMar", top="1418", right="1418", bottom="1418", left="1418", header="709", footer="709", gutter="0")
    return doc


def docx(m: Minutes) -> bytes:
    """The minutes as a .docx: the same minutes give the same bytes (:func:`~lawdiff.report.wordml.zipped`)."""
    types = etree.Element(f"{{{CT_NS}}}Types", nsmap={None: CT_NS})  # type: ignore[dict-item]
    for ext, ct in (("rels", "application/vnd.openxmlformats-package.relationships+xml"), ("xml", "application/xml")):
        etree.SubElement(types, f"{{{CT_NS}}}Default", Extension=ext, ContentType=ct)
    for part, ct in (
        ("/word/document.xml", f"{CT_BASE}.document.main+xml"),
        ("/word/styles.xml", f"{CT_BASE}.styles+xml"),
    ):
        etree.SubElement(types, f"{{{CT_NS}}}Override", PartName=part, ContentType=ct)
    return zipped(
        [
            ("[Content_Types].xml", xml_bytes(types)),
            ("_rels/.rels", xml_bytes(relationships([(REL_DOC, "word/document.xml")]))),
            ("word/document.xml", xml_bytes(document_xml(m))),
            ("word/_rels/document.xml.rels", xml_bytes(relationships([(REL_STYLES, "styles.xml")]))),
            # The minutes' own words are in the interface's language; the law text's runs say Dutch.
            ("word/styles.xml", xml_bytes(styles_xml(word_lang(i18n.language())))),
        ]
    )
