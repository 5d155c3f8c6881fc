"""``lawdiff fetch`` and ``lawdiff check --against`` against a real MediaWiki (see ``tests/mediawiki_server.py``).

The wiki holds the 2007 and 2017 test exports, made from the bundled corpus by
``tests/fixtures/mediawiki/build.py`` (without the main page, with an article page of the main namespace that
transcludes article 45 of 2007). Few tests, sharing one wiki: each one fetches into a fresh corpus of its own,
and a test that edits the wiki puts the page back as it was.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from mediawiki_server import Wiki, missing, serve

from lawdiff.cli import main
from lawdiff.cli.fetch import fetch as fetch_command
from lawdiff.fetch import mediawiki as fetch_mediawiki
from lawdiff.fetch import wikiapi
from lawdiff.fetch.manifest import MANIFEST, PARTIAL
from lawdiff.fetch.wikiapi import Api

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "mediawiki"


def _write_exports(folder: Path) -> list[Path]:
    """The test exports, as a corpus folder of their own: ``2007/2007.xml`` and ``2017/2017.xml``."""
    spec = importlib.util.spec_from_file_location("mediawiki_fixture_build", FIXTURES / "build.py")
    assert spec is not None and spec.loader is not None
    build: Any = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, build)  # its dataclasses look their module up
    spec.loader.exec_module(build)
    e2007 = build.export_2007()
    e2007.add("Spelregels 2007", "De spelregels van 2007.\n\n{{Sjabloon:2007:45}}\n", ns=0)
    e2017 = build.export_2017()
    e2017.pages = [p for p in e2017.pages if p.title != "Hoofdpagina"]
    out = []
    for year, export in (("2007", e2007), ("2017", e2017)):
        path = folder / year / f"{year}.xml"
        path.parent.mkdir(parents=True)
        path.write_text(export.xml(), encoding="utf-8")
        out.append(path)
    return out


@pytest.fixture(scope="session")
def wiki(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Wiki, Path]]:
    """The served test wiki, and the corpus folder of the exports it was made from."""
    why = missing()
    if why:
        pytest.skip(why)
    own = tmp_path_factory.mktemp("wiki")
    exports = _write_exports(own / "source")
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    with serve(shared, own, exports) as served:
        yield served, own / "source"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _compare(corpus: Path) -> dict[str, Any]:
    result = run("compare", "2007", "2017", "--format", "json", "--corpus", str(corpus))
    assert result.exit_code in (0, 1), result.output
    data: dict[str, Any] = json.loads(result.stdout)
    # Where each page came from: the corpus's files, fingerprinted.
    del data["lawdiff"]["editions"]
    return data


def test_two_editions_fetched_compare_as_their_exports(
    wiki: tuple[Wiki, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served, source = wiki
    corpus = tmp_path / "corpus"
    first = run("fetch", served.url, "--edition", "2007", "-o", str(corpus), "--contact", "test@example.org")
    assert first.exit_code == 0, first.output
    assert (
        first.stdout == f"2007: 9 pages, 9 exported, 0 unchanged (same revision) -> {corpus}/2007/mediawiki-2007.xml\n"
    )
    # The help's example, with the test wiki's address.
    example = shlex.split(next(ln for ln in (fetch_command.help or "").splitlines() if "Example:" in ln))
    assert example[:3] == ["Example:", "lawdiff", "fetch"] and "--edition" in example
    monkeypatch.chdir(tmp_path)
    second = run("fetch", served.api, *example[4:])
    assert second.exit_code == 0, second.output
    assert second.stdout.startswith("2017: 19 pages, 19 exported, 0 unchanged (same revision)")
    assert sorted(p.name for p in (corpus / "2017").iterdir()) == [MANIFEST, "mediawiki-2017.xml"]

    assert _compare(corpus) == _compare(source)
    check = run("check", "--corpus", str(corpus))
    assert check.exit_code == 0, check.output
    assert check.stdout.splitlines()[-1].startswith("2 file(s), 4 page(s), 2 edition(s):")
    assert "(100.0%), 0 fragment(s) unplaced" in check.stdout
    assert ".lawdiff" not in check.stdout

    against = run("check", "--against", served.url, "--corpus", str(corpus))
    assert against.exit_code == 0, against.output
    assert against.stdout.splitlines()[-1] == f"4 page(s) checked against {served.url}: 4 the same, 0 differ"

    manifest = json.loads((corpus / "2017" / MANIFEST).read_text(encoding="utf-8"))
    pages = manifest["files"]["mediawiki-2017.xml"]["pages"]
    assert (manifest["source"], manifest["kind"], len(pages)) == (served.api, "mediawiki", 19)
    again = run("fetch", served.url, "--edition", "2017", "-o", str(corpus))
    assert again.stdout.startswith("2017: 19 pages, 0 exported, 19 unchanged (same revision) -> "), again.output
    # A page the last fetch held that the wiki no longer lists (deleted there) is said, and leaves the export.
    pages.append({"id": 99999, "title": "Sjabloon:2017:99", "revision": 1})
    (corpus / "2017" / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    gone = run("fetch", served.url, "--edition", "2017", "-o", str(corpus))
    assert gone.stdout.startswith(
        "2017: 19 pages, 0 exported, 19 unchanged (same revision), 1 no longer on the wiki: Sjabloon:2017:99 -> "
    ), gone.output
    assert "Sjabloon:2017:99" not in (corpus / "2017" / MANIFEST).read_text(encoding="utf-8")


def test_an_edited_page_differs_then_is_fetched_alone(
    wiki: tuple[Wiki, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served, _ = wiki
    corpus = tmp_path / "corpus"
    assert run("fetch", served.url, "--edition", "2017", "-o", str(corpus)).exit_code == 0
    title = "Sjabloon:2017:45G"
    original = served.text(title)
    assert "dicht te leggen" in original
    served.edit(title, original.replace("dicht te leggen", "dicht of open te leggen"))
    try:
        stale = run("check", "--against", served.url, "--corpus", str(corpus))
        assert stale.exit_code == 1, stale.output
        differs = (
            "differs from the wiki's rendering in 1 place(s):\n"
            "  lawdiff: zijn kaart niet dicht [] te leggen voordat alle\n"
            "  wiki:    zijn kaart niet dicht [of open] te leggen voordat alle\n"
        )
        assert stale.stdout == (
            f"2017/mediawiki-2017.xml: Sjabloon:2017:HVI: {differs}"
            f"2017/mediawiki-2017.xml: Sjabloon:2017:HVI1: {differs}"
            "2017/mediawiki-2017.xml: Sjabloon:2017:6: the same 460 words as the wiki's rendering\n"
            f"3 page(s) checked against {served.url}: 1 the same, 2 differ\n"
        )

        dry = run("fetch", served.url, "--edition", "2017", "-o", str(corpus), "--dry-run")
        assert dry.stdout == "2017: would export 1 of 19 pages (18 held at their revision):\n  Sjabloon:2017:45G\n"
        _interrupted_before_the_export_is_written(served, corpus, tmp_path / "cut", monkeypatch)
        again = run("fetch", served.url, "--edition", "2017", "-o", str(corpus))
        assert again.stdout.startswith("2017: 19 pages, 1 exported, 18 unchanged (same revision)"), again.output
        assert "dicht of open te leggen" in (corpus / "2017" / "mediawiki-2017.xml").read_text(encoding="utf-8")
        fresh = run("check", "--against", served.url, "--corpus", str(corpus))
        assert fresh.exit_code == 0, fresh.output
    finally:
        served.edit(title, original)


def _interrupted_before_the_export_is_written(
    served: Wiki, corpus: Path, cut: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy of ``corpus`` updated by a fetch stopped after its last batch, before the export is written,
    then resumed: the export is written from the batch, nothing is exported again."""
    shutil.copytree(corpus, cut)
    write = fetch_mediawiki.write_atomic

    def stop_at_the_export(path: Path, data: bytes) -> None:
        if path.name == "mediawiki-2017.xml":
            raise KeyboardInterrupt
        write(path, data)

    with monkeypatch.context() as m:
        m.setattr(fetch_mediawiki, "write_atomic", stop_at_the_export)
        assert run("fetch", served.url, "--edition", "2017", "-o", str(cut)).exit_code != 0
    resumed = run("fetch", served.url, "--edition", "2017", "-o", str(cut))
    assert resumed.stdout.startswith(
        "2017: 19 pages, 0 exported, 19 unchanged (same revision), 1 from the interrupted fetch"
    ), resumed.output
    assert "dicht of open te leggen" in (cut / "2017" / "mediawiki-2017.xml").read_text(encoding="utf-8")


def test_an_interrupted_fetch_resumes(wiki: tuple[Wiki, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    served, _ = wiki
    whole = tmp_path / "whole"
    assert run("fetch", served.url, "--edition", "2017", "-o", str(whole)).exit_code == 0

    asked: list[list[int]] = []
    export = Api.export

    def interrupted(self: Api, ids: list[int]) -> bytes:
        asked.append(ids)
        if len(asked) == 3:
            raise KeyboardInterrupt  # Ctrl-C during the third batch
        return export(self, ids)

    monkeypatch.setattr(fetch_mediawiki, "EXPORT_BATCH", 4)
    monkeypatch.setattr(wikiapi, "LIMIT", "3")  # the listing follows the API's continuation
    monkeypatch.setattr(Api, "export", interrupted)
    corpus = tmp_path / "corpus"
    cut = run("fetch", served.url, "--edition", "2017", "-o", str(corpus))
    assert cut.exit_code != 0
    folder = corpus / "2017"
    assert not (folder / "mediawiki-2017.xml").exists()
    assert len(list((folder / PARTIAL).iterdir())) == 2
    monkeypatch.setattr(Api, "export", lambda self, ids: asked.append(ids) or export(self, ids))
    asked.clear()
    resumed = run("fetch", served.url, "--edition", "2017", "-o", str(corpus))
    assert resumed.stdout.startswith(
        "2017: 19 pages, 11 exported, 8 unchanged (same revision), 8 from the interrupted fetch"
    ), resumed.output
    assert sum(len(ids) for ids in asked) == 11
    assert not (folder / PARTIAL).exists()
    assert (folder / "mediawiki-2017.xml").read_bytes() == (whole / "2017" / "mediawiki-2017.xml").read_bytes()
