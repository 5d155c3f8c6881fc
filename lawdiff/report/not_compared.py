"""What one corpus holds and the other lacks: said once, under a comparison or its correlation table.

Not changes: the other corpus cannot tell whether such a clause was added or removed (an article it
lacks, the sections its section pages do not give).  Which changes those are is the study's decision
(:mod:`lawdiff.diff.scope`); this module only words it.  Used by :mod:`lawdiff.report.text`,
:mod:`lawdiff.report.correlate` and the Word redline (:mod:`lawdiff.report.docx`).
"""

from __future__ import annotations

from lawdiff.align import Aspect
from lawdiff.diff.scope import NotCompared
from lawdiff.i18n import gettext as _
from lawdiff.model import article_of, natural_key
from lawdiff.report import article_ranges

__all__ = ["NotCompared", "outside_line"]


def outside_line(old: str, new: str, outside: NotCompared) -> str:
    """What one corpus holds and the other lacks (see :class:`NotCompared`), in one line."""
    parts: list[str] = []
    held = outside.held
    for name, other, side, other_held in ((new, old, "new", set(held[0])), (old, new, "old", set(held[1]))):
        arts: set[str] = set()
        clauses: dict[str, None] = {}
        headings: dict[str, None] = {}
        others: set[str] = set()
        for ch in outside.changes:
            for a in ch.new if side == "new" else ch.old:
                art = article_of(a)
                if not art:
                    others.add(a)
                elif art not in other_held:
                    arts.add(art)
                else:
                    (headings if ch.aspect is Aspect.TITLE else clauses)[a] = None
        pieces = [
            _("article(s) {articles}").format(articles=article_ranges(sorted(arts, key=natural_key))) if arts else "",
            ", ".join(clauses),
            _("the heading(s) of {clauses}").format(clauses=", ".join(headings)) if headings else "",
            _("heading(s) {names}").format(names=", ".join(sorted(others))) if others else "",
        ]
        what = "; ".join(x for x in pieces if x)
        if what:
            parts.append(
                _("{what} only in the {edition} corpus (the {other} corpus does not hold them)").format(
                    what=what, edition=name, other=other
                )
            )
    return _("not compared: {what}").format(what="; ".join(parts))
