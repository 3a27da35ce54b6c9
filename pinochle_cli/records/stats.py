"""Statistics over one or many match records: who bids, who makes it, whose meld is big.

Per side (a team, or a player in games without partnerships) and per player, over every
deal of every record given:

* ``deals``: deals played (redeals not counted); ``bid``: deals this side or player won the
  auction; of those ``made``, ``set`` (set, not on board or left without trump: the bid was
  lost) and ``conceded``; ``made_rate``: made / bid;
* ``average_bid``: of the deals bid; ``average_meld`` and ``biggest_meld``: the side's meld
  over the deals played; ``points_per_deal``: the side's points over the deals played;
* ``games`` and ``games_won``: records played and won.

A player's meld, points and games are their side's (a record gives meld by side as often as
by player).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import MatchRecord

__all__ = ["LOST", "PlayerStats", "record_stats"]

# results in which the bidders lost their bid
LOST = ("set", "not-on-board", "no-trump")


@dataclass
class PlayerStats:
    """What is counted for one side or player."""

    name: str
    deals: int = 0
    bid: int = 0
    made: int = 0
    set: int = 0
    conceded: int = 0
    bids: list[int] = field(default_factory=list)
    melds: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    games: int = 0
    games_won: int = 0

    @property
    def made_rate(self) -> float | None:
        return self.made / self.bid if self.bid else None

    @property
    def average_bid(self) -> float | None:
        return sum(self.bids) / len(self.bids) if self.bids else None

    @property
    def average_meld(self) -> float | None:
        return sum(self.melds) / len(self.melds) if self.melds else None

    @property
    def biggest_meld(self) -> int | None:
        return max(self.melds) if self.melds else None

    @property
    def points_per_deal(self) -> float | None:
        return sum(self.points) / len(self.points) if self.points else None

    def to_json(self) -> dict[str, Any]:
        def rounded(x: float | None) -> float | None:
            return None if x is None else round(x, 3)
        return {"name": self.name, "deals": self.deals, "bid": self.bid, "made": self.made, "set": self.set,
                "conceded": self.conceded, "made_rate": rounded(self.made_rate),
                "average_bid": rounded(self.average_bid), "average_meld": rounded(self.average_meld),
                "biggest_meld": self.biggest_meld, "points_per_deal": rounded(self.points_per_deal),
                "games": self.games, "games_won": self.games_won}


def _count_bid(tally: PlayerStats, bid: int | None, result: str | None) -> None:
    tally.bid += 1
    if bid is not None:
        tally.bids.append(bid)
    if result == "made":
        tally.made += 1
    elif result in LOST:
        tally.set += 1
    elif result == "conceded":
        tally.conceded += 1


def _count_record(record: MatchRecord, sides: dict[str, PlayerStats], players: dict[str, PlayerStats]) -> None:
    table = record.table

    def side_of(index: int) -> list[PlayerStats]:
        names = [table.sides[index]] if table.teams else []
        return [sides.setdefault(n, PlayerStats(n)) for n in names] + [
            players.setdefault(p, PlayerStats(p)) for p in table.members[index]]

    for index in range(len(table.sides)):
        for tally in side_of(index):
            tally.games += 1
            tally.games_won += record.winner == table.sides[index]
    for deal in record.deals:
        if deal.redeal:
            continue
        for index in range(len(table.sides)):
            for tally in side_of(index):
                tally.deals += 1
                tally.melds.append(deal.meld[index])
                tally.points.append(deal.score.points[index])
        if deal.bidder is not None and deal.bidder_side is not None:
            bidders = [players[deal.bidder]] + ([sides[table.sides[deal.bidder_side]]] if table.teams else [])
            for tally in bidders:
                _count_bid(tally, deal.bid, deal.score.result)


def record_stats(records: Sequence[MatchRecord]) -> tuple[list[PlayerStats], list[PlayerStats]]:
    """(per side, per player) over ``records``; sides are empty in games without partnerships."""
    sides: dict[str, PlayerStats] = {}
    players: dict[str, PlayerStats] = {}
    for record in records:
        _count_record(record, sides, players)
    return list(sides.values()), list(players.values())
