"""Errors at the edges that are not about input files: where output goes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from lawdiff.cli import main
from lawdiff.sources.nuxt import href_address


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize(
    "args",
    [
        ["compare", "2007", "2017", "-o", "{blocker}/out.txt"],
        ["compare", "2007", "2017", "--format", "html", "-o", "{blocker}/out.html"],
        ["report", "-o", "{blocker}/site"],
    ],
    ids=["compare-text", "compare-html", "report"],
)
def test_an_output_path_that_cannot_be_written_is_one_line(tmp_path: Path, args: list[str]) -> None:
    blocker = tmp_path / "a-file"  # a file where a folder should be
    blocker.write_text("x", encoding="utf-8")
    result = CliRunner().invoke(main, [a.format(blocker=blocker) for a in args])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lawdiff: error: ")
    assert str(blocker) in lines[0]
    assert "Traceback" not in result.stderr
    # nothing half-written next to the blocker
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


@pytest.mark.parametrize(
    ("href", "address"),
    [
        ("#artikel-45-d", "45D"),
        ("#artikel-45-c-1", "45C1"),
        ("#artikel-45", "45"),
        ("#user-content-fn-h6a-4", ""),
        ("/spelen/juiste-gang-van-zaken/artikel-47#artikel-47-d", "47D"),
        ("/definities", "definities"),
        ("https://example.org/x", ""),
    ],
)
def test_site_links_name_clauses(href: str, address: str) -> None:
    assert href_address(href) == address
