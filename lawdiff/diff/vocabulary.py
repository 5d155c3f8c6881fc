"""The change records every report is built from: one screen of small values.

A comparison of two editions, and its changes as it holds them (most made only when read), is
:mod:`lawdiff.diff.comparison`.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from lawdiff import jsontext
from lawdiff.align import Aspect, Method
from lawdiff.frozen import slot_init
from lawdiff.pickling import by_fields

# ---------------------------------------------------------------------------
# Records


# The kinds of this module hash as objects do (by identity, in C), not as Enum does (the hash of the member's
# name, a call of Python code): a member equals only itself, so either hash keeps the contract, and a pair's
# alignment and description look its kinds up in sets and dictionaries some tens of thousands of times.
# (Neither hash is the same from run to run, a string's being salted per process: no order is taken from a
# set of them.)
class ChangeKind(enum.Enum):
    """The kind of a change: every change is of exactly one kind."""

    __hash__ = object.__hash__  # (see the note above the module's first kind)

    UNCHANGED = "unchanged"
    MODIFIED = "modified"
    SPLIT = "split"
    MERGED = "merged"
    ADDED = "added"
    REMOVED = "removed"


class Op(enum.Enum):
    """What a run of a word difference does."""

    __hash__ = object.__hash__  # (see the note above the module's first kind)

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

    __hash__ = object.__hash__  # (see the note above the module's first kind)

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

    __hash__ = object.__hash__  # (see the note above the module's first kind)

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

    __hash__ = object.__hash__  # (see the note above the module's first kind)

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
    title_diff: the heading's word difference, for a clause's change whose heading changed (a heading's
        own change has it in ``diff``); () otherwise.
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
        change weighs half (:func:`lawdiff.diff.ranking.rank`).
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
    title_diff: tuple[Piece, ...] = ()

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
