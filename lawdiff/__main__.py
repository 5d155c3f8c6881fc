"""``python -m lawdiff``: the same as the ``lawdiff`` command."""

from lawdiff.cli import main

main(prog_name="lawdiff")
