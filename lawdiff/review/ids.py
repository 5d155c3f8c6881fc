"""Naming a change wherever an id is asked for.

A change is named by a unique prefix of its id (at least
:data:`MIN_PREFIX` hex digits; the text output shows
:data:`SHORT_ID` of them), or by the new side's ``EDITION:ADDRESS``
(``2017:45C4(b)``, or the report's anchor form ``2017:45C4b``), with the
pair given where several pairs hold that clause.  An edition that is no
pair's new side (the oldest, or a removed clause's) is looked up on the old
side.  An unknown or ambiguous name
lists the candidates.  What ``review log NAME`` shows (:func:`log_records`)
is the record with that id prefix, else the change named and its comments.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lawdiff.errors import UsageError
from lawdiff.i18n import gettext as _
from lawdiff.model import normalize_address
from lawdiff.review.store import Store
from lawdiff.review.targets import Target
from lawdiff.review.values import Decision
from lawdiff.review.view import target

if TYPE_CHECKING:
    from lawdiff.diff.comparison import Comparison
    from lawdiff.diff.vocabulary import Change

# As lawdiff.diff.vocabulary.SHORT_ID (not imported: this package loads without
# the diff stage, see lawdiff.review); a test keeps them equal.
SHORT_ID = 10
# A prefix shorter than this could name any record.
MIN_PREFIX = 4
_HEX = re.compile(r"^[0-9a-fA-F]+$")
FULL_ID = 40
# Candidates listed in a message about an ambiguous name.
_LISTED = 12


@dataclass(frozen=True, slots=True)
class Named:
    """What a name resolved to: the target to record, and the change of the run if any."""

    target: Target
    change: Change | None = None
    decision: Decision | None = None


def short(record_id: str) -> str:
    return record_id[:SHORT_ID]


def anchor_form(address: str) -> str:
    """An address as the report's anchors write it: ``45C4(b)`` -> ``45C4b``, ``~`` -> ``_``."""
    return address.replace("(", "").replace(")", "").replace("~", "_")


def same_address(given: str, address: str) -> bool:
    spelled = normalize_address(given)
    return spelled == address or anchor_form(spelled) == anchor_form(address)


def resolve(
    name: str,
    store: Store,
    run: Callable[[], Sequence[Comparison]],
    pair: tuple[str, str] | None = None,
) -> Named:
    """The change (or stored decision) that ``name`` names.

    ``run`` gives the comparisons of the run; it is not called for a full id
    that the store holds (its decision records everything needed).
    """
    name = name.strip()
    if _HEX.match(name):
        if len(name) == FULL_ID and pair is None:
            stored = store.decision(name.lower())
            if stored is not None:
                return Named(Target.of(stored), None, stored)
        return _by_prefix(name.lower(), store, run(), pair)
    edition, sep, address = name.partition(":")
    if sep and edition.strip() and address.strip():
        return _by_address(edition.strip(), address.strip(), store, run(), pair)
    raise UsageError(
        _("{name!r} names no change").format(name=name),
        fix=_(
            "give an id (at least {MIN_PREFIX} hex digits, as lawdiff review list shows) or the new side's "
            "EDITION:ADDRESS, e.g. 2017:45C4(b)"
        ).format(MIN_PREFIX=MIN_PREFIX),
    )


def _by_prefix(prefix: str, store: Store, comps: Sequence[Comparison], pair: tuple[str, str] | None) -> Named:
    if len(prefix) < MIN_PREFIX:
        raise UsageError(
            _("id {prefix!r} is too short").format(prefix=prefix),
            fix=_("give at least {MIN_PREFIX} hex digits").format(MIN_PREFIX=MIN_PREFIX),
        )
    found: dict[str, Named] = {}
    for comp in comps:
        if pair is not None and (comp.old, comp.new) != pair:
            continue
        for ch in comp.changes:
            if ch.id.startswith(prefix):
                found[ch.id] = Named(target(comp, ch), ch)
    for d in store.decisions():
        if d.id.startswith(prefix) and d.id not in found and (pair is None or d.pair == pair):
            found[d.id] = Named(Target.of(d), None, d)
    if not found:
        raise UsageError(
            _("no change has an id starting with {prefix!r}").format(prefix=prefix),
            fix=_("see the ids with: lawdiff review list"),
        )
    if len(found) > 1:
        raise UsageError(
            _("id {prefix!r} is ambiguous: {value}").format(prefix=prefix, value=_candidates(list(found.values()))),
            fix=_("give more digits of the id"),
        )
    return next(iter(found.values()))


def _by_address(
    edition: str, address: str, store: Store, comps: Sequence[Comparison], pair: tuple[str, str] | None
) -> Named:
    chosen = [c for c in comps if pair is None or (c.old, c.new) == pair]
    found: list[Named] = []
    # The new side first; an edition that is no pair's new side (the oldest)
    # and a removed clause have only the old side.
    for side in ("new", "old"):
        for comp in chosen:
            if (comp.new if side == "new" else comp.old) != edition:
                continue
            for ch in comp.changes:
                addresses = ch.new if side == "new" else ch.old
                if any(same_address(address, a) for a in addresses):
                    found.append(Named(target(comp, ch), ch))
        if found:
            break
    if not found:
        # A decision whose change left the run (orphaned, or its pair not compared).
        for d in store.decisions():
            if (
                d.new_edition == edition
                and (pair is None or d.pair == pair)
                and any(same_address(address, a) for a in d.new)
            ):
                found.append(Named(Target.of(d), None, d))
    if not found:
        raise UsageError(
            _("no change of {edition}:{address} in the pairs compared ({names})").format(
                edition=edition, address=address, names=", ".join(f"{c.old} -> {c.new}" for c in chosen) or "none"
            ),
            fix=_near(edition, address, chosen),
        )
    pairs = {(n.target.old_edition, n.target.new_edition) for n in found}
    if len(pairs) > 1:
        listed = ", ".join(f"{o} {n}" for o, n in sorted(pairs))
        raise UsageError(
            _("{edition}:{address} is in several pairs ({listed}): {value}").format(
                edition=edition, address=address, listed=listed, value=_candidates(found)
            ),
            fix=_("give --pair OLD NEW, or the id"),
        )
    if len(found) > 1:
        raise UsageError(
            _("{edition}:{address} names several changes: {value}").format(
                edition=edition, address=address, value=_candidates(found)
            ),
            fix=_("give the id"),
        )
    return found[0]


def _near(edition: str, address: str, comps: Sequence[Comparison]) -> str:
    """What to name instead: the changes under the address (a clause without own text, 45C4), if any."""
    spelled = normalize_address(address)
    under: list[Named] = []
    for comp in comps:
        for ch in comp.changes:
            sides = (ch.new if comp.new == edition else ()) + (ch.old if comp.old == edition else ())
            if any(a.startswith(spelled) for a in sides):
                under.append(Named(target(comp, ch)))
    if under:
        return _("changes under it: {names}").format(names=_candidates(under))
    known = sorted({c.new for c in comps} | {c.old for c in comps})
    return _("name a clause of {names} (lawdiff show EDITION), or give --pair OLD NEW").format(
        names=", ".join(known) or _("a compared edition")
    )


def _candidates(found: list[Named]) -> str:
    parts = []
    for n in found[:_LISTED]:
        t = n.target
        where = ", ".join(t.old or t.new)
        if t.old and t.new and t.old != t.new:
            where = f"{', '.join(t.old)} -> {', '.join(t.new)}"
        aspect = " (heading)" if t.aspect == "title" else ""
        parts.append(f"{short(t.id)} {t.old_edition}->{t.new_edition} {t.kind} {where}{aspect}")
    more = f"; and {len(found) - _LISTED} more" if len(found) > _LISTED else ""
    return "; ".join(parts) + more


def resolve_record(store: Store, table: str, prefix: str, what: str) -> str:
    """The id of a comment, meeting or correction from a prefix; an error lists the candidates."""
    p = prefix.strip().lower()
    if not _HEX.match(p) or len(p) < MIN_PREFIX:
        raise UsageError(
            _("{prefix!r} is not a {what} id").format(prefix=prefix, what=what),
            fix=_("give at least {MIN_PREFIX} hex digits of its id").format(MIN_PREFIX=MIN_PREFIX),
        )
    found = store.resolve(table, p)
    if not found:
        raise UsageError(
            _("no {what} has an id starting with {p!r}").format(what=what, p=p),
            fix=_("see the ids with: lawdiff review list"),
        )
    if len(found) > 1:
        listed = ", ".join(short(f) for f in found[:_LISTED])
        raise UsageError(
            _("{what} id {p!r} is ambiguous: {listed}").format(what=what, p=p, listed=listed), fix=_("give more digits")
        )
    return found[0]


def log_records(store: Store, name: str, change: Callable[[], str]) -> set[str]:
    """The records whose log ``name`` asks for: any record with that id prefix, else a change."""
    prefix = name.strip().lower()
    found: list[str] = []
    if re.fullmatch(r"[0-9a-f]{4,}", prefix):
        for table in ("comments", "meetings", "corrections"):
            found.extend(store.resolve(table, prefix))
        decisions = store.resolve("decisions", prefix)
        found.extend(decisions)
        if len(found) > 1:
            raise UsageError(
                _("id {prefix!r} is ambiguous: {names}").format(prefix=prefix, names=", ".join(f[:10] for f in found)),
                fix=_("give more digits"),
            )
    ids = set(found) or {change()}
    wanted = set(ids)
    for c in store.comments(include_deleted=True):
        if c.decision in ids:
            wanted.add(c.id)
    return wanted
