"""HTML renderings: the committee report (a static site) and the one-page comparison.

Markup is built as an lxml tree and serialized by lxml, never pasted from
strings, so law text holding ``<script>``, ``&`` or quotes is always text.
Every page is complete on its own terms: no CDN, no web fonts, no script
needed (``assets/report.js`` only adds a "show only changes" switch, ``n`` /
``p`` keys and a filter for the index), and a Content-Security-Policy that
allows nothing but the report's own stylesheet and script, so that even a
mistake here could not run foreign code.

Changes are marked by ``<ins>`` / ``<del>`` and by words (``modified``,
``renumbered``), never by colour alone; the index's heat map prints a symbol
and a percentage in every cell.

Output is deterministic: the same corpus gives the same bytes (document
order everywhere, no dates).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import os
import re
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from lxml import etree

from lawdiff import __version__
from lawdiff.align import Thresholds
from lawdiff.corpus import Corpus
from lawdiff.diff import Change, ChangeKind, Comparison, History, Op, Piece, RefChange, word_diff
from lawdiff.errors import LawdiffBug, UsageError
from lawdiff.model import Clause, Edition, Kind, article_of, chronological, natural_key, parent_address
from lawdiff.report import article_ranges, where
from lawdiff.report.files import replace_dir_atomic
from lawdiff.report.site import (
    HEAT_LARGE,
    HEAT_NAMES,
    HEAT_SMALL,
    HEAT_SYMBOLS,
    ArticlePlan,
    Heat,
    Listed,
    Node,
    PairView,
    Site,
    anchor,
    article_file,
    article_numbers,
    editorial_by_kind,
    history_file,
    pair_id,
    plan,
    select,
    stale_references,
)

Element = etree._Element
Child = Element | str | None | Iterable["Child"]
Progress = Callable[[int, int], None]

ASSETS = ("report.css", "report.js")
GENERATOR = f"lawdiff {__version__}"

# ---------------------------------------------------------------------------
# Building markup

# Characters XML (and so lxml) refuses; a source could hold them, and a
# report must still be written: they show as U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text) if _NOT_XML.search(text) else text


def el(tag: str, attrs: Mapping[str, str] | None = None, *children: Child) -> Element:
    """An element with attributes and children (strings become text, None is skipped)."""
    e = etree.Element(tag, {key: _clean(value) for key, value in attrs.items()}) if attrs else etree.Element(tag)
    if children:
        add(e, *children)
    return e


def _section(sid: str, heading: list[Child], cls: str | None, *content: Child) -> Element:
    """A ``<section>`` labelled by its ``<h2>`` (ids ``sid`` and ``sid-h``)."""
    attrs = {"class": cls} if cls else {}
    attrs.update({"id": sid, "aria-labelledby": f"{sid}-h"})
    return el("section", attrs, el("h2", {"id": f"{sid}-h"}, *heading), *content)


def add(parent: Element, *children: Child) -> Element:
    for child in children:
        if child is None:
            continue
        if isinstance(child, str):
            if not child:
                continue
            if len(parent):
                last = parent[-1]
                last.tail = (last.tail or "") + _clean(child)
            else:
                parent.text = (parent.text or "") + _clean(child)
        elif isinstance(child, etree._Element):
            parent.append(child)
        else:
            add(parent, *child)
    return parent


# Block elements get a line break after them, so that the files diff well;
# never inside law text, where white space is shown as printed.
_BLOCKS = frozenset(
    (
        *("html", "head", "body", "meta", "link", "title", "script", "style", "header", "nav", "main", "footer"),
        *("section", "article", "div", "p", "h1", "h2", "h3", "h4", "table", "caption", "colgroup", "col"),
        *("thead", "tbody", "tr", "td", "th", "ul", "ol", "li", "dl", "dt", "dd", "details", "summary", "label"),
    )
)
_LAW = "lt"


def _breaks(e: Element) -> None:
    classes = (e.get("class") or "").split()
    if _LAW in classes or e.tag in ("script", "style", "summary", "h1", "h2", "h3", "h4", "li", "th", "dt", "dd"):
        return
    if len(e) and e[0].tag in _BLOCKS and not (e.text or "").strip():
        e.text = "\n"
    for child in e:
        if child.tag in _BLOCKS and not (child.tail or "").strip() and e.tag not in ("p", "label"):
            child.tail = "\n"
        _breaks(child)


def serialize(root: Element) -> str:
    _breaks(root)
    return etree.tostring(root, method="html", encoding="unicode", doctype="<!DOCTYPE html>") + "\n"


def _asset(name: str) -> str:
    return (resources.files("lawdiff.report") / "assets" / name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def _head(title: str, root: str, inline: bool) -> Element:
    """``<head>``: charset, viewport, a strict CSP, the stylesheet and the script."""
    head = el("head")
    add(head, el("meta", {"charset": "utf-8"}))
    add(head, el("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}))
    if inline:
        css, js = _asset("report.css"), _asset("report.js")
        policy = (
            f"default-src 'none'; style-src '{_sha256(css)}'; script-src '{_sha256(js)}'; "
            "img-src data:; base-uri 'none'; form-action 'none'"
        )
    else:
        policy = (
            "default-src 'none'; style-src 'self' file:; script-src 'self' file:; "
            "img-src 'self' file: data:; base-uri 'none'; form-action 'none'"
        )
    add(head, el("meta", {"http-equiv": "Content-Security-Policy", "content": policy}))
    add(head, el("meta", {"name": "generator", "content": GENERATOR}))
    add(head, el("meta", {"name": "color-scheme", "content": "light"}))
    add(head, el("title", None, title))
    if inline:
        # The script goes at the end of the body (an inline script cannot be deferred).
        add(head, el("style", None, css))
    else:
        add(
            head,
            el("link", {"rel": "stylesheet", "href": f"{root}assets/report.css"}),
            el("script", {"src": f"{root}assets/report.js", "defer": "defer"}),
        )
    return head


def _document(title: str, root: str, body: Element, inline: bool = False) -> str:
    html = el("html", {"lang": "en"}, _head(title, root, inline), body)
    if inline:
        add(body, el("script", None, _asset("report.js")))
    return serialize(html)


def _footer(thresholds: Thresholds) -> Element:
    values = ", ".join(f"{k} {v:g}" for k, v in thresholds.as_dict().items())
    return el(
        "footer",
        {"class": "site-footer"},
        el("p", None, f"Made by {GENERATOR}. Law text is shown as read from the sources, never translated or altered."),
        el("p", {"class": "thresholds"}, f"Alignment thresholds: {values}."),
    )


# ---------------------------------------------------------------------------
# Law text with its differences, references and footnote markers


@dataclass(frozen=True, slots=True)
class _Link:
    start: int
    end: int
    href: str
    title: str


@dataclass
class _Page:
    """What a page knows while it is built: its path, its ids and how to link."""

    path: str
    resolve: Callable[[str, str], str | None]
    ids: set[str] = field(default_factory=set)

    def claim(self, ident: str) -> str | None:
        """``ident`` if no element of this page has it yet, else None."""
        if ident in self.ids:
            return None
        self.ids.add(ident)
        return ident


def split_side(pieces: tuple[Piece, ...], side: str, texts: tuple[str, ...]) -> list[list[tuple[Op, str]]]:
    """One side of a difference, cut into the texts of its clauses.

    A change over several clauses (a split, a merge) diffs their texts joined
    by a line break; this undoes the join by length, so that a line break
    inside a clause's own text stays where it is.
    """
    keep = Op.DELETE if side == "old" else Op.INSERT
    stream = [(p.op, p.text) for p in pieces if p.op in (Op.EQUAL, keep)]
    if "".join(t for _, t in stream) != "\n".join(texts):
        raise LawdiffBug(f"the {side} side of a difference does not rebuild its texts")
    out: list[list[tuple[Op, str]]] = [[] for _ in texts]
    i = pos = 0
    for op, text in stream:
        while text:
            room = len(texts[i]) - pos
            if room > 0:
                take = text[:room]
                out[i].append((op, take))
                pos += len(take)
                text = text[len(take) :]
            else:
                text = text[1:]  # the line break that joined two clauses
                i += 1
                pos = 0
    return out


def law_text(
    cls: str, segments: list[tuple[Op, str]], links: Iterable[_Link] = (), marks: Iterable[tuple[int, Element]] = ()
) -> Element:
    """A block of law text (``lang="nl"``) with ``<ins>``, ``<del>``, reference links and footnote markers."""
    box = el("div", {"class": f"{cls} {_LAW}", "lang": "nl"})
    full = "".join(t for _, t in segments)
    ops: list[tuple[int, int, Op]] = []
    pos = 0
    for op, t in segments:
        ops.append((pos, pos + len(t), op))
        pos += len(t)
    link_list = [lk for lk in links if 0 <= lk.start < lk.end <= len(full)]
    mark_list = sorted(((o, m) for o, m in marks if 0 <= o <= len(full)), key=lambda om: om[0])
    cuts = sorted(
        {0, len(full)} | {a for a, _, _ in ops} | {lk.start for lk in link_list} | {lk.end for lk in link_list}
    )
    cuts = sorted(set(cuts) | {o for o, _ in mark_list})
    current: _Link | None = None
    holder: Element = box
    mi = 0
    for a, b in itertools.pairwise(cuts):
        while mi < len(mark_list) and mark_list[mi][0] == a:
            add(box if current is None else holder, mark_list[mi][1])
            mi += 1
        link = next((lk for lk in link_list if lk.start <= a < lk.end), None)
        if link is not current:
            current = link
            if link is None:
                holder = box
            else:
                holder = el("a", {"class": "ref", "href": link.href, "title": link.title})
                add(box, holder)
        op = next(o for s, e, o in ops if s <= a < e)
        text = full[a:b]
        if op is Op.INSERT:
            add(holder, el("ins", None, text))
        elif op is Op.DELETE:
            add(holder, el("del", None, text))
        else:
            add(holder, text)
    for _, m in mark_list[mi:]:
        add(box, m)
    return box


_PRINTINGS: dict[int, tuple[Edition, dict[str, str]]] = {}


def _printing(edition: Edition, file: str) -> str:
    """The printing a source file of the edition states ("" when it states none)."""
    cached = _PRINTINGS.get(id(edition))
    if cached is None or cached[0] is not edition:
        table: dict[str, str] = {}
        for s in edition.sources:
            if s.printing:
                table.setdefault(s.file, s.printing)
        if len(_PRINTINGS) > 64:
            _PRINTINGS.clear()  # a long-lived process keeps no edition alive for long
        cached = _PRINTINGS[id(edition)] = (edition, table)
    return cached[1].get(file, "")


def _source(edition: Edition, clause: Clause) -> Element:
    """Where a clause came from: edition, printing, file and place."""
    printing = _printing(edition, clause.source.file)
    parts = [edition.name] + ([printing] if printing else []) + [where(clause.source)]
    return el("div", {"class": "src"}, el("span", {"class": "vh"}, "Source: "), " · ".join(parts))


def _label(clause: Clause) -> str:
    return clause.label.strip()


class _Clauses:
    """Renders clauses of one edition on one page."""

    def __init__(self, page: _Page, edition: Edition) -> None:
        self.page = page
        self.edition = edition

    def refs(self, clause: Clause) -> list[_Link]:
        out: list[_Link] = []
        for r in clause.references:
            href = self.page.resolve(self.edition.name, r.target)
            if href is not None:
                out.append(_Link(r.start, r.end, href, f"{self.edition.name}:{r.target}"))
        return out

    def marks(self, clause: Clause, fn_href: Callable[[Clause], str | None]) -> list[tuple[int, Element]]:
        out: list[tuple[int, Element]] = []
        for f in clause.footnotes:
            if f.anchor < 0:
                continue
            marker = f.marker or f.label or "*"
            href = fn_href(f)
            inner: Element | str = el("a", {"href": href}, marker) if href else marker
            out.append((f.anchor, el("sup", {"class": "fnref", "title": f"footnote {f.address}"}, inner)))
        return out

    def block(
        self,
        clause: Clause,
        ident: str | None,
        chip_href: str | None,
        title: list[tuple[Op, str]] | None = None,
        text: list[tuple[Op, str]] | None = None,
        fn_href: Callable[[Clause], str | None] = lambda _f: None,
        extra: Child = None,
    ) -> Element:
        """One clause: address, label and title, text, source.

        ``title`` and ``text`` are the clause's own when not given (no
        difference marked); an empty list leaves that part out.
        """
        kind = "fn" if clause.kind is Kind.FOOTNOTE else "art" if clause.kind is Kind.ARTICLE else "cl"
        attrs = {"class": f"clause {kind}"}
        if ident:
            attrs["id"] = ident
        chip: Element = (
            el("a", {"class": "addr", "href": chip_href}, clause.address)
            if chip_href
            else el("span", {"class": "addr"}, clause.address)
        )
        box = el(
            "div",
            attrs,
            el("div", {"class": "ch"}, chip, " ", el("span", {"class": "ed"}, self.edition.name), extra),
        )
        title_segs = [(Op.EQUAL, clause.title)] if title is None and clause.title else title or []
        text_segs = [(Op.EQUAL, clause.text)] if text is None and clause.text else text or []
        label = _label(clause)
        if title_segs:
            heading = law_text("ct", title_segs)
            if label:
                heading.insert(0, el("span", {"class": "lbl"}, label))
                heading[0].tail = " " + (heading.text or "")
                heading.text = None
            add(box, heading)
        if text_segs:
            body = law_text("tx", text_segs, self.refs(clause), self.marks(clause, fn_href))
            if label and not title_segs and clause.kind is not Kind.ARTICLE:
                first = el("span", {"class": "lbl"}, label)
                first.tail = " " + (body.text or "")
                body.text = None
                body.insert(0, first)
            add(box, body)
        add(box, _source(self.edition, clause))
        return box


# ---------------------------------------------------------------------------
# The side-by-side view of one pair


_KIND_WORD = {
    "unchanged": "unchanged",
    "modified": "modified",
    "split": "split",
    "merged": "merged",
    "added": "added",
    "removed": "removed",
}


def _pct(x: float) -> str:
    """A share as a percentage that never rounds a difference away.

    0.998 is "99.8 %", not "100 %", and 0.002 is "0.2 %", not "0 %": only
    what is identical reads 100 % (or, for a share of change, 0 %).
    """
    if x <= 0:
        return "0 %"
    if x >= 1:
        return "100 %"
    whole = round(x * 100)
    if 0 < whole < 100:
        return f"{whole} %"
    tenth = round(x * 100, 1)
    if 0 < tenth < 100:
        return f"{tenth:.1f} %"
    return "<0.1 %" if x < 0.5 else ">99.9 %"


def _similarity(ch: Change) -> str:
    if ch.similarity >= 1:
        # A title changed, or a split cut the same words differently.
        return "no word of the text changed"
    return f"similarity {_pct(ch.similarity)}"


# The kinds of change: each change is counted under exactly one of them.
KIND_COUNTS = (
    ("unchanged", "unchanged"),
    ("modified", "modified"),
    ("split", "split"),
    ("merged", "merged"),
    ("added", "added"),
    ("removed", "removed"),
)
# What may be true of a change of any kind, counted among those above.
FLAG_COUNTS = (
    ("renumbered", "renumbered"),
    ("moved", "moved"),
    ("title_changed", "titles changed"),
)
_OUTSIDE = ("outside_corpus", "outside the corpus")


def _editorial_note(key: str, editorial: Mapping[str, int]) -> str:
    k = editorial.get(key, 0)
    return f" ({k} editorial only)" if k else ""


def counts_phrase(counts: Mapping[str, int], editorial: Mapping[str, int], stale: int = 0) -> str:
    """``5 modified (1 editorial only), 3 renumbered``: the counts that are not zero, in words."""
    parts = [
        f"{counts[key]} {word}{_editorial_note(key, editorial)}"
        for key, word in (*KIND_COUNTS, _OUTSIDE, *FLAG_COUNTS)
        if counts.get(key)
    ]
    if stale:
        parts.append(f"{stale} stale reference{'s' if stale > 1 else ''}")
    return ", ".join(parts)


def counts_list(counts: Mapping[str, int], editorial: Mapping[str, int] | None = None, stale: int = 0) -> Element:
    """The counts of a comparison in the order the committee reads them.

    First the kinds, under which every change counts once (an editorial-only
    change counts as modified, and says so in brackets); then, apart, what
    is true of some of those changes (renumbered, moved, titles changed).
    """
    editorial = editorial or {}
    kinds = el("ul", {"class": "kinds"})
    for key, word in KIND_COUNTS:
        n = counts.get(key, 0)
        add(
            kinds,
            el(
                "li",
                {"class": "zero" if n == 0 else "n"},
                el("b", None, str(n)),
                f" {word}{_editorial_note(key, editorial)}",
            ),
        )
    if counts.get(_OUTSIDE[0]):
        add(
            kinds,
            el(
                "li",
                {"class": "n"},
                el("b", None, str(counts[_OUTSIDE[0]])),
                " added or removed where the other edition's corpus lacks the article",
            ),
        )
    flags = el("ul", {"class": "flags"}, el("li", {"class": "of"}, "of these:"))
    for key, word in FLAG_COUNTS:
        n = counts.get(key, 0)
        add(flags, el("li", {"class": "zero" if n == 0 else "n"}, el("b", None, str(n)), f" {word}"))
    if stale:
        add(
            flags,
            el("li", {"class": "n stale"}, el("b", None, str(stale)), f" stale reference{'s' if stale > 1 else ''}"),
        )
    return el("div", {"class": "counts"}, kinds, flags)


def _ref_item(r: RefChange, page: _Page, old: str, new: str, moved_to: tuple[str, ...] = ()) -> Element:
    def target(edition: str, address: str) -> Element:
        href = page.resolve(edition, address)
        return el("a", {"href": href}, address) if href else el("span", None, address)

    verdict = {True: "consistent", False: "not the successor of the old target", None: "not verifiable in this corpus"}
    if r.status == "added":
        return el("li", {"class": "ref-added"}, "reference added: ", target(new, r.new))
    if r.status == "removed":
        return el("li", {"class": "ref-removed"}, "reference removed: ", target(old, r.old))
    if r.status == "kept":
        went: list[Child] = []
        for i, a in enumerate(moved_to):
            went.extend([", " if i else None, target(new, a)])
        return el(
            "li",
            {"class": "ref-kept"},
            "reference ",
            target(old, r.old),
            " kept as written, but ",
            *(([f"{old} {r.old} is now {new} ", *went]) if went else [f"{old} {r.old} is no longer at {r.new}"]),
            ": check the reference",
        )
    return el(
        "li",
        {"class": "ref-retargeted"},
        "reference retargeted: ",
        target(old, r.old),
        " → ",
        target(new, r.new),
        f" ({verdict[r.consistent]})",
    )


def _arrow(old: tuple[str, ...], new: tuple[str, ...]) -> str:
    return f"{', '.join(old)} → {', '.join(new)}"


def kind_cell(
    ch: Change,
    pv_old: Edition,
    pv_new: Edition,
    page: _Page,
    moved_targets: Mapping[str, tuple[str, ...]] | None = None,
) -> Element:
    """The middle column: what kind of change, in words.

    ``moved_targets``: where the old targets of stale references went.
    """
    td = el("td", {"class": "kind"})
    head = "heading " if ch.aspect == "title" else ""
    add(td, el("span", {"class": f"badge b-{ch.kind.value}"}, head + _KIND_WORD[ch.kind.value]))
    if ch.editorial_only:
        add(td, " ", el("span", {"class": "badge b-editorial"}, "editorial only"))
    if stale_references(ch):
        add(td, " ", el("span", {"class": "badge b-stale"}, "stale reference"))
    if ch.title_changed and ch.aspect == "text":
        add(td, " ", el("span", {"class": "badge b-title"}, "title changed"))
    if ch.renumbered:
        add(
            td,
            el(
                "div",
                {"class": "renum"},
                el("span", {"class": "badge b-renumbered"}, "renumbered"),
                " ",
                el("span", {"class": "arrow"}, _arrow(ch.old, ch.new)),
            ),
        )
    if ch.moved:
        add(
            td,
            el(
                "div",
                {"class": "moved"},
                el("span", {"class": "badge b-moved"}, "moved"),
                " ",
                _moves(ch, pv_old, pv_new, page),
            ),
        )
    if ch.kind in (ChangeKind.MODIFIED, ChangeKind.SPLIT, ChangeKind.MERGED):
        add(td, el("div", {"class": "sim"}, _similarity(ch)))
    if not ch.counterpart_in_corpus:
        other = pv_old.name if ch.new else pv_new.name
        add(td, el("div", {"class": "note"}, f"the {other} corpus does not hold this article"))
    if ch.uncertain:
        add(
            td,
            el(
                "details",
                {"class": "why"},
                el("summary", None, f"uncertain match (score {ch.score:.2f})"),
                el("ul", None, [el("li", None, r) for r in ch.reasons]),
            ),
        )
    refs = [r for r in ch.references if r.status != "kept" or r.consistent is False]
    if refs:
        moved = moved_targets or {}
        items = [_ref_item(r, page, pv_old.name, pv_new.name, moved.get(r.old, ())) for r in refs]
        add(td, el("ul", {"class": "refs"}, items))
    return td


def _moves(ch: Change, old: Edition, new: Edition, page: _Page) -> list[Child]:
    """``from article 12 (12C) to article 13 (13A)``, each address linked where the report has it."""

    def side(edition: Edition, addresses: tuple[str, ...]) -> list[Child]:
        out: list[Child] = []
        for art in dict.fromkeys(article_of(a) for a in addresses):
            if out:
                out.append(", ")
            out.append(f"article {art} (")
            for i, a in enumerate(x for x in addresses if article_of(x) == art):
                href = page.resolve(edition.name, a)
                out.extend([", " if i else None, el("a", {"href": href}, a) if href else a])
            out.append(")")
        return out

    return ["from ", *side(old, ch.old), " to ", *side(new, ch.new)]


@dataclass(frozen=True, slots=True)
class _PairContext:
    old: Edition
    new: Edition
    prefix: str  # id prefix of this view's clause blocks
    moved_targets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # of stale references


def _block_id(ctx: _PairContext, edition: str, address: str, heading: bool = False) -> str:
    """``diff-2007-2017-2017-45C4b``; a heading's own row ends in ``-title``."""
    return f"{ctx.prefix}-{anchor(edition, address)}" + ("-title" if heading else "")


def pair_table(
    ctx: _PairContext,
    changes: Iterable[Change],
    page: _Page,
    chip: Callable[[str, str, str], str | None],
    caption: str,
) -> Element:
    """The side-by-side table: old | change | new, one ``tbody`` per change.

    A split puts its one old clause beside its several new ones (the old
    cell spans their rows); a merge the other way round.
    """
    table = el(
        "table",
        {"class": "sbs"},
        el("caption", None, caption),
        el(
            "colgroup",
            None,
            el("col", {"class": "c-old"}),
            el("col", {"class": "c-kind"}),
            el("col", {"class": "c-new"}),
        ),
        el(
            "thead",
            None,
            el(
                "tr",
                None,
                el("th", {"scope": "col", "class": "old"}, _edition_head(ctx.old)),
                el("th", {"scope": "col", "class": "kind"}, "Change"),
                el("th", {"scope": "col", "class": "new"}, _edition_head(ctx.new)),
            ),
        ),
    )
    old_r = _Clauses(page, ctx.old)
    new_r = _Clauses(page, ctx.new)
    changes = list(changes)
    in_view_old = {a for ch in changes for a in ch.old}
    in_view_new = {a for ch in changes for a in ch.new}
    # A heading with a row of its own is not repeated above its text.
    titled = (
        {a for ch in changes if ch.aspect == "title" for a in ch.old},
        {a for ch in changes if ch.aspect == "title" for a in ch.new},
    )

    def fn_href(edition: str, in_view: set[str]) -> Callable[[Clause], str | None]:
        def href(f: Clause) -> str | None:
            if f.address in in_view:
                return f"#{_block_id(ctx, edition, f.address)}"
            return page.resolve(edition, f.address)

        return href

    for ch in changes:
        fns = (fn_href(ctx.old.name, in_view_old), fn_href(ctx.new.name, in_view_new))
        add(table, _change_rows(ch, ctx, page, (old_r, new_r), chip, fns, titled))
    return table


def _edition_head(e: Edition) -> list[Child]:
    printing = ", ".join(e.printings)
    return [e.name, el("span", {"class": "printing"}, f" {printing}") if printing else None]


def _change_rows(
    ch: Change,
    ctx: _PairContext,
    page: _Page,
    renderers: tuple[_Clauses, _Clauses],
    chip: Callable[[str, str, str], str | None],
    fns: tuple[Callable[[Clause], str | None], Callable[[Clause], str | None]],
    titled: tuple[set[str], set[str]],
) -> Element:
    stale = bool(stale_references(ch))
    # A row whose text is unchanged but whose reference went stale is a
    # finding: never filed among (or hidden with) the unchanged rows.
    classes = ["change", f"k-{ch.kind.value}", "diff" if ch.is_difference or stale else "same"]
    if stale:
        classes.append("stale")
    if ch.aspect == "title":
        classes.append("heading")
    if ch.renumbered:
        classes.append("renumbered")
    if ch.editorial_only:
        classes.append("editorial")
    olds = [c for c in (ctx.old.find(a) for a in ch.old) if c is not None]
    news = [c for c in (ctx.new.find(a) for a in ch.new) if c is not None]
    if any(c.kind is Kind.FOOTNOTE for c in olds + news):
        classes.append("footnote")
    title_aspect = ch.aspect == "title"
    old_parts = split_side(ch.diff, "old", ch.old_texts)
    new_parts = split_side(ch.diff, "new", ch.new_texts)
    title_diff: tuple[Piece, ...] = ()
    if not title_aspect and ch.title_changed:
        title_diff = word_diff(ch.old_title, ch.new_title)

    def blocks(side: int, clauses: list[Clause], parts: list[list[tuple[Op, str]]]) -> list[Element]:
        edition = (ctx.old.name, ctx.new.name)[side]
        fn = fns[side]
        r = renderers[side]
        out: list[Element] = []
        for c, segs in zip(clauses, parts, strict=True):
            title: list[tuple[Op, str]] | None
            if title_aspect:
                title, text = segs, []
            else:
                text = segs
                if title_diff and len(clauses) == 1:
                    title = split_side(title_diff, ("old", "new")[side], (c.title,))[0]
                elif c.address in titled[side]:
                    title = []
                else:
                    title = None
            ident = page.claim(_block_id(ctx, edition, c.address, title_aspect))
            out.append(r.block(c, ident, chip(edition, c.address, ident or ""), title, text, fn))
        return out

    old_blocks = blocks(0, olds, old_parts)
    new_blocks = blocks(1, news, new_parts)
    n = max(len(old_blocks), len(new_blocks), 1)
    tbody = el("tbody", {"class": " ".join(classes)})
    for i in range(n):
        tr = el("tr")
        add(tr, _side_cell("old", ctx.old, old_blocks, i, n, ch))
        if i == 0:
            cell = kind_cell(ch, ctx.old, ctx.new, page, ctx.moved_targets)
            if n > 1:
                cell.set("rowspan", str(n))
            add(tr, cell)
        add(tr, _side_cell("new", ctx.new, new_blocks, i, n, ch))
        add(tbody, tr)
    return tbody


def _side_cell(side: str, edition: Edition, blocks: list[Element], i: int, n: int, ch: Change) -> Element | None:
    """Cell ``i`` of one side; the last clause of the shorter side spans the rest."""
    if not blocks:
        if i:
            return None
        note = f"not in {edition.name}" if ch.counterpart_in_corpus else f"not in the {edition.name} corpus"
        td = el("td", {"class": f"{side} empty"}, el("span", {"class": "none"}, note))
        if n > 1:
            td.set("rowspan", str(n))
        return td
    if i >= len(blocks):
        return None
    td = el("td", {"class": side}, blocks[i])
    if i == len(blocks) - 1 and n > len(blocks):
        td.set("rowspan", str(n - i))
    return td


def pair_section(pv: PairView, page: _Page, site: Site, number: str) -> Element:
    ctx = _PairContext(pv.old, pv.new, pv.id, pv.moved_targets)

    def chip(edition: str, address: str, _ident: str) -> str | None:
        return site.href(edition, address, page.path)

    section = _section(
        pv.id,
        [f"{pv.old.name} → {pv.new.name} ", _heat_tag(pv.heat)],
        "pair",
        counts_list(pv.heat.counts, pv.heat.editorial, pv.heat.stale),
        pair_table(ctx, pv.changes, page, chip, f"Article {number}: {pv.old.name} (left) and {pv.new.name} (right)"),
    )
    page.ids.update({pv.id, f"{pv.id}-h"})
    return section


def _heat_tag(h: Heat) -> Element:
    return el(
        "span",
        {"class": f"heat-tag h{h.level}"},
        f"{HEAT_SYMBOLS[h.level]} {HEAT_NAMES[h.level]}, {_pct(h.share)} of words changed",
    )


# ---------------------------------------------------------------------------
# Pages of the site


def _nav(site: Site, plan_: ArticlePlan | None, root: str, history: bool = False) -> Element:
    nav = el("nav", {"class": "crumbs", "aria-label": "Report"}, el("a", {"href": f"{root}index.html"}, "Index"))
    if plan_ is None:
        return nav
    numbers = [a.number for a in site.articles]
    i = numbers.index(plan_.number)
    add(nav, " › ")
    if history:
        add(nav, el("a", {"href": article_file(plan_.number).split("/")[1]}, f"Article {plan_.number}"), " › History")
    else:
        add(nav, f"Article {plan_.number}")
    links = el("span", {"class": "prevnext"})
    target = history_file if history else article_file
    if i > 0:
        prev = numbers[i - 1]
        add(links, el("a", {"href": target(prev).split("/")[1], "rel": "prev"}, f"← Article {prev}"))
    if i + 1 < len(numbers):
        nxt = numbers[i + 1]
        add(links, " ", el("a", {"href": target(nxt).split("/")[1], "rel": "next"}, f"Article {nxt} →"))
    add(nav, links)
    return nav


def _title_span(title: str) -> Element | None:
    return el("span", {"class": "atitle", "lang": "nl"}, title.rstrip(".")) if title else None


def article_page(site: Site, a: ArticlePlan) -> str:
    path = article_file(a.number)
    page = _Page(path, lambda e, addr: site.href(e, addr, path))
    page.ids.update({"top", "synopsis", "synopsis-h", "contents"})
    main = el("main", {"id": "top"})
    add(main, el("h1", None, f"Article {a.number}", " — " if a.title else None, _title_span(a.title)))
    names = [e.name for e in a.editions]
    missing = [e.name for e in site.compared if e.name not in names]
    facts = el("p", {"class": "lead"}, f"In the corpus: {', '.join(names)}")
    if missing:
        add(facts, f" (the {', '.join(missing)} corpus does not hold it)")
    add(facts, ". ", el("a", {"href": history_file(a.number).split("/")[1]}, "Clause histories"), ".")
    add(main, facts)
    toc = el("ol", {"class": "toc"})
    for pv in a.pairs:
        add(
            toc,
            el("li", None, el("a", {"href": f"#{pv.id}"}, f"{pv.old.name} → {pv.new.name}"), " ", _heat_tag(pv.heat)),
        )
    add(toc, el("li", None, el("a", {"href": "#synopsis"}, "Synopsis of all editions")))
    add(main, el("nav", {"class": "contents", "id": "contents", "aria-label": "On this page"}, toc))
    if not a.pairs:
        add(
            main,
            el(
                "p",
                {"class": "note"},
                f"Only the {names[0]} edition in this corpus holds article {a.number}: there is nothing to compare.",
            ),
        )
    for pv in a.pairs:
        add(main, pair_section(pv, page, site, a.number))
    add(main, synopsis_section(site, a, page))
    body = el("body", {"class": "article"}, _nav(site, a, "../"), main, _footer(site.thresholds))
    title = f"Article {a.number}" + (f" {a.title.rstrip('.')}" if a.title else "") + " · lawdiff report"
    return _document(title, "../", body)


def synopsis_section(site: Site, a: ArticlePlan, page: _Page) -> Element:
    """All editions of the article in columns, oldest first, line by line."""
    section = _section(
        "synopsis",
        ["Synopsis"],
        "synopsis",
        el(
            "p",
            {"class": "hint"},
            "Each line holds what corresponds across the editions; the label above a clause says how it changed "
            "from the edition before. Every clause has a stable anchor: ",
            el("code", None, f"{article_file(a.number).split('/')[1]}#{anchor(a.editions[-1].name, a.number)}"),
            ".",
        ),
    )
    head = el("tr", None, [el("th", {"scope": "col"}, _edition_head(e)) for e in a.editions])
    table = el(
        "table",
        {"class": f"syn cols-{len(a.editions)}"},
        el("caption", None, f"Article {a.number} in every edition of the corpus"),
        el("thead", None, head),
    )
    tbody = el("tbody")
    renderers = {e.name: _Clauses(page, e) for e in a.editions}
    editions = {e.name: e for e in a.editions}
    hist = history_file(a.number).split("/")[1]
    for row in a.synopsis:
        tr = el("tr")
        for i, (e, cell, step) in enumerate(zip(a.editions, row.cells, row.steps, strict=True)):
            td = el("td", {"data-edition": e.name})
            if step:
                add(td, _step(step, a, i, row.cells, page))
            if not cell:
                prev_has = i > 0 and bool(row.cells[i - 1])
                add(td, el("span", {"class": "none"}, "—" if not prev_has else f"not in {e.name}"))
            for node in cell:
                add(td, _synopsis_block(node, editions[node.edition], renderers[node.edition], page, a, site, hist))
            add(tr, td)
        add(tbody, tr)
    add(table, tbody)
    add(section, el("div", {"class": "scroll"}, table))
    return section


def _step(step: str, a: ArticlePlan, i: int, cells: tuple[tuple[Node, ...], ...], page: _Page) -> Element:
    """The kind of change into this cell, linked to its side-by-side row."""
    box = el("div", {"class": f"step s-{_badge(step)}" + (" stale" if "stale reference" in step else "")})
    prev, cur = a.editions[i - 1].name, a.editions[i].name
    # The new side's block, or for a removal the old side's.
    candidates = [(cur, n.address) for n in cells[i]] + [(prev, n.address) for n in cells[i - 1]]
    ids = (f"{pair_id(prev, cur)}-{anchor(ed, addr)}{end}" for ed, addr in candidates for end in ("", "-title"))
    target = next((t for t in ids if t in page.ids), None)
    add(box, el("a", {"href": f"#{target}", "title": f"{prev} → {cur}, side by side"}, step) if target else step)
    return box


def _synopsis_block(node: Node, e: Edition, r: _Clauses, page: _Page, a: ArticlePlan, site: Site, hist: str) -> Element:
    c = e.find(node.address)
    if c is None:
        raise LawdiffBug(f"the synopsis names {e.name}:{node.address}, which the edition does not hold")
    if article_of(c.address) != a.number:
        # A clause of another article (moved here or away): a link, not a copy.
        href = site.href(e.name, c.address, page.path)
        addr: Element = el("a", {"href": href}, c.address) if href else el("span", None, c.address)
        return el(
            "div",
            {"class": "clause foreign"},
            f"{'from' if e is a.editions[0] else 'in'} article {article_of(c.address)}: ",
            addr,
        )
    ident = page.claim(anchor(e.name, c.address))
    title: list[tuple[Op, str]] | None = None
    text: list[tuple[Op, str]] | None = None
    if node.aspect == "head":
        text = []  # the article's heading line
    elif c.kind is Kind.ARTICLE:
        title = []  # the article's own text, under its heading line
    links: list[Child] = [" ", el("a", {"class": "hist", "href": f"{hist}#{anchor(e.name, c.address)}"}, "history")]
    return r.block(
        c,
        ident,
        f"#{ident}" if ident else None,
        title,
        text,
        lambda f: f"#{anchor(e.name, f.address)}",
        links,
    )


def history_page(site: Site, a: ArticlePlan) -> str:
    path = history_file(a.number)
    page = _Page(path, lambda e, addr: site.href(e, addr, path))
    page.ids.add("top")
    main = el("main", {"id": "top"})
    add(main, el("h1", None, f"Article {a.number}: clause histories", " — " if a.title else None, _title_span(a.title)))
    add(
        main,
        el(
            "p",
            {"class": "lead"},
            "Every clause of every edition, followed through all editions of the corpus: its address and wording in "
            "each, and where it changed. ",
            el("a", {"href": article_file(a.number).split("/")[1]}, f"Back to article {a.number}"),
            ".",
        ),
    )
    for e, c, h in a.histories:
        ident = page.claim(anchor(e.name, c.address))
        sec = el("section", {"class": "history", **({"id": ident} if ident else {})})
        summary = (c.title or c.text).split("\n")[0]
        if len(summary) > 90:
            summary = summary[:89].rstrip() + "…"
        add(
            sec,
            el(
                "h2",
                None,
                el("span", {"class": "addr"}, f"{e.name}:{c.address}"),
                " ",
                el("span", {"class": "gist", "lang": "nl"}, summary),
            ),
        )
        add(sec, _history_table(h, site, page))
        if h.introduced:
            add(sec, el("p", {"class": "introduced"}, f"Current wording introduced in {h.introduced}."))
        add(main, sec)
    body = el("body", {"class": "histories"}, _nav(site, a, "../", history=True), main, _footer(site.thresholds))
    return _document(f"Article {a.number}: clause histories · lawdiff report", "../", body)


def _history_table(h: History, site: Site, page: _Page) -> Element:
    table = el(
        "table",
        {"class": "hist"},
        el(
            "thead",
            None,
            el(
                "tr",
                None,
                el("th", {"scope": "col"}, "Edition"),
                el("th", {"scope": "col"}, "Change"),
                el("th", {"scope": "col"}, "Wording"),
            ),
        ),
    )
    tbody = el("tbody")
    for step in h.steps:
        tr = el("tr", {"class": "absent"} if not step.addresses else None)
        add(tr, el("th", {"scope": "row"}, step.edition))
        if not step.in_corpus:
            add(
                tr,
                el("td", None, ""),
                el("td", None, el("span", {"class": "none"}, f"the {step.edition} corpus does not hold this article")),
            )
            add(tbody, tr)
            continue
        kind = el("td", {"class": "kind"})
        if step.change:
            add(kind, el("span", {"class": f"badge b-{_badge(step.change)}"}, step.change))
            stale = [r.old for ch in step.changes for r in stale_references(ch)]
            if stale:
                add(
                    kind,
                    " ",
                    el("span", {"class": "badge b-stale", "title": f"kept: {', '.join(stale)}"}, "stale reference"),
                )
            for ch in step.changes:
                if ch.old and ch.new and (ch.renumbered or len(ch.old) + len(ch.new) > 2):
                    add(kind, el("div", {"class": "arrow"}, _arrow(ch.old, ch.new)))
        add(tr, kind)
        cell = el("td")
        if not step.addresses:
            add(cell, el("span", {"class": "none"}, "not present" if not step.change else "removed"))
        edition = next(e for e in site.compared if e.name == step.edition)
        diffs = {a: ch for ch in step.changes if ch.aspect == "text" for a in ch.new}
        shown: set[int] = set()
        for addr, txt in zip(step.addresses, step.texts, strict=True):
            into = diffs.get(addr)
            segments: list[tuple[Op, str]] = [(Op.EQUAL, txt)]
            whole = False
            if into is not None and into.kind is not ChangeKind.UNCHANGED and into.kind is not ChangeKind.ADDED:
                if len(into.new) == 1:
                    # One clause takes all of the new text: the whole
                    # difference is this clause's.
                    segments = [(p.op, p.text) for p in into.diff]
                    whole = True
                else:
                    # Pieces of a split share one difference, which cannot say
                    # whose a deleted word was: it is shown once for the
                    # group, labelled, and each piece shows its own wording
                    # (its inserted words marked).
                    if id(into) not in shown:
                        shown.add(id(into))
                        add(cell, _group_diff(into, h, step.edition))
                    segments = split_side(into.diff, "new", into.new_texts)[into.new.index(addr)]
            href = page.resolve(step.edition, addr)
            chip = el("a", {"class": "addr", "href": href}, addr) if href else el("span", {"class": "addr"}, addr)
            block = el("div", {"class": "hstep"}, el("div", {"class": "ch"}, chip))
            add(block, law_text("tx inline" if whole else "tx", segments))
            clause = edition.find(addr)
            if clause is not None:
                add(block, _source(edition, clause))
            add(cell, block)
        add(tr, cell)
        add(tbody, tr)
    add(table, tbody)
    return table


def _group_diff(ch: Change, h: History, edition: str) -> Element:
    """The word difference of a split (or of several clauses into several), labelled as the group's."""
    before = next((s.edition for s in h.steps if s.addresses and set(s.addresses) & set(ch.old)), "")
    source = f"{before} {', '.join(ch.old)}" if before else ", ".join(ch.old)
    return el(
        "div",
        {"class": "hgroup"},
        el(
            "div",
            {"class": "hgroup-h"},
            f"{ch.kind.value.capitalize()} {source} → {edition} {', '.join(ch.new)}: the word difference over "
            "the pieces together, in order. Each piece's own wording follows.",
        ),
        law_text("tx inline", [(p.op, p.text) for p in ch.diff]),
    )


def _badge(step: str) -> str:
    return step.split(",")[0].split("+")[0].split(" ")[0] or "unchanged"


def index_page(site: Site) -> str:
    page = _Page("index.html", lambda e, addr: site.href(e, addr, "index.html"))
    first, last = site.compared[0].name, site.compared[-1].name
    span = first if first == last else f"{first}–{last}"
    main = el("main", {"id": "top"})
    add(
        main,
        el("h1", None, "Spelregels voor wedstrijdbridge: changes " + span),
        el(
            "p",
            {"class": "lead"},
            "The Dutch Laws of Duplicate Bridge, edition by edition: every article, aligned clause by clause. "
            "Insertions are ",
            el("ins", None, "underlined"),
            ", deletions ",
            el("del", None, "struck through"),
            "; every change is labelled in words.",
        ),
    )
    add(main, _editions_section(site), _pairs_section(site), _matrix_section(site))
    _ = page
    body = el(
        "body",
        {"class": "index"},
        el("nav", {"class": "crumbs", "aria-label": "Report"}, "Index"),
        main,
        _footer(site.thresholds),
    )
    return _document(f"Spelregels voor wedstrijdbridge {span} · lawdiff report", "", body)


def _role(x: Listed, site: Site) -> list[Child]:
    """What the report does with a listed edition, in words."""
    if x.compared_as and x.compared_as != x.edition.name:
        return ["compared, as ", el("b", None, x.compared_as)]
    if x.compared_as:
        return ["compared"]
    # Another source of a year the report compares: say how to compare the two.
    year = x.edition.name.split("@", 1)[0]
    peer = next((y for y in site.editions if y.means == year), None)
    if "@" in x.edition.name and peer is not None:
        return [
            "not compared: another source of ",
            year,
            "; compare the two with ",
            el(
                "code",
                None,
                "lawdiff report " + " ".join(e.name for e in sorted((x.edition, peer.edition), key=chronological)),
            ),
        ]
    return ["not compared in this report"]


def _editions_section(site: Site) -> Element:
    table = el(
        "table",
        {"class": "editions"},
        el("caption", None, "Every edition and source in the corpus, and whether this report compares it"),
        el(
            "thead",
            None,
            el(
                "tr",
                None,
                *[
                    el("th", {"scope": "col"}, h)
                    for h in ("Edition", "In this report", "Printing", "Articles", "Clauses", "Source files")
                ],
            ),
        ),
    )
    tbody = el("tbody")
    for x in site.editions:
        e = x.edition
        clauses = list(e.walk())
        files = el(
            "ul",
            {"class": "files"},
            [
                el(
                    "li",
                    None,
                    el("code", None, s.file),
                    f" ({s.format}, page ",
                    el("span", {"lang": "nl"}, s.page),
                    ")",
                )
                for s in e.sources
            ],
        )
        add(
            tbody,
            el(
                "tr",
                {"class": "compared" if x.compared_as else "listed"},
                el("th", {"scope": "row"}, e.name),
                el("td", None, _role(x, site)),
                el("td", None, ", ".join(e.printings) or "not stated"),
                el("td", None, article_ranges([a.address for a in e.articles()], "–") or "none"),
                el("td", {"class": "num"}, str(len(clauses))),
                el("td", None, files),
            ),
        )
    add(table, tbody)
    section = _section(
        "editions",
        ["Editions"],
        None,
        table,
    )
    for year, source in site.corpus.aliases().items():
        why = site.corpus.choices.get(year, "the corpus settings' choice, or else the newer printing")
        add(
            section,
            el("p", {"class": "hint alias"}, el("b", None, year), " means ", el("b", None, source), f" ({why})."),
        )
    return section


def _pairs_section(site: Site) -> Element:
    section = _section(
        "pairs",
        ["Changes per pair of editions"],
        None,
        el(
            "p",
            {"class": "hint"},
            "Consecutive editions are compared on the articles both hold in this corpus. "
            "Each clause counts once, under the kind of its change; an editorial-only change counts as modified "
            "(or split, merged) and is named in brackets. Renumbered, moved and titles changed count some of "
            "those same clauses again.",
        ),
    )
    if not site.totals:
        add(
            section,
            el("p", {"class": "note"}, "No article is held by two of these editions: there is nothing to compare."),
        )
        return section
    kinds = list(KIND_COUNTS)
    if any(t.counts.get(_OUTSIDE[0]) for t in site.totals):
        kinds.append(("outside_corpus", "Outside the corpus"))
    flags = list(FLAG_COUNTS)
    stale = any(t.stale for t in site.totals)
    head_top = el(
        "tr",
        None,
        el("th", {"scope": "col", "rowspan": "2"}, "Editions"),
        el("th", {"scope": "col", "rowspan": "2"}, "Articles"),
        el(
            "th",
            {"scope": "colgroup", "colspan": str(len(kinds)), "class": "group"},
            "Kind of change (each clause once)",
        ),
        el(
            "th",
            {"scope": "colgroup", "colspan": str(len(flags) + stale), "class": "group flags"},
            "Of these clauses",
        ),
    )
    head = el(
        "tr",
        None,
        *[el("th", {"scope": "col", "class": "num"}, word.capitalize()) for _, word in kinds],
        *[el("th", {"scope": "col", "class": "num flag"}, word.capitalize()) for _, word in flags],
        el("th", {"scope": "col", "class": "num flag"}, "Stale references") if stale else None,
    )
    table = el(
        "table",
        {"class": "totals"},
        el("caption", None, "Counts of changes per pair of consecutive editions"),
        el("colgroup", None, el("col"), el("col")),
        el("colgroup", {"span": str(len(kinds))}),
        el("colgroup", {"span": str(len(flags) + stale), "class": "flags"}),
        el("thead", None, head_top, head),
    )
    tbody = el("tbody")

    def cell(n: int, extra: str = "", flag: bool = False) -> Element:
        cls = "num" + (" flag" if flag else "") + ("" if n else " zero")
        return el("td", {"class": cls}, str(n), el("span", {"class": "sub"}, extra) if extra else None)

    for t in site.totals:
        add(
            tbody,
            el(
                "tr",
                None,
                el("th", {"scope": "row"}, f"{t.old.name} → {t.new.name}"),
                el("td", None, article_ranges(list(t.articles), "–")),
                *[cell(t.counts.get(k, 0), _editorial_note(k, t.editorial)) for k, _ in kinds],
                *[cell(t.counts.get(k, 0), flag=True) for k, _ in flags],
                cell(t.stale, flag=True) if stale else None,
            ),
        )
    add(table, tbody)
    add(section, el("div", {"class": "scroll"}, table))
    return section


def _matrix_section(site: Site) -> Element:
    section = _section(
        "articles",
        ["Articles × editions"],
        None,
        el(
            "p",
            {"class": "hint"},
            "Each cell says how much the article changed from the previous edition that holds it: a symbol, "
            "and the share of its words inserted or deleted. Follow a cell to its side-by-side view.",
        ),
    )
    head = el(
        "tr", None, el("th", {"scope": "col"}, "Article"), *[el("th", {"scope": "col"}, e.name) for e in site.compared]
    )
    table = el(
        "table",
        {"class": "matrix", "id": "matrix"},
        el("caption", None, "Where each article changed, and how much"),
        el("thead", None, head),
    )
    tbody = el("tbody")
    for a in site.articles:
        held = {e.name for e in a.editions}
        by_new = {pv.new.name: pv for pv in a.pairs}
        tr = el(
            "tr",
            None,
            el(
                "th",
                {"scope": "row"},
                el(
                    "a",
                    {"href": article_file(a.number)},
                    el("span", {"class": "num"}, a.number),
                    " ",
                    _title_span(a.title),
                ),
            ),
        )
        for e in site.compared:
            if e.name not in held:
                add(tr, el("td", {"class": "cell none", "title": f"not in the {e.name} corpus"}, "–"))
                continue
            pv = by_new.get(e.name)
            if pv is None:
                add(
                    tr,
                    el(
                        "td",
                        {
                            "class": "cell first",
                            "title": f"{e.name}: earliest edition of article {a.number} in the corpus",
                        },
                        el("a", {"href": f"{article_file(a.number)}#synopsis"}, "●"),
                    ),
                )
                continue
            h = pv.heat
            counts = counts_phrase(h.counts, h.editorial, h.stale)
            add(
                tr,
                el(
                    "td",
                    {
                        "class": f"cell h{h.level}",
                        "title": f"{pv.old.name} → {e.name}: {HEAT_NAMES[h.level]}; {counts}",
                    },
                    el(
                        "a",
                        {"href": f"{article_file(a.number)}#{pv.id}"},
                        el("span", {"class": "sym"}, HEAT_SYMBOLS[h.level]),
                        " ",
                        el("span", {"class": "pct"}, _pct(h.share)),
                        el("span", {"class": "stale"}, " !") if h.stale else None,
                    ),
                ),
            )
        add(tbody, tr)
    add(table, tbody)
    add(
        section,
        el("div", {"class": "scroll"}, table),
        _legend(any(pv.heat.stale for a in site.articles for pv in a.pairs)),
    )
    return section


def _legend(stale: bool) -> Element:
    meaning = (
        "no difference",
        "only editorial changes or new numbers",
        f"less than {round(HEAT_SMALL * 100)} % of the words changed",
        f"{round(HEAT_SMALL * 100)}–{round(HEAT_LARGE * 100)} % of the words changed",
        f"{round(HEAT_LARGE * 100)} % of the words or more changed",
    )
    dl = el("dl", {"class": "legend"})
    for level, (sym, name) in enumerate(zip(HEAT_SYMBOLS, HEAT_NAMES, strict=True)):
        add(dl, el("dt", {"class": f"cell h{level}"}, sym), el("dd", None, f"{name}: {meaning[level]}"))
    add(
        dl,
        el("dt", {"class": "cell first"}, "●"),
        el("dd", None, "the earliest edition in the corpus that holds the article"),
    )
    add(dl, el("dt", {"class": "cell none"}, "–"), el("dd", None, "not in this edition's corpus"))
    if stale:
        add(
            dl,
            el("dt", {"class": "cell"}, el("span", {"class": "stale"}, "!")),
            el("dd", None, "a reference kept as written although its target moved (stale): see the article page"),
        )
    return el("div", {"class": "legend-box"}, el("h3", None, "Legend"), dl)


# ---------------------------------------------------------------------------
# The site: planned, rendered, written atomically


def render(site: Site, progress: Callable[[], None] | None = None) -> Iterator[tuple[str, str]]:
    """Every file of the report: (path relative to the report, content), sorted by path."""
    files: dict[str, str] = {}
    for name in ASSETS:
        files[f"assets/{name}"] = _asset(name)
    for a in site.articles:
        files[article_file(a.number)] = article_page(site, a)
        files[history_file(a.number)] = history_page(site, a)
        if progress is not None:
            progress()
    files["index.html"] = index_page(site)
    for path in sorted(files):
        yield path, files[path]


_MARK = 'name="generator" content="lawdiff'
MANIFEST = ".lawdiff-manifest.json"
# What a report wrote before it kept a manifest: its pages and assets only.
_LEGACY = re.compile(r"index\.html|assets/report\.(?:css|js)|articles/[^/]+\.html")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest(written: Mapping[str, str]) -> str:
    """The manifest of a report: every file it wrote (relative path) with its SHA-256.

    A later run replaces the folder only if it holds exactly these files,
    unchanged: a file a user added or edited there is never deleted.
    """
    data = {"generator": "lawdiff", "files": dict(sorted(written.items()))}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _foreign(target: Path) -> list[str]:
    """What in an earlier report folder its report did not write (or wrote otherwise): relative paths."""
    listed: dict[str, str] | None = None
    record = target / MANIFEST
    if record.is_file() and not record.is_symlink():
        try:
            data = json.loads(record.read_text(encoding="utf-8"))
            files = data["files"] if isinstance(data, dict) else None
            if isinstance(files, dict) and all(isinstance(v, str) for v in files.values()):
                listed = {str(k): v for k, v in files.items()}
        except (ValueError, KeyError, UnicodeDecodeError):
            listed = None
        if listed is None:
            return [MANIFEST]  # a manifest no report wrote: nothing can be vouched for
    if listed is None:
        folders = {"assets", "articles"}
    else:
        folders = set()
        for p in listed:
            folders.update(q.as_posix() for q in Path(p).parents)
    out: list[str] = []
    for root, dirs, names in os.walk(target):
        here = Path(root).relative_to(target)
        keep: list[str] = []
        for d in sorted(dirs):
            rel = (here / d).as_posix()
            if (Path(root) / d).is_symlink() or rel not in folders:
                out.append(rel + "/")  # all of it is foreign: named once
            else:
                keep.append(d)
        dirs[:] = keep
        for name in sorted(names):
            rel = (here / name).as_posix()
            path = Path(root) / name
            if rel == MANIFEST and listed is not None:
                continue
            if path.is_symlink():
                out.append(rel)
            elif listed is None:
                if not _LEGACY.fullmatch(rel):
                    out.append(rel)
            elif rel not in listed or _digest(path.read_bytes()) != listed[rel]:
                out.append(rel)
    return sorted(out)


def _check_target(target: Path) -> None:
    """Refuse to replace a folder that is not a lawdiff report, or that holds files its report did not write."""
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise UsageError(f"{target}: exists and is not a folder", fix="choose a new or empty folder for the report")
    if not (target.is_dir() and any(target.iterdir())):
        return
    index = target / "index.html"
    if not (target / MANIFEST).is_file() and not (
        index.is_file() and _MARK in index.read_text(encoding="utf-8", errors="replace")[:4000]
    ):
        raise UsageError(
            f"{target}: the folder is not empty and holds no lawdiff report, so it is not replaced",
            fix="choose a new or empty folder, or a folder an earlier `lawdiff report` wrote",
        )
    foreign = _foreign(target)
    if foreign:
        shown = ", ".join(repr(p) for p in foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise UsageError(
            f"{target}: the folder holds what the last report did not write ({shown}), so it is not replaced",
            fix="move those out of the folder, or write the report to another folder with -o",
        )


def write_site(files: Iterable[tuple[str, str]], target: Path) -> int:
    """Write the files into a folder beside ``target``, then move it into place.

    The folder also gets :data:`MANIFEST`, the list of what was written.
    ``target`` is replaced only when it is empty, or a report whose files
    are all as that report wrote them (see :func:`_check_target`); a failed
    run removes its folder and leaves ``target`` as it was.  Returns the
    number of files written (the manifest not counted).
    """
    _check_target(target)
    parent = target.parent if str(target.parent) else Path(".")
    n = 0
    try:
        parent.mkdir(parents=True, exist_ok=True)
        while True:
            staging = parent / f".{target.name}.tmp-{os.getpid()}-{n}"
            try:
                staging.mkdir()
                break
            except FileExistsError:
                n += 1
    except OSError as exc:
        raise UsageError(
            f"{target}: cannot write the report there ({exc.strerror or exc})",
            fix="choose a folder you may write to",
        ) from None
    written: dict[str, str] = {}
    try:
        for rel, content in files:
            if rel == MANIFEST or rel in written:
                raise LawdiffBug(f"the report would write {rel} twice")
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            data = content.encode("utf-8")
            path.write_bytes(data)
            written[rel] = _digest(data)
        (staging / MANIFEST).write_bytes(manifest(written).encode("utf-8"))
        # Checked again at the last moment: a file saved into the old report
        # while this one was being built must not be lost either.
        _check_target(target)
        replace_dir_atomic(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return len(written)


def write_report(
    corpus: Corpus,
    names: Iterable[str],
    thresholds: Thresholds,
    target: Path,
    progress: Progress | None = None,
) -> Site:
    """Plan, render and write the report of ``names`` (all editions when empty) to ``target``.

    ``progress(done, total)`` is called as the work goes on.
    """
    _check_target(target)
    names = list(names)
    total = 2 * len(article_numbers(select(corpus, names))) + 1
    done = 0

    def step(_i: int = 0, _n: int = 0) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    site = plan(corpus, names, thresholds, progress=step)
    write_site(render(site, step), target)
    step()
    return site


# ---------------------------------------------------------------------------
# One pair on one page: `lawdiff compare OLD NEW --format html`


def comparison(comp: Comparison, changes: Iterable[Change], old: Edition, new: Edition) -> str:
    """The side-by-side view of one pair of editions as one self-contained file."""
    changes = list(changes)
    moved = {r.old: comp.alignment.successors(r.old) for ch in changes for r in stale_references(ch)}
    ctx = _PairContext(old, new, pair_id(old.name, new.name), moved)
    by_article: dict[str, list[Change]] = {}
    for ch in changes:
        by_article.setdefault(ch.article, []).append(ch)
    order = sorted(by_article, key=natural_key)
    # Links lead to clauses shown in this file (their first block), walking
    # up to a parent shown here; a clause not in the file is not linked.
    shown: dict[tuple[str, str], str] = {}
    for ch in sorted(changes, key=lambda ch: ch.aspect == "title"):
        for a in ch.old:
            shown.setdefault((old.name, a), _block_id(ctx, old.name, a, ch.aspect == "title"))
        for a in ch.new:
            shown.setdefault((new.name, a), _block_id(ctx, new.name, a, ch.aspect == "title"))

    def resolve(edition: str, address: str) -> str | None:
        addr = address
        while addr:
            ident = shown.get((edition, addr))
            if ident:
                return f"#{ident}"
            addr = parent_address(addr)
        return None

    page = _Page("compare.html", resolve)
    page.ids.add("top")
    main = el("main", {"id": "top"})
    add(main, el("h1", None, f"{old.name} → {new.name}"))
    add(
        main,
        el(
            "p",
            {"class": "lead"},
            f"Every clause of {old.name} beside its counterpart in {new.name}. Insertions are ",
            el("ins", None, "underlined"),
            ", deletions ",
            el("del", None, "struck through"),
            "; every change is labelled in words.",
        ),
    )
    add(
        main,
        counts_list(
            replace(comp, changes=tuple(changes)).counts(),
            editorial_by_kind(changes),
            sum(len(stale_references(ch)) for ch in changes),
        ),
    )
    if len(order) > 1:
        toc = el("ol", {"class": "toc"})
        for n in order:
            held = [e.name for e in (old, new) if e.find(n) is not None]
            note = f" (only in {held[0]})" if len(held) == 1 else ""
            add(
                toc,
                el(
                    "li",
                    None,
                    el("a", {"href": f"#article-{_safe(n)}"}, _article_name(n)),
                    " ",
                    _title_span(_title_of(n, old, new)),
                    note,
                ),
            )
        add(main, el("nav", {"class": "contents", "aria-label": "Articles"}, toc))
    if not order:
        add(main, el("p", {"class": "note"}, "No change to show."))

    def chip(_edition: str, _address: str, ident: str) -> str | None:
        return f"#{ident}" if ident else None

    for n in order:
        sid = page.claim(f"article-{_safe(n)}") or f"article-{_safe(n)}-2"
        title = _title_of(n, old, new)
        section = el(
            "section",
            {"class": "pair", "id": sid},
            el("h2", None, _article_name(n), " — " if title else None, _title_span(title)),
            pair_table(ctx, by_article[n], page, chip, f"{_article_name(n)}: {old.name} (left) and {new.name} (right)"),
        )
        add(main, section)
    body = el("body", {"class": "compare"}, main, _footer(comp.thresholds))
    return _document(f"{old.name} → {new.name} · lawdiff", "", body, inline=True)


def _title_of(address: str, old: Edition, new: Edition) -> str:
    clause = new.find(address) or old.find(address)
    return clause.title if clause is not None else ""


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", text)


def _article_name(n: str) -> str:
    return f"Article {n}" if n[:1].isdigit() else n
