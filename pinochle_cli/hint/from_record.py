"""A recorded deal seen by one player at one moment: the ``Facts`` of the hint at that card.

The deal is the record's, as ``records.replay.record_state`` makes it a ``DealState`` (every hand as play
began, each player's meld shown, the contract, the tricks); the player sees its own hand, the meld
shown, the bid, the cards it buried and the tricks so far (``facts.facts_of``). Games with a stock are
seen from the play after it.
"""

from __future__ import annotations

from ..records import DealRecord, MatchRecord
from ..records.replay import record_state
from .facts import Facts, facts_of

__all__ = ["facts_at", "place_of"]


def _cards_before(deal: DealRecord, trick: int, place: int) -> int:
    assert deal.play is not None
    return sum(len(t) for t in deal.play[:trick - 1]) + place


def facts_at(record: MatchRecord, deal: DealRecord, trick: int, place: int) -> Facts:
    """The view of the player of card ``place`` (from 0) of trick ``trick`` (from 1) of ``deal``, before it plays."""
    return facts_of(record_state(record, deal, _cards_before(deal, trick, place)))


def place_of(record: MatchRecord, deal: DealRecord, trick: int, seat: int) -> int:
    """Where (from 0) in trick ``trick`` (from 1) of ``deal`` the player at ``seat`` played."""
    state = record_state(record, deal, _cards_before(deal, trick, 0))
    return (seat - state.leader) % record.rules.players
