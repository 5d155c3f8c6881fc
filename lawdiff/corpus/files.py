"""Finding a corpus's files: the folders and files given, the kinds of file read, year folders.

This module imports only the standard library and the name of the settings
file, so that a command that only hashes the corpus's files (a cached answer,
:mod:`lawdiff.cli.kept`) loads none of the readers.
"""

from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path

from lawdiff.corpus.settings import SETTINGS_FILE
from lawdiff.errors import InputError, UsageError
from lawdiff.i18n import gettext as _

__all__ = ["FETCH_PREFIX", "READ_SUFFIXES", "corpus_files", "default_corpus", "is_backup", "suffix", "unreadable"]

_YEAR_DIR = re.compile(r"^(\d{4})(?:[+@].*)?$")


def default_corpus() -> Path:
    """The bundled corpus: shipped inside the package, or the repository's ``corpus/``."""
    packaged = resources.files("lawdiff") / "data" / "corpus"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent.parent / "corpus"


# The kinds of file a corpus folder is read for (a file without an extension
# too): every other file (a README.md, a review store, notes) is skipped, and
# ``lawdiff check`` lists it.  A file of these kinds is read, or refused with
# a message: a .docm is refused, not skipped, so that its owner learns why.
READ_SUFFIXES = frozenset({"", ".txt", ".json", ".xml", ".docx", ".odt", ".docm", ".dotx", ".dotm", ".ott"})
# What editors leave beside a file (``45.txt~``, ``copy~``, Emacs's ``#45.txt#``, vim's ``.45.txt.swp``,
# ``45.txt.bak``, a merge's ``45.txt.orig``): never a page of the edition, however it is named.
_BACKUP_SUFFIXES = frozenset({".swp", ".swo", ".swx", ".bak", ".orig", ".rej"})


def is_backup(name: str) -> bool:
    """Whether a file name is an editor's backup or lock file (skipped in a corpus folder, and listed)."""
    return (
        name.endswith("~")
        or (len(name) > 1 and name.startswith("#") and name.endswith("#"))
        or suffix(name).lower() in _BACKUP_SUFFIXES
    )


def suffix(name: str) -> str:
    """``Path(name).suffix`` of a file's name, without making a path of it: from its last dot, unless the
    name starts or ends with that dot."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def unreadable(errors: list[InputError]) -> InputError:
    """One error for every file of a run that cannot be read, each named with its place and reason.

    One line (every input error is one), so that a folder with six damaged files is repaired in one
    round instead of six.
    """
    if len(errors) == 1:
        return errors[0]
    each = "; ".join(f"({i}) {e.message()}" for i, e in enumerate(errors, 1))
    return InputError(
        _("{n} files cannot be read: {each}").format(n=len(errors), each=each),
        fix=_("repair or remove each file (an editor's backup, such as name~ or name.bak, is skipped)"),
    )


# What ``lawdiff fetch`` keeps beside the law (its manifest ``.lawdiff-fetch.json``, an
# unfinished fetch's ``.lawdiff-fetch.partial/``, its temporary files): the
# tool's own bookkeeping, neither read nor listed as skipped.
FETCH_PREFIX = ".lawdiff-fetch"


def _walk(root: Path) -> list[Path]:
    """Everything under ``root``, sorted, as ``sorted(root.rglob("*"))`` lists it (symbolic links to
    folders listed, not followed); a folder that cannot be listed is refused, where ``rglob`` would
    leave its files out without a word."""

    def refuse(exc: OSError) -> None:
        raise InputError(
            _("cannot list the folder ({strerror})").format(strerror=exc.strerror or exc),
            file=str(exc.filename or root),
            fix=_("check the folder's permissions, or move it out of the corpus"),
        )

    found: list[Path] = []
    for folder, dirs, files in os.walk(root, onerror=refuse):
        base = Path(folder)
        found.extend(base / name for name in (*dirs, *files))
    return sorted(found)


def corpus_files(paths: list[Path], skipped: list[str] | None = None) -> list[tuple[Path, str, str]]:
    """Files to read: (path, display name, edition hint from a year folder).

    Files are named in reports relative to their corpus folder
    (``2017/nuxt-artikel-45.payload.json``), so that reports read the same on
    every machine; error messages name the path as given (see :func:`load`).
    Files in a folder that no reader takes (see :data:`READ_SUFFIXES`), hidden
    files and editors' backups (:func:`is_backup`) are added to ``skipped``
    instead; a file named on its own is always read.
    """
    out: list[tuple[Path, str, str]] = []
    for root in paths:
        if root.is_dir():
            # (Each file's name and place taken from its parts, its kind from one look at the disk:
            # the path operations cost more than reading a page.)
            under = len(root.parts)
            for f in _walk(root):
                rel = f.parts[under:]  # f.relative_to(root).parts: every file listed is under root
                name = f.name
                hidden = any(p.startswith(".") for p in rel)
                is_file = f.is_file()
                kind = suffix(name).lower()
                if (
                    not is_file
                    and f.is_symlink()
                    and not f.exists()
                    and not hidden
                    and not is_backup(name)
                    and kind in READ_SUFFIXES
                    and name != SETTINGS_FILE
                ):
                    # A page moved or deleted under its link: read, it would be an edition's page.
                    raise InputError(
                        _("a link to a file that is not there"),
                        file=str(f),
                        fix=_("restore the file it points to, or remove the link"),
                    )
                if not is_file or name == SETTINGS_FILE:
                    continue
                if any(p.startswith(FETCH_PREFIX) for p in rel):
                    continue
                display = "/".join(rel) if len(paths) == 1 else f"{root.name}/{'/'.join(rel)}"
                if hidden or is_backup(name) or kind not in READ_SUFFIXES:
                    if skipped is not None:
                        skipped.append(display)
                    continue
                hint = next((m.group(1) for p in reversed(rel[:-1]) if (m := _YEAR_DIR.match(p))), "")
                out.append((f, display, hint))
        elif root.exists():
            m = _YEAR_DIR.match(root.parent.name)
            out.append((root, str(root), m.group(1) if m else ""))
        else:
            raise UsageError(
                _("{root}: no such file or folder").format(root=root), fix=_("give an existing corpus folder or file")
            )
    return out
