"""The minutes of the committee: its decisions in article order, each with its change as decided on.

:func:`gather` reads an export's selection (:class:`lawdiff.review.exchange.Selection`) into
:class:`Minutes`: per decision its pair, addresses, status, the difference of the texts it was decided
on and that difference's significance flags (both by the study's rules, :mod:`lawdiff.diff.decided`),
and its comments.  :func:`markdown` writes them as GitHub-flavoured Markdown, deletions ``~~struck~~``
and insertions ``**bold**``, every character Markdown reads as markup in law text and comments
backslash-escaped (:func:`escape`), so that a link in a comment stays text and a rendered round trip
keeps the words.  The Word minutes are :func:`lawdiff.report.minutes.docx`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lawdiff import i18n, marks
from lawdiff.diff.decided import decided
from lawdiff.diff.vocabulary import Op, Piece, Signal
from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.model import natural_key
from lawdiff.review.ids import short
from lawdiff.review.values import Comment, Decision, Meeting


@dataclass(frozen=True, slots=True)
class Minute:
    """One decision of the minutes.

    decision: the decision as stored (pair, addresses, status, texts decided on).
    pieces: the word difference of its texts (() for an addition, a removal or the same texts).
    signals: that difference's significance flags, each with its words.
    comments: its thread, oldest first (deleted comments left out).
    """

    decision: Decision
    pieces: tuple[Piece, ...]
    signals: tuple[Signal, ...]
    comments: tuple[Comment, ...]

    @property
    def where(self) -> str:
        """``45C4(b)``, ``45D → 45D1``, ``45D2 (added)`` (the kind in the interface's language)."""
        d = self.decision
        old, new = ", ".join(d.old), ", ".join(d.new)
        if d.old and d.new:
            return new if d.old == d.new else f"{old} → {new}"
        return f"{old} ({terms.kind('removed')})" if d.old else f"{new} ({terms.kind('added')})"

    @property
    def heading(self) -> bool:
        return self.decision.aspect == "title"


@dataclass(frozen=True, slots=True)
class Minutes:
    """What the minutes hold: the meeting (None for all decisions) and its decisions in article order."""

    meeting: Meeting | None
    minutes: tuple[Minute, ...]


def in_order(decisions: Iterable[Decision]) -> list[Decision]:
    """Per pair, then in article order, then by address."""
    return sorted(
        decisions,
        key=lambda d: (
            natural_key(d.old_edition),
            natural_key(d.new_edition),
            natural_key(d.article),
            natural_key((d.new or d.old or ("",))[0]),
            d.aspect,
            d.id,
        ),
    )


def threads(comments: Iterable[Comment]) -> dict[str, list[Comment]]:
    """Each decision's comments, deleted ones left out."""
    out: dict[str, list[Comment]] = {}
    for c in comments:
        if not c.deleted:
            out.setdefault(c.decision, []).append(c)
    return out


def gather(meeting: Meeting | None, decisions: Iterable[Decision], comments: Iterable[Comment]) -> Minutes:
    """The minutes of these decisions and comments (see the module docstring)."""
    thread = threads(comments)
    out = []
    for d in in_order(decisions):
        made = decided(d.aspect, d.kind, d.old_texts, d.new_texts)
        out.append(Minute(d, made.pieces, made.signals, tuple(thread.get(d.id, ()))))
    return Minutes(meeting, tuple(out))


# ---------------------------------------------------------------------------
# GitHub-flavoured Markdown

# Read as markup anywhere in a line: emphasis and strikethrough, code, links and images, raw HTML and
# entities, tables, and the backslash itself.
_INLINE = re.compile(r"([\\`*_~\[\]<>|&!])")
# Read as markup at a line's start: headings, lists, block quotes, numbered items, fences, tables.
_LINE_START = re.compile(r"^(\s*)([#+\->=]|\d+(?=[.)]))")
# Autolinks of the GFM extension (a scheme, www., an e-mail address), and the bare domains that other
# renderers link as well (markdown-it's linkify reads "a.ba" as a link to http://a.ba): the dot of a word
# followed by a letter is escaped, which renders as the dot.
_AUTOLINK = re.compile(r"(?<=[A-Za-z])(:)(?=//)|(?<=\w)(\.)(?=[^\W\d_])|(@)", re.IGNORECASE)


def escape(text: str) -> str:
    """Text for GitHub-flavoured Markdown, its words as they are: every markup character backslash-
    escaped, invisible characters shown as their marks (:func:`lawdiff.marks.escape`), lines joined
    by `` / `` (a Markdown line break would end a list item)."""
    lines = []
    for line in marks.escape(text).split("\n"):
        line = _AUTOLINK.sub(lambda m: "\\" + m.group(0), _INLINE.sub(r"\\\1", line))
        m = _LINE_START.match(line)
        if m:
            at = m.end(1)
            # A numbered item's dot or parenthesis follows its digits: escape that, not the digits.
            at += len(m.group(2)) if m.group(2)[0].isdigit() else 0
            line = line[:at] + "\\" + line[at:]
        lines.append(line)
    return " / ".join(lines)


def _words(pieces: Sequence[Piece]) -> list[tuple[str, str, str]]:
    """The difference in whole words: ``(kept, old, new)`` groups, where a group that holds a change
    has its old and new words (kept "") and one that does not its kept words.  Unchanged letters
    glued to a change go into both of its sides, so that each marked run starts and ends at a space
    (Markdown's ``~~`` and ``**`` bind to a word only from a space or a line's end)."""
    out: list[tuple[str, str, str]] = []
    old: list[str] = []
    new: list[str] = []
    changed = False

    def flush() -> None:
        nonlocal changed
        if changed:
            out.append(("", "".join(old), "".join(new)))
        elif old:
            out.append(("".join(old), "", ""))
        old.clear()
        new.clear()
        changed = False

    for piece in pieces:
        if piece.op is Op.DELETE:
            old.append(piece.text)
            changed = True
        elif piece.op is Op.INSERT:
            new.append(piece.text)
            changed = True
        else:
            for part in re.split(r"(\s+)", piece.text):
                if part and part.isspace():
                    flush()
                    out.append((part, "", ""))
                elif part:
                    old.append(part)
                    new.append(part)
    flush()
    return out


def difference(pieces: Sequence[Piece]) -> str:
    """A word difference in GFM: ``unchanged ~~old~~**new** unchanged``, each text escaped."""
    out = []
    for kept, old, new in _words(pieces):
        if kept:
            out.append(escape(kept))
            continue
        olds, news = old.strip(), new.strip()
        edge = old if olds else new
        lead = edge[: len(edge) - len(edge.lstrip())]
        trail = (new if news else old)[len((new if news else old).rstrip()) :]
        marked = (f"~~{escape(olds)}~~" if olds else "") + (f"**{escape(news)}**" if news else "")
        out.append(f"{escape(lead)}{marked}{escape(trail)}")
    return "".join(out)


def flags_line(signals: Sequence[Signal]) -> str:
    """``modal −moet +is; reference 16D1 → 16C1``: each flag (in the interface's language) with the words
    that raised it (as the law has them)."""
    parts = []
    for s in signals:
        if s.flag.value == "reference" and len(s.removed) == len(s.added) and s.removed:
            words = ", ".join(f"{a} → {b}" for a, b in zip(s.removed, s.added, strict=True))
        else:
            words = " ".join([*(f"−{w}" for w in s.removed), *(f"+{w}" for w in s.added)])
        parts.append(f"{terms.flag(s.flag.value)} {words}".strip())
    return "; ".join(parts)


def _hm(at: str) -> str:
    return at[11:16]


def title(minutes: Minutes) -> str:
    """The minutes' title: of the meeting, or of every decision."""
    m = minutes.meeting
    if m is None:
        return _("Committee review: decisions")
    return _("Minutes of the meeting of {date}").format(date=i18n.format_day(m.date))


def article_heading(article: str) -> str:
    """``Article 45``; a heading outside the articles (``H6``) by its address alone."""
    return _("Article {number}").format(number=article) if article[:1].isdigit() else article


def decision_heading(item: Minute) -> str:
    """``45C4(b): accepted``, ``45D2 (added) (heading): query``: where, and the decision."""
    heading = f" ({terms.note('heading')})" if item.heading else ""
    return f"{item.where}{heading}: {terms.status(item.decision.status.value)}"


def about(d: Decision, kind: str, code: str, assignee: str) -> str:
    """``modified; id 1a2b3c4d5e; assigned to Carla``: the kind of change, the decision's id and its
    assignee, each as the medium writes it (``kind``, ``code`` and ``assignee`` escaped for it)."""
    out = [kind, _("id {id}").format(id=code)]
    if d.assignee:
        out.append(_("assigned to {name}").format(name=assignee))
    return "; ".join(out)


def commented(c: Comment) -> str:
    """``Anne, 2024-05-14 10:00 UTC (edited)``: who wrote a comment and when (``14 mei 2024 10:00 UTC`` in Dutch)."""
    edited = " " + _("(edited)") if c.edited else ""
    return f"{c.author}, {i18n.format_stamp(c.created)} UTC{edited}"


def markdown(minutes: Minutes) -> str:
    """The minutes in GitHub-flavoured Markdown (see the module docstring)."""
    m = minutes.meeting
    lines = [f"# {escape(title(minutes))}", ""]
    if m is not None:
        if m.attendees:
            lines += [_("Attendees: {names}").format(names=", ".join(escape(a) for a in m.attendees)), ""]
        ended = _hm(m.ended) if m.ended else _("(not ended)")
        lines += [_("Meeting {id}, {start}–{end} UTC.").format(id=f"`{short(m.id)}`", start=_hm(m.started), end=ended)]
        lines.append("")
    if not minutes.minutes:
        lines.append(_("No decisions."))
    pair = article = None
    for item in minutes.minutes:
        d = item.decision
        if (d.old_edition, d.new_edition) != pair:
            pair, article = (d.old_edition, d.new_edition), None
            lines += [f"## {escape(d.old_edition)} → {escape(d.new_edition)}", ""]
        if d.article != article:
            article = d.article
            lines += [f"### {escape(article_heading(d.article))}", ""]
        lines += [f"#### {escape(decision_heading(item))}", ""]
        lines += _body(item)
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _body(item: Minute) -> list[str]:
    d = item.decision
    lines = ["- " + about(d, escape(terms.kind(d.kind)), f"`{short(d.id)}`", escape(d.assignee))]
    if item.signals:
        lines.append("- " + _("flags: {flags}").format(flags=escape(flags_line(item.signals))))
    for a, t in zip(d.old, d.old_texts, strict=False):
        lines.append("- " + _("old ({edition} {address}): {text}").format(**_side(d.old_edition, a, t)))
    for a, t in zip(d.new, d.new_texts, strict=False):
        lines.append("- " + _("new ({edition} {address}): {text}").format(**_side(d.new_edition, a, t)))
    if item.pieces:
        lines.append("- " + _("difference: {difference}").format(difference=difference(item.pieces)))
    if item.comments:
        lines.append("- " + _("comments:"))
        for c in item.comments:
            lines.append(f"  - {escape(commented(c))}: {escape(c.text)}")
    return lines


def _side(edition: str, address: str, text: str) -> dict[str, str]:
    return {"edition": escape(edition), "address": escape(address), "text": escape(text)}
