"""An article's clause histories page.

The study gives every clause of every edition its history; a clause that
stands unchanged in four editions has four histories that say the same (one
starting from each edition).  The page shows each distinct history once, under
the names of all the clauses it stands for, each keeping its anchor
(``45-history.html#2007-45D`` and ``#2017-45D`` lead to the same section), with
a table of contents at the top.  The word difference of a split, which every
piece's history holds, is shown in full once and linked from the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lawdiff.align import Aspect
from lawdiff.diff import SHORT_ID, Change, ChangeKind, History, Op, Step
from lawdiff.diff.article import ArticleView
from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.model import Clause, Edition, article_of
from lawdiff.report.html.kind import addresses_arrow
from lawdiff.report.html.law import Page, addr_chip, law_text
from lawdiff.report.html.markup import Child, Markup, document, h, page_footer, phrase, span
from lawdiff.report.html.nav import article_name, article_nav, title_span
from lawdiff.report.html.template import Template
from lawdiff.report.site import Site, anchor, article_file, history_file
from lawdiff.report.text import introduced


@dataclass
class _Shown:
    """One distinct history and the clauses whose history it is, in the order the study gives them."""

    history: History
    clauses: list[tuple[Edition, Clause]] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return [f"{e.name}:{c.address}" for e, c in self.clauses]


def _key(h_: History) -> tuple[object, ...]:
    """What a history shows: its steps (editions, addresses, wordings, kinds of change, change records)."""
    return tuple((s.edition, s.addresses, s.texts, s.kinds, tuple(map(id, s.changes)), s.in_corpus) for s in h_.steps)


def distinct(histories: tuple[tuple[Edition, Clause, History], ...]) -> list[_Shown]:
    """The distinct histories, in the order of the first clause of each."""
    out: dict[tuple[object, ...], _Shown] = {}
    for e, c, hist in histories:
        out.setdefault(_key(hist), _Shown(hist)).clauses.append((e, c))
    return list(out.values())


def history_page(site: Site, a: ArticleView) -> str:
    path = history_file(a.number)
    page = Page(path, lambda e, addr: site.href(e, addr, path))
    page.ids.update({"top", "contents"})
    editions = {e.name: e for e in site.compared}
    rows = _Rows(site, a, page, editions)
    shown = distinct(site.histories(a))
    # Every clause's anchor first, so that no section takes another's.
    idents = [[page.claim(anchor(e.name, c.address)) for e, c in s.clauses] for s in shown]
    sections = [_section(s, ids, rows) for s, ids in zip(shown, idents, strict=True)]
    toc = h(
        "ol",
        {"class": "toc"},
        [
            _TOC_ITEM(href=f"#{ids[0]}" if ids[0] else None, names=", ".join(s.names))
            for s, ids in zip(shown, idents, strict=True)
        ],
    )
    name = _("{article}: clause histories").format(article=article_name(a.number))
    main = h(
        "main",
        {"id": "top", "tabindex": "-1"},
        h("h1", None, name, " — " if a.title else None, title_span(a.title)),
        h(
            "p",
            {"class": "lead"},
            _(
                "Every clause of every edition, followed through all editions of the corpus: its address and wording "
                "in each, and where it changed. A clause followed from each edition it is in has one history: it is "
                "shown once, under the clause's name in each of them. Editions in which the wording stayed the same "
                "share one line; each change links to its word differences on the article's page."
            ),
            " ",
            h(
                "a",
                {"href": article_file(a.number).split("/")[1]},
                _("Back to article {number}").format(number=a.number),
            ),
            ".",
        ),
        h("nav", {"class": "contents", "id": "contents", "aria-label": _("Clauses on this page")}, toc),
        sections,
    )
    return document(
        _("{page} · lawdiff report").format(page=name),
        "../",
        "histories",
        article_nav(site, a, "../", history=True),
        main,
        page_footer(site.thresholds, site.compared),
    )


# An item of the table of contents: linked where its section has the anchor (whose heading says its first words).
_TOC_ITEM = Template('<li><a href="{href}">{names}</a></li>', block=True)


# A history: its clauses' names (each other clause's anchor on its name), then its lines.
_SECTION = Template(
    '<section class="history" id="{ident}">\n<h2><span class="addr">{names}</span></h2>\n{lines}{introduced}</section>',
    block=True,
)
_TABLE = Template(
    '<table class="hist">\n<thead>\n<tr><th scope="col">{editions}</th><th scope="col">{change}</th>'
    '<th scope="col">{wording}</th></tr>\n</thead>\n<tbody>\n{rows}</tbody>\n</table>\n',
    block=True,
)
# A history of one wording through every edition that holds it: one line, no table.
_ONE = Template('<div class="hline"><p class="eds">{said}</p>{wording}</div>\n', block=True)
_NAME = Template('<span id="{ident}">{name}</span>')
_INTRODUCED = Template('<p class="introduced">{said}</p>', block=True)


def _section(s: _Shown, idents: list[str | None], rows: _Rows) -> Markup:
    # The section carries the first clause's anchor; each other clause's
    # anchor is on its name in the heading.
    names: list[Child] = [s.names[0]]
    for name, ident in zip(s.names[1:], idents[1:], strict=True):
        names.extend([", ", _NAME(ident=ident, name=name) if ident else name])
    hist = s.history
    return _SECTION(
        ident=idents[0],
        names=names,
        lines=rows.of(hist, idents[0]),
        introduced=_INTRODUCED(said=_("Current wording {when}.").format(when=introduced(hist)))
        if hist.introduced
        else None,
    )


def merged(steps: tuple[Step, ...]) -> list[list[Step]]:
    """The steps of a history in lines: a step that keeps the clause as it was (unchanged, at the same
    single address, with no stale reference) joins the line of the step before it."""
    out: list[list[Step]] = []
    for step in steps:
        last = out[-1][-1] if out else None
        if (
            last is not None
            and step.in_corpus
            and last.in_corpus
            and step.kinds == (ChangeKind.UNCHANGED,)
            and len(step.addresses) == 1
            and step.addresses == last.addresses
            and step.texts == last.texts
            and not any(ch.stale_references for ch in step.changes)
        ):
            out[-1].append(step)
        else:
            out.append([step])
    return out


_ROW = Template(
    '<tr class="{cls}"><th scope="row">{editions}</th><td class="kind">{kind}</td><td>{wording}</td></tr>\n',
    block=True,
)
_EDITION = Template('<a href="{href}">{edition}</a>')
_HSTEP = Template('<div class="hstep"><div class="ch">{chip}</div>{text}</div>', block=True)
_SAME_AS = Template('<p class="same-as">{said}</p>')
_ABOVE = Template('<a href="{href}">{edition} {address}</a>')
_DIFFERENCES = Template('<a class="wd" href="{href}" aria-label="{label}">{text}</a>')


class _Rows:
    """The lines of the histories of one article's page."""

    def __init__(self, site: Site, a: ArticleView, page: Page, editions: dict[str, Edition]) -> None:
        self.site = site
        self.page = page
        self.editions = editions
        self.number = a.number
        self.on_page = {ch.id for pv in a.pairs for ch in pv.changes}
        # Each wording shown on the page: where it stands (the section's anchor) and whose it is there.
        self.shown: dict[str, tuple[str, str, str]] = {}
        self.section = ""

    def of(self, hist: History, section: str | None) -> Markup:
        """The lines of a history whose section has the anchor ``section``: a table, or where one wording
        stands in every edition of the history, one line."""
        self.section = section or ""
        lines = merged(hist.steps)
        first = lines[0][0]
        if len(lines) == 1 and first.in_corpus and first.addresses and not first.kinds:
            said = phrase(_("The same wording in {editions}:"), editions=self._editions(lines[0]))
            return _ONE(said=said, wording=self._wording(first))
        rows = [self._line(line, hist) for line in lines]
        return _TABLE(editions=_("Editions"), change=_("Change"), wording=_("Wording"), rows=rows)

    def _editions(self, line: list[Step]) -> list[Child]:
        """The editions of a line, each linked to the clause there where the line stands for several."""
        names: list[Child] = []
        for i, s in enumerate(line):
            href = self.page.resolve(s.edition, s.addresses[0]) if s.addresses and len(line) > 1 else None
            names.extend([", " if i else None, _EDITION(href=href, edition=s.edition) if href else s.edition])
        return names

    def _line(self, line: list[Step], hist: History) -> Markup:
        """One line: the editions it stands for (each linked to the clause there), the change into the first, the
        wording."""
        step = line[0]
        if not step.in_corpus:
            return _ROW(cls="absent", editions=step.edition, kind=None, wording=self._absent(step, hist))
        return _ROW(
            cls=None if step.addresses else "absent",
            editions=self._editions(line),
            kind=self._kind(step),
            wording=self._wording(step),
        )

    def _absent(self, step: Step, hist: History) -> Markup:
        art = article_of(hist.start.partition(":")[2])
        edition = self.editions.get(step.edition)
        said = (
            _("the {edition} corpus does not hold this heading")
            if not art
            else _("the {edition} corpus does not hold this article")
        )
        if art and edition is not None and edition.find(art) is not None:
            # It holds some of the article's sections' pages.
            said = _("the {edition} corpus does not hold this part of the article")
        return h("span", {"class": "none"}, said.format(edition=step.edition))

    def _kind(self, step: Step) -> list[Child]:
        """The change cell: its badge, a stale reference's, the arrow of a renumbering, split or merge, and a
        link to the change's word differences on an article page."""
        if not step.kinds:
            return []
        kind: list[Child] = [span(f"badge b-{step.kinds[0].value}", "+".join(terms.kind(k.value) for k in step.kinds))]
        stale = [r.old for ch in step.changes for r in ch.stale_references]
        if stale:
            kept = _("kept: {references}").format(references=", ".join(stale))
            kind += [" ", h("span", {"class": "badge b-stale", "title": kept}, _("stale reference"))]
        for ch in step.changes:
            if ch.old and ch.new and (ch.renumbered or len(ch.old) + len(ch.new) > 2):
                kind.append(h("div", {"class": "arrow"}, addresses_arrow(ch.old, ch.new)))
        if step.kinds != (ChangeKind.UNCHANGED,) or any(ch.stale_references for ch in step.changes):
            changes = list(dict.fromkeys(step.changes))
            kind.extend(self._differences(ch, step.edition, len(changes) > 1) for ch in changes)
        return kind

    def _differences(self, ch: Change, edition: str, named: bool) -> Markup | None:
        """The link to a change's row on the article page that shows it (this article's, or the one it is listed
        under), or None where the report shows it on none; ``named``: the link names the change's clauses (one
        of several changes of a step)."""
        if not ch.id:
            return None
        if ch.id in self.on_page:
            target = article_file(self.number)
        elif self.site.article(ch.article) is not None:
            target = article_file(ch.article)
        else:
            return None
        words = ch.kind in (ChangeKind.MODIFIED, ChangeKind.SPLIT, ChangeKind.MERGED)
        what = _("word differences") if words else _("side by side")
        shown = ", ".join(ch.new or ch.old) + (_(" (heading)") if ch.aspect is Aspect.TITLE else "")
        return _DIFFERENCES(
            href=f"{target.split('/')[1]}#change-{ch.id[:SHORT_ID]}",
            label=f"{what}: {edition} {shown}",
            text=f"{what}: {shown}" if named else what,
        )

    def _wording(self, step: Step) -> list[Child]:
        """The wording cell: each clause the history is in this edition, as its text stands there; a wording
        that another history of the page shows already is named and linked there (each wording once)."""
        if not step.addresses:
            return [h("span", {"class": "none"}, _("not present") if not step.kinds else terms.kind("removed"))]
        out: list[Child] = []
        for addr, txt in zip(step.addresses, step.texts, strict=True):
            chip = addr_chip(step.edition, addr, self.page.resolve(step.edition, addr))
            where = self.shown.get(txt)
            if where is None or not where[0]:
                self.shown.setdefault(txt, (self.section, step.edition, addr))
                out.append(_HSTEP(chip=chip, text=law_text("tx", [(Op.EQUAL, txt)])))
            elif where[0] == self.section:
                said = _("Wording as in {edition} {address}.").format(edition=where[1], address=where[2])
                out.append(_HSTEP(chip=chip, text=_SAME_AS(said=said)))
            else:
                above = _ABOVE(href=f"#{where[0]}", edition=where[1], address=where[2])
                said_above = phrase(_("Wording as in {clause} above."), clause=above)
                out.append(_HSTEP(chip=chip, text=_SAME_AS(said=said_above)))
        return out
