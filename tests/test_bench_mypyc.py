"""``benchmarks/bench_mypyc.py``'s lists and its byte-for-byte check.  Not compiled here: mypyc takes a
minute of CPU; the script's run is the check that the modules compile."""

from __future__ import annotations

from pathlib import Path

from benchscripts import bench_module

bench_mypyc = bench_module("bench_mypyc")
ROOT = Path(__file__).resolve().parent.parent


def test_every_page_module_is_compiled_or_said_why_not() -> None:
    compiled, left = set(bench_mypyc.COMPILED), set(bench_mypyc.LEFT)
    assert not compiled & left
    for path in compiled | left:
        assert (ROOT / path).is_file(), path
    html = {str(p.relative_to(ROOT)) for p in (ROOT / "lawdiff/report/html").glob("*.py")}
    assert html == {p for p in compiled | left if p.startswith("lawdiff/report/html/")}


def test_same_files_sees_one_byte_and_one_file(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        (root / "sub").mkdir(parents=True)
        (root / "sub" / "page.html").write_bytes(b"<p>x</p>")
    assert bench_mypyc.same_files(a, b)
    (b / "sub" / "page.html").write_bytes(b"<p>y</p>")
    assert not bench_mypyc.same_files(a, b)
    (b / "sub" / "page.html").write_bytes(b"<p>x</p>")
    (b / "extra.html").write_bytes(b"")
    assert not bench_mypyc.same_files(a, b)
