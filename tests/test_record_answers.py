"""Issue 22, "Answers that hold": record entry that the game or the table could not have given is refused,
and entry that could is taken (the suggestions, the seating, the meld asked for, prompted entry's exit codes)."""

from __future__ import annotations

from pathlib import Path

from clihelp import run_cli as run


def test_new_suggests_only_the_fields_the_game_takes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("record", "new", "two.yaml", "-r", "two-handed", "--player", "Pat", "--player", "Sam")
    assert result.code == 0, result.err
    suggestion = result.out.splitlines()[-1]
    assert suggestion == "Add deals with: pinochle record add two.yaml --dealer ... --meld ... --counters ..."
    # what it suggests is what the game takes
    added = run("record", "add", "two.yaml", "--dealer", "Pat", "--meld", "Pat=0", "--meld", "Sam=0",
                "--counters", "Pat=100")
    assert added.code == 0, added.err


def test_a_player_seated_twice_is_named(tmp_path):
    path = tmp_path / "n.yaml"
    result = run("record", "new", str(path), "--team", "NS=Ann,Bob", "--team", "EW=Cy,Di",
                 "--seating", "Ann,Ann,Cy,Di")
    assert result.code == 2
    assert result.err == f"Error: {path}: seating: every player sits once: Ann is seated twice; Bob is missing\n"
    assert not Path(path).exists()
