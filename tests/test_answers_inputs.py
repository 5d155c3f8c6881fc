"""Inputs of a kept answer (lawdiff.cli.kept) that its key did not hold: the code the answer is made with
(the corpus package, the HTML report's stylesheet and script), and a corpus file that changed while the answer
was being made."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import lawdiff
import lawdiff.cache as cache_module
import lawdiff.cli.compare as compare_cli
from lawdiff.cli import main
from lawdiff.cli.kept import Answer
from lawdiff.corpus import default_corpus

PAIR = ("compare", "2007", "2017")


def invoke(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == code, result.output
    return result


def test_the_fingerprint_holds_the_code_and_the_assets_an_answer_is_made_with(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key holds the fingerprint, and a kept answer is the whole output: the corpus package (merging,
    timeline, outline) and the stylesheet and script an HTML page inlines must be in it."""
    hashed: list[Path] = []
    read_bytes = Path.read_bytes

    def recorded(self: Path) -> bytes:
        hashed.append(self)
        return read_bytes(self)

    monkeypatch.setattr(cache_module, "_FINGERPRINT", "")
    monkeypatch.setattr(Path, "read_bytes", recorded)
    cache_module.fingerprint()
    root = Path(lawdiff.__file__).resolve().parent
    names = {p.relative_to(root).as_posix() for p in hashed if p.is_relative_to(root)}
    for shaping in (
        "corpus/merge.py",
        "corpus/timeline.py",
        "corpus/outline.py",
        "corpus/reading.py",
        "report/assets/report.css",
        "report/assets/report.js",
    ):
        assert shaping in names, shaping


def _lawdiff(package: Path, cwd: Path, cache: Path, *args: str) -> bytes:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAWDIFF_")}
    env |= {"PYTHONPATH": str(package), "LAWDIFF_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-m", "lawdiff", *args], cwd=cwd, env=env, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_html_answer_is_made_again_when_lawdiffs_stylesheet_changes(tmp_path: Path) -> None:
    """A new lawdiff (its stylesheet changed, its version not) must not give the old page from the cache."""
    package = tmp_path / "site"
    shutil.copytree(
        Path(lawdiff.__file__).resolve().parent, package / "lawdiff", ignore=shutil.ignore_patterns("__pycache__")
    )
    work = tmp_path / "work"
    work.mkdir()
    args = (*PAIR, "--corpus", str(default_corpus()), "--format", "html")
    before = _lawdiff(package, work, tmp_path / "cache", *args)
    css = package / "lawdiff" / "report" / "assets" / "report.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.review21-new-rule { color: red; }\n", encoding="utf-8")
    after = _lawdiff(package, work, tmp_path / "cache", *args)
    assert b"review21-new-rule" not in before
    assert b"review21-new-rule" in after


def test_a_file_changed_while_comparing_is_not_kept_under_its_old_content(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is made from the files as they were before the comparison read them; a page saved meanwhile
    (an editor, a sync) gives an answer of the new text, which must not be kept under the old text's key."""
    corpus = Path(shutil.copytree(default_corpus(), tmp_path / "corpus"))
    page = corpus / "2007" / "wiki-Sjabloon-2007-45.txt"
    original = page.read_text(encoding="utf-8")
    args = (*PAIR, "--corpus", str(corpus), "--format", "json")
    real = compare_cli._comparison_answer

    def saved_meanwhile(*a: object, **k: object) -> tuple[Answer, bool]:
        page.write_text(original.replace("speler", "spelers", 1), encoding="utf-8")
        return real(*a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(compare_cli, "_comparison_answer", saved_meanwhile)
    edited = invoke(*args).stdout_bytes
    monkeypatch.setattr(compare_cli, "_comparison_answer", real)
    page.write_text(original, encoding="utf-8")  # the edit undone
    fresh = invoke(*args, "--no-cache").stdout_bytes
    assert fresh != edited
    assert invoke(*args).stdout_bytes == fresh


def test_a_file_changed_while_its_pages_were_read_is_not_kept_under_its_old_content(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for the pages (lawdiff.corpus.reading): their key is made from the bytes read first, the pages
    from the file read again; pages of the new text kept under the old text's key make every later answer
    (kept or not) of the old text wrong."""
    import lawdiff.corpus.reading as reading
    from lawdiff.sources import iter_file as real

    corpus = Path(shutil.copytree(default_corpus(), tmp_path / "corpus"))
    page = corpus / "2007" / "wiki-Sjabloon-2007-45.txt"
    original = page.read_text(encoding="utf-8")
    args = (*PAIR, "--corpus", str(corpus), "--format", "json")

    def saved_meanwhile(path: Path, *a: str) -> Iterator[object]:
        if path == page:
            page.write_text(original.replace("speler", "spelers", 1), encoding="utf-8")
        return real(path, *a)

    monkeypatch.setattr(reading, "iter_file", saved_meanwhile)
    invoke(*args)
    monkeypatch.setattr(reading, "iter_file", real)
    page.write_text(original, encoding="utf-8")  # the edit undone
    assert invoke(*args).stdout_bytes == invoke(*args, "--no-cache").stdout_bytes
