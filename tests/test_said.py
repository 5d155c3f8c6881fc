"""Words made early and shown late (:mod:`lawdiff.i18n.said`): the alignment's reasons and the readers' notes
are English strings that carry their message, said in the reader's language where they are shown.

The English stays what it was (equal, hashed, written to JSON as before); a :class:`Said` keeps its
message and fields through pickle (the cache) and the pipes of forked processes; every reason the
aligner gives and every note a reader writes, over the bundled corpus and the fixtures, is one, with a
Dutch of its own in the catalog.
"""

from __future__ import annotations

import ast
import copy
import json
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from lawdiff import forked, i18n, jsontext
from lawdiff.align import Corrections, Pin
from lawdiff.align.links import COMMITTEE
from lawdiff.align.scoring import SAME_ADDRESS, SAME_ARTICLE
from lawdiff.cli import main
from lawdiff.corpus import Corpus, corpus_files, from_pages, load
from lawdiff.diff import compare
from lawdiff.i18n import N_
from lawdiff.i18n.said import Said, joined, say
from lawdiff.sources import read_file
from lawdiff.sources.base import Page
from lawdiff.sources.draft import read_draft

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def reason() -> Said:
    """A reason as the aligner makes one for a pair of a split: tagged, joined, with its method."""
    words = joined((Said(N_("shared words {score}"), score=0.2049), SAME_ARTICLE), ", ")
    return joined(("45(a)->45C1: ", joined((words, Said(N_("(gap)"))), " ")))


def test_a_said_is_its_english_text() -> None:
    said = Said(N_("shared words {score}"), score=0.8749)
    assert said == "shared words 0.87" and hash(said) == hash("shared words 0.87")
    assert (said.msgid, said.values, said.fields) == ("shared words {score}", (0.8749,), (("score", 0.8749),))
    assert type(str(said)) is str and repr(said) == repr("shared words 0.87")
    assert json.dumps([said]) == '["shared words 0.87"]'
    assert reason() == "45(a)->45C1: shared words 0.20, same article (gap)"
    # A field's conversion is the f-string's: repr for !r, a count as it is.
    note = Said(N_("note marker printed as {label!r}, read as footnote {number}"), label="*)", number=2)
    assert note == "note marker printed as '*)', read as footnote 2"
    assert joined(()) == "" and say(joined(())) == ""
    with pytest.raises(TypeError):
        Said(N_("shared words {score}"))  # a field missing
    with pytest.raises(TypeError):
        Said(N_("same address"), score=1.0)  # a field the message does not name


def test_a_said_without_fields_is_made_once() -> None:
    """Every clause kept as it was gives "same text, same address": one object for them all."""
    assert Said(N_("same address")) is SAME_ADDRESS
    same = joined((Said(N_("same text")), SAME_ADDRESS), ", ")
    assert joined((Said(N_("same text")), SAME_ADDRESS), ", ") is same and same == "same text, same address"
    assert joined((same,)) is same


def test_a_said_cannot_be_changed() -> None:
    said = Said(N_("same address"))
    with pytest.raises(AttributeError):
        said.msgid = "same article"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del said.values
    assert copy.copy(said) is said and copy.deepcopy([said])[0] is said


def test_say_speaks_the_interfaces_language() -> None:
    with i18n.use("nl"):
        assert say(reason()) == "45(a)->45C1: gedeelde woorden 0,20, zelfde artikel (gat tussen koppelingen)"
        assert say(Said(N_("set by hand by {name}"), name=COMMITTEE)) == "met de hand vastgezet door de commissie"
        assert say("45C1") == "45C1"  # a plain str is passed through
    with i18n.use("en"):
        assert say(reason()) == reason() and type(say(reason())) is str
    assert say(Said(N_("same text"))) == "same text"  # the tests' language is English


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_said_pickles_with_its_message_and_fields(protocol: int) -> None:
    """The cache keeps comparisons and trees pickled (lawdiff.cache), and the worker pools send them back so."""
    said = reason()
    back = pickle.loads(pickle.dumps(said, protocol=protocol))
    assert type(back) is Said and back == said and (back.msgid, back.values) == (said.msgid, said.values)
    inner = dict(back.fields)["p1"]
    assert type(inner) is Said and type(dict(inner.fields)["p0"]) is Said
    with i18n.use("nl"):
        assert say(back) == say(said)
    # The message of many is written once in a pickle (a corpus holds a note or reason per clause).
    many = pickle.dumps([Said(N_("same references {share}"), share=i / 100) for i in range(100)], protocol=protocol)
    assert many.count(b"same references {share}") == 1 or protocol == 0


def _made_in_a_worker(i: int) -> Said:
    return Said(N_("footnote marker {number} in {address} has no note"), number=str(i), address=f"45A.fn{i}")


@pytest.mark.skipif(not forked.can_fork(), reason="processes cannot be forked here")
def test_a_said_crosses_from_a_forked_worker_whole() -> None:
    for i, said in forked.forked_map(_made_in_a_worker, 4, 2):
        assert type(said) is Said and said == f"footnote marker {i} in 45A.fn{i} has no note"
        assert dict(said.fields) == {"number": str(i), "address": f"45A.fn{i}"}
    made = forked.map_beside(_made_in_a_worker, list(range(6)), [1] * 6, 2)
    assert all(type(s) is Said and s.msgid.startswith("footnote marker") for s in made)


def _reasons_of_a_worker(_i: int) -> list[Said]:
    scored = joined((Said(N_("shared words {score}"), score=0.2049), SAME_ARTICLE), ", ")
    kept = joined((Said(N_("same text")), SAME_ADDRESS), ", ")
    named = Said(N_("set by hand by {name}"), name="Anna")
    return [scored, kept, named, SAME_ADDRESS, scored]


@pytest.mark.skipif(not forked.can_fork(), reason="processes cannot be forked here")
def test_saids_read_back_made_once_are_the_same_saids() -> None:
    from lawdiff.i18n.said import made_once

    results = [r for _, r in forked.forked_map(_reasons_of_a_worker, 3, 2, makers=made_once())]
    first, *others = results
    for got in results:
        assert got == _reasons_of_a_worker(0)  # the same words, messages and fields as made here
        assert [(s.msgid, s.values) for s in got] == [(s.msgid, s.values) for s in first]
        assert all(type(s) is Said for s in got)
        # A Said without fields is this process's own; one read again without a score is made once.
        assert got[3] is SAME_ADDRESS and got[1].values[1] is SAME_ADDRESS
        assert got[1] is first[1] and got[2] is first[2]
        assert got[0] is got[4]  # one object in the worker is one here
    # A score makes a Said of its own: two workers' equal scored reasons are two objects.
    assert first[0] is not others[0][0] and first[0].values[0].values == (0.2049,)


def test_json_keeps_the_english_and_its_fast_writer() -> None:
    """The JSON outputs write a reason or note's English as a plain str, which jsontext writes itself."""
    assert jsontext.dumps({"reasons": [str(reason())]}) == json.dumps(
        {"reasons": [str(reason())]}, ensure_ascii=False, indent=2
    )


# ---------------------------------------------------------------------------
# Every reason and note is a Said, with a Dutch of its own


def _dutch(text: str) -> bool:
    """Whether ``text`` is a :class:`Said` whose Dutch is not its English (its messages are in the catalog)."""
    if not isinstance(text, Said):
        return False
    with i18n.use("nl"):
        return say(text) != text


def _parse_cases() -> Iterator[list[Page]]:
    for case in sorted((FIXTURES / "parse").iterdir()):
        if case.is_dir():
            inputs = corpus_files([case])
        elif case.suffix in (".txt", ".json"):
            inputs = [(case, case.name, "")]
        else:
            continue
        yield [page for path, display, hint in inputs for page in read_file(path, display, hint)]
    for case in sorted((FIXTURES / "draft").glob("*")):
        if case.suffix in (".docx", ".odt", ".txt") and not case.name.startswith("bad-"):
            for state in ("accepted", "original"):
                yield read_draft(case, "2027", state, case.name)


def test_every_note_a_reader_writes_is_said_in_dutch(corpus: Corpus) -> None:
    notes: list[str] = []
    corpora = [corpus, *(from_pages(pages) for pages in _parse_cases())]
    for c in corpora:
        notes += [note for check in c.checks for _, note in check.notes]
        notes += [note for e in c.editions for clause in e.walk() for note in clause.notes]
    assert len(notes) > 40
    assert [n for n in notes if not _dutch(n)] == []
    # What a note says why of (a piece set aside, words not read) is said too.
    whys = [v for n in notes for part in _parts(n) for name, v in part.fields if name in ("reason", "why", "change")]
    assert len(whys) > 20
    assert [w for w in whys if not _dutch(w)] == []


def _parts(said: Said) -> Iterator[Said]:
    yield said
    for value in said.values:
        if isinstance(value, Said):
            yield from _parts(value)


def test_every_reason_of_a_match_is_said_in_dutch(corpus: Corpus) -> None:
    """Every pair of editions of the bundled corpus, the corpus held in part (a gap across its parts) and
    hand pins with and without a name."""
    e = {x.name: x for x in corpus.editions}
    partial = load([FIXTURES / "partial"]).editions
    pins = Corrections(pins=(Pin(("45D",), ("45D2",), "Anne"), Pin(("45C",), ("45C",), "")))
    comparisons = [
        compare(e["1963"], e["1997"]),
        compare(e["1997"], e["2007"]),
        compare(e["1963"], e["2007"]),
        compare(e["2007"], e["2017"], corrections=pins),
        compare(*partial),
    ]
    changes = [ch for comp in comparisons for ch in comp.changes]
    reasons = [r for ch in changes for r in ch.reasons]
    assert len(reasons) > 30
    assert [r for r in reasons if not _dutch(r)] == []
    said = {str(r) for r in reasons}
    assert any("(gap: the other corpus" in r for r in said) and any("(gap)" in r for r in said)
    assert any(r.startswith("set by hand by Anne") for r in said)
    assert any(r.startswith("set by hand by the committee") for r in said)
    assert any("title " in r and "shared text below" in r for r in said)
    hands = {ch.pinned_by for ch in changes if ch.pinned_by}
    assert hands == {"Anne", "the committee"} and all(_dutch(h) for h in hands if h == COMMITTEE)
    assert any(p is SAME_ADDRESS for r in reasons for p in r.values)  # the one Said, made once


def test_a_comparison_kept_in_english_is_said_in_dutch(cache_dir: Path) -> None:
    """The cache keeps a comparison made in an English run; a Dutch run that reads it says its reasons in Dutch."""
    args = ["compare", "1963", "2007", "--article", "45", "--no-review", "--no-color"]
    english = CliRunner().invoke(main, args)
    assert english.exit_code == 0, english.output
    assert "    why: shared words 0.20, same article (gap)\n" in english.stdout
    kept = sorted(p.name for p in (cache_dir / "pairs").rglob("*.pickle"))
    assert kept
    dutch = CliRunner().invoke(main, ["--lang", "nl", *args])
    assert dutch.exit_code == 0, dutch.output
    assert "    waarom: gedeelde woorden 0,20, zelfde artikel (gat tussen koppelingen)\n" in dutch.stdout
    assert sorted(p.name for p in (cache_dir / "pairs").rglob("*.pickle")) == kept  # read, not made again


# The stages that make reasons and notes, the names that hold them on their way, and the records that take
# one by position: a run of wikitext's note (Frag), a draft's piece set aside and why (Furniture).
MAKERS = ("lawdiff/sources", "lawdiff/corpus", "lawdiff/align", "lawdiff/diff")
_HOLDERS = {"note", "why", "notes", "reasons"}
_RECORDS = {"Frag": 3, "Furniture": 2}


def _plain_text(node: ast.AST) -> bool:
    """Whether ``node`` makes a plain str: a literal, an f-string, or one added to another."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(node.value)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _plain_text(node.left) or _plain_text(node.right)
    if isinstance(node, ast.IfExp):
        return _plain_text(node.body) or _plain_text(node.orelse)
    if isinstance(node, (ast.Tuple, ast.List)):
        return any(_plain_text(e) for e in node.elts)
    return False


def _name(node: ast.AST) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def test_no_note_or_reason_is_made_as_plain_text() -> None:
    """A note or reason made from a literal or an f-string would be shown in English in every language: each
    is made as a Said (the fixtures above cannot reach every reader's every note, this reads the code)."""
    root = Path(__file__).resolve().parent.parent
    found = []
    for folder in MAKERS:
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                plain: list[ast.AST] = []
                if isinstance(node, ast.Call):
                    func = node.func
                    target = _name(func.value) if isinstance(func, ast.Attribute) else ""
                    held = _name(func) in ("append", "extend") and target.endswith(("notes", "reasons"))
                    if held or _name(func) == "note":
                        plain += node.args
                    at = _RECORDS.get(_name(func))
                    if at is not None and len(node.args) > at and (_name(func) == "Frag" or "draft" in path.parts):
                        plain.append(node.args[at])
                    plain += [k.value for k in node.keywords if k.arg in ("notes", "reasons", "note")]
                elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    if any(_name(t) in _HOLDERS for t in targets):
                        plain.append(node.value)
                found += [f"{path.relative_to(root)}:{n.lineno}" for n in plain if _plain_text(n)]
    assert found == []
