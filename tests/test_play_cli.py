"""``pinochle play`` on the command line: its errors are one ``Error: …`` line and exit 2, the commands are listed,
a terminal without ``readline`` still reads lines, and ``--help`` says what the session takes."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import pytest
from clihelp import run_cli
from playhelp import events, of

from pinochle_cli.cli import play_cmd
from pinochle_cli.session.session import Session
from pinochle_cli.session.settings import Settings


@pytest.fixture(autouse=True)
def _data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINOCHLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(("args", "fragment"), [
    (["--hand", "AS KS"], "--hand is your hand at a real table: it goes with following a deal"),
    (["--follow"], "following a deal needs your cards as dealt: --hand"),
    (["--seat", "4"], "--seat 4 is not a seat of single-deck (0..3)"),
    (["-r", "three-handed", "--dealer", "3"], "--dealer 3 is not a seat of three-handed (0..2)"),
    (["--follow", "--hand", "AS AS AS"], '--hand "AS AS AS": '),
    (["--follow", "--hand", "AS ZZ"], '--hand "AS ZZ": '),
    (["--follow", "--hand", "AS KS QS"], '--hand "AS KS QS": 3 cards; a hand in single-deck has 12'),
    (["--time", "0"], "Invalid value for '--time'"),
    (["-r", "nosuch"], "no bundled ruleset named 'nosuch'"),
    (["-o", "nosuch=1"], "nosuch"),
])
def test_bad_settings_are_one_error_line(args: list[str], fragment: str) -> None:
    code, out, err = run_cli("play", *args, input="")
    assert (code, out) == (2, ""), (code, out, err)
    assert err.startswith("Error: ") and err.count("\n") == 1 and fragment in err, err


def test_a_record_of_another_game_is_refused(tmp_path: Path) -> None:
    assert run_cli("record", "new", "three.yaml", "-r", "three-handed", "--player", "A", "--player", "B",
                   "--player", "C").code == 0
    code, _, err = run_cli("play", "-r", "single-deck", "--record", "three.yaml", input="")
    assert code == 2 and "three.yaml is a record of three-handed; this session plays single-deck" in err
    # without -r the record's game is played, at its table
    code, out, _ = run_cli("play", "--record", "three.yaml", "--seed", "1", "--json", "--no-review", input="quit\n")
    assert code == 0 and events(out)[0]["names"] == ["A", "B", "C"] and events(out)[0]["ruleset"] == "three-handed"


def test_the_end_of_the_input_keeps_the_deal() -> None:
    code, out, err = run_cli("play", "--seed", "2", input="")
    assert (code, err) == (0, "")
    assert out.splitlines()[0].startswith("single-deck, deal 1 (seed 2): you are South (seat 0), partner North")
    assert out.rstrip().endswith("pinochle play --resume continues it.")


def test_help_lists_the_commands() -> None:
    found = events(run_cli("play", "--seed", "2", "--json", input="help\nshow\nscore\nquit\n").out)
    listed = of(found, "help")[0]["commands"]
    assert [c["command"] for c in listed][:2] == ["CARD", "bid N, pass"]
    assert of(found, "shown")[0]["hand"] and of(found, "scored")[0]["standing"]["deals"] == 0


def test_the_help_of_the_command() -> None:
    code, out, _ = run_cli("play", "--help")
    assert code == 0
    for option in ("--seat", "--seed", "--follow", "--hand", "--record", "--resume", "--time", "--json"):
        assert option in out
    assert "play" in run_cli("--help").out


def test_a_terminal_without_readline_reads_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def no_readline(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "readline":
            raise ImportError("no readline here")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_readline)
    monkeypatch.setattr(builtins, "input", lambda prompt="": "pass")
    session = Session.begin(Settings("single-deck", seed=2, seconds=0.2, review=False))
    assert play_cmd._terminal_reader(session)() == "pass"


def test_tab_completes_the_legal_cards() -> None:
    session = Session.begin(Settings("single-deck", seed=2, seconds=0.2, review=False))
    session.start()
    complete = play_cmd._completer(session)
    assert complete("pa", 0) == "pass" and complete("hi", 0) == "hint" and complete("zz", 0) is None
