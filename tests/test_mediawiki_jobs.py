"""A MediaWiki export read in two steps, and in several processes.

Expanding a page needs the whole dump's text; making it lines and reading
them needs only the dump's titles.  ``read_jobs`` hands out the two steps
apart, so that ``lawdiff check`` can read a large export in several
processes: the pages, and so the report, must be the ones of one process.
"""

from __future__ import annotations

import importlib.util
import pickle
import sys
from pathlib import Path
from typing import Any

import pytest

from lawdiff.corpus import workers
from lawdiff.corpus.check import check
from lawdiff.errors import InputError
from lawdiff.forked import Stream
from lawdiff.report import check_text, jsonout
from lawdiff.sources import mediawiki
from lawdiff.sources.mediawiki.lines import Frag

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "mediawiki"

sys.path.insert(0, str(Path(__file__).parent))
from test_mediawiki import export  # noqa: E402

SMALL_EXPORTS = {
    "redirects": export(
        ("Sjabloon:2017:45", "'''ARTIKEL 45 Titel'''<br>\n{{Sjabloon:2017:Oud}}\n\nZie [[Sjabloon:2017:Oud|45A]]."),
        ("Sjabloon:2017:Oud", "#REDIRECT [[Sjabloon:2017:45A]]", {"redirect": "Sjabloon:2017:45A"}),
        ("Sjabloon:2017:45A", "'''A. Titel'''<br>\nTekst.<ref>Een noot.</ref>"),
        ("Overleg sjabloon:2017:45", "Klopt dit?"),
    ),
    "parameters-and-includeonly": export(
        ("Sjabloon:2017:45", "'''ARTIKEL 45 Titel'''<br>\n{{Sjabloon:2017:45A|titel=Eigen}}<noinclude>x</noinclude>"),
        ("Sjabloon:2017:45A", "'''A. {{{titel|Standaard}}}'''<br>\n# Een.\n<includeonly>* Twee.</includeonly>"),
    ),
}


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_xml", ROOT / "benchmarks" / "bench_xml.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sections_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's full-size shape, 12 articles of sections A-E (about 0.5 MB)."""
    folder = tmp_path_factory.mktemp("sections")
    _bench().generate_sections(folder, 12)
    return folder / "dump.xml"


def exports(tmp_path: Path) -> list[Path]:
    paths = sorted(FIXTURES.glob("*.xml"))
    for name, xml in SMALL_EXPORTS.items():
        path = tmp_path / f"{name}.xml"
        path.write_text(xml, encoding="utf-8")
        paths.append(path)
    return paths


def test_pages_made_from_jobs_are_the_pages_read(tmp_path: Path, sections_export: Path) -> None:
    for path in [*exports(tmp_path), sections_export]:
        render, jobs = mediawiki.read_jobs(path, path.name)
        # As a worker gets it: pickled, without the dump's text.
        render = pickle.loads(pickle.dumps(render))
        assert [render(job) for job in jobs] == list(mediawiki.read_path(path, path.name)), path.name


def test_the_titles_only_hold_no_text(sections_export: Path) -> None:
    render, _ = mediawiki.read_jobs(sections_export, "dump.xml")
    assembler = render.__self__  # type: ignore[attr-defined]
    assert assembler.pages_ and all(p.revision is None or p.revision.text is None for p in assembler.pages_)
    assert len(pickle.dumps(render)) < sections_export.stat().st_size / 20


def test_a_run_of_text_is_pickled_without_keeping_utf8_in_its_string() -> None:
    # pickle keeps the UTF-8 copy of a str it writes inside the str: a run
    # that is a whole page of the dump would keep it for as long as the dump.
    page = "Één kaart, één slag. " * 500
    size = sys.getsizeof(page)
    again = pickle.loads(pickle.dumps(Frag(page, 3, "Sjabloon:2017:45A", "")))
    assert again == Frag(page, 3, "Sjabloon:2017:45A", "")
    assert sys.getsizeof(page) == size
    pickle.dumps(page)
    assert sys.getsizeof(page) > size  # the habit the run's pickling steers clear of


# ---------------------------------------------------------------------------
# lawdiff check of an export in several processes


def report(paths: list[Path]) -> tuple[str, str]:
    corpus, dangling = check(paths)
    return check_text.check(corpus, dangling, skipped=corpus.skipped), jsonout.check(corpus, dangling)


@pytest.fixture
def in_processes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every export read with workers, in small batches; the list counts the workers started."""
    started: list[int] = []
    real = Stream.__init__

    def counting(self: Any, n: int, queued: int = 2) -> None:
        started.append(n)
        real(self, n, queued)

    monkeypatch.setattr(workers, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(workers, "_BATCH_CHARS", 2_000)
    monkeypatch.setattr(Stream, "__init__", counting)
    return started


@pytest.mark.parametrize("jobs", ["2", "3"])
def test_check_in_several_processes_is_check_in_one(
    jobs: str, tmp_path: Path, sections_export: Path, in_processes: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [*exports(tmp_path), sections_export]
    monkeypatch.setenv("LAWDIFF_JOBS", "1")
    alone = [report([p]) for p in paths]
    assert not in_processes
    monkeypatch.setenv("LAWDIFF_JOBS", jobs)
    assert [report([p]) for p in paths] == alone
    assert in_processes == [int(jobs) - 1] * len(paths)


BROKEN = {
    # Found while making lines (in a worker): a link into a redirect loop.
    "redirect-loop-in-a-link": export(
        ("Sjabloon:2017:45", "'''ARTIKEL 45 Titel'''<br>\n{{Sjabloon:2017:45A}}"),
        ("Sjabloon:2017:45A", "'''A. Titel'''<br>\nZie [[Sjabloon:2017:X|45B]]."),
        ("Sjabloon:2017:X", "#REDIRECT [[Sjabloon:2017:Y]]"),
        ("Sjabloon:2017:Y", "#REDIRECT [[Sjabloon:2017:X]]"),
    ),
    # Found while expanding (in the parent).
    "cycle": export(
        ("Sjabloon:2007:45", "'''ARTIKEL 45 Titel'''\n\n{{Sjabloon:2007:45A}}"),
        ("Sjabloon:2007:45A", "'''A. Titel'''<br>\nTekst.\n{{Sjabloon:2007:45}}"),
    ),
    # Found on the records (in the parent): an edition name lawdiff keeps for itself.
    "edition-name": export(("Sjabloon:2007@x:45", "'''ARTIKEL 45 Titel'''<br>\nTekst.")),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_an_error_in_several_processes_is_the_error_in_one(
    case: str, tmp_path: Path, in_processes: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "dump.xml"
    path.write_text(BROKEN[case], encoding="utf-8")
    monkeypatch.setenv("LAWDIFF_JOBS", "1")
    with pytest.raises(InputError) as alone:
        check([path])
    monkeypatch.setenv("LAWDIFF_JOBS", "3")
    with pytest.raises(InputError) as several:
        check([path])
    assert in_processes == [2]
    assert several.value.message() == alone.value.message()
    assert str(path) in alone.value.message()
