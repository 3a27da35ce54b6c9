"""`pinochle pass`: the JSON contract, the answer's lines, and every error path (exit 2, one message)."""

from __future__ import annotations

import pytest
from clihelp import run_cli, run_cli_json

PARTNER = "AH 10H KH 9H AS AC AD QS 9S JD 9D 9C"
FAST = ["-o", "exchange=3", "--samples", "200", "--seed", "2", "--workers", "1"]


def test_json_shape() -> None:
    data = run_cli_json("pass", PARTNER, "-t", "H", "--bid", "300", "--top", "2", *FAST)
    assert isinstance(data, dict)
    assert (data["ruleset"], data["role"], data["trump"], data["bid"], data["seed"]) == ("single-deck", "partner",
                                                                                        "H", 300, 2)
    assert data["candidates"] == 220 and data["rounds"] == [{"candidates": 220, "deals": 200}]
    assert len(data["ranked"]) == 2 and data["heuristic"]["heuristic"] is True
    for j in data["ranked"]:
        assert len(j["pass"]) == 3 and j["deals"] == 200
        assert 0 <= j["ci95"][0] <= j["p_make"] <= j["ci95"][1] <= 1
        assert set(j["words"]) == {"kept_meld", "kept", "passed_whole", "broken", "trumps_sent", "top_cards_sent",
                                   "counters_sent", "voids"}
    assert data["ranked"][0]["points_mean"] >= data["ranked"][1]["points_mean"]
    assert isinstance(data["within_noise"], bool)


def test_answer_names_the_best_and_the_heuristic() -> None:
    code, out, err = run_cli("pass", PARTNER, "-t", "H", "--bid", "300", *FAST)
    assert code == 0 and err == ""
    assert "220 passes of 3 on common sampled deals (seed 2)" in out
    lines = out.splitlines()
    best = next(i for i, line in enumerate(lines) if line.startswith("Best pass: "))
    assert "(h)" in out and lines[best + 1] == "Why:" and all(line.startswith("  - ") for line in lines[best + 2:])


def test_bidder_with_received_cards() -> None:
    data = run_cli_json("pass", "AH 10H KH QH JH AH 10H KH QH JH JS 9C", "-t", "H", "--bid", "1700", "--as", "bidder",
                        "--received", "9S AS 9D AC", "--samples", "200", "--seed", "1", "--workers", "1")
    assert isinstance(data, dict)
    assert data["role"] == "bidder" and sorted(data["received"]) == sorted(["9S", "AS", "9D", "AC"])
    assert not data["ranked"][0]["words"]["trumps_sent"]


@pytest.mark.parametrize(("args", "words"), [
    (["-r", "two-handed"], "the two-handed game has no pass"),
    (["-r", "three-handed"], "the three-handed game has no pass"),
    (["-o", "exchange=0"], "the single-deck game with exchange=0 has no pass"),
    (["--received", "AS"], "--received needs --as bidder"),
    (["--as", "bidder", "--received", "AS"], "received 1 cards (A♠); the pass is 4 cards"),
    (["--as", "bidder"], "the hand has 12 cards"),
    (["--bid", "255"], "--bid 255: not a bid of single-deck"),
    (["--bid", str(10**30)], "more than any single-deck deal can score"),
    (["--top", "0"], "--top"),
    (["--samples", "0"], "--samples"),
    (["--as", "nobody"], "--as"),
    (["-t", "X"], "X"),
    (["--received", "ZZ", "--as", "bidder"], "--received"),
])
def test_refusals(args: list[str], words: str) -> None:
    code, out, err = run_cli("pass", PARTNER, "-t", "H", "--bid", "300", *args)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and words in err and len(err.strip().splitlines()) == 1


def test_double_deck_refuses() -> None:
    hand = "AH 10H KH QH JH AS AD AC KS QS JD AH AH AS 10S 10D 10C KC QC JC"
    code, _, err = run_cli("pass", hand, "-t", "H", "--bid", "60", "-r", "double-deck")
    assert code == 2 and "the double-deck game has no pass" in err


def test_hand_of_the_wrong_size() -> None:
    code, _, err = run_cli("pass", "AH 10H KH", "-t", "H", "--bid", "300")
    assert code == 2 and "the partner's hand has exactly 12" in err
