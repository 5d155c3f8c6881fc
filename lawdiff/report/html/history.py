"""An article's clause histories page."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lxml import etree

from lawdiff.align import Aspect
from lawdiff.diff import Change, ChangeKind, History, Op
from lawdiff.diff.article import ArticleView
from lawdiff.report.html.law import _Page, _source, law_text, split_side
from lawdiff.report.html.markup import _document, _footer, add, el
from lawdiff.report.html.nav import _nav, _title_span
from lawdiff.report.html.pair import _arrow
from lawdiff.report.site import Site, anchor, article_file, history_file

Element = etree._Element
Child = Element | str | None | Iterable["Child"]
Progress = Callable[[int, int], None]


def history_page(site: Site, a: ArticleView) -> str:
    path = history_file(a.number)
    page = _Page(path, lambda e, addr: site.href(e, addr, path))
    page.ids.add("top")
    main = el("main", {"id": "top"})
    add(main, el("h1", None, f"Article {a.number}: clause histories", " — " if a.title else None, _title_span(a.title)))
    add(
        main,
        el(
            "p",
            {"class": "lead"},
            "Every clause of every edition, followed through all editions of the corpus: its address and wording in "
            "each, and where it changed. ",
            el("a", {"href": article_file(a.number).split("/")[1]}, f"Back to article {a.number}"),
            ".",
        ),
    )
    for e, c, h in a.histories:
        ident = page.claim(anchor(e.name, c.address))
        sec = el("section", {"class": "history", **({"id": ident} if ident else {})})
        summary = (c.title or c.text).split("\n")[0]
        if len(summary) > 90:
            summary = summary[:89].rstrip() + "…"
        add(
            sec,
            el(
                "h2",
                None,
                el("span", {"class": "addr"}, f"{e.name}:{c.address}"),
                " ",
                el("span", {"class": "gist", "lang": "nl"}, summary),
            ),
        )
        add(sec, _history_table(h, site, page))
        if h.introduced:
            add(sec, el("p", {"class": "introduced"}, f"Current wording introduced in {h.introduced}."))
        add(main, sec)
    body = el("body", {"class": "histories"}, _nav(site, a, "../", history=True), main, _footer(site.thresholds))
    return _document(f"Article {a.number}: clause histories · lawdiff report", "../", body)


def _history_table(h: History, site: Site, page: _Page) -> Element:
    table = el(
        "table",
        {"class": "hist"},
        el(
            "thead",
            None,
            el(
                "tr",
                None,
                el("th", {"scope": "col"}, "Edition"),
                el("th", {"scope": "col"}, "Change"),
                el("th", {"scope": "col"}, "Wording"),
            ),
        ),
    )
    tbody = el("tbody")
    for step in h.steps:
        tr = el("tr", {"class": "absent"} if not step.addresses else None)
        add(tr, el("th", {"scope": "row"}, step.edition))
        if not step.in_corpus:
            add(
                tr,
                el("td", None, ""),
                el("td", None, el("span", {"class": "none"}, f"the {step.edition} corpus does not hold this article")),
            )
            add(tbody, tr)
            continue
        kind = el("td", {"class": "kind"})
        if step.kinds:
            add(kind, el("span", {"class": f"badge b-{step.kinds[0].value}"}, step.change))
            stale = [r.old for ch in step.changes for r in ch.stale_references]
            if stale:
                add(
                    kind,
                    " ",
                    el("span", {"class": "badge b-stale", "title": f"kept: {', '.join(stale)}"}, "stale reference"),
                )
            for ch in step.changes:
                if ch.old and ch.new and (ch.renumbered or len(ch.old) + len(ch.new) > 2):
                    add(kind, el("div", {"class": "arrow"}, _arrow(ch.old, ch.new)))
        add(tr, kind)
        cell = el("td")
        if not step.addresses:
            add(cell, el("span", {"class": "none"}, "not present" if not step.kinds else "removed"))
        edition = next(e for e in site.compared if e.name == step.edition)
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
                        add(cell, _group_diff(into, h, step.edition))
                    segments = split_side(into.diff, "new", into.new_texts)[into.new.index(addr)]
            href = page.resolve(step.edition, addr)
            chip = el("a", {"class": "addr", "href": href}, addr) if href else el("span", {"class": "addr"}, addr)
            block = el("div", {"class": "hstep"}, el("div", {"class": "ch"}, chip))
            add(block, law_text("tx inline" if whole else "tx", segments))
            clause = edition.find(addr)
            if clause is not None:
                add(block, _source(edition, clause))
            add(cell, block)
        add(tr, cell)
        add(tbody, tr)
    add(table, tbody)
    return table


def _group_diff(ch: Change, h: History, edition: str) -> Element:
    """The word difference of a split (or of several clauses into several), labelled as the group's."""
    before = next((s.edition for s in h.steps if s.addresses and set(s.addresses) & set(ch.old)), "")
    source = f"{before} {', '.join(ch.old)}" if before else ", ".join(ch.old)
    return el(
        "div",
        {"class": "hgroup"},
        el(
            "div",
            {"class": "hgroup-h"},
            f"{ch.kind.value.capitalize()} {source} → {edition} {', '.join(ch.new)}: the word difference over "
            "the pieces together, in order. Each piece's own wording follows.",
        ),
        law_text("tx inline", [(p.op, p.text) for p in ch.diff]),
    )
