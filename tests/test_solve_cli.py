"""``pinochle solve``: the drawing, the JSON and every refusal."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import run_cli, run_cli_json

from pinochle_cli.cli import solve_cmd
from pinochle_cli.solver import solve as solver_module

ROOT = Path(__file__).resolve().parent.parent

POSITION = ["-t", "H", "--hand", "9H JD 9C", "--hand", "9D JC 9C", "--hand", "AS JS 10H", "--hand", "QH AC 10C"]


def test_the_hands_are_drawn_with_the_best_card_marked() -> None:
    code, out, err = run_cli("solve", *POSITION)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "single-deck, trump ♥ hearts; seat 0 to play",
        ">  seat 0  us    9♥* J♦ 9♣",
        "   seat 1  them  9♦ J♣ 9♣",
        "   seat 2  us    A♠ J♠ 10♥",
        "   seat 3  them  Q♥ A♣ 10♣",
        "Perfect play: us (seats 0, 2) take 50 of the 50 counters left.",
        "card      us after it",
        "------  -------------",
        "9♥ *               50",
        "J♦                 30",
        "9♣                 20",
    ]


def test_json_gives_every_legal_card() -> None:
    assert run_cli_json("solve", *POSITION) == {
        "value": 50, "to_play": 0,
        "plays": [{"card": "9H", "value": 50}, {"card": "JD", "value": 30}, {"card": "9C", "value": 20}]}


def test_a_trick_in_progress() -> None:
    data = run_cli_json("solve", "-t", "H", "--hand", "AS 10H KD", "--hand", "KS 9H", "--hand", "QS AH 9C",
                        "--hand", "JS KH JD", "--leader", "1", "--trick", "QD")
    assert data == {"value": 70, "to_play": 2, "plays": [{"card": "AH", "value": 70}]}


def test_two_handed_king_and_queen_are_not_one_move() -> None:
    data = run_cli_json("solve", "-r", "two-handed", "-t", "S", "--hand", "KH QH", "--hand", "AH 9H")
    assert data == {"value": 14, "to_play": 0, "plays": [{"card": "KH", "value": 13}, {"card": "QH", "value": 14}]}


@pytest.mark.parametrize(("args", "message"), [
    (["-t", "S", "--hand", "AS", "--hand", "KS", "--hand", "QS"],
     "3 --hand given; single-deck has 4 players: give one --hand per seat, seat 0 first"),
    (["-t", "S", "--hand", "AS 10H", "--hand", "KS 9H QD", "--hand", "QS AH", "--hand", "JS KH"],
     "the hands hold 2, 3, 2, 2 cards (seat 0 first): they must be the same size, one card fewer for each player "
     "who already played to the trick"),
    (["-t", "S", "--hand", "AS AS", "--hand", "AS 9H", "--hand", "QS AH", "--hand", "JS KH"],
     "the hands and the trick together: 3 copies of A♠ (AS); the single-deck pack has 2"),
    (["-t", "S", "--hand", "AS", "--hand", "KS", "--hand", "QS", "--hand", "JS", "--leader", "4"],
     "--leader 4 is not a seat 0..3"),
    (["-t", "S", "--hand", "AS", "--hand", "KS", "--hand", "QS", "--hand", "JX"],
     '--hand 3 (seat 3): "JX" is not a card (a rank A 10 T K Q J 9 and a suit S H D C or ♠ ♥ ♦ ♣)'),
    (["-t", "S", "--hand", "AS", "--hand", "KH", "--hand", "QS 9C", "--hand", "JS 9D", "--trick", "9H 9S"],
     "the trick: seat 1 played 9♠ — must follow suit in ♥"),
    (["-t", "S", "--hand", "AS", "--hand", "KS", "--hand", "QS", "--hand", "JS", "--trick", "9X"],
     '--trick: "9X" is not a card (a rank A 10 T K Q J 9 and a suit S H D C or ♠ ♥ ♦ ♣)'),
    (["-t", "S", "--hand", "", "--hand", "", "--hand", "", "--hand", ""],
     "the hands are empty: there is nothing left to play"),
    (["-t", "X", "--hand", "AS", "--hand", "KS", "--hand", "QS", "--hand", "JS"],
     '"X" is not a suit (use S, H, D, C, a suit name or ♠ ♥ ♦ ♣)'),
    (["--hand", "AS", "--hand", "KS", "--hand", "QS", "--hand", "JS"], "Missing option '-t' / '--trump'."),
])
def test_bad_positions_are_refused(args: list[str], message: str) -> None:
    assert run_cli("solve", *args) == (2, "", f"Error: {message}\n")


# a whole double-deck deal (deal_cards, seed 1): 20 tricks left, minutes of search
BIG = ["-r", "double-deck", "-t", "H",
       "--hand", "TS QS QS JS JS AH TH KH QH QH JH TD QD QD JD AC AC TC KC QC",
       "--hand", "AS KS JS AH TH TH KH QH JH AD TD KD KD QD AC TC KC KC QC JC",
       "--hand", "AS AS TS TS TS KS QS QS JS AH AH KH KH JH TD JD AC TC TC JC",
       "--hand", "AS KS KS TH QH JH AD AD AD TD KD KD QD JD JD KC QC QC JC JC"]
STOPPED = ("Error: stopped after 0.5 s of CPU: this position has 20 tricks left; 12 tricks left usually solve in "
           "under a second\n")


def test_a_position_too_big_for_the_time_limit_stops_and_says_so() -> None:
    assert run_cli("solve", *BIG, "--time-limit", "0.5") == (2, "", STOPPED)
    assert run_cli("solve", *BIG, "--time-limit", "0.5", "--json") == (2, "", STOPPED)


@pytest.mark.parametrize("value", ["inf", "nan", "1e308", "1e15", "86400.5", "0", "-1"])
def test_a_time_limit_out_of_range_is_one_line(value: str) -> None:
    shown = {"0": "0.0", "-1": "-1.0", "1e308": "1e+308", "1e15": "1000000000000000.0"}.get(value, value)
    assert run_cli("solve", *POSITION, "--time-limit", value) == (
        2, "", f"Error: Invalid value for '--time-limit': {shown} is not in the range 0<x<=86400.\n")


def test_the_command_line_and_the_library_have_one_longest_time_limit() -> None:
    assert solve_cmd.MAX_TIME_LIMIT == solver_module.MAX_TIME_LIMIT


def _solve_big(stderr_tty: bool) -> tuple[int, str]:
    """``pinochle solve BIG --time-limit 1`` in a process whose stderr is a pseudo-terminal or a pipe."""
    args = [sys.executable, "-m", "pinochle_cli", "solve", *BIG, "--time-limit", "1"]
    env = {**os.environ, "COLUMNS": "200"}
    if not stderr_tty:
        done = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
        return done.returncode, done.stderr
    leader, follower = pty.openpty()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=follower, env=env, cwd=ROOT)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    return proc.wait(timeout=300), seen.decode()


def test_the_progress_line_shows_on_a_terminal_only() -> None:
    code, err = _solve_big(stderr_tty=True)
    assert code == 2
    assert "solving (card 1 of " in err and " of 1 s of CPU, " in err and "million nodes" in err
    # the line is wiped before the error
    assert err.rstrip().endswith(STOPPED.replace("0.5 s", "1 s").rstrip())
    assert _solve_big(stderr_tty=False) == (2, STOPPED.replace("0.5 s", "1 s"))
