"""Reader for Nuxt Content ``_payload.json`` dumps (the 2017 site).

The payload is devalue-encoded (see :mod:`lawdiff.sources.devalue`).  Its
``data`` holds ``navigation_docs`` (the site's table of contents), the page
record, and the page's neighbours (``...-surround``, ignored).  The page
record's ``body`` is minimark: ``{"type": "minimark", "value": [node...]}``
where a node is a string or ``[tag, attributes, *children]``.

How the body becomes blocks:

* ``<p><span id="artikel-45-c"></span></p>`` anchors section C; the ``h2``
  after it (``C. Kaart beschouwd als gespeeld``) gives its label and title;
* ``p`` is a paragraph; ``ol/li`` are numbered subsections (``1.``...), and
  ``(a)``/``(b)`` items written inline in an ``li``, each after a newline,
  are split off as items;
* ``a href="/spelen/...artikel-45#artikel-45-e"`` is a link to ``45E``;
* ``sup > a href="#user-content-fn-..."`` is a footnote marker, and
  ``section.footnotes`` holds the notes (its "Footnotes" heading and the
  ``↩`` back links are site furniture, not law text).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from lawdiff.errors import InputError
from lawdiff.sources import devalue
from lawdiff.sources.base import (
    Block,
    BlockKind,
    Container,
    Fragment,
    Furniture,
    Inline,
    InlineKind,
    LabelStyle,
    Loc,
    NavEntry,
    Page,
)
from lawdiff.sources.normalize import normalize_inline
from lawdiff.sources.wikiname import slug

FORMAT = "nuxt-payload"

_HREF_ARTICLE = re.compile(r"artikel-(?P<num>\d{1,3})(?:#artikel-(?P=num)-(?P<sec>[a-z])(?:-(?P<sub>\d+))?)?$")
_ANCHOR = re.compile(r"^artikel-(?P<num>\d{1,3})-(?P<sec>[a-z])$")
_H2_LABEL = re.compile(r"^(?P<key>[A-Z])\.\s*(?P<title>.*)$")
_INLINE_ITEM = re.compile(r"(?:^|\n)\s*\((?P<key>[a-z]{1,2})\)\s+")
_ARTICLE_TITLE = re.compile(r"^Artikel\s+(?P<num>\d{1,3})\s*(?:[—–-]\s*(?P<title>.*))?$")
_CHAPTER_TITLE = re.compile(r"^(?P<num>\d{1,2})\s*[—–-]\s*(?P<title>.*)$")
_STEM_PART = re.compile(r"^(?P<num>\d+)\.")
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_PRINTING = re.compile(r"\b(\d+e\s+druk)\b", re.IGNORECASE)


def looks_like(text: str) -> bool:
    """Whether text looks like a devalue payload (a JSON array)."""
    # A JSON object is no payload either, but it is JSON: the reader says
    # what is wrong with it (not valid, truncated, not a devalue array).
    return text.lstrip("\ufeff \t\r\n")[:1] in ("[", "{")


def href_address(href: str) -> str:
    """The clause address a site link points at, or "" for other links.

    ``/spelen/juiste-gang-van-zaken/artikel-45#artikel-45-e`` -> ``45E``;
    ``/inleidende-bepalingen/artikel-1`` -> ``1``; ``/definities`` -> ``definities``;
    a link inside the page, ``#artikel-45-d`` -> ``45D``.
    """
    if href.startswith("#artikel-"):
        # A link inside the page ("#artikel-45-d") names its article too.
        m = re.match(r"#artikel-(\d{1,3})\b", href)
        return href_address(f"/artikel-{m.group(1)}{href}") if m else ""
    if not href.startswith("/"):
        return ""
    m = _HREF_ARTICLE.search(href)
    if m:
        addr = m.group("num")
        if m.group("sec"):
            addr += m.group("sec").upper()
            if m.group("sub"):
                addr += m.group("sub")
        return addr
    last = href.split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return slug(last)


def read(text: str, file: str, edition_hint: str = "") -> list[Page]:
    """Read one payload file into its page (one page per payload)."""
    try:
        decoded = devalue.loads(text)
    except devalue.DevalueError as exc:
        raise InputError(
            exc.what,
            file=file,
            place=exc.where,
            fix="the payload is damaged: save the page's _payload.json again",
        ) from None
    root = decoded.value
    data = root.get("data") if isinstance(root, dict) else None
    if not isinstance(data, dict):
        raise InputError(
            "the payload has no 'data' object",
            file=file,
            place="$[0]",
            fix="give the _payload.json of a page of the site",
        )
    record = None
    record_key = ""
    for key, value in data.items():
        if isinstance(value, dict) and "body" in value:
            record, record_key = value, key
            break
    if record is None:
        raise InputError(
            "the payload holds no page with a body",
            file=file,
            place=decoded.where(data),
            fix="give the _payload.json of a content page, not of a listing",
        )
    body = record.get("body")
    if not isinstance(body, dict) or not isinstance(body.get("value"), list):
        raise InputError(
            f"the page {record_key!r} has no minimark body",
            file=file,
            place=decoded.where(record),
            fix="give a payload written by Nuxt Content 3 (body type 'minimark')",
        )
    return [_page(decoded, data, record, body, file, edition_hint)]


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


def _str(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None or value is devalue.UNDEFINED else str(value)


def _page(
    decoded: devalue.Decoded,
    data: dict[str, Any],
    record: dict[str, Any],
    body: dict[str, Any],
    file: str,
    edition_hint: str,
) -> Page:
    source = _str(record.get("source"))
    year = _YEAR.search(source)
    # A page whose source names no year (a preface in a site crawl) takes
    # the edition of the other pages of its crawl: lawdiff.corpus decides,
    # and says so when it cannot.
    edition = year.group(1) if year else edition_hint
    printing_m = _PRINTING.search(source)
    printing = printing_m.group(1) if printing_m else source
    title = _str(record.get("title"))
    path = _str(record.get("path"))
    containers: list[Container] = []
    chapter = record.get("chapter")
    if isinstance(chapter, int) and not isinstance(chapter, bool):
        containers.append(Container("chapter", f"H{chapter}", str(chapter), _str(record.get("chapter_title"))))
        part = record.get("part")
        if isinstance(part, int) and not isinstance(part, bool):
            containers.append(Container("part", f"H{chapter}.{part}", str(part), _str(record.get("part_title"))))
    scope, scope_title, scope_label = "", "", ""
    if m := _ARTICLE_TITLE.match(title):
        scope, scope_title = m.group("num"), (m.group("title") or "").strip()
        scope_label = f"Artikel {m.group('num')}"
    else:
        scope = href_address(path) or slug(title)
        scope_title = title
    meta: list[tuple[str, str]] = []
    for key in (
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
    ):
        value = record.get(key)
        if value is None or value is devalue.UNDEFINED or value == "":
            continue
        meta.append((key, _meta_text(value)))
    effective = ""
    amends: tuple[str, ...] = ()
    raw_date = record.get("ingangsdatum")
    if raw_date not in (None, "", devalue.UNDEFINED, devalue.INVALID_DATE):
        effective = parse_date(raw_date)
        if not effective:
            raise InputError(
                f"the amendment's date {_meta_text(raw_date)!r} is not a date",
                file=file,
                place=decoded.where(record),
                fix="write ingangsdatum as 2024-03-01 or '1 maart 2024'",
            )
        amends = tuple(dict.fromkeys(re.findall(r"\d{1,3}", _meta_text(record.get("betreft_artikelen") or ""))))
        # An amendment page carries its articles under their own headings.
        scope, scope_title, scope_label = href_address(path) or slug(title), title, ""
    walker = _Walker(decoded, file)
    walker.body(body["value"])
    nav = _navigation(data.get("navigation_docs"))
    return Page(
        file=file,
        format=FORMAT,
        edition=edition,
        name=path or title,
        loc=Loc(file, 0, decoded.where(record)),
        printing=printing,
        containers=tuple(containers),
        scope=scope,
        scope_title=scope_title,
        scope_label=scope_label,
        blocks=tuple(walker.blocks),
        fragments=tuple(walker.fragments),
        furniture=tuple(walker.furniture),
        navigation=nav,
        meta=tuple(meta),
        effective=effective,
        amends=amends,
    )


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
        title = _str(item.get("title"))
        path = _str(item.get("path"))
        stem = _str(item.get("stem"))
        address = ""
        if m := _ARTICLE_TITLE.match(title):
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


@dataclass
class _Run:
    """Inline text being collected, with its links and footnote markers."""

    text: str = ""
    inlines: list[Inline] = field(default_factory=list)

    def add(self, s: str) -> None:
        self.text += s


class _Walker:
    def __init__(self, decoded: devalue.Decoded, file: str) -> None:
        self.decoded = decoded
        self.file = file
        self.blocks: list[Block] = []
        self.fragments: list[Fragment] = []
        self.furniture: list[Furniture] = []
        self.pending_anchor: tuple[str, Loc] | None = None
        # The block element being read: text nodes are strings, which the
        # payload shares by value, so their place is the element holding them.
        self.at = Loc(file, 0, "$")

    def loc(self, node: Any) -> Loc:
        return Loc(self.file, 0, self.decoded.where(node))

    def body(self, nodes: list[Any]) -> None:
        body_loc = self.loc(nodes)
        for node in nodes:
            self.at = body_loc
            self.top(node)
        self.flush_anchor()

    def flush_anchor(self) -> None:
        if self.pending_anchor:
            key, loc = self.pending_anchor
            self.blocks.append(Block(BlockKind.LABELED, loc, LabelStyle.UPPER, f"{key}.", key))
            self.pending_anchor = None

    def top(self, node: Any) -> None:
        if isinstance(node, str):
            if node.strip():
                self.paragraph(node, [node], self.at)
            return
        if not isinstance(node, list) or not node:
            return
        tag, attrs, children = node[0], node[1] if len(node) > 1 and isinstance(node[1], dict) else {}, node[2:]
        loc = self.loc(node)
        self.at = loc
        if tag == "p" and len(children) == 1 and isinstance(children[0], list) and children[0][:1] == ["span"]:
            span_attrs = children[0][1] if len(children[0]) > 1 else {}
            m = _ANCHOR.match(_str(span_attrs.get("id")) if isinstance(span_attrs, dict) else "")
            if m and len(children[0]) <= 2:
                self.flush_anchor()
                self.pending_anchor = (m.group("sec").upper(), loc)
                return
        if tag in ("h1", "h2", "h3", "h4"):
            run = self.inline(children)
            heading = run.text.strip()
            art = _ARTICLE_TITLE.match(heading)
            if art:
                # An article heading inside a body (amendment pages); the
                # label keeps the printed dash, so that nothing is lost.
                self.flush_anchor()
                title = (art.group("title") or "").strip()
                label = heading[: art.start("title")].strip() if art.group("title") is not None else heading
                self.blocks.append(Block(BlockKind.ARTICLE, loc, label=label, key=art.group("num"), title=title))
                return
            m = _H2_LABEL.match(run.text.strip())
            if m:
                key = m.group("key")
                if self.pending_anchor and self.pending_anchor[0] != key:
                    self.flush_anchor()
                self.pending_anchor = None
                self.blocks.append(
                    Block(BlockKind.LABELED, loc, LabelStyle.UPPER, f"{key}.", key, title=m.group("title").strip())
                )
            elif self.pending_anchor:
                key, _ = self.pending_anchor
                self.pending_anchor = None
                self.blocks.append(
                    Block(BlockKind.LABELED, loc, LabelStyle.UPPER, f"{key}.", key, title=run.text.strip())
                )
            else:
                self.blocks.append(
                    Block(
                        BlockKind.PARAGRAPH,
                        loc,
                        title=run.text.strip(),
                        notes=(f"heading <{tag}> without a section label",),
                    )
                )
            return
        self.flush_anchor()
        if tag == "section" and "footnotes" in _classes(attrs):
            self.footnotes(children)
            return
        if tag in ("ol", "ul"):
            self.listing(tag, attrs, children, depth=0)
            return
        run = self.inline(children)
        self.paragraph_run(run, loc)

    def paragraph(self, text: str, _nodes: list[Any], loc: Loc) -> None:
        run = _Run()
        run.add(normalize_inline(text))
        self.fragments.append(Fragment(text, loc))
        self.paragraph_run(run, loc)

    def paragraph_run(self, run: _Run, loc: Loc) -> None:
        text, inlines = _finish(run)
        if text:
            self.blocks.append(Block(BlockKind.PARAGRAPH, loc, text=text, inlines=tuple(inlines)))

    def listing(self, tag: str, attrs: dict[str, Any], children: list[Any], depth: int) -> None:
        start = attrs.get("start")
        number = start if isinstance(start, int) and not isinstance(start, bool) else 1
        for child in children:
            if not (isinstance(child, list) and child[:1] == ["li"]):
                continue
            loc = self.loc(child)
            self.at = loc
            li_children = child[2:]
            nested = [c for c in li_children if isinstance(c, list) and c[:1] in (["ol"], ["ul"])]
            inline_children = [c for c in li_children if c not in nested]
            run = self.inline(inline_children)
            pieces = _split_items(run)
            head_text, head_inlines = pieces[0][1], pieces[0][2]
            if tag == "ol":
                style = LabelStyle.NUMBER if depth == 0 else LabelStyle.PAREN
                key = str(number) if style is LabelStyle.NUMBER else chr(ord("a") + number - 1)
                label = f"{key}." if style is LabelStyle.NUMBER else f"({key})"
                self.blocks.append(
                    Block(BlockKind.LABELED, loc, style, label, key, text=head_text, inlines=head_inlines)
                )
            else:
                self.blocks.append(
                    Block(BlockKind.LIST_ITEM, loc, LabelStyle.DASH, "-", text=head_text, inlines=head_inlines)
                )
            for key, text, inlines in pieces[1:]:
                self.blocks.append(
                    Block(BlockKind.LABELED, loc, LabelStyle.PAREN, f"({key})", key, text=text, inlines=inlines)
                )
            for sub in nested:
                self.listing(sub[0], sub[1] if isinstance(sub[1], dict) else {}, sub[2:], depth + 1)
            number += 1

    def footnotes(self, children: list[Any]) -> None:
        for child in children:
            if not isinstance(child, list) or not child:
                continue
            if child[0] in ("h2", "h3"):
                run = self.inline(child[2:], record=False)
                self.furniture.append(Furniture(run.text, self.loc(child), "site heading of the footnotes"))
                continue
            if child[0] == "ol":
                for n, li in enumerate((c for c in child[2:] if isinstance(c, list) and c[:1] == ["li"]), start=1):
                    self.at = self.loc(li)
                    run = self.inline(li[2:])
                    text, inlines = _finish(run)
                    self.blocks.append(
                        Block(
                            BlockKind.FOOTNOTE,
                            self.loc(li),
                            label=f"{n}.",
                            key=str(n),
                            text=text,
                            inlines=tuple(inlines),
                        )
                    )

    def inline(self, nodes: list[Any], record: bool = True) -> _Run:
        run = _Run()
        for node in nodes:
            self._inline(node, run, record)
        return run

    def _inline(self, node: Any, run: _Run, record: bool) -> None:
        if isinstance(node, str):
            if record:
                self.fragments.append(Fragment(node, self.at))
            run.add(normalize_inline(node))
            return
        if not isinstance(node, list) or not node:
            return
        tag = node[0]
        attrs = node[1] if len(node) > 1 and isinstance(node[1], dict) else {}
        children = node[2:]
        if tag == "br":
            run.add("\n")
            return
        if tag == "sup":
            link = next((c for c in children if isinstance(c, list) and c[:1] == ["a"]), None)
            href = _str(link[1].get("href")) if link and isinstance(link[1], dict) else ""
            if href.startswith("#user-content-fn"):
                inner = self.inline(link[2:] if link else [], record=record)
                number = inner.text.strip()
                pos = len(run.text)
                run.inlines.append(Inline(InlineKind.FOOTNOTE_REF, pos, pos, number, number))
                return
        if tag == "a":
            href = _str(attrs.get("href"))
            if "data-footnote-backref" in _classes(attrs) or "dataFootnoteBackref" in attrs:
                inner = self.inline(children, record=False)
                self.furniture.append(Furniture(inner.text, self.loc(node), "footnote back link"))
                return
            start = len(run.text)
            for child in children:
                self._inline(child, run, record)
            target = href_address(href)
            if target:
                run.inlines.append(Inline(InlineKind.LINK, start, len(run.text), target, run.text[start:]))
            return
        for child in children:
            self._inline(child, run, record)


def _classes(attrs: dict[str, Any]) -> list[str]:
    cls = attrs.get("className", attrs.get("class"))
    if isinstance(cls, list):
        return [str(c) for c in cls]
    if isinstance(cls, str):
        return cls.split()
    return []


def _finish(run: _Run) -> tuple[str, list[Inline]]:
    """Strip the run and collapse HTML white space, keeping inline offsets right."""
    return _slice(run.text, run.inlines, 0, len(run.text))


def _slice(text: str, inlines: list[Inline], start: int, end: int) -> tuple[str, list[Inline]]:
    """Cut ``text[start:end]``, strip it, collapse white space; move inlines along."""
    out: list[str] = []
    mapping: dict[int, int] = {}
    prev_space = True
    for i in range(start, end):
        ch = text[i]
        mapping[i] = len(out)
        if ch.isspace():
            if not prev_space:
                out.append(" ")
            prev_space = True
        else:
            out.append(ch)
            prev_space = False
    mapping[end] = len(out)
    result = "".join(out)
    stripped = result.rstrip(" ")
    new_inlines: list[Inline] = []
    for x in inlines:
        if start <= x.start <= end and x.end <= end:
            s = min(mapping.get(x.start, len(stripped)), len(stripped))
            e = min(mapping.get(x.end, len(stripped)), len(stripped))
            new_inlines.append(Inline(x.kind, s, e, x.value, x.printed))
    return stripped, new_inlines


def _split_items(run: _Run) -> list[tuple[str, str, tuple[Inline, ...]]]:
    """Split an ``li``'s text on inline ``(a)``/``(b)`` items written after newlines.

    Returns ``[("", head_text, inlines), (key, text, inlines), ...]``.
    """
    cuts = [m for m in _INLINE_ITEM.finditer(run.text)]
    # Only a run of consecutive letters (a, b, c...) is an item list; an
    # isolated "(b)" inside a sentence is text.
    if not cuts or cuts[0].group("key") != "a":
        text, inlines = _finish(run)
        return [("", text, tuple(inlines))]
    pieces: list[tuple[str, str, tuple[Inline, ...]]] = []
    text, inlines = _slice(run.text, run.inlines, 0, cuts[0].start())
    pieces.append(("", text, tuple(inlines)))
    for i, m in enumerate(cuts):
        end = cuts[i + 1].start() if i + 1 < len(cuts) else len(run.text)
        text, inlines = _slice(run.text, run.inlines, m.end(), end)
        pieces.append((m.group("key"), text, tuple(inlines)))
    return pieces
