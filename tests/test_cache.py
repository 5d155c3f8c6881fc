"""The on-disk cache: warm runs give the same bytes, a bad entry is never trusted."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lawdiff.cache import Cache, key
from lawdiff.cli import main
from lawdiff.corpus import default_corpus, load
from lawdiff.diff import Study


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*/*/*.pickle"))


def test_a_warm_compare_gives_the_same_bytes_as_a_cold_one(cache_dir: Path) -> None:
    cold = run("compare", "2007", "2017", "--format", "json", "--no-cache")
    assert not cache_dir.exists()  # --no-cache writes nothing
    first = run("compare", "2007", "2017", "--format", "json")
    kinds = {p.parent.parent.name for p in entries(cache_dir)}
    assert kinds == {"pages", "pairs", "words", "answers"}
    warm = run("compare", "2007", "2017", "--format", "json")
    # Without the whole answer (tests/test_answers.py): from the cached pages and pair.
    shutil.rmtree(cache_dir / "answers")
    from_parts = run("compare", "2007", "2017", "--format", "json")
    assert cold == first == warm == from_parts


def test_a_warm_report_is_byte_identical(cache_dir: Path, tmp_path: Path) -> None:
    run("report", "-o", str(tmp_path / "cold"), "--no-cache")
    run("report", "-o", str(tmp_path / "fill"))
    run("report", "-o", str(tmp_path / "warm"))
    for name in ("cold", "warm"):
        files = sorted(p.relative_to(tmp_path / name) for p in (tmp_path / name).rglob("*") if p.is_file())
        assert files
    for rel in (p.relative_to(tmp_path / "cold") for p in (tmp_path / "cold").rglob("*") if p.is_file()):
        assert (tmp_path / "cold" / rel).read_bytes() == (tmp_path / "warm" / rel).read_bytes(), rel


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "empty"])
def test_a_damaged_entry_is_ignored_and_rebuilt(cache_dir: Path, damage: str) -> None:
    good = run("compare", "2007", "2017", "--format", "json", "--no-cache")
    run("compare", "2007", "2017", "--format", "json")
    for entry in entries(cache_dir):
        data = entry.read_bytes()
        if damage == "flip":
            # A byte of the payload changed: a string inside still loads, but must not be trusted.
            i = len(data) - 20
            data = data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1 :]
        elif damage == "truncate":
            data = data[: len(data) // 2]
        elif damage == "garbage":
            data = b"not a cache entry at all"
        else:
            data = b""
        entry.write_bytes(data)
    assert run("compare", "2007", "2017", "--format", "json") == good
    # Rebuilt: every entry is whole again and is used.
    cache = Cache(cache_dir)
    for entry in entries(cache_dir):
        assert cache.get(entry.parent.parent.name, entry.stem) is not None
    assert cache.misses == 0


def test_a_changed_file_is_read_again(cache_dir: Path, tmp_path: Path) -> None:
    corpus_dir = tmp_path / "corpus"
    (corpus_dir / "2007").mkdir(parents=True)
    source = default_corpus() / "2007" / "wiki-Sjabloon-2007-45.txt"
    page = corpus_dir / "2007" / "page.txt"
    page.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    cache = Cache(cache_dir)
    before = load([corpus_dir], cache=cache).edition("2007").find("45A")
    assert before is not None
    edited = page.read_text(encoding="utf-8").replace("Elke speler behalve", "Iedere speler behalve", 1)
    page.write_text(edited, encoding="utf-8")
    after = load([corpus_dir], cache=Cache(cache_dir)).edition("2007").find("45A")
    assert after is not None and after.text != before.text and after.text.startswith("Iedere speler")


def test_the_key_holds_the_code_and_every_part() -> None:
    assert key("a", "bc") != key("ab", "c")  # parts are delimited
    assert key("a") == key("a")
    assert len(key("x")) == 64


def test_a_study_takes_its_pair_from_the_cache(cache_dir: Path) -> None:
    corpus = load()
    old, new = corpus.edition("2007"), corpus.edition("2017")
    cold = Study((old, new), cache=Cache(cache_dir)).compare(old, new)
    warm_cache = Cache(cache_dir)
    warm = Study((old, new), cache=warm_cache).compare(old, new)
    assert warm_cache.hits == 1
    assert warm == cold
    # Other thresholds are another entry.
    other = Cache(cache_dir)
    redone = Study((old, new), cache=other, thresholds=cold.thresholds.with_overrides({"match_min": 0.5})).compare(
        old, new
    )
    assert redone.thresholds != cold.thresholds
    assert other.hits == 1  # the pair's word differences (by their texts), not the pair


def test_an_unwritable_cache_folder_costs_nothing_but_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x", encoding="utf-8")
    monkeypatch.setenv("LAWDIFF_CACHE", str(blocked / "cache"))
    assert run("compare", "2007", "2017", "--format", "json") == run(
        "compare", "2007", "2017", "--format", "json", "--no-cache"
    )


def test_lawdiff_cache_off_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWDIFF_CACHE", "off")
    assert Cache.default().folder is None
    monkeypatch.delenv("LAWDIFF_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere")
    assert Cache.default(enabled=False).folder is None
    assert str(Cache(Path("/somewhere/lawdiff")).folder) == os.path.join("/somewhere", "lawdiff")


def test_the_fingerprint_changes_with_python_and_a_library_it_computes_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lawdiff.cache as cache_module

    library = tmp_path / "site" / "fakefuzz"
    library.mkdir(parents=True)
    (library / "__init__.py").write_text('__version__ = "1.0"\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(cache_module, "_LIBRARIES", ("fakefuzz", "no_such_library_here"))

    def fresh() -> str:
        monkeypatch.setattr(cache_module, "_FINGERPRINT", "")
        return cache_module.fingerprint()

    before = fresh()
    assert fresh() == before
    (library / "__init__.py").write_text('__version__ = "1.1"\n', encoding="utf-8")
    upgraded = fresh()
    assert upgraded != before
    monkeypatch.setattr(cache_module.sys, "version", "3.99.0 (another Python)")
    assert fresh() not in (before, upgraded)


def test_a_pair_compared_again_reads_the_word_differences_it_had(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lawdiff.diff.study as study_module

    corpus_dir = tmp_path / "corpus"
    shutil.copytree(Path(__file__).parent / "fixtures" / "html" / "corpus", corpus_dir)
    made: list[tuple[str, str]] = []
    real = study_module.word_diff

    def counted(a: str, b: str) -> Any:
        made.append((a, b))
        return real(a, b)

    monkeypatch.setattr(study_module, "word_diff", counted)

    def compared() -> Any:
        corpus = load([corpus_dir], cache=Cache(cache_dir))
        old, new = corpus.edition("2001"), corpus.edition("2011")
        return Study((old, new), cache=Cache(cache_dir)).compare(old, new)

    first = compared()
    assert len([1 for a, b in made if a != b]) > 3  # nothing kept yet: every difference made
    made.clear()
    page = corpus_dir / "2011" / "wiki-Sjabloon-2011-12.txt"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("de wedstrijdleider voordat", "de wedstrijdleider direct voordat"), encoding="utf-8")
    again = compared()
    # Only the edited clause's difference is made again; the others are read back.
    edited = next(ch for ch in again.changes if "direct voordat" in "".join(ch.new_texts))
    assert [b for a, b in made if a and b and a != b] == list(edited.new_texts)
    corpus = load([corpus_dir])
    old, new = corpus.edition("2001"), corpus.edition("2011")
    assert again.changes == Study((old, new)).compare(old, new).changes
    assert again.changes != first.changes


def test_an_entry_folder_removed_during_a_run_is_made_again(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache")
    cache.put("kind", "ab" + "0" * 62, [1])
    shutil.rmtree(tmp_path / "cache")
    cache.put("kind", "ab" + "1" * 62, [2])  # its folder gone: not kept, and no error
    cache.put("kind", "ab" + "2" * 62, [3])
    assert Cache(tmp_path / "cache").get("kind", "ab" + "2" * 62) == [3]
