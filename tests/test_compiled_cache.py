"""The compiled player's cache is judged as numba judges it: its index's numba version and source stamp."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import subprocess
import sys
import time
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


# ------------------------------------------------------------------ the background build

@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A state directory of the test's own, the compiled player not on disk, and starts of the build recorded."""
    monkeypatch.setenv("PINOCHLE_CACHE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(compiled_cache, "cached", lambda package=compiled_cache.PACKAGE: False)
    monkeypatch.setattr(compiled_cache, "writable_cache", lambda package=compiled_cache.PACKAGE: True)
    started: list[str] = []
    monkeypatch.setattr(compiled_cache, "start_background", lambda: started.append("build"))
    return started


def test_the_suite_keeps_its_state_away_from_the_users() -> None:
    assert compiled_cache.state_dir() != compiled_cache._user_cache("pinochle")  # conftest's temporary directory


def test_work_adds_up_until_it_repays_the_compile(state: list[str]) -> None:
    assert compiled_cache.read_work() == 0
    assert not compiled_cache.note_work(200_000)  # a --samples 50000 run of four suits
    assert not compiled_cache.note_work(200_000)
    assert compiled_cache.read_work() == 400_000 and state == []
    assert compiled_cache.note_work(200_000)  # 600,000 ≥ BACKGROUND_PAYS
    assert state == ["build"]
    assert [p.name for p in compiled_cache.state_dir().iterdir()] == [compiled_cache.WORK_FILE]  # no temp left


def test_nothing_is_counted_when_the_engine_is_chosen_or_on_disk(state: list[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    for forced in ("0", "1"):
        monkeypatch.setenv("PINOCHLE_COMPILED", forced)
        assert not compiled_cache.note_work(10**7)
    monkeypatch.delenv("PINOCHLE_COMPILED")
    monkeypatch.setattr(compiled_cache, "cached", lambda package=compiled_cache.PACKAGE: True)
    assert not compiled_cache.note_work(10**7)
    assert (compiled_cache.read_work(), state) == (0, [])


@pytest.mark.parametrize("text", ["", "{", "[1]", '{"deal_suits": -5}', '{"deal_suits": "many"}'])
def test_an_unreadable_count_counts_as_none(state: list[str], text: str) -> None:
    compiled_cache.state_dir().mkdir(parents=True)
    (compiled_cache.state_dir() / compiled_cache.WORK_FILE).write_text(text)
    assert compiled_cache.read_work() == 0
    assert not compiled_cache.note_work(100)
    assert compiled_cache.read_work() == 100


def test_a_state_directory_that_cannot_be_written_starts_nothing(state: list[str], tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("PINOCHLE_CACHE_DIR", str(tmp_path / "file" / "state"))
    assert not compiled_cache.note_work(10**7)
    assert state == []


def test_the_estimate_counts_its_work_after_printing_the_answer(state: list[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from clihelp import run_cli

    monkeypatch.setattr(compiled_cache, "BACKGROUND_PAYS", 300)
    hand = "AH TH KH QH JH AS KS QS KD QD KC QC"
    first = run_cli("estimate", hand, "--samples", "50", "--seed", "1", "--workers", "1", "--json")
    assert first.code == 0 and state == []
    assert compiled_cache.read_work() == 200  # 50 deals, four suits
    again = run_cli("estimate", hand, "--samples", "50", "--seed", "1", "--workers", "1", "--json")
    assert again == first and state == ["build"]  # the same answer; the build started after it


def test_a_background_build_waits_for_none_and_runs_one_at_a_time(tmp_path: Path) -> None:
    """A second build while one holds the lock exits at once, building nothing."""
    from filelock import FileLock

    env = {**os.environ, "PINOCHLE_CACHE_DIR": str(tmp_path / "state"), "NUMBA_CACHE_DIR": str(tmp_path / "nb")}
    (tmp_path / "state").mkdir()
    with FileLock(str(tmp_path / "state" / compiled_cache.BUILD_LOCK)):
        done = subprocess.run(compiled_cache._build_command("--background"), env=env, timeout=60, check=False)
    assert done.returncode == 0 and not (tmp_path / "nb").exists()


@pytest.mark.skipif(not compiled_cache.numba_available(), reason="needs numba")
def test_after_enough_work_the_next_runs_find_the_compiled_player_built(tmp_path: Path) -> None:
    """End to end: a run that completes the count starts the build, detached; it fills an empty cache that
    numba loads, and resets the count. (One compile: ≈ 13 s of CPU.)"""
    env = {**os.environ, "PINOCHLE_CACHE_DIR": str(tmp_path / "state"), "NUMBA_CACHE_DIR": str(tmp_path / "nb"),
           "PINOCHLE_RULESET": "", "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    env.pop("PINOCHLE_COMPILED", None)
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / compiled_cache.WORK_FILE).write_text(f'{{"deal_suits": {compiled_cache.BACKGROUND_PAYS}}}')
    ran = subprocess.run([sys.executable, "-m", "pinochle_cli", "estimate", "AH TH KH QH JH AS KS QS KD QD KC QC",
                          "--samples", "50", "--workers", "1", "--json"], env=env, capture_output=True, text=True,
                         timeout=60, check=False)
    assert (ran.returncode, ran.stderr) == (0, "")
    os.environ["NUMBA_CACHE_DIR"], saved = str(tmp_path / "nb"), os.environ.get("NUMBA_CACHE_DIR")
    try:
        deadline = time.monotonic() + 240
        while not compiled_cache.cached() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert compiled_cache.cached(), "the background build did not fill the cache"
    finally:
        if saved is None:
            del os.environ["NUMBA_CACHE_DIR"]
        else:
            os.environ["NUMBA_CACHE_DIR"] = saved
    from filelock import FileLock

    with FileLock(str(tmp_path / "state" / compiled_cache.BUILD_LOCK), timeout=60):  # the build has ended
        pass
    assert json.loads((tmp_path / "state" / compiled_cache.WORK_FILE).read_text()) == {"deal_suits": 0}
