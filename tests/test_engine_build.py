"""The compiled engine's machine code: kept in a folder named by a digest of its sources (so an edit anywhere it
is compiled from is never served stale code), and built ahead with a notice on a terminal."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import run_cli

from pinochle_cli import prepare
from pinochle_cli.cli import progress
from pinochle_cli.game import machine_code

PACKAGE = Path(machine_code.__file__).resolve().parent.parent


@pytest.fixture
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the package's sources, which the digest reads instead of the package."""
    target = tmp_path / "pinochle_cli"
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(machine_code, "_PACKAGE", target)
    machine_code.engine_digest.cache_clear()
    yield target
    machine_code.engine_digest.cache_clear()


def test_the_modules_that_compile_are_found_by_their_imports() -> None:
    assert set(machine_code.engine_modules()) == {"game.kernels", "solver.search", "solver.search_layout", "solver.keys",
                                                  "solver.ordering", "solver.general", "solver.solve", "player.play",
                                                  "player.exchange", "player.seat", "player.rollout"}


@pytest.mark.parametrize("source", ["game/trick_rules.py", "cards.py", "player/tables.py", "solver/search.py",
                                    "ruleset/rules.py"])
def test_an_edit_of_a_source_compiled_in_gives_a_new_folder(copy: Path, source: str) -> None:
    before = machine_code.engine_digest()
    with (copy / source).open("a", encoding="utf-8") as f:
        f.write("\n# an edit\n")
    machine_code.engine_digest.cache_clear()
    assert machine_code.engine_digest() != before


@pytest.mark.parametrize("source", ["cli/docs_cmd.py", "records/stats.py", "serve/app.py"])
def test_an_edit_elsewhere_keeps_the_folder(copy: Path, source: str) -> None:
    before = machine_code.engine_digest()
    with (copy / source).open("a", encoding="utf-8") as f:
        f.write("\n# an edit\n")
    machine_code.engine_digest.cache_clear()
    assert machine_code.engine_digest() == before


def test_a_new_module_that_compiles_is_covered(copy: Path) -> None:
    (copy / "solver" / "extra.py").write_text("from ..game.kernels import kernel\n", encoding="utf-8")
    assert "solver.extra" in machine_code.engine_modules()


def test_the_folder_is_in_numba_cache_dir_when_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert machine_code.engine_dir() == tmp_path / f"engine-{machine_code.engine_digest()}"


def test_the_folder_is_beside_the_package_or_in_the_users_cache(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(machine_code, "_writable", lambda d: True)
    assert machine_code.engine_dir().parent == PACKAGE / "__pycache__"
    monkeypatch.setattr(machine_code, "_writable", lambda d: False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")
    assert machine_code.engine_dir().parent == tmp_path / "pinochle"


def test_compiled_code_is_kept_in_the_engine_folder(tmp_path: Path) -> None:
    """A compiled function of the engine, called once, writes its machine code there and nowhere else."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    code = "from pinochle_cli.game import kernels; assert kernels.popcount(7) == 3"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)
    folder = tmp_path / f"engine-{machine_code.engine_digest()}"
    assert list(folder.rglob("*popcount*.nbi")), list(tmp_path.rglob("*"))
    assert {p.parent.parent for p in tmp_path.rglob("*.nbi")} == {folder}


def test_a_command_that_plays_says_on_a_terminal_that_it_builds_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    monkeypatch.setattr(prepare, "ready", lambda: False)
    monkeypatch.setattr(prepare, "build", lambda: built.append(1) or True)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True, raising=False)
    said: list[str] = []
    monkeypatch.setattr(progress.click, "echo", lambda text, err=False, **_: said.append(text))
    progress.ready_engine()
    assert built == [1]
    assert said and "Preparing the fast engine: once after an install, about 25 s" in said[0]


def test_no_notice_and_no_build_when_the_engine_is_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prepare, "ready", lambda: True)
    monkeypatch.setattr(prepare, "build", lambda: pytest.fail("built again"))
    prepare.ensure(lambda seconds: pytest.fail("told"))


def test_the_prepare_command_builds_and_says_so() -> None:
    ran = run_cli("prepare")
    assert ran.code == 0, ran
    assert "ready" in ran.out
    assert prepare.ready()
