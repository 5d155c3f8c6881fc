"""The Word redline read back as a draft gives both editions (issue 13).

The document ``lawdiff compare OLD NEW --format docx`` writes is read with
:func:`lawdiff.sources.draft.read_draft` and built into a corpus, as any
committee draft is: read with its changes accepted it must give the new
edition's clause tree, read as it was before them (``original``) the old
one's: every clause the document shows, in order, with its address, label,
title and text, and its footnotes' addresses and texts; and the lossless
check must place every word the document holds.  The pairs: every pair of the
bundled corpus, an edition and its amended version (the amendment of
``tests/test_versions.py``), and the consecutive generated full-size editions
of ``benchmarks/generate.py``; whole editions and one article.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from benchscripts import generator as _generator
from click.testing import CliRunner
from office import Office
from test_docx import context
from test_versions import amendment_corpus

from lawdiff.cli import main
from lawdiff.corpus import Corpus, from_pages, load
from lawdiff.diff import Change, compare, compared
from lawdiff.errors import InputError
from lawdiff.model import Edition, Kind, article_of
from lawdiff.sources.draft import read_draft

STATES = ("accepted", "original")

Row = tuple[str, str, str, str, tuple[tuple[str, str], ...]]


@pytest.fixture(autouse=True)
def fixed_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


def rows(edition: Edition, wanted: set[str] | None = None) -> list[Row]:
    """Each clause (footnotes apart) in document order: address, label, title, text, its footnotes."""
    out: list[Row] = []
    for c in edition.walk():
        if c.kind is Kind.FOOTNOTE or (wanted is not None and c.address not in wanted):
            continue
        notes = tuple((f.address, f.text) for f in c.footnotes if wanted is None or f.address in wanted)
        out.append((c.address, c.label, c.title, c.text, notes))
    return out


def shown(edition: Edition, addresses: list[str], around: set[str]) -> set[str]:
    """The clauses named and the context around them (:func:`test_docx.context`): what the redline shows
    of one side."""
    return set(addresses) | around


def write_redline(tmp_path: Path, old: str, new: str, article: str | None, corpus: Path | None = None) -> Path:
    out = tmp_path / f"{old}-{new}-{article or 'all'}.docx"
    args = ["compare", old, new, "--format", "docx", "-o", str(out)]
    args += ["--article", article] if article else []
    args += ["--corpus", str(corpus)] if corpus else []
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return out


# A pair's changes by the two editions' identities, the editions kept beside them (so that an identity is not
# taken again by another edition): a pair's whole redline and its article 45 are read back against the same
# comparison, and a pair of the generated full-size editions takes 0.4 s of CPU time to compare.
_CHANGES: dict[tuple[int, int], tuple[Edition, Edition, tuple[Change, ...]]] = {}


def changes_of(old: Edition, new: Edition) -> tuple[Change, ...]:
    """``compare(old, new).changes``, compared once per pair of editions."""
    key = (id(old), id(new))
    if key not in _CHANGES:
        _CHANGES[key] = (old, new, tuple(compare(old, new).changes))
    return _CHANGES[key][2]


def check_read_back(path: Path, old: Edition, new: Edition, article: str | None) -> None:
    """Both states of the document against the two editions (see the module docstring)."""
    every = [
        ch
        for ch in changes_of(old, new)
        if article is None or ch.article == article or any(article_of(a) == article for a in ch.old + ch.new)
    ]
    # What one corpus lacks is never in the redline (not compared).
    changes = compared(every)
    for state, edition in zip(STATES, (new, old), strict=True):
        around = context(old, new, changes, "new" if state == "accepted" else "old")
        named = [a for ch in changes for a in (ch.new if state == "accepted" else ch.old)]
        if not named:
            # The side holds nothing compared (1997 has no article 45): nothing to read.
            with pytest.raises(InputError, match="holds no text"):
                read_draft(path, edition.name, state)
            continue
        read = from_pages(read_draft(path, edition.name, state))
        (got,) = read.editions
        want = rows(edition, shown(edition, named, around))
        if article is None and len(changes) == len(every):
            assert want == rows(edition), "a whole edition's redline shows every clause"
        assert relabelled(rows(got), want, new) == want, state
        for check in read.checks:
            assert check.unplaced == () and check.placed == check.tokens, (state, check.page)


def relabelled(got: list[Row], want: list[Row], new: Edition) -> list[Row]:
    """``got`` with each label the new edition prints at the same address taken for the one ``want`` has:
    a label printed otherwise at one address ("ARTIKEL 45", "Artikel 45") is no change of the study, and
    the redline shows the new edition's print on both sides."""
    wanted = {row[0]: row[1] for row in want}
    out: list[Row] = []
    for address, label, title, text, notes in got:
        twin = new.find(address)
        if twin is not None and label == twin.label and address in wanted:
            label = wanted[address]
        out.append((address, label, title, text, notes))
    return out


# ---------------------------------------------------------------------------
# The bundled corpus


BUNDLED = list(itertools.combinations(("1963", "1997", "2007", "2017"), 2))


@pytest.mark.parametrize("pair", BUNDLED, ids="-".join)
@pytest.mark.parametrize("article", [None, "45"], ids=["all", "article-45"])
def test_the_redline_reads_back_as_both_editions(
    corpus: Corpus, tmp_path: Path, pair: tuple[str, str], article: str | None
) -> None:
    old, new = pair
    path = write_redline(tmp_path, old, new, article)
    check_read_back(path, corpus.edition(old), corpus.edition(new), article)


@pytest.mark.parametrize("article", [None, "45"], ids=["all", "article-45"])
def test_an_amended_version_reads_back(tmp_path: Path, article: str | None) -> None:
    root = amendment_corpus(tmp_path)
    amended = load([root])
    path = write_redline(tmp_path, "2017", "2017+2024-03-01", article, root)
    check_read_back(path, amended.edition("2017"), amended.edition("2017+2024-03-01"), article)


def test_what_the_reader_sees_of_the_document(corpus: Corpus, tmp_path: Path) -> None:
    # 1963 -> 2017: chapter 6 and its part 1 are compared (H3 and article 6 are only in the 2017 corpus).
    path = write_redline(tmp_path, "1963", "2017", None)
    pages = read_draft(path, "2017")
    # One page per container the document opens, as the site's own pages.
    assert [(p.name, [c.address for c in p.containers]) for p in pages] == [
        ("1963-2017-all:H6", ["H6"]),
        ("1963-2017-all:H6.1", ["H6", "H6.1"]),
    ]
    assert [(c.label, c.title) for c in pages[1].containers] == [("6", "Het spelen"), ("1", "Juiste gang van zaken")]
    furniture = [(f.text, f.reason) for p in pages for f in p.furniture]
    # The document's title is in the page header, the addresses are headings: no law text.
    header = [text for text, reason in furniture if reason == "page header (not law text)"]
    assert header == [
        "1963 → 2017 Tracked changes by lawdiff: accept all to read 2017, reject all to read 1963. Not compared:"
        " article(s) 6; heading(s) H3 only in the 2017 corpus (the 1963 corpus does not hold them); article(s)"
        " 41-44, 46-49 only in the 1963 corpus (the 2017 corpus does not hold them)."
    ]
    assert ("45C4(b)", "clause address heading (derived, not law text)") in furniture
    edition = from_pages(pages).editions[0]
    note = edition.find("45A.fn1")
    assert note is not None and (note.label, note.marker) == ("1.", "1")


# ---------------------------------------------------------------------------
# Generated full-size editions


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gen = _generator()
    folder = tmp_path_factory.mktemp("generated")
    gen.write(gen.generate(articles=gen.FULL_ARTICLES), folder)
    return folder


@pytest.fixture(scope="module")
def generated_corpus(generated: Path) -> Corpus:
    return load([generated])


@pytest.mark.parametrize("step", [0, 1, 2], ids=["1987-1997", "1997-2007", "2007-2017"])
@pytest.mark.parametrize("article", [None, "45"], ids=["all", "article-45"])
def test_generated_full_size_editions_read_back(
    generated: Path, generated_corpus: Corpus, tmp_path: Path, step: int, article: str | None
) -> None:
    old, new = generated_corpus.editions[step], generated_corpus.editions[step + 1]
    assert len(new.articles()) == _generator().FULL_ARTICLES or len(old.articles()) == _generator().FULL_ARTICLES
    path = write_redline(tmp_path, old.name, new.name, article, generated)
    check_read_back(path, old, new, article)


# ---------------------------------------------------------------------------
# LibreOffice's own Accept all and Reject all


# 1963 -> 2007 is left out: LibreOffice 7.4's Reject all joins a paragraph that
# ends in an insertion with the next kept one when two or more wholly inserted
# paragraphs stand between them (Word's reading keeps them apart).  1963 -> 1997
# compares nothing (the two corpora hold no article in common): its redline is empty.
@pytest.mark.parametrize("pair", [("2007", "2017")], ids="-".join)
def test_libreoffice_accept_all_and_reject_all_give_the_editions(
    corpus: Corpus, tmp_path: Path, pair: tuple[str, str], office: Office
) -> None:
    old, new = corpus.edition(pair[0]), corpus.edition(pair[1])
    path = write_redline(tmp_path, *pair, None)
    for command, edition in (("AcceptAllTrackedChanges", new), ("RejectAllTrackedChanges", old)):
        out = tmp_path / f"{command}.docx"
        office.resolve(path, out, command)
        assert out.exists(), command
        # No tracked change is left: the accepted reading is the only one.
        read = from_pages(read_draft(out, edition.name))
        changes = compared(changes_of(old, new))
        side = "new" if edition is new else "old"
        named = [a for ch in changes for a in (ch.new if side == "new" else ch.old)]
        want = rows(edition, shown(edition, named, context(old, new, changes, side)))
        assert relabelled(rows(read.editions[0]), want, new) == want, command
        assert all(check.unplaced == () for check in read.checks), command
