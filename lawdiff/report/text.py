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

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from lawdiff.corpus import Corpus
from lawdiff.i18n import N_, decimal_sign, format_stamp, ngettext, terms
from lawdiff.i18n import gettext as _
from lawdiff.i18n.said import say
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


def number(value: float, spec: str = "g") -> str:
    """A number as Python formats it by ``spec``, with the language's decimal sign ("0,817" in Dutch)."""
    return format(value, spec).replace(".", decimal_sign())


# ---------------------------------------------------------------------------
# Editions, outlines, clauses (what `lawdiff check` prints: lawdiff.report.check_text)


def editions(corpus: Corpus) -> str:
    lines = []
    for e in corpus.listing():
        clauses = list(e.walk())
        arts = [a.address for a in e.articles()]
        lines.append(e.name)
        if e.base:
            lines.append(_label(_("amends"), _("{base}, in force from {date}").format(base=e.base, date=e.effective)))
        lines.append(_label(_("printing"), ", ".join(e.printings) or _("(not stated)")))
        ranges = article_ranges(arts) or _("(none)")
        lines.append(_label(_("articles"), f"{ranges}  ({len(arts)})"))
        for art, given in sorted(e.held_in_part().items(), key=lambda kv: natural_key(kv[0])):
            only = _("{article}: the pages of {sections} only").format(
                article=art, sections=", ".join(sorted(given, key=natural_key))
            )
            lines.append(_label(_("in part"), only))
        footnotes = sum(1 for c in clauses if c.kind is Kind.FOOTNOTE)
        counted = _("{n} ({text} with text, {footnotes})").format(
            n=len(clauses),
            text=sum(1 for c in clauses if c.text),
            footnotes=ngettext("{n} footnote", "{n} footnotes", footnotes).format(n=footnotes),
        )
        lines.append(_label(_("clauses"), counted))
        if e.navigation:
            listed = sum(1 for n in e.navigation if n.address and n.address[0].isdigit())
            entries = _("{n} entries, {listed} articles listed").format(n=len(e.navigation), listed=listed)
            lines.append(_label(_("contents"), entries))
        for s in e.sources:
            source = _("{file} ({format}, page {page})").format(file=s.file, format=s.format, page=s.page)
            lines.append(_label(_("source"), source))
    for year, variant in corpus.aliases().items():
        chosen = corpus.choices.get(year) or _("the default source")
        lines.append(_("{year} means {variant} ({chosen})").format(year=year, variant=variant, chosen=chosen))
    return "\n".join(lines) + "\n"


# The labels of an edition's listing, whose column is as wide as the language's longest (and at least 10).
_LABELS = (N_("amends"), N_("printing"), N_("articles"), N_("in part"), N_("clauses"), N_("contents"), N_("source"))


def _label(label: str, value: str) -> str:
    """One line of an edition's listing: its label in a column (``  printing   2017``)."""
    width = max(10, *(len(_(x)) for x in _LABELS))
    return f"  {label:{width}} {value}"


def outline(e: Edition, style: Style = plain) -> str:
    printing = ", ".join(e.printings) or _("not stated")
    files = ngettext("{n} source file", "{n} source files", len(e.sources)).format(n=len(e.sources))
    lines = [
        style(e.name, "heading") + "  " + _("({files}; printing {printing})").format(files=files, printing=printing)
    ]

    def visit(c: Clause, depth: int) -> None:
        if c.kind is Kind.FOOTNOTE:
            return
        head = " ".join(x for x in (c.label, c.title) if x) or _snippet(c.text)
        if c.label and not c.title and c.text and c.kind not in (Kind.ARTICLE,):
            head = f"{c.label} {_snippet(c.text)}"
        if not head:
            head = _("({kind}, untitled)").format(kind=terms.clause_kind(c.kind.value))
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
                _("listed in the contents but not in the corpus: {articles}").format(
                    articles=article_ranges([n.address for n in missing])
                )
            )
    return "\n".join(lines) + "\n"


def clause(e: Edition, c: Clause, style: Style = plain) -> str:
    """One clause in full: header, source, then its text and its sub-clauses."""
    source = next((s for s in e.sources if s.file == c.source.file), None)
    about = [x for x in (source.printing if source else ", ".join(e.printings),) if x]
    if source and source.pages:
        about.append(_("printed pages {pages}").format(pages=source.pages))
    lines = [
        style(f"{e.name}:{c.address}", "heading") + f"  {terms.clause_kind(c.kind.value)}",
        _("source: {place}").format(place=where(c.source)) + (f" ({', '.join(about)})" if about else ""),
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
        lines.append(f"{pad}  " + _("note: {note}").format(note=say(n)))
    if c.references:
        refs = ", ".join(f"{r.target} ({r.printed!r})" for r in c.references)
        lines.append(f"{pad}  " + _("references: {references}").format(references=refs))
    for f in c.footnotes:
        # The note as printed: its marker, then its text (the label as read
        # is kept apart when a misprint was read as another: "!)" as "1)").
        shown = f.marker or f.label
        read = _(" (printed {label!r})").format(label=f.label) if f.label and f.marker and f.label != f.marker else ""
        lines.append(f"{pad}  {style(f'[{f.address}]', 'address')} {shown} {f.text}{read}")
        for n in f.notes:
            lines.append(f"{pad}    " + _("note: {note}").format(note=say(n)))
        if f.references:
            refs = ", ".join(f"{r.target} ({r.printed!r})" for r in f.references)
            lines.append(f"{pad}    " + _("references: {references}").format(references=refs))
    for ch in c.children:
        _body(ch, depth + 1, lines, style)


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


def counts_line(comp: Comparison, changes: Sequence[Change] | None = None) -> str:
    listed = comp.changes if changes is None else changes
    c = comp.counts(listed)
    normative = comp.normative_count(listed)
    line = _(
        "{old} -> {new}: {unchanged} unchanged, {modified} modified ({editorial_only} editorial only), {split} split,"
        " {merged} merged, {added} added, {removed} removed; {renumbered} renumbered, {moved} moved,"
        " {title_changed} titles changed; {normative} normative"
    ).format(old=comp.old, new=comp.new, normative=normative, **c)
    if c["outside_corpus"]:
        line += _("; {n} more in articles or sections one corpus lacks (not counted)").format(n=c["outside_corpus"])
    return line


def thresholds_line(t: Thresholds, verbose: bool = False) -> str:
    """The thresholds of the run: only those set away from their defaults, unless ``verbose``."""
    from lawdiff.align import DEFAULT_THRESHOLDS

    defaults = DEFAULT_THRESHOLDS.as_dict()
    shown = {k: v for k, v in t.as_dict().items() if verbose or v != defaults[k]}
    if not shown:
        return ""
    label = _("thresholds") if verbose else _("thresholds set")
    return f"{label}: " + " ".join(f"{k}={v:g}" for k, v in shown.items())


def comparison(
    comp: Comparison,
    changes: Sequence[Change],
    show_all: bool,
    style: Style = plain,
    verbose: bool = False,
    review: ReviewView | None = None,
) -> str:
    """A comparison for the terminal; ``review``: the committee's decisions and comments, shown per change."""
    from lawdiff.diff.comparison import listed
    from lawdiff.report.not_compared import NotCompared, outside_line

    lines = [style(counts_line(comp, changes), "heading")]
    if line := thresholds_line(comp.thresholds, verbose):
        lines.append(line)
    outside = NotCompared.of(comp, changes)
    if outside.changes:
        lines.append(outside_line(comp.old, comp.new, outside))
    for p in comp.patterns_of(changes):
        lines.append(
            _("drafting pattern (counted once): {pattern} in {addresses}").format(
                pattern=_pattern_label(p.label), addresses=", ".join(p.addresses)
            )
        )
    # A stale reference (kept while its target moved) needs the reader's
    # eye even in a clause whose text did not change; so does a decision.
    by_article, hidden = listed(changes, show_all, None if review is None else partial(_decided, review))
    for article, shown in by_article:
        lines.append("")
        lines.append(
            style(_("Article {article}").format(article=article) if article[:1].isdigit() else article, "heading")
        )
        for ch in shown:
            lines.extend(_change_lines(comp, ch, style))
            if review is not None:
                lines.extend(_review_lines(review, ch))
    if hidden:
        lines.append("")
        lines.append(_("{n} unchanged clause(s) not shown (--all shows them)").format(n=hidden))
    # (The last line end joined with the rest: added after, it copied the whole text again, 5 MB for a long
    # clause's difference.)
    return "\n".join([*lines, ""])


def _decided(review: ReviewView | None, ch: Change) -> bool:
    return review is not None and review.entry(ch.id).decision is not None


def _review_lines(review: ReviewView, ch: Change) -> list[str]:
    """A change's decision and comment thread, as the store holds them."""
    entry = review.entry(ch.id)
    d = entry.decision
    if d is None:
        return []
    outdated = entry.state.value == "outdated"
    state = _(" (decided on an earlier text: see lawdiff review list --outdated)") if outdated else ""
    who = _(", assigned to {name}").format(name=d.assignee) if d.assignee else ""
    lines = [
        "    "
        + _("review: {status}{assigned}; by {author}, {when} UTC{state}").format(
            status=terms.status(d.status.value),
            assigned=who,
            author=d.author,
            when=format_stamp(d.updated),
            state=state,
        )
    ]
    for c in entry.comments:
        lines.append(
            "    "
            + _("comment by {author}, {when} UTC: {text}").format(
                author=c.author, when=format_stamp(c.created), text=c.text
            )
        )
    return lines


def _change_lines(comp: Comparison, ch: Change, style: Style) -> list[str]:
    from lawdiff.align import Aspect
    from lawdiff.diff import SHORT_ID, ChangeKind
    from lawdiff.diff.vocabulary import RefStatus

    if ch.old and ch.new:
        where_ = ", ".join(ch.old) if ch.old == ch.new else f"{', '.join(ch.old)} -> {', '.join(ch.new)}"
    else:
        where_ = ", ".join(ch.old or ch.new)
    notes = []
    if ch.aspect is Aspect.TITLE:
        notes.append(terms.note("heading"))
    if ch.renumbered:
        notes.append(terms.note("renumbered"))
    if ch.moved:
        notes.append(terms.note("moved"))
    if ch.editorial_only:
        notes.append(terms.note("editorial only"))
    if ch.kind not in (ChangeKind.ADDED, ChangeKind.REMOVED, ChangeKind.UNCHANGED):
        notes.append(_("words {percent} alike").format(percent=_alike(ch.similarity)))
    if ch.significance:
        notes.append(_("significance {value}").format(value=number(ch.significance)))
    if ch.pinned_by:
        notes.append(_("matched by hand by {name}").format(name=say(ch.pinned_by)))
    elif ch.uncertain:
        notes.append(
            _("uncertain match: certainty {certainty} (evidence {score}), certain from {bar}").format(
                certainty=number(ch.certainty, ".2f"),
                score=number(ch.score, ".2f"),
                bar=number(comp.thresholds.certain),
            )
        )
    flags = f" [{', '.join(terms.flag(s.flag.value) for s in ch.signals)}]" if ch.signals else ""
    kind = f"{terms.kind(ch.kind.value):{_kind_width()}}"
    head = f"  {ch.id[:SHORT_ID]}  {style(kind, ch.kind.value)} {style(where_, 'address')}"
    head += flags
    if notes:
        head += f"  ({'; '.join(notes)})"
    lines = [head]
    if ch.aspect is Aspect.TITLE:
        if ch.kind is not ChangeKind.UNCHANGED:
            lines.append("    " + _("title: {difference}").format(difference=diff_text(ch.diff, style)))
    else:
        if ch.title_changed:
            difference = diff_text(ch.title_diff, style)
            lines.append("    " + _("title: {difference}").format(difference=difference))
        if ch.kind is not ChangeKind.UNCHANGED and (ch.old_texts != ch.new_texts):
            for para in diff_text(ch.diff, style).split("\n"):
                lines.append(f"    {para}")
    if ch.signals and ch.old and ch.new:
        # (An added or removed clause's flags name every word of its kind: the bracket says enough.)
        lines.append("    " + _("flags: {flags}").format(flags="; ".join(_signal_text(s) for s in ch.signals)))
    if ch.uncertain and ch.reasons and not ch.pinned_by:
        lines.append("    " + _("why: {reasons}").format(reasons="; ".join(map(say, ch.reasons))))
    refs = [r for r in ch.references if r.status is not RefStatus.KEPT or r.consistent is False]
    if refs:
        lines.append("    " + _("references: {references}").format(references=", ".join(_ref_text(r) for r in refs)))
    return lines


def _kind_width() -> int:
    """The column of the kinds of change: as wide as the language's longest word for one."""
    from lawdiff.diff import ChangeKind

    return max(len(terms.kind(k.value)) for k in ChangeKind)


def _pattern_label(label: str) -> str:
    """A drafting pattern's label (``modal: moet -> wordt geacht``) with its flag in the language's word."""
    flag, sep, words = label.partition(": ")
    return f"{terms.flag(flag)}{sep}{words}" if sep else label


def _signal_text(s: Signal) -> str:
    """``modal -moet +wordt geacht``: a flag and the words that raised it."""
    flag = terms.flag(s.flag.value)
    if s.removed and s.added and s.flag.value == "reference":
        return f"{flag} {', '.join(s.removed)} -> {', '.join(s.added)}"
    words = [f"-{w}" for w in s.removed] + [f"+{w}" for w in s.added]
    return f"{flag} {' '.join(words)}"


def _alike(value: float) -> str:
    """A similarity as a percentage that never reads 100 % for a text that did change."""
    pct = value * 100
    digits = ".1f" if f"{pct:.0f}" == "100" and value < 1.0 else ".0f"
    return _("{number} %").format(number=number(pct, digits))


def _ref_text(r: RefChange) -> str:
    from lawdiff.diff.vocabulary import RefStatus

    if r.status is RefStatus.KEPT:
        return _("{reference} kept, but its target moved").format(reference=r.old)
    if r.status is RefStatus.ADDED:
        return f"+{r.new}"
    if r.status is RefStatus.REMOVED:
        return f"-{r.old}"
    verdict = {
        True: _("consistent"),
        False: _("NOT the successor of the old target"),
        None: _("not verifiable in this corpus"),
    }
    return f"{r.old} -> {r.new} ({verdict[r.consistent]})"


def introduced(h: History) -> str:
    """When the current wording came: ``introduced in 2017``, or ``introduced in 2017 or earlier: the 1963,
    1997 and 2007 corpora do not hold it`` when the editions just before hold nothing to compare it with."""
    if not h.or_earlier:
        return _("introduced in {edition}").format(edition=h.introduced)
    names = list(h.or_earlier)
    listed = (
        names[0] if len(names) == 1 else _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
    )
    return ngettext(
        "introduced in {edition} or earlier: the {listed} corpus does not hold it",
        "introduced in {edition} or earlier: the {listed} corpora do not hold it",
        len(names),
    ).format(edition=h.introduced, listed=listed)


def history(h: History, style: Style = plain, editions: Iterable[Edition] = ()) -> str:
    """A clause's history for the terminal; ``editions``: the study's, to say of a step its corpus lacks
    whether it lacks the article or holds only other parts of it."""
    from lawdiff.align import Aspect
    from lawdiff.diff import ChangeKind

    lines = [style(_("history of {clause}").format(clause=h.start), "heading")]
    art = article_of(h.start.partition(":")[2])
    holding = {e.name for e in editions if art and e.find(art) is not None}
    for step in h.steps:
        name = step.edition
        if not step.in_corpus:
            if step.edition in holding:
                said = _("(not in the {edition} corpus, which holds other parts of article {article})")
            elif art:
                said = _("(article not in the {edition} corpus)")
            else:
                said = _("(heading not in the {edition} corpus)")
            lines.append(f"{name}  " + said.format(edition=name, article=art))
            continue
        if not step.addresses:
            said = _("(none: removed)") if step.kinds else _("(none: not present)")
            lines.append(f"{name}  {said}")
            continue
        kind = f"  [{'+'.join(terms.kind(k.value) for k in step.kinds)}]" if step.kinds else ""
        lines.append(style(f"{step.edition}  {', '.join(step.addresses)}", "address") + kind)
        for addr, txt in zip(step.addresses, step.texts, strict=True):
            prefix = f"  {addr}: " if len(step.addresses) > 1 else "  "
            lines.append(prefix + txt)
        for ch in step.changes:
            if ch.kind is ChangeKind.MODIFIED and ch.aspect is Aspect.TEXT:
                lines.append(
                    "  "
                    + _("changes ({old} -> {new}): {difference}").format(
                        old=", ".join(ch.old), new=", ".join(ch.new), difference=diff_text(ch.diff, style)
                    )
                )
    if h.introduced:
        lines.append(_("current wording {introduced}").format(introduced=introduced(h)))
    return "\n".join(lines) + "\n"
