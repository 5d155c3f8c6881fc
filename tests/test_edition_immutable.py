"""An Edition is immutable in fact: what it works out from itself is kept beside it, not in it."""

from __future__ import annotations

import dataclasses
import gc
import pickle

from lawdiff.corpus import load
from lawdiff.model import clause as clause_module


def test_working_things_out_changes_nothing_an_edition_holds() -> None:
    edition = load().edition("2007")
    before = pickle.dumps(edition)
    fields = {f.name: getattr(edition, f.name) for f in dataclasses.fields(edition)}
    edition.find("45C")
    edition.positions()
    edition.digest()
    edition.part_digests()
    edition.holds("45C2")
    edition.held_in_part()
    # The caches used to be fields of the edition: its pickle grew with every one of them.
    assert pickle.dumps(edition) == before
    assert {f.name: getattr(edition, f.name) for f in dataclasses.fields(edition)} == fields
    assert all(not isinstance(v, dict | list | set) for v in fields.values())


def test_the_memo_goes_with_its_edition() -> None:
    edition = load().edition("1963")
    copy = pickle.loads(pickle.dumps(edition))
    assert copy.find("45") is not None and copy.digest() == edition.digest()
    key = id(copy)
    assert key in clause_module._MEMOS
    del copy
    gc.collect()
    assert key not in clause_module._MEMOS
