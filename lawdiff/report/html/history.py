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
from lawdiff.diff import Change, ChangeKind, History, Op, Step
from lawdiff.diff.article import ArticleView
from lawdiff.model import Clause, Edition, article_of
from lawdiff.report.html.kind import addresses_arrow
from lawdiff.report.html.law import Page, addr_chip, law_text, source_line, split_side
from lawdiff.report.html.markup import Child, Markup, document, h, page_footer
from lawdiff.report.html.nav import article_nav, title_span
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
    return tuple(
        (s.edition, s.addresses, s.texts, s.kinds, tuple(id(ch) for ch in s.changes), s.in_corpus) for s in h_.steps
    )


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
    groups = _GroupDiffs()
    shown = distinct(a.histories)
    # Every clause's anchor first, so that no section takes another's.
    idents = [[page.claim(anchor(e.name, c.address)) for e, c in s.clauses] for s in shown]
    sections = [_section(s, ids, site, page, editions, groups) for s, ids in zip(shown, idents, strict=True)]
    toc = h(
        "ol",
        {"class": "toc"},
        [
            h(
                "li",
                None,
                h("a", {"href": f"#{ids[0]}"}, ", ".join(s.names)) if ids[0] else ", ".join(s.names),
                " ",
                h("span", {"class": "gist", "lang": "nl"}, _gist(s.clauses[0][1])),
            )
            for s, ids in zip(shown, idents, strict=True)
        ],
    )
    main = h(
        "main",
        {"id": "top", "tabindex": "-1"},
        h("h1", None, f"Article {a.number}: clause histories", " — " if a.title else None, title_span(a.title)),
        h(
            "p",
            {"class": "lead"},
            "Every clause of every edition, followed through all editions of the corpus: its address and wording in "
            "each, and where it changed. A clause followed from each edition it is in has one history: it is shown "
            "once, under the clause's name in each of them. ",
            h("a", {"href": article_file(a.number).split("/")[1]}, f"Back to article {a.number}"),
            ".",
        ),
        h("nav", {"class": "contents", "id": "contents", "aria-label": "Clauses on this page"}, toc),
        sections,
    )
    return document(
        f"Article {a.number}: clause histories · lawdiff report",
        "../",
        "histories",
        article_nav(site, a, "../", history=True),
        main,
        page_footer(site.thresholds, site.compared),
    )


def _gist(c: Clause) -> str:
    summary = (c.title or c.text).split("\n")[0]
    return summary[:89].rstrip() + "…" if len(summary) > 90 else summary


def _section(
    s: _Shown,
    idents: list[str | None],
    site: Site,
    page: Page,
    editions: dict[str, Edition],
    groups: _GroupDiffs,
) -> Markup:
    # The section carries the first clause's anchor; each other clause's
    # anchor is on its name in the heading.
    names: list[Child] = [s.names[0]]
    for name, ident in zip(s.names[1:], idents[1:], strict=True):
        names.extend([", ", h("span", {"id": ident}, name) if ident else name])
    hist = s.history
    return h(
        "section",
        {"class": "history", "id": idents[0]},
        h(
            "h2",
            None,
            h("span", {"class": "addr"}, names),
            " ",
            h("span", {"class": "gist", "lang": "nl"}, _gist(s.clauses[0][1])),
        ),
        _history_table(hist, page, editions, groups, s.names[0]),
        h("p", {"class": "introduced"}, f"Current wording {introduced(hist)}.") if hist.introduced else None,
    )


_HEAD = h(
    "thead",
    None,
    h(
        "tr",
        None,
        h("th", {"scope": "col"}, "Edition"),
        h("th", {"scope": "col"}, "Change"),
        h("th", {"scope": "col"}, "Wording"),
    ),
)


def _history_table(hist: History, page: Page, editions: dict[str, Edition], groups: _GroupDiffs, name: str) -> Markup:
    rows = [_step_row(step, hist, page, editions, groups, name) for step in hist.steps]
    return h("table", {"class": "hist"}, _HEAD, h("tbody", None, rows))


def _step_row(
    step: Step, hist: History, page: Page, editions: dict[str, Edition], groups: _GroupDiffs, name: str
) -> Markup:
    """One edition's row of a history: the change that led there, and the clause's wording in it."""
    th = h("th", {"scope": "row"}, step.edition)
    if not step.in_corpus:
        art = article_of(hist.start.partition(":")[2])
        edition = editions.get(step.edition)
        what = "heading" if not art else "article"
        if art and edition is not None and edition.find(art) is not None:
            what = "part of the article"  # it holds some of the article's sections' pages
        note = h("span", {"class": "none"}, f"the {step.edition} corpus does not hold this {what}")
        return h("tr", {"class": "absent"}, th, _EMPTY_TD, h("td", None, note))
    return h(
        "tr",
        {"class": "absent"} if not step.addresses else None,
        th,
        h("td", {"class": "kind"}, _step_kind(step)),
        h("td", None, _step_wording(step, hist, page, editions[step.edition], groups, name)),
    )


def _step_kind(step: Step) -> list[Child]:
    """The change cell: its badge, a stale reference's, and the arrow of a renumbering, split or merge."""
    if not step.kinds:
        return []
    kind: list[Child] = [h("span", {"class": f"badge b-{step.kinds[0].value}"}, step.change)]
    stale = [r.old for ch in step.changes for r in ch.stale_references]
    if stale:
        kind += [" ", h("span", {"class": "badge b-stale", "title": f"kept: {', '.join(stale)}"}, "stale reference")]
    for ch in step.changes:
        if ch.old and ch.new and (ch.renumbered or len(ch.old) + len(ch.new) > 2):
            kind.append(h("div", {"class": "arrow"}, addresses_arrow(ch.old, ch.new)))
    return kind


def _step_wording(
    step: Step, hist: History, page: Page, edition: Edition, groups: _GroupDiffs, name: str
) -> list[Child]:
    """The wording cell: each clause the history is in this edition, its inserted and deleted words marked."""
    cell: list[Child] = []
    if not step.addresses:
        cell.append(h("span", {"class": "none"}, "not present" if not step.kinds else "removed"))
    diffs = {a: ch for ch in step.changes if ch.aspect is Aspect.TEXT for a in ch.new}
    shown: set[int] = set()
    for addr, txt in zip(step.addresses, step.texts, strict=True):
        into = diffs.get(addr)
        segments: list[tuple[Op, str]] = [(Op.EQUAL, txt)]
        whole = False
        if into is not None and into.kind is not ChangeKind.UNCHANGED and into.kind is not ChangeKind.ADDED:
            if len(into.new) == 1:
                # One clause takes all of the new text: the whole
                # difference is this clause's.
                segments = [(p.op, p.text) for p in into.diff]
                whole = True
            else:
                # Pieces of a split share one difference, which cannot say
                # whose a deleted word was: it is shown once for the
                # group, labelled, and each piece shows its own wording
                # (its inserted words marked).
                if id(into) not in shown:
                    shown.add(id(into))
                    cell.append(groups.show(into, hist, step.edition, page, name))
                segments = split_side(into.diff, "new", into.new_texts)[into.new.index(addr)]
        cell.append(_step_clause(step.edition, addr, segments, whole, page, edition))
    return cell


def _step_clause(
    edition_name: str, addr: str, segments: list[tuple[Op, str]], whole: bool, page: Page, edition: Edition
) -> Markup:
    """One clause of a step: its address (linked where the report shows it), its wording, its source."""
    chip = addr_chip(edition_name, addr, page.resolve(edition_name, addr))
    clause = edition.find(addr)
    return h(
        "div",
        {"class": "hstep"},
        h("div", {"class": "ch"}, chip),
        law_text("tx inline" if whole else "tx", segments),
        source_line(edition, clause) if clause is not None else None,
    )


_EMPTY_TD = h("td", None)


class _GroupDiffs:
    """The word difference of each split (or of several clauses into several) on a page: in full once, then linked."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[str | None, str]] = {}  # id of the change -> its block's id, the history's name

    def show(self, ch: Change, hist: History, edition: str, page: Page, name: str) -> Markup:
        before = next((s.edition for s in hist.steps if s.addresses and set(s.addresses) & set(ch.old)), "")
        source = f"{before} {', '.join(ch.old)}" if before else ", ".join(ch.old)
        what = (
            f"{ch.kind.value.capitalize()} {source} → {edition} {', '.join(ch.new)}: "
            "the word difference over the pieces together"
        )
        first = self.seen.get(id(ch))
        if first is not None:
            ident, where = first
            return h(
                "div",
                {"class": "hgroup"},
                h(
                    "div",
                    {"class": "hgroup-h"},
                    f"{what}, in order, is shown in the history of ",
                    h("a", {"href": f"#{ident}"}, where) if ident else where,
                    ". Each piece's own wording follows.",
                ),
            )
        ident = page.claim(f"group-{anchor(edition, ch.new[0])}")
        self.seen[id(ch)] = (ident, name)
        return h(
            "div",
            {"class": "hgroup", "id": ident},
            h("div", {"class": "hgroup-h"}, f"{what}, in order. Each piece's own wording follows."),
            law_text("tx inline", [(p.op, p.text) for p in ch.diff]),
        )
