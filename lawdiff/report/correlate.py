"""Correlation tables as text, CSV, Markdown and JSON (``lawdiff correlate``).

The rows come from :mod:`lawdiff.diff.correlate`; this module only lays
them out.  Addresses are clause addresses as the editions print them, and
are cleaned of control characters like all text output.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from lawdiff import i18n
from lawdiff.diff.correlate import Row, by_new, summary
from lawdiff.i18n import gettext as _
from lawdiff.i18n import pgettext
from lawdiff.report.not_compared import NotCompared, outside_line

HEADER = ("old", "new", "relation", "ratio", "words", "heading", "change")


def _cells(row: Row) -> tuple[str, str, str, str, str, str, str]:
    return (
        ", ".join(row.old) or "—",
        ", ".join(row.new) or "—",
        row.relation.label,
        row.ratio,
        row.words or "—",
        pgettext("change", "heading") if row.heading else "",
        row.change,
    )


def text(old: str, new: str, rows: Sequence[Row], by: str = "old", outside: NotCompared | None = None) -> str:
    """An aligned table for the terminal; ``outside``: the clauses only one corpus holds, which have no row
    (said in one line, as ``compare`` says them)."""
    shown = sorted(rows, key=by_new) if by == "new" else list(rows)
    head = (
        _("old {edition}").format(edition=old),
        _("new {edition}").format(edition=new),
        _("relation"),
        _("ratio"),
        _("words"),
        "",
        "",
    )
    table = [head] + [(*_cells(r)[:6], r.change[:10]) for r in shown]
    widths = [max(len(row[i]) for row in table) for i in range(6)]
    lines = []
    for row in table:
        cells = [c.ljust(w) for c, w in zip(row[:6], widths, strict=True)]
        lines.append("  ".join([*cells, row[6]]).rstrip())
    lines.append("")
    said = summary(rows) or _("no clause that both corpora hold")
    lines.append(f"{old} -> {new}: {said}")
    if outside is not None and outside.changes:
        lines.append(outside_line(old, new, outside))
    return "\n".join(lines) + "\n"


def as_csv(rows: Sequence[Row], by: str = "old") -> str:
    """The table for programs: its header and its words in English, whatever the interface's language."""
    with i18n.use(i18n.DEFAULT):
        return _csv(rows, by)


def _csv(rows: Sequence[Row], by: str) -> str:
    shown = sorted(rows, key=by_new) if by == "new" else list(rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for r in shown:
        writer.writerow([c for c in _cells(r)])
    return out.getvalue()


def markdown(old: str, new: str, rows: Sequence[Row], by: str = "old", outside: NotCompared | None = None) -> str:
    """A Markdown table, for minutes; ``outside`` as for :func:`text`, said in a paragraph after it."""
    shown = sorted(rows, key=by_new) if by == "new" else list(rows)

    def md(text: str) -> str:
        return text.replace("|", "\\|")

    lines = [
        f"| {md(old)} | {md(new)} | " + " | ".join((_("relation"), _("ratio"), _("words"))) + " |",
        "|---|---|---|---|---|",
    ]
    for r in shown:
        old_c, new_c, _relation, ratio, words, _heading, _change = _cells(r)
        lines.append(f"| {md(old_c)} | {md(new_c)} | {r.label} | {ratio} | {words} |")
    if outside is not None and outside.changes:
        lines += ["", md(outside_line(old, new, outside))]
    return "\n".join(lines) + "\n"


def as_json(old: str, new: str, rows: Sequence[Row]) -> str:
    """The table for programs: English values, whatever the interface's language."""
    with i18n.use(i18n.DEFAULT):
        return _json(old, new, rows)


def _json(old: str, new: str, rows: Sequence[Row]) -> str:
    return (
        json.dumps(
            {
                "old": old,
                "new": new,
                "rows": [
                    {
                        "old": list(r.old),
                        "new": list(r.new),
                        "relation": r.relation.value,
                        "ratio": r.ratio,
                        "words": r.words,
                        "heading": r.heading,
                        "change": r.change,
                    }
                    for r in rows
                ],
            },
            ensure_ascii=False,
            indent=2,
        )
        + "\n"
    )
