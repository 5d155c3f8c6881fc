"""Differential fuzzing of lawdiff's caches: a warm run must give the bytes of a cold one.

The README (and issue 8) promise that whatever changed between two runs, a run
that reads the cache (``LAWDIFF_CACHE``: parsed pages, outlines, pair
comparisons, word differences, ``compare``'s whole answers, the report's pages)
writes what a run without it (``--no-cache`` or ``LAWDIFF_CACHE=off``) writes,
byte for byte, and that a damaged entry is read again, never trusted.

This script tries to break that.  It builds a world in a temporary folder: a
corpus (a copy of the bundled one, small generated editions of
``benchmarks/generate.py``, or both), a review store, a typed-text draft and a
cache folder kept for the whole sequence.  Then, step by step, it applies a
random mutation (seeded) and runs one or more commands twice, warm (the kept
cache) and cold, each in a working folder of its own, and compares the exit
codes, stdout, stderr and every output file (a report folder file by file,
its manifest included; file times are not compared, they differ by design).

The mutations (:class:`Mutation`): a word edited in a page, a wiki page's
title line changed, two pages' contents swapped, a page renamed, copied (or a
page of another corpus imported), deleted and restored, its times touched or
its file rewritten with the same bytes; a ``lawdiff.toml`` added, changed
(thresholds, default source, printings; now and then a bad one) or removed;
``--threshold``, ``--article``, ``--format`` and ``-o`` changed; a review
decision, comment or assignment, a pin, a forbid or an unpin written
(``lawdiff review ... --review STORE``); how the store is named (``--review``,
``$LAWDIFF_REVIEW``, ``--no-review``, none); a ``--draft`` given, edited,
renamed with ``--as``, read in the other state or taken away; a year folder
replaced by a symbolic link (which lawdiff lists and does not follow), a page
replaced by a link to its file elsewhere, the corpus given through a link
that is turned to a snapshot and back, or given as one folder per year or one
per page; a draft, a MediaWiki export or a parser case copied in; cache
entries damaged (bytes flipped, cut, emptied, garbage, removed, aged past the
time the cache keeps them) or a whole entry copied over another's; the corpus
made again from its base; and a page edited while a warm report reads it
(that run's output is not compared: which text it read is a race; the runs
beside it and after it are).

Commands: ``compare``, ``history``, ``correlate``, ``check``, ``report`` and
``review list``, with the options of the moment.  At the first difference the
script prints the seed, the steps so far, the command and the first bytes
that differ, writes the sequence to ``benchmarks/output/fuzz_cache/`` and
stops; ``--replay FILE`` runs a written sequence again, ``--minimise`` cuts it
down to the steps the difference needs.  Exit code 3 (lawdiff's "this is a
bug") is reported too, warm and cold alike.

Run (niced: the machine is shared)::

    nice -n 10 python3 benchmarks/fuzz_cache.py --seed 1 --steps 300
    python3 benchmarks/fuzz_cache.py --replay benchmarks/output/fuzz_cache/seed-1.json --minimise

Commands run as ``python -m lawdiff`` processes with ``PYTHONPATH`` set to
this checkout; ``--in-process`` runs them through click's CliRunner instead
(faster; ``tests/test_cache_differential.py`` uses it).
"""

from __future__ import annotations

import argparse
import enum
import importlib.util
import json
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

OUTPUT = ROOT / "benchmarks" / "output" / "fuzz_cache"
FIXTURES = ROOT / "tests" / "fixtures"
DRAFT_SEED = FIXTURES / "draft" / "text-concept.txt"
GENERATOR = ROOT / "benchmarks" / "generate.py"
DRAFT_DONORS = ("text-concept.txt", "docx-tracked-changes.docx", "docx-footnotes.docx", "odt-numbering.odt")
# The generated editions are always the generator's own seed: the fuzzer's seed drives the mutations only.
GENERATOR_SEED = 2017
PAGE_SUFFIXES = (".txt", ".json", ".xml")
SETTINGS = "lawdiff.toml"
THRESHOLDS = {
    "identity_min": 0.9, "match_min": 0.42, "text_min": 0.25, "verbatim_min": 0.9, "address_bonus": 0.12,
    "article_bonus": 0.08, "reference_bonus": 0.08, "piece_min": 0.55, "gain_min": 0.1, "explained_max": 0.85,
    "adjacent_piece_min": 0.4, "lead_in_min": 0.25, "gap_min": 0.18, "title_min": 0.6, "certain": 0.75,
}  # fmt: skip
# Words a law text changes by: a modal, a negation, a number, a reference (the significance flags' kinds).
SPICE = ("moet", "mag", "niet", "geen", "tenzij", "drie", "12", "artikel 16", "leider", "blinde")
WORD = re.compile(r"[A-Za-zÀ-ÿ]{4,}")


class Mutation(enum.Enum):
    """What a step changes before its commands run."""

    EDIT_WORD = "edit_word"
    RETITLE = "retitle"  # a wiki page's title line names another edition or article
    SWAP_PAGES = "swap_pages"
    RENAME_PAGE = "rename_page"
    COPY_PAGE = "copy_page"
    DELETE_PAGE = "delete_page"
    RESTORE_PAGE = "restore_page"
    TOUCH = "touch"
    SETTINGS = "settings"
    THRESHOLD = "threshold"
    ARTICLE = "article"
    FORMAT = "format"
    OUTPUT = "output"
    REVIEW_MODE = "review_mode"
    REVIEW_DECISION = "review_decision"
    REVIEW_PIN = "review_pin"
    REVIEW_FORBID = "review_forbid"
    DRAFT = "draft"
    LINK_FOLDER = "link_folder"  # a year folder replaced by a symbolic link to it, or put back
    LINK_FILE = "link_file"  # a page replaced by a symbolic link to its file elsewhere
    RELINK = "relink"  # the corpus named through a link, turned between the corpus and a snapshot
    DAMAGE_CACHE = "damage_cache"
    RACE = "race"  # a page edited while a warm run reads
    RESET = "reset"  # the corpus made again from its base; drawn too after steps where every command failed
    MISFILE = "misfile"  # a whole entry copied over another's (trusted until the checksum held the key)


# One of each, in an order where each finds something to do (a page deleted before one is restored):
# what ``--cover`` runs first, and the short sequence of the tests.
COVER = (
    Mutation.EDIT_WORD, Mutation.REVIEW_MODE, Mutation.REVIEW_DECISION, Mutation.FORMAT, Mutation.RETITLE,
    Mutation.DELETE_PAGE, Mutation.THRESHOLD, Mutation.SWAP_PAGES, Mutation.RESTORE_PAGE, Mutation.REVIEW_PIN,
    Mutation.ARTICLE, Mutation.RENAME_PAGE, Mutation.COPY_PAGE, Mutation.OUTPUT, Mutation.TOUCH,
    Mutation.SETTINGS, Mutation.REVIEW_FORBID, Mutation.DRAFT, Mutation.LINK_FOLDER, Mutation.DAMAGE_CACHE,
    Mutation.MISFILE,
    Mutation.LINK_FILE, Mutation.RELINK, Mutation.RACE, Mutation.RESET, Mutation.EDIT_WORD,
)  # fmt: skip

# How often each is drawn after the cover (the edits of pages most: they are what a committee does).
WEIGHTS = {
    Mutation.EDIT_WORD: 8, Mutation.RETITLE: 1, Mutation.SWAP_PAGES: 2, Mutation.RENAME_PAGE: 2,
    Mutation.COPY_PAGE: 3, Mutation.DELETE_PAGE: 2, Mutation.RESTORE_PAGE: 2, Mutation.TOUCH: 2,
    Mutation.SETTINGS: 3, Mutation.THRESHOLD: 2, Mutation.ARTICLE: 2, Mutation.FORMAT: 3, Mutation.OUTPUT: 2,
    Mutation.REVIEW_MODE: 2, Mutation.REVIEW_DECISION: 3, Mutation.REVIEW_PIN: 2, Mutation.REVIEW_FORBID: 1,
    Mutation.DRAFT: 3, Mutation.LINK_FOLDER: 1, Mutation.LINK_FILE: 1, Mutation.RELINK: 2,
    Mutation.DAMAGE_CACHE: 3, Mutation.RACE: 1, Mutation.RESET: 1, Mutation.MISFILE: 1,
}  # fmt: skip

JOBS = ("", "", "1", "2", "3")
COMMANDS = ("compare", "history", "correlate", "check", "report", "review-list")


@dataclass(frozen=True, slots=True)
class Action:
    """One mutation as it was applied: concrete (paths, words, argv), so that a sequence replays without the
    random numbers that chose it.  ``detail`` holds strings only (it is written as JSON)."""

    kind: Mutation
    detail: tuple[str, ...]

    def describe(self) -> str:
        shown = (d.replace("\n", "\\n") for d in self.detail)
        return f"{self.kind.value} " + " ".join(d if len(d) < 60 else d[:57] + "..." for d in shown)


@dataclass(frozen=True, slots=True)
class Command:
    """A command line, its environment beyond the cache's, and what it writes (files or folders, relative to
    its working folder).  ``{root}`` in an argument stands for the world's folder."""

    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    outputs: tuple[str, ...] = ()
    cold: str = "flag"  # how the cold run turns the cache off: "flag" (--no-cache) or "env" (LAWDIFF_CACHE=off)
    twice: bool = False  # run warm a second time (what the first warm run wrote, read back)
    # LAWDIFF_JOBS of the warm and the cold run ("": unset): how many processes read and describe must not
    # show, and a run that reads few files (warm) forks less than one that reads them all (cold).
    jobs: tuple[str, str] = ("", "")

    def line(self) -> str:
        env = " ".join(f"{k}={v}" for k, v in self.env)
        return (env + " " if env else "") + "lawdiff " + " ".join(_quoted(a) for a in self.argv)


def _quoted(arg: str) -> str:
    return arg if re.fullmatch(r"[\w@%+=:,./{}-]+", arg) else "'" + arg.replace("'", "'\\''") + "'"


@dataclass(slots=True)
class Step:
    action: Action | None
    applied: bool
    commands: list[Command]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one run gave: exit code, the two streams, and the files it wrote (path -> bytes or a marker)."""

    code: int
    stdout: bytes
    stderr: bytes
    files: tuple[tuple[str, bytes], ...]
    seconds: float


@dataclass(frozen=True, slots=True)
class Difference:
    """The first place where a warm run and a cold one differ."""

    step: int
    command: Command
    what: str  # "exit code", "stdout", "stderr", or a file's path
    warm: bytes
    cold: bytes
    second_warm: bool  # found on the second warm run

    def report(self) -> str:
        at = next((i for i, (a, b) in enumerate(zip(self.warm, self.cold, strict=False)) if a != b), None)
        if at is None:
            at = min(len(self.warm), len(self.cold))
        lo = max(0, at - 80)
        which = "the second warm run" if self.second_warm else "warm"
        return "\n".join(
            [
                f"DIFFERENCE at step {self.step}: {self.what} ({which} {len(self.warm)} bytes, cold {len(self.cold)})",
                f"  command: {self.command.line()}",
                f"  cold run: {'--no-cache' if self.command.cold == 'flag' else 'LAWDIFF_CACHE=off'};"
                f" LAWDIFF_JOBS warm {self.command.jobs[0] or 'unset'}, cold {self.command.jobs[1] or 'unset'}",
                f"  first differing byte at {at}:",
                f"    warm: {self.warm[lo : at + 120]!r}",
                f"    cold: {self.cold[lo : at + 120]!r}",
            ]
        )


# ---------------------------------------------------------------------------
# The world: a corpus to mutate, a store, a draft, a cache, and a working folder for each kind of run


def _module(name: str, path: Path) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class World:
    """The folders of one sequence, under ``root``."""

    def __init__(self, root: Path, base: str, articles: int) -> None:
        self.root = root
        self.base = base
        self.corpus = root / "corpus"
        self.attic = root / "attic"  # deleted pages, by their path in the corpus
        self.away = root / "away"  # what links in the corpus point to
        self.donors = root / "donors"  # pages of other corpora, to import
        self.snap = root / "snap"  # a snapshot of the corpus, for the link to turn to
        self.link = root / "link"
        self.store = root / "review.sqlite"
        self.draft = root / "drafts" / "concept-2027.txt"
        self.cache = root / "cache"
        self.warm = root / "warm"
        self.cold = root / "cold"
        self.admin = root / "admin"  # where the review writes and the raced runs run
        self.background: subprocess.Popen[bytes] | None = None  # a raced run still going
        for folder in (self.attic, self.away, self.donors, self.warm, self.cold, self.admin, self.draft.parent):
            folder.mkdir(parents=True, exist_ok=True)
        self._build(articles)
        self.snap.mkdir()
        os.symlink(self.corpus, self.link)

    def _build(self, articles: int) -> None:
        from lawdiff.corpus import default_corpus

        gen = _module("lawdiff_bench_generate", GENERATOR)
        gen.write(gen.generate(articles=articles, seed=GENERATOR_SEED), self.donors / "generated")
        shutil.copytree(default_corpus(), self.donors / "bundled")
        # Drafts to put in a corpus folder named after their edition: typed text, Word and OpenDocument (the
        # test fixtures, made from the seeds' wording), read through the cache like any page.
        drafts = self.donors / "drafts" / "2030"
        drafts.mkdir(parents=True)
        for name in DRAFT_DONORS:
            shutil.copy(DRAFT_SEED.parent / name, drafts / name)
        # MediaWiki exports (transclusions expanded within the file) and the parser's single-page cases.
        for export in sorted((FIXTURES / "mediawiki").glob("*.xml")):
            (self.donors / "mediawiki" / export.stem).mkdir(parents=True)
            shutil.copy(export, self.donors / "mediawiki" / export.stem / f"export-{export.name}")
        (self.donors / "parse").mkdir()
        for case in sorted((FIXTURES / "parse").iterdir()):
            if case.suffix in (".txt", ".json"):
                shutil.copy(case, self.donors / "parse" / case.name)
        self.fill()

    def fill(self) -> None:
        """The corpus as the base has it (made again by a reset: every file new)."""
        donors = self.donors / "generated"
        shutil.copytree(donors if self.base == "generated" else self.donors / "bundled", self.corpus)
        if self.base == "mixed":
            # The 2017 wiki pages of a few generated articles beside the site's 2017: two sources of one year
            # (2017@wiki, 2017@nuxt), which the settings' [default] chooses between.
            (self.corpus / "2017@wiki").mkdir()
            for page in sorted((donors / "2017").iterdir())[:6]:
                shutil.copy(page, self.corpus / "2017@wiki" / page.name)

    def settle(self) -> None:
        """Wait for the run a race left going."""
        if self.background is not None:
            self.background.wait(timeout=600)
            self.background = None

    def pages(self) -> list[Path]:
        """The corpus's page files (through a link to a file, not into a linked folder), sorted."""
        out = []
        for folder, dirs, files in os.walk(self.corpus):
            dirs.sort()
            for name in sorted(files):
                p = Path(folder) / name
                if p.suffix in PAGE_SUFFIXES and p.is_file():
                    out.append(p)
        return out

    def folders(self) -> list[Path]:
        return sorted(p for p in self.corpus.iterdir() if p.is_dir() and not p.is_symlink())

    def rel(self, path: Path) -> str:
        return path.relative_to(self.corpus).as_posix()

    def expand(self, arg: str) -> str:
        return arg.replace("{root}", str(self.root))


@dataclass
class Options:
    """The command line of the moment: what the option mutations change."""

    thresholds: tuple[str, ...] = ()
    article: str = ""
    fmt: str = "text"
    to_file: bool = False
    review: str = "none"  # "none" (no store named), "flag" (--review), "env" ($LAWDIFF_REVIEW), "off" (--no-review)
    draft: bool = False
    draft_as: str = ""
    draft_state: str = "accepted"
    # "direct", "link" (the root link), "years" (one --corpus per year folder) or "files" (one per page)
    corpus_via: str = "direct"
    pinned: list[str] = field(default_factory=list)  # a clause of each pin written, for an unpin to name


@dataclass
class Knowledge:
    """What the corpus holds now, for choosing names: editions oldest first, articles and clause addresses."""

    editions: list[str] = field(default_factory=list)
    articles: dict[str, list[str]] = field(default_factory=dict)
    addresses: dict[str, list[str]] = field(default_factory=dict)


def learn(world: World, opts: Options, known: Knowledge) -> Knowledge:
    """The corpus read here, without the cache; what was known before when it cannot be read."""
    from lawdiff.corpus import DraftFile, load
    from lawdiff.errors import LawdiffError
    from lawdiff.model import Kind, chronological

    drafts = [DraftFile(world.draft, opts.draft_as, opts.draft_state)] if opts.draft and world.draft.exists() else []
    try:
        corpus = load([world.corpus], drafts=drafts)
    except (LawdiffError, OSError):
        return known
    eds = sorted(corpus.editions, key=chronological)
    return Knowledge(
        [e.name for e in eds],
        {e.name: [a.address for a in e.articles()] for e in eds},
        {e.name: [c.address for c in e.walk() if c.text and c.kind is not Kind.FOOTNOTE] for e in eds},
    )


# ---------------------------------------------------------------------------
# Running a command


Runner = Callable[[World, Command, bool], Outcome]


def _base_env(world: World, command: Command, warm: bool) -> dict[str, str | None]:
    # A Word redline carries the time it was made, from SOURCE_DATE_EPOCH when set (README): fixed here.
    env: dict[str, str | None] = {"LAWDIFF_REVIEW": None, "NO_COLOR": None, "LAWDIFF_DEBUG": None}
    env["SOURCE_DATE_EPOCH"] = "1700000000"
    env["LAWDIFF_CACHE"] = str(world.cache) if warm else ("off" if command.cold == "env" else str(world.cache))
    env.update((k, world.expand(v)) for k, v in command.env)
    env["LAWDIFF_JOBS"] = command.jobs[0 if warm else 1] or None
    return env


def _argv(world: World, command: Command, warm: bool) -> list[str]:
    argv = [world.expand(a) for a in command.argv]
    return [*argv, "--no-cache"] if not warm and command.cold == "flag" else argv


def run_process(world: World, command: Command, warm: bool) -> Outcome:
    """The command as a ``python -m lawdiff`` process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAWDIFF_")}
    env["PYTHONPATH"] = str(ROOT)
    for k, v in _base_env(world, command, warm).items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    cwd = world.warm if warm else world.cold
    _clear(cwd, command)
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "lawdiff", *_argv(world, command, warm)],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=600,
        check=False,
    )
    return Outcome(done.returncode, done.stdout, done.stderr, _written(cwd, command), time.monotonic() - start)


def run_in_process(world: World, command: Command, warm: bool) -> Outcome:
    """The command through click's CliRunner, in this process (its working folder changed for the run)."""
    from click.testing import CliRunner

    from lawdiff.cli import main

    cwd = world.warm if warm else world.cold
    _clear(cwd, command)
    here = os.getcwd()
    os.chdir(cwd)
    start = time.monotonic()
    try:
        result = CliRunner().invoke(main, _argv(world, command, warm), env=_base_env(world, command, warm))
    finally:
        os.chdir(here)
    stderr = result.stderr_bytes or b""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += f"\n[uncaught {type(result.exception).__name__}: {result.exception}]".encode()
    return Outcome(result.exit_code, result.stdout_bytes, stderr, _written(cwd, command), time.monotonic() - start)


def _clear(cwd: Path, command: Command) -> None:
    """Remove the output files an earlier step left (a report folder stays: replacing one is behaviour too)."""
    for name in command.outputs:
        path = cwd / name
        if path.is_file() or path.is_symlink():
            path.unlink()


def _written(cwd: Path, command: Command) -> tuple[tuple[str, bytes], ...]:
    out: list[tuple[str, bytes]] = []
    for name in command.outputs:
        out.extend(_tree(cwd / name, name))
    return tuple(out)


def _tree(path: Path, name: str) -> Iterator[tuple[str, bytes]]:
    """A file's bytes, or a folder's files and folders (hidden ones too), with their permission bits."""
    if path.is_symlink():
        yield name, b"-> " + os.readlink(path).encode()
    elif path.is_dir():
        yield name + "/", b"<folder>"
        for child in sorted(path.iterdir()):
            yield from _tree(child, f"{name}/{child.name}")
    elif path.exists():
        yield name + " (mode)", oct(stat.S_IMODE(path.stat().st_mode)).encode()
        yield name, path.read_bytes()
    else:
        yield name, b"<absent>"


def differ(step: int, command: Command, warm: Outcome, cold: Outcome, second: bool = False) -> Difference | None:
    def found(what: str, a: bytes, b: bytes) -> Difference:
        return Difference(step, command, what, a, b, second)

    if warm.code != cold.code:
        return found("exit code", str(warm.code).encode(), str(cold.code).encode())
    if warm.stdout != cold.stdout:
        return found("stdout", warm.stdout, cold.stdout)
    if warm.stderr != cold.stderr:
        return found("stderr", warm.stderr, cold.stderr)
    a, b = dict(warm.files), dict(cold.files)
    for name in sorted(a.keys() | b.keys()):
        if a.get(name) != b.get(name):
            return found(f"file {name}", a.get(name, b"<missing>"), b.get(name, b"<missing>"))
    return None


# ---------------------------------------------------------------------------
# Choosing mutations (each returns the concrete action, or None when there is nothing to do)


Chooser = Callable[[random.Random, World, Options, Knowledge], Action | None]


def _page(rng: random.Random, world: World, suffixes: tuple[str, ...] = PAGE_SUFFIXES) -> Path | None:
    pages = [p for p in world.pages() if p.suffix in suffixes]
    return rng.choice(pages) if pages else None


def _replacement(rng: random.Random, word: str, vocabulary: list[str]) -> str:
    roll = rng.random()
    if roll < 0.4 and vocabulary:
        return rng.choice(vocabulary)
    if roll < 0.55:
        return rng.choice(SPICE)
    if roll < 0.7:
        return word + rng.choice(("en", "e", "s"))
    if roll < 0.85 and len(word) > 4:
        i = rng.randrange(len(word) - 1)
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word[0].swapcase() + word[1:]


def choose_edit(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    page = _page(rng, world)
    if page is None:
        return None
    text = page.read_bytes().decode("utf-8", "replace")
    words = list(WORD.finditer(text))
    if not words:
        return None
    m = rng.choice(words)
    vocabulary = [w.group(0) for w in rng.sample(words, min(40, len(words)))]
    new = _replacement(rng, m.group(0), vocabulary)
    return Action(Mutation.EDIT_WORD, (world.rel(page), str(m.start()), m.group(0), new))


def choose_retitle(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    page = _page(rng, world, (".txt",))
    if page is None:
        return None
    first = page.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0]
    m = re.match(r"(Sjabloon:)(\d{4})(:)(\S+)", first)
    if m is None:
        return None
    if rng.random() < 0.5:
        new = f"{m.group(1)}{rng.choice(('1963', '1997', '2007', '2017', '1987', '2027'))}:{m.group(4)}"
    else:
        new = f"{m.group(1)}{m.group(2)}:{rng.choice(('6', '45', '12', '3', '99'))}"
    return Action(Mutation.RETITLE, (world.rel(page), m.group(0), new))


def choose_swap(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    pages = world.pages()
    if len(pages) < 2:
        return None
    a, b = rng.sample(pages, 2)
    return Action(Mutation.SWAP_PAGES, (world.rel(a), world.rel(b)))


def _new_name(rng: random.Random, world: World, page: Path) -> str:
    folder = rng.choice([page.parent, *world.folders()]) if rng.random() < 0.4 else page.parent
    stem = rng.choice((page.stem + "-b", "kopie", f"page{rng.randrange(100)}", page.stem))
    roll = rng.random()
    if roll < 0.08:
        stem = "." + stem  # hidden: skipped, and listed by name only
    # Another suffix now and then: none and upper case are read, .md is skipped.
    suffix = rng.choice(("", ".md", page.suffix.upper())) if roll > 0.92 else page.suffix
    name = (folder / (stem + suffix)).relative_to(world.corpus).as_posix()
    return name if not (world.corpus / name).exists() else f"{name}-{rng.randrange(1000)}{suffix}"


def choose_rename(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    page = _page(rng, world)
    return None if page is None else Action(Mutation.RENAME_PAGE, (world.rel(page), _new_name(rng, world, page)))


def choose_copy(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    if rng.random() < 0.5:
        donors = sorted(p for p in world.donors.rglob("*") if p.is_file())
        donor = rng.choice(donors)
        year = donor.parent.name
        target = f"{year}/{donor.name}" if rng.random() < 0.7 else f"extra/{donor.name}"
        if (world.corpus / target).exists():
            target = target.replace(donor.suffix, "-imported" + donor.suffix)
        return Action(Mutation.COPY_PAGE, ("donor:" + donor.relative_to(world.donors).as_posix(), target))
    page = _page(rng, world)
    return None if page is None else Action(Mutation.COPY_PAGE, (world.rel(page), _new_name(rng, world, page)))


def choose_delete(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    page = _page(rng, world)
    return None if page is None else Action(Mutation.DELETE_PAGE, (world.rel(page),))


def choose_restore(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    kept = sorted(p for p in world.attic.rglob("*") if p.is_file())
    return Action(Mutation.RESTORE_PAGE, (rng.choice(kept).relative_to(world.attic).as_posix(),)) if kept else None


def choose_touch(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    page = _page(rng, world)
    if page is None:
        return None
    how = rng.choice(("past", "future", "now", "rewrite"))
    return Action(Mutation.TOUCH, (world.rel(page), how))


def settings_text(rng: random.Random) -> str:
    """A ``lawdiff.toml``: mostly good (thresholds near their defaults, a default source, a printing), now and
    then one that lawdiff must refuse (by name, warm and cold alike)."""
    roll = rng.random()
    if roll < 0.06:
        return rng.choice(("[threshold]\nmatch_min = 0.5\n", "[thresholds]\nmatch_min = 7\n", "[default\n"))
    lines: list[str] = []
    if rng.random() < 0.7:
        lines.append("[thresholds]")
        for name in rng.sample(sorted(THRESHOLDS), rng.randrange(1, 4)):
            value = min(1.0, max(0.0, THRESHOLDS[name] + rng.choice((-0.15, -0.05, 0.05, 0.1))))
            lines.append(f"{name} = {value:.2f}")
    if rng.random() < 0.5:
        lines += ["[default]", f'"2017" = "{rng.choice(("nuxt", "wiki"))}"']
    if rng.random() < 0.3:
        lines += ["[printing]", f'"{rng.choice(("2017@wiki", "2007", "1963"))}" = "{rng.randrange(1, 5)}e druk"']
    return "\n".join(lines) + "\n"


def choose_settings(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    where = "" if rng.random() < 0.85 else rng.choice([f.name for f in world.folders()] or [""])
    if (world.corpus / where / SETTINGS).exists() and rng.random() < 0.3:
        return Action(Mutation.SETTINGS, (where, "remove"))
    return Action(Mutation.SETTINGS, (where, "write", settings_text(rng)))


def choose_threshold(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    if rng.random() < 0.3:
        return Action(Mutation.THRESHOLD, ())
    picked = []
    for name in rng.sample(sorted(THRESHOLDS), rng.randrange(1, 3)):
        value = min(1.0, max(0.0, THRESHOLDS[name] + rng.choice((-0.2, -0.1, 0.05, 0.15))))
        picked.append(f"{name}={value:.2f}")
    if rng.random() < 0.05:
        picked.append(rng.choice(("match_min=abc", "nosuch=0.5")))
    return Action(Mutation.THRESHOLD, tuple(picked))


def choose_article(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    if rng.random() < 0.3:
        return Action(Mutation.ARTICLE, ("",))
    arts = sorted({a for v in known.articles.values() for a in v})
    addresses = sorted({a for v in known.addresses.values() for a in v})
    roll = rng.random()
    if roll < 0.6 and arts:
        return Action(Mutation.ARTICLE, (rng.choice(arts),))
    if roll < 0.95 and addresses:
        return Action(Mutation.ARTICLE, (rng.choice(addresses),))
    return Action(Mutation.ARTICLE, ("99Z",))


def choose_format(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    return Action(Mutation.FORMAT, (rng.choice(("text", "json", "html", "csv", "md", "docx")),))


def choose_output(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    return Action(Mutation.OUTPUT, ("stdout" if opts.to_file else "file",))


def choose_review_mode(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    return Action(Mutation.REVIEW_MODE, (rng.choice([m for m in ("none", "flag", "env", "off") if m != opts.review]),))


def _pair(rng: random.Random, known: Knowledge) -> tuple[str, str] | None:
    eds = known.editions
    if len(eds) < 2:
        return None
    if rng.random() < 0.8:
        i = rng.randrange(len(eds) - 1)
        return eds[i], eds[i + 1]
    a, b = rng.sample(eds, 2)
    return a, b


def _corpus_args() -> list[str]:
    return ["--corpus", "{root}/corpus"]


def choose_decision(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    pair = _pair(rng, known)
    if pair is None or not known.addresses.get(pair[1]):
        return None
    target = f"{pair[1]}:{rng.choice(known.addresses[pair[1]])}"
    verb = rng.choice(("set", "set", "comment", "assign"))
    if verb == "set":
        status = rng.choice(("accepted", "query", "rejected", "translation-fix", "open"))
        argv = ["review", "set", target, status, "--pair", *pair]
        if rng.random() < 0.4:
            argv += ["--comment", rng.choice(("Akkoord.", "Zie <script>&amp;", "Nog bespreken"))]
    elif verb == "comment":
        argv = ["review", "comment", target, rng.choice(("Is 'onbedoeld' juist?", "Tekst & opmaak")), "--pair", *pair]
    else:
        argv = ["review", "assign", target, rng.choice(("Anne", "Bert")), "--pair", *pair]
    argv += [*_corpus_args(), "--author", "fuzz", "--review", "{root}/review.sqlite"]
    return Action(Mutation.REVIEW_DECISION, tuple(argv))


def choose_pin(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    pair = _pair(rng, known)
    if pair is None or not known.addresses.get(pair[0]) or not known.addresses.get(pair[1]):
        return None
    if opts.pinned and rng.random() < 0.25:
        argv = ["review", "unpin", rng.choice(opts.pinned)]
        return Action(Mutation.REVIEW_PIN, tuple([*argv, "--author", "fuzz", "--review", "{root}/review.sqlite"]))
    old = [f"{pair[0]}:{rng.choice(known.addresses[pair[0]])}"]
    new = [f"{pair[1]}:{a}" for a in rng.sample(known.addresses[pair[1]], min(len(known.addresses[pair[1]]), 2))]
    argv = ["review", "pin", *old, *new[: rng.randrange(1, len(new) + 1)], *_corpus_args()]
    return Action(Mutation.REVIEW_PIN, tuple([*argv, "--author", "fuzz", "--review", "{root}/review.sqlite"]))


def choose_forbid(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    pair = _pair(rng, known)
    if pair is None or not known.addresses.get(pair[0]) or not known.addresses.get(pair[1]):
        return None
    a = f"{pair[0]}:{rng.choice(known.addresses[pair[0]])}"
    b = f"{pair[1]}:{rng.choice(known.addresses[pair[1]])}"
    argv = ["review", "forbid", a, b, *_corpus_args(), "--author", "fuzz", "--review", "{root}/review.sqlite"]
    return Action(Mutation.REVIEW_FORBID, tuple(argv))


def choose_draft(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    if not world.draft.exists() or not opts.draft:
        return Action(Mutation.DRAFT, ("give",))
    roll = rng.random()
    if roll < 0.5:
        text = world.draft.read_text(encoding="utf-8")
        words = list(WORD.finditer(text))
        m = rng.choice(words)
        return Action(Mutation.DRAFT, ("edit", str(m.start()), m.group(0), _replacement(rng, m.group(0), [])))
    if roll < 0.7:
        return Action(Mutation.DRAFT, ("as", rng.choice(("", "2027", "2030", "concept"))))
    if roll < 0.8:
        return Action(Mutation.DRAFT, ("state", "original" if opts.draft_state == "accepted" else "accepted"))
    return Action(Mutation.DRAFT, ("take-away",))


def choose_link_folder(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    linked = sorted(p.name for p in world.corpus.iterdir() if p.is_symlink() and p.is_dir())
    if linked and rng.random() < 0.6:
        return Action(Mutation.LINK_FOLDER, ("back", rng.choice(linked)))
    folders = world.folders()
    return Action(Mutation.LINK_FOLDER, ("link", rng.choice(folders).name)) if folders else None


def choose_link_file(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    page = _page(rng, world)
    return None if page is None or page.is_symlink() else Action(Mutation.LINK_FILE, (world.rel(page),))


def choose_relink(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    roll = rng.random()
    if roll < 0.3:
        return Action(Mutation.RELINK, ("snapshot",))
    if roll < 0.6:
        return Action(Mutation.RELINK, ("turn", "snap" if os.readlink(world.link) == str(world.corpus) else "corpus"))
    return Action(
        Mutation.RELINK, ("via", rng.choice([v for v in ("direct", "link", "years", "files") if v != opts.corpus_via]))
    )


def _entries(world: World) -> list[Path]:
    return sorted(world.cache.glob("*/*/*.pickle")) if world.cache.is_dir() else []


def choose_damage(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    entries = _entries(world)
    if not entries:
        return None
    entry = rng.choice(entries)
    how = rng.choice(("flip", "flip", "cut", "empty", "garbage", "remove", "head", "age"))
    return Action(Mutation.DAMAGE_CACHE, (entry.relative_to(world.cache).as_posix(), how, str(rng.random())))


def choose_reset(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    return Action(Mutation.RESET, ())


def choose_misfile(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    entries = _entries(world)
    by_kind: dict[str, list[Path]] = {}
    for e in entries:
        by_kind.setdefault(e.parts[-3], []).append(e)
    # A file's pages and its outlines are kept under the same key, in two folders: one over the other.
    twins = [
        (e, world.cache / "outlines" / e.parent.name / e.name)
        for e in by_kind.get("pages", [])
        if (world.cache / "outlines" / e.parent.name / e.name).is_file()
    ]
    kinds = [k for k, v in sorted(by_kind.items()) if len(v) > 1]
    if twins and rng.random() < 0.25:
        a, b = rng.choice(twins)
        if rng.random() < 0.5:
            a, b = b, a
    elif kinds:
        a, b = rng.sample(by_kind[rng.choice(kinds)], 2)
    else:
        return None
    return Action(Mutation.MISFILE, (a.relative_to(world.cache).as_posix(), b.relative_to(world.cache).as_posix()))


def choose_race(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Action | None:
    edit = choose_edit(rng, world, opts, known)
    if edit is None:
        return None
    return Action(Mutation.RACE, (*edit.detail, f"{rng.uniform(0.0, 0.35):.3f}"))


CHOOSERS: dict[Mutation, Chooser] = {
    Mutation.EDIT_WORD: choose_edit, Mutation.RETITLE: choose_retitle, Mutation.SWAP_PAGES: choose_swap,
    Mutation.RENAME_PAGE: choose_rename, Mutation.COPY_PAGE: choose_copy, Mutation.DELETE_PAGE: choose_delete,
    Mutation.RESTORE_PAGE: choose_restore, Mutation.TOUCH: choose_touch, Mutation.SETTINGS: choose_settings,
    Mutation.THRESHOLD: choose_threshold, Mutation.ARTICLE: choose_article, Mutation.FORMAT: choose_format,
    Mutation.OUTPUT: choose_output, Mutation.REVIEW_MODE: choose_review_mode,
    Mutation.REVIEW_DECISION: choose_decision, Mutation.REVIEW_PIN: choose_pin,
    Mutation.REVIEW_FORBID: choose_forbid, Mutation.DRAFT: choose_draft, Mutation.LINK_FOLDER: choose_link_folder,
    Mutation.LINK_FILE: choose_link_file, Mutation.RELINK: choose_relink, Mutation.DAMAGE_CACHE: choose_damage,
    Mutation.RACE: choose_race, Mutation.RESET: choose_reset, Mutation.MISFILE: choose_misfile,
}  # fmt: skip


# ---------------------------------------------------------------------------
# Applying mutations (False: nothing to do, e.g. a replayed step whose page is gone)


def _replace_at(path: Path, offset: int, old: str, new: str) -> bool:
    if not path.is_file():
        return False
    text = path.read_bytes().decode("utf-8", "surrogateescape")
    if text[offset : offset + len(old)] != old:
        return False
    path.write_bytes((text[:offset] + new + text[offset + len(old) :]).encode("utf-8", "surrogateescape"))
    return True


def _move(src: Path, dst: Path) -> bool:
    if not (src.is_file() or src.is_symlink()) or dst.exists() or dst.is_symlink():
        return False
    dst.parent.mkdir(parents=True, exist_ok=True)
    os.replace(src, dst)
    return True


def apply(world: World, opts: Options, action: Action, runner: Runner | None = None) -> bool:
    kind, d = action.kind, action.detail
    corpus = world.corpus
    if kind is Mutation.EDIT_WORD:
        return _replace_at(corpus / d[0], int(d[1]), d[2], d[3])
    if kind is Mutation.RETITLE:
        return _replace_at(corpus / d[0], 0, d[1], d[2])
    if kind is Mutation.SWAP_PAGES:
        a, b = corpus / d[0], corpus / d[1]
        if not (a.is_file() and b.is_file()):
            return False
        ta, tb = a.read_bytes(), b.read_bytes()
        a.write_bytes(tb)
        b.write_bytes(ta)
        return True
    if kind is Mutation.RENAME_PAGE:
        return _move(corpus / d[0], corpus / d[1])
    if kind is Mutation.COPY_PAGE:
        src = world.donors / d[0][6:] if d[0].startswith("donor:") else corpus / d[0]
        dst = corpus / d[1]
        if not src.is_file() or dst.exists():
            return False
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
        return True
    if kind is Mutation.DELETE_PAGE:
        return _move(corpus / d[0], world.attic / d[0])
    if kind is Mutation.RESTORE_PAGE:
        return _move(world.attic / d[0], corpus / d[0])
    if kind is Mutation.TOUCH:
        return _touch(corpus / d[0], d[1])
    if kind is Mutation.SETTINGS:
        path = corpus / d[0] / SETTINGS
        if d[1] == "remove":
            if not path.exists():
                return False
            path.unlink()
            return True
        if not path.parent.is_dir():
            return False
        path.write_text(d[2], encoding="utf-8")
        return True
    if kind is Mutation.THRESHOLD:
        opts.thresholds = d
    elif kind is Mutation.ARTICLE:
        opts.article = d[0]
    elif kind is Mutation.FORMAT:
        opts.fmt = d[0]
    elif kind is Mutation.OUTPUT:
        opts.to_file = d[0] == "file"
    elif kind is Mutation.REVIEW_MODE:
        opts.review = d[0]
    elif kind in (Mutation.REVIEW_DECISION, Mutation.REVIEW_PIN, Mutation.REVIEW_FORBID):
        # A write of the committee's: run once, with the kept cache (it reads the corpus to find its change).
        outcome = (runner or run_process)(world, Command(d, cold="flag"), True)
        if outcome.code == 0 and d[1] == "pin":
            opts.pinned.append(d[2])
        return outcome.code == 0
    elif kind is Mutation.DRAFT:
        return _draft(world, opts, d)
    elif kind is Mutation.LINK_FOLDER:
        return _link_folder(world, d)
    elif kind is Mutation.LINK_FILE:
        page = corpus / d[0]
        if not page.is_file() or page.is_symlink():
            return False
        target = world.away / "files" / d[0]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(page, target)
        page.unlink()
        os.symlink(target, page)
        return True
    elif kind is Mutation.RELINK:
        return _relink(world, opts, d)
    elif kind is Mutation.DAMAGE_CACHE:
        return _damage(world.cache / d[0], d[1], float(d[2]))
    elif kind is Mutation.RESET:
        shutil.rmtree(world.corpus)  # links inside are removed, not followed
        world.fill()
        opts.article, opts.thresholds, opts.draft = "", (), False
    elif kind is Mutation.MISFILE:
        a, b = world.cache / d[0], world.cache / d[1]
        if not (a.is_file() and b.is_file()):
            return False
        shutil.copyfile(a, b)
        return True
    elif kind is Mutation.RACE:
        return _race(world, opts, d)
    return True


def _touch(page: Path, how: str) -> bool:
    if not page.is_file():
        return False
    if how == "rewrite":
        # The same bytes in a new file (another inode, new times), as an editor that saves without a change.
        data = page.read_bytes()
        tmp = page.with_name(page.name + ".saving")
        tmp.write_bytes(data)
        os.replace(tmp, page.resolve() if page.is_symlink() else page)
        return True
    now = time.time()
    when = {"past": now - 40 * 86400, "future": now + 3 * 86400, "now": now}[how]
    os.utime(page, (when, when))
    return True


def _draft(world: World, opts: Options, d: tuple[str, ...]) -> bool:
    if d[0] == "give":
        if not world.draft.exists():
            shutil.copyfile(DRAFT_SEED, world.draft)
        opts.draft = True
        return True
    if d[0] == "edit":
        return _replace_at(world.draft, int(d[1]), d[2], d[3])
    if d[0] == "as":
        opts.draft_as = d[1]
    elif d[0] == "state":
        opts.draft_state = d[1]
    elif d[0] == "take-away":
        opts.draft = False
    return True


def _link_folder(world: World, d: tuple[str, ...]) -> bool:
    inside, away = world.corpus / d[1], world.away / "folders" / d[1]
    if d[0] == "link":
        if not inside.is_dir() or inside.is_symlink() or away.exists():
            return False
        away.parent.mkdir(parents=True, exist_ok=True)
        os.replace(inside, away)
        os.symlink(away, inside)
        return True
    if not inside.is_symlink() or not away.is_dir():
        return False
    inside.unlink()
    os.replace(away, inside)
    return True


def _relink(world: World, opts: Options, d: tuple[str, ...]) -> bool:
    if d[0] == "snapshot":
        shutil.rmtree(world.snap)
        shutil.copytree(world.corpus, world.snap, symlinks=True)
    elif d[0] == "turn":
        tmp = world.root / "link.new"
        os.symlink(world.corpus if d[1] == "corpus" else world.snap, tmp)
        os.replace(tmp, world.link)
    else:
        opts.corpus_via = d[1]
    return True


def _damage(entry: Path, how: str, where: float) -> bool:
    if not entry.is_file():
        return False
    data = entry.read_bytes()
    at = int(where * max(1, len(data) - 1))
    if how == "flip" and data:
        data = data[:at] + bytes([data[at] ^ 0x40]) + data[at + 1 :]
    elif how == "cut":
        data = data[:at]
    elif how == "empty":
        data = b""
    elif how == "garbage":
        data = bytes(random.Random(at).randrange(256) for _ in range(200))
    elif how == "head":
        data = data[:16] + b"0" * 64 + data[80:]  # the magic line kept, the checksum wrong
    elif how == "remove":
        entry.unlink()
        return True
    elif how == "age":
        # Unused for longer than the cache keeps entries, and the last pruning two days ago: the next run prunes.
        old = time.time() - 40 * 86400
        os.utime(entry, (old, old))
        stamp = entry.parents[2] / ".pruned"
        stamp.touch()
        os.utime(stamp, (time.time() - 2 * 86400,) * 2)
        return True
    entry.write_bytes(data)
    return True


def _race(world: World, opts: Options, d: tuple[str, ...]) -> bool:
    """A warm report started, the page edited after ``delay`` seconds while it reads, and the step's commands
    run while it may still be writing the cache; it is waited for after them (:meth:`World.settle`).  Its
    output is not compared (which text it read is a race); what it kept is read by the runs beside and
    after it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAWDIFF_")}
    env.update(PYTHONPATH=str(ROOT), LAWDIFF_CACHE=str(world.cache))
    # The report reads the whole corpus and keeps the most (pages, pairs, its pages): the run raced against.
    argv = ["report", "-o", "race-report", *_corpus_options(world, opts)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "lawdiff", *[world.expand(a) for a in argv]],
        cwd=world.admin,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(float(d[4]))
    changed = _replace_at(world.corpus / d[0], int(d[1]), d[2], d[3])
    world.background = proc
    return changed


# ---------------------------------------------------------------------------
# Building the commands of a step


def _corpus_options(world: World, opts: Options) -> list[str]:
    if opts.corpus_via == "link":
        return ["--corpus", "{root}/link"]
    if opts.corpus_via == "files":
        # Every page named on its own (a file given is always read, and named as given).
        return [a for p in world.pages() for a in ("--corpus", f"{{root}}/corpus/{world.rel(p)}")] or _corpus_args()
    if opts.corpus_via == "years":
        years = [f"{{root}}/corpus/{f.name}" for f in world.folders()]
        return [a for y in years for a in ("--corpus", y)] or _corpus_args()
    return _corpus_args()


def _inputs(
    world: World, opts: Options, review: bool = True, thresholds: bool = True
) -> tuple[list[str], list[tuple[str, str]]]:
    """The options every command that reads the corpus takes, and the environment they need."""
    argv = _corpus_options(world, opts)
    env: list[tuple[str, str]] = []
    if opts.draft:
        argv += ["--draft", "{root}/drafts/concept-2027.txt", "--draft-state", opts.draft_state]
        if opts.draft_as:
            argv += ["--as", opts.draft_as]
    if review:
        if opts.review == "flag":
            argv += ["--review", "{root}/review.sqlite"]
        elif opts.review == "env":
            env.append(("LAWDIFF_REVIEW", "{root}/review.sqlite"))
        elif opts.review == "off":
            argv.append("--no-review")
    if thresholds:
        argv += [a for t in opts.thresholds for a in ("--threshold", t)]
    return argv, env


def _edition_pair(rng: random.Random, known: Knowledge) -> tuple[str, str]:
    pair = _pair(rng, known)
    if pair is None or rng.random() < 0.03:
        return "2007", rng.choice(("2017", "1999"))
    return pair


def _article(rng: random.Random, opts: Options, known: Knowledge, editions: tuple[str, ...]) -> list[str]:
    """``--article`` of the moment: mostly only where one of the editions holds it (else the command only
    refuses it), now and then anyway."""
    if not opts.article:
        return []
    held = any(opts.article in (*known.articles.get(e, []), *known.addresses.get(e, [])) for e in editions)
    return ["--article", opts.article] if rng.random() < (0.9 if held else 0.15) else []


def _fmt(opts: Options, allowed: tuple[str, ...]) -> str:
    return opts.fmt if opts.fmt in allowed else allowed[0]


def _cold(rng: random.Random) -> str:
    return "flag" if rng.random() < 0.7 else "env"


def build_compare(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Command:
    old, new = _edition_pair(rng, known)
    argv, env = _inputs(world, opts)
    fmt = _fmt(opts, ("text", "json", "html", "docx"))
    argv = ["compare", old, new, *argv, "--format", fmt, *_article(rng, opts, known, (old, new))]
    if fmt == "text":
        argv += [f for f, p in (("--all", 0.2), ("--verbose", 0.15), ("--color", 0.1)) if rng.random() < p]
    if rng.random() < 0.2:
        argv.append("--exit-code")
    outputs: tuple[str, ...] = ()
    if opts.to_file:
        argv += ["-o", f"out.{fmt}"]
        outputs = (f"out.{fmt}",)
    return Command(tuple(argv), tuple(env), outputs, _cold(rng), rng.random() < 0.3)


def build_history(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Command:
    eds = [e for e in known.editions if known.addresses.get(e)]
    if eds:
        ed = rng.choice(eds)
        spec = f"{ed}:{rng.choice(known.addresses[ed])}"
    else:
        spec = "2017:45C4(b)"
    argv, env = _inputs(world, opts)
    return Command(("history", spec, *argv, "--format", _fmt(opts, ("text", "json"))), tuple(env), (), _cold(rng))


def build_correlate(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Command:
    old, new = _edition_pair(rng, known)
    argv, env = _inputs(world, opts)
    fmt = _fmt(opts, ("text", "csv", "md", "json"))
    argv = ["correlate", old, new, *argv, "--format", fmt, "--by", rng.choice(("old", "new"))]
    argv += _article(rng, opts, known, (old, new))
    outputs: tuple[str, ...] = ()
    if opts.to_file:
        argv += ["-o", f"table.{fmt}"]
        outputs = (f"table.{fmt}",)
    return Command(tuple(argv), tuple(env), outputs, _cold(rng), rng.random() < 0.2)


def build_check(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Command:
    argv, env = _inputs(world, opts, review=False, thresholds=False)
    if rng.random() < 0.3 and argv[:1] == ["--corpus"]:
        argv = [argv[1], *argv[2:]]  # the folder as check's own argument
    return Command(("check", *argv, "--format", _fmt(opts, ("text", "json"))), tuple(env), (), _cold(rng))


def build_report(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Command:
    argv, env = _inputs(world, opts)
    named: list[str] = []
    if rng.random() < 0.25 and len(known.editions) >= 2:
        named = rng.sample(known.editions, 2)
    return Command(("report", *named, "-o", "rep", *argv), tuple(env), ("rep",), _cold(rng), rng.random() < 0.3)


def build_review_list(rng: random.Random, world: World, opts: Options, known: Knowledge) -> Command:
    argv, env = _inputs(world, opts)
    if opts.review == "off":
        argv = [a for a in argv if a != "--no-review"] + ["--review", "{root}/review.sqlite"]
    fmt = _fmt(opts, ("text", "json", "csv"))
    argv = ["review", "list", *argv, "--format", fmt]
    if rng.random() < 0.4:
        argv += ["--pair", *_edition_pair(rng, known)]
    if opts.article and rng.random() < 0.5:
        argv += ["--article", opts.article.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz().0123456789")
                 or opts.article]  # fmt: skip
    if rng.random() < 0.2:
        argv += ["--status", rng.choice(("open", "accepted", "query"))]
    if rng.random() < 0.1:
        argv.append("--outdated")
    outputs: tuple[str, ...] = ()
    if opts.to_file:
        argv += ["-o", f"review.{fmt}"]
        outputs = (f"review.{fmt}",)
    return Command(tuple(argv), tuple(env), outputs, _cold(rng))


BUILDERS: dict[str, Callable[[random.Random, World, Options, Knowledge], Command]] = {
    "compare": build_compare,
    "history": build_history,
    "correlate": build_correlate,
    "check": build_check,
    "report": build_report,
    "review-list": build_review_list,
}


# ---------------------------------------------------------------------------
# The sequence


# Mutations after which the corpus (or the draft) may hold other editions or clauses.
_RELEARN = frozenset(set(Mutation) - {Mutation.THRESHOLD, Mutation.FORMAT, Mutation.OUTPUT, Mutation.ARTICLE,
                                      Mutation.REVIEW_MODE, Mutation.DAMAGE_CACHE, Mutation.MISFILE})  # fmt: skip


@dataclass
class Fuzzer:
    """One seeded sequence of mutations and differential runs in a world of its own."""

    seed: int
    base: str = "mixed"
    articles: int = 12
    commands: int = 2  # commands run per step
    runner: Runner = run_process
    cover: bool = True
    verbose: bool = False  # each command line, and the last line it said on stderr
    say: Callable[[str], None] = field(default=lambda line: print(line, flush=True))
    steps: list[Step] = field(default_factory=list)
    bugs: list[str] = field(default_factory=list)  # exit code 3, warm or cold
    runs: int = 0
    last_codes: list[int] = field(default_factory=list)  # the exit codes of the last step's warm runs

    def run(self, steps: int, folder: Path | None = None) -> Difference | None:
        with tempfile.TemporaryDirectory(prefix="fuzz-cache-", dir=folder) as tmp:
            world = World(Path(tmp), self.base, self.articles)
            return self._sequence(world, steps)

    def _sequence(self, world: World, count: int) -> Difference | None:
        rng = random.Random(self.seed)
        opts = Options()
        known = learn(world, opts, Knowledge())
        weights = WEIGHTS
        kinds = [k for k in Mutation if weights[k]]
        stuck = 0  # steps in a row where every command was refused (a bad settings file, a broken page...)
        for n in range(1, count + 1):
            planned = COVER[n - 1] if self.cover and n <= len(COVER) else None
            if stuck >= 4:
                planned, stuck = Mutation.RESET, 0
            kind = planned or rng.choices(kinds, [weights[k] for k in kinds])[0]
            action = CHOOSERS[kind](rng, world, opts, known)
            applied = apply(world, opts, action, self.runner) if action is not None else False
            if action is not None and kind in _RELEARN:
                known = learn(world, opts, known)
            picked = rng.sample(COMMANDS, min(self.commands, len(COMMANDS)))
            commands = [
                replace(BUILDERS[c](rng, world, opts, known), jobs=(rng.choice(JOBS), rng.choice(JOBS))) for c in picked
            ]
            step = Step(action, applied, commands)
            self.steps.append(step)
            found = self.check(world, n, step)
            if found is not None:
                return found
            stuck = stuck + 1 if set(self.last_codes) == {2} else 0
        return None

    def check(self, world: World, n: int, step: Step) -> Difference | None:
        try:
            return self._check(world, n, step)
        finally:
            world.settle()

    def _check(self, world: World, n: int, step: Step) -> Difference | None:
        self.last_codes = []
        what = step.action.describe() if step.action else "(nothing to mutate)"
        mark = "" if step.applied else " [not applied]"
        for command in step.commands:
            warm = self.runner(world, command, True)
            cold = self.runner(world, command, False)
            self.last_codes.append(warm.code)
            self.runs += 2
            for outcome, which in ((warm, "warm"), (cold, "cold")):
                if outcome.code == 3 or b"internal error" in outcome.stderr or b"[uncaught" in outcome.stderr:
                    self.bugs.append(f"step {n} {which}: {command.line()}: {outcome.stderr[-400:]!r}")
            found = differ(n, command, warm, cold)
            if found is None and command.twice:
                found = differ(n, command, self.runner(world, command, True), cold, second=True)
                self.runs += 1
            said = warm.stderr.decode("utf-8", "replace").strip().splitlines()
            self.say(
                f"step {n}: {what}{mark} | "
                + (command.line() if self.verbose else command.argv[0])
                + (f" {command.argv[1]}" if command.argv[0] == "review" and not self.verbose else "")
                + f" exit {warm.code} ({warm.seconds:.2f}s / {cold.seconds:.2f}s)"
                + (" DIFFERS" if found else " same")
                + (f" [{said[-1][:150]}]" if self.verbose and said else "")
            )
            if found is not None:
                return found
        return None


def save(fuzzer: Fuzzer, found: Difference | None, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "seed": fuzzer.seed,
        "base": fuzzer.base,
        "articles": fuzzer.articles,
        "difference": None
        if found is None
        else {"step": found.step, "command": found.command.line(), "what": found.what},
        "steps": [_step_json(s) for s in fuzzer.steps],
    }
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _step_json(s: Step) -> dict[str, Any]:
    return {
        "action": None if s.action is None else [s.action.kind.value, *s.action.detail],
        "applied": s.applied,
        "commands": [
            {"argv": list(c.argv), "env": [list(e) for e in c.env], "outputs": list(c.outputs), "cold": c.cold,
             "twice": c.twice, "jobs": list(c.jobs)}
            for c in s.commands
        ],
    }  # fmt: skip


def _step_of(data: dict[str, Any]) -> Step:
    action = None if data["action"] is None else Action(Mutation(data["action"][0]), tuple(data["action"][1:]))
    commands = [
        Command(
            tuple(c["argv"]),
            tuple((k, v) for k, v in c["env"]),
            tuple(c["outputs"]),
            c["cold"],
            c["twice"],
            tuple(c.get("jobs", ("", ""))),
        )
        for c in data["commands"]
    ]
    return Step(action, data["applied"], commands)


def replay(data: dict[str, Any], steps: list[Step], runner: Runner, say: Callable[[str], None]) -> Difference | None:
    """The steps again, in a fresh world: each action applied as recorded, each command run warm and cold."""
    fuzzer = Fuzzer(data["seed"], data["base"], data["articles"], runner=runner, say=say)
    with tempfile.TemporaryDirectory(prefix="fuzz-cache-replay-") as tmp:
        world = World(Path(tmp), data["base"], data["articles"])
        opts = Options()
        for n, step in enumerate(steps, 1):
            applied = apply(world, opts, step.action, runner) if step.action is not None else False
            found = fuzzer.check(world, n, Step(step.action, applied, step.commands))
            if found is not None:
                return found
    return None


def minimise(data: dict[str, Any], runner: Runner, budget: int) -> list[Step]:
    """The fewest steps (of those before the difference, and the commands in them) that still give a difference
    on the last command: delta debugging, removing chunks of steps, then single commands."""
    steps = [_step_of(s) for s in data["steps"]]
    last = steps[-1]
    # The command that differed: the last one of its step that was run (the ones after it were not).
    failed = next((c for c in last.commands if c.line() == (data.get("difference") or {}).get("command")), None)
    last = Step(last.action, last.applied, [failed or last.commands[-1]])
    body = steps[:-1]
    tries = 0

    def fails(candidate: list[Step]) -> bool:
        nonlocal tries
        tries += 1
        found = replay(data, [*candidate, last], runner, lambda _line: None)
        print(f"  try {tries}: {len(candidate) + 1} step(s): {'still differs' if found else 'same'}", flush=True)
        return found is not None and found.step == len(candidate) + 1

    chunk = max(1, len(body) // 2)
    while chunk >= 1 and tries < budget:
        i = 0
        while i < len(body) and tries < budget:
            candidate = body[:i] + body[i + chunk :]
            if fails(candidate):
                body = candidate
            else:
                i += chunk
        chunk //= 2
    for k, step in enumerate(body):  # then the commands each kept step runs (they fill the cache)
        for c in list(step.commands):
            if tries >= budget:
                break
            fewer = Step(step.action, step.applied, [x for x in step.commands if x is not c])
            candidate = [*body[:k], fewer, *body[k + 1 :]]
            if fails(candidate):
                body = candidate
                step = fewer
    return [*body, last]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--base", choices=("bundled", "generated", "mixed"), default=None,
                        help="the corpus to start from (default: by the seed, in turn)")  # fmt: skip
    parser.add_argument("--articles", type=int, default=12, help="articles of each generated edition")
    parser.add_argument("--commands", type=int, default=2, help="commands run warm and cold per step")
    parser.add_argument("--in-process", action="store_true", help="run the commands through click's CliRunner")
    parser.add_argument("--no-cover", action="store_true", help="draw every mutation at random from the first step")
    parser.add_argument("--verbose", action="store_true", help="print each command line and its last note")
    parser.add_argument("--replay", type=Path, help="run a written sequence again")
    parser.add_argument("--minimise", action="store_true", help="with --replay: cut the sequence down")
    parser.add_argument("--budget", type=int, default=60, help="with --minimise: the most replays")
    args = parser.parse_args()
    runner: Runner = run_in_process if args.in_process else run_process
    if args.replay:
        data = json.loads(args.replay.read_text(encoding="utf-8"))
        steps = minimise(data, runner, args.budget) if args.minimise else [_step_of(s) for s in data["steps"]]
        if args.minimise:
            print(f"minimised to {len(steps)} step(s):")
            for n, s in enumerate(steps, 1):
                print(f"  {n}. {s.action.describe() if s.action else '-'}")
                for c in s.commands:
                    print(f"       {c.line()}")
            data["steps"] = [_step_json(s) for s in steps]
            out = args.replay.with_name(args.replay.stem + "-min.json")
            out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            print(f"written to {out}")
        found = replay(data, steps, runner, print)
        print(found.report() if found else "no difference")
        return 1 if found else 0
    base = args.base or ("mixed", "bundled", "generated")[args.seed % 3]
    fuzzer = Fuzzer(args.seed, base, args.articles, args.commands, runner, not args.no_cover, args.verbose)
    start = time.monotonic()
    print(f"seed {args.seed}, base {base}, {args.steps} step(s), {args.commands} command(s) a step", flush=True)
    found = fuzzer.run(args.steps)
    elapsed = time.monotonic() - start
    path = OUTPUT / f"seed-{args.seed}.json"
    save(fuzzer, found, path)
    print(f"{len(fuzzer.steps)} step(s), {fuzzer.runs} run(s) in {elapsed:.0f} s; the sequence is in {path}")
    for bug in fuzzer.bugs:
        print(f"BUG (exit 3): {bug}")
    if found is None:
        print("no difference")
        return 0
    print(f"seed {args.seed}, base {base}; the steps up to the difference:")
    for n, s in enumerate(fuzzer.steps, 1):
        print(f"  {n}. {s.action.describe() if s.action else '-'}{'' if s.applied else ' [not applied]'}")
    print(found.report())
    print(f"replay: python3 benchmarks/fuzz_cache.py --replay {path} [--minimise]")
    return 1


if __name__ == "__main__":
    sys.exit(main())
