"""`pinochle estimate --play double-dummy [--exact-from TRICK]`: tables, JSON, the cost notice, every error path."""

from __future__ import annotations

import json
import re

import pytest
from clihelp import run_cli, run_cli_json

from pinochle_cli.cli import double_dummy_view as perfect_view
from pinochle_cli.estimate.double_dummy import Cost
from pinochle_cli.solver.solve import Solver

HAND = "AH TH KH KH QH JH AS AD AC KS QD 9C"
DOUBLE = "AH AH TH KH KH QH QH JH JH AS AS AD KD QD AC TC KC QC JS JS"
JUNK = "9S 9S JS JS 9H 9H JH 9D 9D 9C 9C JC"
SMALL = (HAND, "-r", "single-deck-small", "--samples", "30", "--seed", "7", "--workers", "1", "-t", "S")
NOTICE = re.compile(r"Perfect play from trick 8 of 12 \(5 tricks solved per deal\): 30 solves \(deals × suits\)\. "
                    r"The first 30 took \d+\.\d ms of CPU each: nothing more to solve\. Solve times vary widely "
                    r"from deal to deal: a rough guide\. Ctrl-C stops; fewer --samples or a later --exact-from "
                    r"costs less\.\n")


def test_human_output_exact() -> None:
    code, out, err = run_cli("estimate", *SMALL, "--play", "double-dummy", "--exact-from", "8")
    assert code == 0
    assert NOTICE.fullmatch(err)
    assert out == (
        'single-deck-small: A♠ K♠ A♥ 10♥ K♥ K♥ Q♥ J♥ A♦ Q♦ A♣ 9♣\n'
        '30 sampled deals, seed 7\n'
        '\n'
        "best    trump       meld in hand    side's meld    counters    score    bid    P(make)    95 % interval\n"
        '------  --------  --------------  -------------  ----------  -------  -----  ---------  ---------------\n'
        '*       ♠ spades              12           19.4        18.3     37.8     32     76.7 %  59.1 % – 88.2 %\n'
        "meld in hand: before the pass; side's meld, counters, score: means of the bidding side after it\n"
        'bid: the highest made at least 75.0 % of the time\n'
        'Best suit (*): ♠ spades, bid up to 32: made 77 times in 100 (95 % interval 59.1 % – 88.2 %)\n'
        'Why:\n'
        '  - the rule: the highest bid made at least 75 % of the time — 32 in ♠ spades is made 77 % of the time\n'
        '  - in ♠ spades the side melds 19 and takes 18 in counters on average\n'
        '\n'
        'Perfect play (double-dummy: every hand seen, both sides perfect) from trick 8 of 12, on the same 30 deals\n'
        '(tricks 1–7 as the heuristic plays them):\n'
        'best    trump       counters: heuristic    perfect    bid: heuristic    perfect\n'
        '------  --------  ---------------------  ---------  ----------------  ---------\n'
        '*       ♠ spades                   18.3       19.0                32         32\n'
        "counters: the bidding side's mean; bid: the recommended bid under each play model; * best with perfect play\n"
        '\n'
        'Trump ♠ spades: P(make) by play model (difference: perfect minus heuristic, in percentage points)\n'
        '  bid    heuristic    perfect    difference\n'
        '-----  -----------  ---------  ------------\n'
        '   25       96.7 %    100.0 %          +3.3\n'
        '   26       90.0 %     90.0 %           0.0\n'
        '27–28       86.7 %     86.7 %           0.0\n'
        '   29       83.3 %     86.7 %          +3.3\n'
        '30–31       80.0 %     83.3 %          +3.3\n'
        '   32       76.7 %     76.7 %           0.0\n'
        '33–34       70.0 %     70.0 %           0.0\n'
        '   35       63.3 %     70.0 %          +6.7\n'
        '   36       60.0 %     63.3 %          +3.3\n'
        '   37       56.7 %     63.3 %          +6.7\n'
        '   38       53.3 %     53.3 %           0.0\n'
        '   39       46.7 %     53.3 %          +6.7\n'
        '   40       40.0 %     43.3 %          +3.3\n'
        '   41       33.3 %     33.3 %           0.0\n'
        '   42       26.7 %     33.3 %          +6.7\n'
        '   43       23.3 %     26.7 %          +3.3\n'
        '44–48       20.0 %     20.0 %           0.0\n'
        '   49       16.7 %     20.0 %          +3.3\n'
        '   50       13.3 %     16.7 %          +3.3\n'
        '51–52       10.0 %     13.3 %          +3.3\n'
        '   53        3.3 %      6.7 %          +3.3\n'
        '   54        3.3 %      3.3 %           0.0\n'
        '   55        0.0 %      0.0 %           0.0\n'
    )


def test_json_extends_the_estimate_with_the_perfect_play() -> None:
    """The heuristic document is unchanged; ``double_dummy`` holds both models' P(make) per bid."""
    plain = run_cli_json("estimate", *SMALL)
    code, out, err = run_cli("estimate", *SMALL, "--play", "double-dummy", "--exact-from", "8", "--json")
    assert code == 0 and NOTICE.fullmatch(err)
    data = json.loads(out)
    dd = data.pop("double_dummy")
    assert data == plain
    assert (dd["exact_from"], dd["tricks_solved"], dd["best"]) == (8, 5, "S")
    [suit] = dd["suits"]
    assert set(suit) == {"trump", "meld_mean", "counters_mean", "score_mean", "heuristic_counters_mean", "bids",
                         "recommended_bid", "heuristic_recommended_bid"}
    assert (suit["trump"], suit["meld_mean"], suit["heuristic_counters_mean"]) == ("S", 19.4333, 18.3333)
    assert (suit["recommended_bid"], suit["heuristic_recommended_bid"]) == (32, 32)
    assert suit["bids"][0] == {"bid": 25, "p_make": 1.0, "ci95": [0.8865, 1.0], "heuristic_p_make": 0.9667,
                               "difference": 0.0333}
    heuristic = {b["bid"]: b["p_make"] for b in plain["suits"][0]["bids"]}
    for b in suit["bids"]:
        assert b["difference"] == pytest.approx(b["p_make"] - b["heuristic_p_make"], abs=2e-4)
        assert b["heuristic_p_make"] == heuristic.get(b["bid"], b["heuristic_p_make"])


def test_same_seed_same_json_whatever_the_workers() -> None:
    args = ("estimate", HAND, "--samples", "40", "--seed", "3", "--play", "double-dummy", "--exact-from", "11",
            "--json")
    one, two = run_cli(*args, "--workers", "1"), run_cli(*args, "--workers", "2")
    assert one.code == two.code == 0
    assert json.loads(one.out) == json.loads(two.out)
    assert "on 2 workers" in two.err or "nothing more to solve" in two.err


def test_a_hand_with_no_suit_to_name_solves_nothing() -> None:
    data = run_cli_json("estimate", JUNK, "-r", "single-deck-small", "-o", "marriage-required=yes", "--seed", "1",
                        "--play", "double-dummy")
    assert data["double_dummy"] == {"exact_from": 1, "tricks_solved": 12, "suits": [], "best": None}


def test_ctrl_c_stops_the_run_with_code_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(Solver, "value", interrupted)
    code, out, err = run_cli("estimate", *SMALL, "--play", "double-dummy", "--exact-from", "12")
    assert (code, out, err) == (130, "", "\n")


@pytest.mark.parametrize(("args", "message"), [
    (("--exact-from", "9"), "--exact-from 9 needs --play double-dummy"),
    (("--play", "heuristic", "--exact-from", "9"), "--exact-from 9 needs --play double-dummy"),
    (("--play", "double-dummy", "--exact-from", "0"),
     "--exact-from 0: a single-deck deal has 12 tricks; give a trick from 1 to 12"),
    (("--play", "double-dummy", "--exact-from", "13"),
     "--exact-from 13: a single-deck deal has 12 tricks; give a trick from 1 to 12"),
    (("--play", "double-dummy", "--exact-from", "x"), "Invalid value for '--exact-from': 'x' is not a valid integer."),
    (("--play", "perfect"), "Invalid value for '--play': 'perfect' is not one of 'heuristic', 'double-dummy'."),
    (("--play", "double-dummy", "--precision", "0.05"),
     "--precision does not combine with --play double-dummy: every perfect-play deal costs a solve, so give the "
     "number of deals with --samples"),
    (("-r", "two-handed", "--play", "double-dummy", "--exact-from", "12"),
     "the two-handed game has no auction (trump is turned up from the stock): there is no bid to estimate"),
])
def test_bad_options_are_refused(args: tuple[str, ...], message: str) -> None:
    assert run_cli("estimate", HAND, *args) == (2, "", f"Error: {message}\n")


@pytest.mark.parametrize(("args", "message"), [
    (("--play", "double-dummy"), "--play double-dummy: perfect play over all 20 tricks of a double-deck deal is out "
                                 "of reach (beyond 12 tricks one deal can take hours); give --exact-from 9 or later"),
    (("--play", "double-dummy", "--exact-from", "5"),
     "--exact-from 5: perfect play over the last 16 tricks of a double-deck deal is out of reach (beyond 12 tricks "
     "one deal can take hours); give --exact-from 9 or later"),
])
def test_double_deck_is_solved_from_a_later_trick_only(args: tuple[str, ...], message: str) -> None:
    assert run_cli("estimate", DOUBLE, "-r", "double-deck", *args) == (2, "", f"Error: {message}\n")


TEN_MIN = ": about 10 min)"


@pytest.mark.parametrize(("cost", "text", "smaller"), [
    (Cost(1, 12, 8000, 1, 7.5, 2), "Perfect play over all 12 tricks: 8,000 solves (deals × suits). The first 1 took "
                                   "7.5 s of CPU each: about 8 h 19 min more on 2 workers, likely more (few "
                                   "solves timed).", " (--samples 160" + TEN_MIN),
    (Cost(1, 12, 40, 9, 9.0, 1), "Perfect play over all 12 tricks: 40 solves (deals × suits). The first 9 took "
                                 "1.0 s of CPU each: about 31 s more on 1 worker, likely more (few solves "
                                 "timed).", ""),
    (Cost(5, 12, 2000, 10, 4.0, 1), "Perfect play from trick 5 of 12 (8 tricks solved per deal): 2,000 solves "
                                    "(deals × suits). The first 10 took 400.0 ms of CPU each: about 13 min more on 1 "
                                    "worker.", " (--samples 1500" + TEN_MIN),
    (Cost(9, 12, 400, 100, 0.6, 2), "Perfect play from trick 9 of 12 (4 tricks solved per deal): 400 solves (deals × "
                                    "suits). The first 100 took 6.0 ms of CPU each: under a second more on 2 workers.",
     ""),
    (Cost(9, 12, 400, 200, 1.0, 1), "Perfect play from trick 9 of 12 (4 tricks solved per deal): 400 solves (deals × "
                                    "suits). The first 200 took 5.0 ms of CPU each: about 1 s more on 1 worker.", ""),
    # the times' spread: one slow deal in twenty raises the high end of the mean's interval (1.3 s a solve), and
    # the deals that fit in ten minutes are counted at it
    (Cost(1, 12, 8000, 20, 10.0, 2, (0.1,) * 19 + (8.1,)),
     "Perfect play over all 12 tricks: 8,000 solves (deals × suits). The first 20 took 500.0 ms of CPU each: about "
     "33 min more on 2 workers, up to 86 min.", " (--samples 920" + TEN_MIN),
    # times alike: no high end apart from the estimate
    (Cost(9, 12, 400, 100, 0.6, 2, (0.006,) * 100), "Perfect play from trick 9 of 12 (4 tricks solved per deal): 400 "
     "solves (deals × suits). The first 100 took 6.0 ms of CPU each: under a second more on 2 workers.", ""),
    # four suits a deal: a quarter of the deals
    (Cost(1, 12, 8000, 36, 36.0, 2, (1.0,) * 36, 4), "Perfect play over all 12 tricks: 8,000 solves (deals × suits). "
     "The first 36 took 1.0 s of CPU each: about 66 min more on 2 workers.", " (--samples 300" + TEN_MIN),
    # not one deal fits: nothing to offer
    (Cost(1, 12, 8000, 4, 1200.0, 1, (), 4), "Perfect play over all 12 tricks: 8,000 solves (deals × suits). The "
     "first 4 took 300.0 s of CPU each: about 666 h 20 min more on 1 worker, likely more (few solves timed).", ""),
])
def test_the_cost_notice_extrapolates_the_first_solves(cost: Cost, text: str, smaller: str) -> None:
    """A run projected past ten minutes is told how many deals fit in them, at the high end of the cost."""
    assert perfect_view.cost_notice(cost) == (text + " Solve times vary widely from deal to deal: a rough guide. "
                                              "Ctrl-C stops; fewer --samples or a later --exact-from costs less"
                                              + smaller + ".")


THREE = "AS TS KS QS AH TH KH QH JD AD KC QC AC 9D 9C"


def test_a_widow_game_is_played_perfectly_after_the_widow_and_the_bury() -> None:
    """three-handed: the bidder alone against two, from its 15 dealt cards; the suits and the heuristic side
    are the estimate's, and the whole deal is out of reach as in any game."""
    args = ("estimate", THREE, "-r", "three-handed", "--samples", "60", "--seed", "7")
    plain = run_cli_json(*args)
    code, out, err = run_cli(*args, "--play", "double-dummy", "--exact-from", "13", "--json")
    assert code == 0 and err.startswith("Perfect play from trick 13 of 15 (3 tricks solved per deal): 240 solves")
    data = json.loads(out)
    dd = data.pop("double_dummy")
    assert data == plain
    assert (dd["exact_from"], dd["tricks_solved"]) == (13, 3)
    assert [s["trump"] for s in dd["suits"]] == [s["trump"] for s in plain["suits"]]
    for s, h in zip(dd["suits"], plain["suits"], strict=True):
        assert s["heuristic_counters_mean"] == round(h["counters_mean"], 4)
    assert run_cli(*args, "--play", "double-dummy") == (
        2, "", "Error: --play double-dummy: perfect play over all 15 tricks of a three-handed deal is out of reach "
               "(beyond 12 tricks one deal can take hours); give --exact-from 4 or later\n")
