"""The computer player (``player/``) as a ``game.deal`` strategy, for the benchmarks that play deals with it.

``seat_view(pt, state)`` is what the seat to move in ``state`` has seen, as ``player.play.choose_card`` reads it:
its hand, the cards in the other hands, the suits each seat has shown it lacks (a seat that did not follow the
suit led lacks it; one that did not trump either lacks trumps too where the ruleset's duties say so:
``player.tables.INFERRED``), the trick and its leader. ``heuristic_strategy(rules)`` plays that card. Seats count
from the bidder: seat 0 bids, or no seat does.
"""

from __future__ import annotations

import numpy as np

from pinochle_cli.cards import ALL_CARDS, N_CARDS, Card
from pinochle_cli.game.deal import Strategy
from pinochle_cli.game.state import DealState
from pinochle_cli.player.play import SeatView, choose_card
from pinochle_cli.player.tables import INFERRED, META, PlayerTables
from pinochle_cli.ruleset import Ruleset


def seat_view(pt: PlayerTables, state: DealState) -> SeatView:
    """What the seat to move in ``state`` has seen (see the module docstring)."""
    p = state.rules.players
    seat, trump = state.turn.seat, state.trump
    assert seat is not None and trump is not None
    hands = [np.array(state.hand(s).counts, dtype=np.int64) for s in range(p)]
    voids = np.zeros((p, 4), dtype=bool)
    for trick in state.tricks:
        led = trick.cards[0].suit
        for k, card in enumerate(trick.cards[1:], 1):
            if card.suit != led:
                voids[(trick.leader + k) % p, int(led)] = True
                if card.suit != trump and pt.table[META, INFERRED]:
                    voids[(trick.leader + k) % p, int(trump)] = True
    unseen = sum((hands[s] for s in range(p) if s != seat), np.zeros(N_CARDS, dtype=np.int64))
    return SeatView(int(trump), seat, hands[seat], unseen, voids, tuple(c.index for c in state.trick), state.leader)


def heuristic_strategy(rules: Ruleset) -> Strategy:
    """The computer player's card for the seat to move (a ``game.deal.play_deal`` strategy)."""
    pt = PlayerTables.build(rules)

    def choose(state: DealState, legal: list[Card]) -> Card:
        return ALL_CARDS[choose_card(pt, seat_view(pt, state))]

    return choose
