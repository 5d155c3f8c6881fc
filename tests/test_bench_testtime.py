"""benchmarks/testselect.py, the plugin bench_testtime.py runs the tests of issue 23's day with."""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from benchscripts import BENCHMARKS, bench_module

select = bench_module("testselect")


def test_a_long_id_is_named_by_its_digest_and_a_short_one_as_it_is() -> None:
    short = "tests/test_cli.py::test_help[compare]"
    long = "tests/test_hostile.py::test_x[" + "[" * 300 + "]"
    assert select.key(short) == short
    assert select.key(long) == "sha256:" + hashlib.sha256(long.encode()).hexdigest()


def test_the_file_of_issue_23s_tests_names_each_once() -> None:
    lines = (BENCHMARKS / "data" / "tests-at-issue-23.txt").read_text(encoding="utf-8").splitlines()
    ids = [line for line in lines if line and not line.startswith("#")]
    assert len(ids) == len(set(ids)) == 1667
    assert all("::" in i or i.startswith("sha256:") for i in ids)


def test_only_the_named_tests_are_kept_whatever_group_xdist_appended(tmp_path: Path, monkeypatch: Any) -> None:
    named = tmp_path / "named.txt"
    named.write_text("# a comment\ntests/a.py::t1\ntests/b.py::t2[x@y]\n", encoding="utf-8")
    monkeypatch.setenv("LAWDIFF_TESTS_FROM", str(named))
    items = [
        SimpleNamespace(nodeid=n)
        for n in ("tests/a.py::t1@tests/a.py", "tests/a.py::t3", "tests/b.py::t2[x@y]", "tests/b.py::t2[z]")
    ]
    left: list[Any] = []
    config = SimpleNamespace(hook=SimpleNamespace(pytest_deselected=lambda items: left.extend(items)))
    select.pytest_collection_modifyitems(config, items)
    assert [i.nodeid for i in items] == ["tests/a.py::t1@tests/a.py", "tests/b.py::t2[x@y]"]
    assert [i.nodeid for i in left] == ["tests/a.py::t3", "tests/b.py::t2[z]"]
