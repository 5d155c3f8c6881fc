"""An article's synopsis: every edition of it in columns, oldest first, line by line.

Each line holds what corresponds across the editions (:attr:`ArticleView.synopsis`).  A clause that
stayed as it was from one edition to the next (its step ``unchanged``, and nothing else) shares one
cell with the edition before, spanning their columns: its wording stands once, under the anchors of
the clause in each of those editions (``45.html#2007-45D`` and ``#2017-45D`` lead to the same cell).
"""

from __future__ import annotations

from lawdiff.diff import Op
from lawdiff.diff.article import ArticleView, Node, Part
from lawdiff.diff.synopsis import NOT_COMPARED, SynopsisRow
from lawdiff.errors import LawdiffBug
from lawdiff.i18n import gettext as _
from lawdiff.model import Clause, Edition, Kind, article_of
from lawdiff.report.html.kind import step_word
from lawdiff.report.html.law import ClauseRows, Page, source_line
from lawdiff.report.html.markup import Child, Markup, h, made_by, phrase, scroll_box, section_markup
from lawdiff.report.html.nav import article_name
from lawdiff.report.html.pair import article_files, edition_head, running_rows, sources_line
from lawdiff.report.html.template import Template
from lawdiff.report.site import Site, anchor, article_file, history_file, pair_id

_UNCHANGED = ("unchanged",)
_CELL = Template('<td data-edition="{edition}" colspan="{span}">{step}{none}{blocks}</td>', block=True)
_ROW = Template("<tr>\n{cells}</tr>", block=True)
# A clause's address leads to its history (its anchor is the citation: the hint above the table says so).
_CHIP = Template('<a class="addr" href="{href}" aria-label="{label}">{address}</a>')
_SAME_IN = Template('<p class="same-in">{said}</p>')
_SAME_EDITION = Template('<span id="{ident}">{edition}</span>')
_WORDING_AS = Template('<p class="same-as">{said}</p>')
_READ_FROM = Template('<p class="hint">{said}</p>', block=True)


def synopsis_section(site: Site, a: ArticleView, page: Page) -> Markup:
    """The synopsis of an article, with its running head and foot on paper and a hint of how it reads."""
    cells = _Cells(site, a, page)
    name, file = article_name(a.number), article_file(a.number).split("/")[1]
    head, foot = running_rows(
        " · ".join([name, _("synopsis"), "; ".join(sources_line(e, a.number) for e in a.editions)]),
        made_by(*a.editions),
        len(a.editions),
    )
    table = h(
        "table",
        {"class": f"syn cols-{len(a.editions)}"},
        h("caption", None, _("{article} in every edition of the corpus").format(article=name)),
        h("thead", None, head, h("tr", None, [h("th", {"scope": "col"}, edition_head(e)) for e in a.editions])),
        foot,
        h("tbody", None, [_ROW(cells=cells.row(row)) for row in site.synopsis(a)]),
    )
    return section_markup(
        "synopsis",
        [_("Synopsis")],
        "synopsis",
        h(
            "p",
            {"class": "hint"},
            phrase(
                _(
                    "Each line holds what corresponds across the editions; the label above a clause says how it "
                    "changed from the edition before, and a clause that stayed the same shares the cell of the "
                    "edition before. Every clause has a stable anchor: {example}."
                ),
                example=h("code", None, f"{file}#{anchor(a.editions[-1].name, a.number)}"),
            ),
        ),
        scroll_box(_("{article} in every edition").format(article=name), table),
        _READ_FROM(said=_("Read from {files}.").format(files="; ".join(sources_line(e, a.number) for e in a.editions))),
    )


def spans(a: ArticleView, row: SynopsisRow) -> list[tuple[int, int]]:
    """The cells of a line as ranges of editions ``(first, end)``: a clause of the article unchanged from the
    edition before (the step ``unchanged`` alone, one node on both sides) joins the cell before it."""
    out: list[tuple[int, int]] = []
    for i, (cell, step) in enumerate(zip(row.cells, row.steps, strict=True)):
        before = row.cells[i - 1] if i else ()
        if (
            out
            and step == _UNCHANGED
            and len(cell) == len(before) == 1
            and article_of(cell[0].address) == a.number
            and article_of(before[0].address) == a.number
        ):
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return out


class _Cells:
    """The cells of the synopsis's lines, each clause claiming its anchor on the page."""

    def __init__(self, site: Site, a: ArticleView, page: Page) -> None:
        self.site = site
        self.a = a
        self.page = page
        self.renderers = [ClauseRows(page, e, named=False) for e in a.editions]
        self.hist = history_file(a.number).split("/")[1]
        # The one file each edition's article was read from, named once under the table (none: several).
        self.files = {e.name: files[0] for e in a.editions if len(files := article_files(e, a.number)) == 1}

    def row(self, row: SynopsisRow) -> list[Markup]:
        out: list[Markup] = []
        for first, end in spans(self.a, row):
            e, cell, step = self.a.editions[first], row.cells[first], row.steps[first]
            none = None
            if not cell:
                prev_has = first > 0 and bool(row.cells[first - 1])
                gone = (_("not in the {edition} corpus") if step == (NOT_COMPARED,) else _("not in {edition}")).format(
                    edition=e.name
                )
                none = h("span", {"class": "none"}, gone if prev_has else "—")
            later = [(self.a.editions[i], row.cells[i][0]) for i in range(first + 1, end)]
            before = self.a.editions[first - 1].name if _same_words(self.a, row, first) else ""
            out.append(
                _CELL(
                    edition=e.name,
                    span=str(end - first) if end - first > 1 else None,
                    step=_step(step, self.a, first, row.cells, self.page) if step else None,
                    none=none,
                    blocks=[self._block(node, self.renderers[first], later, before) for node in cell],
                )
            )
        return out

    def _block(self, node: Node, r: ClauseRows, later: list[tuple[Edition, Node]], before: str) -> Markup:
        """A clause's canonical block; ``later``: the editions after it where it is the same, with their nodes;
        ``before``: the edition before, whose cell holds its words (renumbered, its words as they were), or ""."""
        e = r.edition
        c = e.find(node.address)
        if c is None:
            raise LawdiffBug(f"the synopsis names {e.name}:{node.address}, which the edition does not hold")
        if article_of(c.address) != self.a.number:
            # A clause of another article (moved here or away): a link, not a copy.
            href = self.site.href(e.name, c.address, self.page.path)
            addr = h("a", {"href": href}, c.address) if href else h("span", None, c.address)
            said = _("in article {number}: {clause}")
            if e is self.a.editions[0]:
                said = _("from article {number}: {clause}")
            return h("div", {"class": "clause foreign"}, phrase(said, number=article_of(c.address), clause=addr))
        ident = self.page.claim(anchor(e.name, c.address))
        title: list[tuple[Op, str]] | None = None
        text: list[tuple[Op, str]] | None = None
        if node.part is Part.HEAD:
            text = []  # the article's heading line
        elif c.kind is Kind.ARTICLE:
            title = []  # the article's own text, under its heading line
        if before:
            title, text = [], []
        same: list[tuple[Edition, Clause]] = []
        for edition, n in later:
            clause = edition.find(n.address)
            if clause is not None:
                same.append((edition, clause))
        return r.block(
            c,
            ident,
            None,
            title,
            text,
            lambda f: f"#{anchor(e.name, f.address)}",
            note=[
                _WORDING_AS(said=_("Wording as in {edition}.").format(edition=before)) if before else None,
                self._same_in(same),
                source_line([(e, c), *same], self._read_from),
            ],
            chip=_CHIP(
                href=f"{self.hist}#{anchor(e.name, c.address)}",
                label=_("{edition} {address}: history").format(edition=e.name, address=c.address),
                address=c.address,
            ),
        )

    def _same_in(self, same: list[tuple[Edition, Clause]]) -> Markup | None:
        """``Unchanged in 2007, 2017``: each edition's name the anchor of the clause there."""
        names: list[Child] = []
        for i, (edition, clause) in enumerate(same):
            ident = self.page.claim(anchor(edition.name, clause.address))
            names.extend([", " if i else None, _SAME_EDITION(ident=ident, edition=edition.name)])
        return _SAME_IN(said=phrase(_("Unchanged in {editions}."), editions=names)) if names else None

    def _read_from(self, e: Edition) -> str:
        return self.files.get(e.name, "")


def _same_words(a: ArticleView, row: SynopsisRow, i: int) -> bool:
    """Whether cell ``i`` of a line holds one clause of the article whose words are those of the one clause in
    the cell before (its step ``unchanged``, its title too: renumbered, or with a stale reference)."""
    step, cell = row.steps[i], row.cells[i]
    before = row.cells[i - 1] if i else ()
    return (
        bool(step)
        and step[0] == "unchanged"
        and "title changed" not in step
        and len(cell) == len(before) == 1
        and cell[0].part is before[0].part
        and article_of(cell[0].address) == article_of(before[0].address) == a.number
    )


def _step(words: tuple[str, ...], a: ArticleView, i: int, cells: tuple[tuple[Node, ...], ...], page: Page) -> Markup:
    """The kind of change into this cell, linked to its side-by-side row."""
    step = ", ".join(step_word(w) for w in words)
    prev, cur = a.editions[i - 1].name, a.editions[i].name
    # The new side's block, or for a removal the old side's.
    candidates = [(cur, n.address) for n in cells[i]] + [(prev, n.address) for n in cells[i - 1]]
    ids = (f"{pair_id(prev, cur)}-{anchor(ed, addr)}{end}" for ed, addr in candidates for end in ("", "-title"))
    target = next((t for t in ids if t in page.ids), None)
    cls = f"step s-{words[0].split(' ')[0]}" + (" stale" if "stale reference" in words else "")
    if target:
        title = _("{old} → {new}, side by side").format(old=prev, new=cur)
        return _STEP_LINKED(cls=cls, href=f"#{target}", title=title, step=step)
    return _STEP(cls=cls, step=step)


# The kind of change into a cell (in most cells of the synopsis), as h() would write it.
_STEP = Template('<div class="{cls}">{step}</div>', block=True)
_STEP_LINKED = Template('<div class="{cls}"><a href="{href}" title="{title}">{step}</a></div>', block=True)
