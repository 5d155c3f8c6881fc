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

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import lawdiff.cli.answers as answers

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz_cache.py"


def _fuzz() -> ModuleType:
    name = "lawdiff_bench_fuzz_cache"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


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
