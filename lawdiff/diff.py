"""Changes between editions: the records every report is built from.

:func:`compare` turns an :class:`~lawdiff.align.Alignment` into
:class:`Change` records: the kind of each change, its word-level difference
(diff-match-patch on words, semantic cleanup, ``Diff_Timeout = 0`` so that
the result never depends on the machine's speed), whether it is only
editorial, and what became of its references.  :func:`history` chains the
alignments of consecutive editions into a clause's history.

This is the only module that imports diff_match_patch; its tuples become our
own :class:`Piece` records here.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from diff_match_patch import diff_match_patch
from rapidfuzz import fuzz

from lawdiff.align import DEFAULT_THRESHOLDS, Alignment, Link, Thresholds, align
from lawdiff.errors import UsageError
from lawdiff.model import Clause, Edition, article_of, chronological

# ---------------------------------------------------------------------------
# Records


class ChangeKind(enum.Enum):
    UNCHANGED = "unchanged"
    MODIFIED = "modified"
    SPLIT = "split"
    MERGED = "merged"
    ADDED = "added"
    REMOVED = "removed"


class Op(enum.Enum):
    EQUAL = "equal"
    INSERT = "insert"
    DELETE = "delete"


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of the word-level difference: kept, inserted or deleted text."""

    op: Op
    text: str


@dataclass(frozen=True, slots=True)
class RefChange:
    """What became of one cross-reference.

    status: "kept" (same target), "retargeted" (points elsewhere now),
        "added" or "removed".
    old, new: the target address on each side ("" where there is none).
    consistent: for kept and retargeted references, whether the new target is
        the successor of the old one (as 16D1 -> 16C1 would be if 16D1 became
        16C1); None when the corpus cannot tell (the target is not in it).
    """

    status: str
    old: str
    new: str
    consistent: bool | None


@dataclass(frozen=True, slots=True)
class Change:
    """One change between two editions.

    kind: unchanged, modified, split, merged, added or removed.
    aspect: "text" (the clauses' own text) or "title" (a heading whose clause
        has no own text, or whose text went elsewhere).
    old, new: addresses on each side, in document order.
    article: the article the change is listed under (the new one if any).
    renumbered: the address changed.
    moved: the clause went to another article.
    title_changed: the heading changed (old_title -> new_title).
    similarity: text similarity of old and new (0..1, 1 = identical).
    editorial_only: the difference is only white space, punctuation, case or
        terminology from :data:`TERMINOLOGY`.
    diff: the word-level difference; its equal+delete pieces rebuild the old
        text and its equal+insert pieces the new text, where the texts of
        several clauses are joined by a line break.
    references: what became of the references.
    score, uncertain, method, reasons: the alignment's evidence.
    old_texts, new_texts: the texts of the clauses, one per address.
    counterpart_in_corpus: False when the other edition's corpus does not hold
        the article at all, so an addition or removal may only mean that the
        corpus is partial.
    """

    kind: ChangeKind
    aspect: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    article: str
    renumbered: bool
    moved: bool
    title_changed: bool
    old_title: str
    new_title: str
    similarity: float
    editorial_only: bool
    diff: tuple[Piece, ...]
    references: tuple[RefChange, ...]
    score: float
    uncertain: bool
    method: str
    reasons: tuple[str, ...]
    old_texts: tuple[str, ...]
    new_texts: tuple[str, ...]
    counterpart_in_corpus: bool

    @property
    def is_difference(self) -> bool:
        return self.kind is not ChangeKind.UNCHANGED or self.renumbered or self.moved


@dataclass(frozen=True, slots=True)
class Comparison:
    """All changes from one edition to another, in document order."""

    old: str
    new: str
    thresholds: Thresholds
    changes: tuple[Change, ...]
    alignment: Alignment

    def counts(self, changes: list[Change] | tuple[Change, ...] | None = None) -> dict[str, int]:
        """Counts by kind and flag, of all changes or of a selection of them.

        Changes in articles that the other edition's corpus does not hold at
        all are counted apart (``outside_corpus``): their addition or removal
        may only mean that the corpus is partial.
        """
        listed = self.changes if changes is None else changes
        chosen = [ch for ch in listed if ch.counterpart_in_corpus]
        c: Counter[str] = Counter(ch.kind.value for ch in chosen)
        out = {k.value: c.get(k.value, 0) for k in ChangeKind}
        out["editorial_only"] = sum(1 for ch in chosen if ch.editorial_only)
        out["renumbered"] = sum(1 for ch in chosen if ch.renumbered)
        out["moved"] = sum(1 for ch in chosen if ch.moved)
        out["title_changed"] = sum(1 for ch in chosen if ch.title_changed)
        out["outside_corpus"] = len(listed) - len(chosen)
        return out

    @property
    def has_differences(self) -> bool:
        return any(ch.is_difference for ch in self.changes)


# ---------------------------------------------------------------------------
# Word-level difference

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def word_diff(old: str, new: str) -> tuple[Piece, ...]:
    """Difference of two texts on whole words, with semantic cleanup."""
    if old == new:
        return (Piece(Op.EQUAL, old),) if old else ()
    vocab: dict[str, str] = {}
    tokens: list[str] = []

    def encode(text: str) -> str:
        out = []
        for tok in _TOKEN.findall(text):
            ch = vocab.get(tok)
            if ch is None:
                # Each distinct word becomes one character, so that
                # diff-match-patch works on words (its linesToChars trick).
                ch = chr(0xE000 + len(tokens)) if len(tokens) < 6400 else chr(0xF0000 + len(tokens) - 6400)
                vocab[tok] = ch
                tokens.append(tok)
            out.append(ch)
        return "".join(out)

    a, b = encode(old), encode(new)
    dmp = diff_match_patch()
    dmp.Diff_Timeout = 0
    diffs = dmp.diff_main(a, b, False)
    dmp.diff_cleanupSemantic(diffs)
    decode = {ch: tok for tok, ch in vocab.items()}
    ops = {0: Op.EQUAL, 1: Op.INSERT, -1: Op.DELETE}
    pieces: list[Piece] = []
    for op, chars in diffs:
        text = "".join(decode[c] for c in chars)
        if not text:
            continue
        if pieces and pieces[-1].op is ops[op]:
            pieces[-1] = Piece(ops[op], pieces[-1].text + text)
        else:
            pieces.append(Piece(ops[op], text))
    return tuple(pieces)


def rebuild(pieces: tuple[Piece, ...]) -> tuple[str, str]:
    """The old and the new text of a difference."""
    old = "".join(p.text for p in pieces if p.op is not Op.INSERT)
    new = "".join(p.text for p in pieces if p.op is not Op.DELETE)
    return old, new


# ---------------------------------------------------------------------------
# Editorial differences

# Terminology that changed between printings without changing the rule: each
# pair is read as one word for the "editorial only" test (never in output).
TERMINOLOGY: tuple[tuple[str, str], ...] = (
    ("maat", "partner"),
    ("maten", "partners"),
    ("mapje", "bord"),
    ("mapjes", "borden"),
    ("der", "van de"),
    ("den", "de"),
    ("wedstrijdleider", "arbiter"),
)

_CANON_WORD = re.compile(r"\w+")


def canonical(text: str) -> str:
    """Text reduced to what an editorial change cannot touch."""
    words = _CANON_WORD.findall(text.lower())
    joined = " " + " ".join(words) + " "
    for a, b in TERMINOLOGY:
        joined = joined.replace(f" {b} ", f" {a} ")
    return joined.strip()


def editorial_only(old: str, new: str) -> bool:
    """Whether two different texts differ only in editorial ways."""
    return old != new and canonical(old) == canonical(new)


# ---------------------------------------------------------------------------
# Comparing editions


def compare(old: Edition, new: Edition, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> Comparison:
    """Every change from ``old`` to ``new``."""
    alignment = align(old, new, thresholds)
    return describe(old, new, alignment)


def describe(old: Edition, new: Edition, alignment: Alignment) -> Comparison:
    """Turn an alignment into change records."""
    old_articles = {a.address for a in old.articles()} | set(alignment.old_articles)
    new_articles = {a.address for a in new.articles()} | set(alignment.new_articles)
    text_links = [link for link in alignment.links if link.aspect == "text"]
    title_links = [link for link in alignment.links if link.aspect == "title"]
    folded: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    pair_titles = {(link.old, link.new) for link in title_links if link.old and link.new}
    changes: list[Change] = []
    for link in text_links:
        fold = len(link.old) == 1 and len(link.new) == 1 and (link.old, link.new) in pair_titles
        if fold:
            folded.add((link.old, link.new))
        changes.append(_change(link, old, new, alignment, old_articles, new_articles, with_title=fold))
    unmatched_text = {a for link in text_links if not (link.old and link.new) for a in link.old + link.new}
    for link in title_links:
        if (link.old, link.new) in folded:
            continue
        # A titled clause added or removed together with its own text is
        # already told by its text change.
        if not (link.old and link.new) and (link.old or link.new)[0] in unmatched_text:
            continue
        changes.append(_change(link, old, new, alignment, old_articles, new_articles, with_title=True))
    order_old = {c.address: i for i, c in enumerate(old.walk())}
    order_new = {c.address: i for i, c in enumerate(new.walk())}
    changes.sort(key=lambda ch: _order_key(ch, order_old, order_new))
    return Comparison(old.name, new.name, alignment.thresholds, tuple(changes), alignment)


def _order_key(ch: Change, order_old: dict[str, int], order_new: dict[str, int]) -> tuple[int, int, int]:
    # Document order of the new edition; removals sit where their old
    # neighbours went (approximated by their old position).
    if ch.new:
        return (0, order_new.get(ch.new[0], 0), order_old.get(ch.old[0], -1) if ch.old else -1)
    return (1, order_old.get(ch.old[0], 0), 0)


def _change(
    link: Link,
    old: Edition,
    new: Edition,
    alignment: Alignment,
    old_articles: set[str],
    new_articles: set[str],
    with_title: bool,
) -> Change:
    olds = [c for c in (old.find(a) for a in link.old) if c is not None]
    news = [c for c in (new.find(a) for a in link.new) if c is not None]
    title_aspect = link.aspect == "title"
    if title_aspect:
        old_texts = tuple(c.title for c in olds)
        new_texts = tuple(c.title for c in news)
    else:
        old_texts = tuple(c.text for c in olds)
        new_texts = tuple(c.text for c in news)
    old_text, new_text = "\n".join(old_texts), "\n".join(new_texts)
    old_title = olds[0].title if with_title and len(olds) == 1 else ""
    new_title = news[0].title if with_title and len(news) == 1 else ""
    title_changed = with_title and bool(olds) and bool(news) and old_title != new_title
    if not link.old:
        kind = ChangeKind.ADDED
    elif not link.new:
        kind = ChangeKind.REMOVED
    elif len(link.old) == 1 and len(link.new) > 1:
        kind = ChangeKind.SPLIT
    elif len(link.old) > 1 and len(link.new) == 1:
        kind = ChangeKind.MERGED
    elif len(link.old) > 1:
        kind = ChangeKind.SPLIT if len(link.new) >= len(link.old) else ChangeKind.MERGED
    elif old_text == new_text and not title_changed:
        kind = ChangeKind.UNCHANGED
    else:
        kind = ChangeKind.MODIFIED
    both = bool(link.old) and bool(link.new)
    renumbered = both and set(link.old) != set(link.new)
    old_arts = {article_of(a) for a in link.old}
    new_arts = {article_of(a) for a in link.new}
    moved = both and old_arts != new_arts
    similarity = 1.0 if old_text == new_text else round(fuzz.ratio(old_text, new_text) / 100, 4)
    editorial = both and (
        (
            old_text != new_text
            and editorial_only(old_text, new_text)
            and (not title_changed or canonical(old_title) == canonical(new_title))
        )
        or (old_text == new_text and title_changed and editorial_only(old_title, new_title))
    )
    addresses = link.new or link.old
    article = article_of(addresses[0]) or addresses[0]
    if link.old and not link.new:
        counterpart = not old_arts - {""} or bool((old_arts - {""}) & new_articles)
    elif link.new and not link.old:
        counterpart = not new_arts - {""} or bool((new_arts - {""}) & old_articles)
    else:
        counterpart = True
    return Change(
        kind=kind,
        aspect=link.aspect,
        old=link.old,
        new=link.new,
        article=article,
        renumbered=renumbered,
        moved=moved,
        title_changed=title_changed,
        old_title=old_title,
        new_title=new_title,
        similarity=similarity,
        editorial_only=editorial,
        diff=word_diff(old_text, new_text),
        references=() if title_aspect else _references(olds, news, old, new, alignment),
        score=link.score,
        uncertain=both and link.score < alignment.thresholds.certain,
        method=link.method,
        reasons=link.reasons,
        old_texts=old_texts,
        new_texts=new_texts,
        counterpart_in_corpus=counterpart,
    )


def _references(
    olds: list[Clause], news: list[Clause], old: Edition, new: Edition, alignment: Alignment
) -> tuple[RefChange, ...]:
    old_refs = [r.target for c in olds for r in c.references]
    new_refs = [r.target for c in news for r in c.references]
    out: list[RefChange] = []

    def successors(target: str) -> tuple[str, ...] | None:
        """Where the target went, or None when the old edition does not hold it."""
        clause = old.find(target)
        if clause is None:
            return None
        succ = alignment.successors(target)
        if not succ and not clause.text and not clause.title and new.find(target) is not None:
            # An untitled clause without own text (45C4) is not aligned
            # itself; its address surviving is what a reference needs.
            return (target,)
        return succ

    remaining_new = list(new_refs)
    pending_old: list[str] = []
    for t in old_refs:
        if t in remaining_new:
            remaining_new.remove(t)
            succ = successors(t)
            out.append(RefChange("kept", t, t, None if succ is None else t in succ))
        else:
            pending_old.append(t)
    still_old: list[str] = []
    for t in pending_old:
        succ = successors(t)
        hit = next((n for n in remaining_new if succ and n in succ), None)
        if hit is not None:
            remaining_new.remove(hit)
            out.append(RefChange("retargeted", t, hit, True))
        else:
            still_old.append(t)
    for t in still_old:
        # Same article, other clause: a renumbered target (16D1 -> 16C1).
        hit = next((n for n in remaining_new if article_of(n) == article_of(t)), None)
        if hit is not None:
            remaining_new.remove(hit)
            succ = successors(t)
            out.append(RefChange("retargeted", t, hit, None if succ is None else hit in succ))
        else:
            out.append(RefChange("removed", t, "", None))
    for n in remaining_new:
        out.append(RefChange("added", "", n, None))
    # A target cited twice ("de artikelen 64A, 64B7 en 64C ... artikel 64B3 en
    # 64C") is one change of the references, told once.
    return tuple(dict.fromkeys(out))


# ---------------------------------------------------------------------------
# History across editions


@dataclass(frozen=True, slots=True)
class Step:
    """A clause in one edition of its history.

    edition: the edition.
    addresses: where the clause's text is in that edition (several after a
        split, none when it is absent).
    texts: those clauses' texts.
    change: the kind of change from the previous step ("" for the first).
    changes: the change records of that step.
    in_corpus: False when the corpus does not hold the article in this
        edition (the step is skipped in the chain).
    """

    edition: str
    addresses: tuple[str, ...]
    texts: tuple[str, ...]
    change: str
    changes: tuple[Change, ...]
    in_corpus: bool


@dataclass(frozen=True, slots=True)
class History:
    """A clause's history: every edition of the corpus, oldest first."""

    start: str
    steps: tuple[Step, ...]
    introduced: str  # the edition that introduced the current wording


class Comparer:
    """Caches comparisons of edition pairs within one run."""

    def __init__(self, editions: tuple[Edition, ...], thresholds: Thresholds = DEFAULT_THRESHOLDS) -> None:
        self.editions = editions
        self.thresholds = thresholds
        self._cache: dict[tuple[str, str], Comparison] = {}

    def compare(self, old: Edition, new: Edition) -> Comparison:
        key = (old.name, new.name)
        if key not in self._cache:
            self._cache[key] = compare(old, new, self.thresholds)
        return self._cache[key]


def history(comparer: Comparer, edition: Edition, address: str) -> History:
    """The history of ``edition:address`` across all editions, oldest first."""
    clause = edition.find(address)
    if clause is None:
        raise UsageError(
            f"{edition.name} has no clause {address!r}", fix="see `lawdiff show EDITION` for its addresses"
        )
    eds = _timeline_with(comparer.editions, edition)
    idx = next(i for i, e in enumerate(eds) if e.name == edition.name)
    start: tuple[str, ...] = (clause.address,)
    steps: dict[str, Step] = {edition.name: Step(edition.name, start, _texts(edition, start), "", (), True)}

    def covers(e: Edition, addrs: tuple[str, ...]) -> bool:
        arts = {article_of(a) for a in addrs} - {""}
        return not arts or any(e.find(a) is not None for a in arts)

    def walk(editions: list[Edition], older: bool) -> None:
        """Follow the clause edition by edition, away from where it started."""
        cur, cur_ed = start, edition
        for e in editions:
            if not cur or not covers(e, cur):
                # Gone (in_corpus) or in an article this edition's corpus lacks.
                steps[e.name] = Step(e.name, (), (), "", (), not cur)
                continue
            comp = comparer.compare(e, cur_ed) if older else comparer.compare(cur_ed, e)
            involved = _involved(comp, new_side=cur) if older else _involved(comp, old_side=cur)
            there = tuple(dict.fromkeys(a for ch in involved for a in (ch.old if older else ch.new)))
            if older:
                # The change belongs to the later edition's step.
                steps[cur_ed.name] = replace(steps[cur_ed.name], change=_step_kind(involved), changes=involved)
                steps[e.name] = Step(e.name, there, _texts(e, there), "", (), True)
            else:
                steps[e.name] = Step(e.name, there, _texts(e, there), _step_kind(involved), involved, True)
            cur, cur_ed = there, e

    walk(list(reversed(eds[:idx])), older=True)
    walk(eds[idx + 1 :], older=False)
    ordered = tuple(steps[e.name] for e in eds if e.name in steps)
    return History(f"{edition.name}:{clause.address}", ordered, _introduced(ordered))


def _timeline_with(editions: tuple[Edition, ...], edition: Edition) -> list[Edition]:
    """The editions in order, with ``edition`` standing in for its year's edition
    when it is one of two sources of that year (``2017@wiki``)."""
    eds = list(editions)
    if all(e.name != edition.name for e in eds):
        same = [k for k, e in enumerate(eds) if e.year == edition.year and e.effective == edition.effective]
        if same:
            eds[same[0]] = edition
        else:
            eds.append(edition)
    return sorted(eds, key=chronological)


def _involved(comp: Comparison, old_side: tuple[str, ...] = (), new_side: tuple[str, ...] = ()) -> tuple[Change, ...]:
    out: list[Change] = []
    for ch in comp.changes:
        if ch.aspect != "text" and any(c.aspect == "text" for c in out):
            continue
        if (old_side and set(ch.old) & set(old_side)) or (new_side and set(ch.new) & set(new_side)):
            out.append(ch)
    text_first = [c for c in out if c.aspect == "text"] or out
    return tuple(text_first)


def _step_kind(changes: tuple[Change, ...]) -> str:
    kinds = list(dict.fromkeys(ch.kind.value for ch in changes))
    return "+".join(kinds) if kinds else "removed"


def _texts(e: Edition, addrs: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for a in addrs:
        c = e.find(a)
        out.append(c.text or c.title if c else "")
    return tuple(out)


def _introduced(steps: tuple[Step, ...]) -> str:
    present = [s for s in steps if s.addresses]
    if not present:
        return ""
    introduced = present[-1].edition
    for s in reversed(present):
        introduced = s.edition
        if s.change and s.change != "unchanged" and not all(ch.editorial_only for ch in s.changes):
            return s.edition
        if not s.change:
            return s.edition
    return introduced


def as_dict(ch: Change) -> dict[str, Any]:
    """A change as the JSON schema (schemas/compare.schema.json) describes it."""
    return {
        "kind": ch.kind.value,
        "aspect": ch.aspect,
        "old": list(ch.old),
        "new": list(ch.new),
        "article": ch.article,
        "renumbered": ch.renumbered,
        "moved": ch.moved,
        "title_changed": ch.title_changed,
        "old_title": ch.old_title,
        "new_title": ch.new_title,
        "similarity": ch.similarity,
        "editorial_only": ch.editorial_only,
        "diff": [[p.op.value, p.text] for p in ch.diff],
        "references": [
            {"status": r.status, "old": r.old, "new": r.new, "consistent": r.consistent} for r in ch.references
        ],
        "score": ch.score,
        "uncertain": ch.uncertain,
        "method": ch.method,
        "reasons": list(ch.reasons),
        "old_texts": list(ch.old_texts),
        "new_texts": list(ch.new_texts),
        "counterpart_in_corpus": ch.counterpart_in_corpus,
    }
