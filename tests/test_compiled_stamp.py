"""numba caches a module's machine code keyed on that module's own file only.

The code that ``fastplay`` and ``solvecore`` compile in from the package's other modules (the trick
primitives of ``playcore``, the constants of ``players``) is not part of numba's key, so each of those
modules names the sources it is compiled with in ``COMPILED_WITH``: an edit of such a source fails
this test until the constant is updated, and updating it changes the compiled module's own file,
which is what makes numba compile it afresh instead of loading stale machine code.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
from pathlib import Path

import pytest

import pinochle_cli

PACKAGE = Path(pinochle_cli.__file__).parent
TYPES_ONLY = {"arrays"}  # type aliases: nothing of theirs is compiled


def package_imports(module: str) -> list[str]:
    """The package modules ``module`` imports from, by name, sorted."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    names = {node.module for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module}
    return sorted(names - TYPES_ONLY)


def sources_digest(names: list[str]) -> str:
    """SHA-256 of the named sources (line ends as LF, so a Windows checkout gives the same), 16 hex digits."""
    h = hashlib.sha256()
    for name in names:
        h.update(name.encode() + b"\0")
        h.update((PACKAGE / f"{name}.py").read_bytes().replace(b"\r\n", b"\n"))
    return h.hexdigest()[:16]


@pytest.mark.parametrize("module", ["fastplay", "solvecore"])
def test_a_compiled_module_names_the_sources_compiled_into_it(module: str) -> None:
    names = package_imports(module)
    assert names, f"{module} imports nothing from the package"
    stated = getattr(importlib.import_module(f"pinochle_cli.{module}"), "COMPILED_WITH", None)
    assert stated == sources_digest(names), (
        f"{', '.join(n + '.py' for n in names)} changed: set COMPILED_WITH = \"{sources_digest(names)}\" in "
        f"{module}.py, so that numba compiles it anew instead of loading machine code built from the old source")


def test_the_digest_follows_every_source_named() -> None:
    assert sources_digest(["playcore"]) != sources_digest(["playcore", "players"])
    assert len(sources_digest(["playcore"])) == 16
