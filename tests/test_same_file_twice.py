"""One record given twice to ``score`` or ``stats`` (as written twice, as ``./FILE``, by its full path, through
a link) is refused, naming both: counting one game twice would double its deals and its wins."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from clihelp import run_cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def night(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "single-deck-night.yaml", "night.yaml")
    return tmp_path / "night.yaml"


def _again(how: str, night: Path) -> str:
    if how == "symlink":
        if not hasattr(os, "symlink"):
            pytest.skip("needs symbolic links")
        try:
            os.symlink("night.yaml", "link.yaml")
        except OSError:
            pytest.skip("symbolic links not allowed here")
        return "link.yaml"
    if how == "hard link":
        os.link("night.yaml", "hard.yaml")
        return "hard.yaml"
    return {"twice": "night.yaml", "./": os.path.join(".", "night.yaml"), "full path": str(night)}[how]


@pytest.mark.parametrize("how", ["twice", "./", "full path", "symlink", "hard link"])
@pytest.mark.parametrize("command", [["score"], ["score", "--json"], ["stats"], ["stats", "--json"]])
def test_the_same_record_twice_is_refused(night: Path, how: str, command: list[str]) -> None:
    again = _again(how, night)
    assert run_cli(*command, "night.yaml", again) == (
        2, "", f"Error: night.yaml and {again} are the same file: give each game once (it would count twice)\n")


def test_two_records_alike_are_two_games(night: Path) -> None:
    shutil.copy("night.yaml", "rematch.yaml")
    code, out, _ = run_cli("stats", "night.yaml", "rematch.yaml")
    assert code == 0 and out.startswith("2 games, 20 deals\n")
