"""``lawdiff review`` through click's runner: whole outputs, errors, help.

Every write is timed by a clock that ticks one second per write, so that
outputs with times are exact.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from test_cli_compare import assert_valid
from test_review_view import NEW_WORDS, OLD_WORDS, corrected_corpus

from lawdiff.cli import main
from lawdiff.cli.review import review as review_group
from lawdiff.review import store as store_module

ROOT = Path(__file__).resolve().parent.parent


class Clock:
    def __init__(self) -> None:
        self.t = 0

    def __call__(self) -> str:
        self.t += 1
        return f"2024-05-14T10:{self.t // 60:02}:{self.t % 60:02}.000000Z"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    monkeypatch.setattr(store_module, "utc_now", Clock())
    monkeypatch.chdir(tmp_path)
    yield {"LAWDIFF_REVIEW": str(tmp_path / "review.sqlite"), "LAWDIFF_AUTHOR": "Anne"}


def run(env: dict[str, str], *args: str) -> Result:
    return CliRunner().invoke(main, ["review", *args], env=env, catch_exceptions=False)


def ok(env: dict[str, str], *args: str) -> str:
    result = run(env, *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def fails(env: dict[str, str], *args: str) -> str:
    """The one line of a refused command (exit 2, no traceback)."""
    result = run(env, *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lawdiff: error: "), result.stderr
    return lines[0]


def change_id(env: dict[str, str], name: str) -> str:
    listed = json.loads(ok(env, "list", "--format", "json", "--pair", "2007", "2017"))
    return next(c["id"] for c in listed["changes"] if c["new"] == [name])


# ---------------------------------------------------------------------------
# The worked example of the README


def test_decide_comment_regenerate_and_see_it_kept(env: dict[str, str]) -> None:
    cid = change_id(env, "45C4(b)")
    out = ok(env, "set", "2017:45C4(b)", "accepted", "--comment", "Akkoord: volgt de Engelse tekst.")
    assert out == f"{cid[:10]} 2007 -> 2017 modified 45C4(b): accepted\n"
    assert ok(env, "comment", cid[:6], "Bert kijkt nog naar 'onbedoeld'.", "--author", "Bert").startswith(cid[:10])
    assert ok(env, "assign", "2017:45C4b", "Bert") == f"{cid[:10]} 2007 -> 2017 modified 45C4(b): assigned to Bert\n"
    listed = ok(env, "list", "--pair", "2007", "2017", "--status", "accepted")
    comments = json.loads(ok(env, "list", "--format", "json", "--status", "accepted"))["changes"][0]["comments"]
    c1, c2 = (c["id"][:10] for c in comments)
    assert listed == (
        "2007 -> 2017: 1 change(s) listed: 1 accepted\n"
        "Article 45\n"
        f"  {cid[:10]}  accepted        modified  45C4(b)  (assigned to Bert)\n"
        f"      [{c1}] Anne, 2024-05-14 10:00 UTC: Akkoord: volgt de Engelse tekst.\n"
        f"      [{c2}] Bert, 2024-05-14 10:00 UTC: Bert kijkt nog naar 'onbedoeld'.\n"
    )
    # Regenerated: the same corpus gives the same ids, so the decision is current.
    again = json.loads(ok(env, "list", "--format", "json", "--article", "45", "--pair", "2007", "2017"))
    mine = next(c for c in again["changes"] if c["id"] == cid)
    assert (mine["status"], mine["state"], mine["assignee"]) == ("accepted", "current", "Bert")


def test_a_corrected_draft_shows_the_decision_outdated(env: dict[str, str], tmp_path: Path) -> None:
    cid = change_id(env, "45C4(b)")
    ok(env, "set", "2017:45C4(b)", "accepted")
    draft = str(corrected_corpus(tmp_path / "draft"))
    out = ok(env, "list", "--corpus", draft, "--outdated")
    new_id = json.loads(ok(env, "list", "--corpus", draft, "--format", "json", "--outdated"))["changes"][0]["id"]
    lines = out.splitlines()
    assert lines[0] == "2007 -> 2017: 1 change(s) listed: 1 accepted; 1 outdated"
    assert lines[2] == f"  {new_id[:10]}  accepted        modified  45C4(b)  (OUTDATED)"
    assert lines[3] == f"      accepted was decided on an earlier text ({cid[:10]}, 2024-05-14 10:00 UTC):"
    assert lines[4].startswith("        made on 2017:45C4(b): De leider " + OLD_WORDS)
    assert lines[5].startswith("        now     2017:45C4(b): De leider " + NEW_WORDS)
    assert lines[6].startswith(
        "        changed since: De leider mag een [-onbedoeld-]{+per ongeluk+} aangeduide kaart "
    )
    assert lines[6].count("[-") == 1 and lines[6].count("{+") == 1
    # compare's JSON holds the same: the texts it was decided on and the differences since, as pieces.
    result = CliRunner().invoke(
        main, ["compare", "2007", "2017", "--corpus", draft, "--article", "45", "--format", "json"], env=env
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert_valid(document, "compare.schema.json")
    change = next(c for c in document["changes"] if c["id"] == new_id)
    decided_on = change["review"]["decided_on"]
    assert decided_on["old_since"] == [] and decided_on["old_texts"] == change["old_texts"]
    changed = [p for p in decided_on["new_since"] if p[0] != "equal"]
    assert changed == [["delete", "onbedoeld"], ["insert", "per ongeluk"]]
    # Only the outdated one: the filter leaves the others out.
    assert len([ln for ln in lines if re.match(r"  [0-9a-f]{10}  ", ln)]) == 1


def test_reading_commands_never_create_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    env = {"LAWDIFF_AUTHOR": "Anne"}
    assert "open" in ok(env, "list", "--pair", "2007", "2017")
    assert ok(env, "log") == "the log is empty\n"
    assert ok(env, "export", "--format", "md") == "# Committee review: decisions\n\nNo decisions.\n"
    assert list(tmp_path.iterdir()) == []
    ok(env, "set", "2017:45C4(b)", "query")
    assert (tmp_path / "lawdiff-review.sqlite").exists()


# ---------------------------------------------------------------------------
# Meetings, minutes, exports


def test_minutes_of_a_meeting(env: dict[str, str]) -> None:
    ok(env, "set", "2017:45C1", "query", "--comment", "Voor de vergadering.")
    out = ok(env, "meeting", "start", "--date", "2024-05-14", "--attendees", "Anne, Bert")
    assert re.fullmatch(r"meeting [0-9a-f]{10} of 2024-05-14 started \(Anne, Bert\)\n", out)
    ok(env, "set", "2017:45C4(b)", "accepted", "--comment", "Akkoord <b>&</b>.")
    ok(env, "set", "2017:45D2", "translation-fix", "--author", "Bert")
    ok(env, "meeting", "end")
    ids = {name: change_id(env, name)[:10] for name in ("45C4(b)", "45D2")}
    minutes = ok(env, "export", "--format", "md", "--meeting", "2024-05-14")
    assert minutes.startswith("# Minutes of the meeting of 2024-05-14\n\nAttendees: Anne, Bert\n\nMeeting ")
    body = minutes.split("\n## ", 1)[1]
    assert body.startswith("2007 → 2017\n\n### Article 45\n\n#### 45C4(b): accepted\n\n")
    assert f"- modified; id `{ids['45C4(b)']}`\n" in body
    assert "- old (2007 45C4(b)): " in body
    assert "- new (2017 45C4(b)): De leider mag een onbedoeld aangeduide kaart" in body
    difference = next(line for line in body.splitlines() if line.startswith("- difference: "))
    assert "~~" in difference and "**" in difference and "[-" not in difference
    assert "- flags: modal +mag; negation −zonder +niet; " in body
    assert "  - Anne, 2024-05-14 10:00 UTC: Akkoord \\<b\\>\\&\\</b\\>.\n" in body
    assert f"#### 45D2 (added): translation-fix\n\n- added; id `{ids['45D2']}`\n- new (2017 45D2): " in body
    assert "45C1" not in body, "decided outside the meeting"
    assert body.index("45C4(b)") < body.index("45D2"), "article order"


def test_csv_and_jsonl_exports_and_import_into_another_store(env: dict[str, str], tmp_path: Path) -> None:
    ok(env, "set", "2017:45C4(b)", "accepted", "--comment", "Regel 1\nRegel 2")
    rows = list(csv.DictReader(io.StringIO(ok(env, "export", "--format", "csv"))))
    assert [(r["new"], r["status"], r["comments"]) for r in rows] == [
        ("45C4(b)", "accepted", "Anne (2024-05-14 10:00 UTC): Regel 1\nRegel 2")
    ]
    exported = tmp_path / "anne.jsonl"
    ok(env, "export", "-o", str(exported))
    other = {**env, "LAWDIFF_REVIEW": str(tmp_path / "other.sqlite")}
    first = ok(other, "import", str(exported))
    assert first.startswith(f"{exported}: 2 added, 0 replaced")
    second = ok(other, "import", str(exported))
    assert second == (
        f"{exported}: 0 added, 0 replaced by a later version, 0 kept (this store's was later), "
        "2 already here; 0 log entries added\n"
    )
    assert ok(other, "list", "--status", "accepted", "--pair", "2007", "2017") == ok(
        env, "list", "--status", "accepted", "--pair", "2007", "2017"
    )


def test_undo_and_the_log(env: dict[str, str]) -> None:
    cid = change_id(env, "45C4(b)")
    ok(env, "set", cid, "query")
    ok(env, "set", cid, "accepted")
    assert ok(env, "undo") == f"undone: status of decision {cid[:10]} (2024-05-14 10:00 UTC)\n"
    log = ok(env, "log", "2017:45C4(b)").splitlines()
    assert [re.search(r"UTC  Anne  (\S+)", line).group(1) for line in log] == ["status", "status", "undo"]  # type: ignore[union-attr]
    assert log[2].endswith("status: 'accepted' -> 'query'")
    assert json.loads(ok(env, "list", "--format", "json", "--status", "query"))["changes"][0]["id"] == cid
    # The log as JSON: every field of an entry, the undo naming the write it took back.
    entries = json.loads(ok(env, "log", "2017:45C4(b)", "--format", "json"))
    assert list(entries[2]) == [
        "seq", "id", "write", "author", "at", "action", "table", "record", "meeting", "before", "after", "undoes",
    ]  # fmt: skip
    assert entries[2]["undoes"] == entries[1]["write"] and entries[2]["after"]["status"] == "query"


def test_comments_are_shown_as_text(env: dict[str, str]) -> None:
    ok(env, "comment", "2017:45C4(b)", "rood\x1b[31m en \u202eomgekeerd")
    out = ok(env, "list", "--pair", "2007", "2017", "--article", "45")
    assert "rood\\x1b[31m en \\u202eomgekeerd" in out
    assert "\x1b" not in out and "\u202e" not in out


def test_edit_and_delete_own_comments_only(env: dict[str, str]) -> None:
    ok(env, "comment", "2017:45C4(b)", "Eerste.")
    cid = json.loads(ok(env, "list", "--format", "json", "--pair", "2007", "2017"))
    comment = next(c for ch in cid["changes"] for c in ch["comments"])["id"]
    assert "only its author" in fails(env, "comment-edit", comment[:6], "Door Bert.", "--author", "Bert")
    assert ok(env, "comment-edit", comment[:6], "Tweede.") == f"comment {comment[:10]} edited\n"
    assert ok(env, "comment-delete", comment[:6]) == f"comment {comment[:10]} deleted\n"
    assert "Tweede." not in ok(env, "list", "--pair", "2007", "2017")
    assert "'Eerste.' -> 'Tweede.'" in ok(env, "log", comment[:8])


def test_pins_forbids_and_unpin(env: dict[str, str]) -> None:
    out = ok(env, "pin", "2017:45D1", "2007:45D", "2017:45D2")
    assert re.fullmatch(r"[0-9a-f]{10} pinned: 2007:45D = 2017:45D1 2017:45D2\n", out)
    assert re.fullmatch(r"[0-9a-f]{10} forbidden: 2007:45D != 2017:45E1\n", ok(env, "forbid", "2007:45D", "2017:45E1"))
    listed = ok(env, "list", "--pair", "2007", "2017")
    assert "2 hand correction(s) of the alignment" in listed
    assert "pin    2007:45D = 2017:45D1, 2017:45D2  (by Anne, 2024-05-14 10:00 UTC)" in listed
    assert re.fullmatch(r"[0-9a-f]{10} removed: 2007:45D = 2017:45D1 2017:45D2\n", ok(env, "unpin", "2017:45D2"))
    assert "1 hand correction(s)" in ok(env, "list", "--pair", "2007", "2017")


def test_a_change_only_one_corpus_holds_is_said_so(env: dict[str, str]) -> None:
    """Article 6 is in the 2017 corpus only: listed (a decision may be made on it), never as a bare addition."""
    listed = ok(env, "list", "--pair", "2007", "2017")
    line = next(x for x in listed.splitlines() if x.endswith("  6  (heading; not in the 2007 corpus)"))
    assert " added " in line
    as_json = json.loads(ok(env, "list", "--pair", "2007", "2017", "--format", "json"))
    six = next(c for c in as_json["changes"] if c["new"] == ["6"])
    c45 = next(c for c in as_json["changes"] if c["new"] == ["45C4(b)"])
    assert (six["counterpart_in_corpus"], c45["counterpart_in_corpus"]) == (False, True)


def test_list_of_one_pair_checks_that_pairs_corrections_only(env: dict[str, str]) -> None:
    """`--pair` reads only its two editions (as `compare` does), so only its corrections can be checked."""
    from lawdiff.review import CorrectionKind, open_for_writing

    with open_for_writing(Path(env["LAWDIFF_REVIEW"])) as store:
        store.add_correction(CorrectionKind.FORBID, ("2007", "2017"), ("45D",), ("45Z9",), "Anne")
        store.add_correction(CorrectionKind.FORBID, ("1963", "2007"), ("45Z8",), ("45D",), "Anne")
    one = ok(env, "list", "--pair", "2007", "2017")
    assert "1 correction(s) naming clauses that no longer exist" in one
    assert "missing 2017:45Z9" in one and "45Z8" not in one
    every = ok(env, "list")
    assert "2 correction(s) naming clauses that no longer exist" in every
    assert "missing 2017:45Z9" in every and "missing 1963:45Z8" in every


# ---------------------------------------------------------------------------
# Bad input: one line, exit 2


def test_bad_input_is_one_line(env: dict[str, str], tmp_path: Path) -> None:
    statuses = "use one of: open, accepted, query, translation-fix, rejected"
    assert fails(env, "set", "2017:45C4(b)", "done") == f"lawdiff: error: unknown status 'done'; {statuses}"
    assert fails(env, "list", "--status", "done").endswith(statuses)
    assert "at least 4 hex digits" in fails(env, "set", "abc", "accepted")
    assert "no change has an id starting with 'ffffff'" in fails(env, "set", "ffffff", "accepted")
    assert "changes under it: " in fails(env, "set", "2017:45C4", "accepted")
    assert "2017 has no clause '45Z'" in fails(env, "pin", "2007:45D", "2017:45Z")
    assert "exactly two editions" in fails(env, "pin", "2007:45D", "2007:45C")
    not_sqlite = tmp_path / "notes.sqlite"
    not_sqlite.write_text("geen database\n" * 200, encoding="utf-8")
    bad = {**env, "LAWDIFF_REVIEW": str(not_sqlite)}
    for args in (("list",), ("set", "2017:45C4(b)", "accepted"), ("log",), ("export",)):
        line = fails(bad, *args)
        assert line == f"lawdiff: error: {not_sqlite}: is not a lawdiff review store (not an SQLite database); " + (
            "name the review store with --review FILE, or move this file away"
        )
    missing = {**env, "LAWDIFF_REVIEW": str(tmp_path / "typo.sqlite")}
    result = run(missing, "list", "--pair", "2007", "2017")
    assert result.exit_code == 0 and "open" in result.stdout
    note = f"no review store at {tmp_path / 'typo.sqlite'} (named by LAWDIFF_REVIEW) yet: no decisions"
    assert result.stderr == f"lawdiff: note: {note}\n"
    assert not (tmp_path / "typo.sqlite").exists()


# ---------------------------------------------------------------------------
# Help


def _commands(group: click.Group, prefix: str) -> Iterator[tuple[str, click.Command]]:
    for name, cmd in sorted(group.commands.items()):
        yield f"{prefix} {name}", cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, f"{prefix} {name}")


@pytest.mark.parametrize(("name", "_cmd"), list(_commands(review_group, "review")), ids=lambda x: str(x))
def test_every_review_command_has_help_with_an_example_and_is_in_the_readme(name: str, _cmd: click.Command) -> None:
    result = CliRunner().invoke(main, [*name.split(), "-h"])
    assert result.exit_code == 0
    assert re.search(r"Example: lawdiff " + re.escape(name) + r"\b", result.stdout), result.stdout
    assert f"lawdiff {name}" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_list_with_pair_counts_the_other_pairs_decisions_instead_of_listing_them(env: dict[str, str]) -> None:
    ok(env, "set", "2017:45C4(b)", "accepted")
    listed = json.loads(ok(env, "list", "--format", "json"))
    first = next(c for c in listed["changes"] if c["pair"] == ["1963", "2007"] and c["kind"] != "unchanged")
    ok(env, "set", first["id"], "query")
    text = ok(env, "list", "--pair", "2007", "2017")
    assert "1 decision(s) on other pairs, not listed with --pair" in text
    assert "  1963 -> 2007: 1" in text and first["id"][:10] not in text
    doc = json.loads(ok(env, "list", "--format", "json", "--pair", "2007", "2017"))
    assert doc["not_compared"] == [] and doc["not_compared_counts"] == [{"pair": ["1963", "2007"], "decisions": 1}]
    # Without --pair both are listed as changes of the run, and nothing is counted elsewhere.
    whole = json.loads(ok(env, "list", "--format", "json"))
    assert whole["not_compared_counts"] == [] and first["id"] in {c["id"] for c in whole["changes"] if c["decision"]}


@pytest.mark.parametrize(
    "args",
    [
        ("set", "2017:45D2", "query"),
        ("comment", "2017:45D2", "Waarom?"),
        ("assign", "2017:45D2", "Bert"),
        ("list", "--pair", "2007", "2017"),
        ("log",),
        ("pin", "2007:45D", "2017:45D1"),
        ("forbid", "2007:45D", "2017:45D2"),
    ],
)
def test_the_review_commands_take_no_no_review(env: dict[str, str], args: tuple[str, ...]) -> None:
    # They work on the store: --no-review was taken and ignored, and `review set --no-review` wrote to it.
    result = run(env, *args, "--no-review")
    assert result.exit_code == 2 and "lawdiff: error: no such option '--no-review'" in result.output
    assert not Path(env["LAWDIFF_REVIEW"]).exists()


def test_review_list_article_takes_what_compare_article_takes(env: dict[str, str]) -> None:
    # --article 45C listed nothing and --article 99 "no changes listed"; compare takes a section and refuses 99.
    def listed(*article: str) -> list[str]:
        rows = json.loads(ok(env, "list", "--pair", "2007", "2017", "--format", "json", *article))["changes"]
        return sorted(a for c in rows for a in c["new"] or c["old"])

    section = listed("--article", "45C")
    assert section and all(a.startswith("45C") for a in section)
    assert set(section) < set(listed("--article", "45"))
    assert listed("--article", "45c4b") == listed("--article", "45C4(b)") == ["45C4(b)"]
    line = fails(env, "list", "--pair", "2007", "2017", "--article", "99")
    assert "neither 2007 nor 2017 has an article or clause '99'" in line
    compared = CliRunner().invoke(main, ["compare", "2007", "2017", "--article", "45c4b", "--format", "json"])
    assert compared.exit_code == 0 and '"45C4(b)"' in compared.stdout
