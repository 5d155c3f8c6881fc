"""``python -m lawdiff.cli``."""

from lawdiff.cli import main

main()
