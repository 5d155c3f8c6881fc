"""Writing output files atomically: a failed run leaves no half-written file."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from lawdiff.errors import UsageError


def write_atomic(path: Path, content: str) -> None:
    """Write ``content`` to ``path`` through a temporary file in the same folder.

    A symbolic link is written through (its target is replaced); a device or
    a pipe (``/dev/stdout``) is written to directly, since it cannot be
    replaced; a folder is refused.
    """
    if path.is_dir():
        raise UsageError(f"{path}: is a folder", fix="give a file name for the output")
    if path.exists() and not path.is_file():
        try:
            with path.open("w", encoding="utf-8", newline="\n") as fh:
                fh.write(content)
        except OSError as exc:
            raise UsageError(
                f"{path}: cannot write there ({exc.strerror or exc})", fix="choose another output"
            ) from None
        return
    if path.is_symlink():
        path = path.resolve()
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder", fix="create it first or choose another output path")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UsageError(
            f"{path}: cannot write the file there ({exc.strerror or exc})", fix="choose a folder you may write to"
        ) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(content)
        # mkstemp makes the file private (0600); an output file gets the
        # permissions any new file would get under the user's umask.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
