"""The side-by-side view of one pair of editions: its section, its table and the rows of each change."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lawdiff import i18n
from lawdiff.align import Aspect
from lawdiff.diff import SHORT_ID, Change, ChangeKind, Op, Piece
from lawdiff.diff.article import HEAT_SYMBOLS, Heat, PairView
from lawdiff.i18n import gettext as _
from lawdiff.model import Clause, Edition, Kind
from lawdiff.report.html.context import PairContext, block_id
from lawdiff.report.html.counts import counts_list, heat_name, pattern_list, percent, significance_counts
from lawdiff.report.html.kind import kind_cell
from lawdiff.report.html.law import ClauseRows, Page, split_side
from lawdiff.report.html.markup import Child, Markup, h, made_by, phrase, section_markup
from lawdiff.report.html.nav import article_name
from lawdiff.report.html.runs import Runs
from lawdiff.report.html.template import Template
from lawdiff.report.site import Annotation, Annotator, Site, correlation_file, pair_id


def pair_table(
    ctx: PairContext,
    changes: Iterable[Change],
    page: Page,
    chip: Callable[[str, str, str], str | None],
    caption: Child,
    annotate: Annotator | None = None,
    running: tuple[str, str] | None = None,
) -> Markup:
    """The side-by-side table: old | change | new, one ``tbody`` per change.

    A split puts its one old clause beside its several new ones (the old
    cell spans their rows); a merge the other way round.  ``running``: the
    running head and foot of the printed pages (see :func:`running_rows`).
    """
    old_r = ClauseRows(page, ctx.old)
    new_r = ClauseRows(page, ctx.new)
    changes = list(changes)
    in_view_old = {a for ch in changes for a in ch.old}
    in_view_new = {a for ch in changes for a in ch.new}
    # A heading with a row of its own is not repeated above its text.
    titled = (
        {a for ch in changes if ch.aspect is Aspect.TITLE for a in ch.old},
        {a for ch in changes if ch.aspect is Aspect.TITLE for a in ch.new},
    )

    def fn_href(edition: str, in_view: set[str]) -> Callable[[Clause], str | None]:
        def href(f: Clause) -> str | None:
            if f.address in in_view:
                return f"#{block_id(ctx, edition, f.address)}"
            return page.resolve(edition, f.address)

        return href

    fns = (fn_href(ctx.old.name, in_view_old), fn_href(ctx.new.name, in_view_new))
    body: list[Markup] = []
    runs = Runs(ctx, page, new_r, chip, fns[1], titled[1])
    for ch in changes:
        note = annotate(ch, ctx.old.name, ctx.new.name) if annotate else None
        if note is None and runs.take(ch):
            continue
        body.extend(runs.flush())
        body.append(_change_rows(ch, ctx, page, (old_r, new_r), chip, fns, titled, note))
    body.extend(runs.flush())
    return h("table", {"class": "sbs"}, _table_head(ctx, caption, running), body)


def _table_head(ctx: PairContext, caption: Child, running: tuple[str, str] | None) -> list[Child]:
    """A side-by-side table's caption, columns and head (with the running head and foot of its printed pages)."""
    head, foot = running_rows(*running, 3) if running else (None, None)
    return [
        h("caption", None, caption),
        _COLGROUP,
        h(
            "thead",
            None,
            head,
            h(
                "tr",
                None,
                h("th", {"scope": "col", "class": "old"}, edition_head(ctx.old)),
                h("th", {"scope": "col", "class": "kind"}, _("Change")),
                h("th", {"scope": "col", "class": "new"}, edition_head(ctx.new)),
            ),
        ),
        foot,
    ]


def running_rows(head: str, foot: str, columns: int) -> tuple[Markup, Markup]:
    """A table's running head and foot on paper: the first row of its ``thead``, and its ``tfoot``.

    A browser repeats a table's head and foot on every printed page the table
    runs over (Chromium, Firefox and WebKit alike), so these carry the pair,
    the sources, lawdiff's version and the editions' digests onto each page of a printed pair,
    without the overlap that fixed-position boxes give; the page number is
    the stylesheet's (``@page`` margin box) or the browser's own footer.  On
    screen they are not shown.
    """
    return (
        h("tr", {"class": "running", "aria-hidden": "true"}, h("td", {"colspan": str(columns)}, head)),
        h(
            "tfoot",
            {"class": "running", "aria-hidden": "true"},
            h("tr", None, h("td", {"colspan": str(columns)}, foot)),
        ),
    )


def left_right(number: str, old: str, new: str) -> list[Child]:
    """``Article 45: 2007 (left) and 2017 (right)``; the sides are not said where the columns stack (a phone)."""
    return phrase(
        _("{article}: {old} {left} and {new} {right}"),
        article=number,
        old=old,
        new=new,
        left=h("span", {"class": "lr"}, _("(left)")),
        right=h("span", {"class": "lr"}, _("(right)")),
    )


_COLGROUP = h(
    "colgroup",
    None,
    h("col", {"class": "c-old"}),
    h("col", {"class": "c-kind"}),
    h("col", {"class": "c-new"}),
)


def edition_head(e: Edition) -> list[Child]:
    printing = printings_of(e)
    return [e.name, h("span", {"class": "printing"}, f" {printing}") if printing else None]


def _change_rows(
    ch: Change,
    ctx: PairContext,
    page: Page,
    renderers: tuple[ClauseRows, ClauseRows],
    chip: Callable[[str, str, str], str | None],
    fns: tuple[Callable[[Clause], str | None], Callable[[Clause], str | None]],
    titled: tuple[set[str], set[str]],
    note: Annotation | None,
) -> Markup:
    olds = [c for c in (ctx.old.find(a) for a in ch.old) if c is not None]
    news = [c for c in (ctx.new.find(a) for a in ch.new) if c is not None]
    classes = _row_classes(ch, olds + news, note)
    heading = ch.aspect is Aspect.TITLE
    # What one corpus lacks is not compared: its words stand unmarked, neither inserted nor deleted.
    diff = ch.diff if ch.counterpart_in_corpus else tuple(Piece(Op.EQUAL, p.text) for p in ch.diff)
    old_parts = split_side(diff, "old", ch.old_texts) if ch.old_texts or ch.counterpart_in_corpus else []
    new_parts = split_side(diff, "new", ch.new_texts) if ch.new_texts or ch.counterpart_in_corpus else []
    title_diff = ch.title_diff
    old_segments = _clause_segments(heading, "old", olds, old_parts, title_diff, titled[0])
    new_segments = _clause_segments(heading, "new", news, new_parts, title_diff, titled[1])
    same = None
    if ch.kind is ChangeKind.UNCHANGED and len(olds) == len(news) == 1:
        # Renumbered or moved, its words as they were: they stand once, on the new side.
        old_segments = [(old_segments[0][0] if title_diff else [], [])]
        same = _SAME_WORDING(said=_("Wording as in {edition}.").format(edition=ctx.new.name))
    old_blocks = _side_blocks(ctx, ctx.old.name, olds, old_segments, heading, page, renderers[0], chip, fns[0], same)
    new_blocks = _side_blocks(ctx, ctx.new.name, news, new_segments, heading, page, renderers[1], chip, fns[1])
    rows = _side_by_side(ch, ctx, page, old_blocks, new_blocks, note)
    # The change's id is the row's second anchor (the clauses' anchors are the citation contract).
    ident = page.claim(f"change-{ch.id[:SHORT_ID]}") if ch.id else None
    return h("tbody", {"class": " ".join(classes), "id": ident}, rows)


_Segments = list[tuple[Op, str]]
_SAME_WORDING = Template('<p class="same-as">{said}</p>')


def _clause_segments(
    heading: bool,
    side: str,
    clauses: list[Clause],
    parts: list[_Segments],
    title_diff: tuple[Piece, ...],
    titled: set[str],
) -> list[tuple[_Segments | None, _Segments]]:
    """Each clause's title and text on one side of a change's row (None: the clause's own title, unmarked).

    A heading's change marks the title alone.  A text change of one clause
    also marks the difference of its title; a heading with a row of its own
    is not repeated above its text.
    """
    out: list[tuple[_Segments | None, _Segments]] = []
    for c, segs in zip(clauses, parts, strict=True):
        if heading:
            out.append((segs, []))
        elif title_diff and len(clauses) == 1:
            out.append((split_side(title_diff, side, (c.title,))[0], segs))
        elif c.address in titled:
            out.append(([], segs))
        else:
            out.append((None, segs))
    return out


def _side_blocks(
    ctx: PairContext,
    edition: str,
    clauses: list[Clause],
    segments: list[tuple[_Segments | None, _Segments]],
    heading: bool,
    page: Page,
    renderer: ClauseRows,
    chip: Callable[[str, str, str], str | None],
    fn: Callable[[Clause], str | None],
    note: Markup | None = None,
) -> list[Markup]:
    """The clause blocks of one side of a change, each claiming its anchor on the page; ``note`` below each."""
    out: list[Markup] = []
    for c, (title, text) in zip(clauses, segments, strict=True):
        ident = page.claim(block_id(ctx, edition, c.address, heading))
        href = chip(edition, c.address, ident or "")
        out.append(renderer.block(c, ident, href, title, text, fn, note=note))
    return out


def _side_by_side(
    ch: Change,
    ctx: PairContext,
    page: Page,
    old_blocks: list[Markup],
    new_blocks: list[Markup],
    note: Annotation | None,
) -> list[Markup]:
    """A change's rows: the old and new blocks side by side, the change's cell in the first row spanning all."""
    n = max(len(old_blocks), len(new_blocks), 1)
    return [
        h(
            "tr",
            None,
            _side_cell("old", ctx.old, old_blocks, i, n, ch),
            kind_cell(
                ch, ctx.old, ctx.new, page, ctx.moved_targets, n, note.markup if note else None, _history_link(ch, ctx)
            )
            if i == 0
            else None,
            _side_cell("new", ctx.new, new_blocks, i, n, ch),
        )
        for i in range(n)
    ]


def _row_classes(ch: Change, clauses: list[Clause], note: Annotation | None) -> list[str]:
    """The classes of a change's ``tbody``: its kind, its flags, the review's own (for filters and styles)."""
    stale = bool(ch.stale_references)
    # A row whose text is unchanged but whose reference went stale is a
    # finding: never filed among (or hidden with) the unchanged rows.
    classes = ["change", f"k-{ch.kind.value}", "diff" if ch.is_difference or stale else "same"]
    if stale:
        classes.append("stale")
    if ch.aspect is Aspect.TITLE:
        classes.append("heading")
    if ch.renumbered:
        classes.append("renumbered")
    if ch.editorial_only:
        classes.append("editorial")
    if ch.is_difference and ch.signals:
        if ch.normative:
            classes.append("normative")
        classes.extend(f"f-{s.flag.value}" for s in ch.signals)
    if any(c.kind is Kind.FOOTNOTE for c in clauses):
        classes.append("footnote")
    if note:
        classes.extend(note.classes)
    return classes


def _history_link(ch: Change, ctx: PairContext) -> Markup | None:
    """``history of 2017 45C4(b)``: the new clause's history, or for a removal the old one's."""
    if ctx.history is None:
        return None
    for edition, addresses in ((ctx.new.name, ch.new), (ctx.old.name, ch.old)):
        for a in addresses:
            href = ctx.history(edition, a)
            if href:
                label = _("history of {edition} {address}").format(edition=edition, address=a)
                return h("a", {"class": "hist", "href": href, "aria-label": label}, _("history"))
    return None


def _side_cell(side: str, edition: Edition, blocks: list[Markup], i: int, n: int, ch: Change) -> Markup | None:
    """Cell ``i`` of one side; the last clause of the shorter side spans the rest."""
    if not blocks:
        if i:
            return None
        note = (_("not in {edition}") if ch.counterpart_in_corpus else _("not in the {edition} corpus")).format(
            edition=edition.name
        )
        return h(
            "td", {"class": f"{side} empty", "rowspan": str(n) if n > 1 else None}, h("span", {"class": "none"}, note)
        )
    if i >= len(blocks):
        return None
    span = n - i if i == len(blocks) - 1 and n > len(blocks) else 1
    return _CELL(side=side, rowspan=str(span) if span > 1 else None, block=blocks[i])


# A side's cell of a change's row (a clause's block, on a line of its own), as h() would write it.
_CELL = Template('<td class="{side}" rowspan="{rowspan}">\n{block}\n</td>', block=True)


def pair_section(pv: PairView, page: Page, site: Site, number: str) -> Markup:
    pid = pair_id(pv.old.name, pv.new.name)
    path = page.path
    ctx = PairContext(pv.old, pv.new, pid, pv.moved_targets, lambda e, a: site.history_href(e, a, path), True)

    def chip(edition: str, address: str, _ident: str) -> str | None:
        return site.href(edition, address, path)

    pair = f"{pv.old.name} → {pv.new.name}"
    # "Print this pair" leads to this (empty) target: while it is the page's
    # :target, the print stylesheet prints this section alone (see report.css).
    # A separate printable page per pair would double the report's size; a
    # target needs no script (report.js only opens the print dialog at once)
    # and the reader's own Ctrl-P prints what the screen says it will.
    target = h("span", {"class": "print-target", "id": f"print-{pid}"})
    links, note = _pair_links(pv, pid, "../" if "/" in path else "")
    name = article_name(number)
    running = (
        f"{name} · {pair} · {sources_line(pv.old, number)}; {sources_line(pv.new, number)}",
        made_by(pv.old, pv.new),
    )
    # The table first: the list of drafting patterns links to the rows it claims.
    table = pair_table(ctx, pv.changes, page, chip, left_right(name, pv.old.name, pv.new.name), site.annotate, running)
    significance = significance_counts(pv.changes, site.comparisons.get((pv.old.name, pv.new.name)))

    def shown(cid: str, address: str) -> str | None:
        row = f"change-{cid[:SHORT_ID]}"
        return f"#{row}" if row in page.ids else site.href(pv.new.name, address, path)

    section = section_markup(
        pid,
        [f"{pair} ", heat_tag(pv.heat)],
        "pair",
        target,
        links,
        note,
        counts_list(pv.heat.counts, pv.heat.editorial, pv.heat.stale, significance),
        pattern_list(significance.patterns, shown),
        table,
    )
    page.ids.update({pid, f"{pid}-h", f"print-{pid}"})
    return section


def _pair_links(pv: PairView, pid: str, root: str) -> tuple[Markup, Markup]:
    """Under a pair's heading: "Print this pair" and its correlation table; and the note of what printing prints
    (the same in every article page of the pair: made once per language and kept)."""
    key = (i18n.language(), pv.old.name, pv.new.name, pid, root)
    made = _PAIR_LINKS.get(key)
    if made is None:
        if len(_PAIR_LINKS) >= 64:
            _PAIR_LINKS.clear()
        made = _PAIR_LINKS[key] = _make_pair_links(pv.old.name, pv.new.name, pid, root)
    return made


# The links under each pair's heading, by language, pair, its id and the pages' root.
_PAIR_LINKS: dict[tuple[str, str, str, str, str], tuple[Markup, Markup]] = {}


def _make_pair_links(old: str, new: str, pid: str, root: str) -> tuple[Markup, Markup]:
    links = h(
        "p",
        {"class": "pair-links"},
        h("a", {"class": "print-link", "href": f"#print-{pid}"}, _("Print this pair")),
        " · ",
        h(
            "a",
            {"href": f"{root}{correlation_file(old, new)}"},
            _("Correlation table {old} → {new}").format(old=old, new=new),
        ),
    )
    note = h(
        "p",
        {"class": "print-note"},
        phrase(
            _("Printing this page now gives {pair} alone (Ctrl+P, or the browser's Print). {instead}."),
            pair=f"{old} → {new}",
            instead=h("a", {"href": "#top"}, _("Print the whole page instead")),
        ),
    )
    return links, note


def article_files(e: Edition, number: str) -> list[str]:
    """The files an edition's article was read from, in the order of its clauses."""
    key = (id(e), number)
    known = _FILES.get(key)
    if known is None or known[0] is not e:
        art = e.find(number)
        files = list(dict.fromkeys(c.source.file for c in art.walk() if c.source.file)) if art is not None else []
        if len(_FILES) > 256:
            _FILES.clear()  # the pages of one article ask for its files several times; no more is kept
        known = _FILES[key] = (e, files)
    return known[1]


# The files of an article in an edition, by (id of the edition, number), with the edition (so that an id is
# never another's).
_FILES: dict[tuple[int, str], tuple[Edition, list[str]]] = {}


def printings_of(e: Edition) -> str:
    """The printings an edition's sources state, ``3e druk, 4e druk`` (worked out from its sources at every
    call of :attr:`Edition.printings`, which every pair table and synopsis of every page names)."""
    known = _PRINTINGS.get(id(e))
    if known is None or known[0] is not e:
        if len(_PRINTINGS) > 64:
            _PRINTINGS.clear()
        known = _PRINTINGS[id(e)] = (e, ", ".join(e.printings))
    return known[1]


# The printings of each edition, by its id, with the edition (so that an id is never another's).
_PRINTINGS: dict[int, tuple[Edition, str]] = {}


def sources_line(e: Edition, number: str) -> str:
    """``2017 (3e druk): 2017/nuxt-artikel-45.payload.json``: the files an edition's article was read from."""
    files = article_files(e, number)
    printing = printings_of(e)
    return f"{e.name}" + (f" ({printing})" if printing else "") + (f": {', '.join(files)}" if files else "")


def heat_tag(heat: Heat) -> Markup:
    """A pair's heat in words (``●● moderate, 12 % of words changed``): the same for many pairs, made once per
    language, level and share."""
    key = (i18n.language(), heat.level, heat.share)
    made = _HEAT_TAGS.get(key)
    if made is None:
        if len(_HEAT_TAGS) >= 1024:
            _HEAT_TAGS.clear()
        made = _HEAT_TAGS[key] = _heat_tag(heat)
    return made


_HEAT_TAGS: dict[tuple[str, int, float], Markup] = {}


def _heat_tag(heat: Heat) -> Markup:
    return h(
        "span",
        {"class": f"heat-tag h{heat.level}"},
        _("{symbol} {level}, {share} of words changed").format(
            symbol=HEAT_SYMBOLS[heat.level], level=heat_name(heat.level), share=percent(heat.share)
        ),
    )
