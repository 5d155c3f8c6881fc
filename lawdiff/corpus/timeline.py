"""Editions from pages: one per year and source, the default of each year, amended versions.

:class:`Corpus` holds the result: the timeline the comparisons follow, every
source of a year held from two (``2017@wiki``, ``2017@nuxt``), and the
lossless accounting of every page.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from lawdiff.corpus.account import PageCheck, account
from lawdiff.corpus.merge import _EditionBuilder
from lawdiff.corpus.settings import SETTINGS_FILE, Settings
from lawdiff.errors import InputError, UsageError
from lawdiff.model import (
    Clause,
    Edition,
    SourceFile,
    amend,
    article_of,
    chronological,
    normalize_address,
    printing_number,
)
from lawdiff.sources.base import Page
from lawdiff.sources.build import PageTree, build_page


@dataclass(frozen=True)
class Corpus:
    """Editions read from a set of files, with their checks.

    editions: the timeline, oldest first: one edition per year (the default
        source where the corpus holds a year from two sources, named by the
        bare year) and the amended versions ("2017+2024-03-01") after the
        edition they amend.  Histories and reports follow it.
    variants: every edition as read, including each source of a year held
        from two ("2017@wiki", "2017@nuxt"); what ``lawdiff editions`` lists.
    checks: the lossless accounting of every page.
    choices: for a year held from two sources, why the bare year means the
        one it means.
    """

    editions: tuple[Edition, ...]
    checks: tuple[PageCheck, ...]
    roots: tuple[str, ...] = field(default=())
    variants: tuple[Edition, ...] = field(default=())
    choices: dict[str, str] = field(default_factory=dict)

    def names(self) -> list[str]:
        return list(dict.fromkeys([e.name for e in self.editions] + [e.name for e in self.variants]))

    def aliases(self) -> dict[str, str]:
        """Bare years that stand for one of two sources: ``{"2017": "2017@nuxt"}``."""
        names = {v.name for v in self.variants}
        return {
            e.name: f"{e.name}@{e.variant}"
            for e in self.editions
            if e.variant and f"{e.name}@{e.variant}" in names and e.name not in names
        }

    def listing(self) -> list[Edition]:
        """Every edition once, as ``lawdiff editions`` lists them: each source
        of a year, and the amended versions."""
        aliases = self.aliases()
        names = {v.name for v in self.variants}
        out = [*self.variants, *(e for e in self.editions if e.name not in names and e.name not in aliases)]
        return sorted(out, key=chronological)

    def edition(self, name: str) -> Edition:
        for e in (*self.editions, *self.variants):
            if e.name == name:
                return e
        raise UsageError(
            f"no edition {name!r} in the corpus",
            fix=f"name one of: {', '.join(self.names()) or '(none)'}",
        )

    def clause(self, spec: str) -> tuple[Edition, Clause | None]:
        """``EDITION[:ADDRESS]`` -> the edition and the clause (None for no address)."""
        name, _, address = spec.partition(":")
        edition = self.edition(name.strip())
        if not address.strip():
            return edition, None
        clause = edition.find(address)
        if clause is None:
            article = edition.find(article_of(normalize_address(address)) or "-")
            if article is not None:
                hint = f"article {article.address} has: {', '.join(c.address for c in article.walk())}"
            else:
                hint = f"the edition has articles {', '.join(a.address for a in edition.articles()) or '(none)'}"
            raise UsageError(f"{edition.name} has no clause {address.strip()!r}", fix=hint)
        return edition, clause


# Which family of sources a format belongs to: a corpus may hold one edition
# from the wiki and from the site, and then has both as variants.
FAMILY = {"wiki-text": "wiki", "mediawiki-xml": "wiki", "nuxt-payload": "nuxt"}


def _resolve_editions(pages: list[Page]) -> list[Page]:
    """Give a page whose source names no edition the edition of its crawl."""
    known = {p.edition for p in pages if p.edition and p.format == "nuxt-payload"}
    out: list[Page] = []
    for page in pages:
        if page.edition:
            out.append(page)
        elif len(known) == 1:
            out.append(replace(page, edition=next(iter(known))))
        else:
            raise InputError(
                "cannot tell which edition this page belongs to (its 'source' names no year)",
                file=page.file,
                place=page.loc.path,
                fix="put the file in a corpus folder named after the edition's year, e.g. corpus/2017/",
            )
    return out


def from_pages(pages: list[Page], roots: tuple[str, ...] = (), settings: Settings | None = None) -> Corpus:
    """Build editions from pages already read."""
    settings = settings or Settings()
    pages = _resolve_editions(pages)
    trees = [build_page(p) for p in pages]
    checks = [account(t) for t in trees]
    # An amendment page is a version of its edition; without any page of
    # that edition to amend it is read as a page of the edition itself.
    have = {t.page.edition for t in trees if not t.page.effective}
    base_trees = [t for t in trees if not t.page.effective or t.page.edition not in have]
    amendment_trees = [t for t in trees if t.page.effective and t.page.edition in have]
    families: dict[str, set[str]] = {}
    for t in base_trees:
        families.setdefault(t.page.edition, set()).add(FAMILY.get(t.page.format, t.page.format))
    builders: dict[tuple[str, str], _EditionBuilder] = {}
    # Container pages first, so that an article read both from its chapter
    # page and from its own page sits where the chapter puts it.
    for tree in sorted(base_trees, key=lambda t: (-len(t.page.containers), t.page.file)):
        year = tree.page.edition
        family = FAMILY.get(tree.page.format, tree.page.format)
        name = f"{year}@{family}" if len(families[year]) > 1 else year
        key = (year, family)
        if key not in builders:
            builders[key] = _EditionBuilder(name)
        builders[key].add(tree)
    variants = sorted((b.build() for b in builders.values()), key=lambda e: (e.year, e.name))  # printings not known yet
    variants = [_with_printing(e, settings) for e in variants]
    timeline: list[Edition] = []
    choices: dict[str, str] = {}
    for year in sorted(families, key=lambda y: (int(y[:4]) if y[:4].isdigit() else 0, y)):
        of_year = [e for e in variants if _year_of(e) == year]
        chosen = _default_variant(year, of_year, settings)
        if len(of_year) > 1:
            choices[year] = (
                f"chosen in {SETTINGS_FILE}"
                if year in settings.default
                else "the newer printing, as no setting chooses"
            )
        edition = chosen if len(of_year) == 1 else replace(chosen, name=year, variant=chosen.variant)
        timeline.append(edition)
        timeline.extend(_amended_versions(edition, [t for t in amendment_trees if t.page.edition == year]))
    return Corpus(tuple(timeline), tuple(checks), roots, tuple(variants), choices)


def _year_of(edition: Edition) -> str:
    return edition.name.split("@", 1)[0]


def _with_printing(edition: Edition, settings: Settings) -> Edition:
    family = edition.name.split("@", 1)[1] if "@" in edition.name else ""
    printing = settings.printing.get(edition.name)
    sources = edition.sources
    if printing:
        sources = tuple(replace(s, printing=s.printing or printing) for s in sources)
    return replace(edition, variant=family, sources=sources)


def _default_variant(year: str, of_year: list[Edition], settings: Settings) -> Edition:
    """The source the bare year means: the settings' choice, else the newer printing."""
    if len(of_year) == 1:
        return of_year[0]
    if not of_year:
        # An edition named like a source ("2007@x", from a page title that
        # the readers let through): its year has other editions, itself none.
        raise InputError(
            f"a page names the edition {year!r}: '@' and '+' are kept for the sources and versions lawdiff names"
            " (2017@wiki, 2017+2024-03-01)",
            fix=f"title its pages with the year alone ({year.split('@', 1)[0].split('+', 1)[0]})",
        )
    wanted = settings.default.get(year)
    if wanted:
        for e in of_year:
            if e.variant == wanted or e.name == wanted:
                return e
        raise InputError(
            f"the settings make {wanted!r} the default {year}, but the corpus has {', '.join(e.name for e in of_year)}",
            file=settings.file,
            fix=f'set [default] "{year}" to one of: {", ".join(e.variant for e in of_year)}',
        )
    return max(of_year, key=lambda e: (printing_number(e), e.variant == "nuxt", e.name))


def _amended_versions(edition: Edition, trees: list[PageTree]) -> list[Edition]:
    """One version per date on which amendments of the edition take effect."""
    if not trees:
        return []
    ordered = sorted(trees, key=lambda t: (t.page.effective, t.page.file))
    versions: list[Edition] = []
    clauses = edition.clauses
    sources = edition.sources
    for date in sorted({t.page.effective for t in ordered}):
        for tree in (t for t in ordered if t.page.effective == date):
            clauses = amend(clauses, tuple(d.freeze() for d in tree.roots))
            page = tree.page
            sources = (
                *sources,
                SourceFile(page.file, page.format, page.name, page.printing, dict(page.meta).get("pages", "")),
            )
        versions.append(
            Edition(
                name=f"{edition.name}+{date}",
                year=edition.year,
                clauses=clauses,
                sources=sources,
                navigation=edition.navigation,
                variant=edition.variant,
                effective=date,
                base=edition.name,
            )
        )
    return versions
