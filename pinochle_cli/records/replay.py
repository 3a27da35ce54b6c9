"""A recorded deal with hands and play, as a ``DealState``: at its first card, and after any number of its cards.

The record gives every hand as play began, the contract, trump, the first leader, the stock and the
buried cards; each player shows all its meld (the meld of its recorded hand, the bidder's alone where
only the bidder melds; none in a game with a stock, whose meld is declared as it goes). The record
keeps no exchange, so none is given.
"""

from __future__ import annotations

from ..cards import Hand
from ..errors import PlayError
from ..game.state import DealState
from ..meld import shown_cards
from .model import DealRecord, MatchRecord

__all__ = ["record_state"]


def record_state(record: MatchRecord, deal: DealRecord, cards: int | None = None) -> DealState:
    """``deal`` of ``record`` as a ``DealState`` after its first ``cards`` cards (None: all of them, every
    card checked); ``PlayError`` when the deal has no recorded play."""
    if deal.hands is None or deal.play is None or deal.trump is None or deal.leader is None:
        raise PlayError(f"deal {deal.number} has no recorded play (it needs hands: and play:)")
    rules = record.rules
    seating = record.table.seating
    hands = [deal.hands[p] for p in seating]
    bidder = seating.index(deal.bidder) if deal.bidder is not None and deal.bidder in seating else None
    melders = [bidder] if rules.melders == "bidder" and bidder is not None else list(range(rules.players))
    shown = {} if rules.has_stock else {s: shown_cards(rules, hands[s], deal.trump) for s in melders
                                        if s is not None}
    state = DealState.at_play(rules, deal.trump, leader=deal.leader, bidder=bidder, bid=deal.bid, hands=hands,
                              shown=shown, buried=Hand(deal.buried) if deal.buried else None, stock=deal.stock,
                              names=seating, widow=Hand(deal.widow) if deal.widow else None)
    played = [c for trick in deal.play for c in trick]
    for card in played[:cards]:
        state.play(card)
    return state
