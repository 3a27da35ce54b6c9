"""A record at a glance: each side's total, what it still needs, the deals played, who deals next.

Also the summary of several games (a night or a season, one record per game): each game's
result and how many games each side won.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import MatchRecord

__all__ = ["Brief", "GameResult", "brief", "ending", "game_results", "games_won", "next_dealer"]


def next_dealer(record: MatchRecord) -> str | None:
    """The player after the last recorded dealer, clockwise (None before anyone is known to have dealt)."""
    for deal in reversed(record.deals):
        if deal.dealer is not None:
            table = record.table
            return table.seating[(table.seat_of(deal.dealer) + 1) % len(table.seating)]
    return None


def ending(record: MatchRecord) -> str | None:
    """Why the match ended (``MatchRecord.ending``); None while it goes on."""
    return record.ending


@dataclass(frozen=True)
class Brief:
    """The standing in a few facts."""

    sides: tuple[str, ...]
    totals: tuple[int, ...]
    # points each side still needs to reach the target (None: fixed deals)
    needs: tuple[int, ...] | None
    target: int | None
    # deals in the record, redeals included
    deals_played: int
    # in a match of a fixed number of deals
    deals_left: int | None
    # in-progress, won, draw
    status: str
    winner: str | None
    # None when the match is over or nobody has dealt yet
    next_dealer: str | None
    # why the match ended (``ending``), None while it goes on
    ended: str | None = None


def brief(record: MatchRecord) -> Brief:
    st = record.standing
    match = record.rules.match
    needs = None if match.target is None else tuple(max(0, match.target - t) for t in st.totals)
    left = None if match.deals is None else max(0, match.deals - st.deals)
    over = st.status != "in-progress"
    return Brief(record.sides, st.totals, needs, match.target, len(record.deals), left, st.status, record.winner,
                 None if over else next_dealer(record), ending(record))


@dataclass(frozen=True)
class GameResult:
    """One game of a night: where it was kept, its sides and totals, and how it stands."""

    source: str
    sides: tuple[str, ...]
    totals: tuple[int, ...]
    status: str
    winner: str | None
    deals: int
    # the record's title, None without one
    title: str | None = None


def game_results(records: Sequence[MatchRecord]) -> list[GameResult]:
    return [GameResult(r.source, r.sides, r.standing.totals, r.standing.status, r.winner, len(r.deals), r.title)
            for r in records]


def games_won(records: Sequence[MatchRecord]) -> dict[str, int]:
    """Games won by each side name over the records (every side that played is listed, winners first)."""
    won: dict[str, int] = {}
    for record in records:
        for side in record.sides:
            won.setdefault(side, 0)
        if record.winner is not None:
            won[record.winner] += 1
    return dict(sorted(won.items(), key=lambda item: -item[1]))
