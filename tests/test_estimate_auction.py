"""The auction as data (--auction, --dealer, conventions), expected points, the partner's view, the CLI."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from clihelp import run_cli, run_cli_json

from pinochle_cli.cards import Hand, Rank, Suit
from pinochle_cli.errors import AuctionError, RulesetError, SimulationError
from pinochle_cli.estimate.auction import check_turn, read_auction
from pinochle_cli.estimate.checks import chunk_rng
from pinochle_cli.estimate.conditioned import ConditionedSimulator, counts_of
from pinochle_cli.estimate.conditions import Given
from pinochle_cli.estimate.games import GameBatch
from pinochle_cli.estimate.points import expected, outcomes
from pinochle_cli.estimate.question import answer
from pinochle_cli.estimate.seated import side_estimate
from pinochle_cli.estimate.simulate import estimate
from pinochle_cli.meld import meld
from pinochle_cli.ruleset import load_conventions, load_ruleset
from pinochle_cli.ruleset.rulebook import rules_text
from pinochle_cli.scoring import DealFacts, score_deal

RULES = load_ruleset("single-deck")
HAND = Hand.parse("AH TH KH QH JH AS KS QS KD QD KC QC")
CARDS = " ".join(HAND.ascii())


# --------------------------------------------------------------------------- the auction

def test_calls_go_to_their_seats_and_show_by_the_conventions() -> None:
    a = read_auction(RULES, "250 300 pass", "right", RULES.conventions)
    assert [(c.who, c.bid, c.jump) for c in a.calls] == [("me", 250, 0), ("left", 300, 40), ("partner", None, 0)]
    assert [str(g) for g in a.givens] == ["left: meld >= 40"]
    assert (a.high, a.high_seat, a.to_call) == (300, "left", "right")


def test_a_second_jump_shows_that_much_more() -> None:
    a = read_auction(RULES, "260 270 300 310 350", "me", RULES.conventions)
    # left 260 (jump 10), partner 270, right 300 (jump 20), me 310, left 350 (jump 30: 10 + 30 shown)
    assert [str(g) for g in a.givens] == ["left: meld >= 10", "right: meld >= 20", "left: meld >= 40"]
    assert a.to_call == "partner"


def test_the_small_units_convention_reads_its_own_steps() -> None:
    small = load_ruleset("single-deck-small")
    a = read_auction(small, "25 30", "left", small.conventions)
    assert [str(g) for g in a.givens] == ["right: meld >= 4"]


def test_passed_players_are_skipped_and_no_conventions_show_nothing() -> None:
    a = read_auction(RULES, "pass 250 pass 260", "right", None)
    # me pass, left 250, partner pass, right 260; then left (me and partner passed)
    assert [c.who for c in a.calls] == ["me", "left", "partner", "right"]
    assert a.to_call == "left" and a.givens == ()


@pytest.mark.parametrize("calls, dealer, words", [
    ("250 255", "right", "255 is not a bid of the single-deck auction"),
    ("250 250", "right", "a bid must be at least 260, above the last bid, 250"),
    ("240", "right", "240 is not a bid"),
    ("pass pass pass pass", "right", "the dealer is stuck at 250 and may not pass"),
    ("250 pass pass pass 300", "right", "comes after the auction ended"),
    ("250 pass pass pass", "right", "the auction is over"),
    ("250 two", "right", '"two", is neither pass nor a bid'),
    ("250", "north", "dealer north: the single-deck game has no such seat"),
])
def test_bad_auctions(calls: str, dealer: str, words: str) -> None:
    with pytest.raises(AuctionError, match=words):
        read_auction(RULES, calls, dealer, RULES.conventions)


def test_it_must_be_my_call() -> None:
    a = read_auction(RULES, "250", "right", RULES.conventions)
    with pytest.raises(AuctionError, match="the next call is left's, not yours"):
        check_turn(a, "250")


def test_a_player_who_passed_may_not_call_again() -> None:
    """Four players, the estimating player first to call: the fifth call comes round to them after their pass.
    The refusal gives the ruleset's own rule; the same calls with another dealer are a legal auction (passed seats
    are skipped: the 280 is right's, over left's 270)."""
    for dealer, calls in (("right", "pass 250 260 270 280"), ("partner", "250 pass 260 270 280"),
                          ("me", "250 260 270 pass 280")):
        a = read_auction(RULES, calls, dealer, None)
        with pytest.raises(AuctionError, match=f"you passed at call \\d, and {RULES.auction.pass_rule}: you may not "
                           "call again"):
            check_turn(a, calls, RULES)
    legal = read_auction(RULES, "pass 250 260 270 280", "left", None)
    assert [c.who for c in legal.calls] == ["partner", "right", "me", "left", "right"] and legal.to_call == "me"
    check_turn(legal, "pass 250 260 270 280", RULES)
    assert f"{RULES.auction.pass_rule[0].upper()}{RULES.auction.pass_rule[1:]}." in rules_text(RULES)


def test_conventions_are_shown_in_words_from_the_data(tmp_path: Path) -> None:
    text = rules_text(RULES)
    assert "Bidding conventions (meld bids" in text and "1 point of meld per point jumped" in text
    other = dataclasses.replace(RULES, conventions=dataclasses.replace(
        RULES.conventions, name="denials", passes=("meld < 20",), jump_meld=2))
    assert "a pass shows meld < 20" in rules_text(other) and "2 points of meld per point" in rules_text(other)
    assert "Bidding conventions" not in rules_text(load_ruleset("two-handed"))


def test_a_conventions_file(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("conventions:\n  name: denials\n  pass: [meld < 20]\n  jump_meld: 1\n", encoding="utf-8")
    c = load_conventions(str(path))
    assert (c.name, c.passes, c.jump_meld) == ("denials", ("meld < 20",), 1)
    a = read_auction(RULES, "250 pass", "right", c)
    assert [str(g) for g in a.givens] == ["left: meld < 20"]
    path.write_text("conventions:\n  pass: [melds < 20]\n", encoding="utf-8")
    with pytest.raises(RulesetError, match=r":2:\d+: conventions.pass\[0\]: expected a condition"):
        load_conventions(str(path))
    path.write_text("conventions:\n  passes: []\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="unknown key 'passes'"):
        load_conventions(str(path))


# --------------------------------------------------------------------------- points

def _one(g: GameBatch, i: int) -> GameBatch:
    return g.rows(np.arange(i, i + 1))


@pytest.mark.parametrize("name, bids", [("single-deck", [250, 330, 420, 560]), ("single-deck-small", [25, 33, 45])])
def test_expected_points_are_the_scores_of_each_game(name: str, bids: list[int]) -> None:
    """Each game's our-minus-their difference, from its outcome row, is what ``score_deal`` scores."""
    rules = load_ruleset(name)
    sim = ConditionedSimulator(rules, HAND, [Suit.H], [], points=True)
    g = sim.play_out(*sim.deal_chunk(0, 60, 4))
    for i in range(60):
        row = _one(g, i)
        counter = outcomes(sim, row, 1)[0]
        hands = [Hand.from_counts(g.hands[i, s].tolist()) for s in range(4)]
        melds = [sum(meld(rules, hands[s], Suit.H).total for s in team) for team in rules.partnerships]
        only = [False, False]
        if rules.scoring.kept_if_only:
            kinds = rules.scoring.kept_if_only
            only = [all(meld(rules, hands[s], Suit.H).only(kinds) or meld(rules, hands[s], Suit.H).total == 0
                        for s in team) and melds[k] > 0 for k, team in enumerate(rules.partnerships)]
        for bid in bids:
            facts = DealFacts(meld=tuple(melds), counters=tuple(int(x) for x in g.points[i]), bidder_side=0, bid=bid,
                              took_trick=tuple(bool(t > 0) for t in g.tricks[i]), meld_only=tuple(only))
            score = score_deal(rules, facts)
            assert expected(rules, counter, 1, bid) == score.points[0] - score.points[1], (i, bid, facts, score)


def test_points_leave_the_chances_as_they_were() -> None:
    plain = estimate(RULES, HAND, samples=600, seed=2, workers=1)
    pts = estimate(RULES, HAND, samples=600, seed=2, workers=1, points=True)
    strip = [tuple(dataclasses.replace(c, points=None, points_ci95=None) for c in s.bids) for s in pts.suits]
    assert strip == [s.bids for s in plain.suits]
    assert all(c.points is not None for s in pts.suits for c in s.bids)


# --------------------------------------------------------------------------- the partner's view

def test_as_partner_a_hand_worked_case() -> None:
    """Partner holds all twelve spades and there is no pass: partner names spades, leads a trump to every trick
    and wins them all (nobody else holds a trump), so our side makes meld + 250 at any bid up to there and the
    other side, without a trick, keeps no meld: expected points meld + 250 when made. Any higher bid is not on
    the board (meld + every counter below it): we lose the bid and they score their meld."""
    rules = load_ruleset("single-deck", {"exchange": "0"})
    mine = Hand.parse("AH TH KH QH JH 9H AD TD KD QD JD 9D")
    spades = "AS AS TS TS KS KS QS QS JS JS 9S 9S"
    side = side_estimate(rules, mine, "partner", given=[Given.parse(f"partner: holds {spades}")], samples=300,
                         seed=1, workers=1)
    ours = meld(rules, mine, Suit.S).total + meld(rules, Hand.parse(spades), Suit.S).total
    claim = ours + 250
    assert side.named == {Suit.S: 1.0}
    assert side.acceptance == 1.0
    for c in side.bids:
        assert c.p_make == (1.0 if c.bid <= claim else 0.0)
        if c.bid <= claim:
            assert c.points == pytest.approx(claim)
        else:
            assert c.points is not None and c.points < -c.bid
    assert side.bids[-1].bid > claim


def test_as_partner_serial_equals_parallel() -> None:
    given = [Given.parse("partner: meld >= 40")]
    one = side_estimate(RULES, HAND, "partner", given=given, samples=1000, seed=5, workers=1)
    two = side_estimate(RULES, HAND, "partner", given=given, samples=1000, seed=5, workers=2)
    assert one == two


def test_pass_is_worth_what_the_high_bidder_makes_of_the_bid() -> None:
    a = answer(RULES, HAND, calls="250 300", dealer="left", samples=500, seed=3, workers=1)
    assert a.auction is not None and (a.auction.high, a.auction.high_seat) == (300, "right")
    right = side_estimate(RULES, HAND, "right", given=a.auction.givens, samples=500, seed=3, workers=1, from_bid=300)
    assert a.passing is not None and a.passing.points == right.points_at(300)
    assert a.smallest == 310
    assert a.best_by_points is not None and a.recommended == a.best_by_confidence
    by_points = answer(RULES, HAND, calls="250 300", dealer="left", samples=500, seed=3, workers=1, by="points")
    assert by_points.recommended == by_points.best_by_points
    best = max(c.points or 0 for s in by_points.estimate.suits for c in s.bids if c.bid >= 310)  # type: ignore[union-attr]
    assert by_points.best_by_points.points == max(best, a.passing.points or 0)  # type: ignore[union-attr]


# --------------------------------------------------------------------------- the command line

def run(*args: str) -> tuple[int, str, str]:
    return run_cli("estimate", CARDS, "--samples", "300", "--workers", "1", "--seed", "7", *args)


def test_json_members() -> None:
    doc: dict[str, Any] = run_cli_json("estimate", CARDS, "--samples", "300", "--workers", "1", "--auction",
                                       "250 300", "--dealer", "left", "--given", "partner: aces >= 1")
    plain: dict[str, Any] = run_cli_json("estimate", CARDS, "--samples", "300", "--workers", "1")
    assert set(plain) <= set(doc)
    assert doc["conditions"] == ["right: meld >= 40", "partner: aces >= 1"]
    assert 0 < doc["acceptance"] < 1
    assert doc["auction"]["calls"][1] == {"seat": "right", "call": 300, "jump": 40, "shows": ["right: meld >= 40"]}
    assert doc["pass"]["bidder"] == "right" and isinstance(doc["pass"]["expected_points"], float)
    assert all("expected_points" in b for s in doc["suits"] for b in s["bids"])
    assert doc["recommended_call"] == doc["best_by_confidence"] and doc["by"] == "confidence"


def test_by_points_gives_each_bids_interval_and_nothing_else_changes() -> None:
    """--by points: every bid's expected points with its 95 % interval (around the mean); without --by (and with
    --by confidence) the document is the same as before, member for member."""
    base = ("estimate", CARDS, "--samples", "300", "--workers", "1", "--seed", "3", "--auction", "250 300",
            "--dealer", "left")
    plain, by_conf, by_points = (run_cli_json(*base), run_cli_json(*base, "--by", "confidence"),
                                 run_cli_json(*base, "--by", "points"))
    bids = [b for s in by_points["suits"] for b in s["bids"]]
    assert bids and all(b["expected_points_ci95"][0] <= b["expected_points"] <= b["expected_points_ci95"][1]
                        for b in bids)
    assert not any("expected_points_ci95" in b for d in (plain, by_conf) for s in d["suits"] for b in s["bids"])
    del by_conf["by"], plain["by"]
    assert plain == by_conf
    side = run_cli_json("estimate", CARDS, "--samples", "300", "--workers", "1", "--as", "partner", "--by", "points")
    assert all(len(b["expected_points_ci95"]) == 2 for b in side["partner"]["bids"])


def test_partner_json() -> None:
    doc = run_cli_json("estimate", CARDS, "--samples", "300", "--workers", "1", "--as", "partner")
    assert doc["as"] == "partner" and doc["partner"]["bidder"] == "partner"
    assert abs(sum(doc["partner"]["trump_named"].values()) - 1) < 1e-3
    assert doc["pass"] is None and doc["auction"] is None


def test_human_output_lists_the_conditions_and_the_calls() -> None:
    code, out, err = run("--auction", "250 300", "--dealer", "left", "--by", "points")
    assert (code, err) == (0, "")
    assert "right 300 (a jump of 40): shows right: meld >= 40" in out
    assert "Conditions: right: meld >= 40 (met by" in out
    assert "pass: right plays 300:" in out
    assert "Recommended (by points):" in out


def test_default_output_is_unchanged_without_the_new_options() -> None:
    code, out, _ = run()
    assert code == 0 and "Expected points" not in out and "Conditions" not in out


@pytest.mark.parametrize("args, words", [
    (["--given", "partner meld >= 1"], "start with the seat"),
    (["--given", "partner: holds AS AS"], "AS is held more often"),
    (["--given", "partner: meld >= 300"], "too rare"),
    (["--auction", "250"], "--auction needs --dealer"),
    (["--dealer", "left"], "--dealer needs --auction"),
    (["--auction", "250 255", "--dealer", "left"], "255 is not a bid"),
    (["--auction", "250", "--dealer", "right"], "not yours"),
    (["--as", "partner", "-t", "H"], "as the partner, give none"),
    (["--given", "left: aces >= 1", "--play", "double-dummy"], "does not combine"),
    (["--as", "partner", "--precision", "0.05"], "does not combine with --as partner"),
    (["--auction", "250", "--dealer", "left", "--conventions", "/nonexistent/c.yaml"], "c.yaml"),
])
def test_error_paths(args: list[str], words: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert words in err and "Traceback" not in err


def test_given_in_a_game_without_an_auction() -> None:
    code, _, err = run_cli("estimate", "AS TS KS QS JS 9S AH TH KH QH JH 9H", "-r", "two-handed", "--given",
                           "left: aces >= 1")
    assert code == 2 and "Error:" in err


def test_given_cards_are_echoed_in_ascii() -> None:
    doc = run_cli_json("estimate", CARDS, "--samples", "200", "--workers", "1", "--given", "left: holds A♦ 10♣")
    assert doc["conditions"] == ["left: holds AD TC"]
    # one of two unseen A♦ placed: the deals in which left holds both are kept half the time (docs/estimate.md)
    assert 0.5 < doc["acceptance"] < 1


# --------------------------------------------------------------------------- a game with a widow

THREE = load_ruleset("three-handed")
THREE_HAND = Hand.parse("AS TS KS QS AH TH KH QH JD AD KC QC AC 9D 9C")


def test_points_in_a_widow_game_draw_the_deals_and_widows_the_plain_estimate_draws() -> None:
    plain = estimate(THREE, THREE_HAND, samples=300, seed=7)
    scored = estimate(THREE, THREE_HAND, samples=300, seed=7, points=True)
    assert [[c.made for c in s.bids] for s in scored.suits] == [[c.made for c in s.bids] for s in plain.suits]
    assert plain.after_widow is not None and scored.after_widow is not None
    assert [c.made for c in scored.after_widow.bids] == [c.made for c in plain.after_widow.bids]
    assert all(c.points is not None for c in scored.after_widow.bids)
    doc = scored.to_json()
    assert "expected_points" in doc["after_widow"]["bids"][0]


def test_a_condition_in_a_widow_game_is_met_by_every_deal_and_keeps_the_choice_of_suit() -> None:
    sim = ConditionedSimulator(THREE, THREE_HAND, THREE.suits, [Given.parse("left: aces >= 2")])
    others, widow, _ = sim.dealer.draw(chunk_rng(3, 0), 200, None)
    left = counts_of(others[:, 0])
    assert (sum(left[:, int(s) * 6 + int(Rank.A)] for s in Suit) >= 2).all()
    # every card of the pack: the hand, the two other hands and the widow
    full = counts_of(np.concatenate([np.broadcast_to(sim.hand_cards, (200, 15)), others.reshape(200, -1), widow],
                                    axis=1))
    assert (full == np.array(THREE.deck.full().counts)[None, :]).all() and widow.shape == (200, 3)
    est = estimate(THREE, THREE_HAND, samples=300, seed=7, given=[Given.parse("left: aces >= 2")])
    assert est.after_widow is not None and est.conditions == ("left: aces >= 2",)
    meld_given = estimate(THREE, THREE_HAND, samples=300, seed=7, given=[Given.parse("left: meld >= 20")])
    assert meld_given.after_widow is None and "after_widow" in meld_given.to_json()


def test_another_bidder_in_a_widow_game_takes_the_widow() -> None:
    side = side_estimate(THREE, THREE_HAND, "left", samples=200, seed=3)
    assert side.samples == 200 and all(c.points is not None for c in side.bids)


def test_as_partner_in_a_game_without_partners_is_refused() -> None:
    with pytest.raises(SimulationError, match="nobody has a partner") as e:
        answer(THREE, THREE_HAND, view="partner", samples=100, seed=1)
    assert e.value.parameter == "as"
    ran = run_cli("estimate", " ".join(THREE_HAND.ascii()), "-r", "three-handed", "--as", "partner")
    assert ran.code == 2 and "Error: --as partner: in the three-handed game nobody has a partner" in ran.err
