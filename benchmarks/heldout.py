"""Held-out corpora for ``bench_cost.py`` (issue 26), made from the bundled corpus's seed article alone.

Not the repository's generator (``generate.py``, on whose editions the aligner's thresholds and the
certainty model were tuned): :func:`build_corpus` copies the seed article (2007 article 45, a wiki
page) into N articles, each with its own forms of about half of the seed's content words (made-up
compounds, the same form wherever the word stands in the article), and makes each next edition
from the one before by editing words of some of its lines:

* ``few``: about one line in seven changed per edition (5-15 % of its plain words replaced by
  another word of the article, deleted, or with a word inserted before them), as a new edition of a
  law mostly keeps it;
* ``many``: nearly every line changed (19 lines in 20, the same share of their words);
* ``identical``: two editions (2007, 2017) with the same pages.

Markers, numbers and brackets are never edited, and each article's heading line (``ARTIKEL n ...``)
stays, so every edition reads back whole.  The same arguments give the same bytes (every draw
comes from a ``random.Random`` seeded by a string).

Usage::

    from heldout import build_corpus            # with benchmarks/ on sys.path
    held = build_corpus(Path("/tmp/x"), articles=186, kind="few")
    held.corpus                                 # /tmp/x/corpus, a corpus folder (<year>/<pages>)
    held.flat["2017"]                           # the edition flattened to lines, for difflib
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED_PAGE = ROOT / "corpus" / "2007" / "wiki-Sjabloon-2007-45.txt"
SEED_ARTICLE = "45"
YEARS = ("1987", "1997", "2007", "2017")
DEFAULT_ARTICLES = 186
DEFAULT_SEED = 26

# Share of an article's distinct content words that get a form of their own in that article, so that
# no two articles read alike (real articles each have their own subject and words).
VARY_WORDS = 0.5
# Share of the lines of an edition changed in the next one, and the range of the share of a changed
# line's words edited, per kind of corpus.
RATES: dict[str, tuple[float, tuple[float, float]]] = {
    "few": (1 / 7, (0.05, 0.15)),
    "many": (0.95, (0.05, 0.15)),
}

# A plain word (no digit, bracket or marker), with the sentence sign after it kept apart.
_PLAIN = re.compile(r"^([A-Za-zÀ-ÿ]+)([,.;:]?)$")
_SYLLABLES = ("ver", "kor", "del", "stap", "mo", "ren", "gel", "ont", "bor", "lin", "tra", "sum")


@dataclass(frozen=True)
class HeldOut:
    """A corpus written by :func:`build_corpus`: its folder, its editions, each flattened to lines."""

    corpus: Path
    years: tuple[str, ...]
    flat: dict[str, Path]

    def edition(self, year: str) -> Path:
        return self.corpus / year


def seed_lines() -> list[str]:
    """The seed article's lines, its page title left out."""
    return SEED_PAGE.read_text(encoding="utf-8").splitlines()[1:]


def _made_word(rng: random.Random, word: str) -> str:
    """An article's own form of a seed word: a made-up compound, its capital kept."""
    form = rng.choice(_SYLLABLES) + rng.choice(_SYLLABLES) + word.lower()
    return form.capitalize() if word[:1].isupper() else form


def article_lines(number: int, seed: int, lines: Sequence[str]) -> list[str]:
    """The seed article as article ``number``: its numbers, and about half of its content words
    (six letters or more) in forms of its own, the same form wherever the word stands."""
    rng = random.Random(f"{seed}:article:{number}")
    forms: dict[str, str] = {}
    out: list[str] = []
    for line in lines:
        line = re.sub(rf"\b(ARTIKEL|artikel) {SEED_ARTICLE}\b", rf"\g<1> {number}", line)
        tokens = line.split(" ")
        for i, tok in enumerate(tokens):
            m = _PLAIN.match(tok)
            if not m or len(m.group(1)) < 6:
                continue
            word = m.group(1)
            if word not in forms:
                forms[word] = _made_word(rng, word) if rng.random() < VARY_WORDS else word
            tokens[i] = forms[word] + m.group(2)
        out.append(" ".join(tokens))
    return out


def edit_line(line: str, share: float, rng: random.Random, vocabulary: Sequence[str]) -> str:
    """``line`` with about ``share`` of its plain words edited (a third replaced by another word of the
    article, a third deleted, a third with a word inserted before it); its first word (a marker or a
    sentence's capital) and every number, bracket and marker kept.  A line with no plain word is kept."""
    tokens = line.split(" ")
    plain = [i for i, tok in enumerate(tokens) if i > 0 and _PLAIN.match(tok)]
    if not plain:
        return line
    chosen = sorted(rng.sample(plain, max(1, round(len(plain) * share))), reverse=True)
    for i in chosen:
        m = _PLAIN.match(tokens[i])
        assert m is not None
        what = rng.randrange(3)
        if what == 0 or (what == 1 and m.group(2)):
            tokens[i] = rng.choice(vocabulary) + m.group(2)
        elif what == 1:
            del tokens[i]
        else:
            tokens.insert(i, rng.choice(vocabulary))
    return " ".join(tokens)


def _vocabulary(lines: Sequence[str]) -> list[str]:
    seen: dict[str, None] = {}
    for line in lines:
        for tok in line.split(" "):
            m = _PLAIN.match(tok)
            if m and len(m.group(1)) >= 4:
                seen.setdefault(m.group(1).lower())
    return list(seen)


def next_edition(articles: list[list[str]], kind: str, rng: random.Random) -> list[list[str]]:
    """The next edition: each line changed with the chance of ``kind`` (``RATES``)."""
    rate, (low, high) = RATES[kind]
    out: list[list[str]] = []
    for lines in articles:
        vocabulary = _vocabulary(lines)
        out.append(
            [
                # The article's heading line (ARTIKEL n) stays, so that the article keeps its number.
                edit_line(line, rng.uniform(low, high), rng, vocabulary) if j > 0 and rng.random() < rate else line
                for j, line in enumerate(lines)
            ]
        )
    return out


def page_name(year: str, number: int) -> str:
    return f"wiki-Sjabloon-{year}-{number}.txt"


def write_edition(folder: Path, year: str, articles: list[list[str]]) -> Path:
    """Write an edition's pages as ``<folder>/<year>/wiki-Sjabloon-<year>-<n>.txt``, and its flat text
    beside (``<folder>/flat-<year>.txt``); the flat file's path."""
    sub = folder / "corpus" / year
    sub.mkdir(parents=True, exist_ok=True)
    flat: list[str] = []
    for number, lines in enumerate(articles, start=1):
        (sub / page_name(year, number)).write_text(
            f"Sjabloon:{year}:{number}\n" + "\n".join(lines) + "\n", encoding="utf-8"
        )
        flat.extend(lines)
    path = folder / f"flat-{year}.txt"
    path.write_text("\n".join(flat) + "\n", encoding="utf-8")
    return path


def build_corpus(
    folder: Path, articles: int = DEFAULT_ARTICLES, kind: str = "few", seed: int = DEFAULT_SEED
) -> HeldOut:
    """Write a held-out corpus under ``folder`` (``folder/corpus/<year>/`` and ``folder/flat-<year>.txt``).

    ``kind`` is ``few`` or ``many`` (four editions, ``YEARS``, each the one before with the edits of
    ``RATES[kind]``) or ``identical`` (two editions, 2007 and 2017, the same pages).  The same
    arguments give the same bytes.
    """
    if kind not in (*RATES, "identical"):
        raise ValueError(f"unknown kind of corpus: {kind!r}")
    seeds = seed_lines()
    edition = [article_lines(n, seed, seeds) for n in range(1, articles + 1)]
    rng = random.Random(f"{seed}:{kind}:{articles}")
    years = ("2007", "2017") if kind == "identical" else YEARS
    flat: dict[str, Path] = {}
    for k, year in enumerate(years):
        if k and kind != "identical":
            edition = next_edition(edition, kind, rng)
        flat[year] = write_edition(folder, year, edition)
    return HeldOut(folder / "corpus", years, flat)


def change_one_page(held: HeldOut, article: int) -> tuple[Path, str, str]:
    """The newest edition's page of ``article``, its text, and that text with one clause's words changed
    (as a committee member edits a page)."""
    page = held.edition(held.years[-1]) / page_name(held.years[-1], article)
    original = page.read_text(encoding="utf-8")
    lines = original.split("\n")
    at = next(i for i, line in enumerate(lines) if i > 2 and len(line.split()) > 8)
    lines[at] = lines[at].replace(" de ", " die ", 1) + " (gewijzigd)"
    return page, original, "\n".join(lines)
