"""The record format (docs/records.md) field by field: each field's checks, with the exact refusal for
each way it can be wrong.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_cli.cards import Hand, format_cards
from pinochle_cli.errors import RecordError
from pinochle_cli.game.deal import deal_cards
from pinochle_cli.meld import meld
from pinochle_cli.records import parse_record
from pinochle_cli.ruleset import load_ruleset

FOUR = "ruleset: single-deck\nteams:\n  North-South: [Ann, Cy]\n  East-West: [Bob, Di]\ndeals:\n"
TWO = "ruleset: two-handed\nplayers: [Pat, Sam]\ndeals:\n"
C = "counters: {North-South: 80, East-West: 170}"
TC = "counters: {Pat: 200, Sam: 50}"


def one_deal(head: str, deal: str):
    return parse_record(f"{head}  {deal}\n", "r.yaml")


# (label, head, deal, exact message): every way a field can be wrong that test_records.py does not cover
REFUSALS = [
    ("dealer stranger", FOUR, f"- {{dealer: Zed, bidder: Bob, bid: 250, {C}}}",
     "r.yaml:6: deal 1, dealer: 'Zed' is not at the table (Ann, Bob, Cy, Di)"),
    ("dealer not a name", FOUR, f"- {{dealer: [Ann], bidder: Bob, bid: 250, {C}}}",
     "r.yaml:6: deal 1, dealer: expected a name, got a list"),
    ("bid as text", FOUR, f"- {{bidder: Bob, bid: '250', {C}}}",
     "r.yaml:6: deal 1, bid: expected a number, got '250'"),
    ("bidder missing", FOUR, f"- {{bid: 250, {C}}}", "r.yaml:6: deal 1, bidder: missing bidder (who won the auction)"),
    ("auction not a list", FOUR, f"- {{dealer: Ann, auction: {{a: 1}}, {C}}}",
     "r.yaml:6: deal 1, auction: expected the calls in order (numbers and pass), got a mapping"),
    ("auction call neither bid nor pass", FOUR, f"- {{dealer: Ann, auction: [250, fold], {C}}}",
     "r.yaml:6: deal 1, auction: call 2 (Cy): 'fold' is neither a bid nor pass"),
    ("auction below the minimum", FOUR, f"- {{dealer: Ann, auction: [240], {C}}}",
     "r.yaml:6: deal 1, auction: call 1 (Bob): 240 is below the minimum bid 250"),
    ("trump not a suit value", FOUR, f"- {{bidder: Bob, bid: 250, trump: [H], {C}}}",
     "r.yaml:6: deal 1, trump: expected a suit, got a list"),
    ("trump with no-trump", FOUR, "- {bidder: Bob, bid: 250, trump: H, no-trump: true}",
     "r.yaml:6: deal 1, trump: a deal with no-trump: true has no trump suit"),
    ("meld not by side", FOUR, f"- {{bidder: Bob, bid: 250, meld: [1, 2], {C}}}",
     "r.yaml:6: deal 1, meld: expected meld by team or player, got a list"),
    ("meld negative", FOUR, f"- {{bidder: Bob, bid: 250, meld: {{Ann: -10}}, {C}}}",
     "r.yaml:6: deal 1, meld.Ann: expected a whole number, got -10"),
    ("meld a fraction", FOUR, f"- {{bidder: Bob, bid: 250, meld: {{Ann: 1.5}}, {C}}}",
     "r.yaml:6: deal 1, meld.Ann: expected a whole number (or, for a player, the cards shown), got 1.5"),
    ("counters not by side", FOUR, "- {bidder: Bob, bid: 250, counters: [80, 170]}",
     "r.yaml:6: deal 1, counters: expected numbers by team or player, got a list"),
    ("counters not a number", FOUR, "- {bidder: Bob, bid: 250, counters: {North-South: lots, East-West: 170}}",
     "r.yaml:6: deal 1, counters.North-South: expected a whole number, got 'lots'"),
    ("counters by team and by its player", FOUR,
     "- {bidder: Bob, bid: 250, counters: {North-South: 80, Ann: 10, East-West: 160}}",
     "r.yaml:6: deal 1, counters: given for North-South and for Ann: give one or the other"),
    ("tricks more than a deal has", FOUR, f"- {{bidder: Bob, bid: 250, {C}, tricks: {{North-South: 13}}}}",
     "r.yaml:6: deal 1, tricks: add up to 13, a deal has 12"),
    ("tricks: the other side is inferred", FOUR, f"- {{bidder: Bob, bid: 250, {C}, tricks: {{East-West: 12}}}}",
     "r.yaml:6: deal 1, tricks: North-South took no trick but 80 counters"),
    ("tricks: every trick but not every counter", FOUR, f"- {{bidder: Bob, bid: 250, {C}, tricks: {{Ann: 12}}}}",
     "r.yaml:6: deal 1, tricks: North-South took every trick but only 80 counters"),
    ("hands not by player", FOUR, f"- {{bidder: Bob, bid: 250, hands: [AS], {C}}}",
     "r.yaml:6: deal 1, hands: expected each player's cards, got a list"),
    ("hands of a team", FOUR, f"- {{bidder: Bob, bid: 250, hands: {{North-South: AS}}, {C}}}",
     "r.yaml:6: deal 1, hands: 'North-South' is not a player at the table (Ann, Bob, Cy, Di)"),
    ("hand beyond the pack", FOUR, f"- {{bidder: Bob, bid: 250, hands: {{Ann: AS AS AS}}, {C}}}",
     "r.yaml:6: deal 1, hands.Ann: 3 copies of A♠ (AS); the single-deck pack has 2"),
    ("stock in a game without one", FOUR, f"- {{bidder: Bob, bid: 250, stock: AS, {C}}}",
     "r.yaml:6: deal 1, stock: the single-deck game has no stock"),
    ("play without hands", FOUR, "- {bidder: Bob, bid: 250, trump: S, play: [[AS, AS, KS, KS]]}",
     "r.yaml:6: deal 1, play: replaying the play needs every player's hand: add hands for Ann, Bob, Cy and Di"),
    ("redeal with an auction", FOUR, "- {dealer: Ann, redeal: true, auction: [pass]}",
     "r.yaml:6: deal 1, auction: a redealt deal was thrown in before the auction: it has no auction"),
    ("redeal not a flag", FOUR, "- {dealer: Ann, redeal: yes please}",
     "r.yaml:6: deal 1, redeal: expected true or false, got 'yes please'"),
    ("two-handed: no bid", TWO, f"- {{bid: 250, {TC}}}", "r.yaml:4: deal 1, bid: the two-handed game has no auction: no bid"),
    ("two-handed: no auction", TWO, f"- {{dealer: Pat, auction: [pass], {TC}}}",
     "r.yaml:4: deal 1, auction: the two-handed game has no auction: no auction"),
    ("two-handed: no bidder", TWO, f"- {{bidder: Pat, {TC}}}",
     "r.yaml:4: deal 1, bidder: the two-handed game has no auction: no bidder"),
    ("two-handed: nobody concedes", TWO, f"- {{conceded: true, {TC}}}",
     "r.yaml:4: deal 1, conceded: the two-handed game has no auction and no bidder to concede"),
    ("two-handed: no deal without trump", TWO, f"- {{no-trump: true, {TC}}}",
     "r.yaml:4: deal 1, no-trump: the two-handed game has no auction and no bidder to be left without trump"),
    ("two-handed: stock beyond the pack", TWO, f"- {{stock: AS AS AS, {TC}}}",
     "r.yaml:4: deal 1, stock: 3 copies of A♠ (AS); the two-handed pack has 2"),
    ("two-handed: stock of one card", TWO, f"- {{stock: AS, {TC}}}",
     "r.yaml:4: deal 1, stock: 1 card, the stock has 24"),
    ("two-handed: counters keyed by a stranger", TWO, "- {counters: {North: 200, Sam: 50}}",
     "r.yaml:4: deal 1, counters: 'North' is not at the table (Pat, Sam)"),
]


@pytest.mark.parametrize(("label", "head", "deal", "message"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals(label, head, deal, message):
    with pytest.raises(RecordError) as info:
        one_deal(head, deal)
    assert str(info.value) == message


# --------------------------------------------------------------------------- auction

@pytest.mark.parametrize(("auction", "bidder", "bid"), [
    ("[250, pass, pass, pass]", "Bob", 250),
    ("'250 260, pass pass pass'", "Cy", 260),
    ("[pass, pass, pass]", "Ann", 250),  # the stuck dealer
])
def test_the_auction_gives_bidder_and_bid(auction, bidder, bid):
    meld = "meld: {North-South: 100, East-West: 100}"
    deal = one_deal(FOUR, f"- {{dealer: Ann, auction: {auction}, {meld}, {C}}}").deals[0]
    assert (deal.bidder, deal.bid) == (bidder, bid)
    # and agrees when both are also given
    same = one_deal(FOUR, f"- {{dealer: Ann, auction: {auction}, bidder: {bidder}, bid: {bid}, {meld}, {C}}}").deals[0]
    assert (same.bidder, same.bid, same.score) == (bidder, bid, deal.score)


# --------------------------------------------------------------------------- hands

SEATS = ("Ann", "Bob", "Cy", "Di")


def hands_text(hands: list[Hand]) -> str:
    return ", ".join(f"{p}: {format_cards(h, ascii=True)}" for p, h in zip(SEATS, hands, strict=True))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from("SHDC"))
def test_four_dealt_hands_are_the_whole_pack_and_their_meld_adds_up_by_team(seed, trump):
    rules = load_ruleset("single-deck")
    hands, stock = deal_cards(rules, np.random.default_rng(seed))
    assert stock == []
    deal = one_deal(FOUR, f"- {{bidder: Bob, bid: 250, trump: {trump}, hands: {{{hands_text(hands)}}}, {C}}}").deals[0]
    assert deal.hands is not None
    union = Hand()
    for hand in deal.hands.values():
        union = union + hand
    assert union == Hand(rules.deck.cards())  # disjoint hands of the right size: the whole pack
    per_player = {p: meld(rules, deal.hands[p], deal.trump).total for p in SEATS}
    assert deal.meld == (per_player["Ann"] + per_player["Cy"], per_player["Bob"] + per_player["Di"])


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_card_in_two_hands_is_refused(seed):
    rules = load_ruleset("single-deck")
    hands, _ = deal_cards(rules, np.random.default_rng(seed))
    # Bob's first card replaced by a copy of one of Ann's that Bob does not hold: three copies or a pair shared
    give = next(c for c in hands[0] if c not in hands[1])
    take = next(iter(hands[1]))
    hands[1] = hands[1].remove(take).add(give)
    copies = sum(h.count(give) for h in hands)
    with pytest.raises(RecordError) as info:
        one_deal(FOUR, f"- {{bidder: Bob, bid: 250, trump: S, hands: {{{hands_text(hands)}}}, {C}}}")
    assert str(info.value) == (f"r.yaml:6: deal 1, hands: the hands share cards: {copies} copies of {give} "
                               f"({give.ascii()}); the single-deck pack has 2")


def test_meld_shown_must_be_in_the_hand():
    rules = load_ruleset("single-deck")
    hands, _ = deal_cards(rules, np.random.default_rng(5))
    missing = next(c for c in rules.deck.cards() if c not in hands[0])
    with pytest.raises(RecordError) as info:
        one_deal(FOUR, f"- {{bidder: Bob, bid: 250, trump: S, hands: {{Ann: {format_cards(hands[0], ascii=True)}}}, "
                       f"meld: {{Ann: {missing.ascii()}}}, {C}}}")
    assert str(info.value) == f"r.yaml:6: deal 1, meld.Ann: Ann showed {missing} not in their hand"


# --------------------------------------------------------------------------- stock (two-handed)

def two_handed_deal(seed: int) -> tuple[list[Hand], list]:
    return deal_cards(load_ruleset("two-handed"), np.random.default_rng(seed))


def test_a_stock_is_checked_against_the_hands_even_without_play():
    hands, stock = two_handed_deal(8)
    hands_map = f"{{Pat: {format_cards(hands[0], ascii=True)}, Sam: {format_cards(hands[1], ascii=True)}}}"
    good = one_deal(TWO, f"- {{hands: {hands_map}, stock: {format_cards(stock, ascii=True)}, {TC}}}")
    assert good.deals[0].score.points == (200, 50)
    card = next(iter(hands[0]))
    bad = [card, card, *stock[2:]]
    with pytest.raises(RecordError) as info:
        one_deal(TWO, f"- {{hands: {hands_map}, stock: {format_cards(bad, ascii=True)}, {TC}}}")
    assert str(info.value).startswith("r.yaml:4: deal 1, stock: ")
    assert f"copies of {card} ({card.ascii()}); the two-handed pack has 2" in str(info.value)


# --------------------------------------------------------------------------- the match decided

SMALL = "ruleset: single-deck-small\noptions: {target: 4-deals}\nteams: {A: [a1, a2], B: [b1, b2]}\ndeals:\n"
SMALL_DEAL = "- {bidder: a1, bid: 25, meld: {A: 10}, counters: {A: 15, B: 10}}"


def test_a_redeal_does_not_count_toward_a_fixed_number_of_deals():
    deals = [SMALL_DEAL, "- {redeal: true}", SMALL_DEAL, SMALL_DEAL, SMALL_DEAL]
    r = parse_record(SMALL + "".join(f"  {d}\n" for d in deals), "r.yaml")
    assert r.standing.status == "won" and r.winner == "A" and len(r.deals) == 5
    with pytest.raises(RecordError) as info:
        parse_record(SMALL + "".join(f"  {d}\n" for d in [*deals, "- {redeal: true}"]), "r.yaml")
    assert str(info.value) == "r.yaml:10: deal 6: the match was already decided after deal 5: A won 100 to 40"
