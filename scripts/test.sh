#!/bin/sh
# Install what the tests need and run them: pytest, then ruff, and mypy beside them.
# This is the README's test command, and .ci/run calls it unchanged.
# The browser tests (tests/test_browser.py) need Debian's chromium (its headless shell), the
# Word test (tests/test_docx.py) LibreOffice, the print test poppler and the fetch tests MediaWiki:
# installed here when missing (as root, or through sudo); on CI they fail without them.
set -eu
cd "$(dirname "$0")/.."
# What the tests need from Debian, installed when missing with one `apt-get update` and one
# `apt-get install` (as root, or through sudo; one run sets its packages up once: four installs
# each ran dpkg's triggers again), without the packages they only recommend: on a fresh machine the
# recommends more than doubled what was installed (247 packages against 98 in apt-get's simulation: a printer dialog, avahi,
# upower, Perl's web libraries), and none of them is used here.  The fonts that chromium and
# LibreOffice recommend are named instead: the pages are laid out and printed in them.
missing=""
apt_pid=""
# Debian's chromium-headless-shell (built from chromium's source: the browser Playwright runs headless,
# at about half the CPU time of the whole browser) for the browser tests; the tests take chromium where
# only it is installed.
if [ ! -x /usr/bin/chromium-headless-shell ]; then
    missing="$missing chromium-headless-shell fonts-liberation"
fi
# The Word redline test (tests/test_docx.py) opens a .docx in LibreOffice: Debian's Writer without its GUI.
if [ ! -x /usr/bin/soffice ] && [ ! -x /usr/bin/libreoffice ]; then
    missing="$missing libreoffice-writer-nogui fonts-liberation2"
fi
# The print test (tests/test_browser_report.py) reads each printed sheet's text with poppler's pdftotext.
if ! command -v pdftotext >/dev/null 2>&1; then
    missing="$missing poppler-utils"
fi
# The tests of `lawdiff fetch` (tests/test_fetch_wiki.py) run a real MediaWiki: Debian's package on
# SQLite, with PHP's command line (without them those tests are skipped, saying why).
if [ ! -f /usr/share/mediawiki/maintenance/install.php ] || ! command -v php >/dev/null 2>&1 \
    || ! php -m 2>/dev/null | grep -qx pdo_sqlite; then
    missing="$missing mediawiki php-sqlite3 php-cli"
fi
if [ -n "$missing" ]; then
    echo "scripts/test.sh: installing$missing for the tests (apt-get; this takes a while)" >&2
    if [ "$(id -u)" = 0 ]; then
        as_root=""
    elif command -v sudo >/dev/null 2>&1; then
        as_root="sudo"
    else
        as_root="none"
        echo "scripts/test.sh: cannot install$missing (not root, no sudo): the tests that need them will be skipped, or fail on CI" >&2
    fi
    if [ "$as_root" != none ]; then
        # In the background, beside the virtual environment's install below (the one is Debian's
        # packages, the other Python's, and both wait mostly on the network and the disk): waited
        # for before the tests, a failure stopping the command as before.
        # shellcheck disable=SC2086  # $missing is a list of words
        ($as_root apt-get update -qq \
            && $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null) &
        apt_pid=$!
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
if [ -n "$apt_pid" ]; then
    wait "$apt_pid"
fi
# mypy keeps its cache in .mypy_cache: a second run checks only what changed.  From a clean clone it
# takes some ten seconds of one CPU: it runs beside the tests (which leave a core idle while they wait
# on browsers, LibreOffice and the wiki), its output shown after theirs.
mypy_out=$(mktemp)
"$PY" -m mypy >"$mypy_out" 2>&1 &
mypy_pid=$!
# One pytest worker per CPU and one more (pytest-xdist): much of the tests' time is spent waiting on
# the processes they start (chromium, LibreOffice, the wiki's PHP, lawdiff itself), and a third worker
# on two idle cores takes that time up (2,008 tests: 180 s of wall time with two workers, 147 s with
# three, 155 s with four).  Tests that share a fixture made once per module, and the browser tests,
# stay together on one worker (tests/conftest.py).
workers=$(($(nproc) + 1))
status=0
"$PY" -m pytest -q -n "$workers" --dist loadgroup || status=$?
"$PY" -m ruff check lawdiff tests benchmarks || status=$((status ? status : $?))
mypy_status=0
wait "$mypy_pid" || mypy_status=$?
cat "$mypy_out"
rm -f "$mypy_out"
# The first failure's status (pytest's, ruff's, then mypy's); 0 when all three passed.
exit $((status ? status : mypy_status))
