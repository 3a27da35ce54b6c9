"""When the compiled card play pays, and whether numba has it on disk — decided without importing numba.

``use_compiled(deal_suits)`` says whether ``estimate`` should play with the compiled engine:
only when the work ahead repays loading it (``LOAD_PAYS`` deal-suits when numba's cache holds
it, ``COMPILE_PAYS`` when it must be compiled first); ``PINOCHLE_COMPILED=0`` turns it off,
``=1`` forces it. The cache is read as numba reads it, its pickles parsed and never executed;
nothing is raised (an unreadable cache counts as absent). Where the cache lives and how its
freshness is decided: docs/estimate.md, "Inside the estimator".
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import pickletools
import sys
from pathlib import Path

__all__ = ["COMPILE_PAYS", "LOAD_PAYS", "cache_dir", "cached", "index_fresh", "numba_available", "use_compiled"]

# deal-suits that repay importing numba and loading the cache (≈ 0.7 s)
LOAD_PAYS = 35_000
# deal-suits that repay compiling the player first (≈ 13 s of CPU)
COMPILE_PAYS = 1_000_000
# as numba names it: the absolute path, links not resolved
PACKAGE = Path(os.path.abspath(__file__)).parent
SOURCE = "compiled.py"
# the compiled entry points of SOURCE
ENTRIES = ("_play_all", "_exchange_all", "count_cards")
# the opcodes a stamp starts with
_VALUES = {"SHORT_BINBYTES", "BINBYTES", "BINBYTES8", "BINFLOAT"}


def numba_available() -> bool:
    return importlib.util.find_spec("numba") is not None


def _user_cache() -> Path:
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "numba"
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / "numba" / "Cache"
    return Path(os.environ.get("XDG_CACHE_HOME", home / ".cache")) / "numba"


def _usable(directory: Path) -> bool:
    """Could numba keep its cache in ``directory`` (there and writable, or creatable)?"""
    if directory.exists():
        return directory.is_dir() and os.access(directory, os.W_OK)
    return os.access(directory.parent, os.W_OK)


def cache_dir(package: Path = PACKAGE) -> Path:
    """The directory numba keeps the compiled player of ``package`` in (see the module docstring)."""
    named = f"{package.name}_{hashlib.sha1(str(package).encode()).hexdigest()}"
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return Path(env) / named
    beside = package / "__pycache__"
    return beside if _usable(beside) else _user_cache() / named


def cached(package: Path = PACKAGE) -> bool:
    """Would numba load every entry point of the compiled player from its cache rather than compile it?"""
    version = _numba_version()
    root = cache_dir(package)
    if version is None or not root.is_dir():
        return False
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    source = package / SOURCE
    return all(any(index_fresh(index, source, version) for index in root.glob(f"{source.stem}.{entry}-*.{tag}.nbi"))
               for entry in ENTRIES)


def _numba_version() -> str | None:
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:
        return None


def index_fresh(index: Path, source: Path, version: str) -> bool:
    """Is ``index`` a numba cache index for ``source`` as it is now, written by numba ``version``, with a
    compiled signature in it? (Read without executing the pickles; anything unexpected answers no.)"""
    try:
        # genops reads a pickle up to its STOP: the next one starts there
        with index.open("rb") as f:
            written_by = [arg for _, arg, _ in pickletools.genops(f) if isinstance(arg, str)]
            ops = list(pickletools.genops(f))
        if written_by != [version]:
            return False
        stamp = next(i for i, (op, _, _) in enumerate(ops) if op.name in _VALUES)
        signed = any(op.name in ("SETITEM", "SETITEMS") for op, _, _ in ops)
        return signed and _stamp_matches(ops[stamp:], source)
    except (OSError, ValueError, StopIteration):
        return False


def _stamp_matches(ops: list[tuple[pickletools.OpcodeInfo, object, int | None]], source: Path) -> bool:
    """Does the stamp that ``ops`` start with match ``source``: its SHA-256, or (older numba) ``(mtime, size)``?"""
    value = ops[0][1]
    if isinstance(value, bytes):
        return value == hashlib.sha256(source.read_bytes()).digest()
    st = source.stat()
    return value == st.st_mtime and ops[1][1] == st.st_size


def use_compiled(deal_suits: int) -> bool:
    """Should ``deal_suits`` more deal-suits be played by the compiled player?"""
    forced = os.environ.get("PINOCHLE_COMPILED", "")
    if forced in ("0", "1"):
        return forced == "1" and numba_available()
    if deal_suits < LOAD_PAYS or not numba_available():
        return False
    return deal_suits >= COMPILE_PAYS or cached()
