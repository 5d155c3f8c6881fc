"""Nothing a reader could reach in the report becomes unreachable (issue 26).

``tests/golden/html/reachable-*.txt`` list every clause text (old and new reading of each block of law
text), every anchor and every link target of each page of two reports, as they stood before the pages
were made to carry only what changed: the bundled corpus, and a small generated corpus of four
editions (``benchmarks/generate.py``, with more of each kind of edit than a printing makes, so that a
few articles hold splits, merges, moves, additions and removals).  Each entry must still be on the
same page of today's report (it may be elsewhere on it: collapsed, merged, in another table); what
was removed on purpose is struck from the list in the same commit.  New entries are welcome.

``LAWDIFF_UPDATE_GOLDEN=1`` writes the lists afresh from today's report: only for a new corpus here,
never to hide a loss (review the diff: every line removed must be a loss meant).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
from benchscripts import generator
from reachable import listing, parse_listing, reach

from lawdiff.cli import main

GOLDEN = Path(__file__).parent / "golden" / "html"
UPDATE = os.environ.get("LAWDIFF_UPDATE_GOLDEN") == "1"


@functools.cache
def generated_folder(root: Path) -> Path:
    """Four generated editions of five articles, written as wiki pages under ``root``."""
    gen = generator()
    rates = gen.Rates(rewrite=0.3, split=0.08, merge=0.08, move=0.06, add=0.08, remove=0.06, swap=0.3)
    made = gen.generate(articles=5, years=(1987, 1997, 2007, 2017), seed=26, rates=rates)
    folder = root / "generated"
    gen.write(made, folder)
    return folder


def _report(args: list[str], out: Path) -> Path:
    from click.testing import CliRunner

    result = CliRunner().invoke(main, ["report", *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("name", ["bundled", "generated"])
def test_every_text_anchor_and_link_of_the_golden_list_is_still_reachable(name: str, tmp_path: Path) -> None:
    args = [] if name == "bundled" else ["--corpus", str(generated_folder(tmp_path))]
    out = _report(args, tmp_path / "report")
    now = parse_listing(listing(reach(out)))
    golden = GOLDEN / f"reachable-{name}.txt"
    if UPDATE:
        golden.write_text(listing(reach(out)), encoding="utf-8", newline="\n")
    expected = parse_listing(golden.read_text(encoding="utf-8"))
    lost = [
        f"{entry} (on {', '.join(sorted(pages - now.get(entry, set())))})"
        for entry, pages in expected.items()
        if not pages <= now.get(entry, set())
    ]
    assert not lost, f"{len(lost)} entries of {golden.name} are no longer reachable where they were: {lost[:10]}"
