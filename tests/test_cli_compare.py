"""`lawdiff compare` and `lawdiff history` through click's runner.

Whole outputs are compared byte for byte with the golden files in
``tests/golden/compare/``: each case is a ``NAME.cmd`` file (the arguments
after ``lawdiff`` on an ``args:`` line, and the expected ``exit:`` code) and a
``NAME.out`` file (the exact standard output).  Adding a case adds no code.
``LAWDIFF_UPDATE_GOLDEN=1 python3 -m pytest tests/test_cli_compare.py``
rewrites the ``.out`` files; read every changed one before keeping it.

The JSON outputs are checked against the published schemas
(``schemas/compare.schema.json``, ``schemas/history.schema.json``).
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import shlex
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from test_align_gold import bundled
from test_align_synthetic import build

from lawdiff.align import DEFAULT_THRESHOLDS, Thresholds
from lawdiff.cli import main
from lawdiff.corpus import Corpus
from lawdiff.diff import Study, compare, history
from lawdiff.diff.vocabulary import ChangeKind
from lawdiff.errors import UsageError
from lawdiff.report import jsonout

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = Path(__file__).parent / "golden" / "compare"
SCHEMA_DIR = ROOT / "schemas"
UPDATE = os.environ.get("LAWDIFF_UPDATE_GOLDEN") == "1"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# ---------------------------------------------------------------------------
# Schemas


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    schemas = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in SCHEMA_DIR.glob("*.schema.json")}
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    registry: Registry[Any] = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()
    )
    return Draft202012Validator(schemas[name], registry=registry)


def assert_valid(document: Any, schema: str) -> None:
    errors = sorted(_validator(schema).iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:10])


def test_the_json_output_names_its_schema() -> None:
    schema = json.loads((SCHEMA_DIR / "compare.schema.json").read_text(encoding="utf-8"))
    assert schema["$id"] == jsonout.COMPARE_SCHEMA


@pytest.mark.parametrize(
    ("old", "new"), list(itertools.product(["1963", "1997", "2007", "2017"], repeat=2)), ids="{0[0]}-{0[1]}".format
)
def test_compare_json_validates(old: str, new: str) -> None:
    result = run("compare", old, new, "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert_valid(document, "compare.schema.json")
    assert (document["old"], document["new"]) == (old, new)


@pytest.mark.parametrize("name", ["section_swap", "split_and_merge", "editorial_edits", "subject_changed"])
def test_compare_json_of_synthetic_editions_validates(name: str) -> None:
    c = build(name)
    comp = compare(c.old, c.new)
    assert_valid(json.loads(jsonout.comparison(comp, list(comp.changes), None, (c.old, c.new))), "compare.schema.json")


def test_every_change_record_field_is_in_the_schema() -> None:
    """The schema lists the change record's fields: a new field needs a schema entry."""
    schema = json.loads((SCHEMA_DIR / "compare.schema.json").read_text(encoding="utf-8"))
    change = schema["$defs"]["change"]
    old, new = bundled().edition("2007"), bundled().edition("2017")
    comp = compare(old, new)
    emitted = set(json.loads(jsonout.comparison(comp, list(comp.changes), None, (old, new)))["changes"][0])
    # "review" is there when a review store was read.
    assert emitted == set(change["required"]) == set(change["properties"]) - {"review"}


def test_the_schema_rejects_a_broken_change() -> None:
    document = json.loads(run("compare", "2007", "2017", "--article", "45", "--format", "json").stdout)
    change = document["changes"][0]
    for broken in (
        {**change, "kind": "rewritten"},
        {**change, "diff": [["replace", "x"]]},
        {**change, "diff": [["equal"]]},
        {**change, "similarity": 1.5},
        {**change, "kind": "added"},  # an addition has no old side
        {k: v for k, v in change.items() if k != "references"},
    ):
        assert list(_validator("compare.schema.json").iter_errors({**document, "changes": [broken]}))


HISTORY_SPECS = ["1963:45(d)", "2017:45C4(b)", "2007:45E.p1", "1997:53C", "2017:6A", "1963:45.p1", "2017:45D"]


@pytest.mark.parametrize("spec", HISTORY_SPECS)
def test_history_json_validates(spec: str) -> None:
    result = run("history", spec, "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert_valid(document, "history.schema.json")
    assert [s["edition"] for s in document["steps"]] == ["1963", "1997", "2007", "2017"]


def test_history_of_every_clause_starts_where_it_is_and_validates() -> None:
    corpus = bundled()
    comparer = Study(corpus.editions)
    bare = []
    for edition in corpus.editions:
        for clause in edition.walk():
            if not clause.text and not clause.title:
                # Only a number (2007 45C4 "4."): no words link it, so it has no history of its own; its
                # history said "removed" in the very edition that holds it.
                with pytest.raises(UsageError, match="has no words of its own, only its number") as exc:
                    history(comparer, edition, clause.address)
                words = [c.address for c in clause.walk() if c.text or c.title]
                assert exc.value.fix.startswith(f"follow its clauses: lawdiff history '{edition.name}:{words[0]}'")
                bare.append(f"{edition.name}:{clause.address}")
                continue
            h = history(comparer, edition, clause.address)
            (here,) = [s for s in h.steps if s.edition == edition.name]
            assert clause.address in here.addresses and ChangeKind.REMOVED not in here.kinds
            if edition.name == "2007":
                document = json.loads(jsonout.history(h, comparer.thresholds, comparer.editions))
                assert_valid(document, "history.schema.json")
    assert "2007:45C4" in bare and "2017:45C4" in bare


@pytest.mark.parametrize(
    ("spec", "skipped", "last", "or_earlier"),
    [
        # Only the 2017 corpus holds article 6 (and the chapter heading H3): the wording may be older.
        ("2017:6A", "article", "introduced in 2017 or earlier: the 1963, 1997 and 2007 corpora do not hold it", 3),
        ("2017:H3", "heading", "introduced in 2017 or earlier: the 1963, 1997 and 2007 corpora do not hold it", 3),
        ("1997:53A", "article", "introduced in 1997 or earlier: the 1963 corpus does not hold it", 1),
        # 1997 lacks article 45, but the wording came in 2017, after 2007, which holds it: certain.
        ("2017:45C4(b)", "article", "introduced in 2017", 0),
    ],
)
def test_history_says_what_the_corpus_cannot_tell(spec: str, skipped: str, last: str, or_earlier: int) -> None:
    out = run("history", spec, "--no-cache").stdout.splitlines()
    assert out[-1] == f"current wording {last}"
    assert all("[added]" not in line and "[removed]" not in line for line in out)  # a corpus lacking it is no step
    assert any(line.endswith(f"({skipped} not in the 1997 corpus)") for line in out) or spec.startswith("1997")
    document = json.loads(run("history", spec, "--format", "json", "--no-cache").stdout)
    assert_valid(document, "history.schema.json")
    assert len(document["introduced_or_earlier"]) == or_earlier
    assert [s["in_corpus"] for s in document["steps"]].count(False) >= or_earlier


def test_a_heading_history_follows_headings_and_a_body_history_bodies(corpus: Corpus) -> None:
    # 2017 45D is a heading alone (its text went to 45D1); 2007 45D has a heading and a body.
    study = Study(corpus.editions)
    heading = history(study, corpus.edition("2017"), "45D")
    (at_2007,) = [s for s in heading.steps if s.edition == "2007"]
    assert at_2007.texts == ("Ten onrechte door de blinde gespeelde kaart",)
    assert at_2007.kinds == (ChangeKind.ADDED,)
    body = history(study, corpus.edition("2017"), "45D1")
    (body_2007,) = [s for s in body.steps if s.edition == "2007"]
    assert body_2007.addresses == ("45D",) and body_2007.texts == (corpus.edition("2007").find("45D").text,)  # type: ignore[union-attr]
    for h in (heading, body):
        for step in h.steps:
            assert len({ch.aspect for ch in step.changes}) <= 1, step


def test_an_edition_whose_corpus_lacks_the_article_is_not_a_step_of_absence() -> None:
    out = run("history", "2017:45D2", "--no-cache").stdout.splitlines()
    assert "1997  (article not in the 1997 corpus)" in out
    assert "1963  (none: not present)" in out and "2007  (none: not present)" in out


# ---------------------------------------------------------------------------
# Thresholds

THRESHOLD_NAMES = [f.name for f in fields(Thresholds)]


def _thresholds_line(output: str) -> str:
    line = next(line for line in output.splitlines() if line.startswith(("thresholds: ", "thresholds set: ")))
    return line.replace("thresholds set: ", "thresholds: ")


def test_only_thresholds_set_away_from_their_defaults_are_printed() -> None:
    assert not any(line.startswith("thresholds") for line in run("compare", "2007", "2017").stdout.splitlines())
    text = run("compare", "2007", "2017", "--threshold", "gap_min=0.2").stdout
    assert "thresholds set: gap_min=0.2\n" in text


def test_every_threshold_is_printed_with_its_value() -> None:
    text = run("compare", "2007", "2017", "--no-color", "--verbose").stdout
    line = _thresholds_line(text)
    shown = dict(item.split("=") for item in line.removeprefix("thresholds: ").split())
    assert {k: float(v) for k, v in shown.items()} == DEFAULT_THRESHOLDS.as_dict()
    document = json.loads(run("compare", "2007", "2017", "--format", "json").stdout)
    assert document["thresholds"] == DEFAULT_THRESHOLDS.as_dict()


@pytest.mark.parametrize("name", THRESHOLD_NAMES)
def test_every_threshold_is_settable(name: str) -> None:
    value = 0.37 if getattr(DEFAULT_THRESHOLDS, name) != 0.37 else 0.38
    text = run("compare", "2007", "2017", "--no-color", "--threshold", f"{name}={value}")
    assert text.exit_code == 0, text.output
    assert f" {name}={value:g}" in _thresholds_line(text.stdout)
    document = json.loads(run("compare", "2007", "2017", "--format", "json", "--threshold", f"{name}={value}").stdout)
    assert document["thresholds"] == {**DEFAULT_THRESHOLDS.as_dict(), name: value}


def test_thresholds_at_the_bounds_are_accepted() -> None:
    result = run("compare", "2007", "2017", "--threshold", "match_min=0", "--threshold", "certain=1", "--no-color")
    assert result.exit_code == 0, result.output
    assert " match_min=0 " in _thresholds_line(result.stdout) + " "
    assert " certain=1 " in _thresholds_line(result.stdout) + " "


def test_a_threshold_changes_the_alignment() -> None:
    """Raising match_min and gap_min to 1 leaves fewer matches, so more additions."""
    default = json.loads(run("compare", "1963", "2007", "--format", "json").stdout)["counts"]
    strict = json.loads(
        run(
            "compare", "1963", "2007", "--format", "json", "--threshold", "match_min=1", "--threshold", "gap_min=1"
        ).stdout
    )["counts"]
    assert strict["added"] > default["added"]


@pytest.mark.parametrize(
    "item",
    [
        "nonsense=0.5",  # unknown name
        "match_min=1.5",  # above 1
        "match_min=-0.1",  # below 0
        "match_min=nan",
        "match_min=abc",  # not a number
        "match_min",  # no value
        "=0.5",  # no name
    ],
)
@pytest.mark.parametrize("command", [("compare", "2007", "2017"), ("history", "2017:45C4(b)")])
def test_a_bad_threshold_exits_2_with_one_line(item: str, command: tuple[str, ...]) -> None:
    result = run(*command, "--threshold", item)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("lawdiff: error: "), result.stderr


# ---------------------------------------------------------------------------
# --exit-code


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_exit_code_is_1_when_there_are_differences(fmt: str) -> None:
    assert run("compare", "2007", "2017", "--exit-code", "--format", fmt).exit_code == 1
    assert run("compare", "2007", "2017", "--format", fmt).exit_code == 0


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("edition", ["1963", "1997", "2007", "2017"])
def test_exit_code_is_0_when_there_are_none(edition: str, fmt: str) -> None:
    result = run("compare", edition, edition, "--exit-code", "--format", fmt)
    assert result.exit_code == 0, result.output


def test_exit_code_on_a_synthetic_corpus(tmp_path: Path) -> None:
    for file, text in build("section_swap").files.items():
        (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / file).write_text(text, encoding="utf-8")
    corpus = ["--corpus", str(tmp_path)]
    swapped = run("compare", "2001", "2002", "--exit-code", "--no-color", *corpus)
    assert swapped.exit_code == 1
    assert "unchanged 53C -> 53B  (renumbered)" in swapped.stdout
    assert run("compare", "2002", "2002", "--exit-code", *corpus).exit_code == 0


# ---------------------------------------------------------------------------
# Golden files


@dataclass(frozen=True)
class Golden:
    name: str
    args: tuple[str, ...]
    exit: int
    out: Path


def _read_cmd(path: Path) -> Golden:
    values: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition(":")
            values[key.strip()] = value.strip()
    if "args" not in values:
        raise ValueError(f"{path.name}: needs an 'args:' line")
    return Golden(path.stem, tuple(shlex.split(values["args"])), int(values.get("exit", "0")), path.with_suffix(".out"))


GOLDENS = [_read_cmd(p) for p in sorted(GOLDEN_DIR.glob("*.cmd"))]


def test_the_issue_goldens_are_there() -> None:
    commands = {" ".join(g.args) for g in GOLDENS}
    assert {
        "compare 2007 2017 --article 45 --no-color",
        "compare 1963 2007 --article 45 --no-color",
        "history 1963:45(d) --no-color",
        "history 2017:45C4(b) --no-color",
    } <= commands
    assert any("json" in g.args for g in GOLDENS)


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.name for g in GOLDENS])
def test_golden_output(golden: Golden) -> None:
    result = run(*golden.args)
    assert result.exit_code == golden.exit, result.output
    assert result.stderr == ""
    if UPDATE:
        golden.out.write_bytes(result.stdout_bytes)
    assert golden.out.exists(), f"no {golden.out.name}: run with LAWDIFF_UPDATE_GOLDEN=1 and review it"
    expected = golden.out.read_bytes()
    assert result.stdout_bytes == expected, f"lawdiff {' '.join(golden.args)} differs from {golden.out.name}"


def test_json_golden_is_valid() -> None:
    for golden in GOLDENS:
        if "json" in golden.args and golden.out.exists() and golden.args[0] == "compare":
            assert_valid(json.loads(golden.out.read_text(encoding="utf-8")), "compare.schema.json")


@pytest.mark.parametrize(
    "args",
    [
        ("compare", "2007", "2017"),
        ("correlate", "2007", "2017"),
        ("review", "list"),
        ("review", "export"),
    ],
)
def test_a_bad_output_is_refused_before_the_work(
    args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lawdiff.cli.options import Inputs

    def no_work(*_: object, **__: object) -> None:
        raise AssertionError("the corpus was read before the output was checked")

    monkeypatch.setattr(Inputs, "load", no_work)
    readonly = tmp_path / "archived.txt"
    readonly.write_text("kept\n", encoding="utf-8")
    readonly.chmod(0o444)
    for output, said in (
        (tmp_path, f"{tmp_path}: is a folder"),
        (tmp_path / "nope" / "x.txt", f"{tmp_path / 'nope'}: no such folder"),
        (readonly, f"{readonly}: the file is read-only"),
    ):
        result = CliRunner().invoke(main, [*args, "-o", str(output), "--review", str(tmp_path / "r.sqlite")])
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"lawdiff: error: {said}"), result.stderr
    assert readonly.read_text(encoding="utf-8") == "kept\n"


def test_json_and_html_written_to_a_file_are_what_standard_output_shows(tmp_path: Path) -> None:
    # (Written to a file, they are written in pieces, one after the other.)
    for fmt in ("json", "html"):
        out = tmp_path / f"compare.{fmt}"
        assert run("compare", "2007", "2017", "--format", fmt, "-o", str(out)).exit_code == 0
        assert out.read_bytes() == run("compare", "2007", "2017", "--format", fmt).stdout_bytes
