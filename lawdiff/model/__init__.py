"""The clause tree: one normalized tree per edition, whatever the source format.

An edition holds chapters / parts / paragraphs (where the source has them),
articles, sections, subsections, items and sub-items, plus footnotes.  Every
clause has an **address**, the contract of every later command:

* the labels from the article down, concatenated: article number, section
  letter, subsection number, item letter in parentheses, and so on:
  ``45``, ``45C``, ``45C4``, ``45C4(b)``, ``45(d)``, ``46(c)1``;
* unlabeled children (paragraphs after a child, list items without a marker)
  are ``.pN``, counted from 1 per parent in document order: ``45E.p2``,
  ``45.p1``; footnotes are ``.fnN`` with their printed number: ``45A.fn1``;
* where two numeric labels would touch, a dot separates them: ``45.1``;
* outside the numbered articles: chapters ``H6``, parts ``H6.1`` (or
  ``H6.juiste-gang-van-zaken`` for a part the printing does not number),
  paragraphs ``H6.3.I``; front matter and other pages by a lowercase slug
  (``voorwoord``, ``definities``, ``appendix-biddingbox``,
  ``wijzigingen-2024``), their children joined with a dot (``definities.p1``,
  ``voorwoord.A``).

A clause is named across the tool as ``EDITION:ADDRESS`` (``2017:45C4(b)``).

The model is the vocabulary of every later stage and imports nothing from
them: :mod:`lawdiff.sources` reads files and builds these trees
(:mod:`lawdiff.sources.build`).  Modules: ``clause`` (the values),
``address`` (the address rules), ``references`` (cross-references in text),
``amend`` (amended versions).
"""

from lawdiff.model.address import (
    address_parts,
    article_and_parent,
    article_of,
    from_anchor,
    natural_key,
    normalize_address,
    parent_address,
    roman_to_int,
    spellings,
)
from lawdiff.model.amend import amend
from lawdiff.model.clause import (
    CONTAINER_KINDS,
    Clause,
    Conflict,
    Edition,
    Kind,
    Loc,
    NavItem,
    SourceFile,
    articles_in_part,
    chronological,
    place_held,
    printing_number,
    walked_runs,
)
from lawdiff.model.references import Reference, Spans, find_references, references_in

__all__ = [
    "CONTAINER_KINDS",
    "Clause",
    "Conflict",
    "Edition",
    "Kind",
    "Loc",
    "NavItem",
    "Reference",
    "SourceFile",
    "Spans",
    "address_parts",
    "amend",
    "article_and_parent",
    "article_of",
    "articles_in_part",
    "chronological",
    "find_references",
    "from_anchor",
    "natural_key",
    "normalize_address",
    "parent_address",
    "place_held",
    "printing_number",
    "references_in",
    "roman_to_int",
    "spellings",
    "walked_runs",
]
