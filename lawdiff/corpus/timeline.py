"""Editions from pages: one per year and source, the default of each year, amended versions.

:class:`Corpus` holds the result: the timeline the comparisons follow, every
source of a year held from two (``2017@wiki``, ``2017@nuxt``), and the
lossless accounting of every page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from lawdiff.corpus.account import PageCheck, account
from lawdiff.corpus.merge import EditionBuilder
from lawdiff.corpus.settings import SETTINGS_FILE, Settings
from lawdiff.errors import InputError, UsageError
from lawdiff.i18n import gettext as _
from lawdiff.model import (
    Clause,
    Edition,
    Kind,
    amend,
    article_of,
    chronological,
    normalize_address,
    printing_number,
    spellings,
)
from lawdiff.sources.base import Page
from lawdiff.sources.build import PageTree, build_page
from lawdiff.sources.tree import ReadTexts


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
    settings: the corpus settings (``lawdiff.toml``).
    skipped: files of the corpus folders that no reader takes (a README.md,
        a review store), which ``lawdiff check`` lists.
    """

    editions: tuple[Edition, ...]
    checks: tuple[PageCheck, ...]
    roots: tuple[str, ...] = field(default=())
    variants: tuple[Edition, ...] = field(default=())
    choices: dict[str, str] = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)
    skipped: tuple[str, ...] = ()

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
        year, at, _source = name.partition("@")
        sources = ""
        if at and not any(v.name.startswith(f"{year}@") for v in self.variants):
            # `2017@wiki` names one of two sources of 2017: a name the corpus gives only when it has both.
            sources = _(
                "a name EDITION@SOURCE (SOURCE: wiki, nuxt or draft) is given only when the corpus holds one"
                " edition from two sources, as the wiki's pages and the site's payloads of 2017; "
            )
            held = next((e for e in self.editions if e.name == year), None)
            if held is not None:
                families = sorted({FAMILY.get(s.format, s.format) for s in held.sources})
                sources += _("{year} comes from one source here ({sources}), so it is named {year}; ").format(
                    year=year, sources=", ".join(families)
                )
        raise UsageError(
            _("no edition {name!r} in the corpus").format(name=name),
            fix=_("{sources}name one of: {names}").format(
                sources=sources, names=", ".join(self.names()) or _("(none)")
            ),
        )

    def select(self, names: Iterable[str] = ()) -> tuple[Edition, ...]:
        """The editions asked for (all when none), in the corpus's timeline.

        Two names of one source (``2017`` and ``2017@nuxt`` when the bare year
        means the site's) are one edition: the first named.
        """
        wanted = list(dict.fromkeys(names))
        aliases = self.aliases()
        eds: list[Edition] = []
        seen: set[str] = set()
        for e in (self.edition(n) for n in wanted) if wanted else self.editions:
            source = aliases.get(e.name, e.name)
            if source not in seen:
                seen.add(source)
                eds.append(e)
        if not eds:
            raise UsageError(_("the corpus holds no edition"), fix=_("give a corpus folder with dumps"))
        # Oldest first, as `lawdiff history` orders them (lawdiff.model.chronological:
        # an amended version after the edition it amends, two sources of one year
        # by printing, older first), so that a page's pairs and its clause
        # histories run the same way.
        return tuple(sorted(eds, key=chronological))

    def clause(self, spec: str) -> tuple[Edition, Clause | None]:
        """``EDITION[:ADDRESS]`` -> the edition and the clause (None for no address).

        The address may be given in the report's anchor form (``45C4b`` for
        ``45C4(b)``).
        """
        name, sep, address = spec.partition(":")
        if not sep and name.strip() not in self.names() and re.fullmatch(r"\d{1,3}(?!\d)\S*", name.strip()):
            # "45C4": an address without its edition.
            raise UsageError(
                _("{value!r} names no edition").format(value=name.strip()),
                fix=_("write EDITION:ADDRESS, e.g. {value}:{value2}").format(
                    value=self.editions[-1].name if self.editions else "2017", value2=name.strip()
                ),
            )
        edition = self.edition(name.strip())
        if not address.strip():
            return edition, None
        clause = next((c for a in spellings(address) if (c := edition.find(a)) is not None), None)
        if clause is None:
            article = edition.find(article_of(normalize_address(address)) or "-")
            if article is not None:
                hint = _("article {article} has: {names}").format(
                    article=article.address, names=", ".join(c.address for c in article.walk())
                )
            else:
                hint = _("the edition has articles {names}").format(
                    names=", ".join(a.address for a in edition.articles()) or _("(none)")
                )
            raise UsageError(
                _("{name} has no clause {value!r}").format(name=edition.name, value=address.strip()), fix=hint
            )
        return edition, clause


# Which family of sources a format belongs to: a corpus may hold one edition
# from the wiki and from the site, and then has both as variants.
FAMILY = {
    "wiki-text": "wiki",
    "mediawiki-xml": "wiki",
    "nuxt-payload": "nuxt",
    "draft-docx": "draft",
    "draft-odt": "draft",
    "draft-text": "draft",
}


def _resolve_editions(read: list[tuple[PageTree, PageCheck]]) -> list[tuple[PageTree, PageCheck]]:
    """Give a page whose source names no edition the edition of its crawl."""
    known = {t.page.edition for t, _ in read if t.page.edition and t.page.format == "nuxt-payload"}
    out: list[tuple[PageTree, PageCheck]] = []
    for tree, check in read:
        page = tree.page
        if page.edition:
            out.append((tree, check))
        elif len(known) == 1:
            edition = next(iter(known))
            tree = PageTree(replace(page, edition=edition), tree.roots, tree.notes)
            out.append((tree, replace(check, edition=edition)))
        else:
            raise InputError(
                _("cannot tell which edition this page belongs to (its 'source' names no year)"),
                file=page.file,
                place=page.loc.path,
                fix=_("put the file in a corpus folder named after the edition's year, e.g. corpus/2017/"),
            )
    return out


def from_pages(pages: list[Page], roots: tuple[str, ...] = (), settings: Settings | None = None) -> Corpus:
    """Build editions from pages already read."""
    return from_trees([read_page(p) for p in pages], roots, settings)


def read_page(page: Page) -> tuple[PageTree, PageCheck]:
    """A page's tree and its lossless accounting: what the cache keeps of a file.

    Once accounted for, the page's blocks, fragments and furniture (its
    source text, again) are dropped: the editions are built from the tree.
    """
    tree = build_page(page)
    check = account(tree)
    slim = replace(page, blocks=(), fragments=(), furniture=())
    return PageTree(slim, tree.roots, tree.notes), check


def from_trees(
    read: list[tuple[PageTree, PageCheck]], roots: tuple[str, ...] = (), settings: Settings | None = None
) -> Corpus:
    """Build editions from page trees already built and checked."""
    settings = settings or Settings()
    read = _resolve_editions(read)
    trees = [t for t, _ in read]
    checks = [c for _, c in read]
    # An amendment page is a version of its edition; without any page of
    # that edition to amend it is read as a page of the edition itself.
    have = {t.page.edition for t in trees if not t.page.effective}
    base_trees = [t for t in trees if not t.page.effective or t.page.edition not in have]
    amendment_trees = [t for t in trees if t.page.effective and t.page.edition in have]
    families: dict[str, set[str]] = {}
    for t in base_trees:
        families.setdefault(t.page.edition, set()).add(FAMILY.get(t.page.format, t.page.format))
    builders: dict[tuple[str, str], EditionBuilder] = {}
    # Container pages first, so that an article read both from its chapter
    # page and from its own page sits where the chapter puts it; the pages of
    # one draft (one per chapter it opens) keep the draft's order.
    deepest: dict[str, int] = {}
    for t in base_trees:
        deepest[t.page.file] = max(deepest.get(t.page.file, 0), len(t.page.containers))

    def order(t: PageTree) -> tuple[int, str]:
        depth = deepest[t.page.file] if FAMILY.get(t.page.format) == "draft" else len(t.page.containers)
        return -depth, t.page.file

    for tree in sorted(base_trees, key=order):
        year = tree.page.edition
        family = FAMILY.get(tree.page.format, tree.page.format)
        name = f"{year}@{family}" if len(families[year]) > 1 else year
        key = (year, family)
        if key not in builders:
            builders[key] = EditionBuilder(name)
        builders[key].add(tree)
    texts: ReadTexts = {}  # the texts the editions share, and their references: read once
    # (The printings are not known yet.)
    variants = sorted((b.build(texts) for b in builders.values()), key=lambda e: (e.year, e.name))
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
    return Corpus(tuple(timeline), tuple(checks), roots, tuple(variants), choices, settings)


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
            _(
                "a page names the edition {year!r}: '@' and '+' are kept for the sources and versions lawdiff "
                "names (2017@wiki, 2017+2024-03-01)"
            ).format(year=year),
            fix=_("title its pages with the year alone ({value})").format(value=year.split("@", 1)[0].split("+", 1)[0]),
        )
    wanted = settings.default.get(year)
    if wanted:
        for e in of_year:
            if e.variant == wanted or e.name == wanted:
                return e
        raise InputError(
            _("the settings make {wanted!r} the default {year}, but the corpus has {names}").format(
                wanted=wanted, year=year, names=", ".join(e.name for e in of_year)
            ),
            file=settings.file,
            fix=_('set [default] "{year}" to one of: {names}').format(
                year=year, names=", ".join(e.variant for e in of_year)
            ),
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
    # An article the edition holds only in part is held in part by its versions too, with what the
    # amendments give of it (the article's heading and the clauses they print).
    held = {art: set(given) for art, given in edition.held_in_part().items()}
    for date in sorted({t.page.effective for t in ordered}):
        for tree in (t for t in ordered if t.page.effective == date):
            given = tuple(d.freeze() for d in tree.roots)
            clauses = amend(clauses, given)
            sources = (*sources, tree.page.source_file())
            for c in (c for root in given for c in root.walk() if c.kind is Kind.ARTICLE and c.address in held):
                held[c.address].update((c.address, *(child.address for child in (*c.children, *c.footnotes))))
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
                parts_held=tuple((art, tuple(sorted(given))) for art, given in sorted(held.items())),
            )
        )
    return versions
