"""The report's index: editions, counts per pair, the articles-by-editions matrix."""

from __future__ import annotations

from lawdiff.diff.article import HEAT_LARGE, HEAT_NAMES, HEAT_SMALL, HEAT_SYMBOLS
from lawdiff.model import chronological
from lawdiff.report import article_ranges
from lawdiff.report.html.correlation import pair_changes
from lawdiff.report.html.counts import (
    _OUTSIDE,
    FLAG_COUNTS,
    KIND_COUNTS,
    _editorial_note,
    _pct,
    counts_phrase,
    significance_counts,
)
from lawdiff.report.html.markup import Child, Markup, _footer, _section, document, h, scroll_box
from lawdiff.report.html.nav import _title_span
from lawdiff.report.html.review import matrix_cell
from lawdiff.report.site import REVIEW_FILE, Listed, Site, article_file, correlation_file, pair_id


def index_page(site: Site) -> str:
    first, last = site.compared[0].name, site.compared[-1].name
    span = first if first == last else f"{first}–{last}"
    main = h(
        "main",
        {"id": "top", "tabindex": "-1"},
        h("h1", None, "Spelregels voor wedstrijdbridge: changes " + span),
        h(
            "p",
            {"class": "lead"},
            "The Dutch Laws of Duplicate Bridge, edition by edition: every article, aligned clause by clause. "
            "Insertions are ",
            h("ins", None, "underlined"),
            ", deletions ",
            h("del", None, "struck through"),
            "; every change is labelled in words.",
        ),
        _editions_section(site),
        _pairs_section(site),
        _matrix_section(site),
    )
    return document(
        f"Spelregels voor wedstrijdbridge {span} · lawdiff report",
        "",
        "index",
        h("nav", {"class": "crumbs", "aria-label": "Report"}, "Index"),
        main,
        _footer(site.thresholds),
    )


def _role(x: Listed, site: Site) -> list[Child]:
    """What the report does with a listed edition, in words."""
    if x.compared_as and x.compared_as != x.edition.name:
        return ["compared, as ", h("b", None, x.compared_as)]
    if x.compared_as:
        return ["compared"]
    # Another source of a year the report compares: say how to compare the two.
    year = x.edition.name.split("@", 1)[0]
    peer = next((y for y in site.editions if y.means == year), None)
    if "@" in x.edition.name and peer is not None:
        return [
            "not compared: another source of ",
            year,
            "; compare the two with ",
            h(
                "code",
                None,
                "lawdiff report " + " ".join(e.name for e in sorted((x.edition, peer.edition), key=chronological)),
            ),
        ]
    return ["not compared in this report"]


def _editions_section(site: Site) -> Markup:
    rows: list[Child] = []
    for x in site.editions:
        e = x.edition
        clauses = sum(1 for _ in e.walk())
        files = h(
            "ul",
            {"class": "files"},
            [
                h("li", None, h("code", None, s.file), f" ({s.format}, page ", h("span", {"lang": "nl"}, s.page), ")")
                for s in e.sources
            ],
        )
        rows.append(
            h(
                "tr",
                {"class": "compared" if x.compared_as else "listed"},
                h("th", {"scope": "row"}, e.name),
                h("td", None, _role(x, site)),
                h("td", None, ", ".join(e.printings) or "not stated"),
                h("td", None, article_ranges([a.address for a in e.articles()], "–") or "none"),
                h("td", {"class": "num"}, str(clauses)),
                h("td", None, files),
            )
        )
    table = h(
        "table",
        {"class": "editions"},
        h("caption", None, "Every edition and source in the corpus, and whether this report compares it"),
        h(
            "thead",
            None,
            h(
                "tr",
                None,
                [
                    h("th", {"scope": "col"}, head)
                    for head in ("Edition", "In this report", "Printing", "Articles", "Clauses", "Source files")
                ],
            ),
        ),
        h("tbody", None, rows),
    )
    aliases: list[Child] = []
    for year, source in site.corpus.aliases().items():
        why = site.corpus.choices.get(year, "the corpus settings' choice, or else the newer printing")
        aliases.append(
            h("p", {"class": "hint alias"}, h("b", None, year), " means ", h("b", None, source), f" ({why}).")
        )
    return _section("editions", ["Editions"], None, table, aliases)


def _pairs_section(site: Site) -> Markup:
    hint = h(
        "p",
        {"class": "hint"},
        "Each article is compared between the editions of this corpus that hold it, one after the other; an "
        "edition whose corpus lacks the article is passed over. "
        "Each clause counts once, under the kind of its change; an editorial-only change counts as modified "
        "(or split, merged) and is named in brackets. Renumbered, moved and titles changed count some of "
        "those same clauses again. Normative: a change whose words touch what the rule requires (a modal verb, "
        "a negation, who acts, a number, a condition); a retargeted reference alone is not normative, and a clause "
        "added or removed whole is counted as added or removed only.",
    )
    if not site.totals:
        note = h("p", {"class": "note"}, "No article is held by two of these editions: there is nothing to compare.")
        return _section("pairs", ["Changes per pair of editions"], None, hint, note)
    kinds = list(KIND_COUNTS)
    if any(t.counts.get(_OUTSIDE[0]) for t in site.totals):
        kinds.append(("outside_corpus", "Outside the corpus"))
    flags = list(FLAG_COUNTS)
    stale = any(t.stale for t in site.totals)
    head_top = h(
        "tr",
        None,
        h("th", {"scope": "col", "rowspan": "2"}, "Editions"),
        h("th", {"scope": "col", "rowspan": "2"}, "Articles"),
        h(
            "th",
            {"scope": "colgroup", "colspan": str(len(kinds)), "class": "group"},
            "Kind of change (each clause once)",
        ),
        h(
            "th",
            {"scope": "colgroup", "colspan": str(len(flags) + stale), "class": "group flags"},
            "Of these clauses",
        ),
        h("th", {"scope": "colgroup", "colspan": "2", "class": "group"}, "Differences"),
    )
    head = h(
        "tr",
        None,
        [h("th", {"scope": "col", "class": "num"}, word.capitalize()) for _, word in kinds],
        [h("th", {"scope": "col", "class": "num flag"}, word.capitalize()) for _, word in flags],
        h("th", {"scope": "col", "class": "num flag"}, "Stale references") if stale else None,
        h("th", {"scope": "col", "class": "num"}, "Normative"),
        h("th", {"scope": "col", "class": "num"}, "Other wording"),
    )

    def cell(n: int, extra: str = "", flag: bool = False) -> Markup:
        cls = "num" + (" flag" if flag else "") + ("" if n else " zero")
        return h("td", {"class": cls}, str(n), h("span", {"class": "sub"}, extra) if extra else None)

    order = [e.name for e in site.compared]
    rows: list[Child] = []
    for t in site.totals:
        sig = significance_counts(pair_changes(site, t.old.name, t.new.name)[0])
        between = order[order.index(t.old.name) + 1 : order.index(t.new.name)]
        rows.append(
            h(
                "tr",
                None,
                h(
                    "th",
                    {"scope": "row"},
                    f"{t.old.name} → {t.new.name}",
                    " ",
                    h(
                        "span",
                        {"class": "sub passed"},
                        f"{', '.join(between)} passed over: its corpus lacks these articles",
                    )
                    if between
                    else None,
                    " ",
                    h(
                        "a",
                        {
                            "class": "sub",
                            "href": correlation_file(t.old.name, t.new.name),
                            "aria-label": f"correlation table {t.old.name} → {t.new.name}",
                        },
                        "correlation table",
                    ),
                ),
                h("td", None, article_ranges(list(t.articles), "–")),
                [cell(t.counts.get(k, 0), _editorial_note(k, t.editorial)) for k, _ in kinds],
                [cell(t.counts.get(k, 0), flag=True) for k, _ in flags],
                cell(t.stale, flag=True) if stale else None,
                cell(sig.normative),
                cell(sig.wording),
            )
        )
    table = h(
        "table",
        {"class": "totals"},
        h("caption", None, "Counts of changes per pair of editions compared"),
        h("colgroup", None, h("col"), h("col")),
        h("colgroup", {"span": str(len(kinds))}),
        h("colgroup", {"span": str(len(flags) + stale), "class": "flags"}),
        h("colgroup", {"span": "2"}),
        h("thead", None, head_top, head),
        h("tbody", None, rows),
    )
    review = None
    if site.review is not None:
        review = h(
            "p",
            {"class": "hint"},
            "The committee's review is shown as it stood when this report was made; ",
            h("a", {"href": REVIEW_FILE}, "decisions that sit on no change"),
            " are listed apart.",
        )
    return _section(
        "pairs",
        ["Changes per pair of editions"],
        None,
        hint,
        scroll_box("Counts of changes per pair of editions", table),
        review,
    )


def _matrix_section(site: Site) -> Markup:
    rows: list[Child] = []
    for a in site.articles:
        held = {e.name for e in a.editions}
        by_new = {pv.new.name: pv for pv in a.pairs}
        cells: list[Child] = []
        for e in site.compared:
            if e.name not in held:
                cells.append(h("td", {"class": "cell none", "title": f"not in the {e.name} corpus"}, "–"))
                continue
            pv = by_new.get(e.name)
            if pv is None:
                cells.append(
                    h(
                        "td",
                        {
                            "class": "cell first",
                            "title": f"{e.name}: earliest edition of article {a.number} in the corpus",
                        },
                        h(
                            "a",
                            {"href": f"{article_file(a.number)}#synopsis"},
                            h("span", {"aria-hidden": "true"}, "●"),
                            h("span", {"class": "vh"}, f"Article {a.number} in {e.name}: the earliest in the corpus"),
                        ),
                    )
                )
                continue
            heat = pv.heat
            counts = counts_phrase(heat.counts, heat.editorial, heat.stale)
            normative = significance_counts(pv.changes).normative
            cells.append(
                h(
                    "td",
                    {
                        "class": f"cell h{heat.level}",
                        "title": f"{pv.old.name} → {e.name}: {HEAT_NAMES[heat.level]}; {counts}",
                    },
                    h(
                        "a",
                        {"href": f"{article_file(a.number)}#{pair_id(pv.old.name, pv.new.name)}"},
                        h(
                            "span",
                            {"class": "vh"},
                            f"Article {a.number}, {pv.old.name} → {e.name}: {HEAT_NAMES[heat.level]}, ",
                        ),
                        h("span", {"class": "sym", "aria-hidden": "true"}, HEAT_SYMBOLS[heat.level]),
                        " ",
                        h("span", {"class": "pct"}, _pct(heat.share)),
                        h("span", {"class": "stale"}, " !", h("span", {"class": "vh"}, " stale reference"))
                        if heat.stale
                        else None,
                        [" ", h("span", {"class": "nrm"}, f"{normative} normative")] if normative else None,
                    ),
                )
            )
        number = h(
            "th",
            {"scope": "row"},
            h("a", {"href": article_file(a.number)}, h("span", {"class": "num"}, a.number), " ", _title_span(a.title)),
        )
        review = matrix_cell(site.review, a) if site.review is not None and a.pairs else None
        if site.review is not None and not a.pairs:
            review = h("td", {"class": "rcount"}, "—")
        rows.append(h("tr", None, number, cells, review))
    table = h(
        "table",
        {"class": "matrix", "id": "matrix"},
        h("caption", None, "Where each article changed, and how much"),
        h(
            "thead",
            None,
            h(
                "tr",
                None,
                h("th", {"scope": "col"}, "Article"),
                [h("th", {"scope": "col"}, e.name) for e in site.compared],
                h("th", {"scope": "col"}, "Review") if site.review is not None else None,
            ),
        ),
        h("tbody", None, rows),
    )
    return _section(
        "articles",
        ["Articles × editions"],
        None,
        h(
            "p",
            {"class": "hint"},
            "Each cell says how much the article changed from the previous edition that holds it: a symbol, "
            "and the share of its words inserted or deleted, and how many of its changes are normative. "
            "Follow a cell to its side-by-side view.",
        ),
        scroll_box("Articles by editions", table),
        _legend(any(pv.heat.stale for a in site.articles for pv in a.pairs)),
    )


def _legend(stale: bool) -> Markup:
    meaning = (
        "no difference",
        "only editorial changes or new numbers",
        f"less than {round(HEAT_SMALL * 100)} % of the words changed",
        f"{round(HEAT_SMALL * 100)}–{round(HEAT_LARGE * 100)} % of the words changed",
        f"{round(HEAT_LARGE * 100)} % of the words or more changed",
    )
    items: list[Child] = [
        [h("dt", {"class": f"cell h{level}"}, sym), h("dd", None, f"{name}: {meaning[level]}")]
        for level, (sym, name) in enumerate(zip(HEAT_SYMBOLS, HEAT_NAMES, strict=True))
    ]
    items += [
        h("dt", {"class": "cell first"}, "●"),
        h("dd", None, "the earliest edition in the corpus that holds the article"),
        h("dt", {"class": "cell none"}, "–"),
        h("dd", None, "not in this edition's corpus"),
        h("dt", {"class": "cell"}, h("span", {"class": "nrm"}, "3 normative")),
        h(
            "dd",
            None,
            "how many of the changes are normative: a flag other than reference (modal, negation, actor, "
            "number, condition)",
        ),
    ]
    if stale:
        items += [
            h("dt", {"class": "cell"}, h("span", {"class": "stale"}, "!")),
            h("dd", None, "a reference kept as written although its target moved (stale): see the article page"),
        ]
    return h("div", {"class": "legend-box"}, h("h3", None, "Legend"), h("dl", {"class": "legend"}, items))
