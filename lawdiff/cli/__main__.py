"""``python -m lawdiff.cli``: the same as the ``lawdiff`` command."""

from lawdiff.cli import run

run()
