"""Wiki page names: ``Sjabloon:<edition>:<name>`` and what a name says.

The Dutch wiki keeps the law in the template namespace (number 10, prefix
``Sjabloon:``; links also write ``Template:`` or ``template:``).  The name
after the edition says where the page's text sits:

==========================  =====================================  =============
name                        what it is                             scope
==========================  =====================================  =============
``45``                      an article page                        ``45``
``45C``                     a section page (from 1987 on)          ``45C``
``Art. 41. Het begin ...``  an article page named by its heading   ``41``
``28-3``                    paragraph 3 of article 28 (1936)       ``28.3``
``HVI``                     chapter VI                             container
``HVI3``                    chapter VI, part 3                     container
``HVI3I``                   chapter VI, part 3, paragraph I        container
``HVI JUISTE GANG ...``     a named part of chapter VI (1963)      container
``HOOFDSTUK V HET BIEDEN``  chapter V named by its heading         container
``Inhoudsopgave 1963``      the table of contents                  (not law)
anything else               front matter (preface, definitions)    slug
==========================  =====================================  =============

Container addresses: chapter ``H6`` (arabic, whatever the printing's numerals),
part ``H6.3``, paragraph ``H6.3.I`` (as printed), named part
``H6.juiste-gang-van-zaken``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from lawdiff.model.address import roman_to_int
from lawdiff.sources.base import Container

__all__ = ["roman_to_int"]

NAMESPACE_PREFIXES = ("sjabloon", "template")

_TITLE = re.compile(r"^\s*(?P<ns>[^:]+):(?P<edition>\d{4}(?:[+@][\w.-]+)?):(?P<name>.+?)\s*$")
_ARTICLE = re.compile(r"^(?P<num>\d{1,3})(?P<sec>[A-Z])?$")
# An article page named by its heading (1963: "Art. 41. Het begin van het spelen.").
_ARTICLE_HEADING = re.compile(r"^(?:Art\.|Artikel|ARTIKEL)\s?(?P<num>\d{1,3})(?:[.\s]|$)")
# 1936 numbers an article's paragraphs; the wiki names a paragraph's page
# "28-3".  Its address is 28.3 (a dot where two numbers would touch), as the
# same paragraph read from the article's own page.
_PARAGRAPH = re.compile(r"^(?P<num>\d{1,3})-(?P<par>\d{1,2})$")
_CHAPTER = re.compile(r"^H(?P<ch>[IVXL]+)(?P<part>\d+)?(?P<par>[IVX]+)?$")
# A chapter page named by its heading (1963: "HOOFDSTUK V HET BIEDEN").
_CHAPTER_HEADING = re.compile(r"^(?:HOOFDSTUK|Hoofdstuk)\s+(?P<ch>[IVXL]+)\.?(?:\s|$)")
_NAMED_PART = re.compile(r"^H(?P<ch>[IVXL]+)\s+(?P<name>.+)$")
_TOC = re.compile(r"^inhoudsopgave\b", re.IGNORECASE)


def slug(text: str) -> str:
    """A lowercase ASCII slug: ``JUISTE GANG VAN ZAKEN`` -> ``juiste-gang-van-zaken``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


@dataclass(frozen=True, slots=True)
class PageName:
    """What a wiki page title says.

    namespace: as written ("Sjabloon").
    edition: "1963", "2017"...
    name: the part after the edition, spaces normalized.
    kind: "article", "section" (a part of an article: a section page, or a
        1936 paragraph page), "container", "toc" or "front".
    scope: the clause address the page's text starts at ("45", "45C",
        a front-matter slug), or "" for containers and tables of contents.
    containers: the chapter / part / paragraph a container page stands for.
    """

    namespace: str
    edition: str
    name: str
    kind: str
    scope: str
    containers: tuple[Container, ...]


def parse_title(title: str) -> PageName | None:
    """Parse ``Sjabloon:2007:45``; None when the title is not of that form."""
    m = _TITLE.match(title.replace("_", " "))
    if not m or m.group("ns").strip().lower() not in NAMESPACE_PREFIXES:
        return None
    name = " ".join(m.group("name").split())
    edition = m.group("edition")
    ns = m.group("ns").strip()
    if a := _ARTICLE.match(name):
        kind = "section" if a.group("sec") else "article"
        return PageName(ns, edition, name, kind, name, ())
    if h := _ARTICLE_HEADING.match(name):
        return PageName(ns, edition, name, "article", h.group("num"), ())
    if p := _PARAGRAPH.match(name):
        return PageName(ns, edition, name, "section", f"{p.group('num')}.{p.group('par')}", ())
    if c := _CHAPTER.match(name):
        chapter = roman_to_int(c.group("ch"))
        conts = [Container("chapter", f"H{chapter}", f"H{c.group('ch')}")]
        if c.group("part"):
            conts.append(Container("part", f"H{chapter}.{c.group('part')}"))
        if c.group("par"):
            conts.append(Container("paragraph", f"H{chapter}.{c.group('part')}.{c.group('par')}"))
        return PageName(ns, edition, name, "container", "", tuple(conts))
    if (c := _CHAPTER_HEADING.match(name)) and roman_to_int(c.group("ch")):
        conts = [Container("chapter", f"H{roman_to_int(c.group('ch'))}", f"H{c.group('ch')}")]
        return PageName(ns, edition, name, "container", "", tuple(conts))
    if n := _NAMED_PART.match(name):
        chapter = roman_to_int(n.group("ch"))
        conts = [
            Container("chapter", f"H{chapter}", f"H{n.group('ch')}"),
            Container("part", f"H{chapter}.{slug(n.group('name'))}", "", n.group("name")),
        ]
        return PageName(ns, edition, name, "container", "", tuple(conts))
    if _TOC.match(name):
        return PageName(ns, edition, name, "toc", "", ())
    return PageName(ns, edition, name, "front", slug(name), ())
