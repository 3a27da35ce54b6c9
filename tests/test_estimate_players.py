"""The heuristic card player's choices on hand-built states (estimate.players.choose_batch), one behaviour per test.

Seats 0 and 2 are one side, 1 and 3 the other. Cards are written as real cards with a named
trump and turned into the engine's canonical indices (trump is suit 0) here.
"""

from __future__ import annotations

import numpy as np
import pytest

from pinochle_cli.cards import ALL_CARDS, Suit, parse_cards
from pinochle_cli.estimate.players import PlayTables, canonical_order, choose_batch, legal_mask_batch, play_batch
from pinochle_cli.ruleset import Ruleset, load_ruleset

TRUMP = Suit.H


def canon(cards: str, trump: Suit = TRUMP) -> list[int]:
    to_canon = np.argsort(canonical_order(int(trump)))
    return [int(to_canon[c.index]) for c in parse_cards(cards)]


def real(index: int, trump: Suit = TRUMP) -> str:
    return ALL_CARDS[int(canonical_order(int(trump))[index])].ascii()


def choose(rules: Ruleset, hand: str, trick: str = "", *, leader: int = 0, gone: str = "",
           voids: dict[int, str] | None = None, bidding_side: int = 0, policy: str = "heuristic") -> str:
    """The card ``policy`` plays from ``hand`` after ``trick`` (led by ``leader``), one game."""
    tab = PlayTables.build(rules)
    h = np.zeros((1, 24), dtype=np.int64)
    for i in canon(hand):
        h[0, i] += 1
    t = np.array([canon(trick)], dtype=np.int64).reshape(1, -1)
    played = np.zeros((1, 24), dtype=np.int64)
    for i in canon(gone) + t[0].tolist():
        played[0, i] += 1
    void = np.zeros((1, rules.players, 4), dtype=bool)
    for seat, suits in (voids or {}).items():
        for letter in suits.split():
            void[0, seat, canon(f"A{letter}")[0] // 6] = True
    seat = np.array([(leader + t.shape[1]) % rules.players])
    card = choose_batch(tab, policy, h, played, void, seat, t, np.array([leader]), bidding_side=bidding_side)
    return real(int(card[0]))


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


# --------------------------------------------------------------------------- properties of the batch API

@pytest.mark.parametrize("name", ["single-deck", "double-deck"])
@pytest.mark.parametrize("policy", ["heuristic", "greedy", "random"])
def test_choices_are_always_legal(name: str, policy: str) -> None:
    rules = load_ruleset(name)
    tab = PlayTables.build(rules)
    rng = np.random.default_rng(5)
    n, p = 400, rules.players
    cards = np.repeat(np.arange(24), np.array(rules.deck.full().counts))
    deal = rng.permuted(np.broadcast_to(cards, (n, len(cards))), axis=1).reshape(n, p, rules.hand_size)
    k = 2
    trick = deal[:, 1:1 + k, 0]  # seats 1‥k played their first card; seat k+1 moves next
    hand = np.zeros((n, 24), dtype=np.int64)
    np.add.at(hand, (np.repeat(np.arange(n), rules.hand_size), deal[:, k + 1].ravel()), 1)
    played = np.zeros((n, 24), dtype=np.int64)
    np.add.at(played, (np.repeat(np.arange(n), k), trick.ravel()), 1)
    void = np.zeros((n, p, 4), dtype=bool)
    seat = np.full(n, k + 1)
    card = choose_batch(tab, policy, hand, played, void, seat, trick, np.ones(n, dtype=np.int64), rng=rng)
    win_pos = np.where(tab.beats[trick[:, 0], trick[:, 1]], 1, 0)
    legal = legal_mask_batch(tab, hand > 0, tab.suit[trick[:, 0]], trick[np.arange(n), win_pos],
                       np.zeros(n, dtype=bool) if p != 4 else (1 + win_pos) % 2 == (k + 1) % 2)
    assert legal[np.arange(n), card].all()


def test_heuristic_beats_random_and_greedy_players() -> None:
    rules = load_ruleset("single-deck")
    tab = PlayTables.build(rules)
    rng = np.random.default_rng(3)
    n = 600
    cards = np.repeat(np.arange(24), np.array(rules.deck.full().counts))
    slots = rng.permuted(np.broadcast_to(cards, (n, len(cards))), axis=1).reshape(n * 4, rules.hand_size)
    hands = np.zeros((n * 4, 24), dtype=np.int64)
    np.add.at(hands, (np.repeat(np.arange(n * 4), rules.hand_size), slots.ravel()), 1)
    hands = hands.reshape(n, 4, 24)
    for other in ("random", "greedy"):
        total = 0
        for side in (0, 1):
            pol = ["heuristic" if s % 2 == side else other for s in range(4)]
            points, _ = play_batch(tab, hands, np.zeros(n, dtype=np.int64), policies=pol, rng=rng)
            total += int(points[:, side].sum())
        assert total / (2 * n * rules.counter_total) > 0.53, other
