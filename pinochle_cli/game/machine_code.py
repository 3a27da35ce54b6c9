"""Where the compiled engine keeps its machine code: one folder named by a digest of its sources.

numba keys the machine code it keeps on disk by the file that defines each function alone; the
engine's functions are compiled from several files (and read constants of others). So every compiled
function keeps its code in ``engine_dir()``, ``engine-DIGEST``, where the digest covers the modules
that compile code (``engine_modules``: ``game/kernels.py`` and every module importing from it) and
every module of the package they import, at any depth: an edit of any of them gives a new folder,
stale code is never loaded, and nothing is stamped by hand. This module imports neither numpy nor
numba (asking whether the engine is built stays cheap).
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import sys
from functools import cache
from pathlib import Path

__all__ = ["engine_digest", "engine_dir", "engine_modules"]

_PACKAGE = Path(__file__).resolve().parent.parent
# an import from the decorators' module, as a source says it
_USES_KERNELS = re.compile(rb"^\s*from \.+(game\.)?kernels import", re.MULTILINE)


def _imports(module: str) -> set[str]:
    """The package's modules ``module`` imports (anywhere in it), by dotted name under the package."""
    path = _module_path(module)
    if path is None:
        return set()
    found: set[str] = set()
    here = module.split(".")[:-1] if path.name != "__init__.py" else module.split(".")
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
            stem = [*base, *(node.module.split(".") if node.module else [])]
            found.add(".".join(stem))
            found.update(".".join([*stem, alias.name]) for alias in node.names)
    return {m for m in found if _module_path(m) is not None}


def _module_path(module: str) -> Path | None:
    base = _PACKAGE.joinpath(*module.split(".")) if module else _PACKAGE
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def engine_modules() -> list[str]:
    """The modules that compile code: this one and every module that imports from it (a search of the sources)."""
    found = ["game.kernels"]
    for path in sorted(_PACKAGE.rglob("*.py")):
        if _USES_KERNELS.search(path.read_bytes()):
            parts = path.relative_to(_PACKAGE).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


@cache
def engine_digest() -> str:
    """A digest of the sources of the compiled engine: ``engine_modules`` and every module of the package they
    import, at any depth."""
    seen: set[str] = set()
    todo = engine_modules()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo += _imports(module)
    digest = hashlib.sha256()
    for module in sorted(seen):
        path = _module_path(module)
        if path is not None:
            digest.update(module.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _writable(directory: Path) -> bool:
    while not directory.exists() and directory.parent != directory:
        directory = directory.parent
    return directory.is_dir() and os.access(directory, os.W_OK)


def _user_cache() -> Path:
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "pinochle"
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / "pinochle" / "Cache"
    return Path(os.environ.get("XDG_CACHE_HOME", home / ".cache")) / "pinochle"


def engine_dir() -> Path:
    """The folder of the compiled engine's machine code: ``engine-DIGEST`` in ``$NUMBA_CACHE_DIR`` when it is set,
    else beside the package (its ``__pycache__``) when that can be written, else in the user's cache folder."""
    name = f"engine-{engine_digest()}"
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return Path(env) / name
    beside = _PACKAGE / "__pycache__"
    return beside / name if _writable(beside) else _user_cache() / name
