"""The report's index: editions, counts per pair, the articles-by-editions matrix."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lawdiff.diff import SHORT_ID
from lawdiff.diff.article import (
    PairTotal,
)
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _
from lawdiff.model import chronological
from lawdiff.report import article_ranges
from lawdiff.report.html.correlation import pair_changes
from lawdiff.report.html.counts import (
    FLAG_COUNTS,
    KIND_COUNTS,
    OUTSIDE,
    SignificanceCounts,
    count_word,
    editorial_note,
    pattern_list,
    significance_counts,
)
from lawdiff.report.html.markup import (
    Child,
    Markup,
    Splices,
    document,
    h,
    marks_legend,
    page_footer,
    phrase,
    scroll_box,
    section_markup,
)
from lawdiff.report.html.matrix import matrix_section
from lawdiff.report.html.nav import crumbs
from lawdiff.report.site import REVIEW_FILE, Listed, Site, correlation_file


def index_page(site: Site) -> str:
    return "".join(index_pieces(site))


def index_pieces(site: Site) -> list[str]:
    """The page of :func:`index_page` as pieces to write one after the other: the matrix's rows are spliced
    in as it is written (:class:`Splices`)."""
    matrix = Splices()
    first, last = site.compared[0].name, site.compared[-1].name
    span = first if first == last else f"{first}–{last}"
    main = h(
        "main",
        {"id": "top", "tabindex": "-1"},
        h("h1", None, _("Spelregels voor wedstrijdbridge: changes {editions}").format(editions=span)),
        h(
            "p",
            {"class": "lead"},
            _("The Dutch Laws of Duplicate Bridge, edition by edition: every article, aligned clause by clause.") + " ",
            marks_legend(),
        ),
        _editions_section(site),
        _pairs_section(site),
        matrix_section(site, matrix),
    )
    page = document(
        _("Spelregels voor wedstrijdbridge {editions} · lawdiff report").format(editions=span),
        "",
        "index",
        crumbs(),
        main,
        page_footer(site.thresholds, site.compared),
    )
    return matrix.pieces(page)


def _role(x: Listed, site: Site) -> list[Child]:
    """What the report does with a listed edition, in words."""
    if x.compared_as and not x.paired:
        return [_("in no pair compared (passed over): no article its corpus holds is compared with another edition's")]
    if x.compared_as and x.compared_as != x.edition.name:
        return phrase(_("compared, as {edition}"), edition=h("b", None, x.compared_as))
    if x.compared_as:
        return [_("compared")]
    # Another source of a year the report compares: say how to compare the two.
    year = x.edition.name.split("@", 1)[0]
    peer = next((y for y in site.editions if y.means == year), None)
    if "@" in x.edition.name and peer is not None:
        both = " ".join(e.name for e in sorted((x.edition, peer.edition), key=chronological))
        return phrase(
            _("not compared: another source of {year}; compare the two with {command}"),
            year=year,
            command=h("code", None, "lawdiff report " + both),
        )
    return [_("not compared in this report")]


_EDITION_HEADS = (
    N_("Edition"),
    N_("In this report"),
    N_("Printing"),
    N_("Articles"),
    N_("Clauses"),
    N_("Source files"),
)


def _editions_section(site: Site) -> Markup:
    table = h(
        "table",
        {"class": "editions"},
        h("caption", None, _("Every edition and source in the corpus, and whether this report compares it")),
        h("thead", None, h("tr", None, [h("th", {"scope": "col"}, _(head)) for head in _EDITION_HEADS])),
        h("tbody", None, [_edition_row(x, site) for x in site.editions]),
    )
    aliases: list[Child] = []
    for year, source in site.corpus.aliases().items():
        why = site.corpus.choices.get(year) or _("the corpus settings' choice, or else the newer printing")
        said = phrase(_("{year} means {source} ({why})."), year=h("b", None, year), source=h("b", None, source),
                      why=why)  # fmt: skip
        aliases.append(h("p", {"class": "hint alias"}, said))
    return section_markup("editions", [_("Editions")], None, table, aliases)


def _edition_row(x: Listed, site: Site) -> Markup:
    """An edition of the corpus: its name, what the report does with it, its printings, articles, clauses and files."""
    e = x.edition
    clauses = sum(1 for _c in e.walk())
    files = h(
        "ul",
        {"class": "files"},
        [
            h(
                "li",
                None,
                h("code", None, s.file),
                " ",
                phrase(_("({format}, page {page})"), format=s.format, page=h("span", {"lang": "nl"}, s.page)),
            )
            for s in e.sources
        ],
    )
    return h(
        "tr",
        {"class": "compared" if x.compared_as and x.paired else "listed"},
        h("th", {"scope": "row"}, e.name),
        h("td", None, _role(x, site)),
        h("td", None, ", ".join(e.printings) or _("not stated")),
        h("td", None, article_ranges([a.address for a in e.articles()], "–") or _("none")),
        h("td", {"class": "num"}, str(clauses)),
        h("td", None, files),
    )


def _pairs_section(site: Site) -> Markup:
    """The counts of changes per pair of editions compared: one row per pair."""
    hint = h(
        "p",
        {"class": "hint"},
        _(
            "Each article is compared between the editions of this corpus that hold it, one after the other; an "
            "edition whose corpus lacks the article, or holds only some of its sections' pages between editions "
            "that hold more of it, is passed over. "
            "Each clause counts once, under the kind of its change; an editorial-only change counts as modified "
            "(or split, merged) and is named in brackets. Renumbered, moved and titles changed count some of "
            "those same clauses again. Normative: a change whose words touch what the rule requires (a modal verb, "
            "a negation, who acts, a number, a condition); a retargeted reference alone is not normative, and a "
            "clause added or removed whole is counted as added or removed only. The same substitution made in "
            "several clauses (a drafting pattern) is one normative change, listed below the table with its clauses."
        ),
    )
    heading: list[Child] = [_("Changes per pair of editions")]
    if not site.totals:
        nothing = _("No article is held by two of these editions: there is nothing to compare.")
        return section_markup("pairs", heading, None, hint, h("p", {"class": "note"}, nothing))
    columns = _PairColumns.of(site.totals)
    order = [e.name for e in site.compared]
    table = h(
        "table",
        {"class": "totals"},
        h("caption", None, _("Counts of changes per pair of editions compared")),
        h("colgroup", None, h("col"), h("col")),
        h("colgroup", {"span": str(len(columns.kinds))}),
        h("colgroup", {"span": str(len(columns.flags) + columns.stale), "class": "flags"}),
        h("colgroup", {"span": "2"}),
        _pairs_head(columns),
        h("tbody", None, [_pair_row(site, t, order, columns) for t in site.totals]),
    )
    return section_markup(
        "pairs",
        heading,
        None,
        hint,
        scroll_box(_("Counts of changes per pair of editions"), table),
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
    said = _("Drafting patterns {old} → {new}").format(old=t.old.name, new=t.new.name)
    return [h("h3", None, said), found] if found is not None else []


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
            kinds += (OUTSIDE,)
        return cls(kinds, FLAG_COUNTS, any(t.stale for t in totals))


def _pairs_head(columns: _PairColumns) -> Markup:
    """The table's two rows of heads: groups of columns above, the columns themselves below."""
    kinds, flags, stale = columns.kinds, columns.flags, columns.stale
    groups = h(
        "tr",
        None,
        h("th", {"scope": "col", "rowspan": "2"}, _("Editions")),
        h("th", {"scope": "col", "rowspan": "2"}, _("Articles")),
        h(
            "th",
            {"scope": "colgroup", "colspan": str(len(kinds)), "class": "group"},
            _("Kind of change (each clause once)"),
        ),
        h(
            "th",
            {"scope": "colgroup", "colspan": str(len(flags) + stale), "class": "group flags"},
            _("Of these clauses"),
        ),
        h("th", {"scope": "colgroup", "colspan": "2", "class": "group"}, _("Differences")),
    )
    heads = h(
        "tr",
        None,
        [h("th", {"scope": "col", "class": "num"}, count_word(key).capitalize()) for key, _w in kinds],
        [h("th", {"scope": "col", "class": "num flag"}, count_word(key).capitalize()) for key, _w in flags],
        h("th", {"scope": "col", "class": "num flag"}, _("Stale references")) if stale else None,
        h("th", {"scope": "col", "class": "num"}, _("Normative")),
        h("th", {"scope": "col", "class": "num"}, _("Other wording")),
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
            _("{editions} passed over: its corpus lacks these articles or holds them in part").format(
                editions=", ".join(between)
            ),
        )
        if between
        else None,
        " ",
        h(
            "a",
            {
                "class": "sub",
                "href": correlation_file(t.old.name, t.new.name),
                "aria-label": _("correlation table {old} → {new}").format(old=t.old.name, new=t.new.name),
            },
            _("correlation table"),
        ),
    )


def _count_cell(n: int, extra: str = "", flag: bool = False) -> Markup:
    cls = "num" + (" flag" if flag else "") + ("" if n else " zero")
    return h("td", {"class": cls}, str(n), h("span", {"class": "sub"}, extra) if extra else None)


def _review_hint(site: Site) -> Markup | None:
    """Under the counts, when the report shows the committee's review: where its other decisions are."""
    if site.review is None:
        return None
    said = _("The committee's review is shown as it stood when this report was made; {decisions} are listed apart.")
    decisions = h("a", {"href": REVIEW_FILE}, _("decisions that sit on no change"))
    return h("p", {"class": "hint"}, phrase(said, decisions=decisions))
