"""The counts of a comparison: kinds of change, what is true of some, how many may change a rule.

Every change counts under exactly one kind; renumbered, moved and titles
changed are counted apart, among those; the significance counts say how
many rewordings are normative.  Shares are written by :func:`percent`, which
never rounds a difference away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from lawdiff.diff import Change, Comparison, Op
from lawdiff.diff.vocabulary import Flag, Pattern
from lawdiff.report.html.markup import Child, Markup, h
from lawdiff.report.html.template import Template


def percent(x: float) -> str:
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


def editorial_note(key: str, editorial: Mapping[str, int]) -> str:
    k = editorial.get(key, 0)
    return f" ({k} editorial only)" if k else ""


def counts_phrase(counts: Mapping[str, int], editorial: Mapping[str, int], stale: int = 0) -> str:
    """``5 modified (1 editorial only), 3 renumbered``: the counts that are not zero, in words."""
    parts = [
        f"{counts[key]} {word}{editorial_note(key, editorial)}"
        for key, word in (*KIND_COUNTS, OUTSIDE, *FLAG_COUNTS)
        if counts.get(key)
    ]
    if stale:
        parts.append(f"{stale} stale reference{'s' if stale > 1 else ''}")
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
        h(
            "li",
            {"class": "zero" if counts.get(key, 0) == 0 else "n"},
            h("b", None, str(counts.get(key, 0))),
            f" {word}{editorial_note(key, editorial)}",
        )
        for key, word in KIND_COUNTS
    ]
    if counts.get(OUTSIDE[0]):
        kinds.append(
            h(
                "li",
                {"class": "n"},
                h("b", None, str(counts[OUTSIDE[0]])),
                " added or removed where the other edition's corpus lacks the article or that part of it",
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
    sig = _significance_list(significance) if significance is not None else None
    return h("div", {"class": "counts"}, h("ul", {"class": "kinds"}, kinds), h("ul", {"class": "flags"}, flags), sig)


def _significance_list(significance: SignificanceCounts) -> Markup:
    """How many rewordings are normative, how many other changes of wording, and the flags raised."""
    raised = [f"{n} {flag}" for flag, n in significance.flags.items() if n]
    patterns = bool(significance.patterns)
    return h(
        "ul",
        {"class": "significance"},
        h("li", {"class": "of"}, "of the rewordings:"),
        h(
            "li",
            {"class": "zero" if significance.normative == 0 else "n normative"},
            h("b", None, str(significance.normative)),
            " normative",
            " (each drafting pattern counts once)" if patterns else None,
        ),
        h(
            "li",
            {"class": "zero" if significance.wording == 0 else "n"},
            h("b", None, str(significance.wording)),
            " other changes of wording",
        ),
        h("li", {"class": "raised"}, f"(flags: {', '.join(raised)})") if raised else None,
    )


_PATTERN = Template(
    "<li>Drafting pattern, counted once: <b>{flag}</b> <del>{removed}</del> → <ins>{added}</ins> in {where}</li>",
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
        added = " / ".join(p.added) or "(nothing)"
        items.append(_PATTERN(flag=p.flag.value, removed=" ".join(p.removed), added=added, where=where))
    return _PATTERNS(items=items) if items else None
