"""The bundled corpus loads and every seed is fully placed."""

from lawdiff.corpus import load


def test_bundled_corpus_is_fully_placed() -> None:
    corpus = load()
    assert [e.name for e in corpus.editions] == ["1963", "1997", "2007", "2017"]
    for check in corpus.checks:
        assert check.unplaced == (), check.file
        assert check.placed == check.tokens > 0
