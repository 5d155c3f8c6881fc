"""References that lead nowhere: targets the edition does not hold."""

from __future__ import annotations

from dataclasses import dataclass

from lawdiff.model import Edition, Loc, article_of


@dataclass(frozen=True, slots=True)
class Dangling:
    """A reference whose target the edition does not hold.

    absent_article: the target's article is missing from the corpus (the
        corpus holds only part of the edition), or the part of it where the
        target lies (the corpus holds other sections' pages of it), as opposed
        to a target inside what the corpus holds, which is suspect.
    """

    edition: str
    source: str
    target: str
    printed: str
    loc: Loc
    absent_article: bool


def dangling_references(edition: Edition) -> list[Dangling]:
    out: list[Dangling] = []
    for clause in edition.walk():
        for ref in clause.references:
            if edition.find(ref.target) is not None:
                continue
            art = article_of(ref.target)
            absent = bool(art) and not edition.holds(ref.target)
            out.append(Dangling(edition.name, clause.address, ref.target, ref.printed, clause.source, absent))
    return out
