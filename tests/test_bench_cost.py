"""The held-out corpora of ``benchmarks/bench_cost.py`` (``benchmarks/heldout.py``): deterministic,
read back whole, and edited at the rates they are named for.  Not timed: bench_cost times them."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from benchscripts import bench_module
from click.testing import CliRunner

from lawdiff.cli import main
from lawdiff.corpus import load

heldout = bench_module("heldout")
bench_cost = bench_module("bench_cost")


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _changed_share(held: object, old: str, new: str) -> float:
    a = held.flat[old].read_text(encoding="utf-8").splitlines()  # type: ignore[attr-defined]
    b = held.flat[new].read_text(encoding="utf-8").splitlines()  # type: ignore[attr-defined]
    assert len(a) == len(b)  # edits change words, never lines
    return sum(x != y for x, y in zip(a, b, strict=True)) / len(a)


def test_same_arguments_same_bytes(tmp_path: Path) -> None:
    one = heldout.build_corpus(tmp_path / "one", 4, "few", seed=3)
    two = heldout.build_corpus(tmp_path / "two", 4, "few", seed=3)
    heldout.build_corpus(tmp_path / "other", 4, "few", seed=4)
    assert _files(tmp_path / "one") == _files(tmp_path / "two")
    assert _files(tmp_path / "one") != _files(tmp_path / "other")
    assert one.years == two.years == ("1987", "1997", "2007", "2017")


@pytest.mark.parametrize("kind", ["few", "many", "identical"])
def test_read_back_whole(tmp_path: Path, kind: str) -> None:
    held = heldout.build_corpus(tmp_path, 6, kind)
    # check's exit code 0: every word and sign of every page placed in the clause tree.
    done = CliRunner().invoke(main, ["check", "--corpus", str(held.corpus), "--no-cache"])
    assert done.exit_code == 0, done.output
    assert "100.0%" in done.output
    corpus = load([held.corpus])
    for year in held.years:
        edition = corpus.edition(year)
        assert [a.address for a in edition.articles()] == [str(n) for n in range(1, 7)]


def test_articles_read_unlike(tmp_path: Path) -> None:
    held = heldout.build_corpus(tmp_path, 3, "identical")
    pages = sorted((held.corpus / "2007").iterdir())
    one, two = (p.read_text(encoding="utf-8").splitlines()[2:] for p in pages[:2])
    alike = difflib.SequenceMatcher(None, " ".join(one).split(), " ".join(two).split()).ratio()
    assert 0.5 < alike < 0.9


def test_rates(tmp_path: Path) -> None:
    few = heldout.build_corpus(tmp_path / "few", 20, "few")
    many = heldout.build_corpus(tmp_path / "many", 20, "many")
    same = heldout.build_corpus(tmp_path / "same", 20, "identical")
    assert 0.09 < _changed_share(few, "2007", "2017") < 0.2
    assert _changed_share(many, "2007", "2017") > 0.85
    assert _changed_share(same, "2007", "2017") == 0
    pages = {p.name.replace("2007", "2017"): p.read_text(encoding="utf-8") for p in (same.corpus / "2007").iterdir()}
    for page in (same.corpus / "2017").iterdir():
        assert page.read_text(encoding="utf-8") == pages[page.name].replace("Sjabloon:2007:", "Sjabloon:2017:")


def test_one_page_changed(tmp_path: Path) -> None:
    held = heldout.build_corpus(tmp_path, 4, "many")
    page, original, edited = heldout.change_one_page(held, 2)
    assert page.read_text(encoding="utf-8") == original
    assert sum(a != b for a, b in zip(original.split("\n"), edited.split("\n"), strict=True)) == 1


def test_ratio_is_median_of_pairs() -> None:
    run = bench_cost.Run
    a = [run(2.0, 1.0, 1), run(9.0, 3.0, 1), run(4.0, 1.0, 1)]
    b = [run(1.0, 1.0, 1), run(3.0, 1.0, 1), run(8.0, 2.0, 1)]
    assert bench_cost.ratio(a, b) == 1.0  # CPU: 1, 3, 0.5
    assert bench_cost.ratio(a, b, "wall") == 2.0  # wall: 2, 3, 0.5
    assert bench_cost.slope([1, 2, 4], [3, 6, 12]) == 1.0


def test_base_runs_the_other_trees_lawdiff(tmp_path: Path) -> None:
    """``--base DIR``: a command measured in the base's environment, from its folder, imports that tree's
    lawdiff (not this one's, nor the installed one), its bytecode compiled into a folder of its own."""
    other = tmp_path / "other"
    (other / "lawdiff").mkdir(parents=True)
    (other / "lawdiff" / "__init__.py").write_text("")
    (other / "lawdiff" / "where.py").write_text("import sys\nopen(sys.argv[1], 'w').write('other')\n")
    env = bench_cost.installed_env(tmp_path, other)
    assert env["PYTHONPATH"] == str(other)
    assert Path(env["PYTHONPYCACHEPREFIX"]) == tmp_path / "pycache-base"
    assert any((tmp_path / "pycache-base").rglob("where*.pyc"))  # compiled first, as the timed runs expect
    mark = tmp_path / "ran"
    bench_cost.measure([bench_cost.PY, "-m", "lawdiff.where", str(mark)], env, other)
    assert mark.read_text() == "other"
    mark.unlink()
    # This tree's lawdiff has no such module (python exits 1, which measure lets pass): nothing ran.
    bench_cost.measure([bench_cost.PY, "-m", "lawdiff.where", str(mark)], bench_cost.installed_env(tmp_path))
    assert not mark.exists()
