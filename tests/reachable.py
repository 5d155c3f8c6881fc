"""What a reader can reach in a report folder: every clause text, every anchor and every link target.

The golden lists made from it (``tests/golden/html/reachable-*.txt``, checked by
``tests/test_html_reachable.py``) were taken from the report as it stood before its pages were made
to carry only what changed (issue 26): whatever the pages become, nothing listed there may become
unreachable.  Anything removed on purpose is struck from the list in the same commit.

A page's law texts are read from its blocks of law text (class ``lt``) as a reader reads them: the
old reading (what is not inserted) and the new reading (what is not deleted), white space collapsed;
a clause's label and its footnote markers, which stand beside the text, are left out.  Links are
resolved against the page (``45-history.html#x`` on ``articles/45.html`` is
``articles/45-history.html#x``); a link to the page itself by its top (``#top``) is no target.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import etree
from lxml import html as lxml_html

_SPACE = re.compile(r"\s+")


def _classes(e: etree._Element) -> list[str]:
    return (e.get("class") or "").split()


def _readings(block: etree._Element) -> tuple[str, str]:
    """The old and the new reading of a block of law text."""
    old: list[str] = []
    new: list[str] = []

    def walk(e: etree._Element, in_ins: bool, in_del: bool) -> None:
        tag = e.tag if isinstance(e.tag, str) else ""
        skip = tag == "sup" or "lbl" in _classes(e)
        if not skip:
            ins = in_ins or tag == "ins"
            dele = in_del or tag == "del"
            if e.text:
                if not ins:
                    old.append(e.text)
                if not dele:
                    new.append(e.text)
            for child in e:
                walk(child, ins, dele)
        if e.tail and e is not block:
            if not in_ins:
                old.append(e.tail)
            if not in_del:
                new.append(e.tail)

    walk(block, False, False)
    return _SPACE.sub(" ", "".join(old)).strip(), _SPACE.sub(" ", "".join(new)).strip()


def _target(page: str, href: str) -> str | None:
    """A link's target relative to the report (``articles/45.html#2017-45C4b``), or None for none."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return href
    path = posixpath.normpath(posixpath.join(posixpath.dirname(page), unquote(parts.path))) if parts.path else page
    fragment = unquote(parts.fragment)
    if path == page and fragment in ("", "top"):
        return None
    return f"{path}#{fragment}" if fragment else path


def page_reach(page: str, text: str) -> tuple[set[str], set[str], set[str]]:
    """One page's law texts, ids and link targets."""
    root = lxml_html.document_fromstring(text)
    texts: set[str] = set()
    ids: set[str] = set()
    links: set[str] = set()
    for e in root.iter():
        if not isinstance(e.tag, str):
            continue
        ident = e.get("id")
        if ident:
            ids.add(ident)
        if "lt" in _classes(e):
            texts.update(r for r in _readings(e) if r)
        href = e.get("href")
        if href is not None and e.tag == "a":
            target = _target(page, href)
            if target is not None:
                links.add(target)
    return texts, ids, links


def reach(folder: Path) -> Iterator[tuple[str, str]]:
    """``(page, entry)`` for every page of a report folder: ``text ...``, ``id ...`` and ``link ...``."""
    for path in sorted(folder.rglob("*.html")):
        page = path.relative_to(folder).as_posix()
        texts, ids, links = page_reach(page, path.read_text(encoding="utf-8"))
        for t in texts:
            yield page, f"text {t}"
        for i in ids:
            yield page, f"id {i}"
        for lk in links:
            yield page, f"link {lk}"


def listing(entries: Iterable[tuple[str, str]]) -> str:
    """The golden list: each entry once, sorted, with the pages that hold it (``@ page, page``)."""
    pages: dict[str, list[str]] = {}
    for page, entry in entries:
        pages.setdefault(entry, []).append(page)
    lines = [f"{entry}\n  @ {', '.join(sorted(set(ps)))}" for entry, ps in sorted(pages.items())]
    return "\n".join(lines) + "\n"


def parse_listing(text: str) -> dict[str, set[str]]:
    """A golden list read back: entry -> the pages that hold it."""
    out: dict[str, set[str]] = {}
    entry = None
    for line in text.splitlines():
        if line.startswith("  @ ") and entry is not None:
            out[entry] = set(line[4:].split(", "))
        elif line:
            entry = line
    return out
