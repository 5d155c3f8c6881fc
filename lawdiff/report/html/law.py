"""Law text with its differences, references and footnote markers; clause blocks."""

from __future__ import annotations

import heapq
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from lawdiff.diff import Op, Piece
from lawdiff.errors import LawdiffBug
from lawdiff.i18n import gettext as _
from lawdiff.model import Clause, Edition, Kind
from lawdiff.report import where
from lawdiff.report.html.markup import Child, Markup, Splices, h
from lawdiff.report.html.template import Template, each_in, join

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
    # Where the page's long law texts are held until it is written (see law_text); None: in place.
    held: Splices | None = None

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
    equal = Op.EQUAL
    # An empty piece marks nothing: left out.
    stream = [(p.op, p.text) for p in pieces if (p.op is equal or p.op is keep) and p.text]
    if "".join([t for _, t in stream]) != "\n".join(texts):
        raise LawdiffBug(f"the {side} side of a difference does not rebuild its texts")
    if len(texts) == 1:
        return [stream]  # one clause (nearly every change): its side as it stands
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


_LAW = Template('<div class="{cls} lt" lang="nl">{lead}{text}</div>\n', block=True)


# From this many characters a block's law text is held out of the page until it is written (see law_text).
HELD_FROM = 100_000


def law_text(
    cls: str,
    segments: list[tuple[Op, str]],
    links: Iterable[Link] = (),
    marks: Iterable[tuple[int, Markup]] = (),
    lead: Child = None,
    held: Splices | None = None,
) -> Markup:
    """A block of law text (``lang="nl"``) with ``<ins>``, ``<del>``, reference links and footnote markers.

    ``lead`` (a clause's label) comes first, apart from the text by a space.  ``held``: a text of
    :data:`HELD_FROM` characters or more stands in the block as a placeholder of these splices, so that
    the elements around it (the block, its cell, row, table, section, page) do not each copy it again.
    """
    first: list[Child] = [lead, " "] if lead is not None else []
    link_list = list(links)
    mark_list = list(marks)
    if not link_list and not mark_list:
        # Most clauses: no reference, no footnote; one piece per segment.
        text = each_in([(None if op is _EQUAL else _piece_template(op, t), t) for op, t in segments if t])
    else:
        text = join(_overlaid(segments, link_list, mark_list))
    if held is not None and len(text) >= HELD_FROM:
        text = held.hold_text(text)
    return _LAW(cls=cls, lead=first, text=text)


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
            out.append(_REF(href=current.href, title=current.title, text=inside))
        current, inside = None, []

    mi = oi = 0
    for (a, b), link in zip(itertools.pairwise(cuts), _holding(link_list, cuts[:-1]), strict=True):
        # A footnote marker stands outside any reference: a link holds no link.
        if mi < len(mark_list) and mark_list[mi][0] == a:
            close()
            while mi < len(mark_list) and mark_list[mi][0] == a:
                out.append(mark_list[mi][1])
                mi += 1
        if link is not current:
            close()
            current = link
        # The segment the piece lies in: the segments follow each other, and so do the cuts (a walk, not a
        # search of every segment at every cut: a long rewording has hundreds of both).
        while not ops[oi][0] <= a < ops[oi][1]:
            oi += 1
        (out if current is None else inside).append(_op_piece(ops[oi][2], full[a:b]))
    close()
    out.extend(m for _, m in mark_list[mi:])
    return out


def _holding(links: list[Link], cuts: list[int]) -> Iterator[Link | None]:
    """For each cut in order, the first of ``links`` (in their order) that holds it, or None.

    A sweep: the links started by the cut wait by their place in the list, and those that ended are
    dropped when they come first; not a scan of every link at every cut (a clause with thousands of
    references).
    """
    by_start = sorted(range(len(links)), key=lambda k: links[k].start)
    started: list[int] = []
    li = 0
    for a in cuts:
        while li < len(by_start) and links[by_start[li]].start <= a:
            heapq.heappush(started, by_start[li])
            li += 1
        while started and links[started[0]].end <= a:
            heapq.heappop(started)
        yield links[started[0]] if started else None


_REF = Template('<a class="ref" href="{href}" title="{title}">{text}</a>')
_WORDISH = re.compile(r"\w")
# A change of punctuation or spacing only (a comma, a full stop, a space)
# is a character or two wide: it gets a class that makes it stand out.
_INS, _INS_PUNCT = Template("<ins>{text}</ins>"), Template('<ins class="pu">{text}</ins>')
_DEL, _DEL_PUNCT = Template("<del>{text}</del>"), Template('<del class="pu">{text}</del>')


def _op_piece(op: Op, text: str) -> Child:
    template = _piece_template(op, text)
    return text if template is None else template(text=text)


_EQUAL, _INSERT = Op.EQUAL, Op.INSERT


def _piece_template(op: Op, text: str) -> Template | None:
    """The element a piece of a difference stands in (None: an equal piece, as text)."""
    if op is _EQUAL:
        return None
    if op is _INSERT:
        return _INS if _WORDISH.search(text) else _INS_PUNCT
    return _DEL if _WORDISH.search(text) else _DEL_PUNCT


_PRINTINGS: dict[int, tuple[Edition, dict[str, str]]] = {}


def printing_of(edition: Edition, file: str) -> str:
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


_SOURCE = Template('<details class="src"><summary>{source}</summary>{where}</details>', block=True)


def source_line(found: Iterable[tuple[Edition, Clause]], read_from: Callable[[Edition], str] = lambda _e: "") -> Markup:
    """Where a clause came from, in each edition of ``found`` (the same clause where it stands unchanged):
    edition, printing, file and place.  The file is left out where it is ``read_from(edition)``, the one
    file the page names for the edition (``2017 · 3e druk · $[551]``); editions whose clause stands at the
    same place are named together (``2007, 2017 · line 3``).

    Behind a disclosure: a file name and a JSON path are for checking, not for reading.
    """
    places: dict[tuple[str, str], list[str]] = {}
    for e, c in found:
        loc = c.source
        if loc.file and loc.file == read_from(e):
            place = _("line {line}").format(line=loc.line) if loc.line else loc.path or loc.file
        else:
            place = where(loc)
        places.setdefault((printing_of(e, loc.file), place), []).append(e.name)
    said = [
        " · ".join([", ".join(names), *([printing] if printing else []), place])
        for (printing, place), names in places.items()
    ]
    return _SOURCE(source=_("source"), where="; ".join(said))


_CHIP = Template('<a class="addr" id="{ident}" href="{href}" aria-label="{edition} {address}">{address}</a>')
_CHIP_PLAIN = Template('<span class="addr">{address}</span>')


def addr_chip(edition: str, address: str, href: str | None, ident: str | None = None) -> Markup:
    """A clause's address, linked to ``href`` when there is one (``ident``: the link's own id)."""
    if href:
        # An address alone names no clause: the link's name says the edition too.
        return _CHIP(ident=ident, href=href, edition=edition, address=address)
    return _CHIP_PLAIN(address=address)


def _label(clause: Clause) -> str:
    return clause.label.strip()


_LABEL = Template('<span class="lbl">{label}</span>')
_BLOCK = Template(
    '<div class="clause {kind}" id="{ident}">\n<div class="ch">{chip}{edition}{extra}</div>\n{heading}{body}</div>',
    block=True,
)
# A block's edition beside its address, for a table whose columns stack on a phone (report.css shows it there).
_EDITION = Template(' <span class="ed" aria-hidden="true">{edition}</span>')


class ClauseRows:
    """Renders clauses of one edition on one page; ``named``: each block says its edition beside its address
    (on a phone, where the columns of a side-by-side table stack and their heads are gone)."""

    def __init__(self, page: Page, edition: Edition, named: bool = True) -> None:
        self.page = page
        self.edition = edition
        self.name = edition.name
        self._named = _EDITION(edition=edition.name) if named else None

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
            title = _("footnote {address}").format(address=f.address)
            out.append((f.anchor, h("sup", {"class": "fnref", "title": title}, inner)))
        return out

    def texts(
        self,
        clause: Clause,
        title: list[tuple[Op, str]] | None = None,
        text: list[tuple[Op, str]] | None = None,
        fn_href: Callable[[Clause], str | None] = lambda _f: None,
    ) -> tuple[Markup | None, Markup | None]:
        """A clause's heading and its text as blocks of law text, each None where it has none.

        ``title`` and ``text`` are the clause's own when not given (no
        difference marked); an empty list leaves that part out.
        """
        title_segs = [(Op.EQUAL, clause.title)] if title is None and clause.title else title or []
        text_segs = [(Op.EQUAL, clause.text)] if text is None and clause.text else text or []
        label = _label(clause)
        lbl = _LABEL(label=label) if label else None
        heading = law_text("ct", title_segs, lead=lbl) if title_segs else None
        body = None
        if text_segs:
            body = law_text(
                "tx",
                text_segs,
                self.refs(clause),
                self.marks(clause, fn_href),
                lead=lbl if not title_segs and clause.kind is not Kind.ARTICLE else None,
                held=self.page.held,
            )
        return heading, body

    def block(
        self,
        clause: Clause,
        ident: str | None,
        chip_href: str | None,
        title: list[tuple[Op, str]] | None = None,
        text: list[tuple[Op, str]] | None = None,
        fn_href: Callable[[Clause], str | None] = lambda _f: None,
        extra: Child = None,
        note: Child = None,
        chip: Markup | None = None,
    ) -> Markup:
        """One clause: address, label and title, text.

        ``title`` and ``text`` as :meth:`texts` takes them; ``note`` stands below the text; ``chip``: the
        address as the block shows it, when not linked to ``chip_href``.
        """
        heading, body = self.texts(clause, title, text, fn_href)
        if note is not None:
            body = join([body, note])
        return _BLOCK(
            kind=kind_class(clause),
            ident=ident,
            chip=chip or addr_chip(self.name, clause.address, chip_href),
            edition=self._named,
            extra=extra,
            heading=heading,
            body=body,
        )


def kind_class(clause: Clause) -> str:
    """The class of a clause's block: ``fn`` for a footnote, ``art`` for an article, ``cl`` for any other."""
    return "fn" if clause.kind is Kind.FOOTNOTE else "art" if clause.kind is Kind.ARTICLE else "cl"
