"""A command's whole answer from the cache (lawdiff.cli.kept): the same bytes, made again whenever an
input changed, and never while a review store is in use."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from test_cli_ingest import losing

import lawdiff.cli.compare as compare_cli
from lawdiff.cache import Cache
from lawdiff.cli import main
from lawdiff.cli.kept import Answer, Answers, corpus_identity
from lawdiff.cli.options import Inputs
from lawdiff.corpus import default_corpus

PAIR = ("compare", "2007", "2017")


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """A copy of the bundled corpus, to edit."""
    return Path(shutil.copytree(default_corpus(), tmp_path / "corpus"))


class Counting:
    """Counts the comparisons actually made (each answer not taken from the cache)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made = 0
        original = compare_cli._comparison_answer

        def counted(*args: object, **kwargs: object) -> tuple[Answer, bool]:
            self.made += 1
            return original(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(compare_cli, "_comparison_answer", counted)


@pytest.fixture()
def made(monkeypatch: pytest.MonkeyPatch) -> Counting:
    return Counting(monkeypatch)


def invoke(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == code, result.output
    return result


def answers(folder: Path) -> list[Path]:
    return sorted((folder / "answers").glob("*/*.pickle"))


@pytest.mark.parametrize(
    "options",
    [
        ("--format", "json"),
        ("--format", "html"),
        ("--format", "text"),
        ("--format", "text", "--color"),
        ("--format", "text", "--all", "--article", "45"),
        ("--format", "json", "--threshold", "match_min=0.6", "-v"),
    ],
)
def test_a_second_run_is_the_first_ones_answer_byte_for_byte(
    cache_dir: Path, made: Counting, options: tuple[str, ...]
) -> None:
    cold = invoke(*PAIR, *options, "--no-cache")
    assert made.made == 1 and not cache_dir.exists()
    first = invoke(*PAIR, *options)
    warm = invoke(*PAIR, *options)
    assert made.made == 2  # the third run compared nothing
    assert len(answers(cache_dir)) == 1
    assert cold.stdout_bytes == first.stdout_bytes == warm.stdout_bytes
    assert cold.stderr == first.stderr == warm.stderr


def test_every_option_is_part_of_the_key(cache_dir: Path, made: Counting) -> None:
    runs = [
        ("--format", "json"),
        ("--format", "text"),
        ("--format", "text", "--color"),
        ("--format", "text", "--all"),
        ("--format", "text", "--article", "45"),
        ("--format", "text", "-v"),
        ("--format", "text", "--threshold", "match_min=0.6"),
    ]
    outputs = [invoke(*PAIR, *options).stdout_bytes for options in runs]
    assert made.made == len(runs) and len(answers(cache_dir)) == len(runs)
    assert len(set(outputs)) == len(runs)
    # The other way round: each is a different answer, and each is kept.
    assert [invoke(*PAIR, *options).stdout_bytes for options in runs] == outputs
    assert made.made == len(runs)


def test_the_notes_and_the_exit_code_are_said_again(cache_dir: Path, made: Counting, tmp_path: Path) -> None:
    backwards = ("compare", "2017", "2007", "--exit-code", "--review", str(tmp_path / "none.sqlite"))
    cold = invoke(*backwards, "--no-cache", code=1)
    assert "is newer than" in cold.stderr and "no review store at" in cold.stderr
    invoke(*backwards, code=1)
    warm = invoke(*backwards, code=1)
    assert made.made == 2
    assert warm.stderr == cold.stderr and warm.stdout_bytes == cold.stdout_bytes


def test_an_answer_written_to_a_file(cache_dir: Path, made: Counting, tmp_path: Path) -> None:
    invoke(*PAIR, "-o", str(tmp_path / "cold.txt"), "--no-cache")
    invoke(*PAIR, "-o", str(tmp_path / "first.txt"))
    invoke(*PAIR, "-o", str(tmp_path / "warm.txt"))
    assert made.made == 2
    cold = (tmp_path / "cold.txt").read_bytes()
    assert cold == (tmp_path / "first.txt").read_bytes() == (tmp_path / "warm.txt").read_bytes()
    assert b"\x1b[" not in cold  # a file gets no colours, whatever the terminal


@pytest.mark.parametrize(
    "edit",
    ["page", "new page", "removed page", "settings", "skipped file"],
)
def test_a_changed_corpus_is_compared_again(cache_dir: Path, made: Counting, corpus: Path, edit: str) -> None:
    args = (*PAIR, "--corpus", str(corpus), "--format", "json")
    before = invoke(*args).stdout_bytes
    page = corpus / "2007" / "wiki-Sjabloon-2007-45.txt"
    if edit == "page":
        page.write_text(page.read_text(encoding="utf-8").replace("speler", "spelers", 1), encoding="utf-8")
    elif edit == "new page":
        shutil.copy(page, corpus / "2007" / "copy.txt")  # the same clauses again: merged, nothing changes
    elif edit == "removed page":
        (corpus / "2017" / "nuxt-artikel-6.payload.json").unlink()
    elif edit == "settings":
        (corpus / "lawdiff.toml").write_text("[thresholds]\nmatch_min = 0.6\n", encoding="utf-8")
    else:
        (corpus / "NOTES.md").write_text("a note\n", encoding="utf-8")
    after = invoke(*args)
    assert made.made == 2
    assert after.stdout_bytes == invoke(*args, "--no-cache").stdout_bytes
    if edit not in ("skipped file", "new page"):
        assert after.stdout_bytes != before


def test_a_draft_is_part_of_the_key(cache_dir: Path, made: Counting, tmp_path: Path) -> None:
    draft = tmp_path / "concept-2027.txt"
    shutil.copy(Path(__file__).parent / "fixtures" / "draft" / "text-concept.txt", draft)
    args = ("compare", "2007", "2027", "--draft", str(draft), "--format", "json")
    first = invoke(*args).stdout_bytes
    draft.write_text(draft.read_text(encoding="utf-8").replace("speler", "spelers", 1), encoding="utf-8")
    second = invoke(*args).stdout_bytes
    assert made.made == 2 and first != second
    assert second == invoke(*args, "--no-cache").stdout_bytes
    assert invoke(*args, "--draft-state", "original").stdout_bytes == second  # typed text has one state
    assert made.made == 4  # but another key


def test_no_answer_is_kept_or_taken_while_a_review_store_is_in_use(
    cache_dir: Path, made: Counting, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    invoke(*PAIR, "--format", "json")
    invoke(*PAIR, "--format", "json")
    assert made.made == 1
    invoke("review", "set", "2017:45C4b", "accepted", "--author", "Anna")
    with_store = invoke(*PAIR, "--format", "json")
    assert made.made == 2 and b'"accepted"' in with_store.stdout_bytes
    invoke(*PAIR, "--format", "json")
    assert made.made == 3
    assert len(answers(cache_dir)) == 1  # the one made before the store
    # --no-review leaves the store out: the answer without it is taken again.
    assert invoke(*PAIR, "--format", "json", "--no-review").stdout_bytes != with_store.stdout_bytes
    assert made.made == 3


def test_a_word_document_is_never_kept(cache_dir: Path, made: Counting, tmp_path: Path) -> None:
    invoke(*PAIR, "--format", "docx", "-o", str(tmp_path / "a.docx"))
    invoke(*PAIR, "--format", "docx", "-o", str(tmp_path / "b.docx"))
    assert made.made == 2 and not answers(cache_dir)


def test_a_damaged_answer_is_made_again(cache_dir: Path, made: Counting) -> None:
    good = invoke(*PAIR, "--format", "json").stdout_bytes
    (entry,) = answers(cache_dir)
    entry.write_bytes(entry.read_bytes()[:-10])
    assert invoke(*PAIR, "--format", "json").stdout_bytes == good
    assert made.made == 2
    assert invoke(*PAIR, "--format", "json").stdout_bytes == good
    assert made.made == 2


def test_no_answers_without_a_cache_or_with_an_unreadable_file(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert Answers.of(Cache(None), (corpus,), None, "compare") is None
    assert corpus_identity((corpus,), None) == corpus_identity((corpus,), None)
    page = corpus / "2007" / "wiki-Sjabloon-2007-45.txt"
    open_file = Path.open

    def refused(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == page:
            raise PermissionError(13, "Permission denied", str(self))
        return open_file(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refused)
    # The command then reads the corpus itself, and says what is wrong with the file.
    assert corpus_identity((corpus,), None) is None
    assert Answers.of(Cache(tmp_path / "c"), (corpus,), None, "compare") is None


def test_the_warning_of_lost_text_is_said_again(
    cache_dir: Path, made: Counting, monkeypatch: pytest.MonkeyPatch
) -> None:
    losing(monkeypatch, "45B")
    first = invoke(*PAIR)
    assert "lawdiff: warning: 2 fragment(s) of source text" in first.stderr
    warm = invoke(*PAIR)
    assert made.made == 1 and warm.stderr == first.stderr and warm.stdout_bytes == first.stdout_bytes


class Loading:
    """Counts the corpus reads (an answer taken from the cache reads none)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.loads = 0
        original = Inputs.load

        def counted(inputs: Inputs, *args: Any, **kwargs: Any) -> Any:
            self.loads += 1
            return original(inputs, *args, **kwargs)

        monkeypatch.setattr(Inputs, "load", counted)


@pytest.fixture()
def loading(monkeypatch: pytest.MonkeyPatch) -> Loading:
    return Loading(monkeypatch)


OTHER_COMMANDS = [
    ("history", "2017:45C4(b)"),
    ("history", "1963:45(d)", "--format", "json"),
    ("history", "2017:45C4(b)", "--color", "--threshold", "match_min=0.6"),
    ("correlate", "2007", "2017"),
    ("correlate", "2007", "2017", "--format", "md", "--by", "new", "--article", "45"),
    ("correlate", "1997", "2007", "--format", "csv"),
]


@pytest.mark.parametrize("args", OTHER_COMMANDS, ids=" ".join)
def test_history_and_correlate_keep_their_answers_too(cache_dir: Path, loading: Loading, args: tuple[str, ...]) -> None:
    cold = invoke(*args, "--no-cache")
    first = invoke(*args)
    warm = invoke(*args)
    assert loading.loads == 2  # the third run read no page
    assert len(answers(cache_dir)) == 1
    assert cold.stdout_bytes == first.stdout_bytes == warm.stdout_bytes
    assert cold.stderr == first.stderr == warm.stderr


def test_the_answers_of_history_and_correlate_differ_by_every_option(cache_dir: Path, loading: Loading) -> None:
    outputs = [invoke(*args).stdout_bytes for args in OTHER_COMMANDS]
    assert [invoke(*args).stdout_bytes for args in OTHER_COMMANDS] == outputs
    assert loading.loads == len(OTHER_COMMANDS) and len(set(outputs)) == len(OTHER_COMMANDS)


@pytest.mark.parametrize("command", [("history", "2017:45C4(b)"), ("correlate", "2007", "2017")], ids=" ".join)
def test_history_and_correlate_answer_again_for_a_changed_corpus_or_a_store(
    cache_dir: Path, loading: Loading, corpus: Path, tmp_path: Path, command: tuple[str, ...]
) -> None:
    args = (*command, "--corpus", str(corpus), "--review", str(tmp_path / "r.sqlite"))
    before = invoke(*args)
    page = corpus / "2007" / "wiki-Sjabloon-2007-45.txt"
    page.write_text(page.read_text(encoding="utf-8").replace("denkpauze", "pauze", 1), encoding="utf-8")
    after = invoke(*args)
    assert loading.loads == 2 and after.stdout_bytes != before.stdout_bytes
    assert after.stdout_bytes == invoke(*args, "--no-cache").stdout_bytes
    assert "no review store at" in after.stderr and after.stderr == invoke(*args).stderr  # said again
    assert loading.loads == 3
    # A store in use: its hand corrections change the alignment between runs, so nothing is kept or taken.
    store = ("--corpus", str(corpus), "--review", str(tmp_path / "r.sqlite"))
    invoke("review", "forbid", "2007:45C4(b)", "2017:45C4(b)", *store)
    loads = loading.loads
    invoke(*args)
    invoke(*args)
    assert loading.loads == loads + 2


def test_an_error_is_no_answer_to_keep(cache_dir: Path, loading: Loading) -> None:
    first = invoke("history", "2017:99Z", code=2)
    second = invoke("history", "2017:99Z", code=2)
    assert loading.loads == 2 and first.output == second.output
    assert not answers(cache_dir)


def test_the_warning_of_lost_text_is_said_again_by_history(
    cache_dir: Path, loading: Loading, monkeypatch: pytest.MonkeyPatch
) -> None:
    losing(monkeypatch, "45B")
    first = invoke("history", "2017:45C4(b)")
    assert "lawdiff: warning: 2 fragment(s) of source text" in first.stderr
    warm = invoke("history", "2017:45C4(b)")
    assert loading.loads == 1 and warm.stderr == first.stderr and warm.stdout_bytes == first.stdout_bytes
