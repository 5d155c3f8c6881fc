"""The counts of a comparison: kinds of change, what is true of some, how many may change a rule.

Every change counts under exactly one kind; renumbered, moved and titles
changed are counted apart, among those; the significance counts say how
many rewordings are normative.  Shares are written by :func:`percent`, which
never rounds a difference away.  Every word is the interface's, in the glossary's
words (:mod:`lawdiff.i18n.terms`); numbers take the language's decimal sign.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from lawdiff.diff import Change, Comparison, Op
from lawdiff.diff.extent import HEAT_NAMES
from lawdiff.diff.vocabulary import Flag, Pattern
from lawdiff.i18n import gettext as _
from lawdiff.i18n import ngettext, terms
from lawdiff.report.html.markup import Child, Markup, h, phrase
from lawdiff.report.html.template import Template
from lawdiff.report.text import number


def percent_of(value: float, digits: int = 0) -> str:
    """``73 %`` ("73%" in Dutch): a number of hundredths, with ``digits`` after the language's decimal sign."""
    return _("{number} %").format(number=number(value, f".{digits}f"))


def percent(x: float) -> str:
    """A share as a percentage that never rounds a difference away.

    0.998 is "99.8 %", not "100 %", and 0.002 is "0.2 %", not "0 %": only
    what is identical reads 100 % (or, for a share of change, 0 %).
    """
    if x <= 0:
        return percent_of(0)
    if x >= 1:
        return percent_of(100)
    whole = round(x * 100)
    if 0 < whole < 100:
        return percent_of(whole)
    tenth = round(x * 100, 1)
    if 0 < tenth < 100:
        return percent_of(tenth, 1)
    return ("<" + percent_of(0.1, 1)) if x < 0.5 else (">" + percent_of(99.9, 1))


def heat_name(level: int) -> str:
    """How much an article changed (:data:`lawdiff.diff.article.HEAT_NAMES`), in words."""
    name = HEAT_NAMES[level]
    words = {
        "identical": _("identical"),
        "editorial only": terms.note("editorial only"),
        "small change": _("small change"),
        "substantial change": _("substantial change"),
        "large change": _("large change"),
    }
    return words.get(name, name)


def normative_count(n: int) -> str:
    """``3 normative``: how many of an article's changes are normative."""
    return ngettext("{n} normative", "{n} normative", n).format(n=n)


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
OUTSIDE = ("outside_corpus", "outside the corpus")


def count_word(key: str) -> str:
    """The word of a count (a key of :data:`KIND_COUNTS`, :data:`FLAG_COUNTS` or :data:`OUTSIDE`) in the
    interface's language: "modified" -> "gewijzigd", "title_changed" -> "opschriften gewijzigd"."""
    if key == "title_changed":
        return _("titles changed")
    if key == OUTSIDE[0]:
        return _("outside the corpus")
    if key in ("renumbered", "moved"):
        return terms.note(key)
    return terms.kind(key)


def editorial_note(key: str, editorial: Mapping[str, int]) -> str:
    k = editorial.get(key, 0)
    return " " + _("({n} editorial only)").format(n=k) if k else ""


def stale_count(n: int) -> str:
    """``{n} stale references``: the words of ``n`` stale references, ``{n}`` where the number goes."""
    return ngettext("{n} stale reference", "{n} stale references", n)


def counts_phrase(counts: Mapping[str, int], editorial: Mapping[str, int], stale: int = 0) -> str:
    """``5 modified (1 editorial only), 3 renumbered``: the counts that are not zero, in words."""
    parts = [
        f"{counts[key]} {count_word(key)}{editorial_note(key, editorial)}"
        for key, _word in (*KIND_COUNTS, OUTSIDE, *FLAG_COUNTS)
        if counts.get(key)
    ]
    if stale:
        parts.append(stale_count(stale).format(n=stale))
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class SignificanceCounts:
    """How many of a pair's changes may change a rule, and which flags they raised.

    normative: rewordings (a clause on both sides: modified, split, merged)
        with any flag but ``reference``, a drafting pattern counted once
        (:meth:`Comparison.normative_count`: the same substitution in
        several clauses is one decision).
    wording: the other rewordings whose words changed, editorial-only ones
        not counted (they are counted under their kind).  A clause added or
        removed whole is neither: it has no flags (see
        :func:`lawdiff.diff.changes.compare`) and is counted under its kind.
    flags: per flag, how many differences raised it.
    patterns: the drafting patterns among the changes, each listed once with its clauses.
    """

    normative: int
    wording: int
    flags: dict[str, int]
    patterns: tuple[Pattern, ...] = ()


def significance_counts(changes: Iterable[Change], comparison: Comparison | None = None) -> SignificanceCounts:
    """Counted over the differences both corpora could hold, each change once; with the pair's
    ``comparison``, a drafting pattern counts once among the normative changes."""
    normative = wording = 0
    flags = {f.value: 0 for f in Flag}
    seen: dict[int, Change] = {}
    for ch in changes:
        if not ch.is_difference or not ch.counterpart_in_corpus or not (ch.old and ch.new) or id(ch) in seen:
            continue
        seen[id(ch)] = ch
        for sig in ch.signals:
            flags[sig.flag.value] += 1
        if ch.normative:
            normative += 1
        elif not ch.editorial_only and any(p.op is not Op.EQUAL for p in ch.diff):
            wording += 1
    if comparison is None:
        return SignificanceCounts(normative, wording, flags)
    counted = list(seen.values())
    return SignificanceCounts(comparison.normative_count(counted), wording, flags, comparison.patterns_of(counted))


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
        _COUNT(
            cls="zero" if counts.get(key, 0) == 0 else "n",
            n=str(counts.get(key, 0)),
            said=f" {count_word(key)}{editorial_note(key, editorial)}",
        )
        for key, _word in KIND_COUNTS
    ]
    if counts.get(OUTSIDE[0]):
        kinds.append(
            h(
                "li",
                {"class": "n"},
                h("b", None, str(counts[OUTSIDE[0]])),
                " " + _("added or removed where the other edition's corpus lacks the article or that part of it"),
            )
        )
    flags: list[Child] = [h("li", {"class": "of"}, _("of these:"))]
    for key, _word in FLAG_COUNTS:
        n = counts.get(key, 0)
        flags.append(_COUNT(cls="zero" if n == 0 else "n", n=str(n), said=f" {count_word(key)}"))
    if stale:
        flags.append(h("li", {"class": "n stale"}, phrase(stale_count(stale), n=h("b", None, str(stale)))))
    sig = _significance_list(significance) if significance is not None else None
    return h("div", {"class": "counts"}, h("ul", {"class": "kinds"}, kinds), h("ul", {"class": "flags"}, flags), sig)


# A count of a pair's list (in every pair section, a dozen times), as h() would write it.
_COUNT = Template('<li class="{cls}"><b>{n}</b>{said}</li>', block=True)


def _significance_list(significance: SignificanceCounts) -> Markup:
    """How many rewordings are normative, how many other changes of wording, and the flags raised."""
    raised = [f"{n} {terms.flag(flag)}" for flag, n in significance.flags.items() if n]
    patterns = bool(significance.patterns)
    normative, wording = significance.normative, significance.wording
    return h(
        "ul",
        {"class": "significance"},
        h("li", {"class": "of"}, _("of the rewordings:")),
        h(
            "li",
            {"class": "zero" if normative == 0 else "n normative"},
            phrase(ngettext("{n} normative", "{n} normative", normative), n=h("b", None, str(normative))),
            " " + _("(each drafting pattern counts once)") if patterns else None,
        ),
        h(
            "li",
            {"class": "zero" if wording == 0 else "n"},
            phrase(
                ngettext("{n} other changes of wording", "{n} other changes of wording", wording),
                n=h("b", None, str(wording)),
            ),
        ),
        h("li", {"class": "raised"}, _("(flags: {flags})").format(flags=", ".join(raised))) if raised else None,
    )


_PATTERN = Template(
    '<li>{said} <b>{flag}</b> <del lang="{removed_lang}">{removed}</del> → <ins lang="{added_lang}">{added}</ins>'
    " {where}</li>",
    block=True,
)
_PATTERNS = Template('<ul class="patterns">\n{items}</ul>', block=True)
_LINK = Template('<a href="{href}">{text}</a>')


def pattern_list(patterns: Iterable[Pattern], href: Callable[[str, str], str | None]) -> Markup | None:
    """Each drafting pattern once, with its clauses (``href(change id, address)``: where each is shown)."""
    items: list[Child] = []
    for p in patterns:
        where: list[Child] = []
        for i, (cid, address) in enumerate(zip(p.changes, p.addresses, strict=True)):
            link = href(cid, address)
            where.extend([", " if i else None, _LINK(href=link, text=address) if link else address])
        # The words are the law's (lang="nl"); "(nothing)" is the interface's.
        removed, added = " ".join(p.removed) or _("(nothing)"), " / ".join(p.added) or _("(nothing)")
        items.append(
            _PATTERN(
                said=_("Drafting pattern, counted once:"),
                flag=terms.flag(p.flag.value),
                removed=removed,
                removed_lang="nl" if p.removed else None,
                added=added,
                added_lang="nl" if p.added else None,
                where=phrase(_("in {clauses}"), clauses=where),
            )
        )
    return _PATTERNS(items=items) if items else None
