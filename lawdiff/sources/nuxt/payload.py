"""The page record of a payload: metadata, dates, the table of contents."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from lawdiff.errors import InputError
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _
from lawdiff.i18n.said import Said
from lawdiff.sources.base import (
    Container,
    Loc,
    NavEntry,
    Page,
)
from lawdiff.sources.nuxt import devalue
from lawdiff.sources.nuxt.minimark import ARTICLE_TITLE, Walker, href_address, text_value
from lawdiff.sources.wikiname import slug

FORMAT = "nuxt-payload"

_CHAPTER_TITLE = re.compile(r"^(?P<num>\d{1,2})\s*[—–-]\s*(?P<title>.*)$")
_STEM_PART = re.compile(r"^(?P<num>\d+)\.")
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_PRINTING = re.compile(r"\b(\d+e\s+druk)\b", re.IGNORECASE)


def looks_like(text: str) -> bool:
    """Whether text looks like a devalue payload (a JSON array)."""
    # A JSON object is no payload either, but it is JSON: the reader says
    # what is wrong with it (not valid, truncated, not a devalue array).
    return text.lstrip("\ufeff \t\r\n")[:1] in ("[", "{")


def read(text: str, file: str, edition_hint: str = "") -> list[Page]:
    """Read one payload file into its page (one page per payload)."""
    try:
        decoded = devalue.loads(text)
    except devalue.DevalueError as exc:
        raise InputError(
            exc.what,
            file=file,
            place=exc.where,
            fix=_("the payload is damaged: save the page's _payload.json again"),
        ) from None
    root = decoded.value
    data = root.get("data") if isinstance(root, dict) else None
    if not isinstance(data, dict):
        raise InputError(
            _("the payload has no 'data' object"),
            file=file,
            place="$[0]",
            fix=_("give the _payload.json of a page of the site"),
        )
    record = None
    record_key = ""
    for key, value in data.items():
        if isinstance(value, dict) and "body" in value:
            record, record_key = value, key
            break
    if record is None:
        raise InputError(
            _("the payload holds no page with a body"),
            file=file,
            place=decoded.where(data),
            fix=_("give the _payload.json of a content page, not of a listing"),
        )
    body = record.get("body")
    if not isinstance(body, dict) or not isinstance(body.get("value"), list):
        raise InputError(
            _("the page {record_key!r} has no minimark body").format(record_key=record_key),
            file=file,
            place=decoded.where(record),
            fix=_("give a payload written by Nuxt Content 3 (body type 'minimark')"),
        )
    page = _page(decoded, data, record, body, file, edition_hint)
    if decoded.replaced:
        page = _note_surrogates(page, decoded.replaced)
    return [page]


def _note_surrogates(page: Page, replaced: tuple[int, ...]) -> Page:
    """Say where lone surrogates were read as U+FFFD: on the blocks that show one, else the first block."""
    where: str = ", ".join(f"$[{i}]" for i in replaced[:5])
    if len(replaced) > 5:
        where = Said(N_("{places} and {n} more"), places=where, n=len(replaced) - 5)
    # Translators: {where}: the places in the JSON ("$[12], $[40]"); the escapes and U+FFFD as they are.
    note = Said(
        N_("the JSON holds a lone surrogate (\\ud800-\\udfff, no character) in {where}: read as U+FFFD (\ufffd)"),
        where=where,
    )
    blocks = list(page.blocks)
    hits = [i for i, b in enumerate(blocks) if "\ufffd" in b.text or "\ufffd" in b.title] or [0][: len(blocks)]
    for i in hits:
        blocks[i] = replace(blocks[i], notes=(*blocks[i].notes, note))
    return replace(page, blocks=tuple(blocks))


def _meta_text(value: Any) -> str:
    """A metadata value as text: ISO dates, lists joined with commas (never a Python repr)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return ", ".join(_meta_text(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return str(value)


def _page(
    decoded: devalue.Decoded,
    data: dict[str, Any],
    record: dict[str, Any],
    body: dict[str, Any],
    file: str,
    edition_hint: str,
) -> Page:
    source = text_value(record.get("source"))
    year = _YEAR.search(source)
    # A page whose source names no year (a preface in a site crawl) takes
    # the edition of the other pages of its crawl: lawdiff.corpus decides,
    # and says so when it cannot.
    edition = year.group(1) if year else edition_hint
    printing_m = _PRINTING.search(source)
    printing = printing_m.group(1) if printing_m else source
    title = text_value(record.get("title"))
    path = text_value(record.get("path"))
    containers = _containers(record)
    scope, scope_title, scope_label = _scope(title, path)
    meta = _meta(record)
    effective, amends = _amendment(decoded, record, file)
    if effective:
        # An amendment page carries its articles under their own headings.
        scope, scope_title, scope_label = href_address(path) or slug(title), title, ""
    walker = Walker(decoded, file)
    walker.body(body["value"])
    nav = _navigation(data.get("navigation_docs"))
    return Page(
        file=file,
        format=FORMAT,
        edition=edition,
        name=path or title,
        loc=Loc(file, 0, decoded.where(record)),
        printing=printing,
        containers=containers,
        scope=scope,
        scope_title=scope_title,
        scope_label=scope_label,
        blocks=tuple(walker.blocks),
        fragments=tuple(walker.fragments),
        furniture=tuple(walker.furniture),
        navigation=nav,
        meta=meta,
        effective=effective,
        amends=amends,
    )


def _containers(record: dict[str, Any]) -> tuple[Container, ...]:
    """The chapter and part a page's record names."""
    containers: list[Container] = []
    chapter = record.get("chapter")
    if isinstance(chapter, int) and not isinstance(chapter, bool):
        containers.append(Container("chapter", f"H{chapter}", str(chapter), text_value(record.get("chapter_title"))))
        part = record.get("part")
        if isinstance(part, int) and not isinstance(part, bool):
            containers.append(Container("part", f"H{chapter}.{part}", str(part), text_value(record.get("part_title"))))
    return tuple(containers)


def _scope(title: str, path: str) -> tuple[str, str, str]:
    """What a page stands for, by its title: (scope, scope title, scope label)."""
    if m := ARTICLE_TITLE.match(title):
        return m.group("num"), (m.group("title") or "").strip(), f"Artikel {m.group('num')}"
    return href_address(path) or slug(title), title, ""


# The fields of a page's record kept as its meta, in this order.
_META_KEYS = (
    "title",
    "path",
    "stem",
    "chapter",
    "chapter_title",
    "part",
    "part_title",
    "pages",
    "source",
    "betreft_artikelen",
    "ingangsdatum",
    "description",
)


def _meta(record: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The record's fields that have a value, as text."""
    meta: list[tuple[str, str]] = []
    for key in _META_KEYS:
        value = record.get(key)
        if value is None or value is devalue.UNDEFINED or value == "":
            continue
        meta.append((key, _meta_text(value)))
    return tuple(meta)


def _amendment(decoded: devalue.Decoded, record: dict[str, Any], file: str) -> tuple[str, tuple[str, ...]]:
    """An amendment page's date in effect and the articles it amends; ("", ()) for a page of the law."""
    raw_date = record.get("ingangsdatum")
    if raw_date in (None, "", devalue.UNDEFINED, devalue.INVALID_DATE):
        return "", ()
    effective = parse_date(raw_date)
    if not effective:
        raise InputError(
            _("the amendment's date {value!r} is not a date").format(value=_meta_text(raw_date)),
            file=file,
            place=decoded.where(record),
            fix=_("write ingangsdatum as 2024-03-01 or '1 maart 2024'"),
        )
    amends = tuple(dict.fromkeys(re.findall(r"\d{1,3}", _meta_text(record.get("betreft_artikelen") or ""))))
    return effective, amends


_MONTHS = {
    m: i
    for i, m in enumerate(
        (
            "januari",
            "februari",
            "maart",
            "april",
            "mei",
            "juni",
            "juli",
            "augustus",
            "september",
            "oktober",
            "november",
            "december",
        ),
        start=1,
    )
}


def parse_date(value: Any) -> str:
    """An amendment date as ISO text: a datetime, ``2024-03-01...`` or ``1 maart 2024``; "" if none."""
    if hasattr(value, "date") and callable(value.date):
        return str(value.date().isoformat())
    text = _meta_text(value).strip().lower()
    parts: tuple[int, int, int] | None = None
    if m := re.match(r"^(\d{4})-(\d{2})-(\d{2})", text):
        parts = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
    elif (m := re.match(r"^(\d{1,2})\s+([a-z]+)\s+(\d{4})$", text)) and m.group(2) in _MONTHS:
        parts = (int(m.group(3)), _MONTHS[m.group(2)], int(m.group(1)))
    if parts is None:
        return ""
    try:
        return date(*parts).isoformat()  # "31 februari 2025" is no date
    except ValueError:
        return ""


def _navigation(items: Any, depth: int = 0, chapter: str = "") -> tuple[NavEntry, ...]:
    out: list[NavEntry] = []
    if not isinstance(items, list):
        return ()
    for item in items:
        if not isinstance(item, dict):
            continue
        title = text_value(item.get("title"))
        path = text_value(item.get("path"))
        stem = text_value(item.get("stem"))
        address = ""
        if m := ARTICLE_TITLE.match(title):
            address = m.group("num")
        elif depth == 0 and (m := _CHAPTER_TITLE.match(title)) and isinstance(item.get("children"), list):
            # "6 — Het spelen" with its parts and articles is chapter H6; a
            # numbered page without children ("1 — Definities") is a page,
            # addressed as its own page is ("definities").
            address = f"H{m.group('num')}"
        elif depth > 0 and chapter and (p := _STEM_PART.match(stem.rsplit("/", 1)[-1])):
            address = f"{chapter}.{p.group('num')}"
        else:
            address = href_address(path) or slug(title)
        out.append(NavEntry(depth, title, path, address))
        children = item.get("children")
        if isinstance(children, list):
            out.extend(_navigation(children, depth + 1, address if address.startswith("H") else chapter))
    return tuple(out)
