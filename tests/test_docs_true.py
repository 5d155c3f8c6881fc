"""The documentation is true: every help's ``Example:`` line runs, every README command parses, and
the files, modules and anchors the README names exist.

The examples run as a committee member would type them, in a folder of their own with a review store
and a cache of their own, on the bundled corpus. The review commands' examples build on one store, as a
committee's would (a decision, comments, a meeting, a hand correction), so they run in the order of
:data:`ORDER`; what an example needs that no earlier example makes (another member's export to import,
a comment of a known id) is made first by :func:`_prepare`.
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from lawdiff.cli import main
from lawdiff.review import store

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _commands(cmd: click.Command, path: tuple[str, ...] = ()) -> Iterator[tuple[str, click.Command]]:
    """Every command and group under ``cmd`` (``cmd`` itself first), by its path: "", "review", "review set"."""
    yield " ".join(path), cmd
    if isinstance(cmd, click.Group):
        for name, sub in sorted(cmd.commands.items()):
            yield from _commands(sub, (*path, name))


def _examples() -> dict[str, list[str]]:
    """Each command's ``Example:`` line, as the arguments after ``lawdiff``."""
    found: dict[str, list[str]] = {}
    for path, cmd in _commands(main):
        lines = [ln.strip() for ln in (cmd.help or "").splitlines() if ln.strip().startswith("Example:")]
        assert len(lines) == 1, f"lawdiff {path}: {len(lines)} Example: lines in its help"
        commands = _shell_commands(lines[0].removeprefix("Example:"))
        assert len(commands) == 1 and commands[0][0] == "lawdiff", lines[0]
        found[path] = commands[0][1:]
    return found


def _shell_commands(line: str) -> list[list[str]]:
    """The commands of ``line`` as a POSIX shell reads them (quotes, ``#`` comments), split at ``&&``.

    Any other operator fails: an unquoted ``2017:45C4(b)`` is a syntax error to the shell, so an
    example or a README line holding one cannot be typed as it is shown.
    """
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    commands: list[list[str]] = [[]]
    for word in lexer:
        if word == "&&":
            commands.append([])
        elif word and set(word) <= set(lexer.punctuation_chars):
            raise AssertionError(f"{line.strip()!r}: the shell reads {word!r} as an operator; quote it")
        else:
            commands[-1].append(word)
    return [c for c in commands if c]


# The order the examples run in ("" is `lawdiff` itself). The review examples need an earlier one's
# work: `meeting end` the meeting the group's example starts (and `meeting start` none open), `log`
# a decision, `unpin` the pin, `undo` a write of Anne's.
ORDER = (
    "",
    "editions",
    "show",
    "check",
    "compare",
    "correlate",
    "history",
    "report",
    "review",
    "review set",
    "review comment",
    "review assign",
    "review list",
    "review log",
    "review import",
    "review comment-edit",
    "review comment-delete",
    "review meeting",
    "review meeting end",
    "review meeting start",
    "review meeting list",
    "review export",
    "review pin",
    "review forbid",
    "review unpin",
    "review undo",
)
# Runs a server until stopped: tested apart, as a process (test_the_serve_example_serves).
SERVED = ("serve",)
# Fetches from a wiki: run with the test wiki's address by tests/test_fetch_wiki.py.
FETCHED = ("fetch",)


def test_every_example_is_run_by_these_tests() -> None:
    assert sorted((*ORDER, *SERVED, *FETCHED)) == sorted(_examples())


def _ids(prefix: str) -> Iterator[str]:
    """Ids of the store's shape (32 hex digits), each starting with ``prefix`` (the first write to a store
    not yet there is tried in memory first, so the comment's is not the first id drawn)."""
    for n in itertools.count():
        yield prefix + f"{n:0{32 - len(prefix)}x}"


def _prepare(path: str, folder: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Make what the example of ``path`` reads that no earlier example made."""
    if path == "review import":
        # Anne's own store, with a comment whose id the comment-edit example names (the store's ids are
        # uuid4: here the next one is made to start with that prefix), exported for the committee's.
        anne = {**env, "LAWDIFF_REVIEW": str(folder / "anne.sqlite")}
        ids = _ids(_examples()["review comment-edit"][2])
        with monkeypatch.context() as m:
            m.setattr(store, "new_id", lambda: next(ids))
            _ok(["review", "comment", "2017:45C1", "Is 'wordt geacht' right here?"], anne)
        _ok(["review", "export", "-o", "anne.jsonl"], anne)


def _ok(argv: list[str], env: dict[str, str]) -> str:
    result = CliRunner().invoke(main, argv, env=env)
    assert result.exit_code == 0, f"lawdiff {shlex.join(argv)}: exit {result.exit_code}\n{result.output}"
    return result.stdout


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def env(folder: Path) -> dict[str, str]:
    return {
        "LAWDIFF_REVIEW": str(folder / "review.sqlite"),
        "LAWDIFF_CACHE": str(folder / "cache"),
        "LAWDIFF_AUTHOR": "Anne",
        "NO_COLOR": "1",
    }


def test_every_example_runs_on_the_bundled_corpus(
    folder: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    examples = _examples()
    # Example outputs are written where the example says; nothing else is checked of them here.
    for path in ORDER:
        _prepare(path, folder, env, monkeypatch)
        _ok(examples[path], env)
    assert (folder / "lawdiff-report" / "index.html").is_file()
    assert (folder / "minutes.md").read_text(encoding="utf-8").startswith("# Minutes of the meeting of 2024-05-14")
    assert (folder / "correlatie.md").is_file()


def _certificate(folder: Path) -> None:
    """A self-signed certificate and its key, c.pem and k.pem, as the serve example names them."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is missing: it makes the example's certificate")
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"),
            *("-keyout", str(folder / "k.pem"), "-out", str(folder / "c.pem")),
        ],
        check=True,
        capture_output=True,
    )


def _status(url: str) -> int:
    """The status of GET ``url`` over HTTPS (the example's certificate is its own), once the server answers."""
    insecure = ssl.create_default_context()
    insecure.check_hostname = False
    insecure.verify_mode = ssl.CERT_NONE
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url, context=insecure, timeout=5) as r:
                return int(r.status)
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_the_serve_example_serves(folder: Path, env: dict[str, str]) -> None:
    """The example as a process: it starts, serves HTTPS on its port, and stops on Ctrl-C with exit 0."""
    argv = _examples()["serve"]
    given = dict(itertools.pairwise(argv))
    host, port = given.get("--host", "127.0.0.1"), int(given.get("--port", "8000"))
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError:
            pytest.skip(f"port {port} is in use by another program")
    (folder / "pw.txt").write_text("het wachtwoord\n", encoding="utf-8")
    _certificate(folder)
    proc = subprocess.Popen(
        [sys.executable, "-m", "lawdiff", *argv],
        cwd=folder,
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    status = 0
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        if first.startswith("Open "):
            status = _status(f"https://127.0.0.1:{port}/signin")  # not signed in: the sign-in page
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    assert re.fullmatch(rf"Open https://\S+:{port}/ in a browser\n", first), (first, err)
    assert status == 200
    assert proc.returncode == 0, err
    assert err.endswith("lawdiff: stopped; every write was saved\n"), err


# ---------------------------------------------------------------------------
# The README's commands


def _readme_commands() -> list[list[str]]:
    """Every `lawdiff ...` command of the README's ```sh and ```console blocks (a console block's are its
    `$ ` lines), as its arguments after ``lawdiff``; commands joined by ``&&`` are taken one by one."""
    text = README.read_text(encoding="utf-8")
    found: list[list[str]] = []
    for block in re.finditer(r"^ *```(sh|console)\n(.*?)^ *```", text, re.MULTILINE | re.DOTALL):
        kind, body = block.group(1), block.group(2).replace("\\\n", " ")
        for line in body.splitlines():
            if kind == "console":
                if not line.startswith("$ "):
                    continue  # what the command printed
                line = line[2:]
            found.extend(words[1:] for words in _shell_commands(line) if words[0] == "lawdiff")
    return found


def _parse(argv: list[str]) -> click.Context:
    """``argv`` parsed by click as ``lawdiff`` would parse it, its options checked and converted; nothing run.

    The contexts get the commands' own settings (``-h`` beside ``--help``): click keeps the help option a
    command was first parsed with, so a context without them took ``-h`` from every later run of it."""
    ctx = click.Context(main, info_name="lawdiff", **main.context_settings)
    cmd: click.Command = main
    rest = list(argv)
    while isinstance(cmd, click.Group):
        assert rest, f"lawdiff {shlex.join(argv)}: no command after {ctx.command_path!r}"
        sub = cmd.get_command(ctx, rest[0])
        assert sub is not None, f"lawdiff {shlex.join(argv)}: no command {rest[0]!r} in {ctx.command_path!r}"
        cmd, info, rest = sub, rest[0], rest[1:]
        if not isinstance(cmd, click.Group):
            return cmd.make_context(info, rest, parent=ctx)
        ctx = click.Context(cmd, info_name=info, parent=ctx, **cmd.context_settings)
    raise AssertionError("not reached")


def test_the_readme_shows_commands() -> None:
    commands = _readme_commands()
    assert len(commands) > 30
    shown = {" ".join(c[:2]) if c[0] == "review" else c[0] for c in commands}
    assert {"editions", "show", "check", "report", "compare", "correlate", "history", "serve"} <= shown


@pytest.mark.parametrize("argv", _readme_commands(), ids=shlex.join)
def test_every_readme_command_parses(argv: list[str], folder: Path) -> None:
    # `review import FILE` checks that FILE exists while parsing: the README's is another member's export.
    (folder / "anne.jsonl").write_text("", encoding="utf-8")
    try:
        _parse(argv)
    except click.ClickException as exc:
        pytest.fail(f"lawdiff {shlex.join(argv)}: {exc.format_message()}")


# ---------------------------------------------------------------------------
# What the README names


def _spans() -> list[str]:
    """The README's inline code: `...` spans outside the fenced blocks."""
    text = re.sub(r"^ *```.*?^ *```", "", README.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    return re.findall(r"`([^`\n]+)`", text)


# Paths the README gives as examples of a user's own files, not the repository's.
USERS_PATHS = {"corpus/2027/concept.docx"}


def test_every_path_the_readme_names_exists() -> None:
    named = {
        word.rstrip(".,;:)")
        for span in _spans()
        for word in span.split()
        if re.match(r"(lawdiff|tests|benchmarks|schemas|scripts|corpus|\.ci)/[\w./-]*$", word)
    }
    assert len(named) > 20
    missing = sorted(w for w in named - USERS_PATHS if not (ROOT / w).exists())
    assert not missing, f"the README names files that are not in the repository: {missing}"


def test_every_module_and_name_the_readme_gives_imports() -> None:
    import importlib

    # (`lawdiff.toml` is a corpus's settings file, not a module.)
    named = {m.group(0) for span in _spans() if (m := re.match(r"lawdiff(\.\w+)+", span)) and span != "lawdiff.toml"}
    assert len(named) > 5
    for dotted in sorted(named):
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:cut]))
            except ModuleNotFoundError:
                continue
            for attr in parts[cut:]:
                assert hasattr(found, attr), f"the README names {dotted}, which does not exist"
                found = getattr(found, attr)
            break


def _tree() -> dict[str, str]:
    """The Development section's layout: each package's lines, by its name, and "" the text before the tree."""
    section = README.read_text(encoding="utf-8").split("\n## Development\n", 1)[1].split("\n## ", 1)[0]
    before, tree = section.split("```\nlawdiff/\n", 1)
    packages: dict[str, str] = {"": before}
    name = ""
    for line in tree.split("\n```", 1)[0].splitlines():
        m = re.match(r"  (\w+)/ ", line)
        if m:
            name = m.group(1)
        packages[name] = packages.get(name, "") + line + "\n"
    return packages


def test_the_readme_layout_names_every_module() -> None:
    tree = _tree()
    package = ROOT / "lawdiff"
    for py in sorted(package.glob("*.py")):
        if py.stem not in ("__init__", "__main__"):
            assert f"`{py.name}`" in tree[""], f"the README's layout does not name lawdiff/{py.name}"
    for sub in sorted(p for p in package.iterdir() if (p / "__init__.py").exists()):
        assert sub.name in tree, f"the README's layout has no line for lawdiff/{sub.name}/"
        for py in sorted(sub.rglob("*.py")):
            if py.stem == "__init__" or py.stem == "__main__":
                continue
            # redline_layout is "redline: ... layout", docx_package "docx_package"
            words = [py.stem] if re.search(rf"\b{py.stem}\b", tree[sub.name]) else py.stem.split("_")
            missing = [w for w in words if not re.search(rf"\b{w}\b", tree[sub.name])]
            assert not missing, f"the README's layout does not name {py.relative_to(ROOT)}"


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, no punctuation but - and _, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_inside_the_readme_has_its_heading() -> None:
    text = README.read_text(encoding="utf-8")
    text = re.sub(r"^ *```.*?^ *```", "", text, flags=re.MULTILINE | re.DOTALL)
    anchors = {_slug(h) for h in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}
    links = set(re.findall(r"\]\(#([^)]+)\)", text))
    assert links and links <= anchors, sorted(links - anchors)


def test_every_threshold_is_named_in_the_help_and_the_readme() -> None:
    import dataclasses

    from lawdiff.align import DEFAULT_THRESHOLDS
    from lawdiff.cli.options import THRESHOLD_NAMES

    names = [f.name for f in dataclasses.fields(DEFAULT_THRESHOLDS)]
    assert THRESHOLD_NAMES.split(", ") == names
    threshold = next(p for p in main.commands["compare"].params if p.name == "threshold_overrides")
    assert f"Names: {THRESHOLD_NAMES}." in (threshold.help or "")
    alignment = README.read_text(encoding="utf-8").split("\n## Alignment\n", 1)[1].split("\n## ", 1)[0]
    assert [n for n in names if f"`{n}`" not in alignment] == []
