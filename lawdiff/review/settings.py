"""The meeting's settings: what a chair picks for every member's pages, kept in the review store.

A setting is one of the store's marks (schema 2: the values a meeting shares, by name, beside
"discussing"): logged like every write with its author, not exported (it is no record of the review),
never taken back by ``undo``; so it needs no schema of its own.  It is read back as its type, and a
value this lawdiff does not know (a newer one wrote it), or none, reads as the default.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lawdiff.review.reading import StoreReader
    from lawdiff.review.store import Store


class AgendaOrder(enum.Enum):
    """The order in which the agenda lists the undecided changes, and "Next undecided" walks them.

    The minutes are in article order whatever the agenda's (:func:`lawdiff.review.minutes.in_order`).
    """

    ARTICLE = "article"  # by article, then pair, then reading order (the default)
    SIGNIFICANCE = "significance"  # most significant first (the study's score), article order among equals


# The mark that holds the agenda's order.
AGENDA_ORDER = "agenda-order"


def agenda_order(store: StoreReader) -> AgendaOrder:
    """The agenda's order as the store holds it (:attr:`AgendaOrder.ARTICLE` when none is set)."""
    mark = store.mark(AGENDA_ORDER)
    known = {o.value: o for o in AgendaOrder}
    return known.get(mark.value, AgendaOrder.ARTICLE) if mark is not None else AgendaOrder.ARTICLE


def set_agenda_order(store: Store, order: AgendaOrder, author: str) -> None:
    """Set the agenda's order (logged with ``author``)."""
    store.set_mark(AGENDA_ORDER, order.value, author)
