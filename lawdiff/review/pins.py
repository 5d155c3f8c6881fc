"""Hand corrections named on the command line, checked against the corpus.

``review pin 2007:45D 2017:45D1 2017:45D2`` says that 2007 45D became 2017
45D1 and 45D2; ``review forbid 2007:45D 2017:45E`` that those two are never
linked.  Every clause must exist (a pin of addresses that do not is refused,
naming the argument); the older edition is the old side, whatever the order
of the arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lawdiff.errors import UsageError
from lawdiff.i18n import gettext as _
from lawdiff.model import Edition, chronological
from lawdiff.review.values import Correction

if TYPE_CHECKING:
    from lawdiff.corpus import Corpus


def clause_of(corpus: Corpus, spec: str) -> tuple[Edition, str]:
    """``EDITION:ADDRESS`` -> the edition and the clause's address as the edition spells it."""
    name, sep, address = spec.partition(":")
    if not sep or not name.strip() or not address.strip():
        raise UsageError(
            _("{spec!r} names no clause").format(spec=spec), fix=_("write EDITION:ADDRESS, e.g. 2017:45D1")
        )
    try:
        edition, clause = corpus.clause(spec)
    except UsageError as exc:
        raise UsageError(_("{spec}: {what}").format(spec=spec, what=exc.what), fix=exc.fix) from None
    assert clause is not None
    return edition, clause.address


def sides(corpus: Corpus, specs: Sequence[str]) -> tuple[tuple[str, str], tuple[str, ...], tuple[str, ...]]:
    """The pair and each side's addresses, from clauses of exactly two editions."""
    named = [clause_of(corpus, s) for s in specs]
    editions = {e.name: e for e, _ in named}
    if len(editions) != 2:
        raise UsageError(
            _("{names}: a correction names clauses of exactly two editions, here {n}").format(
                names=" ".join(specs), n=len(editions)
            ),
            fix=_("e.g. lawdiff review pin 2007:45D 2017:45D1 2017:45D2"),
        )
    old, new = sorted(editions.values(), key=chronological)
    old_side = tuple(dict.fromkeys(a for e, a in named if e.name == old.name))
    new_side = tuple(dict.fromkeys(a for e, a in named if e.name == new.name))
    return (old.name, new.name), old_side, new_side


def forbid_sides(corpus: Corpus, a: str, b: str) -> tuple[tuple[str, str], tuple[str, ...], tuple[str, ...]]:
    pair, old, new = sides(corpus, (a, b))
    if len(old) != 1 or len(new) != 1:
        raise UsageError(
            _("{a} {b}: forbid names one clause of each edition").format(a=a, b=b),
            fix=_("e.g. forbid 2007:45D 2017:45E"),
        )
    return pair, old, new


def matching(corrections: Sequence[Correction], specs: Sequence[str]) -> list[Correction]:
    """The active corrections that name every clause given (``EDITION:ADDRESS``, spelled as stored)."""
    from lawdiff.review.ids import same_address

    out = []
    for c in corrections:
        named = [(c.old_edition, a) for a in c.old] + [(c.new_edition, a) for a in c.new]
        ok = True
        for spec in specs:
            name, _, address = spec.partition(":")
            if not any(e == name.strip() and same_address(address, a) for e, a in named):
                ok = False
                break
        if ok and not c.removed:
            out.append(c)
    return out
