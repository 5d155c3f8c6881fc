"""Writing output files atomically: a failed run leaves no half-written file."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO

from lawdiff import marks
from lawdiff.errors import LawdiffBug, UsageError
from lawdiff.forked import can_fork, collector_paused
from lawdiff.forked import jobs as forked_jobs
from lawdiff.i18n import gettext as _


def check_output(path: Path) -> None:
    """Refuse an output :func:`write_atomic` would refuse: a folder, a file no one may write, a file in a
    folder that is not there.  Commands check their ``-o`` so before they work, and write_atomic again."""
    if path.is_dir():
        raise UsageError(_("{path}: is a folder").format(path=path), fix=_("give a file name for the output"))
    if path.exists() and not path.is_file():
        return  # a device or a pipe, written to directly
    if path.is_symlink():
        path = path.resolve()
    with contextlib.suppress(OSError):
        if path.is_file() and not path.stat().st_mode & 0o222:
            # Made read-only by its owner (an archived answer): written beside and renamed over, it would be
            # replaced all the same, as no write to it would be.
            raise UsageError(
                _("{path}: the file is read-only").format(path=path),
                fix=_("make it writable, or choose another output"),
            )
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(
            _("{folder}: no such folder").format(folder=folder), fix=_("create it first or choose another output path")
        )


def write_atomic(path: Path, content: str | bytes | tuple[str, ...]) -> None:
    """Write ``content`` to ``path`` through a temporary file in the same folder (text in pieces written one
    piece after the other, never joined whole).

    A symbolic link is written through (its target is replaced); a device or
    a pipe (``/dev/stdout``) is written to directly, since it cannot be
    replaced; a folder is refused, and so is a file that no one may write.
    """
    check_output(path)
    if path.exists() and not path.is_file():
        try:
            with path.open("wb") as fh:
                _write(fh, content)
        except OSError as exc:
            raise UsageError(
                _("{path}: cannot write there ({strerror})").format(path=path, strerror=exc.strerror or exc),
                fix=_("choose another output"),
            ) from None
        return
    if path.is_symlink():
        path = path.resolve()
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UsageError(
            _("{path}: cannot write the file there ({strerror})").format(path=path, strerror=exc.strerror or exc),
            fix=_("choose a folder you may write to"),
        ) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            _write(fh, content)
        # mkstemp makes the file private (0600); an output file gets the
        # permissions any new file would get under the user's umask.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_one(item: Item, staging: Path) -> tuple[str, str]:
    rel, content = item
    # A page makes many objects and no cycles; the collector would walk the whole plan each time enough of
    # them survive (a report of 744 articles spent a second so).
    with collector_paused():
        made = content() if callable(content) else content
    path = staging / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(made, str | bytes):
        data = _bytes(made)
        path.write_bytes(data)
        return rel, _digest(data)
    # A page in pieces (its long tables spliced in as it is written): written and hashed piece by piece,
    # never held whole.
    digest = hashlib.sha256()
    with path.open("wb") as out:
        for piece in made:
            data = _bytes(piece)
            out.write(data)
            digest.update(data)
    return rel, digest.hexdigest()


def _write_items(items: list[Item], staging: Path, workers: int, progress: Callable[[], None] | None) -> dict[str, str]:
    """Make and write every item; returns the digest of each file by path."""
    written: dict[str, str] = {}
    made = {rel for rel, content in items if callable(content)}  # pages, counted by the progress
    if workers <= 1 or not can_fork() or len(items) < 2 * workers:
        for item in items:
            rel, digest = _write_one(item, staging)
            written[rel] = digest
            if progress is not None and rel in made:
                progress()
        return written
    # Here, not at the top: a command that writes one file (compare -o) loads no pool, nor multiprocessing.
    from lawdiff.forked import StopSignal, forked_map

    # Small chunks, dealt in turn: the pages differ in size, and the progress
    # bar moves as each chunk is done.
    size = max(1, len(items) // (workers * 8))
    chunks = [list(range(i, min(i + size, len(items)))) for i in range(0, len(items), size)]
    # Set when a page failed or the run was stopped: the workers make nothing more.
    stop = StopSignal()

    def write_chunk(k: int) -> list[tuple[str, str]]:  # in a worker, which inherits the items
        out = []
        for i in chunks[k]:
            if stop.is_set():
                break
            out.append(_write_one(items[i], staging))
        return out

    # What the workers inherit (the plan, the study, a review's notes) is frozen out of the collector's passes.
    for _chunk, done in forked_map(write_chunk, len(chunks), workers, stop.set, freeze=True):
        for rel, digest in done:
            written[rel] = digest
            if progress is not None and rel in made:
                progress()
    return written


# A lone surrogate: what Python makes of a byte of a file name that is not UTF-8 (b"\xff" -> "\udcff").
_SURROGATE = re.compile("[\ud800-\udfff]")


def _write(fh: BinaryIO, content: str | bytes | tuple[str, ...]) -> None:
    for piece in content if isinstance(content, tuple) else (content,):
        fh.write(_bytes(piece))


def _bytes(content: str | bytes) -> bytes:
    return content if isinstance(content, bytes) else utf8(content)


def utf8(text: str) -> bytes:
    """Text as an output file holds it: UTF-8, with the line ends it has (LF), the same bytes on every
    system.  A file name that is not UTF-8 (``2007/\\xff.txt``) shown on a page or in a file cannot be
    held so: it is written as its escape (``\\udcff``, in JSON the same character), as a terminal shows it."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda m: marks.code(m.group()), text).encode("utf-8")


def replace_dir_atomic(staging: Path, target: Path) -> None:
    """Move a fully written staging folder into place of ``target``."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.replace(target, old)
    try:
        os.replace(staging, target)
    except BaseException:
        if old is not None:
            os.replace(old, target)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


# ---------------------------------------------------------------------------
# A report folder: written beside its target, moved into place when complete

_MARK = 'name="generator" content="lawdiff'
MANIFEST = ".lawdiff-manifest.json"
# What a report wrote before it kept a manifest: its pages and assets only.
_LEGACY = re.compile(r"index\.html|assets/report\.(?:css|js)|articles/[^/]+\.html")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# The digests of the report files this process has read, with the state of the file when it read it:
# a report run looks at the old report four or five times (what it will keep, whether it may replace
# it, and again at the last moment), and 20 MB of pages need hashing only once.
_READ: dict[Path, tuple[tuple[int, int, int, int, int], str]] = {}
_RACY_NS = 50_000_000  # Linux stamps files by a clock of 1-10 ms ticks


def _file_digest(path: Path) -> str:
    """The SHA-256 of a file, hashed again whenever its size, times (the change time included, which no
    one can set back), inode or device differ from when this process last hashed it.

    A file changed less than :data:`_RACY_NS` before it was hashed is hashed every time, as git does with
    its index: a change saved within the same tick of the file system's clock would leave its times as
    they were.
    """
    st = path.stat()
    state = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)
    known = _READ.get(path)
    if known is not None and known[0] == state:
        return known[1]
    now = time.time_ns()
    # Read a block at a time: an old report's pages are 20 MB at 744 articles, a table 5 MB of them, and
    # read whole each left its size in the process's memory.
    with path.open("rb") as fh:
        digest = hashlib.file_digest(fh, "sha256").hexdigest()
    if now - max(st.st_mtime_ns, st.st_ctime_ns) > _RACY_NS:
        _READ[path] = (state, digest)
    return digest


def manifest(written: Mapping[str, str]) -> str:
    """The manifest of a report: every file it wrote (relative path) with its SHA-256.

    A later run replaces the folder only if it holds exactly these files,
    unchanged: a file a user added or edited there is never deleted.
    """
    data = {"generator": "lawdiff", "files": dict(sorted(written.items()))}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _foreign(target: Path) -> list[str]:
    """What in an earlier report folder its report did not write (or wrote otherwise): relative paths."""
    listed: dict[str, str] | None = None
    record = target / MANIFEST
    if record.is_file() and not record.is_symlink():
        try:
            data = json.loads(record.read_text(encoding="utf-8"))
            files = data["files"] if isinstance(data, dict) else None
            if isinstance(files, dict) and all(isinstance(v, str) for v in files.values()):
                listed = {str(k): v for k, v in files.items()}
        except (ValueError, KeyError, UnicodeDecodeError):
            listed = None
        if listed is None:
            return [MANIFEST]  # a manifest no report wrote: nothing can be vouched for
    if listed is None:
        folders = {"assets", "articles"}
    else:
        folders = set()
        for p in listed:
            folders.update(q.as_posix() for q in Path(p).parents)
    out: list[str] = []
    for root, dirs, names in os.walk(target):
        here = Path(root).relative_to(target)
        keep: list[str] = []
        for d in sorted(dirs):
            rel = (here / d).as_posix()
            if (Path(root) / d).is_symlink() or rel not in folders:
                out.append(rel + "/")  # all of it is foreign: named once
            else:
                keep.append(d)
        dirs[:] = keep
        for name in sorted(names):
            rel = (here / name).as_posix()
            path = Path(root) / name
            if rel == MANIFEST and listed is not None:
                continue
            if path.is_symlink():
                out.append(rel)
            elif listed is None:
                if not _LEGACY.fullmatch(rel):
                    out.append(rel)
            elif rel not in listed or _file_digest(path.absolute()) != listed[rel]:
                out.append(rel)
    return sorted(out)


def check_target(target: Path) -> None:
    """Refuse to replace a folder that is not a lawdiff report (or whose manifest cannot be read).

    Files of a report folder that its report did not write, or wrote
    otherwise (a member's notes, a page someone edited), are carried into the
    new report (see :func:`kept_files`).
    """
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise UsageError(
            _("{target}: exists and is not a folder").format(target=target),
            fix=_("choose a new or empty folder for the report"),
        )
    if not (target.is_dir() and any(target.iterdir())):
        return
    index = target / "index.html"
    if not (target / MANIFEST).is_file() and not (
        index.is_file() and _MARK in index.read_text(encoding="utf-8", errors="replace")[:4000]
    ):
        raise UsageError(
            _("{target}: the folder is not empty and holds no lawdiff report, so it is not replaced").format(
                target=target
            ),
            fix=_("choose a new or empty folder, or a folder an earlier `lawdiff report` wrote"),
        )
    if _foreign(target) == [MANIFEST] and (target / MANIFEST).is_file():
        raise UsageError(
            _(
                "{target}: the report's {MANIFEST} cannot be read, so what lawdiff wrote there cannot be told "
                "from what you added; the folder is not replaced"
            ).format(target=target, MANIFEST=MANIFEST),
            fix=_("move your own files out of the folder and delete it, or write the report to another folder with -o"),
        )


# A changed page of the old report is carried beside the new one under its name with this added.
KEPT_SUFFIX = ".kept"


def kept_files(target: Path) -> list[str]:
    """What a new report will carry over from the report folder ``target``: files it did not write, or
    that were changed since (relative paths; a folder ends in ``/``).  A changed page is kept beside the
    new one with ``.kept`` added to its name."""
    if not target.is_dir() or target.is_symlink():
        return []
    return [p for p in _foreign(target) if p != MANIFEST]


def _carry(target: Path, staging: Path) -> None:
    """Copy the files of the old report that it did not write into the new one (see :func:`kept_files`)."""
    for rel in kept_files(target):
        src = target / rel.rstrip("/")
        dst = staging / rel.rstrip("/")
        if dst.exists() or dst.is_symlink():
            dst = dst.with_name(dst.name + KEPT_SUFFIX)
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir() and not src.is_symlink():
            shutil.copytree(src, dst, symlinks=True)
        else:
            shutil.copy2(src, dst, follow_symlinks=False)


def _alive(pid: int) -> bool:
    """Whether a process of that id still runs (then its folders are its own business)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True


def _ours(folder: Path) -> bool:
    """Whether a folder holds only what a lawdiff report writes (its manifest vouching, or report pages only)."""
    if folder.is_symlink() or not folder.is_dir():
        return False
    try:
        return not _foreign(folder)
    except OSError:
        return False


def recover_leftovers(target: Path) -> list[str]:
    """Restore or remove what a stopped run of :func:`write_site` left beside ``target``.

    A run killed between the two renames of :func:`replace_dir_atomic` leaves
    no ``target``, the previous report in ``.NAME.old-PID`` and the new one in
    ``.NAME.tmp-PID-N``; one killed while writing leaves its ``.NAME.tmp-PID-N``.
    Only folders named so, whose process is gone, and that hold nothing but
    a lawdiff report (see :func:`_foreign`) are touched: the previous report
    is moved back into place when ``target`` is missing, every other such
    folder is removed.  Returns one line per thing done, for the command to
    print.
    """
    parent = target.parent if str(target.parent) else Path(".")
    leftover = re.compile(rf"\.{re.escape(target.name)}\.(old|tmp)-(\d+)(?:-\d+)?")
    try:
        names = sorted(p.name for p in parent.iterdir())
    except OSError:
        return []
    found: list[tuple[str, Path]] = []
    for name in names:
        m = leftover.fullmatch(name)
        if m and not _alive(int(m.group(2))) and _ours(parent / name):
            found.append((m.group(1), parent / name))
    done: list[str] = []
    # The newest previous report first, should several runs have been stopped.
    for kind, folder in sorted(found, key=lambda f: -f[1].stat().st_mtime):
        if kind == "old" and not target.exists() and not target.is_symlink():
            os.replace(folder, target)
            done.append(
                _("{target}: restored the previous report from {folder}, left by a stopped run").format(
                    target=target, folder=folder.name
                )
            )
        else:
            shutil.rmtree(folder, ignore_errors=True)
            what = _("a previous report") if kind == "old" else _("an unfinished report")
            done.append(
                _("{target}: removed {folder}, {what} left by a stopped run").format(
                    target=target, folder=folder.name, what=what
                )
            )
    return done


# A file of a report: its path, and its content or a function that makes it (so that the pages can be
# made in several processes); a content in pieces is written one piece after the other.
Content = str | bytes | Sequence[str]
Item = tuple[str, "Content | Callable[[], Content]"]


def jobs(stage: str = "pages") -> int:
    """How many processes a stage of the report works in (the pages, by default): ``LAWDIFF_JOBS``, else
    one per CPU (at most 4); one where the stage works in one process (:func:`lawdiff.forked.pooled`)."""
    return forked_jobs(4, stage)


def write_site(
    files: Iterable[Item], target: Path, workers: int = 1, progress: Callable[[], None] | None = None
) -> int:
    """Write the files into a folder beside ``target``, then move it into place.

    The folder also gets :data:`MANIFEST`, the list of what was written.
    ``target`` is replaced only when it is empty or a lawdiff report (see
    :func:`check_target`); the files of the old report that it did not
    write, or that were changed since, are carried into the new one
    (:func:`kept_files`).  A failed run removes its folder and leaves
    ``target`` as it was.  Returns the
    number of files written (the manifest not counted).  What a stopped run
    left beside ``target`` is put right first (:func:`recover_leftovers`;
    call it before to tell the user what it did).

    With ``workers`` above one (and where processes can be forked), the
    pages are made and written by that many processes, each writing its own
    files; the bytes are the same.  ``progress()`` is called once per page.
    """
    recover_leftovers(target)
    check_target(target)
    parent = target.parent if str(target.parent) else Path(".")
    n = 0
    try:
        parent.mkdir(parents=True, exist_ok=True)
        while True:
            staging = parent / f".{target.name}.tmp-{os.getpid()}-{n}"
            try:
                staging.mkdir()
                break
            except FileExistsError:
                n += 1
    except OSError as exc:
        raise UsageError(
            _("{target}: cannot write the report there ({strerror})").format(
                target=target, strerror=exc.strerror or exc
            ),
            fix=_("choose a folder you may write to"),
        ) from None
    # The pages' keys and their functions make many objects and no cycles: a pass of the collector over the
    # plan here cost a quarter of a second at 744 articles.
    with collector_paused():
        items = list(files)
    paths = [rel for rel, _ in items]
    if MANIFEST in paths or len(set(paths)) != len(paths):
        raise LawdiffBug("the report would write a file twice, or its manifest")
    try:
        written = _write_items(items, staging, workers, progress)
        (staging / MANIFEST).write_bytes(manifest(written).encode("utf-8"))
        # Checked again, and what the old report holds of others' carried
        # over, at the last moment: a file saved into the old report while
        # this one was being built must not be lost either.
        check_target(target)
        _carry(target, staging)
        replace_dir_atomic(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return len(written)
