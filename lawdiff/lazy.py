"""Packages that load their modules when one of their names is first asked for (PEP 562).

Shared by the packages whose names a light command may need without the rest
(like :mod:`lawdiff.errors`): :mod:`lawdiff.corpus` (finding a corpus's files
loads none of the readers), :mod:`lawdiff.review` (finding no store loads no
SQLite) and :mod:`lawdiff.forked` (pausing the collector loads no pool).  Each
keeps its real imports under ``TYPE_CHECKING`` for the type checker, and a
table of which module holds each name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def loader(namespace: dict[str, Any], home: dict[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of a package whose ``globals()`` are ``namespace``: each name of ``home``
    (name -> the module that holds it) is imported from its module when first asked for, then kept."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value  # asked once
        return value

    return __getattr__
