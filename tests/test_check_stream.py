"""``lawdiff check`` page by page: the same report as the full corpus gives, from outlines.

The reference everywhere is the full way (``lawdiff.corpus.load``, then
``dangling_references`` on every edition), rendered by the same renderers:
the page-by-page check must give the same bytes, on the bundled corpus, on
each fixture, and on corpora built here for the cases its merge mirrors
(several files per edition, two sources of a year, dangling references) and
the cases it hands to the full way (a conflict, an amendment).
"""

from __future__ import annotations

import gc
import re
import shutil
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from lawdiff.cache import Cache
from lawdiff.cli import main
from lawdiff.corpus import dangling_references, load
from lawdiff.corpus.account import _KIND_OF_BYTE, _WIDE, _covered, _latin1_kinds, count_tokens, tokens
from lawdiff.corpus.check import check
from lawdiff.corpus.outline import _FOOTNOTE, _TEXT, outline
from lawdiff.model import normalize_address
from lawdiff.model import references as references_module
from lawdiff.model.references import find_references
from lawdiff.report import check_text, jsonout
from lawdiff.sources import read_file
from lawdiff.sources.build import Draft, build_page, page_strings
from lawdiff.sources.normalize import normalize_inline

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "corpus"
FIXTURES = ROOT / "tests" / "fixtures"

sys.path.insert(0, str(Path(__file__).parent))
from test_versions import amendment_corpus  # noqa: E402


def full_way(paths: list[Path]) -> tuple[str, str]:
    """What check printed before it read page by page: the whole corpus, then its editions' dangling references."""
    corpus = load(paths)
    dangling = [d for e in corpus.editions for d in dangling_references(e)]
    return check_text.check(corpus, dangling, skipped=corpus.skipped), jsonout.check(corpus, dangling)


def page_by_page(paths: list[Path], cache: Cache | None = None) -> tuple[str, str]:
    corpus, dangling = check(paths, cache)
    return check_text.check(corpus, dangling, skipped=corpus.skipped), jsonout.check(corpus, dangling)


def corpora() -> list[tuple[str, list[Path]]]:
    cases: list[tuple[str, list[Path]]] = [("bundled", [SEEDS])]
    cases += [(f"seeds-{p.name}", [p]) for p in sorted(SEEDS.iterdir())]
    cases += [(f"export-{p.stem}", [p]) for p in sorted((FIXTURES / "mediawiki").glob("*.xml"))]
    for p in sorted((FIXTURES / "parse").iterdir()):
        if p.suffix != ".expected" and p.name != "README.md":
            cases.append((f"parse-{p.name}", [p]))
    return cases


@pytest.mark.parametrize(("name", "paths"), corpora(), ids=[name for name, _ in corpora()])
def test_the_report_is_the_full_corpus_report(name: str, paths: list[Path]) -> None:
    assert page_by_page(paths) == full_way(paths)


def test_two_sources_of_a_year_and_several_files_per_edition(tmp_path: Path) -> None:
    # 2017 from the site (two payloads, with navigation) and from the wiki (an
    # export): two variants, one the timeline's; 2007 from an article page and
    # a section page of its own, whose children two files give.
    root = tmp_path / "corpus"
    shutil.copytree(SEEDS, root)
    shutil.copy(FIXTURES / "mediawiki" / "2017.xml", root / "2017" / "wiki-2017.xml")
    for f in (FIXTURES / "parse" / "merge-article-and-section-page").iterdir():
        shutil.copy(f, root / "2007" / f.name.replace("2017", "2007"))
        page = root / "2007" / f.name.replace("2017", "2007")
        page.write_text(page.read_text(encoding="utf-8").replace("Sjabloon:2017:", "Sjabloon:2007:"), encoding="utf-8")
    corpus, dangling = check([root])
    assert {e.name for e in corpus.variants} >= {"2017@wiki", "2017@nuxt"}
    assert dangling, "the bundled corpus names articles it does not hold"
    assert page_by_page([root]) == full_way([root])


def test_a_conflict_is_reported_from_the_full_corpus(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    shutil.copytree(SEEDS / "2007", root / "2007")
    page = (root / "2007" / "wiki-Sjabloon-2007-45.txt").read_text(encoding="utf-8")
    changed = page.replace("De leider speelt een kaart uit de blinde", "De leider speelt een kaart van de blinde", 1)
    assert changed != page
    (root / "2007" / "wiki-Sjabloon-2007-45-second.txt").write_text(changed, encoding="utf-8")
    corpus, _ = check([root])
    assert [c.address for e in corpus.editions for c in e.conflicts] == ["45B"]
    assert corpus.editions[0].clauses, "the full corpus, with its clauses"
    assert page_by_page([root]) == full_way([root])


def test_an_amendment_is_reported_from_the_full_corpus(tmp_path: Path) -> None:
    root = amendment_corpus(tmp_path)
    corpus, _ = check([root])
    assert [e.name for e in corpus.editions] == ["2017", "2017+2024-03-01"]
    assert page_by_page([root]) == full_way([root])


def test_without_conflict_nor_amendment_the_editions_hold_no_clauses() -> None:
    corpus, _ = check([SEEDS])
    assert [e.name for e in corpus.editions] == ["1963", "1997", "2007", "2017"]
    assert all(e.clauses == () for e in corpus.editions)
    assert len(corpus.checks) == 5


def test_a_lost_word_is_found_page_by_page(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same stand-in for the builder as the CLI tests use: check must read
    # pages through lawdiff.corpus.timeline, as the full corpus does.
    from test_cli_ingest import losing

    losing(monkeypatch, "45B")
    result = CliRunner().invoke(main, ["check", str(SEEDS / "2007"), "--no-color"])
    assert result.exit_code == 1
    assert "unplaced at wiki-Sjabloon-2007-45.txt:7: De leider speelt een kaart uit de blinde" in result.stdout


def test_the_cache_keeps_the_outlines(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache")
    cold = page_by_page([SEEDS], cache)
    assert cache.misses and not cache.hits
    assert list((tmp_path / "cache").glob("outlines/*/*.pickle"))
    warm_cache = Cache(tmp_path / "cache")
    assert page_by_page([SEEDS], warm_cache) == cold == full_way([SEEDS])
    assert warm_cache.hits == 5 and not warm_cache.misses


# ---------------------------------------------------------------------------
# Outlines


def test_an_outline_lists_clauses_in_merge_order_with_their_parents() -> None:
    (page,) = read_file(SEEDS / "1963" / "wiki-Sjabloon-1963-HVI-JUISTE-GANG-VAN-ZAKEN.txt", "1963.txt")
    tree = build_page(page)
    o = outline(tree)
    walked: list[str] = []
    stack = list(reversed(tree.roots))
    while stack:
        d = stack.pop()
        walked.append(d.address)
        stack += reversed(d.children)
        stack += reversed(d.footnotes)
    assert list(o.addresses) == walked
    assert o.parents[0] == -1
    at = {a: i for i, a in enumerate(o.addresses)}
    assert o.addresses[o.parents[at["48.fn1"]]] == "48"
    assert o.flags[at["48.fn1"]] & _FOOTNOTE
    assert o.source(at["48.fn1"]).line == 105
    assert "42(b).fn1" in o.addresses


@pytest.mark.parametrize(
    "path",
    [
        SEEDS / "2017" / "nuxt-artikel-45.payload.json",  # links and words
        SEEDS / "1963" / "wiki-Sjabloon-1963-HVI-JUISTE-GANG-VAN-ZAKEN.txt",  # words only
        FIXTURES / "mediawiki" / "2017.xml",
    ],
    ids=lambda p: p.name,
)
def test_an_outline_keeps_the_references_and_a_digest_of_each_text(path: Path) -> None:
    edition = load([path]).editions[0]
    (page, *_) = read_file(path, path.name)
    o = outline(build_page(page))
    for i, address in enumerate(o.addresses):
        clause = edition.find(address)
        assert clause is not None
        refs = o.refs.get(i, ())
        assert list(zip(refs[::2], refs[1::2], strict=True)) == [(r.target, r.printed) for r in clause.references]
        assert bool(o.flags[i] & _TEXT) == bool(clause.text)
    texts = [i for i in range(len(o.addresses)) if o.flags[i] & _TEXT]
    assert len({o.digest(i) for i in texts}) == len({edition.find(o.addresses[i]).text for i in texts})  # type: ignore[union-attr]


# ---------------------------------------------------------------------------
# The accounting's shortcuts give the answers of the plain count


_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORDS = st.lists(
    st.sampled_from([*"ab1_ .,;()-'\n\t\u00a0é²ʼ’—\u0301\u2003ſ٣", "artikel", "45C", "¹⁾", "e\u0301"]),
    max_size=20,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(_WORDS)
def test_count_tokens_counts_the_tokens(s: str) -> None:
    assert count_tokens(s) == len(tokens(s))


def test_count_tokens_tells_every_character_as_the_pattern_does() -> None:
    # Word, white space or sign, for every code point: the byte classes (and
    # the stand-ins for characters beyond Latin-1) against \w and \s.
    every = "".join(chr(c) for c in range(0x110000))
    plain = re.sub(r"[^\w\s]", "!", re.sub(r"\s", " ", re.sub(r"\w", "a", every)))
    mine = _WIDE.sub(_latin1_kinds, every)
    assert mine.encode("latin-1").translate(_KIND_OF_BYTE) == plain.encode("latin-1").translate(_KIND_OF_BYTE)


@settings(max_examples=400, deadline=None)
@given(st.lists(_WORDS, max_size=6), st.lists(_WORDS, max_size=8))
def test_lines_found_whole_give_the_count_of_everything(texts: list[str], strings: list[str]) -> None:
    # Strings made of the texts' pieces, as a tree's are, and others.
    pieces = [p for t in texts for p in t.split(" ", 1)]
    for pool in (strings, strings + pieces, pieces[1:] + strings):
        expected = not Counter(tokens("\n".join(texts))) - Counter(tokens("\n".join(pool)))
        assert _covered(list(texts), list(pool)) == expected


# ---------------------------------------------------------------------------
# Faster spellings of the same patterns


_OLD_TRIGGER = re.compile(r"\b(?:[Aa]rtikelen|[Aa]rtikel|[Aa]rt\.|[Zz]ie)\s+(?=\d)")
_OLD_BARE = re.compile(r"(?<![\w/.-])(?P<addr>\d{1,3}[A-Z]\d{0,2}(?:\s?\([a-z]\))?)(?![\w/])")
_REFERENCE_TEXT = st.lists(
    st.sampled_from(
        [*"aAzZrtikelnie. /-_(),12345BCDé٣\n", "artikel ", "Artikelen ", "art. ", "zie ", "45C", "(b)", "sub "]
    ),
    max_size=20,
).map("".join)


@settings(max_examples=1000, deadline=None)
@given(_REFERENCE_TEXT)
def test_the_reference_patterns_match_what_their_plain_spelling_matches(s: str) -> None:
    for old, new in ((_OLD_TRIGGER, references_module._TRIGGER), (_OLD_BARE, references_module._BARE)):
        assert [(m.span(), m.groupdict()) for m in old.finditer(s)] == [
            (m.span(), m.groupdict()) for m in new.finditer(s)
        ]


_REFERENCE_PIECES = [
    *"aAzZrtikelnie. /-_(),12345BCDé٣’\n",
    *("artikel ", "art. ", "zie ", "45C", "(b)", "sub a van art. 4"),
]


def _find_references_plainly(text: str) -> list[tuple[str, int, int]]:
    """find_references as it was written before its shortcuts (one \\d pattern for every text)."""
    sub_items = references_module._SUB_ITEMS
    list_item, list_sep = references_module._LIST_ITEM, references_module._LIST_SEP
    if not re.search(r"\d", text):
        return []
    found: dict[int, tuple[str, int, int]] = {}
    named_items: set[int] = set()
    for sub in sub_items.finditer(text):
        named_items.add(sub.start("art"))
        for item in re.finditer(r"\b([a-z])\b", sub.group("items")):
            start = sub.start("items") + item.start(1)
            found[start] = (f"{sub.group('art')}({item.group(1)})", start, start + 1)
    for trig in _OLD_TRIGGER.finditer(text):
        pos = trig.end()
        while (m := list_item.match(text, pos)) is not None:
            if m.start() not in named_items:
                found[m.start()] = (normalize_address(m.group("addr")), m.start(), m.end())
            sep = list_sep.match(text, m.end())
            if not sep:
                break
            pos = sep.end()
    for m in _OLD_BARE.finditer(text):
        if not any(s <= m.start() < e for _, s, e in found.values()):
            found[m.start()] = (normalize_address(m.group("addr")), m.start(), m.end())
    return [found[k] for k in sorted(found)]


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(
        st.sampled_from(_REFERENCE_PIECES),
        max_size=20,
    ).map("".join)
)
def test_find_references_finds_what_it_found_before_its_shortcuts(s: str) -> None:
    assert find_references(s) == _find_references_plainly(s)


def _normalize_inline_plainly(raw: str) -> str:
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n").replace("\r", "\n"))
    return re.sub(r"[^\S\n]+", " ", text)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab  \n\r\t\u00a0\u2003\x1fé\u0301e")), max_size=20))
def test_normalize_inline_returns_a_normal_line_as_it_is(s: str) -> None:
    assert normalize_inline(s) == _normalize_inline_plainly(s)


# ---------------------------------------------------------------------------
# Nothing of a page outlives it while the collector is paused


def test_reading_a_page_makes_no_reference_cycle() -> None:
    (page,) = read_file(SEEDS / "2007" / "wiki-Sjabloon-2007-45.txt", "2007.txt")
    gc.collect()
    paused = gc.isenabled()
    gc.disable()
    try:
        tree = build_page(page)
        assert page_strings(tree)
        from lawdiff.corpus.account import account

        account(tree)
        outline(tree)
        del tree
        assert gc.collect() == 0
    finally:
        if paused:
            gc.enable()


def test_page_strings_in_document_order() -> None:
    (page,) = read_file(SEEDS / "1963" / "wiki-Sjabloon-1963-HVI-JUISTE-GANG-VAN-ZAKEN.txt", "1963.txt")
    tree = build_page(page)
    out: list[str] = []

    def visit(d: Draft) -> None:
        out.extend([d.label, d.title, d.text, d.extra, d.marker])
        for f in d.footnotes:
            visit(f)
        for c in d.children:
            visit(c)

    for root in tree.roots:
        visit(root)
    assert page_strings(tree) == out
    assert "48.fn1" in {d.address for root in tree.roots for d in _walk(root)}


def _walk(d: Draft) -> list[Draft]:
    return [d, *(x for f in d.footnotes for x in _walk(f)), *(x for c in d.children for x in _walk(c))]
