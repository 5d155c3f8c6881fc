"""A change as a decision recorded it: its word difference and flags, from the texts it was decided on.

The review store keeps each decision's texts (so that a decision on an earlier draft is shown beside
the current wording), not the change record.  The minutes show the difference and the significance
flags of the change *as decided on*: this module makes them by the study's own rules
(:func:`~lawdiff.diff.words.word_diff`, :func:`~lawdiff.diff.significance.significance`), so that the
minutes compute nothing of their own.  Without the editions, references are read from the words
(:func:`lawdiff.model.find_references`): a target cited in one text and not the other is added or
removed, one of the same article on both sides retargeted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lawdiff.align import Aspect
from lawdiff.diff.significance import significance
from lawdiff.diff.vocabulary import Change, ChangeKind, Piece, RefChange, RefStatus, Signal
from lawdiff.diff.words import word_diff
from lawdiff.model import article_of, find_references


@dataclass(frozen=True, slots=True)
class Decided:
    """What the minutes show of a decided change.

    pieces: the word difference of the texts decided on (their texts joined by a line break), () when
        one side is empty or the two are the same.
    signals: its significance flags, each with its words.
    """

    pieces: tuple[Piece, ...]
    signals: tuple[Signal, ...]


def decided(aspect: str, kind: str, old_texts: Sequence[str], new_texts: Sequence[str]) -> Decided:
    """The difference and flags of a change of ``aspect`` and ``kind`` with these texts (see the module)."""
    old_text, new_text = "\n".join(old_texts), "\n".join(new_texts)
    if not (old_texts and new_texts) or old_text == new_text:
        return Decided((), ())
    pieces = word_diff(old_text, new_text)
    title = aspect == Aspect.TITLE.value
    change = Change(
        kind=ChangeKind(kind) if kind in {k.value for k in ChangeKind} else ChangeKind.MODIFIED,
        aspect=Aspect.TITLE if title else Aspect.TEXT,
        old=(),
        new=(),
        article="",
        renumbered=False,
        moved=False,
        title_changed=title,
        old_title="",
        new_title="",
        similarity=0.0,
        editorial_only=False,
        diff=pieces,
        references=() if title else _references(old_text, new_text),
        score=0.0,
        uncertain=False,
        methods=(),
        reasons=(),
        old_texts=tuple(old_texts),
        new_texts=tuple(new_texts),
        counterpart_in_corpus=True,
    )
    return Decided(pieces, significance(change))


def _references(old_text: str, new_text: str) -> tuple[RefChange, ...]:
    old = [t for t, _, _ in find_references(old_text)]
    new = [t for t, _, _ in find_references(new_text)]
    out: list[RefChange] = []
    gone = [t for t in old if t not in new]
    came = [t for t in new if t not in old]
    for t in gone:
        hit = next((n for n in came if article_of(n) == article_of(t)), None)
        if hit is not None:
            came.remove(hit)
            out.append(RefChange(RefStatus.RETARGETED, t, hit, None))
        else:
            out.append(RefChange(RefStatus.REMOVED, t, "", None))
    out.extend(RefChange(RefStatus.ADDED, "", n, None) for n in came)
    return tuple(dict.fromkeys(out))
