"""``python -m lawdiff``: the same as the ``lawdiff`` command."""

import sys

try:
    from lawdiff.cli import run
except KeyboardInterrupt:
    # Ctrl-C while the command line's modules load: click has not yet taken
    # over the interrupt, so say what it would say, not a traceback.
    print("\nAborted!", file=sys.stderr)
    sys.exit(1)

run()
