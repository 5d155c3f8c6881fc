"""The bundled corpus loads and every seed is fully placed."""

import pytest

from lawdiff.corpus import load


def test_bundled_corpus_is_fully_placed() -> None:
    corpus = load()
    assert [e.name for e in corpus.editions] == ["1963", "1997", "2007", "2017"]
    for check in corpus.checks:
        assert check.unplaced == (), check.file
        assert check.placed == check.tokens > 0


# The modules are imported in this many processes, each taking every SHARESth name from its own: the
# whole walk is several seconds of CPU (each import reads the package again), shared by pytest-xdist's workers.
SHARES = 2


@pytest.mark.parametrize("share", range(SHARES))
def test_every_module_imports_first_on_its_own(share: int) -> None:
    """No import cycle hides behind the order the package happens to import its modules in."""
    import subprocess
    import sys

    script = f"""
import importlib, pkgutil, sys
import lawdiff
names = [m.name for m in pkgutil.walk_packages(lawdiff.__path__, "lawdiff.") if not m.name.endswith("__main__")]
failed = []
for name in names[{share}::{SHARES}]:
    for loaded in [k for k in sys.modules if k == "lawdiff" or k.startswith("lawdiff.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except ImportError as exc:
        failed.append(f"{{name}}: {{exc}}")
print(len(names))
print("\\n".join(failed))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    count, *failed = out.splitlines()
    assert int(count) > 80
    assert [f for f in failed if f] == []
