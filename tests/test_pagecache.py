"""The report's pages kept in the cache (``lawdiff.report.pagecache``): made again exactly when what they show
changed, and a report read back byte for byte the one made afresh."""

from __future__ import annotations

import dataclasses
import enum
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import lawdiff.report.html as html_report
from lawdiff.cli import main
from lawdiff.corpus import load
from lawdiff.diff import Study
from lawdiff.diff.vocabulary import Change, Flag, Op, Piece, RefChange, RefStatus, Signal
from lawdiff.report.html import pagecache
from lawdiff.report.site import Site, plan

FIXTURE = Path(__file__).parent / "fixtures" / "html" / "corpus"


@pytest.fixture()
def corpus_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LAWDIFF_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("LAWDIFF_JOBS", "1")  # the pages made in this process, where the spy sees them
    shutil.copytree(FIXTURE, tmp_path / "corpus")
    return tmp_path / "corpus"


@pytest.fixture()
def made(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The pages made (not read from the cache), as ``article 10``, ``history 10``, ``correlation``."""
    out: list[str] = []

    def spy(page: str, make: Callable[..., Any]) -> Callable[..., Any]:
        def made_here(site: Any, what: Any) -> Any:
            out.append(f"{page} {what.number}" if page != "correlation" else page)
            return make(site, what)

        return made_here

    monkeypatch.setattr(html_report, "article_page", spy("article", html_report.article_page))
    monkeypatch.setattr(html_report, "history_page", spy("history", html_report.history_page))
    # A correlation table is written as its pieces (lawdiff.report.html.markup.Splices).
    monkeypatch.setattr(html_report, "correlation_pieces", spy("correlation", html_report.correlation_pieces))
    yield out


def report(corpus: Path, out: Path, *extra: str) -> None:
    result = CliRunner().invoke(main, ["report", "--corpus", str(corpus), "-o", str(out), *extra])
    assert result.exit_code == 0, result.output


def same_tree(a: Path, b: Path) -> None:
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for rel in files:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def edit(page: Path, old: str, new: str) -> None:
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new, 1), encoding="utf-8")


def made_after_edit(corpus_dir: Path, tmp_path: Path, made: list[str], page: str, old: str, new: str) -> list[str]:
    """The pages a report makes again after ``old`` became ``new`` in ``page``; the report it writes is the
    one made without the cache, byte for byte."""
    report(corpus_dir, tmp_path / "first")
    made.clear()
    edit(corpus_dir / page, old, new)
    report(corpus_dir, tmp_path / "warm")
    again = list(made)
    report(corpus_dir, tmp_path / "cold", "--no-cache")
    same_tree(tmp_path / "warm", tmp_path / "cold")
    return again


def test_an_unchanged_corpus_makes_no_page_again(corpus_dir: Path, tmp_path: Path, made: list[str]) -> None:
    report(corpus_dir, tmp_path / "first")
    assert sorted(made) == ["article 10", "article 11", "article 12", "correlation", "history 10", "history 11",
                            "history 12"]  # fmt: skip
    made.clear()
    report(corpus_dir, tmp_path / "again")
    assert made == []
    same_tree(tmp_path / "first", tmp_path / "again")


def test_an_edited_page_makes_again_the_pages_that_show_it(corpus_dir: Path, tmp_path: Path, made: list[str]) -> None:
    # 2011's article 12 alone: nothing else shows its clauses. The pages read back carry the edited
    # edition's new digest in their footers (the report is the one made afresh).
    again = made_after_edit(
        corpus_dir, tmp_path, made, "2011/wiki-Sjabloon-2011-12.txt", "tijdig inleveren", "tijdig en volledig inleveren"
    )
    assert sorted(again) == ["article 12", "correlation", "history 12"]


def test_a_clause_that_moved_makes_again_the_page_it_moved_to(
    corpus_dir: Path, tmp_path: Path, made: list[str]
) -> None:
    # 2001 10D went to 2011 11B: article 11's pages show its old words too.
    again = made_after_edit(
        corpus_dir,
        tmp_path,
        made,
        "2001/wiki-Sjabloon-2001-10.txt",
        "alleen voor de oude druk",
        "alleen voor de eerste druk",
    )
    assert {"article 10", "article 11", "history 10", "history 11"} <= set(again)
    assert "article 12" not in again


def test_a_new_article_title_makes_every_page_again(corpus_dir: Path, tmp_path: Path, made: list[str]) -> None:
    again = made_after_edit(
        corpus_dir,
        tmp_path,
        made,
        "2011/wiki-Sjabloon-2011-11.txt",
        "Terugnemen van een kaart",
        "Terugnemen van kaarten",
    )
    assert {"article 10", "article 11", "article 12"} <= set(again)


def test_nothing_is_kept_without_the_cache(corpus_dir: Path, tmp_path: Path) -> None:
    report(corpus_dir, tmp_path / "out", "--no-cache")
    assert not (tmp_path / "cache").exists()


def test_a_decision_makes_again_the_page_that_shows_it(corpus_dir: Path, tmp_path: Path, made: list[str]) -> None:
    store = tmp_path / "review.sqlite"

    def decide(change: str, status: str) -> None:
        args = ["review", "set", change, status, "--corpus", str(corpus_dir), "--review", str(store)]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output

    decide("2011:10E", "accepted")
    report(corpus_dir, tmp_path / "first", "--review", str(store))
    made.clear()
    report(corpus_dir, tmp_path / "again", "--review", str(store))
    assert made == []
    same_tree(tmp_path / "first", tmp_path / "again")
    # A decision on a change of article 12: its page shows the status and the article's counts.
    decide("2011:12C", "query")
    report(corpus_dir, tmp_path / "warm", "--review", str(store))
    assert made == ["article 12"]
    report(corpus_dir, tmp_path / "cold", "--review", str(store), "--no-cache")
    same_tree(tmp_path / "warm", tmp_path / "cold")
    # Without the review, the pages are those of a report without one, kept apart.
    made.clear()
    report(corpus_dir, tmp_path / "bare", "--no-review")
    report(corpus_dir, tmp_path / "bare-cold", "--no-review", "--no-cache")
    same_tree(tmp_path / "bare", tmp_path / "bare-cold")


def test_the_keys_are_the_same_in_every_process(corpus_dir: Path, tmp_path: Path) -> None:
    # Another hash seed orders sets of strings otherwise: a key that held one would miss in every run.
    env = {**os.environ, "LAWDIFF_CACHE": str(tmp_path / "cache"), "LAWDIFF_JOBS": "2"}
    kept = tmp_path / "cache" / pagecache.KIND
    counts = []
    for seed in ("1", "2", "3"):
        subprocess.run(
            [sys.executable, "-m", "lawdiff", "report", "--corpus", str(corpus_dir), "-o", str(tmp_path / seed)],
            check=True,
            capture_output=True,
            env={**env, "PYTHONHASHSEED": seed},
        )
        counts.append(len(list(kept.glob("*/*.pickle"))))
    assert counts[0] == 7 and counts == [7, 7, 7]


# ---------------------------------------------------------------------------
# The keys' parts


def _changes() -> list[Change]:
    corpus = load([FIXTURE])
    old, new = corpus.edition("2001"), corpus.edition("2011")
    return list(Study((old, new)).compare(old, new).changes)


_REFERENCE = RefChange(RefStatus.KEPT, "11B", "11C", True)
_SIGNAL = Signal(Flag.MODAL, ("mag",), ("moet",))


def _other(value: object, name: str = "") -> object:
    if name == "references":
        return value[:-1] if value else (_REFERENCE,)  # type: ignore[index]
    if name == "signals":
        return value[:-1] if value else (_SIGNAL,)  # type: ignore[index]
    if name == "title_diff":
        return value[:-1] if value else (Piece(Op.INSERT, "x"),)  # type: ignore[index]
    if isinstance(value, bool):
        return not value
    if isinstance(value, float):
        return value / 2 + 0.25
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, enum.Enum):
        return next(m for m in type(value) if m is not value)
    if isinstance(value, tuple):
        return value[:-1] if value else ("x",)
    raise AssertionError(f"no other value for {value!r}")


def test_a_change_digest_holds_every_field_its_id_does_not() -> None:
    changes = _changes()
    fields = {f.name for f in dataclasses.fields(Change)}
    # A field added to Change must be put in the digest (or in BY_ID, when the id holds it): this fails until it is.
    shown = fields - pagecache.BY_ID
    assert shown == {
        "kind", "aspect", "old", "new", "article", "renumbered", "moved", "title_changed", "old_title", "new_title",
        "similarity", "editorial_only", "references", "score", "uncertain", "methods", "reasons",
        "counterpart_in_corpus", "pinned_by", "signals", "significance", "certainty", "scope", "title_diff",
    }  # fmt: skip
    for ch in changes[:5]:
        before = pagecache.change_digest(ch)
        for name in shown:
            other = dataclasses.replace(ch, **{name: _other(getattr(ch, name), name)})
            assert pagecache.change_digest(other) != before, name
        # And every field of a reference's fate and of a signal.
        assert {f.name for f in dataclasses.fields(RefChange)} == {"status", "old", "new", "consistent"}
        assert {f.name for f in dataclasses.fields(Signal)} == {"flag", "removed", "added"}
        for record in (_REFERENCE, _SIGNAL):
            field_name = "references" if record is _REFERENCE else "signals"
            with_one = pagecache.change_digest(dataclasses.replace(ch, **{field_name: (record,)}))
            for f in dataclasses.fields(record):
                changed = dataclasses.replace(record, **{f.name: _other(getattr(record, f.name))})
                assert pagecache.change_digest(dataclasses.replace(ch, **{field_name: (changed,)})) != with_one, f.name
        # The id holds the texts; without an id the whole change is the digest.
        bare = dataclasses.replace(ch, id="")
        assert pagecache.change_digest(dataclasses.replace(bare, new_texts=("x",))) != pagecache.change_digest(bare)


@pytest.fixture(scope="module")
def site() -> Site:
    corpus = load([FIXTURE])
    return plan(corpus, Study(corpus.select()))


def test_the_digests_leave_a_page_and_come_back(site: Site) -> None:
    old, new = site.compared
    text = f"<p>{old.name} <code title='{old.digest()}'>{old.digest()[:16]}</code>; {new.digest()[:16]}</p>"
    data = text.encode("utf-8")
    kept = pagecache.holes(data, site)
    assert kept is not None and old.digest()[:16].encode() not in kept and new.digest()[:16].encode() not in kept
    assert pagecache.filled(kept, site) == data
    # U+0000 is the placeholders' own: a page that has it is not kept.
    assert pagecache.holes(data + b"\x00", site) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["<p>", "a", " ", "0", "f", "\u2192", "x", "DIGEST", "PREFIX"]), max_size=60))
def test_any_page_comes_back_whole(site: Site, pieces: list[str]) -> None:
    old = site.compared[0]
    data = "".join(pieces).replace("DIGEST", old.digest()).replace("PREFIX", old.digest()[:16]).encode("utf-8")
    kept = pagecache.holes(data, site)
    assert kept is not None
    assert pagecache.filled(kept, site) == data


def test_a_page_is_kept_by_every_article_it_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = load([FIXTURE])
    site = plan(corpus, Study(corpus.select()))
    old = site.compared[0]
    view = site.article("11")
    assert view is not None
    real = {e.name: dict(e.part_digests()) for e in site.compared}

    def key_with(changed: dict[str, str]) -> str:
        monkeypatch.setattr(
            type(old), "part_digests", lambda self: {**real[self.name], **(changed if self is old else {})}
        )
        return pagecache.PageKeys(site).key("article", view)

    before = key_with({})
    # 2001 10D moved to 2011 11B: article 11's page shows it, and is kept by 2001's article 10 as well.
    assert key_with({"10": "another"}) != before
    # Article 12 it does not show.
    assert key_with({"12": "another"}) == before
