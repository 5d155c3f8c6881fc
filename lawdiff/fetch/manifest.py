"""What a fetch leaves beside the law: the manifest, and files written whole or not at all.

The manifest (``DIR/YEAR/.lawdiff-fetch.json``, :data:`MANIFEST`) says where
the folder's files came from and which revision or version of each was
fetched, so that the next fetch asks only for what changed, and an
interrupted one goes on where it stopped. The corpus reader skips it
(:data:`lawdiff.corpus.files.FETCH_PREFIX`), and ``lawdiff check`` does not
list it.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lawdiff.corpus.files import FETCH_PREFIX
from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _

__all__ = ["MANIFEST", "MANIFEST_VERSION", "PARTIAL", "Manifest", "clear_temporaries", "write_atomic"]

MANIFEST = f"{FETCH_PREFIX}.json"
# Where the batches of an unfinished wiki fetch wait (a folder the corpus reader skips too).
PARTIAL = f"{FETCH_PREFIX}.partial"
MANIFEST_VERSION = 1


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole: a temporary file beside it, flushed to disk, then renamed over it.

    An interrupted fetch leaves the old file or the new one, never half of one.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f"{FETCH_PREFIX}.tmp-", dir=path.parent)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as a file opened for writing would be, not mkstemp's 0600
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def clear_temporaries(folder: Path) -> None:
    """Remove the temporary files a fetch killed while writing left in ``folder`` (the corpus reader skips
    them, but nothing else would ever remove them)."""
    for stray in folder.glob(f"{FETCH_PREFIX}.tmp-*") if folder.is_dir() else ():
        stray.unlink(missing_ok=True)


@dataclass
class Manifest:
    """The manifest of one edition's folder.

    source: the wiki's api.php, or the site's address (``https://site.example.org/``).
    kind: ``mediawiki`` or ``nuxt-site``.
    edition: the edition's year.
    fetched: when the last whole fetch ended (UTC, ISO), "" while one is unfinished.
    run: when the current or last fetch began (a resumed one keeps it).
    files: per file written, what was fetched: for a wiki export its pages
        (``{"id", "title", "revision"}``), for a payload its URL, ``etag``,
        ``last_modified`` and the ``run`` it was checked in.
    """

    source: str
    kind: str
    edition: str
    fetched: str = ""
    run: str = ""
    files: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def read(cls, folder: Path) -> Manifest | None:
        """The folder's manifest, None when there is none; a damaged one is refused with what to do."""
        path = folder / MANIFEST
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise InputError(
                _("cannot read the fetch manifest ({exc})").format(exc=exc),
                file=str(path),
                fix=_("remove it: the next fetch then fetches everything again"),
            ) from None
        if not isinstance(data, dict) or data.get("version") != MANIFEST_VERSION:
            raise InputError(
                _("not a fetch manifest this version of lawdiff knows"),
                file=str(path),
                fix=_("remove it: the next fetch then fetches everything again"),
            )
        files = data.get("files")
        return cls(
            source=str(data.get("source", "")),
            kind=str(data.get("kind", "")),
            edition=str(data.get("edition", "")),
            fetched=str(data.get("fetched", "")),
            run=str(data.get("run", "")),
            files=files if isinstance(files, dict) else {},
        )

    def write(self, folder: Path) -> None:
        data = {
            "version": MANIFEST_VERSION,
            "source": self.source,
            "kind": self.kind,
            "edition": self.edition,
            "fetched": self.fetched,
            "run": self.run,
            "files": self.files,
        }
        text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n"
        write_atomic(folder / MANIFEST, text.encode("utf-8"))

    def refuse_other(self, source: str, kind: str, folder: Path) -> None:
        """A folder fetched from another wiki or site is not overwritten without a word."""
        if self.kind != kind or self.source.rstrip("/") != source.rstrip("/"):
            raise InputError(
                _("this folder was fetched from {source} ({kind}), not from {source2}").format(
                    source=self.source, kind=self.kind, source2=source
                ),
                file=str(folder),
                fix=_("fetch into another folder (-o), or remove the folder's .lawdiff-fetch.json to start afresh"),
            )
