"""The computer at the table: its auction (bid the least allowed up to the hand's limit, the estimator's
recommended bid), its trump, and an action for every turn of every bundled game — the same for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from pinochle_cli.cards import Hand, Suit
from pinochle_cli.game.deal import deal_cards
from pinochle_cli.game.state import DealState
from pinochle_cli.player.bidder import Valuation, computer_call, computer_trump, value_hand
from pinochle_cli.player.turn import Computer, auction_facts, seat_seed
from pinochle_cli.ruleset import bundled_names, load_ruleset

STRONG = Hand.parse("AH 10H KH KH QH JH AS AD AC KS QS JD")
WEAK = Hand.parse("9S 9S JS 9H JC 9C QC 9D JD QD KC 10S")


def test_a_strong_hand_has_a_limit_above_the_minimum_and_a_weak_one_none() -> None:
    rules = load_ruleset("single-deck")
    strong, weak = value_hand(rules, STRONG, 1), value_hand(rules, WEAK, 1)
    assert strong.limit is not None and strong.limit >= 300 and strong.limits[Suit.H] == strong.limit
    assert weak.limit is None
    assert value_hand(rules, STRONG, 1) == strong  # the same seed, the same figures


def test_the_call_is_the_least_bid_up_to_the_limit() -> None:
    rules = load_ruleset("single-deck")
    value = Valuation(STRONG, 300, {Suit.H: 300}, {Suit.H: 320.0})
    assert computer_call(rules, value, 250, False) == 250
    assert computer_call(rules, value, 300, False) == 300
    assert computer_call(rules, value, 310, False) is None
    nothing = Valuation(WEAK, None, {}, {})
    assert computer_call(rules, nothing, 250, False) is None
    assert computer_call(rules, nothing, 250, True) == 250  # the dealer stuck takes the minimum


def test_trump_is_a_suit_the_hand_may_name() -> None:
    rules = load_ruleset("double-deck")
    hand = Hand.parse("AS AS 10S KS QS JS AH KH QH JH AD AD 10D KD JD AC AC 10C KC JC")
    assert rules.eligible_trumps(hand) == [Suit.S, Suit.H]
    assert computer_trump(rules, hand, None) in (Suit.S, Suit.H)
    assert computer_trump(rules, hand, Valuation(hand, 60, {Suit.S: 55, Suit.H: 60}, {Suit.S: 1.0, Suit.H: 2.0})) \
        == Suit.H
    assert computer_trump(rules, Hand.parse("AS AS 10S JS AH JH AD AD 10D JD AC AC 10C JC JC 10H 10H JS JD JC"),
                          None) is None


def test_the_auction_facts() -> None:
    rules = load_ruleset("single-deck")
    hands, _ = deal_cards(rules, np.random.default_rng(1))
    state = DealState(rules, dealer=3, hands=hands)
    assert auction_facts(state) == (250, False)
    state.apply("bid 260")
    assert auction_facts(state) == (270, False)


@pytest.mark.parametrize("name", bundled_names())
def test_the_computer_plays_every_turn_of_a_deal(name: str) -> None:
    rules = load_ruleset(name)
    hands, rest = deal_cards(rules, np.random.default_rng(4))
    extra = {"stock": rest} if rules.has_stock else {"widow": rest} if rest else {}
    runs = []
    for _ in range(2):
        state = DealState(rules, dealer=rules.players - 1, hands=hands, **extra)  # type: ignore[arg-type]
        computer = Computer(rules, 4)
        while state.stage != "done":
            state.apply(computer.act(state))
        runs.append(state.history)
    assert runs[0] == runs[1]
    kinds = {a.kind for a in runs[0]}
    assert "play" in kinds and (rules.auction is None or "bid" in kinds or "pass" in kinds)


def test_each_seat_values_its_hand_from_its_own_seed() -> None:
    assert len({seat_seed(7, s) for s in range(4)}) == 4 and seat_seed(7, 0) == seat_seed(7, 0)
