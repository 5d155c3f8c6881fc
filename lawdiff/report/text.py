"""Plain-text renderings for the terminal (no colour here: see ``style``).

Law text is printed whole, never wrapped or shortened, except in outlines,
which show titles (or the opening words of untitled clauses) by design.
"""

from __future__ import annotations

from collections.abc import Callable

from lawdiff.align import Aspect, Thresholds
from lawdiff.corpus import Corpus, Dangling, PageCheck
from lawdiff.diff import Change, ChangeKind, Comparison, History, Op, Piece, RefChange, word_diff
from lawdiff.diff.records import RefStatus
from lawdiff.model import Clause, Edition, Kind
from lawdiff.report import article_ranges, where

Style = Callable[[str, str], str]  # (text, role) -> text


def plain(text: str, _role: str) -> str:
    return text


def _snippet(text: str, width: int = 60) -> str:
    first = text.split("\n", 1)[0]
    return first if len(first) <= width else first[: width - 1].rstrip() + "…"


def editions(corpus: Corpus) -> str:
    lines = []
    for e in corpus.listing():
        clauses = list(e.walk())
        arts = [a.address for a in e.articles()]
        lines.append(f"{e.name}")
        if e.base:
            lines.append(f"  amends     {e.base}, in force from {e.effective}")
        lines.append(f"  printing   {', '.join(e.printings) or '(not stated)'}")
        lines.append(f"  articles   {article_ranges(arts) or '(none)'}  ({len(arts)})")
        lines.append(
            f"  clauses    {len(clauses)} ({sum(1 for c in clauses if c.text)} with text, "
            f"{_count(sum(1 for c in clauses if c.kind is Kind.FOOTNOTE), 'footnote')})"
        )
        if e.navigation:
            listed = sum(1 for n in e.navigation if n.address and n.address[0].isdigit())
            lines.append(f"  contents   {len(e.navigation)} entries, {listed} articles listed")
        for s in e.sources:
            lines.append(f"  source     {s.file} ({s.format}, page {s.page})")
    for year, variant in corpus.aliases().items():
        lines.append(f"{year} means {variant} ({corpus.choices.get(year, 'the default source')})")
    return "\n".join(lines) + "\n"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def outline(e: Edition, style: Style = plain) -> str:
    lines = [
        style(f"{e.name}", "heading")
        + f"  ({len(e.sources)} source files; printing {', '.join(e.printings) or 'not stated'})"
    ]

    def visit(c: Clause, depth: int) -> None:
        if c.kind is Kind.FOOTNOTE:
            return
        head = " ".join(x for x in (c.label, c.title) if x) or _snippet(c.text)
        if c.label and not c.title and c.text and c.kind not in (Kind.ARTICLE,):
            head = f"{c.label} {_snippet(c.text)}"
        lines.append(f"{'  ' * depth}{style(c.address, 'address')}  {head}")
        for ch in c.children:
            visit(ch, depth + 1)

    for c in e.clauses:
        visit(c, 0)
    if e.navigation:
        present = {c.address for c in e.walk()}
        missing = [n for n in e.navigation if n.address and n.address[0].isdigit() and n.address not in present]
        if missing:
            lines.append("")
            lines.append(
                f"listed in the contents but not in the corpus: {article_ranges([n.address for n in missing])}"
            )
    return "\n".join(lines) + "\n"


def clause(e: Edition, c: Clause, style: Style = plain) -> str:
    """One clause in full: header, source, then its text and its sub-clauses."""
    source = next((s for s in e.sources if s.file == c.source.file), None)
    about = [x for x in (source.printing if source else ", ".join(e.printings),) if x]
    if source and source.pages:
        about.append(f"printed pages {source.pages}")
    lines = [
        style(f"{e.name}:{c.address}", "heading") + f"  {c.kind.value}",
        f"source: {where(c.source)}" + (f" ({', '.join(about)})" if about else ""),
        "",
    ]
    _body(c, 0, lines, style)
    return "\n".join(lines) + "\n"


def _body(c: Clause, depth: int, lines: list[str], style: Style) -> None:
    pad = "  " * depth
    head = " ".join(x for x in (c.label, c.title) if x)
    tag = style(f"[{c.address}]", "address")
    if c.title:
        extra = f" {c.extra}" if c.extra else ""  # a container's range: "Art. 41 t/m 49"
        lines.append(f"{pad}{tag} {style(head, 'title')}{extra}")
        lines.extend(f"{pad}  {para}" for para in c.text.split("\n") if c.text)
    else:
        paras = c.text.split("\n") if c.text else [""]
        lines.append(f"{pad}{tag} " + " ".join(x for x in (c.label, paras[0]) if x))
        lines.extend(f"{pad}  {para}" for para in paras[1:])
    for n in c.notes:
        lines.append(f"{pad}  note: {n}")
    if c.references:
        refs = ", ".join(f"{r.target} ({r.printed!r})" for r in c.references)
        lines.append(f"{pad}  references: {refs}")
    for f in c.footnotes:
        marker = f" (marker {f.marker})" if f.marker else ""
        lines.append(f"{pad}  {style(f'[{f.address}]', 'address')} {f.label} {f.text}{marker}")
        for n in f.notes:
            lines.append(f"{pad}    note: {n}")
        if f.references:
            lines.append(f"{pad}    references: " + ", ".join(f"{r.target} ({r.printed!r})" for r in f.references))
    for ch in c.children:
        _body(ch, depth + 1, lines, style)


def check(corpus: Corpus, dangling: list[Dangling], style: Style = plain) -> str:
    lines: list[str] = []
    for ch in corpus.checks:
        lines.extend(_page_check(ch, style))
    conflicts = [(e.name, c) for e in corpus.editions for c in e.conflicts]
    lines.append("")
    if conflicts:
        lines.append(style(f"{len(conflicts)} clause(s) read twice with different wording:", "warn"))
        for name, c in conflicts:
            lines.append(f"  {name}:{c.address} {c.field}: {where(c.first)} vs {where(c.second)}")
            lines.append(f"    first:  {c.first_text}")
            lines.append(f"    second: {c.second_text}")
    else:
        lines.append("duplicate clauses: none disagree")
    suspect = [d for d in dangling if not d.absent_article]
    absent = [d for d in dangling if d.absent_article]
    if suspect:
        lines.append(style(f"{len(suspect)} reference(s) to a clause missing from an article that is present:", "warn"))
        for d in suspect:
            lines.append(f"  {d.edition}:{d.source} -> {d.target} ({d.printed!r}) at {where(d.loc)}")
    else:
        lines.append("references into the articles present: all found")
    if absent:
        by_edition: dict[str, list[str]] = {}
        for d in absent:
            by_edition.setdefault(d.edition, []).append(d.target)
        for name, targets in by_edition.items():
            uniq = sorted(set(targets), key=lambda t: (len(t), t))
            lines.append(
                f"{name}: {len(targets)} reference(s) to {len(uniq)} target(s) in articles not in the corpus: "
                f"{', '.join(uniq)}"
            )
    total = sum(c.tokens for c in corpus.checks)
    placed = sum(c.placed for c in corpus.checks)
    lost = sum(len(c.unplaced) for c in corpus.checks)
    pct = 100.0 if total == 0 else 100.0 * placed / total
    lines.append("")
    lines.append(
        f"{len(corpus.checks)} file(s), {len(corpus.editions)} edition(s): {placed}/{total} words and signs placed "
        f"({pct:.1f}%), {lost} fragment(s) unplaced, {len(conflicts)} conflict(s)"
    )
    return "\n".join(lines) + "\n"


def _page_check(ch: PageCheck, style: Style) -> list[str]:
    pct = 100.0 * ch.ratio
    status = style("ok", "ok") if not ch.unplaced else style("LOST TEXT", "warn")
    lines = [
        f"{ch.file}: {ch.edition} {ch.format}, page {ch.page}: {ch.placed}/{ch.tokens} placed ({pct:.1f}%) {status}"
    ]
    for u in ch.unplaced:
        lines.append(f"  unplaced at {where(u.loc)}: {u.text}")
    for loc, note in ch.notes:
        lines.append(f"  note {where(loc)}: {note}")
    return lines


# ---------------------------------------------------------------------------
# Comparisons and histories


def diff_text(pieces: tuple[Piece, ...], style: Style = plain) -> str:
    """A word-level difference inline: ``[-deleted-]{+inserted+}`` without colour."""
    out = []
    for p in pieces:
        if p.op is Op.EQUAL:
            out.append(p.text)
        elif p.op is Op.DELETE:
            out.append(style(f"[-{p.text}-]", "delete"))
        else:
            out.append(style(f"{{+{p.text}+}}", "insert"))
    return "".join(out)


def counts_line(comp: Comparison, changes: list[Change] | None = None) -> str:
    c = comp.counts(changes)
    return (
        f"{comp.old} -> {comp.new}: {c['unchanged']} unchanged, {c['modified']} modified "
        f"({c['editorial_only']} editorial only), {c['split']} split, {c['merged']} merged, "
        f"{c['added']} added, {c['removed']} removed; {c['renumbered']} renumbered, {c['moved']} moved, "
        f"{c['title_changed']} titles changed"
        + (f"; {c['outside_corpus']} more in articles one corpus lacks (not counted)" if c["outside_corpus"] else "")
    )


def thresholds_line(t: Thresholds) -> str:
    return "thresholds: " + " ".join(f"{k}={v:g}" for k, v in t.as_dict().items())


def comparison(comp: Comparison, changes: list[Change], show_all: bool, style: Style = plain) -> str:
    lines = [style(counts_line(comp, changes), "heading"), thresholds_line(comp.thresholds)]
    by_article: dict[str, list[Change]] = {}
    for ch in changes:
        by_article.setdefault(ch.article, []).append(ch)
    hidden = 0
    for article, group in by_article.items():
        # A stale reference (kept while its target moved) needs the reader's
        # eye even in a clause whose text did not change.
        shown = [
            ch for ch in group if show_all or ch.is_difference or any(r.consistent is False for r in ch.references)
        ]
        hidden += len(group) - len(shown)
        if not shown:
            continue
        lines.append("")
        head = f"Article {article}" if article[:1].isdigit() else article
        partial = [ch for ch in shown if not ch.counterpart_in_corpus]
        if partial and len(partial) == len(shown):
            other = comp.old if shown[0].new else comp.new
            head += f" (not in the {other} corpus)"
        lines.append(style(head, "heading"))
        for ch in shown:
            lines.extend(_change_lines(ch, style))
    if hidden:
        lines.append("")
        lines.append(f"{hidden} unchanged clause(s) not shown (--all shows them)")
    return "\n".join(lines) + "\n"


def _change_lines(ch: Change, style: Style) -> list[str]:
    if ch.old and ch.new:
        where_ = ", ".join(ch.old) if ch.old == ch.new else f"{', '.join(ch.old)} -> {', '.join(ch.new)}"
    else:
        where_ = ", ".join(ch.old or ch.new)
    flags = []
    if ch.aspect is Aspect.TITLE:
        flags.append("heading")
    if ch.renumbered:
        flags.append("renumbered")
    if ch.moved:
        flags.append("moved")
    if ch.editorial_only:
        flags.append("editorial only")
    if ch.kind is not ChangeKind.ADDED and ch.kind is not ChangeKind.REMOVED and ch.kind is not ChangeKind.UNCHANGED:
        flags.append(f"similarity {_similarity(ch.similarity)}")
    if ch.uncertain:
        flags.append(f"uncertain: score {ch.score:.2f}")
    head = f"  {style(f'{ch.kind.value:9}', ch.kind.value)} {style(where_, 'address')}"
    if flags:
        head += f"  ({'; '.join(flags)})"
    lines = [head]
    if ch.aspect is Aspect.TITLE:
        if ch.kind is not ChangeKind.UNCHANGED:
            lines.append(f"    title: {diff_text(ch.diff, style)}")
    else:
        if ch.title_changed:
            lines.append(f"    title: {diff_text(word_diff(ch.old_title, ch.new_title), style)}")
        if ch.kind is not ChangeKind.UNCHANGED and (ch.old_texts != ch.new_texts):
            for para in diff_text(ch.diff, style).split("\n"):
                lines.append(f"    {para}")
    if ch.uncertain and ch.reasons:
        lines.append(f"    why: {'; '.join(ch.reasons)}")
    refs = [r for r in ch.references if r.status is not RefStatus.KEPT or r.consistent is False]
    if refs:
        lines.append("    references: " + ", ".join(_ref_text(r) for r in refs))
    return lines


def _similarity(value: float) -> str:
    """Two decimals, but never "1.00" for a text that did change."""
    shown = f"{value:.2f}"
    return f"{value:.3f}" if shown == "1.00" and value < 1.0 else shown


def _ref_text(r: RefChange) -> str:
    if r.status is RefStatus.KEPT:
        return f"{r.old} kept, but its target moved"
    if r.status is RefStatus.ADDED:
        return f"+{r.new}"
    if r.status is RefStatus.REMOVED:
        return f"-{r.old}"
    verdict = {True: "consistent", False: "NOT the successor of the old target", None: "not verifiable in this corpus"}
    return f"{r.old} -> {r.new} ({verdict[r.consistent]})"


def history(h: History, style: Style = plain) -> str:
    lines = [style(f"history of {h.start}", "heading")]
    for step in h.steps:
        if not step.in_corpus:
            lines.append(f"{step.edition}  (article not in the {step.edition} corpus)")
            continue
        if not step.addresses:
            lines.append(f"{step.edition}  (none: {'removed' if step.change else 'not present'})")
            continue
        kind = f"  [{step.change}]" if step.change else ""
        lines.append(style(f"{step.edition}  {', '.join(step.addresses)}", "address") + kind)
        for addr, txt in zip(step.addresses, step.texts, strict=True):
            prefix = f"  {addr}: " if len(step.addresses) > 1 else "  "
            lines.append(prefix + txt)
        for ch in step.changes:
            if ch.kind is ChangeKind.MODIFIED and ch.aspect is Aspect.TEXT:
                lines.append(f"  changes ({', '.join(ch.old)} -> {', '.join(ch.new)}): {diff_text(ch.diff, style)}")
    if h.introduced:
        lines.append(f"current wording introduced in {h.introduced}")
    return "\n".join(lines) + "\n"
