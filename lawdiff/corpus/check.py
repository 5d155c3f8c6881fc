"""``lawdiff check`` page by page: each page read, accounted for and outlined, then dropped.

Each file is read one page at a time (a large MediaWiki export in several
processes, :mod:`lawdiff.corpus.workers`); of each page only its accounting
and its outline are kept (:mod:`lawdiff.corpus.outline`), and the editions
are named from the pages as :func:`lawdiff.corpus.timeline.from_trees`
names them.  An export of 10,000 section pages is then checked in a
fraction of the memory its clause trees take (see
``benchmarks/bench_xml.py``).  Two things need the words themselves, and
are rare: a clause that two pages give with different wording (the report
prints both texts), and amendment pages (their versions are built from the
trees).  When either turns up, the corpus is read the full way
(:func:`lawdiff.corpus.load`) and that is what is reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from lawdiff.cache import Cache
from lawdiff.corpus import timeline
from lawdiff.corpus.dangling import Dangling, dangling_references
from lawdiff.corpus.files import unreadable
from lawdiff.corpus.outline import EditionOutline, NeedsWords, ReadReferences, Record, interned, record
from lawdiff.corpus.settings import SETTINGS_FILE, Settings, read_settings
from lawdiff.corpus.workers import records as workers_records
from lawdiff.corpus.workers import workers_for
from lawdiff.errors import InputError, UsageError
from lawdiff.forked import collector_paused
from lawdiff.i18n import gettext as _
from lawdiff.model import Edition
from lawdiff.sources import checked_pages, iter_file, mediawiki
from lawdiff.sources.build import PageTree

if TYPE_CHECKING:
    from lawdiff.corpus.reading import DraftFile

__all__ = ["check"]

# How much of a file is hashed at a time for its cache key.


def check(
    paths: list[Path] | None = None, cache: Cache | None = None, drafts: Iterable[DraftFile] = ()
) -> tuple[timeline.Corpus, list[Dangling]]:
    """Everything ``lawdiff check`` reports on the files under ``paths`` (default: the bundled corpus).

    Returns the corpus, whose editions are named and hold their conflicts
    but none of their clauses (unless it had to be read whole, see the
    module docstring), and the references that lead nowhere, edition by
    edition as :func:`lawdiff.corpus.dangling_references` lists them.
    ``drafts`` (``--draft``) are checked beside the files: the corpus is
    then read whole, as ``compare`` reads it with the draft, so that a draft
    is never left out of the check without a word.
    """
    from lawdiff.corpus import corpus_files, default_corpus

    roots = paths or [default_corpus()]
    cache = cache or Cache(None)
    drafts = tuple(drafts)
    if drafts:
        return _read_whole(roots, cache, drafts)
    # As in lawdiff.corpus.load: reading makes many small objects and no cycles.
    with collector_paused():
        ignored: list[str] = []
        files = corpus_files(roots, ignored)
        records: list[Record] = []
        errors: list[InputError] = []
        read: ReadReferences = {}  # an edition's texts are mostly the one before it's
        for path, display, hint in files:
            try:
                records.extend(_read_cached(path, display, hint, cache, read))
            except InputError as exc:
                exc.file = str(path)  # the path as given, as lawdiff.corpus.load names it
                errors.append(exc)  # and the other files read on: every one that cannot be is named
        if errors:
            raise unreadable(errors)
        if not records:
            raise UsageError(
                _("{names}: no editions found (the folder holds no dump)").format(
                    names=", ".join(str(r) for r in roots)
                ),
                fix=_("give a folder with wiki pages or Nuxt payloads, e.g. corpus/2017/"),
            )
        try:
            corpus, dangling = _survey(records, tuple(str(r) for r in roots), read_settings(roots))
        except InputError as exc:
            given = {display: str(path) for path, display, _ in files}
            exc.file = given.get(exc.file, exc.file)
            raise
        except NeedsWords:
            records.clear()
            return _read_whole(roots, cache)
        return replace(corpus, skipped=tuple(ignored)), dangling


def _read_whole(
    roots: list[Path], cache: Cache, drafts: tuple[DraftFile, ...] = ()
) -> tuple[timeline.Corpus, list[Dangling]]:
    """The corpus read whole, as ``compare`` reads it, and its references that lead nowhere."""
    from lawdiff.corpus import load

    corpus = load(roots, cache=cache, drafts=drafts)
    return corpus, [d for e in corpus.editions for d in dangling_references(e)]


def _read_cached(path: Path, display: str, hint: str, cache: Cache, read: ReadReferences) -> list[Record]:
    """A file's pages as check keeps them, from the cache when the file's content is known."""
    return cache.by_file("outlines", path, (display, hint), lambda: list(_records(path, display, hint, read)))


def _records(path: Path, display: str, hint: str, read: ReadReferences) -> Iterator[Record]:
    """A file's pages as check keeps them; a large MediaWiki export's made in several processes."""
    workers = workers_for(path)
    if workers:
        made = workers_records(workers, lambda: mediawiki.read_jobs(path, display))
        for page, page_check, page_outline in made:
            # iter_file's refusal of edition names lawdiff keeps for itself, page by page.
            for _ in checked_pages([page]):
                yield page, page_check, interned(page_outline)
        return
    for page in iter_file(path, display, hint):
        yield record(page, read)


def _survey(
    records: list[Record], roots: tuple[str, ...], settings: Settings
) -> tuple[timeline.Corpus, list[Dangling]]:
    """The editions of :func:`lawdiff.corpus.timeline.from_trees`, from outlines; their dangling references."""
    resolved = timeline._resolve_editions([(PageTree(p, [], []), c) for p, c, _ in records])
    pages = [t.page for t, _ in resolved]
    checks = [c for _, c in resolved]
    outlines = [o for _, _, o in records]
    have = {p.edition for p in pages if not p.effective}
    if any(p.effective and p.edition in have for p in pages):
        raise NeedsWords("amendment pages: their versions are built from the trees")
    families: dict[str, set[str]] = {}
    for p in pages:
        families.setdefault(p.edition, set()).add(timeline.FAMILY.get(p.format, p.format))
    # The merge order of from_trees: container pages first, a draft's pages in its order.
    deepest: dict[str, int] = {}
    for p in pages:
        deepest[p.file] = max(deepest.get(p.file, 0), len(p.containers))

    def order(i: int) -> tuple[int, str]:
        p = pages[i]
        depth = deepest[p.file] if timeline.FAMILY.get(p.format) == "draft" else len(p.containers)
        return -depth, p.file

    builders: dict[tuple[str, str], EditionOutline] = {}
    for i in sorted(range(len(pages)), key=order):
        p = pages[i]
        year = p.edition
        family = timeline.FAMILY.get(p.format, p.format)
        name = f"{year}@{family}" if len(families[year]) > 1 else year
        builders.setdefault((year, family), EditionOutline(name)).add(p, outlines[i])
    # from_trees: the variants by year and name (their printings are known only after).
    variants = sorted(builders.values(), key=lambda b: (b.edition().year, b.edition().name))
    named = [(timeline._with_printing(b.edition(), settings), b) for b in variants]
    line: list[tuple[Edition, EditionOutline]] = []
    choices: dict[str, str] = {}
    for year in sorted(families, key=lambda y: (int(y[:4]) if y[:4].isdigit() else 0, y)):
        of_year = [(e, b) for e, b in named if timeline._year_of(e) == year]
        chosen = timeline._default_variant(year, [e for e, _ in of_year], settings)
        builder = next(b for e, b in of_year if e is chosen)
        if len(of_year) > 1:
            choices[year] = (
                f"chosen in {SETTINGS_FILE}"
                if year in settings.default
                else "the newer printing, as no setting chooses"
            )
        line.append((chosen if len(of_year) == 1 else replace(chosen, name=year, variant=chosen.variant), builder))
    # Only the timeline's editions are reported on: each merged, walked and dropped in turn.
    dangling: list[Dangling] = []
    for edition, builder in line:
        dangling.extend(builder.dangling(edition.name))
    corpus = timeline.Corpus(
        tuple(e for e, _ in line), tuple(checks), roots, tuple(e for e, _ in named), choices, settings
    )
    return corpus, dangling
