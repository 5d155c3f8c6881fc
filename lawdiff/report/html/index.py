"""The report's index: editions, counts per pair, the articles-by-editions matrix."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lxml import etree

from lawdiff.diff.article import HEAT_LARGE, HEAT_NAMES, HEAT_SMALL, HEAT_SYMBOLS
from lawdiff.model import chronological
from lawdiff.report import article_ranges
from lawdiff.report.html.law import _Page
from lawdiff.report.html.markup import _document, _footer, _section, add, el
from lawdiff.report.html.nav import _title_span
from lawdiff.report.html.pair import _OUTSIDE, FLAG_COUNTS, KIND_COUNTS, _editorial_note, _pct, counts_phrase
from lawdiff.report.site import Listed, Site, article_file, pair_id

Element = etree._Element
Child = Element | str | None | Iterable["Child"]
Progress = Callable[[int, int], None]


def index_page(site: Site) -> str:
    page = _Page("index.html", lambda e, addr: site.href(e, addr, "index.html"))
    first, last = site.compared[0].name, site.compared[-1].name
    span = first if first == last else f"{first}–{last}"
    main = el("main", {"id": "top"})
    add(
        main,
        el("h1", None, "Spelregels voor wedstrijdbridge: changes " + span),
        el(
            "p",
            {"class": "lead"},
            "The Dutch Laws of Duplicate Bridge, edition by edition: every article, aligned clause by clause. "
            "Insertions are ",
            el("ins", None, "underlined"),
            ", deletions ",
            el("del", None, "struck through"),
            "; every change is labelled in words.",
        ),
    )
    add(main, _editions_section(site), _pairs_section(site), _matrix_section(site))
    _ = page
    body = el(
        "body",
        {"class": "index"},
        el("nav", {"class": "crumbs", "aria-label": "Report"}, "Index"),
        main,
        _footer(site.thresholds),
    )
    return _document(f"Spelregels voor wedstrijdbridge {span} · lawdiff report", "", body)


def _role(x: Listed, site: Site) -> list[Child]:
    """What the report does with a listed edition, in words."""
    if x.compared_as and x.compared_as != x.edition.name:
        return ["compared, as ", el("b", None, x.compared_as)]
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
            el(
                "code",
                None,
                "lawdiff report " + " ".join(e.name for e in sorted((x.edition, peer.edition), key=chronological)),
            ),
        ]
    return ["not compared in this report"]


def _editions_section(site: Site) -> Element:
    table = el(
        "table",
        {"class": "editions"},
        el("caption", None, "Every edition and source in the corpus, and whether this report compares it"),
        el(
            "thead",
            None,
            el(
                "tr",
                None,
                *[
                    el("th", {"scope": "col"}, h)
                    for h in ("Edition", "In this report", "Printing", "Articles", "Clauses", "Source files")
                ],
            ),
        ),
    )
    tbody = el("tbody")
    for x in site.editions:
        e = x.edition
        clauses = list(e.walk())
        files = el(
            "ul",
            {"class": "files"},
            [
                el(
                    "li",
                    None,
                    el("code", None, s.file),
                    f" ({s.format}, page ",
                    el("span", {"lang": "nl"}, s.page),
                    ")",
                )
                for s in e.sources
            ],
        )
        add(
            tbody,
            el(
                "tr",
                {"class": "compared" if x.compared_as else "listed"},
                el("th", {"scope": "row"}, e.name),
                el("td", None, _role(x, site)),
                el("td", None, ", ".join(e.printings) or "not stated"),
                el("td", None, article_ranges([a.address for a in e.articles()], "–") or "none"),
                el("td", {"class": "num"}, str(len(clauses))),
                el("td", None, files),
            ),
        )
    add(table, tbody)
    section = _section(
        "editions",
        ["Editions"],
        None,
        table,
    )
    for year, source in site.corpus.aliases().items():
        why = site.corpus.choices.get(year, "the corpus settings' choice, or else the newer printing")
        add(
            section,
            el("p", {"class": "hint alias"}, el("b", None, year), " means ", el("b", None, source), f" ({why})."),
        )
    return section


def _pairs_section(site: Site) -> Element:
    section = _section(
        "pairs",
        ["Changes per pair of editions"],
        None,
        el(
            "p",
            {"class": "hint"},
            "Consecutive editions are compared on the articles both hold in this corpus. "
            "Each clause counts once, under the kind of its change; an editorial-only change counts as modified "
            "(or split, merged) and is named in brackets. Renumbered, moved and titles changed count some of "
            "those same clauses again.",
        ),
    )
    if not site.totals:
        add(
            section,
            el("p", {"class": "note"}, "No article is held by two of these editions: there is nothing to compare."),
        )
        return section
    kinds = list(KIND_COUNTS)
    if any(t.counts.get(_OUTSIDE[0]) for t in site.totals):
        kinds.append(("outside_corpus", "Outside the corpus"))
    flags = list(FLAG_COUNTS)
    stale = any(t.stale for t in site.totals)
    head_top = el(
        "tr",
        None,
        el("th", {"scope": "col", "rowspan": "2"}, "Editions"),
        el("th", {"scope": "col", "rowspan": "2"}, "Articles"),
        el(
            "th",
            {"scope": "colgroup", "colspan": str(len(kinds)), "class": "group"},
            "Kind of change (each clause once)",
        ),
        el(
            "th",
            {"scope": "colgroup", "colspan": str(len(flags) + stale), "class": "group flags"},
            "Of these clauses",
        ),
    )
    head = el(
        "tr",
        None,
        *[el("th", {"scope": "col", "class": "num"}, word.capitalize()) for _, word in kinds],
        *[el("th", {"scope": "col", "class": "num flag"}, word.capitalize()) for _, word in flags],
        el("th", {"scope": "col", "class": "num flag"}, "Stale references") if stale else None,
    )
    table = el(
        "table",
        {"class": "totals"},
        el("caption", None, "Counts of changes per pair of consecutive editions"),
        el("colgroup", None, el("col"), el("col")),
        el("colgroup", {"span": str(len(kinds))}),
        el("colgroup", {"span": str(len(flags) + stale), "class": "flags"}),
        el("thead", None, head_top, head),
    )
    tbody = el("tbody")

    def cell(n: int, extra: str = "", flag: bool = False) -> Element:
        cls = "num" + (" flag" if flag else "") + ("" if n else " zero")
        return el("td", {"class": cls}, str(n), el("span", {"class": "sub"}, extra) if extra else None)

    for t in site.totals:
        add(
            tbody,
            el(
                "tr",
                None,
                el("th", {"scope": "row"}, f"{t.old.name} → {t.new.name}"),
                el("td", None, article_ranges(list(t.articles), "–")),
                *[cell(t.counts.get(k, 0), _editorial_note(k, t.editorial)) for k, _ in kinds],
                *[cell(t.counts.get(k, 0), flag=True) for k, _ in flags],
                cell(t.stale, flag=True) if stale else None,
            ),
        )
    add(table, tbody)
    add(section, el("div", {"class": "scroll"}, table))
    return section


def _matrix_section(site: Site) -> Element:
    section = _section(
        "articles",
        ["Articles × editions"],
        None,
        el(
            "p",
            {"class": "hint"},
            "Each cell says how much the article changed from the previous edition that holds it: a symbol, "
            "and the share of its words inserted or deleted. Follow a cell to its side-by-side view.",
        ),
    )
    head = el(
        "tr", None, el("th", {"scope": "col"}, "Article"), *[el("th", {"scope": "col"}, e.name) for e in site.compared]
    )
    table = el(
        "table",
        {"class": "matrix", "id": "matrix"},
        el("caption", None, "Where each article changed, and how much"),
        el("thead", None, head),
    )
    tbody = el("tbody")
    for a in site.articles:
        held = {e.name for e in a.editions}
        by_new = {pv.new.name: pv for pv in a.pairs}
        tr = el(
            "tr",
            None,
            el(
                "th",
                {"scope": "row"},
                el(
                    "a",
                    {"href": article_file(a.number)},
                    el("span", {"class": "num"}, a.number),
                    " ",
                    _title_span(a.title),
                ),
            ),
        )
        for e in site.compared:
            if e.name not in held:
                add(tr, el("td", {"class": "cell none", "title": f"not in the {e.name} corpus"}, "–"))
                continue
            pv = by_new.get(e.name)
            if pv is None:
                add(
                    tr,
                    el(
                        "td",
                        {
                            "class": "cell first",
                            "title": f"{e.name}: earliest edition of article {a.number} in the corpus",
                        },
                        el("a", {"href": f"{article_file(a.number)}#synopsis"}, "●"),
                    ),
                )
                continue
            h = pv.heat
            counts = counts_phrase(h.counts, h.editorial, h.stale)
            add(
                tr,
                el(
                    "td",
                    {
                        "class": f"cell h{h.level}",
                        "title": f"{pv.old.name} → {e.name}: {HEAT_NAMES[h.level]}; {counts}",
                    },
                    el(
                        "a",
                        {"href": f"{article_file(a.number)}#{pair_id(pv.old.name, pv.new.name)}"},
                        el("span", {"class": "sym"}, HEAT_SYMBOLS[h.level]),
                        " ",
                        el("span", {"class": "pct"}, _pct(h.share)),
                        el("span", {"class": "stale"}, " !") if h.stale else None,
                    ),
                ),
            )
        add(tbody, tr)
    add(table, tbody)
    add(
        section,
        el("div", {"class": "scroll"}, table),
        _legend(any(pv.heat.stale for a in site.articles for pv in a.pairs)),
    )
    return section


def _legend(stale: bool) -> Element:
    meaning = (
        "no difference",
        "only editorial changes or new numbers",
        f"less than {round(HEAT_SMALL * 100)} % of the words changed",
        f"{round(HEAT_SMALL * 100)}–{round(HEAT_LARGE * 100)} % of the words changed",
        f"{round(HEAT_LARGE * 100)} % of the words or more changed",
    )
    dl = el("dl", {"class": "legend"})
    for level, (sym, name) in enumerate(zip(HEAT_SYMBOLS, HEAT_NAMES, strict=True)):
        add(dl, el("dt", {"class": f"cell h{level}"}, sym), el("dd", None, f"{name}: {meaning[level]}"))
    add(
        dl,
        el("dt", {"class": "cell first"}, "●"),
        el("dd", None, "the earliest edition in the corpus that holds the article"),
    )
    add(dl, el("dt", {"class": "cell none"}, "–"), el("dd", None, "not in this edition's corpus"))
    if stale:
        add(
            dl,
            el("dt", {"class": "cell"}, el("span", {"class": "stale"}, "!")),
            el("dd", None, "a reference kept as written although its target moved (stale): see the article page"),
        )
    return el("div", {"class": "legend-box"}, el("h3", None, "Legend"), dl)
