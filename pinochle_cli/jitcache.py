"""When the compiled card play pays, and where numba keeps it — decided without importing numba.

Importing numba and loading the compiled player from its cache costs a fixed time (about 0.7
s); compiling it the first time after an install about 13 s of CPU. Each deal-suit played
compiled instead of with numpy saves about 20 microseconds of CPU. So ``estimate`` plays
with numpy unless the work ahead is large enough to repay that fixed cost:
``LOAD_PAYS`` deal-suits when the compiled code is already on disk, ``COMPILE_PAYS`` when it
must be compiled first (the first large run builds the cache, and every later run loads it).

Where the cache lives (numba's rules): ``$NUMBA_CACHE_DIR`` when set; else ``__pycache__``
beside ``fastplay.py`` when that directory is writable; else numba's per-user cache directory
(``~/.cache/numba`` on Linux, ``~/Library/Caches/numba`` on macOS, ``%LOCALAPPDATA%\\numba`` on
Windows). A read-only site-packages thus falls back to the user's cache, or to the directory
named by ``NUMBA_CACHE_DIR``. ``PINOCHLE_COMPILED=0`` turns the compiled play off, ``=1``
forces it (for benchmarks and tests).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

__all__ = ["COMPILE_PAYS", "LOAD_PAYS", "cache_dirs", "cached", "numba_available", "use_compiled"]

LOAD_PAYS = 35_000  # deal-suits that repay importing numba and loading the cache (≈ 0.7 s)
COMPILE_PAYS = 1_000_000  # deal-suits that repay compiling the player first (≈ 13 s of CPU)
# numba's index files of the entry points
_ENTRIES = ("fastplay._play_all-*.nbi", "fastplay._exchange_all-*.nbi", "fastplay.count_cards-*.nbi")
_SOURCES = ("fastplay.py", "playcore.py")


def numba_available() -> bool:
    return importlib.util.find_spec("numba") is not None


def _user_cache() -> Path:
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "numba"
    if os.name == "nt":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / "numba"
    return Path(os.environ.get("XDG_CACHE_HOME", home / ".cache")) / "numba"


def cache_dirs() -> list[Path]:
    """Where numba may keep the compiled player, in its order of preference."""
    here = Path(__file__).resolve().parent
    env = os.environ.get("NUMBA_CACHE_DIR")
    return [Path(env)] if env else [here / "__pycache__", _user_cache()]


def cached() -> bool:
    """Is the compiled player on disk, newer than its sources?"""
    return all(_fresh(entry) for entry in _ENTRIES)


def _fresh(entry: str) -> bool:
    here = Path(__file__).resolve().parent
    newest = max((here / name).stat().st_mtime for name in _SOURCES)
    for root in cache_dirs():
        if not root.is_dir():
            continue
        hits = root.glob(entry) if root.name == "__pycache__" else root.glob("*/" + entry)
        if any(p.stat().st_mtime >= newest for p in hits):
            return True
    return False


def use_compiled(deal_suits: int) -> bool:
    """Should ``deal_suits`` more deal-suits be played by the compiled player?"""
    forced = os.environ.get("PINOCHLE_COMPILED", "")
    if forced in ("0", "1"):
        return forced == "1" and numba_available()
    if deal_suits < LOAD_PAYS or not numba_available():
        return False
    return deal_suits >= COMPILE_PAYS or cached()
