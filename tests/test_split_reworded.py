"""Splits under rewording (issue 24, item 1): the generator's case class and the sentence evidence."""

from __future__ import annotations

from collections import Counter

from benchscripts import bench_module, generator

from lawdiff.align import DEFAULT_THRESHOLDS
from lawdiff.align.sentences import best_sentence, dice, sentences
from lawdiff.align.space import words


def test_the_default_editions_make_no_reworded_split() -> None:
    gen = generator()
    made = gen.generate(articles=6, seed=11)
    assert not any(e.kind == "split-reworded" for t in made.transitions for e in t.edits)


def test_reworded_parts_are_found_on_a_small_corpus() -> None:
    """bench_align's figure for the case class, on 12 articles (at 93 it is in benchmarks/README.md)."""
    score, _ = bench_module("bench_align").reworded_splits(12, 2017)
    assert score.gold >= 10
    assert score.recall >= 0.9 and score.precision >= 0.97


def test_a_reworded_sentence_matches_its_sentence_not_the_others() -> None:
    whole = (
        "Elke speler behalve de blinde speelt een kaart door haar uit zijn hand te nemen. "
        "De leider speelt een kaart uit de blinde door haar te noemen. "
        "Bij het spelen uit de blinde mag de leider zo nodig de gewenste kaart zelf opnemen."
    )
    assert len(sentences(whole)) == 3
    part = "Bij spelen uit de blinde mag de leider indien nodig zelf een gewenste kaart pakken."
    idf = dict.fromkeys(words(whole + " " + part), 1.0)
    parts = [Counter(words(s)) for s in sentences(whole)]
    scores = [dice(s, Counter(words(part)), idf) for s in parts]
    assert scores.index(max(scores)) == 2
    assert best_sentence(parts, Counter(words(part)), idf) >= DEFAULT_THRESHOLDS.sentence_min
    assert best_sentence(parts[:1], Counter(words(part)), idf) == 0.0  # a whole of one sentence is no split
