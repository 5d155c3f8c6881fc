"""The side-by-side view of one pair of editions: rows, kinds of change, counts."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from lawdiff.align import Aspect
from lawdiff.diff import SHORT_ID, Change, ChangeKind, Op, Piece, RefChange, word_diff
from lawdiff.diff.article import HEAT_NAMES, HEAT_SYMBOLS, Heat, PairView
from lawdiff.diff.records import Flag, RefStatus, Signal
from lawdiff.model import Clause, Edition, Kind, article_of
from lawdiff.report.html.law import _Clauses, _Page, split_side
from lawdiff.report.html.markup import GENERATOR, Child, Markup, _section, h, span
from lawdiff.report.site import Annotator, Site, anchor, correlation_file, pair_id

# ---------------------------------------------------------------------------
# The side-by-side view of one pair


_KIND_WORD = {
    "unchanged": "unchanged",
    "modified": "modified",
    "split": "split",
    "merged": "merged",
    "added": "added",
    "removed": "removed",
}


def _pct(x: float) -> str:
    """A share as a percentage that never rounds a difference away.

    0.998 is "99.8 %", not "100 %", and 0.002 is "0.2 %", not "0 %": only
    what is identical reads 100 % (or, for a share of change, 0 %).
    """
    if x <= 0:
        return "0 %"
    if x >= 1:
        return "100 %"
    whole = round(x * 100)
    if 0 < whole < 100:
        return f"{whole} %"
    tenth = round(x * 100, 1)
    if 0 < tenth < 100:
        return f"{tenth:.1f} %"
    return "<0.1 %" if x < 0.5 else ">99.9 %"


def _similarity(ch: Change) -> str:
    if ch.similarity >= 1:
        # A title changed, or a split cut the same words differently.
        return "no word of the text changed"
    return f"similarity {_pct(ch.similarity)}"


# The kinds of change: each change is counted under exactly one of them.
KIND_COUNTS = (
    ("unchanged", "unchanged"),
    ("modified", "modified"),
    ("split", "split"),
    ("merged", "merged"),
    ("added", "added"),
    ("removed", "removed"),
)
# What may be true of a change of any kind, counted among those above.
FLAG_COUNTS = (
    ("renumbered", "renumbered"),
    ("moved", "moved"),
    ("title_changed", "titles changed"),
)
_OUTSIDE = ("outside_corpus", "outside the corpus")


def _editorial_note(key: str, editorial: Mapping[str, int]) -> str:
    k = editorial.get(key, 0)
    return f" ({k} editorial only)" if k else ""


def counts_phrase(counts: Mapping[str, int], editorial: Mapping[str, int], stale: int = 0) -> str:
    """``5 modified (1 editorial only), 3 renumbered``: the counts that are not zero, in words."""
    parts = [
        f"{counts[key]} {word}{_editorial_note(key, editorial)}"
        for key, word in (*KIND_COUNTS, _OUTSIDE, *FLAG_COUNTS)
        if counts.get(key)
    ]
    if stale:
        parts.append(f"{stale} stale reference{'s' if stale > 1 else ''}")
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class SignificanceCounts:
    """How many of a pair's changes may change a rule, and which flags they raised.

    normative: rewordings (a clause on both sides: modified, split, merged)
        with any flag but ``reference``.
    wording: the other rewordings whose words changed, editorial-only ones
        not counted (they are counted under their kind).  A clause added or
        removed whole is neither: it has no flags (see
        :func:`lawdiff.diff.changes.compare`) and is counted under its kind.
    flags: per flag, how many differences raised it.
    """

    normative: int
    wording: int
    flags: dict[str, int]


def significance_counts(changes: Iterable[Change]) -> SignificanceCounts:
    """Counted over the differences both corpora could hold, each change once."""
    normative = wording = 0
    flags = {f.value: 0 for f in Flag}
    seen: set[int] = set()
    for ch in changes:
        if not ch.is_difference or not ch.counterpart_in_corpus or not (ch.old and ch.new) or id(ch) in seen:
            continue
        seen.add(id(ch))
        for sig in ch.signals:
            flags[sig.flag.value] += 1
        if ch.normative:
            normative += 1
        elif not ch.editorial_only and any(p.op is not Op.EQUAL for p in ch.diff):
            wording += 1
    return SignificanceCounts(normative, wording, flags)


def counts_list(
    counts: Mapping[str, int],
    editorial: Mapping[str, int] | None = None,
    stale: int = 0,
    significance: SignificanceCounts | None = None,
) -> Markup:
    """The counts of a comparison in the order the committee reads them.

    First the kinds, under which every change counts once (an editorial-only
    change counts as modified, and says so in brackets); then, apart, what
    is true of some of those changes (renumbered, moved, titles changed);
    then how many are normative (a flag other than ``reference``) and how
    many other changes of wording there are, with the flags raised.
    """
    editorial = editorial or {}
    kinds: list[Child] = [
        h(
            "li",
            {"class": "zero" if counts.get(key, 0) == 0 else "n"},
            h("b", None, str(counts.get(key, 0))),
            f" {word}{_editorial_note(key, editorial)}",
        )
        for key, word in KIND_COUNTS
    ]
    if counts.get(_OUTSIDE[0]):
        kinds.append(
            h(
                "li",
                {"class": "n"},
                h("b", None, str(counts[_OUTSIDE[0]])),
                " added or removed where the other edition's corpus lacks the article",
            )
        )
    flags: list[Child] = [h("li", {"class": "of"}, "of these:")]
    for key, word in FLAG_COUNTS:
        n = counts.get(key, 0)
        flags.append(h("li", {"class": "zero" if n == 0 else "n"}, h("b", None, str(n)), f" {word}"))
    if stale:
        flags.append(
            h("li", {"class": "n stale"}, h("b", None, str(stale)), f" stale reference{'s' if stale > 1 else ''}")
        )
    sig = None
    if significance is not None:
        raised = [f"{n} {flag}" for flag, n in significance.flags.items() if n]
        sig = h(
            "ul",
            {"class": "significance"},
            h("li", {"class": "of"}, "of the rewordings:"),
            h(
                "li",
                {"class": "zero" if significance.normative == 0 else "n normative"},
                h("b", None, str(significance.normative)),
                " normative",
            ),
            h(
                "li",
                {"class": "zero" if significance.wording == 0 else "n"},
                h("b", None, str(significance.wording)),
                " other changes of wording",
            ),
            h("li", {"class": "raised"}, f"(flags: {', '.join(raised)})") if raised else None,
        )
    return h("div", {"class": "counts"}, h("ul", {"class": "kinds"}, kinds), h("ul", {"class": "flags"}, flags), sig)


def _ref_item(r: RefChange, page: _Page, old: str, new: str, moved_to: tuple[str, ...] = ()) -> Markup:
    def target(edition: str, address: str) -> Markup:
        href = page.resolve(edition, address)
        return h("a", {"href": href}, address) if href else h("span", None, address)

    verdict = {True: "consistent", False: "not the successor of the old target", None: "not verifiable in this corpus"}
    if r.status is RefStatus.ADDED:
        return h("li", {"class": "ref-added"}, "reference added: ", target(new, r.new))
    if r.status is RefStatus.REMOVED:
        return h("li", {"class": "ref-removed"}, "reference removed: ", target(old, r.old))
    if r.status is RefStatus.KEPT:
        went: list[Child] = []
        for i, a in enumerate(moved_to):
            went.extend([", " if i else None, target(new, a)])
        return h(
            "li",
            {"class": "ref-kept"},
            "reference ",
            target(old, r.old),
            " kept as written, but ",
            *(([f"{old} {r.old} is now {new} ", *went]) if went else [f"{old} {r.old} is no longer at {r.new}"]),
            ": check the reference",
        )
    return h(
        "li",
        {"class": "ref-retargeted"},
        "reference retargeted: ",
        target(old, r.old),
        " → ",
        target(new, r.new),
        f" ({verdict[r.consistent]})",
    )


def _arrow(old: tuple[str, ...], new: tuple[str, ...]) -> str:
    return f"{', '.join(old)} → {', '.join(new)}"


def kind_cell(
    ch: Change,
    pv_old: Edition,
    pv_new: Edition,
    page: _Page,
    moved_targets: Mapping[str, tuple[str, ...]] | None = None,
    rowspan: int = 1,
    extra: Markup | None = None,
    history: Markup | None = None,
) -> Markup:
    """The middle column: what kind of change, in words; its flags; the clause's history.

    ``moved_targets``: where the old targets of stale references went.
    What only some readers need (the similarity score, the change's id, the
    alignment's score and reasons) is behind a ``details`` disclosure, so that
    the column reads as the kind of change and what it touched.
    """
    head = "heading " if ch.aspect is Aspect.TITLE else ""
    out: list[Child] = [span(f"badge b-{ch.kind.value}", head + _KIND_WORD[ch.kind.value])]
    if ch.editorial_only:
        out += [" ", _BADGE_EDITORIAL]
    if ch.stale_references:
        out += [" ", _BADGE_STALE]
    if ch.title_changed and ch.aspect is Aspect.TEXT:
        out += [" ", _BADGE_TITLE]
    if ch.uncertain:
        out += [" ", _BADGE_UNCERTAIN]
    if ch.renumbered:
        out.append(
            h("div", {"class": "renum"}, _BADGE_RENUMBERED, " ", h("span", {"class": "arrow"}, _arrow(ch.old, ch.new)))
        )
    if ch.moved:
        out.append(h("div", {"class": "moved"}, _BADGE_MOVED, " ", _moves(ch, pv_old, pv_new, page)))
    if ch.signals and ch.is_difference:
        out.append(flag_list(ch.signals, words=bool(ch.old and ch.new)))
    if not ch.counterpart_in_corpus:
        other = pv_old.name if ch.new else pv_new.name
        out.append(h("div", {"class": "note"}, f"the {other} corpus does not hold this article"))
    refs = [r for r in ch.references if r.status is not RefStatus.KEPT or r.consistent is False]
    if refs:
        moved = moved_targets or {}
        items = [_ref_item(r, page, pv_old.name, pv_new.name, moved.get(r.old, ())) for r in refs]
        out.append(h("ul", {"class": "refs"}, items))
    if history is not None:
        out.append(history)
    out.append(_more(ch))
    if extra is not None:
        out.append(extra)
    return h("td", {"class": "kind", "rowspan": str(rowspan) if rowspan > 1 else None}, out)


def _more(ch: Change) -> Markup:
    """The numbers behind a row, for whoever wants them: similarity, id, the alignment's evidence."""
    # Plain text, one line each (no list): this is in every row of every page.
    items: list[Child] = []
    if ch.kind in (ChangeKind.MODIFIED, ChangeKind.SPLIT, ChangeKind.MERGED):
        items += [h("span", {"class": "sim"}, _similarity(ch)), _BR]
    if ch.uncertain:
        items += [f"match score {ch.score:.2f}: {'; '.join(ch.reasons)}", _BR]
    if ch.pinned_by:
        items += [f"linked by hand by {ch.pinned_by}", _BR]
    if ch.id:
        items += ["id ", h("code", None, ch.id[:SHORT_ID])]
    return h("details", {"class": "more"}, _MORE, items)


_MORE = h("summary", None, "details")
_BR = h("br")


def flag_list(signals: Iterable[Signal], words: bool = True) -> Markup:
    """The significance flags of a change, each with the words that raised it (removed, then added).

    The flags are hints for the committee, which decides; an added or removed
    clause's flags would name every word of their kind, so ``words=False``
    gives the flags alone.
    """
    items: list[Child] = []
    for s in signals:
        shown: list[Child] = []
        if words:
            shown = [[" ", h("del", None, w)] for w in s.removed]
            shown += [[" ", h("ins", None, w)] for w in s.added]
        items.append(
            h(
                "li",
                {"class": f"flag f-{s.flag.value}"},
                span("fl", s.flag.value),
                h("span", {"class": "w", "lang": "nl"}, shown) if shown else None,
            )
        )
    return h("ul", {"class": "sig", "aria-label": "What the change touched"}, items)


_BADGE_EDITORIAL = h("span", {"class": "badge b-editorial"}, "editorial only")
_BADGE_STALE = h("span", {"class": "badge b-stale"}, "stale reference")
_BADGE_TITLE = h("span", {"class": "badge b-title"}, "title changed")
_BADGE_RENUMBERED = h("span", {"class": "badge b-renumbered"}, "renumbered")
_BADGE_MOVED = h("span", {"class": "badge b-moved"}, "moved")
_BADGE_UNCERTAIN = h("span", {"class": "badge b-uncertain"}, "uncertain match")


def _moves(ch: Change, old: Edition, new: Edition, page: _Page) -> list[Child]:
    """``from article 12 (12C) to article 13 (13A)``, each address linked where the report has it."""

    def side(edition: Edition, addresses: tuple[str, ...]) -> list[Child]:
        out: list[Child] = []
        for art in dict.fromkeys(article_of(a) for a in addresses):
            if out:
                out.append(", ")
            out.append(f"article {art} (")
            for i, a in enumerate(x for x in addresses if article_of(x) == art):
                href = page.resolve(edition.name, a)
                out.extend([", " if i else None, h("a", {"href": href}, a) if href else a])
            out.append(")")
        return out

    return ["from ", *side(old, ch.old), " to ", *side(new, ch.new)]


@dataclass(frozen=True, slots=True)
class _PairContext:
    old: Edition
    new: Edition
    prefix: str  # id prefix of this view's clause blocks
    moved_targets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # of stale references
    # The link to a clause's history page (edition, address) -> href, or None where there is none.
    history: Callable[[str, str], str | None] | None = None


def _block_id(ctx: _PairContext, edition: str, address: str, heading: bool = False) -> str:
    """``diff-2007-2017-2017-45C4b``; a heading's own row ends in ``-title``."""
    return f"{ctx.prefix}-{anchor(edition, address)}" + ("-title" if heading else "")


def pair_table(
    ctx: _PairContext,
    changes: Iterable[Change],
    page: _Page,
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
    old_r = _Clauses(page, ctx.old)
    new_r = _Clauses(page, ctx.new)
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
                return f"#{_block_id(ctx, edition, f.address)}"
            return page.resolve(edition, f.address)

        return href

    fns = (fn_href(ctx.old.name, in_view_old), fn_href(ctx.new.name, in_view_new))
    head, foot = running_rows(*running, 3) if running else (None, None)
    return h(
        "table",
        {"class": "sbs"},
        h("caption", None, caption),
        _COLGROUP,
        h(
            "thead",
            None,
            head,
            h(
                "tr",
                None,
                h("th", {"scope": "col", "class": "old"}, _edition_head(ctx.old)),
                h("th", {"scope": "col", "class": "kind"}, "Change"),
                h("th", {"scope": "col", "class": "new"}, _edition_head(ctx.new)),
            ),
        ),
        foot,
        [_change_rows(ch, ctx, page, (old_r, new_r), chip, fns, titled, annotate) for ch in changes],
    )


def running_rows(head: str, foot: str, columns: int) -> tuple[Markup, Markup]:
    """A table's running head and foot on paper: the first row of its ``thead``, and its ``tfoot``.

    A browser repeats a table's head and foot on every printed page the table
    runs over (Chromium, Firefox and WebKit alike), so these carry the pair,
    the sources and lawdiff's version onto each page of a printed pair,
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
    return [f"{number}: {old} ", _LEFT, f" and {new} ", _RIGHT]


_LEFT = h("span", {"class": "lr"}, "(left)")
_RIGHT = h("span", {"class": "lr"}, "(right)")


_COLGROUP = h(
    "colgroup",
    None,
    h("col", {"class": "c-old"}),
    h("col", {"class": "c-kind"}),
    h("col", {"class": "c-new"}),
)


def _edition_head(e: Edition) -> list[Child]:
    printing = ", ".join(e.printings)
    return [e.name, h("span", {"class": "printing"}, f" {printing}") if printing else None]


def _change_rows(
    ch: Change,
    ctx: _PairContext,
    page: _Page,
    renderers: tuple[_Clauses, _Clauses],
    chip: Callable[[str, str, str], str | None],
    fns: tuple[Callable[[Clause], str | None], Callable[[Clause], str | None]],
    titled: tuple[set[str], set[str]],
    annotate: Annotator | None = None,
) -> Markup:
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
    olds = [c for c in (ctx.old.find(a) for a in ch.old) if c is not None]
    news = [c for c in (ctx.new.find(a) for a in ch.new) if c is not None]
    if any(c.kind is Kind.FOOTNOTE for c in olds + news):
        classes.append("footnote")
    note = annotate(ch, ctx.old.name, ctx.new.name) if annotate else None
    if note:
        classes.extend(note.classes)
    title_aspect = ch.aspect is Aspect.TITLE
    old_parts = split_side(ch.diff, "old", ch.old_texts)
    new_parts = split_side(ch.diff, "new", ch.new_texts)
    title_diff: tuple[Piece, ...] = ()
    if not title_aspect and ch.title_changed:
        title_diff = word_diff(ch.old_title, ch.new_title)

    def blocks(side: int, clauses: list[Clause], parts: list[list[tuple[Op, str]]]) -> list[Markup]:
        edition = (ctx.old.name, ctx.new.name)[side]
        fn = fns[side]
        r = renderers[side]
        out: list[Markup] = []
        for c, segs in zip(clauses, parts, strict=True):
            title: list[tuple[Op, str]] | None
            if title_aspect:
                title, text = segs, []
            else:
                text = segs
                if title_diff and len(clauses) == 1:
                    title = split_side(title_diff, ("old", "new")[side], (c.title,))[0]
                elif c.address in titled[side]:
                    title = []
                else:
                    title = None
            ident = page.claim(_block_id(ctx, edition, c.address, title_aspect))
            out.append(r.block(c, ident, chip(edition, c.address, ident or ""), title, text, fn))
        return out

    old_blocks = blocks(0, olds, old_parts)
    new_blocks = blocks(1, news, new_parts)
    n = max(len(old_blocks), len(new_blocks), 1)
    rows = [
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
    # The change's id is the row's second anchor (the clauses' anchors are the citation contract).
    ident = page.claim(f"change-{ch.id[:SHORT_ID]}") if ch.id else None
    return h("tbody", {"class": " ".join(classes), "id": ident}, rows)


def _history_link(ch: Change, ctx: _PairContext) -> Markup | None:
    """``history of 2017 45C4(b)``: the new clause's history, or for a removal the old one's."""
    if ctx.history is None:
        return None
    for edition, addresses in ((ctx.new.name, ch.new), (ctx.old.name, ch.old)):
        for a in addresses:
            href = ctx.history(edition, a)
            if href:
                return h("a", {"class": "hist", "href": href, "aria-label": f"history of {edition} {a}"}, "history")
    return None


def _side_cell(side: str, edition: Edition, blocks: list[Markup], i: int, n: int, ch: Change) -> Markup | None:
    """Cell ``i`` of one side; the last clause of the shorter side spans the rest."""
    if not blocks:
        if i:
            return None
        note = f"not in {edition.name}" if ch.counterpart_in_corpus else f"not in the {edition.name} corpus"
        return h(
            "td", {"class": f"{side} empty", "rowspan": str(n) if n > 1 else None}, h("span", {"class": "none"}, note)
        )
    if i >= len(blocks):
        return None
    span = n - i if i == len(blocks) - 1 and n > len(blocks) else 1
    return h("td", {"class": side, "rowspan": str(span) if span > 1 else None}, blocks[i])


def pair_section(pv: PairView, page: _Page, site: Site, number: str) -> Markup:
    pid = pair_id(pv.old.name, pv.new.name)
    path = page.path
    ctx = _PairContext(pv.old, pv.new, pid, pv.moved_targets, lambda e, a: site.history_href(e, a, path))

    def chip(edition: str, address: str, _ident: str) -> str | None:
        return site.href(edition, address, path)

    pair = f"{pv.old.name} → {pv.new.name}"
    root = "../" if "/" in path else ""
    links = h(
        "p",
        {"class": "pair-links"},
        h("a", {"class": "print-link", "href": f"#print-{pid}"}, "Print this pair"),
        " · ",
        h("a", {"href": f"{root}{correlation_file(pv.old.name, pv.new.name)}"}, f"Correlation table {pair}"),
    )
    # "Print this pair" leads to this (empty) target: while it is the page's
    # :target, the print stylesheet prints this section alone (see report.css).
    # A separate printable page per pair would double the report's size; a
    # target needs no script (report.js only opens the print dialog at once)
    # and the reader's own Ctrl-P prints what the screen says it will.
    target = h("span", {"class": "print-target", "id": f"print-{pid}"})
    note = h(
        "p",
        {"class": "print-note"},
        f"Printing this page now gives {pair} alone (Ctrl+P, or the browser's Print). ",
        h("a", {"href": "#top"}, "Print the whole page instead"),
        ".",
    )
    running = (
        f"Article {number} · {pair} · {sources_line(pv.old, number)}; {sources_line(pv.new, number)}",
        f"Made by {GENERATOR}: law text as read from the sources, never altered.",
    )
    section = _section(
        pid,
        [f"{pair} ", _heat_tag(pv.heat)],
        "pair",
        target,
        links,
        note,
        counts_list(pv.heat.counts, pv.heat.editorial, pv.heat.stale, significance_counts(pv.changes)),
        pair_table(
            ctx,
            pv.changes,
            page,
            chip,
            left_right(f"Article {number}", pv.old.name, pv.new.name),
            site.annotate,
            running,
        ),
    )
    page.ids.update({pid, f"{pid}-h", f"print-{pid}"})
    return section


def sources_line(e: Edition, number: str) -> str:
    """``2017 (3e druk): 2017/nuxt-artikel-45.payload.json``: the files an edition's article was read from."""
    art = e.find(number)
    files = list(dict.fromkeys(c.source.file for c in art.walk() if c.source.file)) if art is not None else []
    printing = ", ".join(e.printings)
    return f"{e.name}" + (f" ({printing})" if printing else "") + (f": {', '.join(files)}" if files else "")


def _heat_tag(heat: Heat) -> Markup:
    return h(
        "span",
        {"class": f"heat-tag h{heat.level}"},
        f"{HEAT_SYMBOLS[heat.level]} {HEAT_NAMES[heat.level]}, {_pct(heat.share)} of words changed",
    )
