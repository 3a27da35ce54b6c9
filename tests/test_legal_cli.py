"""`pinochle legal`: output, exit codes and every error path, exactly."""

from __future__ import annotations

import json

import pytest
from clihelp import run_cli

NOT_A_CARD = "is not a card (a rank A 10 T K Q J 9 and a suit S H D C or ♠ ♥ ♦ ♣)"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    return run_cli("legal", *args, env=env)


def run_json(*args: str) -> tuple[int, object]:
    code, out, err = run(*args, "--json")
    assert err == ""
    return code, json.loads(out)


# --------------------------------------------------------------------------- answers

@pytest.mark.parametrize(("args", "code", "expected"), [
    (["--hand", "TS JS AC", "--trick", "KS", "-t", "H"], 0, {"legal": ["TS"], "winning": "KS"}),
    (["--hand", "KH 9H", "--trick", "AS QH", "-t", "H"], 0, {"legal": ["KH"], "winning": "QH"}),
    (["--hand", "KH 9H AC", "-t", "H"], 0, {"legal": ["KH", "9H", "AC"], "winning": None}),
    (["--hand", "KH 9H", "--trick", "AS QH", "-t", "H", "--play", "9H"], 1,
     {"legal": ["KH"], "winning": "QH", "play": "9H", "allowed": False,
      "reason": "K♥ beats the Q♥ and you must beat it", "because": []}),
    (["--hand", "10s js ac", "--trick", "K♠", "-t", "hearts", "--play", "AC"], 1,
     {"legal": ["TS"], "winning": "KS", "play": "AC", "allowed": False, "reason": "you hold ♠ and must follow suit", "because": []}),
    (["--hand", "JH AD", "--trick", "AS", "-t", "H", "--play", "AD"], 1,
     {"legal": ["JH"], "winning": "AS", "play": "AD", "allowed": False, "reason": "you are void in ♠ and must trump", "because": []}),
    (["--hand", "TS JS", "--trick", "KS", "-t", "H", "--play", "AC"], 1,
     {"legal": ["TS"], "winning": "KS", "play": "AC", "allowed": False, "reason": "A♣ is not in your hand", "because": []}),
    (["--hand", "KS JS AH", "--trick", "AS QH", "-t", "H", "--play", "JS"], 0,
     {"legal": ["KS", "JS"], "winning": "QH", "play": "JS", "allowed": True,
      "reason": "you hold ♠ and you cannot beat the Q♥, so any ♠ may go",
      "because": [{"duty": "follow", "says": "you hold ♠"}, {"duty": "beat", "says": "you cannot beat the Q♥"}]}),
    (["--hand", "AS TS JS", "--trick", "KS", "-t", "H", "-r", "single-deck-small", "-o", "overtake=trump-lead",
      "--play", "JS"], 0,
     {"legal": ["AS", "TS", "JS"], "winning": "KS", "play": "JS", "allowed": True,
      "reason": "you hold ♠ and you need not beat on a plain lead, so any card may go",
      "because": [{"duty": "follow", "says": "you hold ♠"},
                  {"duty": "beat", "says": "you need not beat on a plain lead"}]}),
    (["--hand", "AS 9S 9D", "--trick", "KS", "-t", "D", "-r", "two-handed", "--phase", "stock", "--play", "9D"], 0,
     {"legal": ["AS", "9S", "9D"], "winning": "KS", "play": "9D", "allowed": True,
      "reason": "no duty limits this play: any card may be played", "because": []}),
    (["--hand", "AS 9S 9D", "--trick", "KS", "-t", "D", "-r", "two-handed", "--phase", "Play-Off", "--play", "9D"], 1,
     {"legal": ["AS"], "winning": "KS", "play": "9D", "allowed": False, "reason": "you hold ♠ and must follow suit", "because": []}),
    (["--hand", "AS TS", "--trick", "AS AS AS", "-t", "C", "-r", "double-deck"], 0,
     {"legal": ["AS", "TS"], "winning": "AS"}),
])
def test_json(args: list[str], code: int, expected: dict[str, object]) -> None:
    assert run_json(*args) == (code, expected)


def test_table_refused() -> None:
    code, out, err = run("--hand", "KH 9H", "--trick", "AS QH", "-t", "H", "--play", "9H")
    assert (code, err) == (1, "")
    assert out == ("single-deck, trump ♥ hearts\n"
                   "legal    K♥\n"
                   "winning  Q♥ (played by the 2nd player, an opponent)\n"
                   "play     9♥: not allowed — K♥ beats the Q♥ and you must beat it\n")


def test_table_partner_winning() -> None:
    code, out, err = run("--hand", "AS JS", "--trick", "KS 9S", "-t", "H")
    assert (code, err) == (0, "")
    assert out == ("single-deck, trump ♥ hearts\n"
                   "legal    A♠\n"
                   "winning  K♠ (played by the leader, your partner)\n")


def test_table_names_the_options_in_force_and_why_a_card_may_go() -> None:
    code, out, err = run("--hand", "AS QS", "--trick", "KS JS", "-t", "H", "-o", "beat-partner=no", "--play", "QS",
                         env={"PINOCHLE_RULESET": "double"})
    assert (code, err) == (0, "")
    assert out == ("double-deck (-o beat-partner=no), trump ♥ hearts\n"
                   "legal    A♠ Q♠\n"
                   "winning  K♠ (played by the leader, your partner)\n"
                   "play     Q♠: allowed — you hold ♠ and you need not beat your partner's K♠, so any card may go\n")


def test_table_leading_allowed() -> None:
    code, out, err = run("--hand", "KH AC", "-t", "H", "--play", "AC")
    assert (code, err) == (0, "")
    assert out == ("single-deck, trump ♥ hearts\n"
                   "legal    K♥ A♣\n"
                   "winning  nothing yet: you lead\n"
                   "play     A♣: allowed — the leader may play any card\n")


# --------------------------------------------------------------------------- bad input: exit 2

@pytest.mark.parametrize(("args", "message"), [
    (["--hand", "AS KS XZ", "-t", "H"], f'--hand: "XZ" {NOT_A_CARD}'),
    (["--hand", "AS", "--trick", "XS", "-t", "H"], f'--trick: "XS" {NOT_A_CARD}'),
    (["--hand", "AS", "-t", "H", "--play", "1S"], f'--play: "1S" {NOT_A_CARD}'),
    (["--hand", "", "-t", "H"], "--hand is empty: give the cards you hold"),
    (["--hand", "AS", "-t", "X"], '"X" is not a suit (use S, H, D, C, a suit name or ♠ ♥ ♦ ♣)'),
    (["--hand", "AS AS AS", "-t", "H"], "--hand: 3 copies of A♠ (AS); the single-deck pack has 2"),
    (["--hand", "KS", "--trick", "AS AS AS", "-t", "H"], "--trick: 3 copies of A♠ (AS); the single-deck pack has 2"),
    (["--hand", "AS AS", "--trick", "AS", "-t", "H"],
     "--hand and --trick together: 3 copies of A♠ (AS); the single-deck pack has 2"),
    (["--hand", "AS 9H", "-t", "H", "-r", "double-deck"], "--hand: 9♥ (9H) is not in the double-deck pack"),
    (["--hand", "AS", "--trick", "9S", "-t", "H", "-r", "double-deck"],
     "--trick: 9♠ (9S) is not in the double-deck pack"),
    (["--hand", "AS KS", "-t", "H", "-r", "double-deck", "--play", "9S"],
     "--play: 9♠ (9S) is not in the double-deck pack"),
    (["--hand", "AS AC AD AH TS TC TD TH KS KC KD KH QS", "-t", "H"],
     "--hand has 13 cards; a hand in single-deck has at most 12"),
    (["--hand", "AS", "--trick", "KS QS JS 9S", "-t", "H"],
     "--trick has 4 cards: with 4 players that trick is complete and nobody is left to play to it"),
    (["--hand", "AS", "--trick", "KS QS", "-t", "H", "-r", "two-handed", "--phase", "stock"],
     "--trick has 2 cards: with 2 players that trick is complete and nobody is left to play to it"),
    (["--hand", "AS", "--trick", "KS", "-t", "H", "-r", "two-handed"],
     "two-handed has a stock: give --phase stock or --phase play-off"),
    (["--hand", "AS", "--trick", "KS", "-t", "H", "--phase", "play-off"], "single-deck has no stock: --phase does not apply"),
    (["--hand", "AS", "-t", "H", "-r", "no-such-game"],
     "no bundled ruleset named 'no-such-game' and no such file "
     "(bundled: two-handed, single-deck, single-deck-small, double-deck, three-handed)"),
    (["--hand", "AS", "-t", "H", "-o", "overtake=never", "-r", "single-deck-small"],
     "option overtake='never' is not a choice (choices: always, trump-lead)"),
])
def test_bad_input(args: list[str], message: str) -> None:
    assert run(*args) == (2, "", f"Error: {message}\n")
    assert run(*args, "--json") == (2, "", f"Error: {message}\n")


@pytest.mark.parametrize(("args", "message"), [
    (["-t", "H"], "Error: Missing option '--hand'."),
    (["--hand", "AS"], "Error: Missing option '-t' / '--trump'."),
    (["--hand", "AS", "-t", "H", "-r", "two-handed", "--phase", "late"],
     "Error: Invalid value for '--phase': 'late' is not one of 'stock', 'play-off'."),
])
def test_usage_errors(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert (code, out) == (2, "")
    assert err == f"{message}\n"  # one line: no usage text before it
