"""Property-based tests of every reader (hypothesis), on mutations of the bundled corpus.

For any input, a reader either reads it, and the lossless check accounts for
every word of what it read (placed, or reported as unplaced: never dropped),
or it refuses it with :class:`lawdiff.errors.InputError`; never another
exception, and never past a time bound.  The inputs are the seed files with
a few hostile edits (markup, labels, entities, odd white space, huge numbers,
cut and doubled spans), which reach far deeper into the readers than random
bytes would.  The budget is fixed and the examples derandomized, so that the
suite stays fast and repeatable; ``benchmarks/fuzz.py`` runs the same
properties for longer, at random.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lawdiff.corpus import from_pages
from lawdiff.corpus.account import tokens
from lawdiff.corpus.dangling import dangling_references
from lawdiff.errors import InputError
from lawdiff.report.check_text import check as check_text
from lawdiff.report.text import outline
from lawdiff.sources import read_text

ROOT = Path(__file__).resolve().parents[1]
WIKI_SEEDS = sorted((ROOT / "corpus").glob("*/wiki-*.txt"))
PAYLOAD_SEEDS = sorted((ROOT / "corpus").glob("*/*.payload.json"))
XML_SEEDS = sorted((ROOT / "tests" / "fixtures" / "mediawiki").glob("*.xml"))

# Per input, in CPU seconds of this process: generous (a seed reads in a few hundredths of a second).
SECONDS = 5.0
BUDGET = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Pieces of markup and text that the readers must take apart, or refuse.
HOSTILE = [
    *("<ref>", "<ref ", "</ref>", "<ref name=a/>", "<references/>", "{{", "}}", "{{{1}}}", "[[", "]]", "|"),
    *("'''", "''", "&nbsp;", "&amp;", "&#233;", "&foo;", "<br>", "</br>", "----", "{|", "|}", "|-", "<!--", "-->"),
    *("<noinclude>", "</noinclude>", "<onlyinclude>", "__NOTOC__", "[http://a b]", "=", "==", "*", "#", ":"),
    *("\n", "\n\n", " 1) ", "1) ", "¹⁾", " w 1) ", "A. ", "B. ", "1. ", "(a) ", "a. ", "- ", "ARTIKEL 45 "),
    *("Artikel 45", "Sjabloon:2007:45", "Sjabloon:2007@x:45", "{{template:2007:45A|45A}}", "\t", "\r\n"),
    *("\u0085", "\u001f", "\u1680", "\u00a0", "\ufeff", "\u200b", "é", "⁾", "9" * 40, "9" * 5000),
]

_PIECE = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=12))
# An edit: (what, where as a share of the text, how much, a piece).
_EDIT = st.tuples(
    st.sampled_from(["insert", "delete", "duplicate", "replace", "truncate"]),
    st.floats(min_value=0.0, max_value=1.0),
    st.integers(min_value=1, max_value=400),
    _PIECE,
)


def _mutate(text: str, edits: list[tuple[str, float, int, str]], escape: bool = False) -> str:
    for what, share, size, piece in edits:
        if escape:
            piece = piece.replace("&", "&amp;").replace("<", "&lt;")
        at = int(share * len(text))
        if what == "insert":
            text = text[:at] + piece + text[at:]
        elif what == "delete":
            text = text[:at] + text[at + size :]
        elif what == "duplicate":
            text = text[:at] + text[at : at + size] * 2 + text[at + size :]
        elif what == "replace":
            text = text[:at] + piece + text[at + size :]
        else:
            text = text[: max(at, 1)]
    return text


def run(text: str, file: str) -> None:
    """The property: read, build, account and render the check; or an InputError. Within the bound."""
    start = time.process_time()
    try:
        corpus = from_pages(read_text(text, file))
        dangling = [d for e in corpus.editions for d in dangling_references(e)]
        # What the commands print must be text that can be written out.
        check_text(corpus, dangling).encode("utf-8")
        for edition in corpus.listing():
            outline(edition).encode("utf-8")
    except InputError as exc:
        assert exc.file or exc.place or exc.what, "an InputError says where or what"
        return
    finally:
        assert time.process_time() - start < SECONDS
    for c in corpus.checks:
        lost = sum(len(tokens(u.text)) for u in c.unplaced)
        # Every word read is placed or reported: none is dropped, none counted twice.
        assert c.placed + lost == c.tokens, (c.page, c.placed, lost, c.tokens)
        assert 0 <= c.placed <= c.tokens


# ---------------------------------------------------------------------------
# Wiki text pages


@BUDGET
@given(seed=st.sampled_from(WIKI_SEEDS), edits=st.lists(_EDIT, min_size=1, max_size=5))
def test_wiki_text_reader(seed: Path, edits: list[tuple[str, float, int, str]]) -> None:
    text = seed.read_text(encoding="utf-8")
    title, _, body = text.partition("\n")
    # The title line is kept in most examples, so that the page is read at all.
    run(title + "\n" + _mutate(body, edits), seed.name)


WIKI_2007 = ROOT / "corpus" / "2007" / "wiki-Sjabloon-2007-45.txt"


# The mutation campaign's findings on this reader, always tried first.
@BUDGET
@example(seed=WIKI_2007, edits=[("replace", 0.0, 16, "Sjabloon:2007:" + "9" * 5000)])
@example(seed=WIKI_2007, edits=[("replace", 0.0, 16, "Sjabloon:2007@x:45")])
@given(seed=st.sampled_from(WIKI_SEEDS), edits=st.lists(_EDIT, min_size=1, max_size=3))
def test_wiki_text_reader_whole_file(seed: Path, edits: list[tuple[str, float, int, str]]) -> None:
    run(_mutate(seed.read_text(encoding="utf-8"), edits), seed.name)


# ---------------------------------------------------------------------------
# MediaWiki XML exports


def _inside_text(xml: str, edits: list[tuple[str, float, int, str]]) -> str:
    """Edits to the wikitext of the exports' pages (escaped, so that the XML stays well formed)."""
    parts = xml.split('xml:space="preserve">')
    for i in range(1, len(parts)):
        body, sep, rest = parts[i].partition("</text>")
        parts[i] = _mutate(body, edits[i % len(edits) :: 3] or edits[:1], escape=True) + sep + rest
    return 'xml:space="preserve">'.join(parts)


@BUDGET
@given(seed=st.sampled_from(XML_SEEDS), edits=st.lists(_EDIT, min_size=1, max_size=6))
def test_mediawiki_reader_wikitext(seed: Path, edits: list[tuple[str, float, int, str]]) -> None:
    run(_inside_text(seed.read_text(encoding="utf-8"), edits), seed.name)


@BUDGET
@given(seed=st.sampled_from(XML_SEEDS), edits=st.lists(_EDIT, min_size=1, max_size=3))
def test_mediawiki_reader_raw(seed: Path, edits: list[tuple[str, float, int, str]]) -> None:
    # Unescaped: broken XML, entities, stray elements in <text>.
    run(_mutate(seed.read_text(encoding="utf-8"), edits), seed.name)


# ---------------------------------------------------------------------------
# Nuxt payloads (devalue + minimark)

_JSON_VALUE = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-8, max_value=2000),
        st.sampled_from(HOSTILE),
        st.text(max_size=10),
        st.sampled_from([10**40, -(10**40), 1.5, "\ud800", "Artikel 45", "Date", "Set", "Map", "ShallowReactive"]),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=10,
)


def _mutate_payload(data: list[Any], changes: list[tuple[float, Any]]) -> str:
    for share, value in changes:
        index = int(share * (len(data) - 1))
        data[index] = value
    return json.dumps(data)


PAYLOAD_6 = ROOT / "corpus" / "2017" / "nuxt-artikel-6.payload.json"


def _share_of(seed: Path, value: str) -> float:
    """The share that picks the element holding ``value`` (as _mutate_payload reads shares)."""
    data = json.loads(seed.read_text(encoding="utf-8"))
    return (data.index(value) + 0.5) / (len(data) - 1)


@BUDGET
@example(seed=PAYLOAD_6, changes=[(_share_of(PAYLOAD_6, "Artikel 6 — Het schudden en geven"), "Artikel 6 — \ud800")])
@given(
    seed=st.sampled_from(PAYLOAD_SEEDS),
    changes=st.lists(st.tuples(st.floats(min_value=0.0, max_value=1.0), _JSON_VALUE), min_size=1, max_size=4),
)
def test_nuxt_reader_elements(seed: Path, changes: list[tuple[float, Any]]) -> None:
    data = json.loads(seed.read_text(encoding="utf-8"))
    run(_mutate_payload(data, changes), seed.name)


@BUDGET
@given(
    seed=st.sampled_from(PAYLOAD_SEEDS),
    changes=st.lists(st.tuples(st.floats(min_value=0.0, max_value=1.0), _PIECE), min_size=1, max_size=4),
)
def test_nuxt_reader_strings(seed: Path, changes: list[tuple[float, str]]) -> None:
    """Hostile text in the payload's strings: the body's text nodes, titles, paths."""
    data = json.loads(seed.read_text(encoding="utf-8"))
    strings = [i for i, v in enumerate(data) if isinstance(v, str)]
    for share, piece in changes:
        i = strings[int(share * (len(strings) - 1))]
        data[i] = data[i][: len(data[i]) // 2] + piece + data[i][len(data[i]) // 2 :]
    run(json.dumps(data), seed.name)


@BUDGET
@example(seed=PAYLOAD_6, edits=[("insert", 0.0, 1, "[" * 10_000)])
@example(seed=PAYLOAD_6, edits=[("replace", 0.0, 1, "[" + "9" * 5000 + ",")])
@given(seed=st.sampled_from(PAYLOAD_SEEDS), edits=st.lists(_EDIT, min_size=1, max_size=3))
def test_nuxt_reader_raw(seed: Path, edits: list[tuple[str, float, int, str]]) -> None:
    run(_mutate(seed.read_text(encoding="utf-8"), edits), seed.name)
