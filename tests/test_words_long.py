"""Word differences at bounded cost (issue 24, item 4): long clauses are walked, or matched by anchors.

The benchmark (``benchmarks/bench_words.py``) times the three long cases at megabytes; here they run
at a size just past the short path, walked (:func:`lawdiff.textwalk.gaps`), and at a tiny size
with the walk's and the anchors' limits made small, so that resynchronizing far, giving up, anchors,
windows and leaves all run.  What is checked is the shape: both texts rebuilt, pieces of whole
tokens, and no more than twice the words marked changed that the edit changed.

The stages after the difference read a long clause's changed pieces, not its whole texts; each such
shortcut is checked here against the whole reading it replaces: the editorial test, the share of
words changed, the flags, the alignment's word counts, the JSON of the pieces.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from benchscripts import bench_module, generator
from hypothesis import given, settings
from hypothesis import strategies as st
from test_significance import change as significance_change

from lawdiff import jsontext, textwalk
from lawdiff.align import scoring, space
from lawdiff.align.links import Unit
from lawdiff.align.scoring import Scorer
from lawdiff.align.thresholds import DEFAULT_THRESHOLDS
from lawdiff.corpus import Corpus, load
from lawdiff.diff import anchors, editorial, ranking, sides, significance, words
from lawdiff.diff.vocabulary import Change, Op, Piece
from lawdiff.diff.words import TOKEN, rebuild, word_diff
from lawdiff.model import Kind

bench_words = bench_module("bench_words")

_WORD = re.compile(r"\w+")


def _marked(pieces: tuple[Piece, ...]) -> int:
    return sum(len(_WORD.findall(p.text)) for p in pieces if p.op is not Op.EQUAL)


def _case(kind: str, size: int, seed: int = 3) -> tuple[str, str, int]:
    rng = random.Random(seed)
    old = bench_words.words_of(kind, size, rng)
    new, changed = bench_words.edit(old, rng)
    return " ".join(old) + ".", " ".join(new) + ".", changed


@pytest.mark.parametrize("kind", ["draft", "repeated"])
def test_long_clause_marks_about_what_changed(kind: str) -> None:
    old, new, changed = _case(kind, 60_000)
    assert len(words.TOKEN.findall(old)) > words.SHORT_TOKENS  # the long path
    pieces = word_diff(old, new)
    assert rebuild(pieces) == (old, new)
    assert changed <= _marked(pieces) <= 2 * changed


@pytest.mark.parametrize("kind", ["draft", "repeated"])
def test_anchors_windows_and_leaves_at_a_tiny_size(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(anchors, "LEAF_CELLS", 400)
    monkeypatch.setattr(anchors, "WINDOW", 24)
    monkeypatch.setattr(anchors, "SAMPLE_TARGET", 8)
    old, new, changed = _case(kind, 6_000)
    pieces = words._long_diff(TOKEN.findall(old), TOKEN.findall(new))
    assert rebuild(pieces) == (old, new)
    assert changed <= _marked(pieces) <= 2 * changed


@pytest.mark.parametrize("kind", ["draft", "repeated"])
def test_a_walk_at_a_tiny_size_resyncs_far_and_joins_gaps(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(words, "SHORT_TOKENS", 0)
    monkeypatch.setattr(textwalk, "KEY", 6)
    monkeypatch.setattr(textwalk, "KEYS", 2)
    monkeypatch.setattr(textwalk, "NEAR_KEYS", 3)
    monkeypatch.setattr(textwalk, "REACH", 16)
    monkeypatch.setattr(textwalk, "STEP", 4)
    monkeypatch.setattr(textwalk, "_LAST", [("", "", [])])  # no walk kept from before
    old, new, changed = _case(kind, 6_000)
    pieces = word_diff(old, new)
    _check_pieces(old, new, pieces)
    assert changed <= _marked(pieces) <= 2 * changed


def test_texts_that_differ_in_many_places_are_matched_by_anchors() -> None:
    rng = random.Random(9)
    old = bench_words.words_of("draft", 60_000, rng)
    new, _ = bench_words.edit(old, rng, rate=0.3)
    a, b = " ".join(old), " ".join(new)
    assert textwalk.gaps(a, b, textwalk.WALKED_SHARE) is None  # the walk gives up
    assert word_diff(a, b) == words._long_diff(TOKEN.findall(a), TOKEN.findall(b))
    assert textwalk.gaps(a, b) is not None  # without a share to keep to, it walks on


def test_a_large_insertion_and_a_moved_block_between_anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(anchors, "LEAF_CELLS", 400)
    monkeypatch.setattr(anchors, "SAMPLE_TARGET", 8)
    rng = random.Random(5)
    vocab = bench_words.vocabulary(rng, 300)
    base = [rng.choice(vocab) for _ in range(4000)]
    inserted = [f"nieuw{i}" for i in range(300)]
    new = base[:1000] + inserted + base[1000:2000] + base[3000:] + base[2000:3000]
    old_text, new_text = " ".join(base), " ".join(new)
    for pieces in (word_diff(old_text, new_text), words._long_diff(TOKEN.findall(old_text), TOKEN.findall(new_text))):
        assert rebuild(pieces) == (old_text, new_text)
        # The insertion is marked as such (the moved block is a deletion and an insertion).
        assert any(p.op is Op.INSERT and p.text.strip().startswith("nieuw0") for p in pieces)
        assert _marked(pieces) <= 300 + 2 * 1000 + 50


def test_a_long_insertion_and_deletion_among_few_changes_are_walked() -> None:
    rng = random.Random(7)
    old = bench_words.words_of("draft", 200_000, rng)
    new, changed = bench_words.edit(old, rng)
    inserted = [f"in{w}" for w in bench_words.words_of("draft", 20_000, random.Random(9))]
    new = new[:100] + inserted + new[100:]
    del new[len(new) // 2 : len(new) // 2 + 2000]
    a, b = " ".join(old), " ".join(new)
    found = textwalk.gaps(a, b, textwalk.WALKED_SHARE)
    assert found is not None
    pieces = word_diff(a, b)
    _check_pieces(a, b, pieces)
    assert _marked(pieces) <= changed + len(inserted) + 2000 + 20


def test_a_walk_places_an_edit_of_a_repeated_word_as_the_cleanup_does() -> None:
    """A word said twice and once more or once less: diff-match-patch's cleanup puts the insertion or the
    deletion after the copies (as far right as the text repeats it); the walk does the same, so that the
    whole difference is the one the anchors and the cleanup make of the whole text."""
    rng = random.Random(11)
    old = bench_words.words_of("draft", 60_000, rng)
    new = list(old)
    for k in range(len(old) - 40, 40, -97):
        old[k + 1] = old[k + 2] = old[k]  # said three times
        new[k + 1] = new[k + 2] = new[k]
        if k % 2:
            del new[k + 1]  # said twice
        else:
            new.insert(k, new[k])  # said four times
    a, b = " ".join(old), " ".join(new)
    assert textwalk.gaps(a, b, textwalk.WALKED_SHARE) is not None
    walked = word_diff(a, b)
    assert walked == words._long_diff(TOKEN.findall(a), TOKEN.findall(b))
    assert all(p.op is Op.EQUAL or p.text.endswith(" ") for p in walked)


def test_a_gaps_deletion_moves_right_as_far_as_the_text_repeats_it() -> None:
    """A gap whose sides agree at their start (two gaps joined): what is left of it, a deletion, moves right
    over the copies of its word after it, as the cleanup moves it, and no further than the next gap."""
    old, new = "P x y y y Q z", "P x y y Q w"
    # The gap old[2:6] "x y " / new[2:4] "x "; the equal run after it ends at old[12] (the next gap). The
    # deletion stands at old[8]: old[2:8] "x y y " before it and old[10:12] "Q " after it are equal.
    assert words._gap(old, new, (2, 6, 2, 4), 12 - 6) == [(Op.DELETE, 8, "y ")]
    # The next gap two characters after this one: old[2:6] "x y " equal, then the deletion, to old[8].
    assert words._gap(old, new, (2, 6, 2, 4), 3) == [(Op.DELETE, 6, "y ")]


def _check_pieces(old: str, new: str, pieces: tuple[Piece, ...]) -> None:
    """Both texts rebuilt; no empty piece, none beside one of its kind, no insertion before a deletion; each
    side's pieces of whole tokens (the side's tokens are those of its pieces in turn)."""
    assert rebuild(pieces) == (old, new)
    assert all(p.text for p in pieces)
    for x, y in itertools.pairwise(pieces):
        assert x.op is not y.op
        assert not (x.op is Op.INSERT and y.op is Op.DELETE)
    for text, drop in ((old, Op.INSERT), (new, Op.DELETE)):
        mine = [p.text for p in pieces if p.op is not drop]
        assert TOKEN.findall(text) == [t for piece in mine for t in TOKEN.findall(piece)]


_VOCAB = ["de", "kaart", "speler", "moet", "niet-aangeduide", "1)", "12", "maat", "partner", "van", "wordt", "geacht"]
_SEPARATORS = [" ", " ", " ", " ", ", ", ". ", "  ", "\n", " (", ") "]


@st.composite
def _long_pair(draw: st.DrawFn) -> tuple[str, str]:
    """A text of a few thousand words (from a small vocabulary, or repeated) and the same with some edits."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    n = draw(st.integers(1500, 4000))
    period = draw(st.sampled_from([0, 7, 25]))
    seq = [rng.choice(_VOCAB) for _ in range(period or n)]
    tokens = [seq[k % len(seq)] for k in range(n)]
    seps = [rng.choice(_SEPARATORS) for _ in range(n)]
    old = "".join(w + s for w, s in zip(tokens, seps, strict=True))
    edited = list(zip(tokens, seps, strict=True))
    for _ in range(draw(st.integers(1, 60))):
        k = rng.randrange(len(edited))
        what = rng.random()
        if what < 0.3:
            del edited[k]
        elif what < 0.6:
            edited.insert(k, (rng.choice([*_VOCAB, "Nieuw", "13"]), rng.choice(_SEPARATORS)))
        else:
            edited[k] = (rng.choice([*_VOCAB, "Anders"]), edited[k][1])
    return old, "".join(w + s for w, s in edited)


@settings(max_examples=60, deadline=None)
@given(_long_pair())
def test_a_walk_makes_pieces_of_whole_tokens(pair: tuple[str, str]) -> None:
    old, new = pair
    assert words._many_tokens(old, new)
    _check_pieces(old, new, word_diff(old, new))


@settings(max_examples=100, deadline=None)
@given(_long_pair(), st.booleans())
def test_a_word_put_in_or_taken_away_is_placed_as_the_search_places_it(pair: tuple[str, str], tiny: bool) -> None:
    """A word put in that is longer than the next word of the old text (or taken away, longer than the next
    of the new) is placed without the search where no key is found nearer: the same gaps as the search's."""
    old, new = pair
    with pytest.MonkeyPatch.context() as mp:
        if tiny:
            mp.setattr(textwalk, "KEY", 6)
            mp.setattr(textwalk, "NEAR_KEYS", 3)
            mp.setattr(textwalk, "REACH", 16)
        placed = textwalk.gaps(old, new)
        mp.setattr(textwalk, "_nearer", lambda *args: True)  # always left to the search
        assert placed == textwalk.gaps(old, new)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab é\u00e9-", max_size=40), st.text(alphabet="ab é-", max_size=40), st.data())
def test_common_from_is_the_common_start(a: str, b: str, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(a)))
    j = data.draw(st.integers(0, len(b)))
    n = 0
    while i + n < len(a) and j + n < len(b) and a[i + n] == b[j + n]:
        n += 1
    assert textwalk.common_from(a, i, b, j) == n
    assert textwalk.common_from(a * 50, i, a * 50, i) == len(a) * 50 - i


# ---------------------------------------------------------------------------
# The stages after the difference: from the changed pieces, the same as from the whole texts


@settings(max_examples=100, deadline=None)
@given(_long_pair())
def test_the_editorial_test_from_the_pieces_is_the_whole_test(pair: tuple[str, str]) -> None:
    old, new = pair
    for a, b in ((old, new), (old, old.replace("maat", "partner")), (old, old.upper()), (old + "Σ", new + "Σ")):
        if a != b:
            assert editorial.editorial_only(a, b, word_diff(a, b)) == (editorial.canonical(a) == editorial.canonical(b))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab -_.1é\n", max_size=8), min_size=1, max_size=8))
def test_words_counted_in_joined_pieces_are_those_of_each_piece(texts: list[str]) -> None:
    assert ranking._words_in(texts) == sum(len(sides.WORD.findall(t)) for t in texts)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text(alphabet="ab -_.1é\n", max_size=8), min_size=1, max_size=8), st.integers(1, 7))
def test_words_counted_in_thousands_of_pieces_read_some_thousand_at_a_time(texts: list[str], shift: int) -> None:
    # More texts than are joined at once: the groups meet at every place of the texts' cycle.
    many = texts[shift % len(texts) :] + texts * (2 * ranking._TEXTS_JOINED // len(texts) + 1)
    assert len(many) > ranking._TEXTS_JOINED
    assert ranking._words_in(many) == sum(len(sides.WORD.findall(t)) for t in many)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab AB_-.,1\u00e9\u0130\u03a3\u03c3\u0307 \t\n\u00a0", max_size=60))
def test_the_alignment_counts_the_words_of_a_split_text_in_order(text: str) -> None:
    want = Counter(map(sys.intern, space.words(text)))
    got = space._word_counts(text)
    assert list(got.items()) == list(want.items())


def _change(pieces: tuple[Piece, ...]) -> Change:
    old, new = rebuild(pieces)
    return significance_change(old, new, old_at="45A", new_at="45A", pieces=pieces)


@settings(max_examples=60, deadline=None)
@given(_long_pair())
def test_a_long_sides_flags_from_its_telling_changes_are_those_of_all(pair: tuple[str, str]) -> None:
    """A long side is read only around the changes that touch a word of the lists (or alone, a word with a
    digit): the same flags as reading around every change."""
    pieces = word_diff(*pair)
    change = _change(pieces)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(significance, "LONG_SIDE", 200)
        mp.setattr(sides, "LONG_SIDE", 200)
        read = significance.significance(change)
        mp.setattr(significance, "_read", _read_whole)
        assert read == significance.significance(change)


def _read_whole(text: str, touched: list[tuple[int, int]], skip: int) -> significance.Found:
    """What the flags read off a side around every change (no span left unread, none read once for many)."""
    return significance.found_in(sides.words_of(text, touched, skip), text)


@pytest.mark.parametrize("skip", [0, 1_000])
def test_a_repeated_sentences_changes_are_read_once_per_neighbourhood(skip: int) -> None:
    """The repeated sentence deletes the same listed words ("speler", "behalve") amid the same words again
    and again: each neighbourhood is read once, and what the side gives is what reading around every
    change gives (also with the lead-in's first characters skipped)."""
    old, new, _ = _case("repeated", 300_000)
    pieces = word_diff(old, new)
    text, touched = sides.side(pieces, Op.DELETE)
    assert len(text) > sides.LONG_SIDE
    listed, _ = significance._telling(text, touched, skip)
    read: list[list[tuple[int, int]]] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(significance, "words_of", lambda t, spans, k: read.append(spans) or sides.words_of(t, spans, k))
        found = significance._read(text, touched, skip)
    assert 0 < len(read) < len(listed) / 2  # most neighbourhoods seen before
    whole = _read_whole(text, touched, skip)
    assert found == whole
    assert whole[0][significance.Flag.ACTOR] and whole[1]  # "speler" and the digits of "1)" deleted


def test_the_share_of_words_changed_of_a_long_difference() -> None:
    old, new, _ = _case("draft", 60_000)
    pieces = word_diff(old, new)
    assert sum(len(p.text) for p in pieces) > 2 * sides.LONG_SIDE  # the joined reading
    changed = total = 0
    for p in pieces:
        n = len(sides.WORD.findall(p.text))
        total += n if p.op is not Op.EQUAL else 2 * n
        changed += n if p.op is not Op.EQUAL else 0
    assert ranking._share_changed(pieces) == changed / total


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["equal", "insert", "delete"]), st.text(max_size=6)), max_size=6), st.data())
def test_pairs_of_strings_are_written_as_the_standard_library_writes_them(
    pairs: list[tuple[str, str]], data: st.DataObject
) -> None:
    doc = {"diff": jsontext.StrPairs(pairs), "n": [1, {"deep": jsontext.StrPairs(pairs)}]}
    assert jsontext.dumps(doc) == json.dumps(doc, ensure_ascii=False, indent=2)
    # Where the writer leaves the whole document to the standard library, the same text too.
    doc["odd"] = {1: "a key that is a number"}
    assert jsontext.dumps(doc) == json.dumps(doc, ensure_ascii=False, indent=2)


def test_matching_blocks_are_increasing_and_equal() -> None:
    a, b = "abcabcxabcabd" * 50, "abcabcabcyabd" * 50
    blocks = anchors.matching_blocks(a, b)
    i = j = 0
    for x, y, n in blocks:
        assert x >= i and y >= j and a[x : x + n] == b[y : y + n]
        i, j = x + n, y + n


_dmp_reference = bench_words.searched  # diff-match-patch on word characters, as word_diff did before


def _changed_pairs(corpus: Corpus) -> list[tuple[str, str]]:
    """Texts that differ: the bundled corpus's clauses at one address in consecutive editions, and the
    generator's clauses of one identity in consecutive editions (12 articles)."""
    out: list[tuple[str, str]] = []
    editions = corpus.listing()
    for old, new in itertools.pairwise(editions):
        for clause in new.walk():
            before = old.find(clause.address)
            if before is not None and before.text and clause.text and before.text != clause.text:
                out.append((before.text, clause.text))
    made = generator().generate(articles=12, seed=2017)
    for old_ed, new_ed in itertools.pairwise(made.editions):
        texts = {u.uid: u.text for u in old_ed.units}
        out.extend((texts[u.uid], u.text) for u in new_ed.units if u.uid in texts and texts[u.uid] != u.text)
    return out


GOLDEN = Path(__file__).resolve().parent / "golden" / "words" / "ordinary.json"


def _golden() -> dict[tuple[str, str], tuple[tuple[Piece, ...], tuple[Piece, ...]]]:
    """The reviewed pairs whose difference is not the one diff-match-patch's search gave: (search, now)."""
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return {
        (e["old"], e["new"]): tuple(tuple(Piece(Op(op), text) for op, text in e[k]) for k in ("search", "now"))
        for e in data
    }


def test_ordinary_clauses_keep_the_difference_they_had(corpus: Corpus) -> None:
    """A clause of ordinary length gets the same difference as diff-match-patch's own search gave it, or
    (at most one pair in ten) the one its reviewed golden file holds: another longest common subsequence."""
    pairs = _changed_pairs(corpus)
    golden = _golden()
    assert len(pairs) > 60
    other = 0
    for old, new in pairs:
        made, searched = word_diff(old, new), _dmp_reference(old, new)
        if (old, new) in golden:
            assert (searched, made) == golden[(old, new)]  # the file says what each gives, still
            assert made != searched
            other += 1
        else:
            assert made == searched
    assert other == len(golden) <= len(pairs) / 10


@pytest.mark.parametrize(
    "paragraph",
    ["woord " * 1000 + "einde.", 'woord "tussen" ' * 500 + "einde\\.", ""],
    ids=["plain", "quoted", "short"],
)
def test_an_editions_digest_with_a_long_text_is_that_of_its_json(
    paragraph: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long text is quoted as it stands where it holds nothing to escape; the digest is the same as the
    # whole JSON encoding's (LONG_STRING past every text), for a clause whose label is empty too.
    text = f"Concept spelregels 2027\nARTIKEL 45 Gespeelde kaart\n{paragraph}\nA. Spelen van een kaart\n{paragraph}\n"
    (tmp_path / "concept-2027.txt").write_text(text, encoding="utf-8")

    def digests() -> tuple[str, dict[str, str]]:
        edition = load([tmp_path]).edition("2027")
        return edition.digest(), edition.part_digests()

    long = [c for c in load([tmp_path]).edition("2027").walk() if len(c.text) >= jsontext.LONG_STRING]
    assert len(long) == (2 if paragraph else 0)
    quoted = digests()
    monkeypatch.setattr(jsontext, "LONG_STRING", 10**9)
    assert quoted == digests()


@pytest.mark.parametrize("kind", ["draft", "repeated"])
def test_two_long_texts_at_one_address_are_weighed_by_their_walk(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Past WALKED_CHARS each, a pair the walk finds near the same agrees by the share of characters it keeps,
    # without any word counted (no vectors made); the word difference then reuses the walk.
    old, new, _ = _case(kind, scoring.WALKED_CHARS + 20_000)
    monkeypatch.setattr(textwalk, "_LAST", [("", "", [])])
    unit = Unit("45A", "45", 0, old, "", Kind.SECTION, ())
    scorer = Scorer([unit], [replace(unit, text=new)], DEFAULT_THRESHOLDS)
    found = textwalk.gaps(old, new, textwalk.WALKED_SHARE)
    assert found is not None
    share = 1 - sum(i1 - i0 + j1 - j0 for i0, i1, j0, j1 in found) / (len(old) + len(new))
    assert DEFAULT_THRESHOLDS.identity_min <= scorer.text(0, 0) == share < 1
    assert scorer.made_space is None
    walked = textwalk._LAST[0][2]
    assert words.word_diff(old, new) and textwalk._LAST[0][2] is walked  # walked once
    # At two addresses: weighed by their words (not walked), as any shorter pair.
    moved = Scorer([unit], [replace(unit, text=new, address="45B")], DEFAULT_THRESHOLDS)
    assert moved.text(0, 0) != share and moved.made_space is not None
    # Texts that differ in many places are weighed by their cosine, as any shorter pair.
    rng = random.Random(9)
    many = bench_words.words_of("draft", scoring.WALKED_CHARS + 20_000, rng)
    other = " ".join(bench_words.edit(many, rng, rate=0.3)[0])
    scorer = Scorer([replace(unit, text=" ".join(many))], [replace(unit, text=other)], DEFAULT_THRESHOLDS)
    assert textwalk.kept(" ".join(many), other) is None
    assert scorer.text(0, 0) == scorer.space.cosine(0, 0)
