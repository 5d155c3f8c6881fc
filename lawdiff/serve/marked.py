"""What members wrote (comments, names), as a served page shows it: isolated, its hidden characters seen.

A comment holding U+202E (RIGHT-TO-LEFT OVERRIDE) would show the rest of the
comment, and what follows it on the page, reversed; an escape or a zero-width
mark would hide.  The one rule of which characters those are is
:mod:`lawdiff.marks`; here each is drawn as a visible mark naming it
(``⟦U+202E RLO⟧``, its own element, so no character of it can act), and the
text is put in a ``<bdi>`` (its own direction, ``dir="auto"``) so that nothing
in it reaches the text around it.  The stored text is not changed.
"""

from __future__ import annotations

from lawdiff import marks
from lawdiff.report.html.markup import Child, Markup, h


def shown(text: str, tag: str = "bdi", cls: str | None = None, lang: str | None = None) -> Markup:
    """``text`` in an isolating element (``tag``, ``dir="auto"``), each hidden character a visible mark;
    ``lang``: the text's language where it is not the page's (law text quoted: ``"nl"``)."""
    parts: list[Child] = []
    for run, hidden in marks.runs(text):
        if hidden:
            parts.append(h("span", {"class": "hidden-char", "title": marks.label(run)}, f"⟦{marks.label(run)}⟧"))
        else:
            parts.append(run)
    return h(tag, {"class": cls, "dir": "auto", "lang": lang}, parts)


def who(name: str) -> Markup:
    """A member's name in a page."""
    return shown(name, "bdi", "who")
