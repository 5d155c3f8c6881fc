"""The benchmarks' scripts, for the tests that use them: ``benchmarks/`` is not a package, so each
script is loaded from its file, once, under a name of its own."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def bench_module(stem: str) -> ModuleType:
    """``benchmarks/<stem>.py`` as a module; it must be in sys.modules before it runs, for its dataclasses."""
    name = f"lawdiff_bench_{stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{stem}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def generator() -> ModuleType:
    """``benchmarks/generate.py``: the generated editions."""
    return bench_module("generate")
