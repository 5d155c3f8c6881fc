"""The histories of an edition's clauses made together are the histories made one by one."""

from __future__ import annotations

from lawdiff.corpus import Corpus
from lawdiff.diff import Study, history
from lawdiff.diff.history import histories


def test_an_editions_histories_made_together_are_each_clauses_history(corpus: Corpus) -> None:
    together, alone = Study(corpus.editions), Study(corpus.editions)
    followed = 0
    for edition in corpus.editions:
        clauses = [c for c in edition.walk() if c.text or c.title]
        made = histories(together, edition, clauses)
        assert made == [history(alone, edition, c.address) for c in clauses]
        followed += len(clauses)
    # Headings alone (followed by their titles) and clauses with texts, in every edition.
    assert followed > 100
    assert any(not c.text and c.title for e in corpus.editions for c in e.walk())
