"""The redline of a pair of editions: one sequence of paragraphs with tracked changes.

This module decides what the Word document of a pair (:mod:`lawdiff.report.docx`)
says, without any XML: which paragraphs, in which order, which of their words
and paragraph marks are deleted or inserted.  Accepting every change of the
result gives the new edition's clauses and rejecting every change the old
one's, by construction:

* each clause is a heading paragraph holding its address, then its title
  paragraph (label, a space, title) if it has a title, then its text
  paragraph (label, a space, text; the label only where there is no title);
* the paragraphs of a clause pair kept in its place carry the change's word
  difference; a split or merge keeps one chain of paragraphs whose inner
  paragraph marks are inserted (a split: rejecting joins them back) or
  deleted (a merge), with the headings of the other pieces inserted or
  deleted between them;
* what is only in the old edition stands deleted where it stood among its
  neighbours, what is only in the new one inserted; a pair that cannot keep
  its place in both orders (a clause moved) is deleted there and inserted
  here, each with a remark naming the other place.

The pairs kept in place are the largest set that runs in the same order in
both editions (a longest increasing subsequence, weighted by paragraphs).

Modules: ``redline_records`` (the paragraphs, runs, footnotes and remarks),
``redline_pairs`` (each edition's paragraphs, which pair, which keep their
place), ``redline_layout`` (a word difference cut into paragraphs' runs),
``redline_merge`` (the two editions written in one order).
"""

from __future__ import annotations

from collections.abc import Sequence

from lawdiff.align import Aspect
from lawdiff.diff import Change, compared
from lawdiff.model import Edition, Kind
from lawdiff.report.redline.merge import Doc, Notes, mark_text, merge
from lawdiff.report.redline.pairs import anchor_units, pair_units, paragraphs_of, scopes_of
from lawdiff.report.redline.paragraphs import Bit, Note, Para, Redline, Remark, Role

__all__ = ["Bit", "Note", "Para", "Redline", "Remark", "Role", "mark_text", "redline"]


def redline(changes: Sequence[Change], old: Edition, new: Edition) -> Redline:
    """The redline of ``changes`` between two editions (see the module docstring).

    Only the changes the study compares are shown (:func:`lawdiff.diff.compared`): what one corpus
    lacks is never a tracked change.  The clauses shown are those the changes name, with their
    footnotes, and their ancestors within their article (the headings around them; a chapter's or
    part's heading only where a change names it).
    """
    withheld = {a for ch in changes if not ch.counterpart_in_corpus for a in ch.old + ch.new}
    changes = compared(changes)
    old_footnotes = {a for ch in changes for a in ch.old if (c := old.find(a)) is not None and c.kind is Kind.FOOTNOTE}
    new_footnotes = {a for ch in changes for a in ch.new if (c := new.find(a)) is not None and c.kind is Kind.FOOTNOTE}
    text_old = {a for ch in changes if ch.aspect is Aspect.TEXT for a in ch.old} - old_footnotes
    text_new = {a for ch in changes if ch.aspect is Aspect.TEXT for a in ch.new} - new_footnotes
    old_scope, new_scope = scopes_of(
        old, new, {a for ch in changes for a in ch.old}, {a for ch in changes for a in ch.new}, withheld
    )
    olds = paragraphs_of(old, old_scope, text_old)
    news = paragraphs_of(new, new_scope, text_new)
    units = pair_units(
        [ch for ch in changes if not set(ch.old) & old_footnotes and not set(ch.new) & new_footnotes], olds, news
    )
    moved = {ch.id for ch in changes if ch.moved}
    anchor_units(units, moved)
    doc = Doc()
    notes = Notes(changes, olds, news, old_footnotes, new_footnotes)
    merge(doc, olds, news, notes, old.name, new.name)
    return Redline(
        old.name,
        new.name,
        tuple(doc.paras),
        tuple(doc.notes),
        doc.ranges(),
        tuple(doc.remarks),
    )
