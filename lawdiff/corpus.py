"""A corpus: folders of dumps, read into one clause tree per edition.

A corpus folder holds any number of files of any known format, usually in
``<year>/`` subfolders (``corpus/2007/...``); the format is recognised by
content.  Pages of one edition are merged by address: the same clause from two
files is one clause, and where their wording differs a :class:`Conflict` is
recorded for ``lawdiff check``.

This module also does the lossless accounting behind ``lawdiff check``: for
each page, every word and sign of its source text (after the normalization of
:mod:`lawdiff.sources.normalize`, and apart from the furniture a reader
declares, such as list bullets and the ``---`` rule) must be found among the
strings of the tree built from it.
"""

from __future__ import annotations

import re
import tomllib
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from lawdiff.errors import InputError, UsageError
from lawdiff.model import (
    Clause,
    Conflict,
    Edition,
    Loc,
    NavItem,
    SourceFile,
    amend,
    article_of,
    chronological,
    natural_key,
    normalize_address,
    printing_number,
)
from lawdiff.sources import read_file
from lawdiff.sources.base import Fragment, Page
from lawdiff.sources.build import Draft, PageTree, build_page, page_strings
from lawdiff.sources.normalize import normalize_inline

_YEAR_DIR = re.compile(r"^(\d{4})(?:[+@].*)?$")
_TOKEN = re.compile(r"\w+|[^\w\s]")
SETTINGS_FILE = "lawdiff.toml"


def default_corpus() -> Path:
    """The bundled corpus: shipped inside the package, or the repository's ``corpus/``."""
    packaged = resources.files("lawdiff") / "corpus"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "corpus"


# ---------------------------------------------------------------------------
# Lossless accounting


@dataclass(frozen=True, slots=True)
class Unplaced:
    """Source text that the tree does not account for."""

    loc: Loc
    text: str


@dataclass(frozen=True, slots=True)
class PageCheck:
    """How much of one page's source text its tree accounts for."""

    file: str
    page: str
    edition: str
    format: str
    tokens: int
    placed: int
    unplaced: tuple[Unplaced, ...]
    furniture: int
    notes: tuple[tuple[Loc, str], ...]

    @property
    def ratio(self) -> float:
        return 1.0 if self.tokens == 0 else self.placed / self.tokens


def tokens(text: str) -> list[str]:
    """Words and single signs: the units of the lossless check."""
    return _TOKEN.findall(normalize_inline(text))


def account(tree: PageTree) -> PageCheck:
    """Check that the tree built from a page accounts for all of its text.

    Each fragment first takes its words from its home: the clauses that start
    at its own place, or else at the nearest place before it (a paragraph
    read into the text of the section above it).  What is still missing is
    then taken from whatever is left anywhere in the page's tree.  The totals
    are the same in any order; this order decides where a lost word is
    reported: at the fragment that lost it, not at a later one that happens
    to use the same common word.
    """
    available = Counter(t for s in page_strings(tree) for t in tokens(s))
    local: dict[Loc, Counter[str]] = {}
    for draft in _drafts(tree.roots):
        strings = (draft.label, draft.title, draft.text, draft.extra, draft.marker)
        local.setdefault(draft.source, Counter()).update(t for s in strings for t in tokens(s))
    places = sorted(((pos, loc) for loc in local if (pos := _position(loc)) is not None), key=lambda x: x[0])
    keys = [pos for pos, _ in places]
    pending: list[tuple[Fragment, list[str]]] = []
    for frag in tree.page.fragments:
        pool = local.get(frag.loc)
        pos = _position(frag.loc)
        if pool is None and pos is not None and (i := bisect_right(keys, pos)) > 0:
            pool = local[places[i - 1][1]]
        left: list[str] = []
        for tok in tokens(frag.text):
            if pool is not None and pool[tok] > 0 and available[tok] > 0:
                pool[tok] -= 1
                available[tok] -= 1
            else:
                left.append(tok)
        pending.append((frag, left))
    total = sum(len(tokens(f.text)) for f in tree.page.fragments)
    placed = total
    unplaced: list[Unplaced] = []
    for frag, left in pending:
        missing: list[str] = []
        for tok in left:
            if available[tok] > 0:
                available[tok] -= 1
            else:
                missing.append(tok)
        if missing:
            placed -= len(missing)
            if unplaced and unplaced[-1].loc == frag.loc:
                # The text nodes of one payload element are reported as one place.
                unplaced[-1] = Unplaced(frag.loc, f"{unplaced[-1].text} {' '.join(missing)}")
            else:
                unplaced.append(Unplaced(frag.loc, " ".join(missing)))
    notes = list(tree.notes)
    for clause_notes in _draft_notes(tree.roots):
        notes.append(clause_notes)
    return PageCheck(
        file=tree.page.file,
        page=tree.page.name,
        edition=tree.page.edition,
        format=tree.page.format,
        tokens=total,
        placed=placed,
        unplaced=tuple(unplaced),
        furniture=len(tree.page.furniture),
        notes=tuple(notes),
    )


def _position(loc: Loc) -> int | None:
    """A place's order in its file: the line, or the payload element (devalue numbers them in document order)."""
    if loc.line:
        return loc.line
    m = re.fullmatch(r"\$\[(\d+)\]", loc.path)
    return int(m.group(1)) if m else None


def _drafts(drafts: list[Draft]) -> list[Draft]:
    out: list[Draft] = []
    for d in drafts:
        out.append(d)
        out.extend(_drafts(d.footnotes))
        out.extend(_drafts(d.children))
    return out


def _draft_notes(drafts: list[Draft]) -> list[tuple[Loc, str]]:
    out: list[tuple[Loc, str]] = []
    for d in drafts:
        for n in d.notes:
            out.append((d.source, f"{d.address}: {n}"))
        out.extend(_draft_notes(d.footnotes))
        out.extend(_draft_notes(d.children))
    return out


# ---------------------------------------------------------------------------
# Merging pages into editions


class _EditionBuilder:
    def __init__(self, name: str) -> None:
        self.name = name
        self.roots: list[Draft] = []
        self.index: dict[str, Draft] = {}
        self.conflicts: list[Conflict] = []
        self.sources: list[SourceFile] = []
        self.navigation: tuple[NavItem, ...] = ()
        self.contributed: dict[int, set[str]] = {}

    def add(self, tree: PageTree) -> None:
        page = tree.page
        self.sources.append(
            SourceFile(page.file, page.format, page.name, page.printing, dict(page.meta).get("pages", ""))
        )
        if page.navigation and not self.navigation:
            self.navigation = tuple(NavItem(n.depth, n.title, n.address, n.path) for n in page.navigation)
        for root in tree.roots:
            self._merge(None, root, page.file)

    def _merge(self, parent: Draft | None, d: Draft, file: str) -> None:
        existing = self.index.get(d.address)
        if existing is None:
            existing = replace(d, children=[], footnotes=[], notes=list(d.notes), inlines=list(d.inlines))
            self.index[d.address] = existing
            siblings = (
                self.roots if parent is None else parent.footnotes if d.kind.value == "footnote" else parent.children
            )
            siblings.append(existing)
            if parent is not None:
                self.contributed.setdefault(id(parent), set()).add(file)
        else:
            self._fields(existing, d)
            if parent is not None:
                files = self.contributed.setdefault(id(parent), set())
                files.add(file)
        for f in d.footnotes:
            self._merge(existing, f, file)
        for c in d.children:
            self._merge(existing, c, file)

    def _fields(self, into: Draft, other: Draft) -> None:
        for name in ("title", "text"):
            a, b = getattr(into, name), getattr(other, name)
            if a and b and a != b:
                self.conflicts.append(Conflict(into.address, name, into.source, other.source, a, b))
            elif b and not a:
                setattr(into, name, b)
                if name == "text":
                    into.inlines = list(other.inlines)
        if not into.label and other.label:
            into.label = other.label
        into.extra = into.extra or other.extra

    def build(self) -> Edition:
        self._order(self.roots)
        if len({s.file for s in self.sources}) > 1:
            # Top-level clauses from several files (2017: chapter 6 from
            # artikel-45, chapter 3 from artikel-6): the edition's own order,
            # as its table of contents gives it, else by address.
            position: dict[str, int] = {}
            for i, n in enumerate(self.navigation):
                position.setdefault(n.address, i)
            self.roots.sort(key=lambda d: (position.get(d.address, len(position)), natural_key(d.address)))
        self._titles()
        clauses = tuple(d.freeze() for d in self.roots)
        year_m = re.match(r"\d{4}", self.name)
        return Edition(
            name=self.name,
            year=int(year_m.group(0)) if year_m else 0,
            clauses=clauses,
            sources=tuple(self.sources),
            navigation=self.navigation,
            conflicts=tuple(self.conflicts),
        )

    def _order(self, drafts: list[Draft]) -> None:
        for d in drafts:
            if len(self.contributed.get(id(d), ())) > 1:
                # Children from several files (a section page beside its
                # article page): put them back in label order.
                d.children.sort(key=lambda c: natural_key(c.address))
            self._order(d.children)

    def _titles(self) -> None:
        by_address = {n.address: n for n in self.navigation}
        for d in self.index.values():
            nav = by_address.get(d.address)
            if nav and not d.title and d.kind.value in ("chapter", "part", "paragraaf", "page"):
                d.title = re.sub(r"^\d+\s*[—–-]\s*", "", nav.title)


# ---------------------------------------------------------------------------
# The corpus


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


def corpus_files(paths: list[Path]) -> list[tuple[Path, str, str]]:
    """Files to read: (path, display name, edition hint from a year folder).

    Files are named in reports relative to their corpus folder
    (``2017/nuxt-artikel-45.payload.json``), so that reports read the same on
    every machine; error messages name the path as given (see :func:`load`).
    """
    out: list[tuple[Path, str, str]] = []
    for root in paths:
        if root.is_dir():
            for f in sorted(root.rglob("*")):
                rel = f.relative_to(root)
                if not f.is_file() or any(p.startswith(".") for p in rel.parts) or f.name == SETTINGS_FILE:
                    continue
                hint = next((m.group(1) for p in reversed(rel.parts[:-1]) if (m := _YEAR_DIR.match(p))), "")
                display = rel.as_posix() if len(paths) == 1 else f"{root.name}/{rel.as_posix()}"
                out.append((f, display, hint))
        elif root.exists():
            m = _YEAR_DIR.match(root.parent.name)
            out.append((root, str(root), m.group(1) if m else ""))
        else:
            raise UsageError(f"{root}: no such file or folder", fix="give an existing corpus folder or file")
    return out


def load(paths: list[Path] | None = None) -> Corpus:
    """Read every file under ``paths`` (default: the bundled corpus)."""
    roots = paths or [default_corpus()]
    files = corpus_files(roots)
    pages: list[Page] = []
    for path, display, hint in files:
        try:
            pages.extend(read_file(path, display, hint))
        except InputError as exc:
            # The message must lead the user to the file: the path as given.
            exc.file = str(path)
            raise
    if not pages:
        raise UsageError(
            f"{', '.join(str(r) for r in roots)}: no editions found (the folder holds no dump)",
            fix="give a folder with wiki pages or Nuxt payloads, e.g. corpus/2017/",
        )
    try:
        return from_pages(pages, tuple(str(r) for r in roots), read_settings(roots))
    except InputError as exc:
        given = {display: str(path) for path, display, _ in files}
        exc.file = given.get(exc.file, exc.file)
        raise


# Which family of sources a format belongs to: a corpus may hold one edition
# from the wiki and from the site, and then has both as variants.
FAMILY = {"wiki-text": "wiki", "mediawiki-xml": "wiki", "nuxt-payload": "nuxt"}


@dataclass(frozen=True, slots=True)
class Settings:
    """The corpus settings file (``lawdiff.toml`` in a corpus folder).

    default: for a year held from two sources, which one the bare year means
        (``[default] "2017" = "nuxt"``).
    printing: the printing a source was made from, when its pages do not
        say (``[printing] "2017@wiki" = "2e druk"``).
    """

    default: dict[str, str] = field(default_factory=dict)
    printing: dict[str, str] = field(default_factory=dict)
    file: str = ""  # where the settings were read, for messages


def read_settings(roots: list[Path]) -> Settings:
    """Read ``lawdiff.toml`` from the corpus folders that have one."""
    default: dict[str, str] = {}
    printing: dict[str, str] = {}
    read_from = ""
    for root in roots:
        path = root / SETTINGS_FILE
        if not root.is_dir() or not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise InputError(
                f"the settings are not valid TOML ({exc})",
                file=str(path),
                fix='write e.g. [default] "2017" = "nuxt"',
            ) from None
        for table, into in (("default", default), ("printing", printing)):
            values = data.get(table, {})
            if not isinstance(values, dict) or not all(isinstance(v, str) for v in values.values()):
                raise InputError(
                    f"[{table}] must map names to text",
                    file=str(path),
                    fix='write e.g. [default] "2017" = "nuxt"',
                )
            into.update({str(k): str(v) for k, v in values.items()})
        read_from = str(path)
    return Settings(default, printing, read_from)


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


# ---------------------------------------------------------------------------
# References that lead nowhere


@dataclass(frozen=True, slots=True)
class Dangling:
    """A reference whose target the edition does not hold.

    absent_article: the whole target article is missing from the corpus (the
        corpus holds only part of the edition), as opposed to a target inside
        an article that is present, which is suspect.
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
            absent = bool(art) and edition.find(art) is None
            out.append(Dangling(edition.name, clause.address, ref.target, ref.printed, clause.source, absent))
    return out
