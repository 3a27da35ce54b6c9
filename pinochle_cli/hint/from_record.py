"""A recorded deal seen by one player at one moment: the ``Facts`` of the hint at that card.

The record gives every hand as play began; a player saw its own hand, every other hand's shown
meld (each player shows all its meld: the meld of its recorded hand, the bidder's alone where
only the bidder melds), the bid and the tricks so far. The record keeps no exchange, so none is
given. Games with a stock are seen from the play after it.
"""

from __future__ import annotations

from ..cards import Hand
from ..game.deal import DealPlay, replay_deal
from ..meld import shown_cards
from ..records import DealRecord, MatchRecord
from .facts import Facts, make_facts

__all__ = ["facts_at", "place_of"]


def _replayed(record: MatchRecord, deal: DealRecord) -> tuple[list[Hand], int | None, DealPlay]:
    """The hands at the start of play in seat order, the bidder's seat, and the deal replayed."""
    assert deal.hands is not None and deal.play is not None and deal.trump is not None and deal.leader is not None
    seating = record.table.seating
    hands = [deal.hands[p] for p in seating]
    bidder = seating.index(deal.bidder) if deal.bidder is not None and deal.bidder in seating else None
    played = replay_deal(record.rules, hands, deal.trump, deal.leader, deal.play, stock=deal.stock, bidder=bidder)
    return hands, bidder, played


def facts_at(record: MatchRecord, deal: DealRecord, trick: int, place: int) -> Facts:
    """The view of the player of card ``place`` (from 0) of trick ``trick`` (from 1) of ``deal``, before it plays."""
    rules = record.rules
    assert deal.play is not None and deal.trump is not None
    hands, bidder, played = _replayed(record, deal)
    leader = played.leaders[trick - 1]
    seat = (leader + place) % rules.players
    # the hand now: what it held when play began, drawn, less what it played
    now = hands[seat]
    for k in range(trick - 1):
        for j, card in enumerate(deal.play[k]):
            if (played.leaders[k] + j) % rules.players == seat:
                now = now.remove(card)
        for who, card in played.draws[k]:
            if who == seat:
                now = now.add(card)
    melders = [bidder] if rules.melders == "bidder" and bidder is not None else list(range(rules.players))
    shown = {} if rules.has_stock else {s: shown_cards(rules, hands[s], deal.trump) for s in melders
                                        if s is not None}
    tricks = [list(t) for t in deal.play[:trick - 1]]
    first = played.leaders[0]
    # the bidder knows what it buried
    buried = Hand(deal.buried) if seat == bidder and deal.buried else Hand()
    return make_facts(rules, deal.trump, Hand(now), seat=seat, bidder=bidder, bid=deal.bid, shown=shown,
                      tricks=tricks, leader=first, trick=list(deal.play[trick - 1][:place]), buried=buried)


def place_of(record: MatchRecord, deal: DealRecord, trick: int, seat: int) -> int:
    """Where (from 0) in trick ``trick`` (from 1) of ``deal`` the player at ``seat`` played."""
    return (seat - _replayed(record, deal)[2].leaders[trick - 1]) % record.rules.players
