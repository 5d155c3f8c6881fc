"""Runs of a side-by-side table whose words did not change: one line each, that opens in place.

A clause unchanged in place, or renumbered with its words as they were, has nothing to show beside
itself: its wording is the same on both sides.  Consecutive such clauses of one kind become one line
of the table (``12 clauses unchanged``, ``3 clauses renumbered, wording unchanged``), a ``<details>``
that opens in place without a script and, on paper, prints as that line naming the clauses.  Each
clause keeps its anchors: the blocks of both sides (``diff-2007-2017-2007-45A``,
``diff-2007-2017-2017-45A``) and its change (``change-e85bfdfcf8``).

Opened, the line lists the clauses: where the page holds every clause's wording elsewhere (an
article's synopsis, :attr:`PairContext.texts_at`), each by its address, linked there, and its first
words, so that a wording stands once on the page; on a page of its own (``compare --format html``),
each with its text, once.

Only what has nothing else to say runs: a change a reader annotates (a review's status), one whose
reference went stale or was retargeted, an uncertain or hand-made link, a changed title, a clause
only one corpus holds, keeps its row.
"""

from __future__ import annotations

from collections.abc import Callable

from lawdiff.align import Aspect
from lawdiff.diff import SHORT_ID, Change, ChangeKind, Op, RefStatus
from lawdiff.i18n import ngettext
from lawdiff.model import Clause
from lawdiff.report.html.context import PairContext, block_id
from lawdiff.report.html.law import ClauseRows, Page, addr_chip, kind_class
from lawdiff.report.html.markup import Markup
from lawdiff.report.html.template import Template

UNCHANGED = "unchanged"
RENUMBERED = "renumbered"


_RUN = Template(
    '<tbody class="{classes}">\n<tr><td class="run" colspan="3"><details class="same">'
    '<summary>{said}<span class="names">: {names}</span></summary>\n{entries}</details></td></tr>\n</tbody>',
    block=True,
)
_ENTRY = Template(
    '<div class="clause {kind}" id="{ident}">\n<div class="ch">{chip}{to}<span id="{change}"></span></div>\n'
    "{heading}{body}</div>",
    block=True,
)
_LIST = Template('<ol class="same-list">\n{entries}</ol>', block=True)
_ITEM = Template(
    '<li id="{ident}">{chip}{to}<span id="{change}"></span> <span class="gist" lang="nl">{gist}</span></li>\n',
    block=True,
)
_ARROW = Template(" → {chip}")


def run_kind(ch: Change) -> str | None:
    """The kind of run a change's row joins (:data:`UNCHANGED`, :data:`RENUMBERED`), or None: it keeps its row."""
    if (
        ch.kind is not ChangeKind.UNCHANGED
        or ch.moved
        or not ch.counterpart_in_corpus
        or len(ch.old) != 1
        or len(ch.new) != 1
        or ch.title_changed
        or ch.uncertain
        or ch.pinned_by
        or any(r.status is not RefStatus.KEPT or r.consistent is False or r.stale for r in ch.references)
    ):
        return None
    return RENUMBERED if ch.renumbered else UNCHANGED


def said(kind: str, n: int) -> str:
    """``12 clauses unchanged``, ``1 clause renumbered, wording unchanged``; after a "renumbered" badge (the
    changes at a glance, ``renumbered after badge``), ``3 clauses, wording unchanged``."""
    if kind == UNCHANGED:
        words = ngettext("{n} clause unchanged", "{n} clauses unchanged", n)
    elif kind == RENUMBERED:
        words = ngettext("{n} clause renumbered, wording unchanged", "{n} clauses renumbered, wording unchanged", n)
    else:
        words = ngettext("{n} clause, wording unchanged", "{n} clauses, wording unchanged", n)
    return words.format(n=n)


def first_words(text: str, words: int = 10) -> str:
    """The first words of a text, ``…`` where there are more."""
    parts = text.split(maxsplit=words)
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


class Runs:
    """The runs of one table, taken change by change in reading order (:meth:`take`) and given back as
    rows before the next row that is not one (:meth:`flush`)."""

    def __init__(
        self,
        ctx: PairContext,
        page: Page,
        renderer: ClauseRows,
        chip: Callable[[str, str, str], str | None],
        fn: Callable[[Clause], str | None],
        titled: set[str],
    ) -> None:
        self.ctx = ctx
        self.page = page
        self.renderer = renderer
        self.chip = chip
        self.fn = fn
        self.titled = titled
        self.kind: str | None = None
        self.run: list[tuple[Change, Clause]] = []
        self.done: list[Markup] = []  # the runs ended, not yet given back

    def take(self, ch: Change) -> bool:
        """Whether the change joins a run (ending the run before it where that is of another kind)."""
        kind = run_kind(ch)
        clause = self.ctx.new.find(ch.new[0]) if kind is not None else None
        if kind is None or clause is None:
            return False
        if kind != self.kind:
            self._end()
        self.kind = kind
        self.run.append((ch, clause))
        return True

    def flush(self) -> list[Markup]:
        """The rows of the runs taken since the last call."""
        self._end()
        out, self.done = self.done, []
        return out

    def _end(self) -> None:
        if self.run and self.kind is not None:
            self.done.append(self._markup(self.kind, self.run))
        self.run = []

    def _markup(self, kind: str, run: list[tuple[Change, Clause]]) -> Markup:
        ctx = self.ctx
        entries = [self._entry(kind, ch, c) for ch, c in run]
        if kind == RENUMBERED:
            names = [f"{ch.old[0]} → {c.address}" for ch, c in run]
            classes = "change k-unchanged diff renumbered run"
        else:
            names = list(dict.fromkeys(c.address for _, c in run))
            classes = "change k-unchanged same run"
        return _RUN(
            classes=classes,
            said=said(kind, len(names)),
            names=", ".join(names),
            entries=_LIST(entries=entries) if ctx.texts_at else entries,
        )

    def _entry(self, kind: str, ch: Change, c: Clause) -> Markup:
        ctx, page = self.ctx, self.page
        heading = ch.aspect is Aspect.TITLE
        ident = page.claim(block_id(ctx, ctx.new.name, c.address, heading))
        old_ident = page.claim(block_id(ctx, ctx.old.name, ch.old[0], heading))
        change = page.claim(f"change-{ch.id[:SHORT_ID]}") if ch.id else None
        href = self.chip(ctx.new.name, c.address, ident or "")
        if kind == RENUMBERED:
            old_href = self.chip(ctx.old.name, ch.old[0], old_ident or "")
            new_chip = addr_chip(ctx.new.name, c.address, href)
            chip, to = addr_chip(ctx.old.name, ch.old[0], old_href, old_ident), _ARROW(chip=new_chip)
        else:
            chip, to = addr_chip(ctx.new.name, c.address, href, old_ident), None
        if ctx.texts_at:
            gist = first_words(ch.new_title if heading else c.text or c.title, 8)
            return _ITEM(ident=ident, chip=chip, to=to, change=change, gist=gist)
        title: list[tuple[Op, str]] | None = None if heading or c.address not in self.titled else []
        head, body = self.renderer.texts(c, title, [] if heading else None, self.fn)
        return _ENTRY(kind=kind_class(c), ident=ident, chip=chip, to=to, change=change, heading=head, body=body)
