"""Generate full-size editions of the Laws, with the alignment that links them (the gold).

The alignment benchmark (``bench_align.py``) needs editions of the real size
(93 articles) whose changes are *known*.  The bundled corpus holds a dozen
articles, and nothing from outside the corpus may be used as law text, so the
editions are made from the seed texts alone:

1. **Seed material.**  The own texts of every clause in the bundled corpus
   (1963, 1997, 2007, 2017) are cut into sentences and the sentences into
   phrases (at commas and semicolons).  Function words are the seeds' most
   frequent words; nouns are the words the seeds put after an article (``de``,
   ``het``, ``een``...).
2. **A base edition.**  Each article gets a topic: compounds of two seed
   nouns (Dutch law text is full of them: ``strafkaart``, ``beeldzijde``),
   never used by another article, and its own form of some seed words (a
   compound, a prefixed verb), the same in all its clauses: real articles
   each have their own subject and words, and the few seed words would
   otherwise be far more frequent than law words are.  Each clause text
   takes its number of sentences from a seed clause; each sentence is a seed
   sentence, most of them recombined with phrases of others, whose content
   words are then varied from the topic and the seed vocabulary.  A text too
   close to one already made (word Jaccard above :data:`DISTINCT_MAX`), or
   holding a sentence too close to one already made
   (:data:`SENTENCE_DISTINCT_MAX` on the telling words), is made again, so
   that no clause and no piece of a split has two plausible homes (that
   would make the alignment ill-posed).  The shapes follow the seeds:
   sections A-G with titles, own text, numbered subsections, items ``(a)``,
   unnumbered list items (``45E.p1``), closing paragraphs (``45.p1``),
   footnotes.
3. **Successor editions.**  Each next edition is the previous one with a
   fresh set of edits (:class:`Rates`): section swaps (53B <-> 53C), list items
   numbered (45E.p1 -> 45E1), moves to another article, splits at a sentence
   boundary, merges of adjacent clauses, clauses whose subject changed at the
   same address (2007 23 vs 2017 23), additions (a section inserted in the
   middle re-letters the ones after it), removals, and rewrites of 5-30% of
   the words (substitutions, insertions, deletions).  Every clause keeps an
   identity through its edits; the gold alignment of two consecutive editions
   is read from those identities, so it is right by construction.
4. **Pages.**  Each article is rendered as a wiki page (``Sjabloon:<year>:<n>``
   and the lines ``lawdiff.sources.wikitext`` reads), so that the benchmark
   runs the real parser; :attr:`GeneratedEdition.units` is what the parser
   must read back (address and own text of every clause that has one).

Everything is drawn from one ``random.Random(seed)``, and no set is ever
iterated, so the same seed gives the same bytes.
"""

from __future__ import annotations

import bisect
import copy
import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import overload

from lawdiff.corpus import load

DEFAULT_SEED = 2017
YEARS = (1987, 1997, 2007, 2017)
FULL_ARTICLES = 93

# No two clause texts of an edition may share more than this share of their
# distinct words (Jaccard); the seeds' own clauses stay below it too.
DISTINCT_MAX = 0.5
# Chance that a sentence is recombined with a phrase of another seed sentence.
RECOMBINE = 0.7
# Chance that a noun / another content word of a seed sentence is varied.
VARY_NOUN = 0.6
VARY_WORD = 0.35
# No two sentences of the editions may share more than this share of their
# telling words (Jaccard; words outside the seeds' COMMON_WORDS most frequent):
# a split piece must have one home, not two.
SENTENCE_DISTINCT_MAX = 0.5
COMMON_WORDS = 100
# Share of seed content words an article says in its own way (a compound, a
# prefixed form), the same in all its clauses.
DIALECT = 0.1
# Dutch separable prefixes, for the articles' own forms of verbs and adjectives.
_PREFIXES = ("aan", "af", "her", "in", "mee", "na", "om", "onder", "op", "over", "toe", "uit", "voor", "weg")
# New compounds of two seed nouns per article: its telling words.
TOPIC_COMPOUNDS = 16
# Draws in a row that find no unused compound of two nouns before the
# articles' compounds are made of three (only past some 350 articles).
COMPOUND_TRIES = 200
# How many of the seeds' most frequent words count as function words.
FUNCTION_WORDS = 60

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_PHRASE_END = re.compile(r"(?<=[,;])\s+")
_CORE = re.compile(r"^(?P<pre>\W*)(?P<word>\w[\w'-]*\w|\w)(?P<post>\W*)$")
_DETERMINERS = ("de", "het", "een", "elke", "deze", "zijn", "haar")
# Words the seeds put after an article that are not nouns ("de andere",
# "zijn eigen", "het opnieuw schudden"): the noun test would take them.
_NOT_NOUNS = ("andere", "door", "eigen", "geheel", "hele", "mogelijk", "opnieuw", "volgens", "voor", "vooraf")
# Text the wiki reader would take for a label, a heading or a footnote marker
# if it opened a line or stood in one; seed sentences holding it are not used.
_RISKY = re.compile(r"(?<=\s)\d{1,2}\)|t/m|[⁰¹²³⁴⁵⁶⁷⁸⁹]|\s-\s|^\W")
_RISKY_START = re.compile(r"^(?:artikel|art\.|paragraaf|hoofdstuk|deel|[a-z]\.|\d)", re.IGNORECASE)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ITEM_LETTERS = "abcdefghijklmnopqrstuvwxyz"


# ---------------------------------------------------------------------------
# Seed material


@dataclass(frozen=True, slots=True)
class Lexicon:
    """What the generator draws on, all of it from the seed texts.

    sentences: seed sentences, as tokens (words with their punctuation).
    phrases: pieces of seed sentences cut after a comma or semicolon.
    function_words: the seeds' most frequent words (never varied).
    content_words: the other words, as often as the seeds use them.
    nouns: words the seeds put after an article.
    titles: seed titles (articles and sections), final full stop dropped.
    common_words: function words and the seeds' other frequent words: what
        does not tell one sentence from another.
    sentence_counts: sentences per seed clause (sets the size of a clause).
    """

    sentences: tuple[tuple[str, ...], ...]
    phrases: tuple[tuple[str, ...], ...]
    function_words: frozenset[str]
    content_words: tuple[str, ...]
    nouns: tuple[str, ...]
    titles: tuple[str, ...]
    common_words: frozenset[str]
    sentence_counts: tuple[int, ...]


def seed_lexicon(paths: list[Path] | None = None) -> Lexicon:
    """Read the seed texts (default: the bundled corpus) into a :class:`Lexicon`."""
    corpus = load(paths)
    texts: list[str] = []
    titles: list[str] = []
    for edition in corpus.editions:
        for clause in edition.walk():
            if clause.text:
                texts.append(" ".join(clause.text.split()))
            if clause.title and clause.kind.value in ("article", "section", "subsection"):
                titles.append(clause.title.rstrip(". "))
    counts = Counter(w for t in texts for w in re.findall(r"\w+", t.lower()))
    # Nouns: what the seeds put between an article and a function word or a
    # sign ("de kaart,", "een strafkaart is"), leaving out the inflected
    # participles and adjectives ("de gespeelde").
    first = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:FUNCTION_WORDS]
    common = {w for w, _ in first} | {w for w in counts if len(w) <= 3}
    nouns: dict[str, None] = {}
    for text in texts:
        signs = re.findall(r"\w+|[^\w\s]", text)
        for prev, word, nxt in zip(["", *signs[:-1]], signs, [*signs[1:], "."], strict=True):
            low = word.lower()
            noun_like = word == low and word.isalpha() and len(low) >= 4 and prev.lower() in _DETERMINERS
            ends_well = nxt.lower() in common or not nxt.isalnum()
            if noun_like and ends_well and not low.endswith(("de", "te")) and low not in _NOT_NOUNS:
                nouns.setdefault(low, None)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    function = frozenset(w for w, _ in ranked[:FUNCTION_WORDS] if w not in nouns) | frozenset(
        w for w in counts if len(w) <= 3
    )
    sentences: list[tuple[str, ...]] = []
    sentence_counts: list[int] = []
    for text in texts:
        pieces = [s for s in _SENTENCE_END.split(text) if s]
        sentence_counts.append(len(pieces))
        for s in pieces:
            toks = tuple(s.split())
            if len(toks) >= 4 and not _RISKY.search(s) and not _RISKY_START.match(s):
                sentences.append(toks)
    phrases: list[tuple[str, ...]] = []
    for sent in sentences:
        # Non-initial phrases only: a recombined sentence keeps its own opening.
        phrases.extend(tuple(p.split()) for p in _PHRASE_END.split(" ".join(sent))[1:] if len(p.split()) >= 3)
    content = [
        w
        for t in texts
        for w in re.findall(r"\w+", t)
        if w.islower() and w.isalpha() and len(w) >= 4 and w not in function
    ]
    return Lexicon(
        sentences=tuple(dict.fromkeys(sentences)),
        phrases=tuple(dict.fromkeys(phrases)),
        function_words=function,
        content_words=tuple(sorted(content)),
        nouns=tuple(sorted(nouns)),
        titles=tuple(dict.fromkeys(t for t in titles if 3 <= len(t) <= 80)),
        common_words=function | frozenset(w for w, _ in ranked[:COMMON_WORDS]),
        sentence_counts=tuple(sentence_counts),
    )


# ---------------------------------------------------------------------------
# The working tree (mutable while an edition is being edited, like
# lawdiff.model.Draft; what leaves this module is frozen)


@dataclass
class Node:
    """A clause of a generated edition.

    uid: its identity; it survives renumbering, moves and rewrites, and is
        new after a split, a merge, an addition or a change of subject.
    kind: "article", "section", "sub" (``1.``), "item" (``(a)``), "dash"
        (an unnumbered list item, ``.pN``), "close" (a paragraph after the
        items of an article, ``.pN``) or "note" (a footnote).
    origin: the uids of the previous edition's clauses its own text comes
        from (empty for new text).
    anchor: for a footnote, after which word of its owner's text the marker
        stands.
    """

    uid: str
    kind: str
    title: str = ""
    text: str = ""
    children: list[Node] = field(default_factory=list)
    notes: list[Node] = field(default_factory=list)
    origin: tuple[str, ...] = ()
    anchor: int = 0
    article: int = 0  # the article number (for the topic of new text)

    def walk(self) -> Iterator[Node]:
        yield self
        yield from self.notes
        for child in self.children:
            yield from child.walk()

    @property
    def is_leaf(self) -> bool:
        return not self.children


# ---------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class Unit:
    """A clause with own text, as the parser must read it back."""

    address: str
    text: str
    uid: str


@dataclass(frozen=True, slots=True)
class GeneratedEdition:
    """One generated edition.

    name: the edition (its year).
    pages: (file name, page text) per article, in article order.
    units: every clause with own text, in document order.
    """

    name: str
    pages: tuple[tuple[str, str], ...]
    units: tuple[Unit, ...]


@dataclass(frozen=True, slots=True)
class Edit:
    """One edit the generator made, for the record.

    kind: "rewrite", "split", "merge", "move", "add", "add-section",
        "remove", "replace", "swap" or "number-list".
    old, new: the addresses it touched on each side.
    detail: a few words (the share of words rewritten, the articles of a move).
    """

    kind: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    detail: str = ""


@dataclass(frozen=True, slots=True)
class GoldLink:
    """One group of the gold alignment: old addresses -> new addresses."""

    old: tuple[str, ...]
    new: tuple[str, ...]
    edits: tuple[str, ...]  # the generator's edits behind it ("rewrite", "split", ...)


@dataclass(frozen=True, slots=True)
class Transition:
    """The gold alignment of two consecutive editions, and the edits made."""

    old: str
    new: str
    links: tuple[GoldLink, ...]
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class Generated:
    """Editions oldest first, and the transitions between consecutive ones."""

    seed: int
    editions: tuple[GeneratedEdition, ...]
    transitions: tuple[Transition, ...]


@dataclass(frozen=True, slots=True)
class Rates:
    """How much each edition changes, as a share of its clauses with own text
    (``swap`` and ``number_list`` as a share of the articles / list sections
    that allow them).  The mix is that of a new printing: most clauses
    unchanged or lightly edited, a few percent of each structural edit."""

    rewrite: float = 0.12
    split: float = 0.02
    merge: float = 0.02
    move: float = 0.015
    add: float = 0.02
    add_section: float = 0.3  # share of additions that insert a section mid-article
    remove: float = 0.015
    replace: float = 0.005
    swap: float = 0.04
    number_list: float = 0.4
    rewrite_min: float = 0.05
    rewrite_max: float = 0.30
    light_max: float = 0.10  # edits that come with a split, merge or move
    # Splits under rewording (issue 24): a clause of 2-5 sentences whose sentences go to 2-5 new clauses,
    # some reordered, each reworded: reword_min-reword_max of its words deleted and as many inserted.
    # None by default, so that the default editions (and every figure of bench_align on them) stay as they
    # were; bench_align measures the case on editions made with SPLIT_REWORDED_RATES.
    split_reworded: float = 0.0
    reword_min: float = 0.30
    reword_max: float = 0.60


DEFAULT_RATES = Rates()
SPLIT_REWORDED_RATES = Rates(split_reworded=0.03)


# ---------------------------------------------------------------------------
# Text


class _Writer:
    """Makes clause texts and varies them, from the seed lexicon."""

    def __init__(self, lex: Lexicon, rng: random.Random) -> None:
        self.lex = lex
        self.rng = rng
        self.used_compounds: set[str] = set(lex.content_words) | set(lex.nouns)
        self.topics: dict[int, tuple[list[str], list[str]]] = {}
        self.long_compounds = False
        self.dialects: dict[int, dict[str, str]] = {}
        self.nouns = frozenset(lex.nouns)
        self.seen = _Similar(DISTINCT_MAX)
        self.sentences = _Similar(SENTENCE_DISTINCT_MAX)

    # -- topics ---------------------------------------------------------------

    def topic(self, article: int) -> tuple[list[str], list[str]]:
        """The article's nouns (new compounds and a few seed nouns) and words."""
        if article not in self.topics:
            rng = self.rng
            compounds: list[str] = []
            misses = 0
            while len(compounds) < TOPIC_COMPOUNDS:
                head, mod = rng.choice(self.lex.nouns), rng.choice(self.lex.nouns)
                word = mod + head
                if self.long_compounds:
                    word = rng.choice(self.lex.nouns) + word
                if mod != head and word not in self.used_compounds:
                    self.used_compounds.add(word)
                    compounds.append(word)
                    misses = 0
                else:
                    misses += 1
                    # The seeds' nouns make a few thousand compounds of two:
                    # the topics of some 350 articles.  Past them, three.
                    self.long_compounds = self.long_compounds or misses >= COMPOUND_TRIES
            nouns = compounds + rng.sample(self.lex.nouns, 3)
            words = rng.sample(sorted(set(self.lex.content_words)), 4)
            self.topics[article] = (nouns, words)
        return self.topics[article]

    def dialect(self, word: str, article: int) -> str:
        """The article's own form of a seed word, the same in all its clauses.

        Real articles each have their own subject and words; seed words are
        few and would otherwise be far more frequent than law words are.
        """
        forms = self.dialects.setdefault(article, {})
        if word not in forms:
            form = word
            if self.rng.random() < DIALECT:
                for _ in range(20):
                    if word in self.nouns:
                        form = self.rng.choice(self.lex.nouns) + word
                    else:
                        form = self.rng.choice(_PREFIXES) + word
                    if form not in self.used_compounds:
                        break
                self.used_compounds.add(form)
            forms[word] = form
        return forms[word]

    def vary_word(self, word: str, article: int) -> str:
        nouns, words = self.topic(article)
        rng = self.rng
        if word in self.nouns:
            r = rng.random()
            if r < 0.55:
                return rng.choice(nouns[:TOPIC_COMPOUNDS])
            if r < 0.75:
                return rng.choice(nouns[TOPIC_COMPOUNDS:])
            return rng.choice(self.lex.nouns)
        return rng.choice(words) if rng.random() < 0.4 else rng.choice(self.lex.content_words)

    def any_word(self, article: int) -> str:
        """A word to insert or substitute in a rewrite."""
        rng = self.rng
        if rng.random() < 0.45:
            return rng.choice(sorted(self.lex.function_words))
        return self.vary_word(rng.choice(self.lex.content_words), article)

    # -- sentences and clauses -------------------------------------------------

    def sentence(self, article: int, boost: float = 0.0) -> list[str]:
        """A sentence: a seed sentence, recombined and varied (``boost`` varies more words)."""
        rng = self.rng
        toks = list(rng.choice(self.lex.sentences))
        if rng.random() < RECOMBINE:
            # Keep the opening phrase of this sentence; the rest is phrases of others.
            pieces = _PHRASE_END.split(" ".join(toks))
            if len(pieces) == 1:
                pieces[0] = _strip_end(pieces[0]) + ","
            toks = pieces[0].split()
            for _ in range(max(1, min(3, len(pieces) - 1))):
                if not toks[-1].endswith((",", ";")):
                    toks[-1] = _strip_end(toks[-1]) + ","
                toks.extend(rng.choice(self.lex.phrases))
        out: list[str] = []
        for tok in toks:
            m = _CORE.match(tok)
            if m and m.group("word").isalpha() and m.group("word").islower():
                word = m.group("word")
                if word not in self.lex.function_words and len(word) >= 4:
                    word = self.dialect(word, article)
                    p = boost + (VARY_NOUN if word in self.nouns else VARY_WORD)
                    if rng.random() < p:
                        word = self.vary_word(word, article)
                tok = m.group("pre") + word + m.group("post")
            out.append(tok)
        out[0] = _upper_first(out[0])
        if not out[-1].endswith((".", ";", ":", "!", "?")):
            out[-1] = _strip_end(out[-1]) + "."
        return out

    def clause(self, article: int, sentences: int = 0, lower: bool = False) -> str:
        """A new clause text, distinct from every text and every sentence made before."""
        rng = self.rng
        n = sentences or rng.choice(self.lex.sentence_counts)
        for _ in range(50):
            made: list[tuple[str, frozenset[str]]] = []
            for _ in range(n):
                for attempt in range(40):
                    sent = " ".join(self.sentence(article, boost=attempt * 0.02))
                    words = self.telling(sent)
                    if not self.sentences.clashes(words) and not any(
                        _jaccard(words, w) > SENTENCE_DISTINCT_MAX for _, w in made
                    ):
                        break
                made.append((sent, words))
            text = " ".join(sent for sent, _ in made)
            if lower:
                text = _lower_first(text)
            if self.distinct(text):
                self.remember(text)
                for _, words in made:
                    self.sentences.add(words)
                return text
        raise RuntimeError("could not make a distinct clause text: the seed lexicon is too small")

    def telling(self, text: str) -> frozenset[str]:
        return frozenset(w for w in _words(text) if w not in self.lex.common_words)

    def title(self, article: int) -> str:
        toks = self.rng.choice(self.lex.titles).split()
        for i, tok in enumerate(toks):
            if tok.lower() in self.lex.nouns and self.rng.random() < 0.6:
                word = self.vary_word(tok.lower(), article)
                toks[i] = _upper_first(word) if i == 0 else word
        return " ".join(toks).rstrip(".;:,)")

    def distinct(self, text: str) -> bool:
        return not self.seen.clashes(frozenset(_words(text)))

    def remember(self, text: str) -> None:
        self.seen.add(frozenset(_words(text)))

    # -- edits of a text ---------------------------------------------------------

    def reword(self, text: str, share: float, article: int) -> str:
        """``share`` of the words deleted and as many words inserted (at other places), never the last word:
        a sentence reworded by 40 % keeps 60 % of its words."""
        rng = self.rng
        toks = text.split()
        n = max(1, round(share * len(toks)))
        for _ in range(min(n, len(toks) - 2)):
            i = rng.randrange(max(1, len(toks) - 1))
            del toks[i]
            if i == 0 and text[:1].isupper():
                toks[0] = _upper_first(toks[0])
        for _ in range(n):
            toks.insert(rng.randrange(max(1, len(toks) - 1)) + 1, self.any_word(article))
        return " ".join(toks)

    def rewrite(self, text: str, share: float, article: int) -> str:
        """Word-level edits of ``share`` of the words: substitutions, insertions, deletions."""
        rng = self.rng
        toks = text.split()
        edits = max(1, round(share * len(toks)))
        for _ in range(edits):
            op = rng.random()
            # Never the last word: it carries the clause's full stop.
            i = rng.randrange(max(1, len(toks) - 1))
            m = _CORE.match(toks[i])
            pre, post = (m.group("pre"), m.group("post")) if m else ("", "")
            if op < 0.5 or len(toks) <= 3:
                word = self.any_word(article)
                toks[i] = pre + (_upper_first(word) if i == 0 else word) + post
            elif op < 0.75:
                toks.insert(i + 1, self.any_word(article))
            else:
                del toks[i]
                if i == 0 and text[:1].isupper():
                    toks[0] = _upper_first(toks[0])
        out = " ".join(toks)
        if out == text:
            return self.rewrite(text, share, article)
        return out


class _Similar:
    """Word sets made so far, to tell whether a new one is too close to any of
    them (Jaccard above ``limit``) without comparing it with each in turn.

    Comparing a new text with every earlier one made the generator quadratic
    (744 articles took hours).  Instead every word keeps the set of earlier
    sets holding it as the bits of an integer, and the integers of the new
    set's words are added up bit-parallel, in binary (``planes[b]`` holds bit
    ``b`` of every earlier set's count of shared words): a few operations on
    long integers per word, whatever the number of sets.  Two sets closer
    than ``limit`` share more than ``limit`` of the new set's words, so only
    the sets that reach that count (and have a size that allows it) are
    compared in full, by the same test as before: the answer is exactly the
    one comparing with all of them gives.
    """

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.sets: list[frozenset[str]] = []
        self.holders: dict[str, int] = {}  # word -> bit i set when sets[i] holds it
        self.sizes: dict[int, int] = {}  # size -> bit i set when sets[i] has that many words

    def clashes(self, words: frozenset[str]) -> bool:
        planes: list[int] = []
        for w in words:
            carry = self.holders.get(w, 0)
            for b in range(len(planes)):
                if not carry:
                    break
                planes[b], carry = planes[b] ^ carry, planes[b] & carry
            if carry:
                planes.append(carry)
        # Jaccard above limit needs more than limit * n shared words, and a
        # size between limit * n and n / limit (n the new set's size); the
        # bounds here are a little wider, so no set that may clash is left out.
        n = len(words)
        sizes = 0
        for size in range(math.floor(self.limit * n), math.ceil(n / self.limit) + 1):
            sizes |= self.sizes.get(size, 0)
        found = _at_least(planes, max(1, math.ceil(self.limit * n)), sizes)
        while found:
            low = found & -found
            found ^= low
            other = self.sets[low.bit_length() - 1]
            inter = len(words & other)
            if inter / len(words | other) > self.limit:
                return True
        return False

    def add(self, words: frozenset[str]) -> None:
        bit = 1 << len(self.sets)
        for w in words:
            self.holders[w] = self.holders.get(w, 0) | bit
        self.sizes[len(words)] = self.sizes.get(len(words), 0) | bit
        self.sets.append(words)


def _at_least(planes: list[int], need: int, everyone: int) -> int:
    """The bits of the counts held bit-sliced in ``planes`` that are at least ``need``."""
    above = 0  # counts already known to be greater
    equal = everyone  # counts equal to ``need`` on the bits seen so far
    for b in reversed(range(max(len(planes), need.bit_length()))):
        plane = planes[b] if b < len(planes) else 0
        if need >> b & 1:
            equal &= plane
        else:
            above |= equal & plane
            equal &= ~plane
    return above | equal


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _strip_end(tok: str) -> str:
    return tok.rstrip(".,;:!?")


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s]


# ---------------------------------------------------------------------------
# Rendering: wiki pages and addresses


def _child_address(parent: str, part: str) -> str:
    if part[:1].isdigit() and parent[-1:].isdigit():
        return f"{parent}.{part}"
    return parent + part


def _with_marker(text: str, anchor: int, number: int) -> str:
    toks = text.split()
    at = max(1, min(anchor, len(toks) - 1)) if len(toks) > 1 else len(toks)
    return " ".join([*toks[:at], f"{number})", *toks[at:]])


def render(article: Node, number: int, year: int) -> tuple[str, list[tuple[str, Node]]]:
    """One article as a wiki page, and (address, node) of every clause in document order."""
    lines = [f"Sjabloon:{year}:{number}", f"ARTIKEL {number} {article.title}".rstrip()]
    addressed: list[tuple[str, Node]] = []
    notes = 0

    def text_line(prefix: str, node: Node, address: str) -> None:
        nonlocal notes
        text = node.text
        pending: list[tuple[int, Node]] = []
        for note in node.notes:
            notes += 1
            text = _with_marker(text, note.anchor, notes) if text else text
            pending.append((notes, note))
        lines.append(f"{prefix}{text}".rstrip())
        for n, note in pending:
            lines.append(f"{n}) {note.text}")
            addressed.append((f"{address}.fn{n}", note))

    def visit(node: Node, parent: str) -> None:
        # Labels come from the place among the siblings: a node's address
        # changes when one before it comes or goes, as in a real printing.
        counters = {"section": 0, "sub": 0, "item": 0, "p": 0}
        for child in node.children:
            if child.kind == "section":
                label = _LETTERS[counters["section"]]
                counters["section"] += 1
                addr = parent + label
                addressed.append((addr, child))
                lines.append(f"{label}. {child.title}")
                if child.text:
                    text_line("", child, addr)
            elif child.kind == "sub":
                counters["sub"] += 1
                addr = _child_address(parent, str(counters["sub"]))
                addressed.append((addr, child))
                if child.text:
                    text_line(f"{counters['sub']}. ", child, addr)
                else:
                    lines.append(f"{counters['sub']}.")
            elif child.kind == "item":
                label = _ITEM_LETTERS[counters["item"]]
                counters["item"] += 1
                addr = f"{parent}({label})"
                addressed.append((addr, child))
                text_line(f"- ({label}) ", child, addr)
            else:
                counters["p"] += 1
                addr = f"{parent}.p{counters['p']}"
                addressed.append((addr, child))
                text_line("- " if child.kind == "dash" else "", child, addr)
            visit(child, addr)

    addressed.append((str(number), article))
    if article.text:
        text_line("", article, str(number))
    visit(article, str(number))
    return "\n".join(lines) + "\n", addressed


# ---------------------------------------------------------------------------
# The generator


class Generator:
    """Makes a base edition and its successors (see the module docstring)."""

    def __init__(self, seed: int = DEFAULT_SEED, lexicon: Lexicon | None = None, rates: Rates = DEFAULT_RATES) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.lex = lexicon or seed_lexicon()
        self.writer = _Writer(self.lex, self.rng)
        self.rates = rates
        self.next_uid = 0

    def uid(self) -> str:
        self.next_uid += 1
        return f"u{self.next_uid}"

    def node(self, kind: str, article: int, text: str = "", title: str = "") -> Node:
        uid = self.uid()
        return Node(uid, kind, title, text, origin=(), article=article)

    # -- the base edition ---------------------------------------------------------

    def base(self, articles: int, boilerplate: bool = False) -> list[Node]:
        if not boilerplate:
            return [self.article(n) for n in range(1, articles + 1)]
        # Every article in one article's wording (the case where no text is
        # found once, so identity cannot settle anything by content).
        first = self.article(1)
        return [first, *(self.clone(first, n) for n in range(2, articles + 1))]

    def clone(self, node: Node, article: int) -> Node:
        """A copy of ``node`` with new identities, in article ``article``."""
        copied = Node(self.uid(), node.kind, node.title, node.text, anchor=node.anchor, article=article)
        copied.children = [self.clone(c, article) for c in node.children]
        copied.notes = [self.clone(c, article) for c in node.notes]
        return copied

    def article(self, number: int) -> Node:
        rng, w = self.rng, self.writer
        art = self.node("article", number, title=w.title(number))
        budget = rng.randint(5, 20)
        if rng.random() < 0.12:
            # 1963 style: opening text, items (a), (b)..., maybe a closing paragraph.
            art.text = w.clause(number)
            items = max(2, min(budget - 2, 7))
            art.children = [
                self.node("item", number, w.clause(number, 1, lower=rng.random() < 0.5)) for _ in range(items)
            ]
            if rng.random() < 0.5:
                art.children.append(self.node("close", number, w.clause(number, 1)))
        else:
            if rng.random() < 0.2:
                art.text = w.clause(number)
                budget -= 1
            sections = rng.randint(2, 7)
            for s in range(sections):
                left = budget - sum(1 for n in art.walk() if n.text and n is not art)
                if left <= 0 and s >= 2:
                    break
                art.children.append(self.section(number, max(1, left // max(1, sections - s))))
        units = [n for n in art.walk() if n.text]
        for _ in range(sum(rng.random() < p for p in (0.3, 0.05))):
            owner = rng.choice(units)
            note = self.node("note", number, w.clause(number, 1))
            note.anchor = rng.randint(2, 12)
            owner.notes.append(note)
        return art

    def section(self, number: int, size: int) -> Node:
        rng, w = self.rng, self.writer
        sec = self.node("section", number, title=w.title(number))
        r = rng.random()
        if size <= 1 or r < 0.35:
            sec.text = w.clause(number)
        elif r < 0.45:
            sec.children = [self.node("dash", number, w.clause(number, 1)) for _ in range(rng.randint(2, 3))]
        elif r < 0.55:
            sec.text = w.clause(number, 1)
            sec.children = [
                self.node("item", number, w.clause(number, 1, lower=True)) for _ in range(rng.randint(2, 3))
            ]
        else:
            for _ in range(max(2, min(size, 5))):
                sub = self.node("sub", number)
                t = rng.random()
                if t < 0.8:
                    sub.text = w.clause(number)
                else:
                    if t < 0.92:
                        sub.text = w.clause(number, 1)
                    sub.children = [
                        self.node("item", number, w.clause(number, 1, lower=rng.random() < 0.5)) for _ in range(2)
                    ]
                sec.children.append(sub)
        return sec

    # -- successors -------------------------------------------------------------------

    def successor(self, old: list[Node]) -> tuple[list[Node], list[Edit]]:
        """The next edition: a copy of ``old`` with a fresh set of edits."""
        new = copy.deepcopy(old)
        for art in new:
            for n in art.walk():
                n.origin = (n.uid,) if n.text else ()
        ed = _Editing(self, new)
        ed.run()
        return new, ed.log

    # -- everything -------------------------------------------------------------------

    def generate(
        self, articles: int = FULL_ARTICLES, years: tuple[int, ...] = YEARS, boilerplate: bool = False
    ) -> Generated:
        """Editions of ``articles`` articles (``boilerplate``: all in the wording of the first)."""
        trees: list[list[Node]] = [self.base(articles, boilerplate)]
        logs: list[list[Edit]] = []
        for _ in years[1:]:
            tree, log = self.successor(trees[-1])
            trees.append(tree)
            logs.append(log)
        editions = [_edition(tree, year) for tree, year in zip(trees, years, strict=True)]
        transitions = []
        for k in range(1, len(trees)):
            transitions.append(_transition(editions[k - 1], editions[k], trees[k], logs[k - 1]))
        return Generated(self.seed, tuple(editions), tuple(transitions))


def _edition(tree: list[Node], year: int) -> GeneratedEdition:
    pages: list[tuple[str, str]] = []
    units: list[Unit] = []
    for number, art in enumerate(tree, start=1):
        text, addressed = render(art, number, year)
        pages.append((f"wiki-Sjabloon-{year}-{number:03d}.txt", text))
        units.extend(Unit(addr, node.text, node.uid) for addr, node in addressed if node.text)
    return GeneratedEdition(str(year), tuple(pages), tuple(units))


def _transition(old: GeneratedEdition, new: GeneratedEdition, tree: list[Node], log: list[Edit]) -> Transition:
    """The gold links: connected groups of the origin relation, in document order."""
    old_addr = {u.uid: u.address for u in old.units}
    new_addr = {u.uid: u.address for u in new.units}
    origin = {n.uid: n.origin for art in tree for n in art.walk() if n.text}
    old_kinds: dict[str, list[str]] = {}
    new_kinds: dict[str, list[str]] = {}
    for e in log:
        for a in e.old:
            old_kinds.setdefault(a, []).append(e.kind)
        for a in e.new:
            new_kinds.setdefault(a, []).append(e.kind)

    def edits(old_t: tuple[str, ...], new_t: tuple[str, ...]) -> tuple[str, ...]:
        found = [k for a in old_t for k in old_kinds.get(a, [])] + [k for a in new_t for k in new_kinds.get(a, [])]
        return tuple(dict.fromkeys(found))

    # old uid -> new uids
    succ: dict[str, list[str]] = {}
    for u in new.units:
        for o in origin[u.uid]:
            if o not in old_addr:
                raise AssertionError(f"{u.address} comes from {o}, which the old edition does not hold")
            succ.setdefault(o, []).append(u.uid)
    links: list[GoldLink] = []
    done_new: set[str] = set()
    for u in old.units:
        if u.uid in succ:
            news = succ[u.uid]
            if any(n in done_new for n in news):
                continue
            olds = list(dict.fromkeys(o for n in news for o in origin[n]))
            news = list(dict.fromkeys(n for o in olds for n in succ[o]))
            done_new.update(news)
            old_t = tuple(old_addr[o] for o in olds)
            new_t = tuple(new_addr[n] for n in news)
        else:
            old_t, new_t = (u.address,), ()
        links.append(GoldLink(old_t, new_t, edits(old_t, new_t)))
    for u in new.units:
        if not origin[u.uid]:
            links.append(GoldLink((), (u.address,), edits((), (u.address,))))
    return Transition(old.name, new.name, tuple(links), tuple(log))


def _below(art: Node, node: Node) -> Iterator[tuple[Node, Node, Node]]:
    """(article, parent, child) for every non-note node below ``node``, in document order."""
    for child in node.children:
        yield art, node, child
        yield from _below(art, child)


class _Chained(Sequence[tuple[Node, Node, Node]]):
    """Lists read as one, without copying them (what :meth:`_Editing.pick` draws from)."""

    def __init__(self, lists: list[list[tuple[Node, Node, Node]]]) -> None:
        self.lists = lists
        self.ends = list(itertools.accumulate(len(x) for x in lists))

    def __len__(self) -> int:
        return self.ends[-1] if self.ends else 0

    @overload
    def __getitem__(self, i: int) -> tuple[Node, Node, Node]: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[Node, Node, Node]]: ...
    def __getitem__(self, i: int | slice) -> tuple[Node, Node, Node] | Sequence[tuple[Node, Node, Node]]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if not 0 <= i < len(self):
            raise IndexError(i)
        k = bisect.bisect_right(self.ends, i)
        return self.lists[k][i - (self.ends[k - 1] if k else 0)]


class _Editing:
    """One round of edits on a copied tree (one successor edition)."""

    def __init__(self, gen: Generator, tree: list[Node]) -> None:
        self.gen = gen
        self.rng = gen.rng
        self.w = gen.writer
        self.tree = tree
        self.touched: set[str] = set()  # uids that a structural edit has used
        self.log: list[Edit] = []
        self.pending: list[tuple[str, list[Node], list[Node], str]] = []
        self.units_count = sum(1 for art in tree for n in art.walk() if n.text)
        self.before: dict[str, str] = {}
        # What each edit may pick, per article (by id): see pick().
        self.candidates: dict[str, dict[int, list[tuple[Node, Node, Node]]]] = {}

    # -- helpers --------------------------------------------------------------------

    def count(self, rate: float) -> int:
        return round(rate * self.units_count)

    def parents(self) -> Iterator[tuple[Node, Node, Node]]:
        """(article, parent, child) for every non-note node below an article, in document order."""
        for art in self.tree:
            yield from _below(art, art)

    def changed(self, *articles: Node) -> None:
        """An edit changed these articles: what they offer to pick is listed again."""
        for cached in self.candidates.values():
            for art in articles:
                cached.pop(id(art), None)

    def free(self, node: Node) -> bool:
        return all(n.uid not in self.touched for n in node.walk())

    def touch(self, node: Node) -> None:
        for n in node.walk():
            self.touched.add(n.uid)

    def record(self, kind: str, old: list[Node], new: list[Node], detail: str = "") -> None:
        # Addresses are read at the end, when every edit is done.
        self.pending.append((kind, old, new, detail))

    def light(self, text: str, article: int) -> str:
        """An edit of up to ``light_max`` of the words, half of the time."""
        if self.rng.random() < 0.5:
            return text
        return self.w.rewrite(text, self.rng.uniform(0.0, self.gen.rates.light_max), article)

    def fresh(self, kind: str, article: int, text: str) -> Node:
        node = self.gen.node(kind, article, text)
        self.touched.add(node.uid)
        return node

    # -- the round ------------------------------------------------------------------

    def run(self) -> None:
        r = self.gen.rates
        # Snapshot of old addresses, by uid, before anything moves.
        self.before = self._addresses()
        self.swaps(r.swap)
        self.number_lists(r.number_list)
        self.repeat(self.move, self.count(r.move))
        self.repeat(self.split, self.count(r.split))
        self.repeat(self.split_reworded, self.count(r.split_reworded))
        self.repeat(self.merge, self.count(r.merge))
        self.repeat(self.remove, self.count(r.remove))
        self.repeat(self.replace, self.count(r.replace))
        self.repeat(self.add, self.count(r.add))
        self.rewrites(self.count(r.rewrite))
        after = self._addresses()
        for kind, old, new, detail in self.pending:
            self.log.append(
                Edit(
                    kind,
                    tuple(self.before[n.uid] for n in old if n.uid in self.before),
                    tuple(after[n.uid] for n in new if n.uid in after),
                    detail,
                )
            )

    def _addresses(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for number, art in enumerate(self.tree, start=1):
            for addr, node in render(art, number, 0)[1]:
                if node.text:
                    out[node.uid] = addr
        return out

    def repeat(self, edit: Callable[[], bool], times: int) -> None:
        made = tries = 0
        while made < times and tries < times * 20:
            tries += 1
            if edit():
                made += 1

    def pick(self, edit: str, ok: Callable[[Node, Node, Node], bool]) -> tuple[Node, Node, Node] | None:
        """One of the (article, parent, node) that ``ok`` accepts, drawn from all of them in document order.

        The candidates are kept per article and listed again only in the
        articles an edit changed (:meth:`changed`), rather than all of them
        for every edit, which made the generator quadratic; ``ok`` looks only
        at its article, and the draw is the one the full list would give.
        """
        cached = self.candidates.setdefault(edit, {})
        lists: list[list[tuple[Node, Node, Node]]] = []
        for art in self.tree:
            found = cached.get(id(art))
            if found is None:
                found = cached[id(art)] = [t for t in _below(art, art) if ok(*t)]
            lists.append(found)
        cands = _Chained(lists)
        return self.rng.choice(cands) if len(cands) else None

    # -- structural edits ---------------------------------------------------------

    def swaps(self, rate: float) -> None:
        """Two adjacent sections exchange their letters (53B <-> 53C in 2017)."""
        arts = [a for a in self.tree if sum(c.kind == "section" for c in a.children) >= 3]
        for art in self.rng.sample(arts, max(1, round(rate * len(arts)))) if arts else []:
            secs = [i for i, c in enumerate(art.children) if c.kind == "section"]
            k = self.rng.randrange(len(secs) - 1)
            i, j = secs[k], secs[k + 1]
            a, b = art.children[i], art.children[j]
            if not (self.free(a) and self.free(b)):
                continue
            art.children[i], art.children[j] = b, a
            self.changed(art)
            self.record(
                "swap", [n for n in (*a.walk(), *b.walk()) if n.text], [n for n in (*a.walk(), *b.walk()) if n.text]
            )

    def number_lists(self, rate: float) -> None:
        """Unnumbered list items become numbered subsections (45E.p1 -> 45E1)."""
        for art, _, sec in list(self.parents()):
            lists = sec.kind == "section" and bool(sec.children) and all(c.kind == "dash" for c in sec.children)
            if lists and self.rng.random() < rate and self.free(sec):
                for c in sec.children:
                    c.kind = "sub"
                self.changed(art)
                self.record("number-list", list(sec.children), list(sec.children))

    def move(self) -> bool:
        """A section (with what it holds) or a subsection goes to another article."""
        rng = self.rng

        def ok(art: Node, parent: Node, node: Node) -> bool:
            if not self.free(node) or not any(n.text for n in node.walk()):
                return False
            if node.kind == "section":
                return sum(c.kind == "section" for c in art.children) >= 3
            if node.kind == "sub":
                return node.is_leaf and len(parent.children) >= 3
            return False

        hit = self.pick("move", ok)
        if hit is None:
            return False
        art, parent, node = hit
        if node.kind == "section":
            dests = [a for a in self.tree if a is not art and a.children and a.children[0].kind == "section"]
            if not dests:
                return False
            dest = rng.choice(dests)
            parent.children.remove(node)
            dest.children.append(node)
            self.changed(art, dest)
        else:
            sections = [
                (a, s)
                for a in self.tree
                if a is not art
                for s in a.children
                if s.kind == "section" and s.children and all(c.kind == "sub" for c in s.children)
            ]
            if not sections:
                return False
            dest_art, dest = rng.choice(sections)
            parent.children.remove(node)
            dest.children.append(node)
            self.changed(art, dest_art)
        for n in node.walk():
            if n.text:
                n.text = self.light(n.text, n.article)
        self.touch(node)
        self.record(
            "move", [n for n in node.walk() if n.text], [n for n in node.walk() if n.text], "to another article"
        )
        return True

    def split(self) -> bool:
        """A clause's text is split at a sentence boundary into adjacent clauses."""
        rng = self.rng

        def ok(art: Node, parent: Node, node: Node) -> bool:
            return (
                self.free(node)
                and node.is_leaf
                and not node.notes
                and node.kind in ("section", "sub", "item", "dash")
                and len(_sentences(node.text)) >= 2
            )

        hit = self.pick("split", ok)
        if hit is None:
            return False
        art, parent, node = hit
        self.changed(art)
        sents = _sentences(node.text)
        ways = 3 if len(sents) >= 4 and rng.random() < 0.2 else 2
        cuts = sorted(rng.sample(range(1, len(sents)), ways - 1))
        bounds = [0, *cuts, len(sents)]
        texts = [self.light(" ".join(sents[a:b]), node.article) for a, b in itertools.pairwise(bounds)]
        pieces = self.pieces_of(parent, node, texts)
        self.record("split", [node], pieces, f"{ways} pieces")
        return True

    def pieces_of(self, parent: Node, node: Node, texts: list[str]) -> list[Node]:
        """``node`` split into one new clause per text, each coming from it: a section's text becomes its
        subsections (2007 45D -> 2017 45D1 + 45D2), any other clause is replaced by its pieces."""
        if node.kind == "section":
            pieces = [self.fresh("sub", node.article, t) for t in texts]
            node.text = ""
            node.origin = ()
            node.children = pieces
        else:
            pieces = [self.fresh(node.kind, node.article, t) for t in texts]
            at = parent.children.index(node)
            parent.children[at : at + 1] = pieces
        for p in pieces:
            p.origin = (node.uid,)
        self.touch(node)
        return pieces

    def split_reworded(self) -> bool:
        """A clause of 2-5 sentences whose sentences go to 2-5 new clauses, some reordered, each reworded."""
        rng = self.rng
        r = self.gen.rates

        def ok(art: Node, parent: Node, node: Node) -> bool:
            return (
                self.free(node)
                and node.is_leaf
                and not node.notes
                and node.kind in ("section", "sub", "item", "dash")
                and 2 <= len(_sentences(node.text)) <= 5
            )

        hit = self.pick("split-reworded", ok)
        if hit is None:
            return False
        art, parent, node = hit
        self.changed(art)
        sents = _sentences(node.text)
        ways = rng.randint(2, len(sents))
        cuts = sorted(rng.sample(range(1, len(sents)), ways - 1))
        bounds = [0, *cuts, len(sents)]
        parts = [" ".join(sents[a:b]) for a, b in itertools.pairwise(bounds)]
        if rng.random() < 0.5:
            rng.shuffle(parts)
        texts = [self.w.reword(t, rng.uniform(r.reword_min, r.reword_max), node.article) for t in parts]
        pieces = self.pieces_of(parent, node, texts)
        self.record("split-reworded", [node], pieces, f"{ways} pieces")
        return True

    def merge(self) -> bool:
        """Two adjacent clauses become one (or a section's two subsections its text)."""
        rng = self.rng

        def ok(art: Node, parent: Node, node: Node) -> bool:
            if not (self.free(node) and node.is_leaf and not node.notes and node.kind in ("sub", "item", "dash")):
                return False
            at = parent.children.index(node)
            if at + 1 >= len(parent.children):
                return False
            nxt = parent.children[at + 1]
            return nxt.kind == node.kind and nxt.is_leaf and not nxt.notes and self.free(nxt) and bool(nxt.text)

        hit = self.pick("merge", ok)
        if hit is None or not hit[2].text:
            return False
        art, parent, node = hit
        self.changed(art)
        at = parent.children.index(node)
        nxt = parent.children[at + 1]
        text = self.light(node.text + " " + nxt.text, node.article)
        if parent.kind == "section" and len(parent.children) == 2 and not parent.text and rng.random() < 0.5:
            # The mirror of 45D -> 45D1 + 45D2: the two subsections become the section's text.
            parent.children = []
            parent.text = text
            parent.origin = (node.uid, nxt.uid)
            self.touched.add(parent.uid)
            merged = parent
        else:
            merged = self.fresh(node.kind, node.article, text)
            merged.origin = (node.uid, nxt.uid)
            parent.children[at : at + 2] = [merged]
        self.touch(node)
        self.touch(nxt)
        self.record("merge", [node, nxt], [merged])
        return True

    def remove(self) -> bool:
        """A clause is dropped (the ones after it are renumbered)."""

        def ok(art: Node, parent: Node, node: Node) -> bool:
            if not (self.free(node) and node.is_leaf and node.text):
                return False
            if node.kind == "section":
                return sum(c.kind == "section" for c in parent.children) >= 3
            if node.kind == "close":
                return True
            return len(parent.children) >= 3 or bool(parent.text)

        hit = self.pick("remove", ok)
        if hit is None:
            return False
        art, parent, node = hit
        self.changed(art)
        parent.children.remove(node)
        self.touch(node)
        self.record("remove", [n for n in node.walk() if n.text], [])
        return True

    def replace(self) -> bool:
        """Same place, new subject (2007 23 vs 2017 23): the old text goes, a new one comes."""

        def ok(art: Node, parent: Node, node: Node) -> bool:
            return self.free(node) and node.is_leaf and not node.notes and bool(node.text) and node.kind != "close"

        hit = self.pick("replace", ok)
        if hit is None:
            return False
        art, parent, node = hit
        self.changed(art)
        sentences = len(_sentences(node.text))
        new = self.fresh(node.kind, node.article, self.w.clause(node.article, sentences, lower=node.text[:1].islower()))
        new.title = self.w.title(node.article) if node.kind == "section" else ""
        parent.children[parent.children.index(node)] = new
        self.touch(node)
        self.record("replace", [node], [new])
        return True

    def add(self) -> bool:
        """A new clause; a new section in mid-article re-letters the ones after it."""
        rng = self.rng
        if rng.random() < self.gen.rates.add_section:
            arts = [a for a in self.tree if sum(c.kind == "section" for c in a.children) >= 2]
            if not arts:
                return False
            art = rng.choice(arts)
            secs = [i for i, c in enumerate(art.children) if c.kind == "section"]
            if len(secs) >= 25:
                return False
            at = rng.choice([*secs[1:], secs[-1] + 1])
            node = self.fresh("section", art.article, self.w.clause(art.article))
            node.title = self.w.title(art.article)
            art.children.insert(at, node)
            self.changed(art)
            self.record("add-section", [], [node])
            return True

        def ok(art: Node, parent: Node, node: Node) -> bool:
            return node.kind in ("sub", "item", "dash") and self.free(node)

        hit = self.pick("add", ok)
        if hit is None:
            return False
        art, parent, node = hit
        self.changed(art)
        text = self.w.clause(
            node.article, 0 if node.kind == "sub" else 1, lower=node.kind == "item" and rng.random() < 0.5
        )
        new = self.fresh(node.kind, node.article, text)
        at = parent.children.index(node) + rng.randint(0, 1)
        parent.children.insert(at, new)
        self.record("add", [], [new])
        return True

    def rewrites(self, times: int) -> None:
        """Word-level rewrites of 5-30% of the words, as a new translation would make."""
        cands = [n for art in self.tree for n in art.walk() if n.text and n.uid not in self.touched]
        r = self.gen.rates
        for node in self.rng.sample(cands, min(times, len(cands))):
            share = self.rng.uniform(r.rewrite_min, r.rewrite_max)
            node.text = self.w.rewrite(node.text, share, node.article)
            self.touched.add(node.uid)
            self.record("rewrite", [node], [node], f"{share:.0%} of the words")


# ---------------------------------------------------------------------------
# Files


def generate(
    articles: int = FULL_ARTICLES,
    years: tuple[int, ...] = YEARS,
    seed: int = DEFAULT_SEED,
    rates: Rates = DEFAULT_RATES,
    lexicon: Lexicon | None = None,
    boilerplate: bool = False,
) -> Generated:
    """Editions of ``articles`` articles for ``years``, with their gold alignments.

    ``boilerplate``: every article starts from the first article's wording.
    """
    return Generator(seed, lexicon, rates).generate(articles, years, boilerplate)


def write(generated: Generated, folder: Path) -> list[Path]:
    """Write every page as ``<folder>/<year>/wiki-Sjabloon-<year>-<n>.txt``."""
    out: list[Path] = []
    for edition in generated.editions:
        sub = folder / edition.name
        sub.mkdir(parents=True, exist_ok=True)
        for name, text in edition.pages:
            path = sub / name
            path.write_text(text, encoding="utf-8")
            out.append(path)
    return out


def flatten(edition: GeneratedEdition) -> str:
    """The edition as one plain text, as a user would diff it: the pages' lines without their titles."""
    lines: list[str] = []
    for _, text in edition.pages:
        lines.extend(text.splitlines()[1:])
    return "\n".join(lines) + "\n"


def kinds_of(
    old: tuple[str, ...], new: tuple[str, ...], old_text: Mapping[str, str], new_text: Mapping[str, str]
) -> tuple[str, ...]:
    """What an alignment group is, read from its shape: the same test for gold and prediction.

    ``added``, ``removed``, ``split`` (one to several), ``merged`` (several to
    one), ``tangle`` (several to several); for one to one: ``moved`` (other
    article) or ``renumbered`` (other address), ``rewritten`` (other text), or
    ``unchanged``.
    """
    if not old:
        return ("added",)
    if not new:
        return ("removed",)
    if len(old) > 1 and len(new) > 1:
        return ("tangle",)
    if len(new) > 1:
        return ("split",)
    if len(old) > 1:
        return ("merged",)
    tags: list[str] = []
    if _article(old[0]) != _article(new[0]):
        tags.append("moved")
    elif old[0] != new[0]:
        tags.append("renumbered")
    if old_text.get(old[0]) != new_text.get(new[0]):
        tags.append("rewritten")
    return tuple(tags) or ("unchanged",)


def _article(address: str) -> str:
    m = re.match(r"\d+", address)
    return m.group(0) if m else ""
