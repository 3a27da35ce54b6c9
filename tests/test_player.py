"""The computer player (``player.play``): its choices on hand-built states, one behaviour per test, and the
same player whether it plays a seat at a time or a whole batch of deals.

Seats 0 and 2 are one side, 1 and 3 the other; seat 0 bids. Cards are written as real cards with a
named trump.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pinochle_cli.cards import ALL_CARDS, N_CARDS, Hand, Suit, parse_cards
from pinochle_cli.game.state import DealState
from pinochle_cli.game.tricks import legal_plays, trick_winner
from pinochle_cli.player.play import play_opening, play_relabelled
from pinochle_cli.player.seat import SeatView, choose_card, computer_card
from pinochle_cli.player.tables import INFERRED, META, PlayerTables, canonical_order
from pinochle_cli.ruleset import Duty, Ruleset, bundled_names, load_ruleset

TRUMP = Suit.H
DUTY_LISTS = [  # beyond the bundled files: every field of a duty, and no duty at all
    (Duty("follow"), Duty("trump", only_if_winning=True), Duty("beat", partner=False)),
    (Duty("beat", when="trump-led"), Duty("follow"), Duty("trump", when="plain-led", partner=False)),
    (Duty("follow"),),
    (),
]


def _rulesets() -> list[tuple[str, Ruleset]]:
    out = [(name, load_ruleset(name)) for name in bundled_names() if not load_ruleset(name).has_stock]
    out.append(("single-deck-small/trump-lead", load_ruleset("single-deck-small", {"overtake": "trump-lead"})))
    sd = load_ruleset("single-deck")
    out += [(f"single-deck/duties-{i}", dataclasses.replace(sd, play=dataclasses.replace(sd.play, duties=d)))
            for i, d in enumerate(DUTY_LISTS)]
    return out


RULESETS = _rulesets()


def _counts(cards: str) -> np.ndarray:
    out = np.zeros(N_CARDS, dtype=np.int64)
    for c in parse_cards(cards):
        out[c.index] += 1
    return out


def choose(rules: Ruleset, hand: str, trick: str = "", *, leader: int = 0, gone: str = "",
           voids: dict[int, str] | None = None, bidding_side: int = 0) -> str:
    """The card the player plays from ``hand`` after ``trick`` (led by ``leader``), the cards ``gone`` played
    before this trick."""
    full = np.array(rules.deck.full().counts, dtype=np.int64)
    unseen = full - _counts(hand) - _counts(gone) - _counts(trick)
    void = np.zeros((rules.players, 4), dtype=bool)
    for seat, suits in (voids or {}).items():
        for letter in suits.split():
            void[seat, int(parse_cards(f"A{letter}")[0].suit)] = True
    seat = (leader + len(parse_cards(trick))) % rules.players
    view = SeatView(int(TRUMP), seat, _counts(hand), unseen, void, tuple(c.index for c in parse_cards(trick)), leader)
    return ALL_CARDS[choose_card(PlayerTables.build(rules), view, bidding_side)].ascii()


@pytest.fixture(scope="module")
def single() -> Ruleset:
    return load_ruleset("single-deck")


# --------------------------------------------------------------------------- the last player

def test_last_player_smears_the_ace_on_the_partners_winning_trick(single: Ruleset) -> None:
    # seat 1 (partner of seat 3) wins with the trump ace; seat 3 holds no club and no trump
    assert choose(single, "AS 9S 9D", "AC AH 9C", leader=0) == "AS"


def test_last_player_ducks_the_nine_when_the_opponents_win(single: Ruleset) -> None:
    # the A♣ wins, seat 3 must follow clubs and cannot beat it: the 9, not the counter
    assert choose(single, "KC 9C AS", "AC 9C JC", leader=0) == "9C"


def test_last_player_wins_with_the_cheapest_trump_when_trumping(single: Ruleset) -> None:
    # void in clubs: must trump and beat; both trumps win, the ace of trump is kept
    assert choose(single, "AH JH 9S", "AC 9C JC", leader=0) == "JH"


def test_last_player_takes_the_trick_with_a_counter_when_it_wins_anyway(single: Ruleset) -> None:
    # K♣ and 10♣ both beat the Q♣: the 10 adds a counter as cheaply as the king
    assert choose(single, "TC KC 9S", "QC 9C JC", leader=0) == "KC"  # both 10-pointers: the weaker keeps the 10
    assert choose(single, "TC JS 9S", "QC 9C JC", leader=0) == "TC"


# --------------------------------------------------------------------------- second and third players

def test_third_player_feeds_a_counter_to_the_partners_sure_ace(single: Ruleset) -> None:
    # partner (seat 0) led the A♠, seat 1 followed; nobody still to play can beat it
    assert choose(single, "KS JS 9D", "AS 9S", leader=0) == "KS"


def test_third_player_keeps_counters_when_the_last_opponent_ruffs(single: Ruleset) -> None:
    # seat 3 has shown it holds no spade (and may hold trump): the ace is not safe
    assert choose(single, "KS JS 9D", "AS 9S", leader=0, voids={3: "S"}) == "JS"


def test_second_player_takes_the_trick_with_a_sure_winner_and_its_counter(single: Ruleset) -> None:
    # the other A♠ is gone: the A♠ held is a sure winner and beats the led king
    assert choose(single, "AS JS 9D", "KS", leader=0, gone="AS") == "AS"


# --------------------------------------------------------------------------- leading

def test_leader_cashes_a_sure_ace_before_leading_trump(single: Ruleset) -> None:
    assert choose(single, "AH TH KH AS 9S 9D", bidding_side=0) == "AS"


def test_leader_does_not_cash_into_a_shown_ruff(single: Ruleset) -> None:
    assert choose(single, "AS 9S JD 9D", voids={1: "S"}, bidding_side=0) != "AS"


def test_bidding_side_pulls_trump_from_strength(single: Ruleset) -> None:
    # no plain winner to cash; the bidder holds most of the trump still out: lead the top trump
    gone = "TH TH KH QH QH JH JH 9H 9H"  # every trump but A♥ A♥ K♥ is gone; the bidder holds A♥ K♥
    assert choose(single, "AH KH JS 9D", gone=gone, bidding_side=0) == "AH"
    assert choose(single, "AH KH JS 9D", gone=gone, bidding_side=1) != "AH"  # defenders do not


def test_leader_leads_low_without_a_sure_winner(single: Ruleset) -> None:
    assert choose(single, "KS JS TD 9D") == "9D"


# --------------------------------------------------------------------------- one seat and a batch: one player

def _deals(rules: Ruleset, n: int, seed: int) -> np.ndarray:
    """``n`` random deals as ``(n, players, 24)`` counts."""
    rng = np.random.default_rng(seed)
    cards = np.repeat(np.arange(N_CARDS), np.array(rules.deck.full().counts))
    dealt = rng.permuted(np.broadcast_to(cards, (n, len(cards))), axis=1)[:, :rules.players * rules.hand_size]
    hands = np.zeros((n, rules.players, N_CARDS), dtype=np.int64)
    for g in range(n):
        for s in range(rules.players):
            np.add.at(hands[g, s], dealt[g, s * rules.hand_size:(s + 1) * rules.hand_size], 1)
    return hands


def _seat_by_seat(rules: Ruleset, pt: PlayerTables, hands: np.ndarray, trump: int) -> tuple[list[int], int]:
    """One deal played a card at a time with ``choose_card`` (each seat seeing only what it may see), every card
    checked against ``legal_plays``: the counters per side and the tricks' winner list."""
    p = rules.players
    held = hands.copy()
    unseen_all = hands.sum(axis=0)
    voids = np.zeros((p, 4), dtype=bool)
    side = [rules.deal_side_of(s, 0) for s in range(p)]
    points, lead = [0] * len(rules.deal_sides(0)), 0
    for k in range(rules.tricks_per_deal):
        trick: list[int] = []
        for j in range(p):
            seat = (lead + j) % p
            view = SeatView(trump, seat, held[seat].copy(), unseen_all - held[seat], voids.copy(), tuple(trick), lead)
            card = choose_card(pt, view, 0)
            cards = [ALL_CARDS[c] for c in trick]
            hand = Hand.from_counts([int(x) for x in held[seat]])
            assert ALL_CARDS[card] in legal_plays(rules, hand, cards, Suit(trump), leader_seat=lead, bidder=0)
            if trick and card // 6 != trick[0] // 6:
                voids[seat, trick[0] // 6] = True
                if card // 6 != trump and pt.table[META, INFERRED]:
                    voids[seat, trump] = True
            held[seat, card] -= 1
            unseen_all[card] -= 1
            trick.append(card)
        win = (lead + trick_winner(rules, [ALL_CARDS[c] for c in trick], Suit(trump))) % p
        points[side[win]] += sum(rules.counter_value(ALL_CARDS[c]) for c in trick)
        points[side[win]] += rules.last_trick if k == rules.tricks_per_deal - 1 else 0
        lead = win
    return points, lead


@pytest.mark.parametrize(("name", "rules"), RULESETS, ids=[n for n, _ in RULESETS])
def test_a_seat_at_a_time_plays_the_batchs_deals(name: str, rules: Ruleset) -> None:
    """``choose_card`` from each seat's own view plays every deal to the points ``play_relabelled`` gives, every
    card legal by the one definition of the duties."""
    pt = PlayerTables.build(rules)
    hands = _deals(rules, 6, 11)
    trump = np.array([g % 4 for g in range(len(hands))], dtype=np.int64)
    orders = np.array([canonical_order(t) for t in range(4)])
    points, _ = play_relabelled(pt, hands, orders, trump, np.zeros(len(hands), dtype=np.int64))
    for g in range(len(hands)):
        seat_points, _ = _seat_by_seat(rules, pt, hands[g], int(trump[g]))
        assert seat_points == list(points[g]), g


def test_the_opening_is_the_first_tricks_of_the_whole_play() -> None:
    rules = load_ruleset("single-deck")
    pt = PlayerTables.build(rules)
    hands = _deals(rules, 50, 3)
    trump = np.full(50, int(Suit.D))
    orders = np.array([canonical_order(t) for t in range(4)])
    leader = np.arange(50) % 4
    whole, won = play_relabelled(pt, hands, orders, trump, leader)
    nothing = play_opening(pt, hands, orders, trump, leader, 0)
    assert (nothing.hands == hands).all() and (nothing.leader == leader).all() and not nothing.points.any()
    five = play_opening(pt, hands, orders, trump, leader, 5)
    assert (five.hands.sum(axis=(1, 2)) == 48 - 5 * 4).all() and ((hands - five.hands) >= 0).all()
    assert (five.tricks.sum(axis=1) == 5).all() and (five.points <= whole).all()
    every = play_opening(pt, hands, orders, trump, leader, rules.tricks_per_deal)
    assert (every.points == whole).all() and (every.tricks == won).all() and not every.hands.any()
    with pytest.raises(ValueError, match="a deal has 12"):
        play_opening(pt, hands, orders, trump, leader, 13)


@pytest.mark.parametrize("name", [n for n in bundled_names() if not load_ruleset(n).has_stock
                                  and not load_ruleset(n).widow_size])
def test_the_computer_playing_a_deal_state_plays_the_batchs_deals(name: str) -> None:
    """``computer_card`` at every seat of a ``DealState`` (each seat's view read off the state) plays the deal the
    batch plays, bidder at any seat. (Where a widow is buried the two differ by design: a seat at the table does
    not know the buried cards, while the batch's deals leave them out of every hand.)"""
    rules = load_ruleset(name)
    pt = PlayerTables.build(rules)
    hands = _deals(rules, 4, 21)
    orders = np.array([canonical_order(t) for t in range(4)])
    for g in range(len(hands)):
        bidder = g % rules.players
        trump = Suit(g % 4)
        rotated = np.roll(hands[g], -bidder, axis=0)
        points, _ = play_relabelled(pt, rotated[None], orders, np.array([int(trump)]), np.array([0]))
        state = DealState.at_play(rules, trump, bidder=bidder, leader=bidder,
                                  hands=[Hand.from_counts([int(x) for x in h]) for h in hands[g]])
        while state.stage == "play":
            state.play(computer_card(state))
        ours = [s for s in range(rules.players) if rules.deal_side_of(s, bidder) == rules.deal_side_of(bidder, bidder)]
        assert sum(state.counters()[s] for s in ours) == points[0, 0], g
