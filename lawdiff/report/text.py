"""Plain-text renderings for the terminal (no colour here: see ``style``).

Law text is printed whole, never wrapped or shortened, except in outlines,
which show titles (or the opening words of untitled clauses) by design.

Text read from a source (law text, titles, addresses, file names, notes) is
rendered as it is: a control character in a dump (``ESC ] 0 ; ... BEL`` sets
a terminal's window title) is shown as an escape where the text is printed
(:mod:`lawdiff.cli.terminal`, the rule of :mod:`lawdiff.marks`), and kept in
a file written with ``-o``.  Colours are added by ``style``.

The renderings of comparisons and histories import the alignment and the
study's vocabulary where they run, so that the reading commands
(``editions``, ``show``, ``check``) load neither.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from lawdiff.corpus import Corpus, Dangling, PageCheck
from lawdiff.model import Clause, Edition, Kind, article_of, natural_key
from lawdiff.report import article_ranges, where

if TYPE_CHECKING:
    from lawdiff.align import Thresholds
    from lawdiff.diff import Change, Comparison, History, Piece, RefChange
    from lawdiff.diff.vocabulary import Signal
    from lawdiff.review.view import ReviewView

Style = Callable[[str, str], str]  # (text, role) -> text


def plain(text: str, _role: str) -> str:
    return text


def _snippet(text: str, width: int = 60) -> str:
    first = text.split("\n", 1)[0]
    return first if len(first) <= width else first[: width - 1].rstrip() + "…"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# ---------------------------------------------------------------------------
# Editions, outlines, clauses, checks


def editions(corpus: Corpus) -> str:
    lines = []
    for e in corpus.listing():
        clauses = list(e.walk())
        arts = [a.address for a in e.articles()]
        lines.append(e.name)
        if e.base:
            lines.append(f"  amends     {e.base}, in force from {e.effective}")
        lines.append(f"  printing   {', '.join(e.printings) or '(not stated)'}")
        lines.append(f"  articles   {article_ranges(arts) or '(none)'}  ({len(arts)})")
        for art, given in sorted(e.held_in_part().items(), key=lambda kv: natural_key(kv[0])):
            lines.append(f"  in part    {art}: the pages of {', '.join(sorted(given, key=natural_key))} only")
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


def outline(e: Edition, style: Style = plain) -> str:
    printing = ", ".join(e.printings) or "not stated"
    lines = [style(e.name, "heading") + f"  ({_count(len(e.sources), 'source file')}; printing {printing})"]

    def visit(c: Clause, depth: int) -> None:
        if c.kind is Kind.FOOTNOTE:
            return
        head = " ".join(x for x in (c.label, c.title) if x) or _snippet(c.text)
        if c.label and not c.title and c.text and c.kind not in (Kind.ARTICLE,):
            head = f"{c.label} {_snippet(c.text)}"
        if not head:
            head = f"({c.kind.value}, untitled)"
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


def _with_markers(c: Clause) -> str:
    """A clause's text with its footnote markers where they stand in the printing."""
    marks = sorted(((f.anchor, f.marker or f.label) for f in c.footnotes if f.anchor >= 0), reverse=True)
    text = c.text
    for at, marker in marks:
        if 0 <= at <= len(text):
            # Where the marker was taken out, so was the space before it.
            glue = "" if not at or text[at - 1 : at] == " " else " "
            text = text[:at] + glue + marker + text[at:]
    return text


def _body(c: Clause, depth: int, lines: list[str], style: Style) -> None:
    pad = "  " * depth
    head = " ".join(x for x in (c.label, c.title) if x)
    tag = style(f"[{c.address}]", "address")
    text = _with_markers(c)
    if c.title:
        extra = f" {c.extra}" if c.extra else ""  # a container's range: "Art. 41 t/m 49"
        lines.append(f"{pad}{tag} {style(head, 'title')}{extra}")
        lines.extend(f"{pad}  {para}" for para in text.split("\n") if c.text)
    else:
        paras = text.split("\n") if c.text else [""]
        lines.append(f"{pad}{tag} " + " ".join(x for x in (c.label, paras[0]) if x))
        lines.extend(f"{pad}  {para}" for para in paras[1:])
    for n in c.notes:
        lines.append(f"{pad}  note: {n}")
    if c.references:
        refs = ", ".join(f"{r.target} ({r.printed!r})" for r in c.references)
        lines.append(f"{pad}  references: {refs}")
    for f in c.footnotes:
        # The note as printed: its marker, then its text (the label as read
        # is kept apart when a misprint was read as another: "!)" as "1)").
        shown = f.marker or f.label
        read = f" (printed {f.label!r})" if f.label and f.marker and f.label != f.marker else ""
        lines.append(f"{pad}  {style(f'[{f.address}]', 'address')} {shown} {f.text}{read}")
        for n in f.notes:
            lines.append(f"{pad}    note: {n}")
        if f.references:
            lines.append(f"{pad}    references: " + ", ".join(f"{r.target} ({r.printed!r})" for r in f.references))
    for ch in c.children:
        _body(ch, depth + 1, lines, style)


def check(corpus: Corpus, dangling: list[Dangling], style: Style = plain, skipped: Iterable[str] = ()) -> str:
    lines: list[str] = []
    for ch in corpus.checks:
        lines.extend(_page_check(ch, style))
    for name in skipped:
        lines.append(f"{name}: skipped (no reader takes this kind of file)")
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
                f"{name}: {len(targets)} reference(s) to {len(uniq)} target(s) in articles (or parts of them) "
                f"not in the corpus: "
                f"{', '.join(uniq)}"
            )
    total = sum(c.tokens for c in corpus.checks)
    placed = sum(c.placed for c in corpus.checks)
    lost = sum(len(c.unplaced) for c in corpus.checks)
    pct = 100.0 if total == 0 else 100.0 * placed / total
    lines.append("")
    lines.append(
        f"{len({c.file for c in corpus.checks})} file(s), {len(corpus.checks)} page(s), {len(corpus.editions)}"
        f" edition(s): {placed}/{total} words and signs placed "
        f"({pct:.1f}%), {lost} fragment(s) unplaced, {len(conflicts)} conflict(s)"
    )
    return "\n".join(lines) + "\n"


def _page_check(ch: PageCheck, style: Style) -> list[str]:
    pct = 100.0 * ch.ratio
    status = style("ok", "ok") if not ch.unplaced else style("LOST TEXT", "warn")
    lines = [
        f"{ch.file}: {ch.edition} {ch.format}, page {ch.page}: {ch.placed}/{ch.tokens} placed ({pct:.1f}%) " + status
    ]
    for u in ch.unplaced:
        lines.append(f"  unplaced at {where(u.loc)}: {u.text}")
    for loc, note in ch.notes:
        lines.append(f"  note {where(loc)}: {note}")
    return lines


# ---------------------------------------------------------------------------
# Comparisons and histories


def diff_text(pieces: tuple[Piece, ...], style: Style = plain) -> str:
    """A word-level difference inline: ``[-deleted-]{+inserted+}`` without colour.

    The layout is never diffed: white space that only one side has (a line
    break where a split cut a sentence) is printed as the new text has it,
    outside the markers, and a line break of the old text only is dropped.
    """
    from lawdiff.diff import Op

    out = []
    for p in pieces:
        text = p.text
        if p.op is Op.EQUAL:
            out.append(text)
            continue
        core = text.strip()
        if not core:
            if p.op is Op.INSERT:
                out.append(text)
            elif not out or not out[-1].endswith((" ", "\n")):
                out.append(" " if "\n" in text else text)
            continue
        lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
        if p.op is Op.DELETE:
            lead, trail = lead.replace("\n", " "), trail.replace("\n", " ")
            out.append(lead + style(f"[-{core}-]", "delete") + trail)
        else:
            out.append(lead + style(f"{{+{core}+}}", "insert") + trail)
    return "".join(out)


def counts_line(comp: Comparison, changes: list[Change] | None = None) -> str:
    listed = list(comp.changes if changes is None else changes)
    c = comp.counts(listed)
    normative = comp.normative_count(listed)
    return (
        f"{comp.old} -> {comp.new}: {c['unchanged']} unchanged, {c['modified']} modified "
        f"({c['editorial_only']} editorial only), {c['split']} split, {c['merged']} merged, "
        f"{c['added']} added, {c['removed']} removed; {c['renumbered']} renumbered, {c['moved']} moved, "
        f"{c['title_changed']} titles changed; {normative} normative"
        + (
            f"; {c['outside_corpus']} more in articles or sections one corpus lacks (not counted)"
            if c["outside_corpus"]
            else ""
        )
    )


def thresholds_line(t: Thresholds, verbose: bool = False) -> str:
    """The thresholds of the run: only those set away from their defaults, unless ``verbose``."""
    from lawdiff.align import DEFAULT_THRESHOLDS

    defaults = DEFAULT_THRESHOLDS.as_dict()
    shown = {k: v for k, v in t.as_dict().items() if verbose or v != defaults[k]}
    if not shown:
        return ""
    label = "thresholds" if verbose else "thresholds set"
    return f"{label}: " + " ".join(f"{k}={v:g}" for k, v in shown.items())


def comparison(
    comp: Comparison,
    changes: list[Change],
    show_all: bool,
    style: Style = plain,
    verbose: bool = False,
    review: ReviewView | None = None,
) -> str:
    """A comparison for the terminal; ``review``: the committee's decisions and comments, shown per change."""
    from lawdiff.report.not_compared import NotCompared, outside_line

    lines = [style(counts_line(comp, changes), "heading")]
    if line := thresholds_line(comp.thresholds, verbose):
        lines.append(line)
    outside = NotCompared.of(comp, changes)
    if outside.changes:
        lines.append(outside_line(comp.old, comp.new, outside))
    for p in comp.patterns_of(changes):
        lines.append(f"drafting pattern (counted once): {p.label} in {', '.join(p.addresses)}")
    by_article: dict[str, list[Change]] = {}
    for ch in changes:
        if ch.counterpart_in_corpus:
            by_article.setdefault(ch.article, []).append(ch)
    hidden = 0
    for article, group in by_article.items():
        # A stale reference (kept while its target moved) needs the reader's
        # eye even in a clause whose text did not change; so does a decision.
        shown = [ch for ch in group if show_all or ch.noteworthy or _decided(review, ch)]
        hidden += len(group) - len(shown)
        if not shown:
            continue
        lines.append("")
        lines.append(style(f"Article {article}" if article[:1].isdigit() else article, "heading"))
        for ch in shown:
            lines.extend(_change_lines(comp, ch, style))
            if review is not None:
                lines.extend(_review_lines(review, ch))
    if hidden:
        lines.append("")
        lines.append(f"{hidden} unchanged clause(s) not shown (--all shows them)")
    return "\n".join(lines) + "\n"


def _decided(review: ReviewView | None, ch: Change) -> bool:
    return review is not None and review.entry(ch.id).decision is not None


def _review_lines(review: ReviewView, ch: Change) -> list[str]:
    """A change's decision and comment thread, as the store holds them."""
    entry = review.entry(ch.id)
    d = entry.decision
    if d is None:
        return []
    outdated = entry.state.value == "outdated"
    state = " (decided on an earlier text: see lawdiff review list --outdated)" if outdated else ""
    who = f", assigned to {d.assignee}" if d.assignee else ""
    lines = [f"    review: {d.status.value}{who}; by {d.author}, {d.updated[:16].replace('T', ' ')} UTC{state}"]
    for c in entry.comments:
        lines.append(f"    comment by {c.author}, {c.created[:16].replace('T', ' ')} UTC: {c.text}")
    return lines


def _change_lines(comp: Comparison, ch: Change, style: Style) -> list[str]:
    from lawdiff.align import Aspect
    from lawdiff.diff import SHORT_ID, ChangeKind, word_diff
    from lawdiff.diff.vocabulary import RefStatus

    if ch.old and ch.new:
        where_ = ", ".join(ch.old) if ch.old == ch.new else f"{', '.join(ch.old)} -> {', '.join(ch.new)}"
    else:
        where_ = ", ".join(ch.old or ch.new)
    notes = []
    if ch.aspect is Aspect.TITLE:
        notes.append("heading")
    if ch.renumbered:
        notes.append("renumbered")
    if ch.moved:
        notes.append("moved")
    if ch.editorial_only:
        notes.append("editorial only")
    if ch.kind not in (ChangeKind.ADDED, ChangeKind.REMOVED, ChangeKind.UNCHANGED):
        notes.append(f"words {_alike(ch.similarity)} alike")
    if ch.significance:
        notes.append(f"significance {ch.significance:g}")
    if ch.pinned_by:
        notes.append(f"matched by hand by {ch.pinned_by}")
    elif ch.uncertain:
        bar = comp.thresholds.certain
        notes.append(f"uncertain match: certainty {ch.certainty:.2f} (evidence {ch.score:.2f}), certain from {bar:g}")
    flags = f" [{', '.join(s.flag.value for s in ch.signals)}]" if ch.signals else ""
    head = f"  {ch.id[:SHORT_ID]}  {style(f'{ch.kind.value:9}', ch.kind.value)} {style(where_, 'address')}"
    head += flags
    if notes:
        head += f"  ({'; '.join(notes)})"
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
    if ch.signals and ch.old and ch.new:
        # (An added or removed clause's flags name every word of its kind: the bracket says enough.)
        lines.append("    flags: " + "; ".join(_signal_text(s) for s in ch.signals))
    if ch.uncertain and ch.reasons and not ch.pinned_by:
        lines.append(f"    why: {'; '.join(ch.reasons)}")
    refs = [r for r in ch.references if r.status is not RefStatus.KEPT or r.consistent is False]
    if refs:
        lines.append("    references: " + ", ".join(_ref_text(r) for r in refs))
    return lines


def _signal_text(s: Signal) -> str:
    """``modal -moet +wordt geacht``: a flag and the words that raised it."""
    if s.removed and s.added and s.flag.value == "reference":
        return f"{s.flag.value} {', '.join(s.removed)} -> {', '.join(s.added)}"
    words = [f"-{w}" for w in s.removed] + [f"+{w}" for w in s.added]
    return f"{s.flag.value} {' '.join(words)}"


def _alike(value: float) -> str:
    """A similarity as a percentage that never reads 100 % for a text that did change."""
    pct = value * 100
    shown = f"{pct:.0f} %"
    return f"{pct:.1f} %" if shown == "100 %" and value < 1.0 else shown


def _ref_text(r: RefChange) -> str:
    from lawdiff.diff.vocabulary import RefStatus

    if r.status is RefStatus.KEPT:
        return f"{r.old} kept, but its target moved"
    if r.status is RefStatus.ADDED:
        return f"+{r.new}"
    if r.status is RefStatus.REMOVED:
        return f"-{r.old}"
    verdict = {True: "consistent", False: "NOT the successor of the old target", None: "not verifiable in this corpus"}
    return f"{r.old} -> {r.new} ({verdict[r.consistent]})"


def introduced(h: History) -> str:
    """When the current wording came: ``introduced in 2017``, or ``introduced in 2017 or earlier: the 1963,
    1997 and 2007 corpora do not hold it`` when the editions just before hold nothing to compare it with."""
    if not h.or_earlier:
        return f"introduced in {h.introduced}"
    names = list(h.or_earlier)
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    corpora = "corpus does" if len(names) == 1 else "corpora do"
    return f"introduced in {h.introduced} or earlier: the {listed} {corpora} not hold it"


def history(h: History, style: Style = plain, editions: Iterable[Edition] = ()) -> str:
    """A clause's history for the terminal; ``editions``: the study's, to say of a step its corpus lacks
    whether it lacks the article or holds only other parts of it."""
    from lawdiff.align import Aspect
    from lawdiff.diff import ChangeKind

    lines = [style(f"history of {h.start}", "heading")]
    art = article_of(h.start.partition(":")[2])
    holding = {e.name for e in editions if art and e.find(art) is not None}
    for step in h.steps:
        name = step.edition
        if not step.in_corpus:
            if step.edition in holding:
                lines.append(f"{name}  (not in the {name} corpus, which holds other parts of article {art})")
            else:
                lines.append(f"{name}  ({'article' if art else 'heading'} not in the {name} corpus)")
            continue
        if not step.addresses:
            lines.append(f"{name}  (none: {'removed' if step.kinds else 'not present'})")
            continue
        kind = f"  [{step.change}]" if step.kinds else ""
        lines.append(style(f"{step.edition}  {', '.join(step.addresses)}", "address") + kind)
        for addr, txt in zip(step.addresses, step.texts, strict=True):
            prefix = f"  {addr}: " if len(step.addresses) > 1 else "  "
            lines.append(prefix + txt)
        for ch in step.changes:
            if ch.kind is ChangeKind.MODIFIED and ch.aspect is Aspect.TEXT:
                lines.append(f"  changes ({', '.join(ch.old)} -> {', '.join(ch.new)}): {diff_text(ch.diff, style)}")
    if h.introduced:
        lines.append(f"current wording {introduced(h)}")
    return "\n".join(lines) + "\n"
