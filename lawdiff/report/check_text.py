"""What ``lawdiff check`` prints: per page how much of the source text its clause tree places, what the
readers noticed, clauses read twice with different wording, references that lead nowhere, the totals.

Text from the sources (file names, unplaced fragments, law text) is drawn as it is; the terminal rule
(:mod:`lawdiff.cli.terminal`) shows its hidden characters where it is printed.
"""

from __future__ import annotations

from collections.abc import Iterable

from lawdiff.corpus import Corpus, Dangling, PageCheck
from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.i18n.said import say
from lawdiff.report import where
from lawdiff.report.text import Style, number, plain


def check(corpus: Corpus, dangling: list[Dangling], style: Style = plain, skipped: Iterable[str] = ()) -> str:
    lines: list[str] = []
    for ch in corpus.checks:
        lines.extend(_page_check(ch, style))
    for name in skipped:
        lines.append(_("{file}: skipped (no reader takes this kind of file)").format(file=name))
    conflicts = [(e.name, c) for e in corpus.editions for c in e.conflicts]
    lines.append("")
    if conflicts:
        lines.append(style(_("{n} clause(s) read twice with different wording:").format(n=len(conflicts)), "warn"))
        for name, c in conflicts:
            field = terms.field(c.field)
            lines.append(
                f"  {name}:{c.address} {field}: "
                + _("{first} vs {second}").format(first=where(c.first), second=where(c.second))
            )
            lines.append("    " + _("first:  {text}").format(text=c.first_text))
            lines.append("    " + _("second: {text}").format(text=c.second_text))
    else:
        lines.append(_("duplicate clauses: none disagree"))
    lines.extend(_dangling_lines(dangling, style))
    total = sum(c.tokens for c in corpus.checks)
    placed = sum(c.placed for c in corpus.checks)
    lost = sum(len(c.unplaced) for c in corpus.checks)
    share = 1.0 if total == 0 else placed / total
    lines.append("")
    lines.append(
        _(
            "{files} file(s), {pages} page(s), {editions} edition(s): {placed}/{total} words and signs placed"
            " ({percent}), {lost} fragment(s) unplaced, {conflicts} conflict(s)"
        ).format(
            files=len({c.file for c in corpus.checks}),
            pages=len(corpus.checks),
            editions=len(corpus.editions),
            placed=placed,
            total=total,
            percent=_percent(share),
            lost=lost,
            conflicts=len(conflicts),
        )
    )
    return "\n".join(lines) + "\n"


def _dangling_lines(dangling: list[Dangling], style: Style) -> list[str]:
    """The references whose target is not in the edition: those into articles present, one per line, and
    those into articles the corpus lacks, counted per edition."""
    lines = []
    suspect = [d for d in dangling if not d.absent_article]
    absent = [d for d in dangling if d.absent_article]
    if suspect:
        head = _("{n} reference(s) to a clause missing from an article that is present:").format(n=len(suspect))
        lines.append(style(head, "warn"))
        for d in suspect:
            at = _("at {place}").format(place=where(d.loc))
            lines.append(f"  {d.edition}:{d.source} -> {d.target} ({d.printed!r}) {at}")
    else:
        lines.append(_("references into the articles present: all found"))
    if absent:
        by_edition: dict[str, list[str]] = {}
        for d in absent:
            by_edition.setdefault(d.edition, []).append(d.target)
        for name, targets in by_edition.items():
            uniq = sorted(set(targets), key=lambda t: (len(t), t))
            lines.append(
                _(
                    "{edition}: {n} reference(s) to {targets} target(s) in articles (or parts of them) not in the"
                    " corpus: {names}"
                ).format(edition=name, n=len(targets), targets=len(uniq), names=", ".join(uniq))
            )
    return lines


def _percent(share: float) -> str:
    """A share of text placed, to a tenth of a percent: "99.5%", "99,5%"."""
    return number(100.0 * share, ".1f") + "%"


def _page_check(ch: PageCheck, style: Style) -> list[str]:
    status = style(_("ok"), "ok") if not ch.unplaced else style(_("LOST TEXT"), "warn")
    lines = [
        _("{file}: {edition} {format}, page {page}: {placed}/{tokens} placed ({percent})").format(
            file=ch.file,
            edition=ch.edition,
            format=ch.format,
            page=ch.page,
            placed=ch.placed,
            tokens=ch.tokens,
            percent=_percent(ch.ratio),
        )
        + " "
        + status
    ]
    for u in ch.unplaced:
        lines.append("  " + _("unplaced at {place}: {text}").format(place=where(u.loc), text=u.text))
    for loc, note in ch.notes:
        lines.append("  " + _("note {place}: {note}").format(place=where(loc), note=say(note)))
    return lines
