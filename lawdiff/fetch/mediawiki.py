"""Fetching one edition from a MediaWiki into ``DIR/YEAR/``: one export file, its manifest.

The steps: list the edition's pages with their latest revision ids (one
cheap request per batch of pages, :func:`lawdiff.fetch.wikiapi.list_edition`);
keep every page whose revision the folder already holds (in its export, or
in a batch an interrupted fetch left in ``.lawdiff-fetch.partial/``); export
the others in batches of 50 with the API's export (latest revisions only: a
history export by Special:Export repeats revisions), each batch saved whole
as it arrives; then write the one export of the edition and the manifest,
and remove the batches. A fetch killed at any point is resumed by running
it again: it exports only the pages it does not hold yet.
"""

from __future__ import annotations

import copy
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

from lxml import etree

from lawdiff.errors import InputError
from lawdiff.fetch.client import Client, FetchError
from lawdiff.fetch.manifest import PARTIAL, Manifest, clear_temporaries, write_atomic
from lawdiff.fetch.wikiapi import Api, WikiPage, batches, find_api, list_edition
from lawdiff.i18n import gettext as _

__all__ = ["KIND", "WikiFetch", "export_name", "fetch_edition"]

KIND = "mediawiki"
# Pages per export request (the API's limit of titles per request for a user without bot rights).
EXPORT_BATCH = 50


def export_name(edition: str) -> str:
    """The file an edition's export is written to, in its year folder."""
    return f"mediawiki-{edition}.xml"


@dataclass(frozen=True, slots=True)
class WikiFetch:
    """What a fetch of an edition did (or, with ``dry_run``, would do).

    pages: every page of the edition's export, in page id order.
    exported: the titles exported in this run (or to be exported).
    kept: how many pages were held already at their latest revision.
    resumed: how many of those came from an interrupted fetch's batches.
    removed: titles the previous fetch held that the wiki no longer lists.
    path: the export file.
    """

    pages: tuple[WikiPage, ...]
    exported: tuple[str, ...]
    kept: int
    resumed: int
    removed: tuple[str, ...]
    path: Path


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname


def _page_revision(page: etree._Element) -> tuple[int, int]:
    """A ``<page>`` element's id and the id of its (one) revision."""
    pid = rev = 0
    for child in page:
        name = _local(child)
        if name == "id":
            pid = int(child.text or 0)
        elif name == "revision":
            for part in child:
                if _local(part) == "id":
                    rev = max(rev, int(part.text or 0))
    return pid, rev


def _read_export(data: bytes, where: str) -> etree._Element:
    try:
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
    except etree.XMLSyntaxError as exc:
        raise FetchError(_("the wiki's export is not well-formed XML ({exc})").format(exc=exc), file=where) from None
    if _local(root) != "mediawiki":
        raise FetchError(_("the wiki's answer is not a MediaWiki export"), file=where)
    return root


@dataclass
class _Held:
    """The pages a folder holds (id -> (revision, ``<page>``)): the last export's, then those of the batches
    an unfinished fetch left (ids in ``resumed``); and an export root to take the site information from."""

    pages: dict[int, tuple[int, etree._Element]]
    resumed: set[int]
    site_root: etree._Element | None

    def take(self, root: etree._Element, resumed: bool = False) -> None:
        for page in root:
            if _local(page) == "page":
                pid, rev = _page_revision(page)
                self.pages[pid] = (rev, page)
                if resumed:
                    self.resumed.add(pid)
        self.site_root = root if self.site_root is None else self.site_root


def _held_pages(folder: Path, name: str) -> _Held:
    held = _Held({}, set(), None)
    if (folder / name).is_file():
        try:
            held.take(_read_export((folder / name).read_bytes(), str(folder / name)))
        except FetchError:
            raise InputError(
                _("the folder's export cannot be read"),
                file=str(folder / name),
                fix=_("remove it (and .lawdiff-fetch.json) to fetch the edition again"),
            ) from None
    partial = folder / PARTIAL
    for path in sorted(partial.glob("batch-*.xml")) if partial.is_dir() else ():
        try:
            held.take(_read_export(path.read_bytes(), str(path)), resumed=True)
        except FetchError:
            continue  # written atomically, so damaged only by hand: its pages are exported again
    return held


def _assemble(site_root: etree._Element, pages: list[etree._Element]) -> bytes:
    """One export: the site information of ``site_root``, then ``pages``."""
    # The export's default namespace is keyed None in lxml's nsmap, which lxml-stubs do not allow for.
    nsmap = cast("dict[str, str]", site_root.nsmap)
    root = etree.Element(site_root.tag, nsmap=nsmap)
    for key, value in site_root.attrib.items():
        root.set(key, value)
    for child in site_root:
        if _local(child) == "siteinfo":
            root.append(copy.deepcopy(child))
            break
    root.extend(pages)
    for el in root:
        el.tail = None
    etree.indent(root, space="  ")
    data: bytes = etree.tostring(root, xml_declaration=True, encoding="utf-8")
    return data + b"\n"


def fetch_edition(
    client: Client,
    url: str,
    edition: str,
    out: Path,
    dry_run: bool = False,
    progress: Callable[[str], None] | None = None,
) -> WikiFetch:
    """Fetch ``edition`` from the wiki at ``url`` into ``out/edition/`` (see the module's docstring)."""
    say = progress or (lambda _line: None)
    folder = out / edition
    api = find_api(client, url)
    manifest = Manifest.read(folder)
    if manifest is not None:
        manifest.refuse_other(api.url, KIND, folder)
    say(_("{edition}: listing the pages of the edition").format(edition=edition))
    pages = list_edition(api, edition)
    if not pages:
        raise FetchError(
            _("the wiki has no pages Sjabloon:{edition}:... (template namespace, prefix {edition}:)").format(
                edition=edition
            ),
            file=api.url,
            fix=_("check the edition's year, and that this is the wiki of the laws"),
        )
    name = export_name(edition)
    held = _held_pages(folder, name)
    todo = [p for p in pages if held.pages.get(p.id, (-1,))[0] != p.revision]
    listed = {p.id for p in pages}
    previous = manifest.files.get(name, {}).get("pages", []) if manifest else []
    removed = tuple(str(p["title"]) for p in previous if isinstance(p, dict) and p.get("id") not in listed)
    resumed = sum(1 for p in pages if p.id in held.resumed and p not in todo)
    path = folder / name
    result = WikiFetch(tuple(pages), tuple(p.title for p in todo), len(pages) - len(todo), resumed, removed, path)
    if dry_run or (not todo and not removed and not held.resumed and path.is_file()):
        return result
    clear_temporaries(folder)
    run = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    state = Manifest(api.url, KIND, edition, "", manifest.run if manifest and not manifest.fetched else run)
    state.files = manifest.files if manifest else {}
    state.write(folder)
    _export_batches(api, folder, todo, held, say, edition)
    if held.site_root is None:
        raise FetchError(_("the wiki gave no export"), file=api.url)
    write_atomic(path, _assemble(held.site_root, [held.pages[p.id][1] for p in pages if p.id in held.pages]))
    state.fetched = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    state.files = {name: {"pages": [{"id": p.id, "title": p.title, "revision": held.pages[p.id][0]} for p in pages]}}
    state.write(folder)
    shutil.rmtree(folder / PARTIAL, ignore_errors=True)
    return result


def _export_batches(
    api: Api, folder: Path, todo: list[WikiPage], held: _Held, say: Callable[[str], None], edition: str
) -> None:
    """Export ``todo`` in batches, each saved whole in the partial folder as it arrives, into ``held``."""
    done = 0
    for batch in batches((p.id for p in todo), EXPORT_BATCH):
        say(
            _("{edition}: exporting pages {first}-{last} of {n}").format(
                edition=edition, first=done + 1, last=done + len(batch), n=len(todo)
            )
        )
        data = api.export(batch)
        root = _read_export(data, api.url)
        write_atomic(folder / PARTIAL / f"batch-{batch[0]:09d}.xml", data)
        held.take(root)
        done += len(batch)
