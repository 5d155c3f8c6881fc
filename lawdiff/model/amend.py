"""Amendments: an edition's clauses with an amendment's clauses in force."""

from __future__ import annotations

from dataclasses import replace

from lawdiff.model.address import natural_key
from lawdiff.model.clause import CONTAINER_KINDS, Clause, Kind

# ---------------------------------------------------------------------------
# Amendments


def amend(clauses: tuple[Clause, ...], amendment: tuple[Clause, ...]) -> tuple[Clause, ...]:
    """An edition's clauses with an amendment's clauses in force.

    An amendment article that brings sections replaces the sections at the
    same addresses (and adds new ones in label order), and its title the
    article's; one without sections replaces the whole article.  An article
    the edition does not have is added at the end.  The amendment's own page
    (its introduction) is not law text of the version: it says what the
    version changes, which a comparison shows.  Nothing is edited in place: the result shares the untouched subtrees.
    """
    result = list(clauses)
    for piece in amendment:
        if piece.kind is Kind.ARTICLE:
            result = _replace_article(result, piece)
    return tuple(result)


def _replace_article(roots: list[Clause], article: Clause) -> list[Clause]:
    found = False

    def visit(c: Clause) -> Clause:
        nonlocal found
        if c.address == article.address and c.kind is Kind.ARTICLE:
            found = True
            return _amended_article(c, article)
        if c.kind in CONTAINER_KINDS:
            children = tuple(visit(x) for x in c.children)
            if any(a is not b for a, b in zip(children, c.children, strict=True)):
                return replace(c, children=children)
        return c

    out = [visit(r) for r in roots]
    if not found:
        out.append(article)
    return out


def _amended_article(base: Clause, new: Clause) -> Clause:
    sections = [c for c in new.children if c.kind is Kind.SECTION]
    if sections and not new.text:
        children = list(base.children)
        for section in sections:
            at = next((i for i, c in enumerate(children) if c.address == section.address), None)
            if at is None:
                children.append(section)
                children.sort(key=lambda c: natural_key(c.address))
            else:
                children[at] = section
        return replace(base, title=new.title or base.title, children=tuple(children))
    return replace(new, label=new.label or base.label, title=new.title or base.title)
