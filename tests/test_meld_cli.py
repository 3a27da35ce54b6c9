"""`pinochle meld`: tables, the JSON contract, declarations and every error path."""

from __future__ import annotations

from typing import Any

import pytest
from clihelp import run_cli, run_cli_json
from rulesethelp import EditRuleset


def run(*args: str) -> tuple[int, str, str]:
    return run_cli("meld", *args)


def run_json(*args: str) -> dict[str, Any]:
    data = run_cli_json("meld", *args)
    assert isinstance(data, dict)
    return data


def test_table_with_trump() -> None:
    code, out, err = run("AH TH KH QH JH KH 9H", "-t", "H")
    assert (code, err) == (0, "")
    assert out == (
        "single-deck, trump ♥ hearts: A♥ 10♥ K♥ K♥ Q♥ J♥ 9♥\n"
        "combination         cards                 points\n"
        "------------------  ------------------  --------\n"
        "run and extra king  A♥ 10♥ K♥ K♥ Q♥ J♥       190\n"
        "dix                 9♥                        10\n"
        "total                                        200\n")


def test_table_for_every_trump() -> None:
    code, out, err = run("AH", "TH", "KH", "QH", "JH", "-r", "two-handed")  # several arguments are one hand
    assert (code, err) == (0, "")
    assert out == (
        "two-handed: A♥ 10♥ K♥ Q♥ J♥\n"
        "trump         total  melds\n"
        "----------  -------  -----------\n"
        "♠ spades         20  marriage 20\n"
        "♥ hearts *      150  run 150\n"
        "♦ diamonds       20  marriage 20\n"
        "♣ clubs          20  marriage 20\n"
        "best: ♥ hearts (150)\n")


def test_json_with_trump_is_the_contract() -> None:
    data = run_json("QS JD, AH TH KH QH JH, KH", "-t", "hearts")
    assert data == {
        "ruleset": "single-deck", "trump": "H", "hand": ["QS", "AH", "TH", "KH", "KH", "QH", "JH", "JD"],
        "melds": [
            {"name": "run and extra king", "cards": ["AH", "TH", "KH", "KH", "QH", "JH"], "points": 190,
             "copies": 1, "class": "family"},
            {"name": "pinochle", "cards": ["QS", "JD"], "points": 40, "copies": 1, "class": "pinochles"},
        ],
        "total": 230,
    }


def test_json_double_is_one_item_with_copies() -> None:
    data = run_json("JD JD QS QS", "-t", "H")
    assert data["melds"] == [{"name": "pinochle", "cards": ["QS", "QS", "JD", "JD"], "points": 300, "copies": 2,
                              "class": "pinochles"}]
    assert data["total"] == 300


def test_json_by_trump_and_best() -> None:
    data = run_json("AH TH KH QH JH")
    assert set(data) == {"ruleset", "hand", "by_trump", "best"}
    assert {s: v["total"] for s, v in data["by_trump"].items()} == {"S": 20, "H": 150, "D": 20, "C": 20}
    assert data["by_trump"]["H"]["melds"][0]["name"] == "run"
    assert data["best"] == "H"


def test_best_ties_go_to_the_first_suit() -> None:
    assert run_json("AS AH AD AC")["best"] == "S"


def test_small_units_example() -> None:
    data = run_json("AD TD KD QD JD QC QH QS KH 9D", "-t", "D", "-r", "single-deck-small")
    assert data["total"] == 28
    assert [(m["name"], m["points"]) for m in data["melds"]] == [
        ("run", 15), ("marriage", 2), ("dix", 1), ("queens around", 6), ("pinochle", 4)]


def test_options_change_the_meld() -> None:
    args = ("AH TH KH QH JH KH", "-t", "H", "-r", "single-deck-small")
    assert run_json(*args)["total"] == 15
    assert run_json(*args, "-o", "run-extra=4")["total"] == 19


def test_a_house_rules_file(edited_ruleset: EditRuleset) -> None:
    house = edited_ruleset("single-deck", ("name: single-deck\n", "name: house\n"), (
        "  pinochle:       {class: pinochles",
        "  tens around:    {class: arounds, cards: [TS, TH, TD, TC], points: 50}\n  pinochle:       {class: pinochles",
    )).path
    data = run_json("TS TH TD TC", "-t", "S", "-r", str(house))
    assert (data["ruleset"], data["total"]) == ("house", 50)


def test_redeal_is_mentioned_for_a_full_hand_that_may_call_one() -> None:
    hand = "9S 9S 9H 9D 9C KS QS JD JD QC KH QH"
    data = run_json(hand, "-t", "S")
    assert data["may_redeal"] is True
    code, out, _ = run(hand, "-t", "S")
    assert code == 0 and out.endswith("This hand may call a redeal (at least 5 × 9, no A).\n")
    assert "may_redeal" not in run_json("9S 9S 9H 9D 9C", "-t", "S")  # not a full hand
    assert "may_redeal" not in run_json("9S 9S 9H 9D 9C KS QS JD JD QC KH AH", "-t", "S")  # holds an ace


def test_declare_allowed_json() -> None:
    data = run_json("QS QS JD JD KS", "-r", "two-handed", "-t", "S", "--declare", "QS JD", "--declared", "QS JD")
    assert {k: data[k] for k in ("valid", "name", "points", "reason")} == {
        "valid": True, "name": "pinochle", "points": 40, "reason": "allowed: pinochle scores 40"}


def test_declare_refused_json_exits_zero() -> None:
    data = run_json("QS QS JD JD KS", "-r", "two-handed", "-t", "S", "--declare", "QS QS JD JD",
                    "--declared", "QS JD")
    assert (data["valid"], data["name"], data["points"]) == (False, "pinochle", 0)
    assert data["reason"].startswith("a double pinochle needs both copies declared before any single pinochle")


def test_declare_table() -> None:
    code, out, err = run("AS TS KS QS JS", "-r", "two-handed", "-t", "S", "--declare", "KS QS",
                         "--declared", "AS TS KS QS JS")
    assert (code, err) == (0, "")
    assert out == (
        "two-handed, trump ♠ spades\n"
        "declaration  K♠ Q♠\n"
        "allowed      no\n"
        "combination  trump marriage\n"
        "points       0\n"
        "reason       K♠ already scored in the family class (run, declaration 1)\n")


@pytest.mark.parametrize(("args", "message"), [
    (("AS KS XZ", "-t", "S"), '"XZ" is not a card (a rank A 10 T K Q J 9 and a suit S H D C or ♠ ♥ ♦ ♣)'),
    (("AS AS AS", "-t", "S"), "3 copies of A♠ (AS); the single-deck pack has 2"),
    (("9H", "-r", "double-deck"), "9♥ (9H) is not in the double-deck pack"),
    (("AS AS TS TS KS KS QS QS JS JS 9S 9S AH", "-t", "S"),
     "13 cards given (A♠ A♠ 10♠ 10♠ K♠ K♠ Q♠ Q♠ J♠ J♠ 9♠ 9♠ A♥); a single-deck hand holds at most 12"),
    (("AS", "-t", "X"), '"X" is not a suit (use S, H, D, C, a suit name or ♠ ♥ ♦ ♣)'),
    (("AS", "-r", "no-such-game"), None),
    (("AS", "-o", "nope=1"), "single-deck has no option 'nope' (its options: target, exchange, must-trump, "
                              "beat-partner, last-trick)"),
    (("",), "no cards given in '': CARDS is the hand, e.g. \"AH 10H KH QH JH\""),
    (("KS QS", "--declare", "KS QS"), "--declare needs -t/--trump (the trump suit)"),
    (("KS QS", "-t", "S", "--declared", "KS QS"), "--declared needs --declare (the declaration to check)"),
    (("KS QS", "-t", "S", "--declare", "KS XS"),
     '--declare: "XS" is not a card (a rank A 10 T K Q J 9 and a suit S H D C or ♠ ♥ ♦ ♣)'),
    (("KS QS", "-t", "S", "--declare", "9D 9D 9D"), "--declare: 3 copies of 9♦ (9D); the single-deck pack has 2"),
    (("KS QS", "-t", "S", "-r", "two-handed", "--declare", "KS QS", "--declared", "KS QD"),
     "--declared: earlier declaration 1 (K♠ Q♦): not a combination of the two-handed meld table"),
    (("KS QS", "-t", "S", "-r", "two-handed", "--declare", "KS QS", "--declared", "KS QS", "--declared", "9Z"),
     '--declared 2: "9Z" is not a card (a rank A 10 T K Q J 9 and a suit S H D C or ♠ ♥ ♦ ♣)'),
])
def test_bad_input_exits_2_with_one_error_line(args: tuple[str, ...], message: str | None) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and err.count("\n") == 1 and "Traceback" not in err
    if message is not None:
        assert err == f"Error: {message}\n"
    else:
        assert "no-such-game" in err


def test_by_trump_marks_suits_the_bidder_may_not_name() -> None:
    hand = "AH AH TH KH KH QH QH JH JH AS AS KS QS AD KD QD AC TC JC JD"
    data = run_json(hand, "-r", "double-deck")
    assert {s: v["eligible"] for s, v in data["by_trump"].items()} == {"S": True, "H": True, "D": True, "C": False}
    assert data["by_trump"]["C"]["total"] == 22 and data["best"] == "H"
    code, out, _ = run(hand, "-r", "double-deck")
    assert code == 0
    assert out.splitlines()[-1] == "(†) the bidder may not name this suit: naming it takes the K and Q of the suit"
    assert "♣ clubs (†)" in out
    assert all(v["eligible"] for v in run_json("AS KS", "-r", "single-deck")["by_trump"].values())
