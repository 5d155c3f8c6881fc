"""Where the review store is: one rule for every command, without opening anything.

Kept apart from :mod:`lawdiff.review.connect` (SQLite and the schema) so that
a command that finds no store (``compare`` in a folder without one) loads
nothing more.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_FILE = "lawdiff-review.sqlite"
ENV_STORE = "LAWDIFF_REVIEW"


@dataclass(frozen=True, slots=True)
class StoreLocation:
    """Where the store is, and which rule found it ("--review", "LAWDIFF_REVIEW" or "default")."""

    path: Path
    rule: str

    @property
    def exists(self) -> bool:
        return self.path.exists()


def find_store(
    option: Path | str | None = None, environ: dict[str, str] | None = None, cwd: Path | None = None
) -> StoreLocation:
    """The store by the one rule: ``--review FILE``, else ``$LAWDIFF_REVIEW``, else the current folder's."""
    env = os.environ if environ is None else environ
    if option:
        return StoreLocation(Path(option), "--review")
    if env.get(ENV_STORE):
        return StoreLocation(Path(env[ENV_STORE]), ENV_STORE)
    return StoreLocation((cwd or Path.cwd()) / DEFAULT_FILE, "default")
