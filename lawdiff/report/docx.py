"""The Word document of a pair of editions: the new edition, its differences tracked.

:func:`docx` writes a .docx whose text is the new edition with every
difference from the old one as a real tracked change (``w:ins`` / ``w:del``
by the author ``lawdiff``): Word's and LibreOffice's "Accept all" gives the
new edition, "Reject all" the old one.  Decisions and comments on changes
become Word comments; lawdiff adds its own where a clause moved.

The shape, for a reader of the document (accepted or rejected); lawdiff's
own draft reader (:func:`lawdiff.sources.draft.read_draft`) reads it back as
the new edition (accepted) or the old one (``state="original"``), and the
tests check that it does for every pair of the corpus:

* The body holds law text only: the document's title and subtitle (styles
  ``Title`` and ``Subtitle``) stand in the page header.
* Each clause starts with a heading paragraph (style ``Heading1`` ..
  ``Heading9`` by its depth in the edition) whose text is its address alone:
  ``45``, ``45C4(b)``, ``45E.p1``, ``H6.1``.
* If the clause has a title, a paragraph of style ``LawTitle`` follows, with
  the outline level of the clause's heading (a reader takes it for a
  heading, so for a title whatever its length or last sign): the label as
  printed in runs of character style ``LawLabel``, one space, the title:
  ``ARTIKEL 45 Gespeelde kaart``, ``A. Spelen van een kaart``.  A title
  without a label has no label runs and no space.
* If the clause has text, or has neither title nor text, a paragraph of style
  ``LawText`` follows: where the clause has no title, its label in
  ``LawLabel`` runs and one space first (``1. text``, ``(a) text``, ``- text``,
  ``4.`` for a clause with a label only); then the text.  A line break inside
  the text is ``w:br``, a tab ``w:tab``.  A titled clause's text paragraph has
  no label (it stands in the title paragraph).  A label that differs between
  the editions is a tracked difference of its text (``b.`` deleted, ``2.``
  inserted).
* A chapter, part or paragraph (``H6``, ``H6.3.I``) has the same
  paragraphs, and its label runs stand inside a hidden bookmark whose name
  starts with ``_LawLabel``: its label (``HVI``, ``3``) comes from a page
  name or a site record, not from a printed line, so a reader could not tell
  it from its title otherwise.
* A footnote is a real footnote (``word/footnotes.xml``) referenced by
  ``w:footnoteReference w:customMarkFollows="1"`` where its marker stood in
  its clause's text, the marker as printed (``1)``, ``¹⁾``; its number where
  the text prints none) in the same run: Word's own numbers would run
  through the document, the book's start again in each article.  Its one
  paragraph is its label as printed in ``LawLabel`` runs, one space, and its
  text: ``1) De uitkomst ...``.  Its address is its clause's address,
  ``.fn`` and the digits of its mark: ``45A.fn1``.  A footnote kept from the
  old edition carries the difference of its label and text; where its mark
  changes (``1)`` to ``1``), which is part of Word's reference, the old note
  stands deleted and the new one inserted.
* A paragraph mark may be tracked (``w:pPr/w:rPr/w:ins`` or ``w:del``): a
  paragraph whose mark is deleted joins the next one when changes are
  accepted, one whose mark is inserted joins the next one when they are
  rejected (a split or merge of clauses; every paragraph wholly inserted or
  deleted has its mark inserted or deleted with it).  A final empty
  ``LawText`` paragraph may end the document: it holds nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from lawdiff import i18n
from lawdiff.diff import Change, Comparison, NotCompared
from lawdiff.errors import UsageError
from lawdiff.i18n import gettext as _
from lawdiff.model import Edition
from lawdiff.report.not_compared import outside_line
from lawdiff.report.redline import Redline, redline
from lawdiff.report.wordml import Comment, package, word_lang

AUTHOR = "lawdiff"

CommentSpec = tuple[str, datetime | str, str]  # (author, UTC time, text)


def revision_date(environ: Mapping[str, str] | None = None) -> str:
    """The date of the tracked changes: ``SOURCE_DATE_EPOCH`` when set, else now (UTC)."""
    env = os.environ if environ is None else environ
    epoch = env.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        try:
            moment = datetime.fromtimestamp(int(epoch), UTC)
        except (ValueError, OverflowError, OSError) as exc:
            raise UsageError(
                _("SOURCE_DATE_EPOCH={value!r} is not a time").format(value=epoch),
                fix=_("set it to whole seconds since 1970-01-01 UTC, or unset it"),
            ) from exc
    else:
        moment = datetime.now(UTC)
    return _iso(moment)


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _comment_date(value: datetime | str, change_id: str) -> str:
    if isinstance(value, datetime):
        return _iso(value)
    try:
        return _iso(datetime.fromisoformat(value))
    except ValueError as exc:
        raise UsageError(
            _("the comment on change {change} has the time {value!r}").format(change=change_id, value=value),
            fix=_("give an ISO 8601 time such as 2024-03-01T12:00:00Z"),
        ) from exc


def comments_of(lines: Redline, comments: Mapping[str, Sequence[CommentSpec]] | None, date: str) -> list[Comment]:
    """The Word comments of a redline: those given per change id, then lawdiff's remarks.

    A comment on a change is put on the paragraphs that show it (its new
    side; a removal's old side).  Comments on changes that the redline does
    not show (another article) are left out: the caller chose the changes.
    """
    out: list[Comment] = []
    for change_id, (first, last) in sorted(lines.ranges.items(), key=lambda kv: (kv[1], kv[0])):
        for author, when, text in (comments or {}).get(change_id, ()):
            out.append(Comment(first, last, author, _comment_date(when, change_id), text))
    for remark in lines.remarks:
        out.append(Comment(remark.first, remark.last, AUTHOR, date, remark.text))
    out.sort(key=lambda c: (c.first, c.last))
    return out


def docx(
    comparison: Comparison,
    changes: Sequence[Change],
    old_edition: Edition,
    new_edition: Edition,
    comments: Mapping[str, Sequence[CommentSpec]] | None = None,
) -> bytes:
    """The .docx of ``changes`` (of ``comparison``) from ``old_edition`` to ``new_edition``.

    ``changes``: the changes to show, usually ``comparison.changes`` or those
    of one article; the document holds the clauses of those the study
    compares, with their ancestors in their article and footnotes.  What one
    corpus lacks (not compared) is never a tracked change: the page header
    names it, as the text output's "not compared" line does.  ``comments`` maps a change id
    (:attr:`Change.id`) to its comments, each ``(author, UTC time, text)``.
    The same input gives the same bytes when ``SOURCE_DATE_EPOCH`` is set.
    """
    if (comparison.old, comparison.new) != (old_edition.name, new_edition.name):
        raise UsageError(
            _("the comparison is {old} -> {new}, the editions given are {first} and {second}").format(
                old=comparison.old, new=comparison.new, first=old_edition.name, second=new_edition.name
            ),
            fix=_("pass the two editions the comparison was made of"),
        )
    date = revision_date()
    lines = redline(changes, old_edition, new_edition)
    title = f"{old_edition.name} → {new_edition.name}"
    subtitle = _("Tracked changes by lawdiff: accept all to read {new}, reject all to read {old}.").format(
        new=new_edition.name, old=old_edition.name
    )
    outside = NotCompared.of(comparison, changes)
    if outside.changes:
        # Never a tracked change (the redline leaves them out): said once, beside the title.
        line = outside_line(old_edition.name, new_edition.name, outside)
        subtitle += f" {line[:1].upper()}{line[1:]}."
    # The title and subtitle in the interface's language; the body, law text, in Dutch.
    lang = word_lang(i18n.language())
    return package(lines, AUTHOR, date, title, subtitle, comments_of(lines, comments, date), lang)
