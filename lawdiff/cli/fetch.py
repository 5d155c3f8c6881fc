"""``lawdiff fetch``: an edition from the wiki, or the 2017 site, into a corpus folder; and
``lawdiff check --against URL``'s comparison with the wiki's own rendering (:func:`check_against`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from lawdiff import marks
from lawdiff.cli.language import FilePath, command, option
from lawdiff.cli.terminal import echo
from lawdiff.errors import UsageError
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _

if TYPE_CHECKING:
    from lawdiff.fetch.client import Client
    from lawdiff.fetch.mediawiki import WikiFetch
    from lawdiff.fetch.site import SiteFetch

# The default -o: a folder "corpus" in the current folder, read with --corpus corpus.
DEFAULT_OUTPUT = Path("corpus")


@contextmanager
def progress_line() -> Iterator[Callable[[str], None]]:
    """A progress line on stderr, redrawn in place on a terminal (and nothing when stderr is a file)."""
    live = sys.stderr.isatty()
    width = [0]

    def say(line: str) -> None:
        if live:
            # A page title is the wiki's text: shown under the terminal rule (lawdiff.marks).
            text = marks.escape(line, sys.stderr.encoding or "utf-8")[:100]
            sys.stderr.write("\r" + text + " " * max(0, width[0] - len(text)))
            sys.stderr.flush()
            width[0] = len(text)

    try:
        yield say
    finally:
        if live and width[0]:
            sys.stderr.write("\r" + " " * width[0] + "\r")
            sys.stderr.flush()


@contextmanager
def _client(contact: str, timeout: float, say: Callable[[str], None]) -> Iterator[Client]:
    from lawdiff.fetch.client import Client

    with Client(contact=contact, timeout=timeout, progress=say) as client:
        yield client


@command(
    help=N_(
        "Fetch an edition from the wiki, or the 2017 site, into a corpus folder.\n\n"
        "From a MediaWiki (--edition YEAR): lists the edition's template pages Sjabloon:YEAR:... with "
        "the pages that transclude them, exports them with their templates through the wiki's api.php, "
        "and writes one export DIR/YEAR/mediawiki-YEAR.xml. From the Nuxt site (--site): follows the "
        "table of contents of one page's _payload.json to every page and writes each payload as "
        "DIR/YEAR/nuxt-<page>.payload.json.\n\n"
        "Run it again to update: only pages whose revision changed are exported, and payloads are asked "
        "for conditionally (ETag, Last-Modified) where the server honours that; an interrupted fetch "
        "goes on where it stopped. What was fetched is recorded in DIR/YEAR/.lawdiff-fetch.json, which "
        "the corpus reader skips. One request at a time, with maxlag, and waiting as long as a busy "
        "server asks (Retry-After).\n\n"
        "Example: lawdiff fetch https://wiki.example.org/w/api.php --edition 2017 -o corpus --contact "
        "you@example.org"
    )
)
@click.argument("url")
@option(
    "--edition",
    metavar="YEAR",
    default="",
    help=N_(
        "The edition to fetch from a wiki (its pages Sjabloon:YEAR:...); with --site, the year folder to write"
        " to (default: the year the payloads' source names)."
    ),
)
@option("--site", is_flag=True, help=N_("URL is a page of the Nuxt site (or its _payload.json): fetch every payload."))
@option(
    "-o",
    "--corpus",
    "output",
    type=FilePath(path_type=Path, file_okay=False),
    default=DEFAULT_OUTPUT,
    show_default=True,
    metavar="DIR",
    help=N_("The corpus folder: the edition is written to DIR/YEAR/ (the other commands read it with --corpus DIR)."),
)
@option(
    "--contact",
    default="",
    metavar="EMAIL",
    envvar="LAWDIFF_CONTACT",
    show_envvar=True,
    help=N_("Your e-mail or URL, sent in the User-Agent for the wiki's admins."),
)
@option("--dry-run", is_flag=True, help=N_("List what would be fetched; write nothing."))
@option(
    "--timeout",
    type=click.FloatRange(1, 600),
    default=30.0,
    show_default=True,
    metavar="SECONDS",
    help=N_("Seconds to wait for the server (1 to 600)."),
)
def fetch(url: str, edition: str, site: bool, output: Path, contact: str, dry_run: bool, timeout: float) -> None:
    if not site and not edition:
        raise UsageError(
            _("give --edition YEAR for a wiki, or --site for the Nuxt site"), fix=_("see lawdiff fetch --help")
        )
    if edition and not (edition.isdigit() and len(edition) == 4):
        raise UsageError(
            _("--edition {edition}: not a year").format(edition=edition),
            fix=_("give the edition's year, as in --edition 2017"),
        )
    with progress_line() as say, _client(contact, timeout, say) as client:
        if site:
            from lawdiff.fetch.site import crawl_site

            done = crawl_site(client, url, output, edition, dry_run, say)
            lines = _site_lines(done, dry_run)
        else:
            from lawdiff.fetch.mediawiki import fetch_edition

            wiki = fetch_edition(client, url, edition, output, dry_run, say)
            lines = _wiki_lines(wiki, dry_run)
    echo("\n".join(lines))


def _wiki_lines(done: WikiFetch, dry_run: bool) -> list[str]:
    year = done.path.parent.name
    if dry_run:
        head = _("{year}: would export {n} of {total} pages ({kept} held at their revision):").format(
            year=year, n=len(done.exported), total=len(done.pages), kept=done.kept
        )
        return [head, *(f"  {title}" for title in done.exported)]
    parts = [
        _("{n} exported").format(n=len(done.exported)),
        _("{n} unchanged (same revision)").format(n=done.kept),
    ]
    if done.resumed:
        parts.append(_("{n} from the interrupted fetch").format(n=done.resumed))
    if done.removed:
        parts.append(
            _("{n} no longer on the wiki: {titles}").format(n=len(done.removed), titles=", ".join(done.removed))
        )
    pages = _("{n} pages").format(n=len(done.pages))
    return [f"{year}: {pages}, " + ", ".join(parts) + f" -> {done.path}"]


def _site_lines(done: SiteFetch, dry_run: bool) -> list[str]:
    if dry_run:
        head = _("{edition}: would fetch {n} payloads into {folder}:").format(
            edition=done.edition, n=len(done.files), folder=done.folder
        )
        return [head] + [f"  {name} <- {url}" for name, url, _outcome in done.files]
    from lawdiff.fetch.site import Outcome

    counts: dict[str, int] = {}
    for _name, _url, outcome in done.files:
        counts[outcome] = counts.get(outcome, 0) + 1
    lines = [
        f"  {done.folder.name}/{name}: " + _(outcome)
        for name, _url, outcome in done.files
        if outcome in (Outcome.NEW, Outcome.CHANGED, Outcome.GONE)
    ]
    summary = ", ".join(f"{n} " + _(outcome) for outcome, n in counts.items())
    listed = sum(1 for _name, _url, outcome in done.files if outcome != Outcome.GONE)
    head = _("{edition}: {n} payloads: {summary}").format(edition=done.edition, n=listed, summary=summary)
    return [f"{head}{_how(done)} -> {done.folder}", *lines]


def _how(done: SiteFetch) -> str:
    """Whether the server answered conditional requests, said after the counts."""
    if done.not_modified:
        return _(" (the server honours conditional requests)")
    if done.ignored:
        return _(" (the server ignores conditional requests: all downloaded, only changed files rewritten)")
    if done.unvalidated:
        return _(" (the server gives no ETag or Last-Modified: all downloaded, only changed files rewritten)")
    return ""


def check_against(url: str, paths: list[Path], contact: str = "", timeout: float = 30.0) -> bool:
    """``lawdiff check --against URL``: every wiki page of the corpus against the wiki's rendering.

    Prints, per page, whether lawdiff's words are the wiki's, and where not; True when all agree.
    """
    from lawdiff.corpus.files import corpus_files
    from lawdiff.fetch.differential import check_pages
    from lawdiff.fetch.wikiapi import find_api
    from lawdiff.sources import mediawiki

    exports = []
    for path, display, _hint in corpus_files(paths):
        with path.open("rb") as stream:
            head = stream.read(4096).decode("utf-8", errors="replace")
        if mediawiki.looks_like(head):
            exports.append((path, display))
    if not exports:
        raise UsageError(
            _("the corpus holds no MediaWiki export to check against the wiki"), fix=_("give --corpus DIR")
        )
    with progress_line() as say, _client(contact, timeout, say) as client:
        checks = check_pages(find_api(client, url), exports, say)
    lines: list[str] = []
    for c in checks:
        if not c.differences:
            lines.append(
                _("{file}: {title}: the same {n} words as the wiki's rendering").format(
                    file=c.file, title=c.title, n=c.lawdiff_words
                )
            )
            continue
        n = len(c.differences)
        lines.append(
            _("{file}: {title}: differs from the wiki's rendering in {n} place(s):").format(
                file=c.file, title=c.title, n=n
            )
        )
        for ours, theirs in c.differences:
            lines += [f"  lawdiff: {ours}", f"  wiki:    {theirs}"]
    differ = sum(1 for c in checks if c.differences)
    lines.append(
        _("{n} page(s) checked against {url}: {same} the same, {differ} differ").format(
            n=len(checks), url=url, same=len(checks) - differ, differ=differ
        )
    )
    echo("\n".join(lines))
    return differ == 0
