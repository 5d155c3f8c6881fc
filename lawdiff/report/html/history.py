"""An article's clause histories page."""

from __future__ import annotations

from lawdiff.align import Aspect
from lawdiff.diff import Change, ChangeKind, History, Op
from lawdiff.diff.article import ArticleView
from lawdiff.model import Clause, Edition
from lawdiff.report.html.law import _Page, _source, law_text, split_side
from lawdiff.report.html.markup import Child, Markup, _footer, document, h
from lawdiff.report.html.nav import _nav, _title_span
from lawdiff.report.html.pair import _arrow
from lawdiff.report.site import Site, anchor, article_file, history_file


def history_page(site: Site, a: ArticleView) -> str:
    path = history_file(a.number)
    page = _Page(path, lambda e, addr: site.href(e, addr, path))
    page.ids.add("top")
    editions = {e.name: e for e in site.compared}
    sections: list[Child] = []
    for e, c, hist in a.histories:
        ident = page.claim(anchor(e.name, c.address))
        sections.append(
            h(
                "section",
                {"class": "history", "id": ident},
                h(
                    "h2",
                    None,
                    h("span", {"class": "addr"}, f"{e.name}:{c.address}"),
                    " ",
                    h("span", {"class": "gist", "lang": "nl"}, _gist(c)),
                ),
                _history_table(hist, site, page, editions),
                h("p", {"class": "introduced"}, f"Current wording introduced in {hist.introduced}.")
                if hist.introduced
                else None,
            )
        )
    main = h(
        "main",
        {"id": "top"},
        h("h1", None, f"Article {a.number}: clause histories", " — " if a.title else None, _title_span(a.title)),
        h(
            "p",
            {"class": "lead"},
            "Every clause of every edition, followed through all editions of the corpus: its address and wording in "
            "each, and where it changed. ",
            h("a", {"href": article_file(a.number).split("/")[1]}, f"Back to article {a.number}"),
            ".",
        ),
        sections,
    )
    return document(
        f"Article {a.number}: clause histories · lawdiff report",
        "../",
        "histories",
        _nav(site, a, "../", history=True),
        main,
        _footer(site.thresholds),
    )


def _gist(c: Clause) -> str:
    summary = (c.title or c.text).split("\n")[0]
    return summary[:89].rstrip() + "…" if len(summary) > 90 else summary


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


def _history_table(hist: History, site: Site, page: _Page, editions: dict[str, Edition]) -> Markup:
    rows: list[Child] = []
    for step in hist.steps:
        th = h("th", {"scope": "row"}, step.edition)
        if not step.in_corpus:
            note = h("span", {"class": "none"}, f"the {step.edition} corpus does not hold this article")
            rows.append(h("tr", {"class": "absent"}, th, _EMPTY_TD, h("td", None, note)))
            continue
        kind: list[Child] = []
        if step.kinds:
            kind.append(h("span", {"class": f"badge b-{step.kinds[0].value}"}, step.change))
            stale = [r.old for ch in step.changes for r in ch.stale_references]
            if stale:
                kind += [
                    " ",
                    h("span", {"class": "badge b-stale", "title": f"kept: {', '.join(stale)}"}, "stale reference"),
                ]
            for ch in step.changes:
                if ch.old and ch.new and (ch.renumbered or len(ch.old) + len(ch.new) > 2):
                    kind.append(h("div", {"class": "arrow"}, _arrow(ch.old, ch.new)))
        cell: list[Child] = []
        if not step.addresses:
            cell.append(h("span", {"class": "none"}, "not present" if not step.kinds else "removed"))
        edition = editions[step.edition]
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
                        cell.append(_group_diff(into, hist, step.edition))
                    segments = split_side(into.diff, "new", into.new_texts)[into.new.index(addr)]
            href = page.resolve(step.edition, addr)
            chip = h("a", {"class": "addr", "href": href}, addr) if href else h("span", {"class": "addr"}, addr)
            clause = edition.find(addr)
            cell.append(
                h(
                    "div",
                    {"class": "hstep"},
                    h("div", {"class": "ch"}, chip),
                    law_text("tx inline" if whole else "tx", segments),
                    _source(edition, clause) if clause is not None else None,
                )
            )
        rows.append(
            h(
                "tr",
                {"class": "absent"} if not step.addresses else None,
                th,
                h("td", {"class": "kind"}, kind),
                h("td", None, cell),
            )
        )
    return h("table", {"class": "hist"}, _HEAD, h("tbody", None, rows))


_EMPTY_TD = h("td", None)


def _group_diff(ch: Change, hist: History, edition: str) -> Markup:
    """The word difference of a split (or of several clauses into several), labelled as the group's."""
    before = next((s.edition for s in hist.steps if s.addresses and set(s.addresses) & set(ch.old)), "")
    source = f"{before} {', '.join(ch.old)}" if before else ", ".join(ch.old)
    return h(
        "div",
        {"class": "hgroup"},
        h(
            "div",
            {"class": "hgroup-h"},
            f"{ch.kind.value.capitalize()} {source} → {edition} {', '.join(ch.new)}: the word difference over "
            "the pieces together, in order. Each piece's own wording follows.",
        ),
        law_text("tx inline", [(p.op, p.text) for p in ch.diff]),
    )
