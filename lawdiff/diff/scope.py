"""What a comparison compares: the scope of each change, decided once for every output.

A change is **compared** when both editions' corpora hold the place where it lies.  Where one corpus
lacks that place it is **not compared**: the other corpus cannot tell whether the clause was added or
removed.  Either the article is missing from that corpus altogether (:attr:`Scope.NOT_HELD`), or the
corpus holds the article by some of its sections' pages only and not the part, or the heading, where
the clause lies (:attr:`Scope.HELD_IN_PART`).  Text, JSON, HTML, the Word redline, the correlation
table, the history and the minutes all read the scope from here: none of them decides it again.

Scope never hides a link: before the changes are described, :func:`linked_across_parts` aligns the
clauses a corpus held in part would leave not compared against what that corpus holds, so that only
a clause that finds no counterpart there is not compared.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from lawdiff.align import Alignment, Aspect, Corrections, Link, Method, Thresholds, Unit, units
from lawdiff.align.certainty import with_certainty
from lawdiff.align.scoring import Scorer
from lawdiff.align.titles import align_titles
from lawdiff.diff.comparison import Changes, Comparison
from lawdiff.diff.vocabulary import Change, Scope
from lawdiff.i18n import N_
from lawdiff.i18n.said import Said, joined
from lawdiff.model import Edition, article_of


def scope_of(change: Change) -> Scope:
    """The scope of ``change``, as the study decided it when it described the change (:attr:`Change.scope`)."""
    return change.scope


def compared(changes: Iterable[Change]) -> list[Change]:
    """Those of ``changes`` that are compared, in their order: the only ones any output may show as a change."""
    return [ch for ch in changes if ch.counterpart_in_corpus]


@dataclass(frozen=True, slots=True)
class NotCompared:
    """What only one corpus holds, said once: not changes, since the other corpus cannot tell.

    changes: the changes whose counterpart's place the other corpus does not hold.
    held: the articles each corpus holds (:attr:`Alignment.old_articles`, ``new_articles``): of an article
        the other corpus holds in part (some of its sections' pages), the clauses and headings it lacks are
        named, not the article.
    """

    changes: Sequence[Change]
    held: tuple[Iterable[str], Iterable[str]] = ((), ())

    @classmethod
    def of(cls, comp: Comparison, changes: Iterable[Change]) -> NotCompared:
        """Those of ``changes`` (of ``comp``) that are not compared."""
        # (A clause that kept its text is compared: of Changes, only the records made with them are read.)
        among = changes.described() if isinstance(changes, Changes) else changes
        outside = [ch for ch in among if not ch.counterpart_in_corpus]
        return cls(outside, (comp.alignment.old_articles, comp.alignment.new_articles))

    def scope(self, change: Change) -> Scope:
        """The scope of one change of this comparison (:attr:`Change.scope`)."""
        return change.scope


# ---------------------------------------------------------------------------
# Scope never hides a link

# Why a link made across a corpus's scope was made, after the words' reasons (the aligner's "(gap)").
# Translators: after the reasons of a match made where one corpus holds only some sections of an article.
ACROSS_PARTS = Said(N_("(gap: the other corpus holds only part of the article)"))


def linked_across_parts(
    old: Edition, new: Edition, alignment: Alignment, corrections: Corrections | None = None
) -> Alignment:
    """The alignment, with each clause that a corpus's scope would leave not compared aligned against
    what that corpus holds of its article, and linked where it finds its counterpart there.

    Where a corpus holds an article only by some of its sections' pages (:meth:`Edition.held_in_part`),
    the other side's clauses outside those sections are not compared while they stay alone.  One of
    them that moved into a section held, reworded (an old lettered item become a subsection of the one
    section page held), has no neighbours in that corpus to vouch for its weakly worded match, as the
    two matches around a gap do: the pages that would hold them are not in the corpus.  So it stayed
    alone on both sides, not compared on the fuller side and added (or removed) on the other.  Yet the
    scope narrows its search as a gap does: what it can have become in this corpus is one of the
    clauses left alone in the sections held.  Those leftovers are paired as gap leftovers are, one to
    one and best first, when their words alone reach ``gap_min`` (:class:`~lawdiff.align.Thresholds`)
    and the committee did not forbid the pair; and a pair is kept only when its certainty (the
    probability that it is right, :mod:`lawdiff.align.certainty`) reaches ``certain``, the bar of a link
    shown as certain, since nothing but the words speaks for it.  A clause that finds no counterpart
    there stays alone, and not compared.  The headings are aligned again after the text (a heading
    goes with its text).  ``benchmarks/bench_partial.py`` measures what this adds on generated editions
    cut into section pages.
    """
    if not (old.held_in_part() or new.held_in_part()):
        return alignment
    text = [link for link in alignment.links if link.aspect is Aspect.TEXT]
    places: dict[str, tuple[str, str]] = {}  # (the two editions share most addresses)
    a_units = units(old, places)
    b_units = units(new, places, a_units)
    t = alignment.thresholds
    proposed = _proposed(_Leftovers(old, new, text), a_units, b_units, t, corrections or Corrections())
    pairs = {(link.old, link.new) for link in proposed}
    weighed = with_certainty(_relinked(text, proposed), a_units, b_units)
    found = [link for link in weighed if (link.old, link.new) in pairs and link.certainty >= t.certain]
    if not found:
        return alignment
    relinked = with_certainty(_relinked(text, found), a_units, b_units)
    heads = with_certainty(align_titles(old, new, relinked, t, corrections), a_units, b_units, relinked)
    return replace(alignment, links=tuple(relinked + heads))


class _Leftovers:
    """The clauses the text alignment left alone, and which of them may pair across a corpus's scope."""

    def __init__(self, old: Edition, new: Edition, text: list[Link]) -> None:
        self.old, self.new = old, new
        self.lone_old = [link.old[0] for link in text if link.old and not link.new]
        self.lone_new: dict[str, list[str]] = {}
        for link in text:
            if link.new and not link.old:
                self.lone_new.setdefault(article_of(link.new[0]), []).append(link.new[0])
        # The new articles that correspond to each old one: the same number, or joined by a match.
        self.joined: dict[str, set[str]] = {}
        for link in text:
            for a in link.old if link.new else ():
                self.joined.setdefault(article_of(a), set()).update(article_of(b) for b in link.new)

    def pairs(self) -> list[tuple[str, str]]:
        """Each (old, new) pair of leftovers of corresponding articles where one lies outside what the
        other's corpus holds and the other in an article its own corpus holds in part."""
        old_part, new_part = self.old.held_in_part(), self.new.held_in_part()
        out: list[tuple[str, str]] = []
        for a in self.lone_old:
            art_a = article_of(a)
            outside_new = not self.new.holds(a)
            for b in (b for art in sorted({art_a} | self.joined.get(art_a, set())) for b in self.lone_new.get(art, ())):
                if (outside_new and article_of(b) in new_part) or (art_a in old_part and not self.old.holds(b)):
                    out.append((a, b))
        return out


def _proposed(
    leftovers: _Leftovers, a_units: list[Unit], b_units: list[Unit], t: Thresholds, fixes: Corrections
) -> list[Link]:
    """The pairs of leftovers a corpus's scope kept apart (:func:`linked_across_parts`) whose words reach
    ``gap_min``, as gap links, best first and one to one."""
    at_old = {u.address: i for i, u in enumerate(a_units)}
    at_new = {u.address: j for j, u in enumerate(b_units)}
    forbidden = {(f.old, f.new) for f in fixes.forbids}
    scorer = Scorer(a_units, b_units, t)
    proposals: list[tuple[float, int, int, int]] = []
    for a, b in leftovers.pairs():
        i, j = at_old[a], at_new[b]
        if (a, b) not in forbidden and scorer.text(i, j) >= t.gap_min:
            proposals.append((scorer.text(i, j), abs(a_units[i].position - b_units[j].position), i, j))
    proposals.sort(key=lambda p: (-round(p[0], 9), p[1], p[2] + p[3]))
    used_old: set[int] = set()
    used_new: set[int] = set()
    out: list[Link] = []
    for _, _, i, j in proposals:
        if i in used_old or j in used_new:
            continue
        used_old.add(i)
        used_new.add(j)
        why = joined((joined(scorer.reasons(i, j, Method.GAP), ", "), ACROSS_PARTS), " ")
        score = round(min(scorer.score(i, j), 1.0), 4)
        out.append(Link(Aspect.TEXT, (a_units[i].address,), (b_units[j].address,), score, (Method.GAP,), (why,)))
    return out


def _relinked(text: list[Link], found: list[Link]) -> list[Link]:
    """The text links with each pair ``found`` in the place of its old clause's removal, and its new
    clause's addition gone (in the old edition's document order, as the aligner gives them)."""
    by_old = {link.old[0]: link for link in found}
    paired_new = {link.new[0] for link in found}
    out: list[Link] = []
    for link in text:
        if link.old and not link.new and link.old[0] in by_old:
            out.append(by_old[link.old[0]])
        elif not (link.new and not link.old and link.new[0] in paired_new):
            out.append(link)
    return out
