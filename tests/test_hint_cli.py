"""``pinochle hint``: the answer, its JSON, the worlds shown, determinism and every refusal."""

from __future__ import annotations

import json

import pytest
from clihelp import run_cli, run_cli_json
from hintcheck import check_world

from pinochle_cli.cards import Hand, Suit, parse_cards
from pinochle_cli.hint.facts import make_facts
from pinochle_cli.ruleset import load_ruleset

MELD = ["--meld", "0=9S KH QH KD QD", "--meld", "1=", "--meld", "2=KS QS 9S KD QD JD KC QC", "--meld", "3="]
TRICKS = "QD AD QD AD; JC JC AC QC; TD KD 9D TD; QS TS JS JS; 9S KH KS AS; AS KS 9H 9S; 9C KC AC 9H; 9C AH QC QS"
# single-deck-played.yaml, deal 1: Cy (seat 2, the bidder) to lead trick 9
AT_TRICK_9 = ["hint", "-t", "S", "--hand", "TH JH JH JD", "--seat", "2", "--bidder", "2", "--bid", "260", *MELD,
              "--tricks", TRICKS, "--leader", "2", "--workers", "1", "--time", "600", "-r", "single-deck"]


def test_the_answer_names_the_best_card_and_the_inferences() -> None:
    code, out, err = run_cli(*AT_TRICK_9)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "single-deck, trump ♠ spades; seat 2 bid 260; seat 2 to play to trick 9"
    assert lines[1] == "Exact: all 15 consistent worlds judged."
    assert lines[2] == "Each card solved exactly (double-dummy)."
    assert "  seat 3: no trump (did not follow trick 5)" in lines
    assert any("of 15" in line and "*" in line and line.endswith("exact") for line in lines)
    assert any(line.startswith("J♥ leads 10♥ by 0.9 points over the same 15 worlds") for line in lines)


def test_every_card_within_the_noise_of_the_best_is_named_with_its_interval() -> None:
    data = run_cli_json(*AT_TRICK_9)
    best = {c["card"]: c for c in data["cards"]}
    assert best[data["best"]]["behind"] is None
    points = {c["card"]: c["points"] for c in data["cards"]}
    near = []
    for card, row in best.items():
        if card == data["best"]:
            continue
        lead = row["behind"]
        assert lead["points"] == pytest.approx(points[data["best"]] - points[card], abs=1e-3)
        assert lead["low"] <= lead["points"] <= lead["high"] and lead["within_noise"] == (lead["low"] <= 0)
        if lead["within_noise"] and card != data["margin"]["second"]:
            near.append(card)
    # J♦ ties the 10♥, the next card, a point behind the J♥: named on its own line with its interval
    assert near == ["JD"]
    code, out, _ = run_cli(*AT_TRICK_9)
    assert code == 0 and "Also within the noise of J♥: J♦ (0.9 behind, 95 % -1.8 to 3.6)." in out.splitlines()


def test_json_has_the_issue_shape_and_the_worlds_fit_every_fact() -> None:
    data = run_cli_json(*AT_TRICK_9, "--show-worlds")
    assert set(data) == {"to_play", "worlds", "drawn", "exact", "best", "method", "plan", "stopped", "cut_short",
                         "reliable", "skipped", "margin", "cards", "inferences", "world_hands", "reasons"}
    assert (data["to_play"], data["worlds"], data["exact"], data["method"]) == (2, 15, True, "exact")
    assert (data["stopped"], data["cut_short"], data["reliable"], data["skipped"]) == ("all", False, True, 0)
    assert set(data["margin"]) == {"second", "points", "low", "high", "clear"}
    assert data["margin"]["low"] <= data["margin"]["points"] <= data["margin"]["high"]
    assert data["best"] in [c["card"] for c in data["cards"]]
    for card in data["cards"]:
        assert set(card) == {"card", "points", "p_make", "counters", "best_in", "method", "behind"}
        assert 0 <= card["p_make"] <= 1 and 0 <= card["best_in"] <= 15
    assert {"seat": 3, "says": "seat 3: no trump (did not follow trick 5)"} in data["inferences"]
    rules = load_ruleset("single-deck")
    facts = make_facts(rules, Suit.S, Hand.parse("TH JH JH JD"), seat=2, bidder=2, bid=260,
                       shown={0: Hand.parse("9S KH QH KD QD"), 1: Hand(), 2: Hand.parse("KS QS 9S KD QD JD KC QC"),
                              3: Hand()},
                       tricks=[parse_cards(t) for t in TRICKS.split(";")], leader=2)
    assert len(data["world_hands"]) == 15
    for hands in data["world_hands"]:
        assert check_world(facts, [Hand.parse(h) for h in hands]) == []


def test_the_same_seed_gives_the_same_answer_at_any_workers() -> None:
    base = [*AT_TRICK_9[:-6], "--time", "600", "-r", "single-deck"]
    one = run_cli_json(*base, "--workers", "1", "--worlds", "5", "--seed", "3")
    two = run_cli_json(*base, "--workers", "2", "--worlds", "5", "--seed", "3")
    assert one == two and one["worlds"] == 5 and not one["exact"]


def _refused(*args: str) -> str:
    code, out, err = run_cli("hint", "-t", "S", *args)
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("Error: ") and err.count("\n") == 1, err
    return err


HAND = "AS AS TS KS QS JS 9S AD AD TD AC KC"


@pytest.mark.parametrize(("args", "message"), [
    (["--hand", HAND[:-3], "--tricks", "AS 9H KH QH"], "Error: too many A♠: 2 in the hand, 1 played"),
    (["--hand", "AS AS TS KS QS JS 9S AD AD TD", "--tricks", "AH 9H KH QH; AC 9C 9H KC", "--seat", "3",
      "--bidder", "0", "--trick", "TH JH QS"], "broke a duty: no trump (did not trump trick 2)"),
    (["--hand", HAND, "--meld", "1=AH KS"], "--meld 1=K♠ A♥: K♠ A♥ are no part of a meld"),
    (["--hand", HAND, "--meld", "1=QS JD", "--meld", "2=QS JD", "--meld", "3=QS JD"], "too many Q♠"),
    (["--hand", HAND, "--meld", "1:QS JD"], 'Error: --meld "1:QS JD": give SEAT=CARDS'),
    (["--hand", HAND, "--meld", "1=QS JD", "--meld", "1=QS"], "seat 1 is given twice"),
    (["--hand", HAND, "--meld", "7=QS JD"], "Error: --meld 7 is not a seat 0..3"),
    (["--hand", HAND, "--meld", "0=KH QH"], "Error: --meld 0=K♥ Q♥: your hand at the meld"),
    (["--hand", "AS AS TS"], "Error: --hand holds 3 cards; after 0 tricks seat 0 holds 12"),
    (["--hand", HAND, "--trick", "9H"], "Error: it is seat 1's turn to play to trick 1, not seat 0's"),
    (["--hand", HAND, "--seat", "4"], "Error: --seat 4 is not a seat 0..3"),
    (["--hand", HAND, "--bidder", "9"], "Error: --bidder 9 is not a seat 0..3"),
    (["--hand", HAND, "--bid", "250"], "Error: --bid 250 given without the bidder's seat"),
    (["--hand", HAND, "--tricks", "AH 9H KH QH;;"], "trick 2 is empty"),
    (["--hand", HAND, "--tricks", "AH 9H KH"], "trick 1 (A♥ 9♥ K♥) has 3 cards"),
    (["--hand", HAND, "--trick", "9H 9H 9C 9C"], "it is complete"),
    (["--hand", HAND, "--tricks", "AH XX"], "Error: --tricks, trick 1:"),
    (["--hand", "AS ZZ"], "Error: --hand:"),
    (["--hand", HAND, "--passed", "9H 9H JC JC"], "an exchange is between the bidder and the partner: --bidder not given"),
    (["--hand", HAND, "--passed", "9H 9H", "--bidder", "0"], "--passed 9♥ 9♥: 2 cards; the exchange in single-deck is 4"),
    (["--hand", HAND, "--passed", "9H 9H JC JC", "--bidder", "1", "--leader", "0"], "seat 0 took no part in the exchange"),
    (["--hand", "AS AS TS KS QS JS AD AD TD AC KC JH JH JC JC KD KD QH QH TH", "-r", "double-deck",
      "--passed", "JH"], "Error: --passed J♥: double-deck has no exchange"),
    (["--hand", HAND, "--worlds", "0"], "Error: Invalid value for '--worlds'"),
    (["--hand", HAND, "--time", "0"], "Error: Invalid value for '--time'"),
    (["--hand", HAND, "--time", "nan"], "Error: --time nan: give seconds above 0"),
    (["--hand", HAND, "-t", "X"], "Error:"),
    (["--hand", "AS AS TS KS QS JS 9S AD AD TD KC", "--tricks", "9H KH QH AC", "--leader", "1", "--trick", "9D 9D"],
     "trick 1: seat 0 (you) played A♣ holding"),
    (["--hand", "9H", "-r", "two-handed"], "give the 12 tricks played while it lasted first (0 given)"),
])
def test_bad_input_is_refused(args: list[str], message: str) -> None:
    assert message in _refused(*args)


def test_a_layout_nobody_could_hold_is_refused() -> None:
    # nobody may hold the other 9♠ (every seat showed its meld, and a 9 of trump is meld)
    err = _refused("--hand", "AS AS TS KS QS JS 9S AD AD TD", "--bidder", "0", "--bid", "250",
                   "--tricks", "AH 9H KH QH; AC 9C 9H KC", "--meld", "0=AS TS KS QS JS 9S AH AD AC",
                   "--meld", "1=QS JD", "--meld", "2=KD QD", "--meld", "3=KC QC", "--workers", "1")
    assert "no layout of the unseen cards fits" in err


def test_json_is_json_for_a_refusal_too() -> None:
    code, out, err = run_cli("hint", "-t", "S", "--hand", "AS", "--json")
    assert code == 2 and out == "" and err.startswith("Error: ")
    assert json.dumps  # the refusal is on stderr only


THREE_HAND = "AS AS TS KS QS JS 9S AD AD TD AC KC QC JC 9C"


@pytest.mark.parametrize(("args", "says"), [
    (("-r", "three-handed", "--hand", THREE_HAND, "--seat", "1", "--bidder", "1", "--buried", "AH TH"),
     "Error: --buried A♥ 10♥: 2 cards, but the bidder buries 3 in three-handed\n"),
    (("-r", "three-handed", "--hand", THREE_HAND, "--seat", "1", "--bidder", "2", "--leader", "1",
      "--buried", "AH TH KH"), "only the bidder buries, and the bidder is seat 2, not seat 1"),
    (("-r", "three-handed", "--hand", THREE_HAND, "--seat", "1", "--bidder", "1", "--buried", "AS TH KH"),
     "too many A♠: 2 in the hand, 1 buried"),
    (("--hand", "AS AS TS KS QS JS 9S AD AD TD AC KC", "--bidder", "0", "--buried", "AH"),
     "in single-deck nobody buries cards"),
])
def test_buried_cards_that_cannot_be_are_refused(args: tuple[str, ...], says: str) -> None:
    code, out, err = run_cli("hint", "-t", "S", *args, "--workers", "1")
    assert code == 2 and out == "" and err.startswith("Error: ") and says in err


def test_the_bidder_counts_its_buried_counters() -> None:
    base = ("hint", "-r", "three-handed", "-t", "S", "--hand", THREE_HAND, "--seat", "1", "--bidder", "1",
            "--workers", "1", "--worlds", "1", "--time", "600")
    with_low = run_cli_json(*base, "--buried", "9H 9H JH")
    with_high = run_cli_json(*base, "--buried", "AH TH KH")
    low = {c["card"]: c["points"] - 2 * c["counters"] for c in with_low["cards"]}
    high = {c["card"]: c["points"] - 2 * c["counters"] for c in with_high["cards"]}
    # points = ours - (total - ours) with ours = counters + the buried counters (0 or 30)
    assert all(high[c] - low[c] == pytest.approx(60) for c in low)
