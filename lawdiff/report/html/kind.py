"""The middle column of a side-by-side table: what kind of change, its flags, references and moves."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping

from lawdiff import i18n
from lawdiff.align import Aspect
from lawdiff.diff import SHORT_ID, Change, ChangeKind, RefChange, Scope
from lawdiff.diff.vocabulary import RefStatus, Signal
from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.i18n.said import say
from lawdiff.model import Edition, article_of
from lawdiff.report.html.counts import percent
from lawdiff.report.html.law import Page
from lawdiff.report.html.markup import Child, Markup, h, phrase, span
from lawdiff.report.html.template import Template, each_in
from lawdiff.report.text import number


def kind_word(kind: str, heading: bool = False) -> str:
    """A kind of change in words ("modified", "gewijzigd"); of a heading's own change, "heading modified"."""
    return _("heading {kind}").format(kind=terms.kind(kind)) if heading else terms.kind(kind)


def step_word(word: str) -> str:
    """A word of a synopsis's step (:attr:`lawdiff.diff.synopsis.SynopsisRow.steps`: a kind, "renumbered",
    "stale reference", "heading changed", "not compared") in the interface's language."""
    if word.startswith("heading "):
        rest = word.removeprefix("heading ")
        if rest == "changed":
            return _("heading changed")
        if rest == "changed (editorial)":
            return _("heading changed (editorial)")
        return kind_word(rest, heading=True)
    if word == "stale reference":
        return _("stale reference")
    if word == "not compared":
        return _("not compared")
    if word in ("renumbered", "moved", "editorial only", "title changed"):
        return terms.note(word)
    return terms.kind(word)


def _similarity(ch: Change) -> str:
    if ch.similarity >= 1:
        # A title changed, or a split cut the same words differently.
        return _("no word of the text changed")
    return _("similarity {percent}").format(percent=percent(ch.similarity))


def _ref_item(r: RefChange, page: Page, old: str, new: str, moved_to: tuple[str, ...] = ()) -> Markup:
    def target(edition: str, address: str) -> Markup:
        href = page.resolve(edition, address)
        return h("a", {"href": href}, address) if href else h("span", None, address)

    if r.status is RefStatus.ADDED:
        return h("li", {"class": "ref-added"}, phrase(_("reference added: {target}"), target=target(new, r.new)))
    if r.status is RefStatus.REMOVED:
        return h("li", {"class": "ref-removed"}, phrase(_("reference removed: {target}"), target=target(old, r.old)))
    if r.status is RefStatus.KEPT:
        went: list[Child] = []
        for i, a in enumerate(moved_to):
            went.extend([", " if i else None, target(new, a)])
        said = (
            _("reference {target} kept as written, but {old} {address} is now {new} {targets}: check the reference")
            if went
            else _("reference {target} kept as written, but {old} {address} is no longer at {at}: check the reference")
        )
        fields = {"target": target(old, r.old), "old": old, "address": r.old, "new": new, "targets": went, "at": r.new}
        return h("li", {"class": "ref-kept"}, phrase(said, **fields))
    verdict = {
        True: _("consistent"),
        False: _("not the successor of the old target"),
        None: _("not verifiable in this corpus"),
    }
    return h(
        "li",
        {"class": "ref-retargeted"},
        phrase(
            _("reference retargeted: {old} → {new} ({verdict})"),
            old=target(old, r.old),
            new=target(new, r.new),
            verdict=verdict[r.consistent],
        ),
    )


def _not_held(ch: Change) -> str:
    """What of a clause only one corpus holds the other lacks, as the study scoped it (:attr:`Change.scope`):
    the article, or (some of its sections' pages given) the part where the clause lies, or the heading (a
    2017 section page prints none); said as a sentence whose ``{edition}`` is the other edition's name."""
    heading = ch.aspect is Aspect.TITLE
    if not article_of(ch.article):  # a chapter's or part's heading, or a page outside the articles
        return (
            _("the {edition} corpus does not hold this heading")
            if heading
            else _("the {edition} corpus does not hold this page")
        )
    if ch.scope is Scope.NOT_HELD:
        return _("the {edition} corpus does not hold this article")
    return (
        _("the {edition} corpus does not hold this heading")
        if heading
        else _("the {edition} corpus does not hold this part of the article")
    )


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
    heading = ch.aspect is Aspect.TITLE
    badges = _badges(i18n.language())
    # What one corpus lacks is no addition or removal (the study's scope, lawdiff.diff.scope): it says so.
    if ch.counterpart_in_corpus:
        out: list[Child] = [span(f"badge b-{ch.kind.value}", kind_word(ch.kind.value, heading))]
    else:
        out = [span("badge b-not-compared", _("heading not compared") if heading else _("not compared"))]
    if ch.editorial_only:
        out += [" ", badges["editorial"]]
    if ch.stale_references:
        out += [" ", badges["stale"]]
    if ch.title_changed and ch.aspect is Aspect.TEXT:
        out += [" ", badges["title"]]
    if ch.uncertain:
        out += [" ", badges["uncertain"]]
    if ch.renumbered:
        out.append(
            h(
                "div",
                {"class": "renum"},
                badges["renumbered"],
                " ",
                h("span", {"class": "arrow"}, addresses_arrow(ch.old, ch.new)),
            )
        )
    if ch.moved:
        out.append(h("div", {"class": "moved"}, badges["moved"], " ", _moves(ch, pv_old, pv_new, page)))
    if ch.signals and ch.is_difference:
        out.append(flag_list(ch.signals, words=bool(ch.old and ch.new)))
    if not ch.scope.compared:
        other = pv_old if ch.new else pv_new
        out.append(h("div", {"class": "note"}, _not_held(ch).format(edition=other.name)))
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
        items += [_SIM(text=_similarity(ch)), _BR]
    if ch.uncertain:
        score = number(ch.score, ".2f")
        items += [_("match score {score}: {reasons}").format(score=score, reasons="; ".join(map(say, ch.reasons))), _BR]
    if ch.pinned_by:
        items += [_("linked by hand by {name}").format(name=say(ch.pinned_by)), _BR]
    if ch.id:
        items += [phrase(_("id {id}"), id=_CODE(text=ch.id[:SHORT_ID]))]
    return _MORE(summary=_badges(i18n.language())["more"], items=items)


_BR = h("br")
# In every row of every pair table: templates, as h() would write them (the summary a block on a line of its own).
_MORE = Template('<details class="more">\n{summary}\n{items}</details>', block=True)
_SIM = Template('<span class="sim">{text}</span>')
_CODE = Template("<code>{text}</code>")
# A word that raised a flag, removed or added, after a space.
_FLAG_DEL, _FLAG_INS = Template(" <del>{text}</del>"), Template(" <ins>{text}</ins>")


def flag_list(signals: Iterable[Signal], words: bool = True) -> Markup:
    """The significance flags of a change, each with the words that raised it (removed, then added).

    The flags are hints for the committee, which decides; an added or removed
    clause's flags would name every word of their kind, so ``words=False``
    gives the flags alone.
    """
    items: list[Child] = []
    for s in signals:
        shown: Markup | None = None
        if words and (s.removed or s.added):
            # A rewording of a long clause raises a flag for thousands of words: written in one join.
            shown = each_in([*((_FLAG_DEL, w) for w in s.removed), *((_FLAG_INS, w) for w in s.added)])
        items.append(
            h(
                "li",
                {"class": f"flag f-{s.flag.value}"},
                span("fl", terms.flag(s.flag.value)),
                h("span", {"class": "w", "lang": "nl"}, shown) if shown else None,
            )
        )
    return h("ul", {"class": "sig", "aria-label": _("What the change touched")}, items)


@functools.cache
def _badges(lang: str) -> dict[str, Markup]:
    """The badges the same on many rows, made once per language (``lang``: the language in force)."""
    return {
        "editorial": h("span", {"class": "badge b-editorial"}, terms.note("editorial only")),
        "stale": h("span", {"class": "badge b-stale"}, _("stale reference")),
        "title": h("span", {"class": "badge b-title"}, terms.note("title changed")),
        "renumbered": h("span", {"class": "badge b-renumbered"}, terms.note("renumbered")),
        "moved": h("span", {"class": "badge b-moved"}, terms.note("moved")),
        "uncertain": h("span", {"class": "badge b-uncertain"}, _("uncertain match")),
        "more": h("summary", None, _("details")),
    }


def _moves(ch: Change, old: Edition, new: Edition, page: Page) -> list[Child]:
    """``from article 12 (12C) to article 13 (13A)``, each address linked where the report has it."""

    def side(edition: Edition, addresses: tuple[str, ...]) -> list[Child]:
        out: list[Child] = []
        for art in dict.fromkeys(article_of(a) for a in addresses):
            clauses: list[Child] = []
            for i, a in enumerate(x for x in addresses if article_of(x) == art):
                href = page.resolve(edition.name, a)
                clauses.extend([", " if i else None, h("a", {"href": href}, a) if href else a])
            out.extend([", " if out else None, *phrase(_("article {number} ({clauses})"), number=art, clauses=clauses)])
        return out

    return phrase(_("from {old} to {new}"), old=side(old, ch.old), new=side(new, ch.new))
