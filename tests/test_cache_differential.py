"""Warm runs give the bytes of cold ones, whatever changed in between (the README's promise, issue 8).

A short seeded sequence of ``benchmarks/fuzz_cache.py``: every mutation kind
once (a page edited, retitled, swapped, renamed, copied, deleted and restored,
touched; the settings, ``--threshold``, ``--article``, ``--format`` and ``-o``
changed; a decision, a pin and a forbid written to a review store; a draft
given; a year folder and a page replaced by links, the corpus given through a
link turned to a snapshot; cache entries damaged; a page edited while a warm run
reads), each followed by commands run warm (one cache folder for the whole
sequence) and cold, in this process through click's runner; exit codes,
stdout, stderr and every file written are compared.  The long runs, as
processes, are the script's (see ``benchmarks/README.md``).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType

import pytest
from benchscripts import bench_module

import lawdiff.cli.kept as answers
from lawdiff.cache import Cache


def _fuzz() -> ModuleType:
    return bench_module("fuzz_cache")


@pytest.mark.parametrize(("seed", "base"), [(11, "mixed"), (12, "generated")])
def test_every_mutation_leaves_warm_runs_as_cold_ones(seed: int, base: str, tmp_path: Path) -> None:
    fuzz = _fuzz()
    lines: list[str] = []
    fuzzer = fuzz.Fuzzer(seed, base, articles=6, commands=2, runner=fuzz.run_in_process, say=lines.append)
    found = fuzzer.run(len(fuzz.COVER), tmp_path)
    assert found is None, found.report() + "\n" + "\n".join(lines)
    assert fuzzer.bugs == []
    applied = {s.action.kind for s in fuzzer.steps if s.action is not None and s.applied}
    assert applied == set(fuzz.COVER), sorted(k.value for k in set(fuzz.COVER) - applied)
    ran = {c.argv[0] if c.argv[0] != "review" else "review-list" for s in fuzzer.steps for c in s.commands}
    assert ran == set(fuzz.COMMANDS)


def test_the_harness_sees_an_answer_kept_under_a_stale_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: with the corpus's content left out of the answer's key, an edited page is
    not compared again, and the warm run prints the old answer."""
    fuzz = _fuzz()
    identity = answers.corpus_identity

    def names_only(dirs: tuple[Path, ...], draft: tuple[Path, str, str] | None) -> str | None:
        return None if identity(dirs, draft) is None else repr(dirs)

    monkeypatch.setattr(answers, "corpus_identity", names_only)
    compare = fuzz.Command(("compare", "2007", "2017", "--corpus", "{root}/corpus", "--format", "json"))
    page = "2017/nuxt-artikel-45.payload.json"
    text = (fuzz.ROOT / "corpus" / page).read_text(encoding="utf-8")
    at = text.index("onbedoeld")
    steps = [
        fuzz.Step(None, False, [compare]),
        fuzz.Step(fuzz.Action(fuzz.Mutation.EDIT_WORD, (page, str(at), "onbedoeld", "per ongeluk")), True, [compare]),
    ]
    data = {"seed": 0, "base": "bundled", "articles": 6}
    found = fuzz.replay(data, steps, fuzz.run_in_process, lambda _line: None)
    assert found is not None and found.step == 2 and found.what == "stdout"
    assert b"per ongeluk" in found.cold and b"per ongeluk" not in found.warm


def test_a_whole_entry_under_another_entrys_name_is_not_trusted(tmp_path: Path) -> None:
    """Found by the fuzzer (a mutation it has since, ``misfile``): one file's kept outlines copied over
    another file's entry were taken for that file's, and a warm ``check`` reported the first file's pages
    in place of the second's; a file's kept pages copied over its outlines (the same key, in the next
    folder) made it fail with an internal error."""
    fuzz = _fuzz()
    world = fuzz.World(tmp_path / "world", "bundled", 6)
    check = fuzz.Command(("check", "--corpus", "{root}/corpus"))
    fuzz.run_in_process(world, fuzz.Command(("compare", "2007", "2017", "--corpus", "{root}/corpus")), True)
    fuzz.run_in_process(world, check, True)
    outlines = sorted((world.cache / "outlines").glob("*/*.pickle"))
    pages = sorted((world.cache / "pages").glob("*/*.pickle"))
    assert len(outlines) == 5 and len(pages) == 3  # one a page file; compare read 2007's and 2017's
    shutil.copyfile(outlines[0], outlines[1])
    twin = next(e for e in pages if e.name != outlines[1].name)
    assert (world.cache / "outlines" / twin.parent.name / twin.name).is_file()  # the same key
    shutil.copyfile(twin, world.cache / "outlines" / twin.parent.name / twin.name)
    warm, cold = fuzz.run_in_process(world, check, True), fuzz.run_in_process(world, check, False)
    assert fuzz.differ(2, check, warm, cold) is None
    assert warm.code == 0


def test_an_entry_is_read_under_its_own_kind_and_key_only(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    cache.put("pairs", "a" * 64, ["kept under a"])
    cache.put("pairs", "b" * 64, ["kept under b"])
    first, second = (
        tmp_path / "pairs" / "aa" / ("a" * 64 + ".pickle"),
        tmp_path / "pairs" / "bb" / ("b" * 64 + ".pickle"),
    )
    shutil.copyfile(first, second)
    assert cache.get("pairs", "a" * 64) == ["kept under a"]
    assert cache.get("pairs", "b" * 64) is None
    # The pages and the outlines of a file are kept under the same key, in two folders.
    (tmp_path / "outlines" / "aa").mkdir(parents=True)
    shutil.copyfile(first, tmp_path / "outlines" / "aa" / first.name)
    assert cache.get("outlines", "a" * 64) is None
