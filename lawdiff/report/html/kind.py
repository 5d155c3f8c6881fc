"""The middle column of a side-by-side table: what kind of change, its flags, references and moves."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from lawdiff.align import Aspect
from lawdiff.diff import SHORT_ID, Change, ChangeKind, RefChange, Scope
from lawdiff.diff.vocabulary import RefStatus, Signal
from lawdiff.model import Edition, article_of
from lawdiff.report.html.counts import percent
from lawdiff.report.html.law import Page
from lawdiff.report.html.markup import Child, Markup, h, span

_KIND_WORD = {
    "unchanged": "unchanged",
    "modified": "modified",
    "split": "split",
    "merged": "merged",
    "added": "added",
    "removed": "removed",
}


def _similarity(ch: Change) -> str:
    if ch.similarity >= 1:
        # A title changed, or a split cut the same words differently.
        return "no word of the text changed"
    return f"similarity {percent(ch.similarity)}"


def _ref_item(r: RefChange, page: Page, old: str, new: str, moved_to: tuple[str, ...] = ()) -> Markup:
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


def _not_held(ch: Change) -> str:
    """What of a clause only one corpus holds the other lacks, as the study scoped it (:attr:`Change.scope`):
    the article, or (some of its sections' pages given) the part where the clause lies, or the heading (a
    2017 section page prints none)."""
    if not article_of(ch.article):  # a chapter's or part's heading, or a page outside the articles
        return "this heading" if ch.aspect is Aspect.TITLE else "this page"
    if ch.scope is Scope.NOT_HELD:
        return "this article"
    return "this heading" if ch.aspect is Aspect.TITLE else "this part of the article"


def addresses_arrow(old: tuple[str, ...], new: tuple[str, ...]) -> str:
    return f"{', '.join(old)} → {', '.join(new)}"


def kind_cell(
    ch: Change,
    pv_old: Edition,
    pv_new: Edition,
    page: Page,
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
    # What one corpus lacks is no addition or removal (the study's scope, lawdiff.diff.scope): it says so.
    kind = ch.kind.value if ch.counterpart_in_corpus else "not-compared"
    word = _KIND_WORD[ch.kind.value] if ch.counterpart_in_corpus else "not compared"
    out: list[Child] = [span(f"badge b-{kind}", head + word)]
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
            h(
                "div",
                {"class": "renum"},
                _BADGE_RENUMBERED,
                " ",
                h("span", {"class": "arrow"}, addresses_arrow(ch.old, ch.new)),
            )
        )
    if ch.moved:
        out.append(h("div", {"class": "moved"}, _BADGE_MOVED, " ", _moves(ch, pv_old, pv_new, page)))
    if ch.signals and ch.is_difference:
        out.append(flag_list(ch.signals, words=bool(ch.old and ch.new)))
    if not ch.scope.compared:
        other = pv_old if ch.new else pv_new
        out.append(h("div", {"class": "note"}, f"the {other.name} corpus does not hold {_not_held(ch)}"))
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


def _moves(ch: Change, old: Edition, new: Edition, page: Page) -> list[Child]:
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
