"""When the compiled card play pays, and whether numba has it on disk — decided without importing numba.

``use_compiled(deal_suits)`` says whether ``estimate`` should play with the compiled engine:
only when the work ahead repays loading it (``LOAD_PAYS`` deal-suits when numba's cache holds
it, ``COMPILE_PAYS`` when it must be compiled first); ``PINOCHLE_COMPILED=0`` turns it off,
``=1`` forces it. The cache is read as numba reads it, its pickles parsed and never executed;
nothing is raised (an unreadable cache counts as absent). Where the cache lives and how its
freshness is decided: docs/estimate.md, "Inside the estimator".

The compile itself runs in a process of its own (``compiled_build``): ``build_now`` waits for it
(a Ctrl-C ends it, and numba's renamed writes leave no half-written entry); ``note_work`` counts
the deal-suits played with numpy while the cache is missing (a small file in ``state_dir``,
replaced atomically) and, once they would have repaid the compile (``BACKGROUND_PAYS``), starts
the build detached, at a low priority, to serve the next runs (``start_background``).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import pickletools
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["BACKGROUND_PAYS", "BUILD_LOCK", "COMPILE_PAYS", "LOAD_PAYS", "build_now", "cache_dir", "cached",
           "index_fresh", "note_work", "numba_available", "read_work", "reset_work", "start_background", "state_dir",
           "use_compiled"]

# deal-suits that repay importing numba and loading the cache (≈ 0.7 s)
LOAD_PAYS = 35_000
# deal-suits that repay compiling the player first (≈ 13 s of CPU)
COMPILE_PAYS = 1_000_000
# as numba names it: the absolute path, links not resolved
PACKAGE = Path(os.path.abspath(__file__)).parent
SOURCE = "compiled.py"
# deal-suits played with numpy that would have repaid the compile (≈ 13 s of CPU at ≈ 30 µs saved each)
BACKGROUND_PAYS = 430_000
# in state_dir: the deal-suits counted so far, and the lock of the one background build
WORK_FILE = "compiled-work.json"
BUILD_LOCK = "compiled-build.lock"
# the compiled entry points of SOURCE
ENTRIES = ("_play_all", "_exchange_all", "count_cards")
# the opcodes a stamp starts with
_VALUES = {"SHORT_BINBYTES", "BINBYTES", "BINBYTES8", "BINFLOAT"}


def numba_available() -> bool:
    return importlib.util.find_spec("numba") is not None


def _user_cache(app: str = "numba") -> Path:
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / app
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / app / "Cache"
    return Path(os.environ.get("XDG_CACHE_HOME", home / ".cache")) / app


def state_dir() -> Path:
    """Where the work counted for the background build is kept: ``$PINOCHLE_CACHE_DIR``, else the user's cache
    directory (``~/.cache/pinochle`` on Linux, ``~/Library/Caches/pinochle``, ``%LOCALAPPDATA%\\pinochle\\Cache``)."""
    env = os.environ.get("PINOCHLE_CACHE_DIR")
    return Path(env) if env else _user_cache("pinochle")


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
    compiled signature in it and the data files it names beside it? (Read without executing the pickles;
    anything unexpected answers no.)"""
    try:
        # genops reads a pickle up to its STOP: the next one starts there
        with index.open("rb") as f:
            written_by = [arg for _, arg, _ in pickletools.genops(f) if isinstance(arg, str)]
            ops = list(pickletools.genops(f))
        if written_by != [version]:
            return False
        stamp = next(i for i, (op, _, _) in enumerate(ops) if op.name in _VALUES)
        signed = any(op.name in ("SETITEM", "SETITEMS") for op, _, _ in ops)
        # numba writes the index before the data it names: a build killed in between leaves a name without a file
        data = [arg for _, arg, _ in ops if isinstance(arg, str) and arg.endswith(".nbc")]
        present = bool(data) and all((index.parent / name).is_file() for name in data)
        return signed and present and _stamp_matches(ops[stamp:], source)
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


def writable_cache(package: Path = PACKAGE) -> bool:
    """Could numba keep the compiled player on disk (else a separate build would serve nothing)?"""
    root = cache_dir(package)
    while not root.exists() and root.parent != root:
        root = root.parent
    return root.is_dir() and os.access(root, os.W_OK)


def _build_command(*flags: str) -> list[str]:
    return [sys.executable, "-m", f"{__package__}.compiled_build", *flags]


def build_now() -> bool:
    """Compile the player into numba's cache in a process of its own and wait for it (did it succeed?).

    Any exception here (Ctrl-C too) kills the build, which leaves no half-written entry, and goes on.
    """
    proc = subprocess.Popen(_build_command(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        return proc.wait() == 0
    except BaseException:
        proc.kill()
        proc.wait()
        raise


def start_background() -> None:
    """Start the build detached (its own session or process group, a low priority), not waited for."""
    flags = 0
    for name in ("DETACHED_PROCESS", "CREATE_NEW_PROCESS_GROUP", "BELOW_NORMAL_PRIORITY_CLASS"):
        # Windows only; 0 elsewhere
        flags |= getattr(subprocess, name, 0)
    subprocess.Popen(_build_command("--background"), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, close_fds=True, start_new_session=os.name == "posix",
                     creationflags=flags)


def read_work() -> int:
    """The deal-suits counted since the last build (0 when nothing is kept, or it is unreadable)."""
    try:
        value = json.loads((state_dir() / WORK_FILE).read_text(encoding="utf-8")).get("deal_suits", 0)
    except (OSError, ValueError, AttributeError):
        return 0
    return value if isinstance(value, int) and value >= 0 else 0


def _write_work(deal_suits: int) -> None:
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=folder, prefix=WORK_FILE, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"deal_suits": deal_suits}, f)
        os.replace(temp, folder / WORK_FILE)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def reset_work() -> None:
    _write_work(0)


def note_work(deal_suits: int) -> bool:
    """Count ``deal_suits`` played with numpy while the compiled player is not on disk; once the count would have
    repaid the compile, start the background build (was it started?). Nothing is raised: a state directory that
    cannot be written only means no build is started."""
    if os.environ.get("PINOCHLE_COMPILED", "") in ("0", "1") or deal_suits <= 0 or not numba_available():
        return False
    try:
        if cached() or not writable_cache():
            return False
        total = read_work() + deal_suits
        _write_work(total)
        if total < BACKGROUND_PAYS:
            return False
        start_background()
    except OSError:
        return False
    return True
