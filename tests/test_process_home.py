"""One home for processes: no module but lawdiff.forked forks, makes a pool or tunes the garbage collector."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "lawdiff"
HOME = PACKAGE / "forked"
# What only the home may import: process pools of every kind, and the collector (running a program, as
# `git config` for a name, is not a pool).
KEPT = {"gc", "multiprocessing", "concurrent", "concurrent.futures"}
# Calls that fork or spawn, whatever was imported.
CALLS = {("os", "fork"), ("os", "forkpty"), ("os", "posix_spawn"), ("os", "spawnv")}


def _outside_home(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in KEPT or a.name in KEPT]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in KEPT:
            found.append(node.module)
        elif (
            isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (node.value.id, node.attr) in CALLS
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_only_the_home_forks_pools_or_tunes_the_collector() -> None:
    strays = {
        str(path.relative_to(PACKAGE)): names
        for path in sorted(PACKAGE.rglob("*.py"))
        if HOME not in path.parents and (names := _outside_home(path))
    }
    assert strays == {}


def test_the_check_finds_a_stray_pool(tmp_path: Path) -> None:
    stray = tmp_path / "stray.py"
    stray.write_text("import gc\nfrom multiprocessing import Pool\nimport os\nos.fork()\n", encoding="utf-8")
    assert _outside_home(stray) == ["gc", "multiprocessing", "os.fork"]


def test_the_pools_kept_by_default_are_those_the_benchmark_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    from lawdiff import forked

    monkeypatch.delenv("LAWDIFF_POOLS", raising=False)
    assert [s for s in forked.STAGES if forked.pooled(s)] == ["compare", "review"]
    assert forked.jobs(4, "read") == 1 and forked.jobs(4, "pages") == 1
    monkeypatch.setenv("LAWDIFF_POOLS", "pages,read")
    assert [s for s in forked.STAGES if forked.pooled(s)] == ["read", "pages"]
    monkeypatch.setenv("LAWDIFF_POOLS", "none")
    assert not any(forked.pooled(s) for s in forked.STAGES)
