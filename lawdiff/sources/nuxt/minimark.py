"""The page body in minimark: nodes to blocks (see :mod:`lawdiff.sources.nuxt`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lawdiff.i18n import N_
from lawdiff.i18n.said import Said
from lawdiff.sources.base import (
    Block,
    BlockKind,
    Fragment,
    Furniture,
    Inline,
    InlineKind,
    LabelStyle,
    Loc,
)
from lawdiff.sources.normalize import normalize_inline
from lawdiff.sources.nuxt import devalue
from lawdiff.sources.wikiname import slug

_HREF_ARTICLE = re.compile(r"artikel-(?P<num>\d{1,3})(?:#artikel-(?P=num)-(?P<sec>[a-z])(?:-(?P<sub>\d+))?)?$")
ARTICLE_TITLE = re.compile(r"^Artikel\s+(?P<num>\d{1,3})\s*(?:[—–-]\s*(?P<title>.*))?$")
_ANCHOR = re.compile(r"^artikel-(?P<num>\d{1,3})-(?P<sec>[a-z])$")
_H2_LABEL = re.compile(r"^(?P<key>[A-Z])\.\s*(?P<title>.*)$")
# An item starts a line: after the text's start, or after a newline with only
# white space around it.  Written so that each run of white space is tried
# once (a lookbehind, not "\n\s*" tried from every newline of a long run).
_INLINE_ITEM = re.compile(r"(?:^\s*+|(?<=\S)[^\S\n]*+\n\s*+)\((?P<key>[a-z]{1,2})\)\s++")


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


def text_value(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None or value is devalue.UNDEFINED else str(value)


@dataclass
class _Run:
    """Inline text being collected, with its links and footnote markers.

    The text is kept in pieces (joined when read): a paragraph of 100,000
    text nodes must not be copied once per node.
    """

    parts: list[str] = field(default_factory=list)
    length: int = 0
    inlines: list[Inline] = field(default_factory=list)

    def add(self, s: str) -> None:
        self.parts.append(s)
        self.length += len(s)

    @property
    def text(self) -> str:
        if len(self.parts) > 1:
            self.parts[:] = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""

    def since(self, start: int, index: int) -> str:
        """The text added since the run had ``start`` characters in ``index`` pieces."""
        if index > len(self.parts):
            return self.text[start:]
        return "".join(self.parts[index:])


class Walker:
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
            m = _ANCHOR.match(text_value(span_attrs.get("id")) if isinstance(span_attrs, dict) else "")
            if m and len(children[0]) <= 2:
                self.flush_anchor()
                self.pending_anchor = (m.group("sec").upper(), loc)
                return
        if tag in ("h1", "h2", "h3", "h4"):
            self.heading(tag, children, loc)
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

    def heading(self, tag: str, children: list[Any], loc: Loc) -> None:
        """A heading ``<h1>``-``<h4>``: an article heading, a section's label and title, or an unlabeled heading."""
        run = self.inline(children)
        heading = run.text.strip()
        art = ARTICLE_TITLE.match(heading)
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
            self.blocks.append(Block(BlockKind.LABELED, loc, LabelStyle.UPPER, f"{key}.", key, title=run.text.strip()))
        else:
            self.blocks.append(
                Block(
                    BlockKind.PARAGRAPH,
                    loc,
                    title=run.text.strip(),
                    notes=(Said(N_("heading <{tag}> without a section label"), tag=tag),),
                )
            )

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
            href = text_value(link[1].get("href")) if link and isinstance(link[1], dict) else ""
            if href.startswith("#user-content-fn"):
                inner = self.inline(link[2:] if link else [], record=record)
                number = inner.text.strip()
                pos = run.length
                run.inlines.append(Inline(InlineKind.FOOTNOTE_REF, pos, pos, number, number))
                return
        if tag == "a":
            href = text_value(attrs.get("href"))
            if "data-footnote-backref" in _classes(attrs) or "dataFootnoteBackref" in attrs:
                inner = self.inline(children, record=False)
                self.furniture.append(Furniture(inner.text, self.loc(node), "footnote back link"))
                return
            start, index = run.length, len(run.parts)
            for child in children:
                self._inline(child, run, record)
            target = href_address(href)
            if target:
                run.inlines.append(Inline(InlineKind.LINK, start, run.length, target, run.since(start, index)))
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
