"""The corpus package loads its modules when asked: finding a corpus's files loads no reader."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lawdiff.corpus as package
from lawdiff.corpus.files import suffix

ROOT = Path(__file__).resolve().parent.parent

# What a cached answer must not load: the readers, the tree, the aligner, lxml, the TOML parser.
HEAVY = ("lawdiff.sources", "lawdiff.model", "lawdiff.align", "lawdiff.corpus.reading", "lxml", "tomllib")


def test_hashing_a_corpus_for_a_cached_answer_loads_no_reader() -> None:
    # A fresh process: this one has loaded everything already.
    code = (
        "import sys\n"
        "from lawdiff.cli.kept import corpus_identity\n"
        "from lawdiff.corpus.files import corpus_files, default_corpus\n"
        "files = corpus_files([default_corpus()])\n"
        "identity = corpus_identity((), None)\n"
        f"heavy = sorted(m for m in sys.modules if m.startswith({HEAVY!r}))\n"
        "print(len(files), identity is not None, heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    count, hashed, heavy = done.stdout.split(" ", 2)
    assert int(count) > 0  # the bundled corpus was found and listed
    assert hashed == "True"
    assert heavy.strip() == "[]"


def test_every_name_has_one_home_and_is_what_all_lists() -> None:
    assert set(package._HOME) == set(package.__all__)
    assert len(package._HOME) == sum(len(names) for names in package._HOMES.values())
    for home, names in package._HOMES.items():
        module = importlib.import_module(home)
        for name in names:
            assert getattr(package, name) is getattr(module, name), name


def test_no_exported_name_is_also_a_submodule() -> None:
    # Importing a submodule binds it to the package under its name: a function of
    # the same name (``account``) would then be the module, depending on import order.
    submodules = {info.name for info in pkgutil.iter_modules(package.__path__)}
    assert {"account", "files", "reading"} <= submodules
    assert not submodules & set(package.__all__)


def test_a_name_the_package_does_not_export_is_an_attribute_error() -> None:
    # A name that lived in the package before its modules were split (a reader, patched by a
    # benchmark) must fail loudly, not be set on the package and never read.
    name = "iter_file"
    with pytest.raises(AttributeError, match="has no attribute 'iter_file'"):
        getattr(package, name)


@given(st.text(alphabet="a.~#b", max_size=8).filter(lambda n: n not in ("", ".", "..")))
def test_a_file_name_s_suffix_is_the_one_pathlib_gives(name: str) -> None:
    # corpus_files tells a file's kind from its name without making a path of the name.
    assert suffix(name) == Path(name).suffix
