"""Each house rule of the README's walkthrough is one changed line of YAML, and changes the game.

The bundled single-deck file is copied, one line is changed, and the same question asked of the
engine gets a different answer; nothing in the code knows which file it holds.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from clihelp import run_cli
from rulesethelp import EditRuleset

from pinochle_cli.cards import Hand, Suit, parse_cards
from pinochle_cli.game.tricks import legal_plays
from pinochle_cli.meld import meld
from pinochle_cli.ruleset import Ruleset, load_ruleset
from pinochle_cli.scoring import DealFacts, score_deal


@pytest.fixture
def house(edited_ruleset: EditRuleset) -> Callable[[str, str], Ruleset]:
    """single-deck with one line changed."""
    return lambda old, new: edited_ruleset("single-deck", (old, new)).rules()


def original() -> Ruleset:
    return load_ruleset("single-deck")


def test_last_trick_worth_twenty(house: Callable[[str, str], Ruleset]) -> None:
    assert original().counter_total == 250
    assert house("last_trick: 10", "last_trick: 20").counter_total == 260


def test_pass_three_cards(house: Callable[[str, str], Ruleset]) -> None:
    assert original().exchange == 4
    assert house("exchange: 4 ", "exchange: 3 ").exchange == 3


def test_need_not_beat_a_partner(house: Callable[[str, str], Ruleset]) -> None:
    # seat 2 plays; the partner (seat 0) led the A♥ and wins; seat 1 played the 9♥.
    trick, hand = parse_cards("AH 9H"), Hand.parse("KH QH")
    assert legal_plays(original(), hand, trick, Suit.S) == parse_cards("KH QH")  # neither beats the ace
    trick = parse_cards("QH 9H")  # the partner's Q♥ wins: must the K♥ beat it?
    assert legal_plays(original(), Hand.parse("KH JH"), trick, Suit.S) == parse_cards("KH")
    rules = house("duties: [follow, trump, beat]", "duties: [follow, trump, {beat: {partner: false}}]")
    assert legal_plays(rules, Hand.parse("KH JH"), trick, Suit.S) == parse_cards("KH JH")


def test_no_forced_trump_that_cannot_win(house: Callable[[str, str], Ruleset]) -> None:
    trick, hand = parse_cards("AH AS"), Hand.parse("9S AC")  # spades trump; void in hearts; 9♠ cannot win
    assert legal_plays(original(), hand, trick, Suit.S) == parse_cards("9S")
    rules = house("duties: [follow, trump, beat]", "duties: [follow, {trump: {only_if_winning: true}}, beat]")
    assert legal_plays(rules, hand, trick, Suit.S) == parse_cards("9S AC")


def test_tens_around_for_fifty(house: Callable[[str, str], Ruleset]) -> None:
    tens = "  tens around: {class: arounds, cards: [TS, TH, TD, TC], points: 50}\n"
    rules = house("  pinochle:", tens + "  pinochle:")
    hand = Hand.parse("10S 10H 10D 10C")
    assert meld(original(), hand, Suit.S).total == 0
    assert meld(rules, hand, Suit.S).total == 50


def test_set_costs_double(house: Callable[[str, str], Ruleset]) -> None:
    facts = DealFacts(meld=(100, 50), counters=(100, 150), bidder_side=0, bid=300, took_trick=(True, True))
    assert score_deal(original(), facts).points == (-300, 200)
    rules = house("set: {bidders: minus-bid, defenders: meld-and-counters}",
                  "set: {bidders: minus-double-bid, defenders: meld-and-counters}")
    assert score_deal(rules, facts).points == (-600, 200)


def test_house_file_through_the_command_line(edited_ruleset: EditRuleset) -> None:
    path = str(edited_ruleset("single-deck", (
        "pinochle:       {class: pinochles, cards: [QS, JD], points: [40, 300]}",
        "pinochle:       {class: pinochles, cards: [QS, JD], points: [50, 300]}")).path)
    bundled = run_cli("meld", "QS JD", "-t", "H")
    mine = run_cli("meld", "QS JD", "-t", "H", "-r", path)
    assert bundled.code == mine.code == 0
    assert bundled.out.splitlines()[-1].split() == ["total", "40"]
    assert mine.out.splitlines()[-1].split() == ["total", "50"]
    assert run_cli("meld", "QS JD", "-t", "H", env={"PINOCHLE_RULESET": path}) == mine


SAVE_20 = ("  keep_meld: trick                    # a team keeps its meld only if it takes a trick",
           "  keep_meld: counter\n  counter_minimum: 20")


def test_twenty_counters_to_save_meld(house: Callable[[str, str], Ruleset]) -> None:
    rules = house(*SAVE_20)
    assert rules.scoring.counter_minimum == 20
    facts = DealFacts(meld=(200, 80), counters=(240, 10), bidder_side=0, bid=300, took_trick=(True, True))
    assert score_deal(original(), facts).points == (440, 90)
    assert score_deal(rules, facts).points == (440, 10)  # the defenders' 10 counters do not save their 80 meld


def test_twenty_counters_in_the_estimate(house: Callable[[str, str], Ruleset]) -> None:
    from pinochle_cli.estimate.simulate import estimate

    hand = "AH 10H KH QH JH 9H AS KS QS AD KC QC"
    base = estimate(original(), Hand.parse(hand), trump=Suit.H, samples=500, seed=3, workers=1)
    strict = estimate(house(SAVE_20[0], SAVE_20[1].replace("counter_minimum: 20", "counter_minimum: 120")
                            + "\n  made_needs: counter"),
                      Hand.parse(hand), trump=Suit.H, samples=500, seed=3, workers=1)
    b = {x.bid: x.p_make for x in base.suits[0].bids}
    s = {x.bid: x.p_make for x in strict.suits[0].bids}
    assert all(s[bid] <= b[bid] for bid in s if bid in b)  # the same deals, a stricter condition
    assert s[250] < b[250]


def test_trump_needs_is_data(house: Callable[[str, str], Ruleset]) -> None:
    hand = Hand.parse("AS KS AH KH QH AD QD 9C KC QC JC TC")
    assert original().eligible_trumps(hand) == list(Suit)
    marriage = house("trump: {source: bid, eligible: any}", "trump: {source: bid, eligible: marriage}")
    assert marriage.eligible_trumps(hand) == [Suit.H, Suit.C]
    ace_king = house("trump: {source: bid, eligible: any}", "trump: {source: bid, needs: [A, K]}")
    assert ace_king.eligible_trumps(hand) == [Suit.S, Suit.H]
    assert ace_king.trump_requirement() == "A and K of the suit"
