"""`pinochle estimate`: the JSON contract, the tables, and every error path (exit 2, one message)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pinochle_cli.cli import cli

HAND = "AH TH KH KH QH JH AS AD AC KS QD 9C"
JUNK = "9S 9S JS JS 9H 9H JH 9D 9D 9C 9C JC"
DOUBLE = "AH AH TH KH KH QH QH JH JH AS AS AD KD QD AC TC KC QC JS JS"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["estimate", *args], env={"PINOCHLE_RULESET": ""})
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> dict:  # type: ignore[type-arg]
    code, out, err = run(*args, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_json_shape() -> None:
    data = run_json(HAND, "--samples", "200", "--seed", "4", "--workers", "1")
    assert {"ruleset", "hand", "samples", "seed", "suits", "best"} <= set(data)
    assert data["ruleset"] == "single-deck"
    assert data["hand"] == ["AS", "KS", "AH", "TH", "KH", "KH", "QH", "JH", "AD", "QD", "AC", "9C"]
    assert (data["samples"], data["seed"]) == (200, 4)
    assert [s["trump"] for s in data["suits"]] == ["S", "H", "D", "C"]
    for s in data["suits"]:
        assert set(s) == {"trump", "meld_mean", "counters_mean", "score_mean", "bids", "recommended_bid"}
        assert s["score_mean"] == pytest.approx(s["meld_mean"] + s["counters_mean"], abs=2e-4)
        assert s["bids"][0]["bid"] == 250
        for b in s["bids"]:
            assert set(b) == {"bid", "p_make", "ci95"}
            lo, hi = b["ci95"]
            assert 0 <= lo <= b["p_make"] <= hi <= 1
        assert s["recommended_bid"] is None or isinstance(s["recommended_bid"], int)
    assert data["best"] == "H"


def test_same_seed_same_json_whatever_the_workers() -> None:
    args = (HAND, "--samples", "700", "--seed", "9")
    one = run_json(*args, "--workers", "1")
    two = run_json(*args, "--workers", "2")
    assert one == two


def test_seed_is_drawn_and_reported_when_not_given() -> None:
    data = run_json(HAND, "--samples", "20", "--workers", "1", "-t", "H")
    assert isinstance(data["seed"], int) and data["seed"] >= 0
    again = run_json(HAND, "--samples", "20", "--workers", "1", "-t", "H", "--seed", str(data["seed"]))
    assert again == data


def test_trump_restricts_to_one_suit_and_options_apply() -> None:
    data = run_json(HAND, "-t", "hearts", "-r", "small", "-o", "exchange=0", "--samples", "100", "--seed", "1")
    assert [s["trump"] for s in data["suits"]] == ["H"]
    assert data["ruleset"] == "single-deck-small"
    assert data["suits"][0]["bids"][0]["bid"] == 25


def test_double_deck_names_only_suits_with_a_marriage() -> None:
    data = run_json(DOUBLE, "-r", "double-deck", "--samples", "100", "--seed", "1", "--workers", "1")
    assert [s["trump"] for s in data["suits"]] == ["H", "D", "C"]
    assert [b["bid"] for b in data["suits"][0]["bids"][:13]] == [50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 65, 70]


def test_no_suit_to_name_is_an_empty_answer_not_an_error() -> None:
    data = run_json(JUNK, "-r", "single-deck-small", "-o", "marriage-required=yes", "--seed", "1")
    assert (data["suits"], data["best"]) == ([], None)
    assert "No suit may be named" in data["note"]
    code, out, err = run(JUNK, "-r", "single-deck-small", "-o", "marriage-required=yes", "--seed", "1")
    assert (code, err) == (0, "")
    assert "No suit may be named as trump with this hand (the king and queen of a suit are needed to name it)" in out


def test_human_output() -> None:
    code, out, err = run(HAND, "-t", "H", "--samples", "100", "--seed", "2", "--workers", "1")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "single-deck: A♠ K♠ A♥ 10♥ K♥ K♥ Q♥ J♥ A♦ Q♦ A♣ 9♣"
    assert lines[1] == "100 sampled deals, seed 2"
    assert lines[3].startswith("Trump ♥ hearts: meld ")
    assert "bid    P(make)" in lines[4]
    assert any(line.startswith("Recommended bid (made at least 75.0 % of the time): ") for line in lines)
    assert lines[-1].startswith("Best suit: ♥ hearts")


@pytest.mark.parametrize(("args", "message"), [
    ((HAND, "-r", "two-handed"),
     "Error: the two-handed game has no auction (trump is turned up from the stock): there is no bid to estimate\n"),
    (("AH TH KH",), "Error: the hand has 3 cards (A♥ 10♥ K♥); a single-deck hand has exactly 12\n"),
    ((HAND.replace("9C", "ZZ"),), 'Error: "ZZ" is not a card (a rank A 10 T K Q J 9 and a suit S H D C or ♠ ♥ ♦ ♣)\n'),
    ((DOUBLE.replace("JS JS", "JS 9S"), "-r", "double-deck"), "Error: 9♠ (9S) is not in the double-deck pack\n"),
    ((DOUBLE, "-r", "double-deck", "-t", "S"),
     "Error: trump S: the bidder may name only a suit in which they hold the king and queen, and this hand has "
     "no K♠ Q♠ pair\n"),
    ((HAND, "-t", "X"), 'Error: "X" is not a suit (use S, H, D, C, a suit name or ♠ ♥ ♦ ♣)\n'),
])
def test_bad_input_exits_2_with_one_message(args: tuple[str, ...], message: str) -> None:
    code, out, err = run(*args)
    assert (code, out, err) == (2, "", message)


@pytest.mark.parametrize("args", [
    ("--samples", "0"), ("--precision", "0"), ("--precision", "0.7"), ("--confidence", "1.5"),
    ("--workers", "0"), ("--seed", "-1"),
])
def test_bad_options_are_usage_errors(args: tuple[str, ...]) -> None:
    code, out, err = run(HAND, *args)
    assert code == 2 and out == ""
    assert "Invalid value" in err and "Traceback" not in err


def test_precision_option_reports_the_samples_it_took() -> None:
    data = run_json(HAND, "-t", "H", "--samples", "100", "--precision", "0.06", "--seed", "3", "--workers", "1")
    assert data["samples"] > 100 and data["precision"] == 0.06 and data["precision_reached"] is True
    assert all((b["ci95"][1] - b["ci95"][0]) / 2 <= 0.06 + 1e-4 for b in data["suits"][0]["bids"])
