"""`pinochle estimate`: the JSON contract, the tables, and every error path (exit 2, one message)."""

from __future__ import annotations

from typing import Any

import pytest
from clihelp import run_cli, run_cli_json

HAND = "AH TH KH KH QH JH AS AD AC KS QD 9C"
JUNK = "9S 9S JS JS 9H 9H JH 9D 9D 9C 9C JC"
DOUBLE = "AH AH TH KH KH QH QH JH JH AS AS AD KD QD AC TC KC QC JS JS"


def run(*args: str) -> tuple[int, str, str]:
    return run_cli("estimate", *args)


def run_json(*args: str) -> dict[str, Any]:
    data = run_cli_json("estimate", *args)
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


def test_the_default_seed_comes_from_the_question() -> None:
    """No --seed: the same hand, game and options give the same answer on every run; another question
    gets another seed; --seed still chooses."""
    data = run_json(HAND, "--samples", "20", "--workers", "1", "-t", "H")
    assert isinstance(data["seed"], int) and data["seed"] >= 0
    assert run_json(" ".join(reversed(HAND.split())), "--samples", "20", "--workers", "1", "-t", "H") == data
    again = run_json(HAND, "--samples", "20", "--workers", "1", "-t", "H", "--seed", str(data["seed"]))
    assert again == data
    seeds = {run_json(HAND, "--samples", "1", "--workers", "1", *extra)["seed"]
             for extra in [("-t", "H"), ("-t", "S"), ("-t", "H", "-o", "exchange=3"), ("-t", "H", "-r", "small")]}
    assert len(seeds) == 4
    assert run_json(HAND, "--samples", "1", "--seed", "5", "-t", "H")["seed"] == 5


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
    assert "No suit may be named as trump with this hand (naming a suit takes the K and Q of the suit)" in out


SMALL = (HAND, "-r", "single-deck-small", "--samples", "40", "--seed", "7", "--workers", "1")


def test_human_output_exact() -> None:
    code, out, err = run(*SMALL, "-t", "H", "--ladder")
    assert (code, err) == (0, "")
    assert out == (
        "single-deck-small: A♠ K♠ A♥ 10♥ K♥ K♥ Q♥ J♥ A♦ Q♦ A♣ 9♣\n"
        "40 sampled deals, seed 7\n"
        "\n"
        "best    trump       meld in hand    side's meld    counters    score    bid    P(make)    95 % interval\n"
        "------  --------  --------------  -------------  ----------  -------  -----  ---------  ---------------\n"
        "*       ♥ hearts              25           26.8        21.9     48.7     44     87.5 %  73.9 % – 94.5 %\n"
        "meld in hand: before the pass; side's meld, counters, score: means of the bidding side after it\n"
        "bid: the highest made at least 75.0 % of the time\n"
        "Best suit (*): ♥ hearts, bid up to 44: made 88 times in 100 (95 % interval 73.9 % – 94.5 %)\n"
        "Why:\n"
        "  - the rule: the highest bid made at least 75 % of the time — 44 in ♥ hearts is made 88 % of the time\n"
        "  - in ♥ hearts the side melds 27 and takes 22 in counters on average\n"
        "\n"
        "Trump ♥ hearts (best): recommended bid 44\n"
        "  bid    P(make)     95 % interval  advice\n"
        "-----  ---------  ----------------  ----------------\n"
        "25–38   ≥ 99.5 %  91.2 % – 100.0 %\n"
        "39–40     95.0 %   83.5 % – 98.6 %\n"
        "41–43     92.5 %   80.1 % – 97.4 %\n"
        "   44     87.5 %   73.9 % – 94.5 %  ← bid up to here\n"
        "   45     72.5 %   57.2 % – 83.9 %\n"
        "   46     65.0 %   49.5 % – 77.9 %\n"
        "   47     57.5 %   42.2 % – 71.5 %\n"
        "   48     52.5 %   37.5 % – 67.1 %\n"
        "   49     50.0 %   35.2 % – 64.8 %\n"
        "   50     42.5 %   28.5 % – 57.8 %\n"
        "   51     40.0 %   26.3 % – 55.4 %\n"
        "52–53     32.5 %   20.1 % – 48.0 %\n"
        "   54     20.0 %   10.5 % – 34.8 %\n"
        "55–56     15.0 %    7.1 % – 29.1 %\n"
        "   57     12.5 %    5.5 % – 26.1 %\n"
        "   58      5.0 %    1.4 % – 16.5 %\n"
        "59–60      2.5 %    0.4 % – 12.9 %\n"
        "   61      0.0 %     0.0 % – 8.8 %\n"
    )
    # the collapsed rows stand for exactly the bids of the JSON ladder, which stops at the first below 1 %
    bids = run_json(*SMALL, "-t", "H")["suits"][0]["bids"]
    assert [b["bid"] for b in bids] == list(range(25, 62))
    assert all(b["p_make"] >= 0.995 for b in bids[:14]) and bids[14]["p_make"] < 0.995
    assert [b["p_make"] < 0.01 for b in bids] == [False] * 36 + [True]


SUMMARY = (
    "single-deck-small: A♠ K♠ A♥ 10♥ K♥ K♥ Q♥ J♥ A♦ Q♦ A♣ 9♣\n"
    "40 sampled deals, seed 7\n"
    "\n"
    "best    trump         meld in hand    side's meld    counters    score    bid    P(make)    95 % interval\n"
    "------  ----------  --------------  -------------  ----------  -------  -----  ---------  ---------------\n"
    "        ♠ spades                12           18.8        18.9     37.6     32     77.5 %  62.5 % – 87.7 %\n"
    "*       ♥ hearts                25           26.8        21.9     48.7     44     87.5 %  73.9 % – 94.5 %\n"
    "        ♦ diamonds              12           17.5        17.4     35.0     29     80.0 %  65.2 % – 89.5 %\n"
    "        ♣ clubs                 13           18.2        16.2     34.4     31     75.0 %  59.8 % – 85.8 %\n"
    "meld in hand: before the pass; side's meld, counters, score: means of the bidding side after it\n"
    "bid: the highest made at least 75.0 % of the time\n"
    "Best suit (*): ♥ hearts, bid up to 44: made 88 times in 100 (95 % interval 73.9 % – 94.5 %)\n"
    "Why:\n"
    "  - the rule: the highest bid made at least 75 % of the time — 44 in ♥ hearts is made 88 % of the time\n"
    "  - in ♥ hearts the side melds 27 and takes 22 in counters on average\n"
)


@pytest.mark.parametrize("extra", [(), ("--brief",)])
def test_the_summary_is_the_default(extra: tuple[str, ...]) -> None:
    """The summary alone by default; --brief (its old switch) still accepted."""
    assert run(*SMALL, *extra) == (0, SUMMARY, "")


def test_ladder_adds_every_suits_table() -> None:
    code, out, err = run(*SMALL, "--ladder")
    assert (code, err) == (0, "")
    assert out.startswith(SUMMARY + "\nTrump ♠ spades: recommended bid 32\n")
    assert [line for line in out.splitlines() if line.startswith("Trump ")] == [
        "Trump ♠ spades: recommended bid 32", "Trump ♥ hearts (best): recommended bid 44",
        "Trump ♦ diamonds: recommended bid 29", "Trump ♣ clubs: recommended bid 31"]


def test_the_header_names_the_options_in_force() -> None:
    code, out, _ = run(*SMALL, "-o", "exchange=3", "-t", "H")
    assert code == 0 and out.startswith("single-deck-small (-o exchange=3): A♠ K♠")


def test_json_is_untouched_by_brief_and_ladder() -> None:
    assert run_json(*SMALL, "--brief") == run_json(*SMALL) == run_json(*SMALL, "--ladder")


def test_no_recommended_bid() -> None:
    code, out, err = run(*SMALL, "-t", "S", "--confidence", "1", "--ladder")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[5] == "*       ♠ spades              12           18.8        18.9     37.6   none"
    assert lines[8] == "Best suit (*): ♠ spades: no bid was made often enough"
    assert lines[9:11] == ["Why:", "  - no bid is made 100 % of the time: even 25 in ♠ spades is made 98 % of the time"]
    assert lines[13:17] == ["Trump ♠ spades (best): recommended bid none", "  bid    P(make)    95 % interval  advice",
                            "-----  ---------  ---------------  --------", "   25     97.5 %  87.1 % – 99.6 %"]


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


# (made counts out of 1000 for bids 250, 260, …; recommended bid) → the rows' bid labels
LADDERS = [
    ([1000, 999, 995, 990, 500, 5], 260, ["250", "260", "270", "280", "290", "300"]),  # recommended splits the run
    ([1000, 999, 995, 990, 500, 5], 280, ["250–270", "280", "290", "300"]),
    ([1000, 994, 994, 500, 5], 260, ["250", "260", "270", "280", "290"]),  # a run of one sure bid stays a row
    ([1000, 1000, 700, 700, 700, 5], None, ["250–260", "270–290", "300"]),
    ([800, 700, 700, 700, 5], 270, ["250", "260", "270", "280", "290"]),  # the recommended bid keeps its own row
    ([800, 700, 700, 700, 5], 250, ["250", "260–280", "290"]),
]


@pytest.mark.parametrize(("made", "recommended", "labels"), LADDERS)
def test_ladder_rows(made: list[int], recommended: int | None, labels: list[str]) -> None:
    from pinochle_cli.cards import Suit
    from pinochle_cli.cli.estimate_view import _suit_table
    from pinochle_cli.estimate.interval import wilson_interval
    from pinochle_cli.estimate.results import BidChance, SuitEstimate

    bids = tuple(BidChance(250 + 10 * i, m, m / 1000, wilson_interval(m, 1000)) for i, m in enumerate(made))
    lines = _suit_table(SuitEstimate(Suit.H, 0.0, 0.0, bids, recommended)).splitlines()[2:]
    assert [line.split()[0] for line in lines] == labels
    sure = [line for line in lines if "≥ 99.5 %" in line]
    assert len(sure) == (1 if "–" in labels[0] and made[1] >= 995 else 0)
    assert sum("← bid up to here" in line for line in lines) == (recommended is not None)
