"""The change records every report is built from: one screen of small values."""

from __future__ import annotations

import enum
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from lawdiff import jsontext
from lawdiff.align import Alignment, Aspect, Link, Method, Thresholds
from lawdiff.frozen import slot_init
from lawdiff.pickling import by_fields

# ---------------------------------------------------------------------------
# Records


class ChangeKind(enum.Enum):
    """The kind of a change: every change is of exactly one kind."""

    UNCHANGED = "unchanged"
    MODIFIED = "modified"
    SPLIT = "split"
    MERGED = "merged"
    ADDED = "added"
    REMOVED = "removed"


class Op(enum.Enum):
    """What a run of a word difference does."""

    EQUAL = "equal"
    INSERT = "insert"
    DELETE = "delete"


@by_fields
@slot_init
@dataclass(frozen=True, slots=True)
class Piece:
    """A run of the word-level difference: kept, inserted or deleted text."""

    op: Op
    text: str


class RefStatus(enum.Enum):
    """What became of a cross-reference."""

    KEPT = "kept"  # the same target
    RETARGETED = "retargeted"  # points elsewhere now
    ADDED = "added"
    REMOVED = "removed"


@by_fields
@slot_init
@dataclass(frozen=True, slots=True)
class RefChange:
    """What became of one cross-reference.

    status: see :class:`RefStatus`.
    old, new: the target address on each side ("" where there is none).
    consistent: for kept and retargeted references, whether the new target is
        the successor of the old one (as 16D1 -> 16C1 would be if 16D1 became
        16C1); None when the corpus cannot tell (the target is not in it).
    """

    status: RefStatus
    old: str
    new: str
    consistent: bool | None

    @property
    def stale(self) -> bool:
        """Kept as written although its target moved: ``zie 16D`` now leads to another rule."""
        return self.status is RefStatus.KEPT and self.consistent is False


class Flag(enum.Enum):
    """What kind of words a change touched."""

    MODAL = "modal"
    NEGATION = "negation"
    ACTOR = "actor"
    NUMBER = "number"
    REFERENCE = "reference"
    CONDITION = "condition"


@by_fields
@slot_init
@dataclass(frozen=True, slots=True)
class Signal:
    """One flag of a change and the words that raised it.

    flag: what kind of words changed.
    removed: those words of the old text that the new one lost, as printed
        (for ``reference``: the old targets, ``16D1``).
    added: those words of the new text that the old one lacked, as printed
        (for ``reference``: the new targets, ``16C1``).
    """

    flag: Flag
    removed: tuple[str, ...]
    added: tuple[str, ...]

    @property
    def words(self) -> tuple[str, ...]:
        """Every word that raised the flag, removed ones first."""
        return self.removed + self.added


# The flags that make a change normative: all but a retargeted reference,
# which a renumbering elsewhere causes without changing the rule.
NORMATIVE = frozenset(Flag) - {Flag.REFERENCE}


def normative(signals: Iterable[Signal]) -> bool:
    """Whether a change is normative: it has any flag but ``reference``."""
    return any(s.flag in NORMATIVE for s in signals)


# Bumped when what the id is made of changes: ids of one version never
# collide with another's.
CHANGE_ID_VERSION = "lawdiff-change-1"
# How many hex digits of an id the text output shows: fixed, so that a
# printed prefix stays the same whatever else the store holds (git's
# adaptive abbreviation does not).
SHORT_ID = 10


def change_id(
    old_edition: str,
    new_edition: str,
    aspect: Aspect,
    old: tuple[str, ...],
    new: tuple[str, ...],
    old_texts: tuple[str, ...],
    new_texts: tuple[str, ...],
) -> str:
    """The durable identity of a change: 40 hex digits of SHA-256.

    Made of the edition pair as the comparison names it (``2007``,
    ``2017@wiki``), the aspect, the old and new addresses and the old and new
    texts, and of nothing else: the same inputs give the same id on every
    run and machine, whatever else changed in the corpus or the thresholds.
    """
    head = _HEADS.get((old_edition, new_edition, aspect))
    if head is None:
        head = _HEADS[(old_edition, new_edition, aspect)] = ",".join(
            map(_string, (CHANGE_ID_VERSION, old_edition, new_edition, aspect.value))
        )
    # A clause kept as it was has the same addresses and texts on both sides: each written once.
    old_list = _strings(old)
    new_list = old_list if new == old else _strings(new)
    if any(len(t) >= jsontext.LONG_STRING for t in (*old_texts, *new_texts)):
        return _long_id(f"[{head},[{old_list}],[{new_list}],[", old_texts, new_texts)
    old_text = _strings(old_texts)
    new_text = old_text if new_texts == old_texts else _strings(new_texts)
    payload = f"[{head},[{old_list}],[{new_list}],[{old_text}],[{new_text}]]"
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:40]


def _long_id(head: str, old_texts: tuple[str, ...], new_texts: tuple[str, ...]) -> str:
    """The id of a change with a long text (a paragraph of megabytes), hashed part by part: the payload
    made whole was the texts copied three times over (quoted, joined, encoded), each copy in memory just
    taken from the system; here each text is encoded once (:func:`lawdiff.jsontext.string_utf8`).  The same
    bytes hashed (``head``: the payload up to the old texts)."""
    digest = hashlib.sha256(head.encode("utf-8"))
    for n, texts in enumerate((old_texts, new_texts)):
        if n:
            digest.update(b"],[")
        for k, text in enumerate(texts):
            if k:
                digest.update(b",")
            for piece in jsontext.string_utf8(text):
                digest.update(piece)
    digest.update(b"]]")
    return digest.hexdigest()[:40]


def _strings(strings: tuple[str, ...]) -> str:
    """The items of a JSON list of strings (most lists of an id hold one; a long text is quoted as it stands
    where it holds nothing to escape, :func:`lawdiff.jsontext.string`)."""
    if len(strings) == 1:
        one = strings[0]
        return _string(one) if len(one) < jsontext.LONG_STRING else jsontext.string(one)
    return ",".join(map(jsontext.string, strings))


# The id's payload is the JSON of [version, old edition, new edition, aspect, [old addresses], [new addresses],
# [old texts], [new texts]] as ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))`` writes it:
# made here from each string's JSON (the function the encoder itself calls for each string, in C), not by
# the encoder, which sets itself up again for every call (an id is made for every clause of every pair).
_string = json.encoder.encode_basestring
# The leading strings of a pair's ids, made once per pair and aspect.
_HEADS: dict[tuple[str, str, Aspect], str] = {}


class Scope(enum.Enum):
    """Whether a change is compared, and why not where it is not (:mod:`lawdiff.diff.scope`)."""

    COMPARED = "compared"
    NOT_HELD = "not held"  # the other corpus lacks the article (or the heading outside articles)
    HELD_IN_PART = "held in part"  # the other corpus holds the article by other sections' pages only

    @property
    def compared(self) -> bool:
        return self is Scope.COMPARED


@by_fields
@slot_init
@dataclass(frozen=True, slots=True)
class Change:
    """One change between two editions.

    kind: unchanged, modified, split, merged, added or removed.
    aspect: the clauses' own text, or a heading (whose clause has no own
        text, or whose text went elsewhere).
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
    score, uncertain, methods, reasons, pinned_by: the alignment's evidence
        (``pinned_by``: who set the link by hand, "" when the aligner made it;
        ``uncertain``: the link's certainty is below ``Thresholds.certain``).
    old_texts, new_texts: the texts of the clauses, one per address.
    counterpart_in_corpus: False when the other edition's corpus does not hold
        the article at all, or holds it by some of its sections' pages and not
        the part (or the heading) where the clause lies
        (:meth:`Edition.holds`), so an addition or removal may only mean that
        the corpus is partial.
    scope: the same, with why: compared, or not because the other corpus lacks
        the article (``NOT_HELD``) or holds it by other sections' pages only
        (``HELD_IN_PART``); decided once here, drawn by every output.
    id: the change's durable identity (:func:`change_id`).
    signals: what kinds of words the change touched, each with its words
        (:mod:`lawdiff.diff.significance`), for a change that is a difference.
    significance: how much the change may change the rules, 0 for none (an
        unchanged clause, an editorial change, one not compared): its flags'
        weights (a flag shared with a drafting pattern weighs its share of
        the pattern), plus the share of its words that changed; a heading's
        change weighs half (:func:`lawdiff.diff.significance.rank`).
    certainty: the probability that the link is right (:attr:`Link.certainty`).
    """

    kind: ChangeKind
    aspect: Aspect
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
    methods: tuple[Method, ...]
    reasons: tuple[str, ...]
    old_texts: tuple[str, ...]
    new_texts: tuple[str, ...]
    counterpart_in_corpus: bool
    id: str = ""
    pinned_by: str = ""
    signals: tuple[Signal, ...] = ()
    significance: float = 0.0
    certainty: float = 1.0
    scope: Scope = Scope.COMPARED

    @property
    def normative(self) -> bool:
        """Whether the change may change the rule: any flag but ``reference``."""
        return normative(self.signals)

    @property
    def method(self) -> str:
        """The alignment's methods as one word (``pair+piece``), "" for an addition or removal."""
        return "+".join(m.value for m in self.methods)

    @property
    def is_difference(self) -> bool:
        """Anything but a clause unchanged in place."""
        return self.kind is not ChangeKind.UNCHANGED or self.renumbered or self.moved

    @property
    def stale_references(self) -> tuple[RefChange, ...]:
        """References kept as written although their target moved: a finding even in an unchanged clause."""
        return tuple(r for r in self.references if r.stale)

    @property
    def noteworthy(self) -> bool:
        """What a reader must see even without ``--all``: a difference, or a stale reference."""
        return self.is_difference or bool(self.stale_references)

    @property
    def editorial(self) -> bool:
        """A difference that leaves the rule as it was: editorial wording, or a new number only."""
        return self.editorial_only or (self.kind is ChangeKind.UNCHANGED and not self.moved)


@by_fields
@slot_init
@dataclass(frozen=True, slots=True)
class Pattern:
    """A drafting pattern: the same substitution made in several changes of one pair of editions.

    Listed once with its clauses and counted once (2007 -> 2017: "moet ... worden" became "wordt
    geacht" or "is" in 45C1, 45C2, 45C3 and 45C4(a)).

    flag: the kind of words substituted.
    removed: the words the changes lost, case folded (``moet``).
    added: what took their place, as printed, each once, in document order (``wordt geacht``, ``is``).
    changes: the ids of the changes, in document order.
    addresses: the clause of each change (its new address; the old one of a removal), in that order.
    """

    flag: Flag
    removed: tuple[str, ...]
    added: tuple[str, ...]
    changes: tuple[str, ...]
    addresses: tuple[str, ...]

    @property
    def label(self) -> str:
        """``modal: moet -> wordt geacht / is``."""
        return f"{self.flag.value}: {' '.join(self.removed)} -> {' / '.join(self.added) or '(none)'}"


# A clause linked to one clause whose text it kept (or a heading to one whose title it kept), as a comparison
# holds it until its record is asked for (:class:`Changes`): its link; its text (a heading's: its title); its
# title where the link folds the title in or is a heading's (the same on both sides), else ""; the article its
# change is listed under; whether it moved to another article; what became of its references (a heading's:
# none); whether its link is uncertain.  A tuple: most clauses of two editions are such, and the identical
# pair's 3,069 kept clauses cost 0.2 ms as tuples against 16 ms as records with their ids (timeit, best of 7).
Kept = tuple[Link, str, str, str, bool, tuple[RefChange, ...], bool]


def kept_change(old: str, new: str, kept: Kept) -> Change:
    """The record of a clause that kept its text, or of a heading that kept its title (``old``, ``new``: the
    editions' names, of its id): what describing its link gives (:mod:`lawdiff.diff.changes`)."""
    link, text, title, article, moved, references, uncertain = kept
    texts = (text,)
    return Change(
        ChangeKind.UNCHANGED,
        link.aspect,
        link.old,
        link.new,
        article,
        link.old != link.new,
        moved,
        False,
        title,
        title,
        1.0,
        False,
        (Piece(Op.EQUAL, text),) if text else (),
        references,
        link.score,
        uncertain,
        link.methods,
        link.reasons,
        texts,
        texts,
        True,
        change_id(old, new, link.aspect, link.old, link.new, texts, texts),
        link.pinned_by,
        (),
        0.0,
        link.certainty,
        Scope.COMPARED,
    )


def _kept_difference(kept: Kept) -> bool:
    """:attr:`Change.is_difference` of a kept clause: renumbered or moved."""
    return kept[4] or kept[0].old != kept[0].new


def _kept_noteworthy(kept: Kept) -> bool:
    """:attr:`Change.noteworthy` of a kept clause: renumbered, moved, or citing a target that moved."""
    return _kept_difference(kept) or any(r.stale for r in kept[5])


class Changes(Sequence[Change]):
    """A comparison's changes, in document order: a sequence of :class:`Change` records, equal to the tuple
    of them (and pickled, compared and printed as it).

    Most changes of two editions are clauses that kept their text.  Such a change is held as its
    :data:`Kept` entry, and its record (its id a SHA-256 of its texts) made when it is first read, then
    the same record at every read: an unchanged clause costs a comparison its link and a tuple.  What
    the text output asks of every change, its counts and the changes it lists (:func:`counts`,
    :func:`listed`, :func:`differs`, :meth:`Comparison.normative_count`), is read off the entries without
    making the records of the clauses it does not list.
    """

    __slots__ = ("_entries", "_made", "new", "old")

    def __init__(self, old: str, new: str, entries: Iterable[Change | Kept]) -> None:
        self.old = old
        self.new = new
        self._entries: tuple[Change | Kept, ...] = tuple(entries)
        # The records made of kept entries, by position (made once: a record read twice is the same object).
        self._made: dict[int, Change] = {}

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, at: int) -> Change: ...

    @overload
    def __getitem__(self, at: slice) -> tuple[Change, ...]: ...

    def __getitem__(self, at: int | slice) -> Change | tuple[Change, ...]:
        if isinstance(at, slice):
            return tuple([self[i] for i in range(*at.indices(len(self._entries)))])
        entry = self._entries[at]
        if isinstance(entry, tuple):
            return self._record(at % len(self._entries), entry)
        return entry

    def __iter__(self) -> Iterator[Change]:
        made = self._made
        for i, entry in enumerate(self._entries):
            if isinstance(entry, tuple):
                yield made.get(i) or self._record(i, entry)
            else:
                yield entry

    def _record(self, i: int, entry: Kept) -> Change:
        found = self._made.get(i)
        if found is None:
            # (setdefault: two threads reading the same entry at once keep the first record made.)
            found = self._made.setdefault(i, kept_change(self.old, self.new, entry))
        return found

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Changes | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        # The kept entries as they are: the cache and a forked describer's pipe carry no record of them.
        return (Changes, (self.old, self.new, self._entries))

    def described(self) -> list[Change]:
        """The changes whose records were made with the comparison: all but the clauses that kept their text."""
        return [e for e in self._entries if not isinstance(e, tuple)]

    def kept(self) -> list[Kept]:
        """The entries of the clauses that kept their text (:data:`Kept`), their records made or not."""
        return [e for e in self._entries if isinstance(e, tuple)]

    def listed(self, every: bool, also: Callable[[Change], bool] | None) -> Iterator[tuple[str, Change | None]]:
        """Each change compared, in order, with its article: its record where :attr:`Change.noteworthy`
        (``every``: all; ``also``: or where it says so, asked of every record), else None."""
        made = self._made
        for i, entry in enumerate(self._entries):
            if isinstance(entry, tuple):
                if every or also is not None or _kept_noteworthy(entry):
                    ch = made.get(i) or self._record(i, entry)
                    yield entry[3], (ch if every or ch.noteworthy or (also is not None and also(ch)) else None)
                else:
                    yield entry[3], None
            elif entry.counterpart_in_corpus:
                shown = every or entry.noteworthy or (also is not None and also(entry))
                yield entry.article, (entry if shown else None)


@dataclass(frozen=True, slots=True)
class Comparison:
    """All changes from one edition to another, in document order (:class:`Changes`, or any sequence of
    records).

    patterns: the drafting patterns among the changes (:class:`Pattern`), in document order.
    """

    old: str
    new: str
    thresholds: Thresholds
    changes: Sequence[Change]
    alignment: Alignment
    patterns: tuple[Pattern, ...] = ()

    def counts(self, changes: Sequence[Change] | None = None) -> dict[str, int]:
        """Counts by kind and flag, of all changes or of a selection of them (see :func:`counts`)."""
        return counts(self.changes if changes is None else changes)

    @property
    def has_differences(self) -> bool:
        changes = self.changes
        if isinstance(changes, Changes):
            return any(ch.is_difference for ch in changes.described()) or any(map(_kept_difference, changes.kept()))
        return any(ch.is_difference for ch in changes)

    def patterns_of(self, changes: Iterable[Change]) -> tuple[Pattern, ...]:
        """The patterns with a change among ``changes``."""
        # (A clause that kept its text has no flag, so no pattern: its record need not be made.)
        ids = {ch.id for ch in (changes.described() if isinstance(changes, Changes) else changes)}
        return tuple(p for p in self.patterns if ids.intersection(p.changes))

    def normative_count(self, changes: Iterable[Change]) -> int:
        """How many of the changes (those compared) are normative, a drafting pattern counted once.

        A change counts on its own when it has a normative flag that none of its patterns covers;
        a pattern counts one when some change of it counts not on its own (the pattern is all that
        makes that change normative).
        """
        among = changes.described() if isinstance(changes, Changes) else changes  # (kept clauses: no flag)
        chosen = [ch for ch in among if ch.counterpart_in_corpus and ch.normative]
        patterns = self.patterns_of(chosen)
        covered: dict[str, set[Flag]] = {}
        for p in patterns:
            for cid in p.changes:
                covered.setdefault(cid, set()).add(p.flag)
        alone = {
            ch.id
            for ch in chosen
            if any(s.flag in NORMATIVE and s.flag not in covered.get(ch.id, ()) for s in ch.signals)
        }
        ids = {ch.id for ch in chosen}
        counted = sum(1 for p in patterns if any(c in ids and c not in alone for c in p.changes))
        return len(alone) + counted


def counts(changes: Sequence[Change]) -> dict[str, int]:
    """Counts by kind and flag.

    Changes in articles that the other edition's corpus does not hold at all
    are counted apart (``outside_corpus``): their addition or removal may only
    mean that the corpus is partial.
    """
    kept: list[Kept] = []
    if isinstance(changes, Changes):
        kept = changes.kept()
        changes = changes.described()
    chosen = [ch for ch in changes if ch.counterpart_in_corpus]
    c: Counter[str] = Counter(ch.kind.value for ch in chosen)
    out = {k.value: c.get(k.value, 0) for k in ChangeKind}
    out["editorial_only"] = sum(1 for ch in chosen if ch.editorial_only)
    out["renumbered"] = sum(1 for ch in chosen if ch.renumbered)
    out["moved"] = sum(1 for ch in chosen if ch.moved)
    out["title_changed"] = sum(1 for ch in chosen if ch.title_changed)
    out["outside_corpus"] = len(changes) - len(chosen)
    if kept:
        # A kept clause: unchanged, compared, neither editorial nor retitled.
        out[ChangeKind.UNCHANGED.value] += len(kept)
        out["renumbered"] += sum(1 for k in kept if k[0].old != k[0].new)
        out["moved"] += sum(1 for k in kept if k[4])
    return out


def differs(changes: Sequence[Change]) -> bool:
    """Whether any of the changes compared is a difference (:attr:`Change.is_difference`)."""
    if isinstance(changes, Changes):
        return any(ch.is_difference and ch.counterpart_in_corpus for ch in changes.described()) or any(
            map(_kept_difference, changes.kept())
        )
    return any(ch.is_difference and ch.counterpart_in_corpus for ch in changes)


def listed(
    changes: Sequence[Change], every: bool, also: Callable[[Change], bool] | None = None
) -> tuple[list[tuple[str, list[Change]]], int]:
    """The changes compared that a listing shows, by article (the articles in the order of their first
    change compared, those with none shown left out), and how many it does not show: the noteworthy ones
    (:attr:`Change.noteworthy`; ``every``: all; ``also``: and those it says, asked of every change).  Of
    :class:`Changes`, the records of clauses that kept their text and are not shown are never made."""
    entries: Iterable[tuple[str, Change | None]]
    if isinstance(changes, Changes):
        entries = changes.listed(every, also)
    else:
        entries = (
            (ch.article, ch if every or ch.noteworthy or (also is not None and also(ch)) else None)
            for ch in changes
            if ch.counterpart_in_corpus
        )
    groups: dict[str, list[Change]] = {}
    hidden = 0
    for article, ch in entries:
        group = groups.setdefault(article, [])
        if ch is None:
            hidden += 1
        else:
            group.append(ch)
    return [(article, group) for article, group in groups.items() if group], hidden


# ---------------------------------------------------------------------------
# History across editions


@dataclass(frozen=True, slots=True)
class Step:
    """A clause in one edition of its history.

    edition: the edition.
    addresses: where the clause's text is in that edition (several after a
        split, none when it is absent).
    texts: those clauses' texts.
    kinds: the kinds of change from the previous step (none for the first;
        removed when nothing of the clause reached this edition).
    changes: the change records of that step.
    in_corpus: False when the corpus does not hold the article in this
        edition, or holds only other parts of it (some of its sections'
        pages): the step is skipped in the chain.
    """

    edition: str
    addresses: tuple[str, ...]
    texts: tuple[str, ...]
    kinds: tuple[ChangeKind, ...]
    changes: tuple[Change, ...]
    in_corpus: bool

    @property
    def change(self) -> str:
        """The kinds as one word (``split+modified``), "" for the first step."""
        return "+".join(k.value for k in self.kinds)

    @property
    def changed(self) -> bool:
        """A step whose wording changed, beyond editorial changes."""
        return (
            bool(self.kinds)
            and self.kinds != (ChangeKind.UNCHANGED,)
            and not all(ch.editorial_only for ch in self.changes)
        )


@dataclass(frozen=True, slots=True)
class History:
    """A clause's history: every edition of the corpus, oldest first."""

    start: str
    steps: tuple[Step, ...]
    introduced: str  # the edition that introduced the current wording
    # The editions just before ``introduced`` whose corpus does not hold the clause, oldest first: the
    # wording may have come in any of them (2017 6A, when only the 2017 corpus holds article 6).
    or_earlier: tuple[str, ...] = ()
