"""numba caches a module's machine code keyed on that module's own file only.

The code that ``estimate.compiled`` and ``solver.search`` compile in from the package's other modules
(the trick primitives of ``trickcore``, the constants of ``estimate.players``) is not part of numba's
key, so each of those modules names the sources it is compiled with in ``COMPILED_WITH``: an edit of such a source fails
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


def module_path(module: str) -> Path:
    """The file of a package module given by its dotted name below the package (``solver.search``)."""
    path = PACKAGE.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def absolute(module: str, level: int, name: str | None) -> str:
    """The dotted name (below the package) that ``from <level dots><name> import`` means in ``module``."""
    parts = module.split(".")[:-1]
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join([*parts, *([name] if name else [])])


def package_imports(module: str) -> list[str]:
    """The package modules ``module`` imports from (relative imports of any depth resolved), sorted."""
    tree = ast.parse(module_path(module).read_text(encoding="utf-8"))
    names = {absolute(module, node.level, node.module) for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.level >= 1}
    return sorted(names - TYPES_ONLY - {""})


def sources_digest(names: list[str]) -> str:
    """SHA-256 of the named sources (line ends as LF, so a Windows checkout gives the same), 16 hex digits."""
    h = hashlib.sha256()
    for name in names:
        h.update(name.encode() + b"\0")
        h.update(module_path(name).read_bytes().replace(b"\r\n", b"\n"))
    return h.hexdigest()[:16]


def test_relative_imports_of_every_depth_are_resolved() -> None:
    assert absolute("solver.search", 2, "trickcore") == "trickcore"
    assert absolute("estimate.compiled", 1, "players") == "estimate.players"
    assert absolute("trickcore", 1, "cards") == "cards"
    assert "trickcore" in package_imports("solver.search")
    assert {"trickcore", "estimate.players"} <= set(package_imports("estimate.compiled"))


@pytest.mark.parametrize("module", ["estimate.compiled", "solver.search"])
def test_a_compiled_module_names_the_sources_compiled_into_it(module: str) -> None:
    names = package_imports(module)
    assert names, f"{module} imports nothing from the package"
    stated = getattr(importlib.import_module(f"pinochle_cli.{module}"), "COMPILED_WITH", None)
    assert stated == sources_digest(names), (
        f"{', '.join(n + '.py' for n in names)} changed: set COMPILED_WITH = \"{sources_digest(names)}\" in "
        f"{module_path(module).relative_to(PACKAGE)}, so that numba compiles it anew instead of loading machine code built from the old source")


def test_the_digest_follows_every_source_named() -> None:
    assert sources_digest(["trickcore"]) != sources_digest(["trickcore", "estimate.players"])
    assert len(sources_digest(["trickcore"])) == 16
