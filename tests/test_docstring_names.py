"""Every ``lawdiff.x.y`` a docstring or comment names exists: a module, or a name a module holds.

Code moves; a docstring that still points at ``lawdiff.review.corrections``
after the module was split sends the next reader to a place that is not there.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lawdiff"
# A dotted name in prose: lawdiff.diff.study, lawdiff.diff.study.Study.prepare.
NAMED = re.compile(r"\blawdiff(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    obj: object = importlib.import_module(parts[0])
    for i, attr in enumerate(parts[1:], start=2):
        if hasattr(obj, attr):
            obj = getattr(obj, attr)
            continue
        if not hasattr(obj, "__path__"):  # not a package: no submodule to find
            return False
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            return False
    return True


def _named(path: Path) -> set[str]:
    """The dotted names in the docstrings and comments of one module (not in its code)."""
    source = path.read_text(encoding="utf-8")
    prose: list[str] = [line.split("#", 1)[1] for line in source.splitlines() if "#" in line]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                prose.append(doc)
    # lawdiff.toml is a corpus's settings file, lawdiff.po and lawdiff.mo the catalog's files: not modules.
    return {m.rstrip(".") for text in prose for m in NAMED.findall(text)} - {"lawdiff.toml", "lawdiff.po", "lawdiff.mo"}


def test_every_name_a_docstring_gives_exists() -> None:
    missing = sorted(
        f"{path.relative_to(ROOT)}: {name}"
        for path in PACKAGE.rglob("*.py")
        for name in _named(path)
        if not _resolves(name)
    )
    assert missing == []


def test_the_check_tells_a_missing_module() -> None:
    assert not _resolves("lawdiff.review.corrections")
    assert not _resolves("lawdiff.diff.study.NoSuchName")
    assert _resolves("lawdiff.diff.study")
    assert _resolves("lawdiff.marks.escape")
