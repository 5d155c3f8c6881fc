#!/bin/sh
# Install what the tests need and run them: pytest, then ruff and mypy.
# This is the README's test command, and .ci/run calls it unchanged.
# The browser tests (tests/test_browser.py) need Debian's chromium (its headless shell), and the
# Word test (tests/test_docx.py) LibreOffice: installed here when missing (as
# root, or through sudo); on CI they fail without them.
set -eu
cd "$(dirname "$0")/.."
# Debian's chromium-headless-shell (built from chromium's source: the browser Playwright runs headless,
# at about half the CPU time of the whole browser); the tests take chromium where only it is installed.
if [ ! -x /usr/bin/chromium-headless-shell ]; then
    echo "scripts/test.sh: installing chromium-headless-shell for the browser tests (apt-get; this takes a while)" >&2
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null
    elif command -v sudo >/dev/null 2>&1; then
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null
    else
        echo "scripts/test.sh: cannot install chromium (not root, no sudo): the browser tests will be skipped, or fail on CI" >&2
    fi
fi
# The Word redline test (tests/test_docx.py) opens a .docx in LibreOffice:
# Debian's Writer without its GUI, installed the same way when missing.
if [ ! -x /usr/bin/soffice ] && [ ! -x /usr/bin/libreoffice ]; then
    echo "scripts/test.sh: installing libreoffice-writer-nogui for the Word test (apt-get; this takes a while)" >&2
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libreoffice-writer-nogui >/dev/null
    elif command -v sudo >/dev/null 2>&1; then
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libreoffice-writer-nogui >/dev/null
    else
        echo "scripts/test.sh: cannot install LibreOffice (not root, no sudo): the Word test will be skipped, or fail on CI" >&2
    fi
fi
# The print test (tests/test_browser_report.py) reads each printed sheet's text
# with poppler's pdftotext: installed the same way when missing.
if ! command -v pdftotext >/dev/null 2>&1; then
    echo "scripts/test.sh: installing poppler-utils for the print test (apt-get)" >&2
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null
    elif command -v sudo >/dev/null 2>&1; then
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null
    else
        echo "scripts/test.sh: cannot install poppler-utils (not root, no sudo): the print test will fail on CI" >&2
    fi
fi
# The tests of `lawdiff fetch` (tests/test_fetch_wiki.py) run a real MediaWiki:
# Debian's package on SQLite, with PHP's command line, installed the same way
# when missing (without them those tests are skipped, saying why).
if [ ! -f /usr/share/mediawiki/maintenance/install.php ] || ! command -v php >/dev/null 2>&1 \
    || ! php -m 2>/dev/null | grep -qx pdo_sqlite; then
    echo "scripts/test.sh: installing mediawiki, php-sqlite3 and php-cli for the fetch tests (apt-get)" >&2
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mediawiki php-sqlite3 php-cli >/dev/null
    elif command -v sudo >/dev/null 2>&1; then
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mediawiki php-sqlite3 php-cli >/dev/null
    else
        echo "scripts/test.sh: cannot install mediawiki (not root, no sudo): the fetch tests against a wiki will be skipped" >&2
    fi
fi
# The tests run in a virtual environment of their own (.venv-test, seeing
# the system's packages), so that a user's `pip install .` stays as it is.
if [ ! -x .venv-test/bin/python ]; then
    python3 -m venv --system-site-packages .venv-test
fi
# Installed again only when pyproject.toml changed since the last install (the
# package itself is installed editable: a change to lawdiff/ needs none).
PY=.venv-test/bin/python
if ! cmp -s pyproject.toml .venv-test/pyproject.installed; then
    "$PY" -m pip install --quiet --disable-pip-version-check -e '.[test]'
    cp pyproject.toml .venv-test/pyproject.installed
fi
# Python's compiled modules written and kept (beside the sources, in __pycache__, which git ignores),
# even where the environment says not to write them (PYTHONDONTWRITEBYTECODE=1): without them every
# process of the tests (each pytest worker, each command a test starts) compiled lawdiff from its
# source again, more than half of importing it.
unset PYTHONDONTWRITEBYTECODE
# One pytest worker per CPU (pytest-xdist); tests that share a fixture made once
# per module, and the browser tests, stay together on one worker (tests/conftest.py).
"$PY" -m pytest -q -n logical --dist loadgroup
"$PY" -m ruff check lawdiff tests benchmarks
# mypy keeps its cache in .mypy_cache: a second run checks only what changed.
"$PY" -m mypy
