"""The compiled player's cache is judged as numba judges it: its index's numba version and source stamp."""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pinochle_cli.estimate import compiled_cache

VERSION = "0.68.1"
TAG = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
SIGNED = {("(int64,)", "cpu-magic"): "compiled._play_all-1.py311.1.nbc"}  # one compiled signature


def write_index(path: Path, stamp: object, *, version: str = VERSION, overloads: object = None) -> Path:
    """An index file as numba writes it: its version, then the stamp and the signatures compiled."""
    path.parent.mkdir(parents=True, exist_ok=True)
    overloads = SIGNED if overloads is None else overloads
    with path.open("wb") as f:
        pickle.dump(version, f, protocol=-1)
        f.write(pickle.dumps((stamp, overloads), protocol=4))
    if isinstance(overloads, dict):
        for name in overloads.values():
            (path.parent / name).write_bytes(b"data")
    return path


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package directory holding a ``compiled.py``, its numba cache in ``$NUMBA_CACHE_DIR``."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(compiled_cache, "_numba_version", lambda: VERSION)
    pkg = tmp_path / "site" / "pinochle_cli"
    pkg.mkdir(parents=True)
    (pkg / "compiled.py").write_text("def f():\n    return 1\n")
    return pkg


def digest(pkg: Path) -> bytes:
    return hashlib.sha256((pkg / "compiled.py").read_bytes()).digest()


def index_path(pkg: Path, entry: str, line: int = 12, tag: str = TAG) -> Path:
    return compiled_cache.cache_dir(pkg) / f"compiled.{entry}-{line}.{tag}.nbi"


def write_all(pkg: Path, stamp: object) -> None:
    for entry in compiled_cache.ENTRIES:
        write_index(index_path(pkg, entry), stamp)


def test_numba_cache_dir_holds_a_directory_named_for_the_package_path(package: Path, tmp_path: Path) -> None:
    expected = hashlib.sha1(str(package).encode()).hexdigest()
    assert compiled_cache.cache_dir(package) == tmp_path / "cache" / f"pinochle_cli_{expected}"


def test_every_entry_point_fresh_is_cached_and_a_touch_keeps_it(package: Path) -> None:
    assert not compiled_cache.cached(package)  # nothing compiled yet
    write_all(package, digest(package))
    assert compiled_cache.cached(package)
    os.utime(package / "compiled.py", (0, 0))  # a checkout: same bytes, another time
    assert compiled_cache.cached(package)


@pytest.mark.parametrize("entry", compiled_cache.ENTRIES)
def test_one_entry_point_missing_is_not_cached(package: Path, entry: str) -> None:
    write_all(package, digest(package))
    index_path(package, entry).unlink()
    assert not compiled_cache.cached(package)


def test_an_edited_source_is_not_cached_until_compiled_again(package: Path) -> None:
    write_all(package, digest(package))
    (package / "compiled.py").write_text("def f():\n    return 2\n")
    assert not compiled_cache.cached(package)
    write_index(index_path(package, "_play_all", line=40), digest(package))  # the new source, compiled again
    assert not compiled_cache.cached(package)  # the other entry points still stale
    for entry in compiled_cache.ENTRIES[1:]:
        write_index(index_path(package, entry, line=40), digest(package))
    assert compiled_cache.cached(package)  # the old indexes left behind do not matter


def test_older_numba_stamps_modification_time_and_size(package: Path) -> None:
    st = (package / "compiled.py").stat()
    write_all(package, (st.st_mtime, st.st_size))
    assert compiled_cache.cached(package)
    os.utime(package / "compiled.py", (0, 0))  # that numba compiles again after a touch
    assert not compiled_cache.cached(package)


def _without_data(index: Path) -> None:
    """numba writes the index before the data it names: a build killed in between leaves this."""
    for name in SIGNED.values():
        (index.parent / name).unlink()


Writer = Callable[[Path, Path], object]
STALE: list[tuple[str, Writer]] = [  # (what differs, how the index at the first path is written)
    ("another numba", lambda p, pkg: write_index(p, digest(pkg), version="0.67.0")),
    ("no signature compiled", lambda p, pkg: write_index(p, digest(pkg), overloads={})),
    ("another source", lambda p, pkg: write_index(p, hashlib.sha256(b"x").digest())),
    ("not a stamp", lambda p, pkg: write_index(p, "stamp")),
    ("truncated", lambda p, pkg: p.write_bytes(write_index(p, digest(pkg)).read_bytes()[:30])),
    ("empty", lambda p, pkg: p.write_bytes(b"")),
    ("its data file missing", lambda p, pkg: _without_data(write_index(p, digest(pkg)))),
]


@pytest.mark.parametrize(("case", "write"), STALE, ids=[c for c, _ in STALE])
def test_an_index_numba_would_not_load_is_not_fresh(package: Path, case: str, write: Writer) -> None:
    path = index_path(package, "_play_all")
    path.parent.mkdir(parents=True)
    write(path, package)
    assert not compiled_cache.index_fresh(path, package / "compiled.py", VERSION)


def test_another_python_is_not_cached(package: Path) -> None:
    for entry in compiled_cache.ENTRIES:
        write_index(index_path(package, entry, tag="py29"), digest(package))
    assert not compiled_cache.cached(package)


def test_without_numba_cache_dir_numba_looks_beside_the_module_then_in_the_users_cache(
        package: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "local"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert compiled_cache.cache_dir(package) == package / "__pycache__"
    (package / "__pycache__").write_text("")  # not a directory numba can use
    user = {"darwin": tmp_path / "home" / "Library" / "Caches" / "numba",
            "win32": tmp_path / "local" / "numba" / "Cache"}.get(sys.platform, tmp_path / "xdg" / "numba")
    assert compiled_cache.cache_dir(package).parent == user
    assert compiled_cache.cache_dir(package).name.startswith("pinochle_cli_")


def test_the_cache_numba_wrote_for_this_package_is_fresh() -> None:
    pytest.importorskip("numba")
    from pinochle_cli.estimate import compiled as compiled
    from pinochle_cli.estimate.players import ExchangeTables, PlayTables
    from pinochle_cli.ruleset import load_ruleset

    rules = load_ruleset("single-deck")
    compiled.warm(compiled.FastTables.build(PlayTables.build(rules)), compiled.FastExchange.build(
        ExchangeTables.build(rules)))  # loads the cache, or compiles and saves it
    assert compiled_cache.cached()
