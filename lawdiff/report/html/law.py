"""Law text with its differences, references and footnote markers; clause blocks."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from lawdiff.diff import Op, Piece
from lawdiff.errors import LawdiffBug
from lawdiff.model import Clause, Edition, Kind
from lawdiff.report import where
from lawdiff.report.html.markup import LAW, Child, Markup, h

# ---------------------------------------------------------------------------
# Law text with its differences, references and footnote markers


@dataclass(frozen=True, slots=True)
class Link:
    start: int
    end: int
    href: str
    title: str


@dataclass
class Page:
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
    cls: str,
    segments: list[tuple[Op, str]],
    links: Iterable[Link] = (),
    marks: Iterable[tuple[int, Markup]] = (),
    lead: Child = None,
) -> Markup:
    """A block of law text (``lang="nl"``) with ``<ins>``, ``<del>``, reference links and footnote markers.

    ``lead`` (a clause's label) comes first, apart from the text by a space.
    """
    attrs = {"class": f"{cls} {LAW}", "lang": "nl"}
    first: list[Child] = [lead, " "] if lead is not None else []
    link_list = list(links)
    mark_list = list(marks)
    if not link_list and not mark_list:
        # Most clauses: no reference, no footnote; one piece per segment.
        return h("div", attrs, first, [_op_piece(op, t) for op, t in segments if t])
    return h("div", attrs, first, _overlaid(segments, link_list, mark_list))


def _overlaid(
    segments: list[tuple[Op, str]], link_list: list[Link], mark_list: list[tuple[int, Markup]]
) -> list[Child]:
    """The pieces of a text with its differences, reference links and footnote markers laid over each other.

    The text is cut wherever any of them starts or ends; a reference's pieces
    go inside its link.  Links and markers that fall outside the text are left out.
    """
    full = "".join(t for _, t in segments)
    ops: list[tuple[int, int, Op]] = []
    pos = 0
    for op, t in segments:
        ops.append((pos, pos + len(t), op))
        pos += len(t)
    link_list = [lk for lk in link_list if 0 <= lk.start < lk.end <= len(full)]
    mark_list = sorted(((o, m) for o, m in mark_list if 0 <= o <= len(full)), key=lambda om: om[0])
    cuts = sorted(
        {0, len(full)}
        | {a for a, _, _ in ops}
        | {lk.start for lk in link_list}
        | {lk.end for lk in link_list}
        | {o for o, _ in mark_list}
    )
    out: list[Child] = []
    # The reference being built (its pieces in ``inside``), or None.
    current: Link | None = None
    inside: list[Child] = []

    def close() -> None:
        nonlocal current, inside
        if current is not None and inside:
            out.append(h("a", {"class": "ref", "href": current.href, "title": current.title}, inside))
        current, inside = None, []

    mi = 0
    for a, b in itertools.pairwise(cuts):
        # A footnote marker stands outside any reference: a link holds no link.
        if mi < len(mark_list) and mark_list[mi][0] == a:
            close()
            while mi < len(mark_list) and mark_list[mi][0] == a:
                out.append(mark_list[mi][1])
                mi += 1
        link = next((lk for lk in link_list if lk.start <= a < lk.end), None)
        if link is not current:
            close()
            current = link
        op = next(o for s, e, o in ops if s <= a < e)
        (out if current is None else inside).append(_op_piece(op, full[a:b]))
    close()
    out.extend(m for _, m in mark_list[mi:])
    return out


_WORDISH = re.compile(r"\w")
# A change of punctuation or spacing only (a comma, a full stop, a space)
# is a character or two wide: it gets a class that makes it stand out.
_PUNCT = {"class": "pu"}


def _op_piece(op: Op, text: str) -> Child:
    if op is Op.INSERT:
        return h("ins", None if _WORDISH.search(text) else _PUNCT, text)
    if op is Op.DELETE:
        return h("del", None if _WORDISH.search(text) else _PUNCT, text)
    return text


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


def source_line(edition: Edition, clause: Clause) -> Markup:
    """Where a clause came from: edition, printing, file and place."""
    printing = _printing(edition, clause.source.file)
    parts = [edition.name] + ([printing] if printing else []) + [where(clause.source)]
    # Behind a disclosure: a file name and a JSON path are for checking, not for reading.
    return h("details", {"class": "src"}, _SOURCE, " · ".join(parts))


_SOURCE = h("summary", None, "source")


def addr_chip(edition: str, address: str, href: str | None) -> Markup:
    """A clause's address, linked to ``href`` when there is one."""
    if href:
        # An address alone names no clause: the link's name says the edition too.
        return h("a", {"class": "addr", "href": href, "aria-label": f"{edition} {address}"}, address)
    return h("span", {"class": "addr"}, address)


def _label(clause: Clause) -> str:
    return clause.label.strip()


class ClauseRows:
    """Renders clauses of one edition on one page."""

    def __init__(self, page: Page, edition: Edition) -> None:
        self.page = page
        self.edition = edition
        self._ed = h("span", {"class": "ed", "aria-hidden": "true"}, edition.name)
        self.name = edition.name

    def refs(self, clause: Clause) -> list[Link]:
        out: list[Link] = []
        for r in clause.references:
            href = self.page.resolve(self.edition.name, r.target)
            if href is not None:
                out.append(Link(r.start, r.end, href, f"{self.edition.name}:{r.target}"))
        return out

    def marks(self, clause: Clause, fn_href: Callable[[Clause], str | None]) -> list[tuple[int, Markup]]:
        out: list[tuple[int, Markup]] = []
        for f in clause.footnotes:
            if f.anchor < 0:
                continue
            marker = f.marker or f.label or "*"
            href = fn_href(f)
            inner: Child = h("a", {"href": href}, marker) if href else marker
            out.append((f.anchor, h("sup", {"class": "fnref", "title": f"footnote {f.address}"}, inner)))
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
    ) -> Markup:
        """One clause: address, label and title, text, source.

        ``title`` and ``text`` are the clause's own when not given (no
        difference marked); an empty list leaves that part out.
        """
        kind = "fn" if clause.kind is Kind.FOOTNOTE else "art" if clause.kind is Kind.ARTICLE else "cl"
        chip = addr_chip(self.name, clause.address, chip_href)
        title_segs = [(Op.EQUAL, clause.title)] if title is None and clause.title else title or []
        text_segs = [(Op.EQUAL, clause.text)] if text is None and clause.text else text or []
        label = _label(clause)
        lbl = h("span", {"class": "lbl"}, label) if label else None
        heading = law_text("ct", title_segs, lead=lbl) if title_segs else None
        body = None
        if text_segs:
            body = law_text(
                "tx",
                text_segs,
                self.refs(clause),
                self.marks(clause, fn_href),
                lead=lbl if not title_segs and clause.kind is not Kind.ARTICLE else None,
            )
        return h(
            "div",
            {"class": f"clause {kind}", "id": ident or None},
            h("div", {"class": "ch"}, chip, " ", self._ed, extra),
            heading,
            body,
            source_line(self.edition, clause),
        )
