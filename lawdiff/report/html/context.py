"""What the rows of one pair's side-by-side table share: the pair, the ids of its clause blocks, its links."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from lawdiff.model import Edition
from lawdiff.report.site import anchor


@dataclass(frozen=True, slots=True)
class PairContext:
    """One pair's table on one page.

    prefix: the id prefix of the table's clause blocks (``diff-2007-2017``).
    moved_targets: where the old targets of stale references went.
    history: the link to a clause's history page (edition, address) -> href, or None where there is none.
    texts_at: whether the page shows every clause's wording elsewhere (an article page's synopsis), so
        that a clause whose words did not change is named and linked there, not shown again.
    """

    old: Edition
    new: Edition
    prefix: str
    moved_targets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    history: Callable[[str, str], str | None] | None = None
    texts_at: bool = False


def block_id(ctx: PairContext, edition: str, address: str, heading: bool = False) -> str:
    """``diff-2007-2017-2017-45C4b``; a heading's own row ends in ``-title``."""
    return f"{ctx.prefix}-{anchor(edition, address)}" + ("-title" if heading else "")
