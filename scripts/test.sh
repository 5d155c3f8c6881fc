#!/bin/sh
# Install what the tests need and run them: pytest, then ruff and mypy.
# This is the README's test command, and .ci/run calls it unchanged.
set -eu
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
python3 -m pytest -q
python3 -m ruff check lawdiff tests benchmarks
python3 -m mypy
