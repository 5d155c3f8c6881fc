"""The report's index: editions, counts per pair, the articles-by-editions matrix."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lawdiff.diff import SHORT_ID
from lawdiff.diff.article import (
    HEAT_LARGE,
    HEAT_NAMES,
    HEAT_SMALL,
    HEAT_SYMBOLS,
    ArticleView,
    PairTotal,
    PairView,
)
from lawdiff.model import chronological
from lawdiff.report import article_ranges
from lawdiff.report.html.correlation import pair_changes
from lawdiff.report.html.counts import (
    FLAG_COUNTS,
    KIND_COUNTS,
    OUTSIDE,
    SignificanceCounts,
    counts_phrase,
    editorial_note,
    pattern_list,
    percent,
    significance_counts,
)
from lawdiff.report.html.markup import Child, Markup, document, h, marks_legend, page_footer, scroll_box, section_markup
from lawdiff.report.html.nav import title_span
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
            "The Dutch Laws of Duplicate Bridge, edition by edition: every article, aligned clause by clause. ",
            marks_legend(),
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
        page_footer(site.thresholds, site.compared),
    )


def _role(x: Listed, site: Site) -> list[Child]:
    """What the report does with a listed edition, in words."""
    if x.compared_as and not x.paired:
        return ["in no pair compared (passed over): no article its corpus holds is compared with another edition's"]
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
                {"class": "compared" if x.compared_as and x.paired else "listed"},
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
    return section_markup("editions", ["Editions"], None, table, aliases)


def _pairs_section(site: Site) -> Markup:
    """The counts of changes per pair of editions compared: one row per pair."""
    hint = h(
        "p",
        {"class": "hint"},
        "Each article is compared between the editions of this corpus that hold it, one after the other; an "
        "edition whose corpus lacks the article, or holds only some of its sections' pages between editions "
        "that hold more of it, is passed over. "
        "Each clause counts once, under the kind of its change; an editorial-only change counts as modified "
        "(or split, merged) and is named in brackets. Renumbered, moved and titles changed count some of "
        "those same clauses again. Normative: a change whose words touch what the rule requires (a modal verb, "
        "a negation, who acts, a number, a condition); a retargeted reference alone is not normative, and a clause "
        "added or removed whole is counted as added or removed only. The same substitution made in several "
        "clauses (a drafting pattern) is one normative change, listed below the table with its clauses.",
    )
    if not site.totals:
        note = h("p", {"class": "note"}, "No article is held by two of these editions: there is nothing to compare.")
        return section_markup("pairs", ["Changes per pair of editions"], None, hint, note)
    columns = _PairColumns.of(site.totals)
    order = [e.name for e in site.compared]
    table = h(
        "table",
        {"class": "totals"},
        h("caption", None, "Counts of changes per pair of editions compared"),
        h("colgroup", None, h("col"), h("col")),
        h("colgroup", {"span": str(len(columns.kinds))}),
        h("colgroup", {"span": str(len(columns.flags) + columns.stale), "class": "flags"}),
        h("colgroup", {"span": "2"}),
        _pairs_head(columns),
        h("tbody", None, [_pair_row(site, t, order, columns) for t in site.totals]),
    )
    return section_markup(
        "pairs",
        ["Changes per pair of editions"],
        None,
        hint,
        scroll_box("Counts of changes per pair of editions", table),
        [_patterns(site, t) for t in site.totals],
        _review_hint(site),
    )


def pair_significance(site: Site, t: PairTotal) -> SignificanceCounts:
    """A pair's significance counts over the articles the report compares it on, patterns counted once."""
    return significance_counts(
        pair_changes(site, t.old.name, t.new.name)[0], site.comparisons.get((t.old.name, t.new.name))
    )


def _patterns(site: Site, t: PairTotal) -> list[Child]:
    """A pair's drafting patterns, each with its clauses linked to their rows."""
    pages = pair_changes(site, t.old.name, t.new.name)[1]
    found = pattern_list(
        pair_significance(site, t).patterns,
        lambda cid, _address: f"{pages[cid]}#change-{cid[:SHORT_ID]}" if cid in pages else None,
    )
    return [h("h3", None, f"Drafting patterns {t.old.name} → {t.new.name}"), found] if found is not None else []


@dataclass(frozen=True, slots=True)
class _PairColumns:
    """The count columns of the pairs table, the same for every pair.

    kinds: each clause once, under the kind of its change; "outside the
        corpus" only when some pair has such changes.
    flags: what may be true of a change of any kind.
    stale: whether there is a column of stale references (some pair has one).
    """

    kinds: tuple[tuple[str, str], ...]
    flags: tuple[tuple[str, str], ...]
    stale: bool

    @classmethod
    def of(cls, totals: Iterable[PairTotal]) -> _PairColumns:
        totals = list(totals)
        kinds: tuple[tuple[str, str], ...] = KIND_COUNTS
        if any(t.counts.get(OUTSIDE[0]) for t in totals):
            kinds += (("outside_corpus", "Outside the corpus"),)
        return cls(kinds, FLAG_COUNTS, any(t.stale for t in totals))


def _pairs_head(columns: _PairColumns) -> Markup:
    """The table's two rows of heads: groups of columns above, the columns themselves below."""
    kinds, flags, stale = columns.kinds, columns.flags, columns.stale
    groups = h(
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
    heads = h(
        "tr",
        None,
        [h("th", {"scope": "col", "class": "num"}, word.capitalize()) for _, word in kinds],
        [h("th", {"scope": "col", "class": "num flag"}, word.capitalize()) for _, word in flags],
        h("th", {"scope": "col", "class": "num flag"}, "Stale references") if stale else None,
        h("th", {"scope": "col", "class": "num"}, "Normative"),
        h("th", {"scope": "col", "class": "num"}, "Other wording"),
    )
    return h("thead", None, groups, heads)


def _pair_row(site: Site, t: PairTotal, order: list[str], columns: _PairColumns) -> Markup:
    """One pair's counts; ``order``: the names of the editions compared, oldest first."""
    sig = significance_counts(
        pair_changes(site, t.old.name, t.new.name)[0], site.comparisons.get((t.old.name, t.new.name))
    )
    between = order[order.index(t.old.name) + 1 : order.index(t.new.name)]
    return h(
        "tr",
        None,
        _pair_head(t, between),
        h("td", None, article_ranges(list(t.articles), "–")),
        [_count_cell(t.counts.get(k, 0), editorial_note(k, t.editorial)) for k, _ in columns.kinds],
        [_count_cell(t.counts.get(k, 0), flag=True) for k, _ in columns.flags],
        _count_cell(t.stale, flag=True) if columns.stale else None,
        _count_cell(sig.normative),
        _count_cell(sig.wording),
    )


def _pair_head(t: PairTotal, between: list[str]) -> Markup:
    """A pair's row head: its editions, those passed over between them, a link to its correlation table."""
    return h(
        "th",
        {"scope": "row"},
        f"{t.old.name} → {t.new.name}",
        " ",
        h(
            "span",
            {"class": "sub passed"},
            f"{', '.join(between)} passed over: its corpus lacks these articles or holds them in part",
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
    )


def _count_cell(n: int, extra: str = "", flag: bool = False) -> Markup:
    cls = "num" + (" flag" if flag else "") + ("" if n else " zero")
    return h("td", {"class": cls}, str(n), h("span", {"class": "sub"}, extra) if extra else None)


def _review_hint(site: Site) -> Markup | None:
    """Under the counts, when the report shows the committee's review: where its other decisions are."""
    if site.review is None:
        return None
    return h(
        "p",
        {"class": "hint"},
        "The committee's review is shown as it stood when this report was made; ",
        h("a", {"href": REVIEW_FILE}, "decisions that sit on no change"),
        " are listed apart.",
    )


def _matrix_section(site: Site) -> Markup:
    """The articles-by-editions matrix: how much each article changed in each edition, with its legend."""
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
        h("tbody", None, [_matrix_row(site, a) for a in site.articles]),
    )
    return section_markup(
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


def _matrix_row(site: Site, a: ArticleView) -> Markup:
    """An article's row: its number and title, a cell per edition compared, its review when shown."""
    held = {e.name for e in a.editions}
    by_new = {pv.new.name: pv for pv in a.pairs}
    cells: list[Child] = []
    for e in site.compared:
        pv = by_new.get(e.name)
        if e.name not in held:
            cells.append(_absent_cell(e.name))
        elif pv is None:
            cells.append(_first_cell(a.number, e.name))
        else:
            cells.append(_heat_cell(a.number, pv, site))
    number = h(
        "th",
        {"scope": "row"},
        h("a", {"href": article_file(a.number)}, h("span", {"class": "num"}, a.number), " ", title_span(a.title)),
    )
    return h("tr", None, number, cells, _review_cell(site, a))


def _absent_cell(edition: str) -> Markup:
    return h("td", {"class": "cell none", "title": f"not in the {edition} corpus"}, "–")


def _first_cell(number: str, edition: str) -> Markup:
    """The cell of the earliest edition that holds the article: nothing to compare it with."""
    return h(
        "td",
        {
            "class": "cell first",
            "title": f"{edition}: earliest edition of article {number} in the corpus",
        },
        h(
            "a",
            {"href": f"{article_file(number)}#synopsis"},
            h("span", {"aria-hidden": "true"}, "●"),
            h("span", {"class": "vh"}, f"Article {number} in {edition}: the earliest in the corpus"),
        ),
    )


def _heat_cell(number: str, pv: PairView, site: Site) -> Markup:
    """How much the article changed from the previous edition that holds it, linked to its side-by-side view."""
    old, new = pv.old.name, pv.new.name
    heat = pv.heat
    counts = counts_phrase(heat.counts, heat.editorial, heat.stale)
    normative = significance_counts(pv.changes, site.comparisons.get((old, new))).normative
    return h(
        "td",
        {
            "class": f"cell h{heat.level}",
            "title": f"{old} → {new}: {HEAT_NAMES[heat.level]}; {counts}",
        },
        h(
            "a",
            {"href": f"{article_file(number)}#{pair_id(old, new)}"},
            h(
                "span",
                {"class": "vh"},
                f"Article {number}, {old} → {new}: {HEAT_NAMES[heat.level]}, ",
            ),
            h("span", {"class": "sym", "aria-hidden": "true"}, HEAT_SYMBOLS[heat.level]),
            " ",
            h("span", {"class": "pct"}, percent(heat.share)),
            h("span", {"class": "stale"}, " !", h("span", {"class": "vh"}, " stale reference")) if heat.stale else None,
            [" ", h("span", {"class": "nrm"}, f"{normative} normative")] if normative else None,
        ),
    )


def _review_cell(site: Site, a: ArticleView) -> Markup | None:
    """The article's review counts, when the report shows the review; a dash where there is nothing to review."""
    if site.review is None:
        return None
    return matrix_cell(site.review, a) if a.pairs else h("td", {"class": "rcount"}, "—")


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
