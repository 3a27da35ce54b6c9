"""``pinochle stats RECORD...``: who bids, who makes it, whose meld is big — per side and per player."""

from __future__ import annotations

from typing import Any

import click
from tabulate import SEPARATING_LINE

from ..records import read_record
from ..records.stats import PlayerStats, record_stats
from ..yamlsource import check_distinct
from .common import CONTEXT_SETTINGS, emit_json, json_option, tight_table

BIDDING = ["bid", "made", "set", "conceded", "made %", "average bid"]
PLAY = ["games", "won", "deals", "average meld", "top meld", "points/deal"]


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _bidding(t: PlayerStats) -> list[object]:
    rate = None if t.made_rate is None else 100 * t.made_rate
    return [t.name, t.bid, t.made, t.set, t.conceded, _number(rate), _number(t.average_bid)]


def _play(t: PlayerStats) -> list[object]:
    return [t.name, t.games, t.games_won, t.deals, _number(t.average_meld), _number(t.biggest_meld),
            _number(t.points_per_deal)]


def _tables(sides: list[PlayerStats], players: list[PlayerStats], bids: bool) -> list[str]:
    """The bidding table and the meld-and-points table, sides first, then players."""
    out = []
    for title, headers, row in (("Bidding", BIDDING, _bidding), ("Meld, points and games", PLAY, _play)):
        if title == "Bidding" and not bids:
            continue
        rows: list[Any] = [row(t) for t in sides]
        rows += ([SEPARATING_LINE] if sides else []) + [row(t) for t in players]
        # numbers to the right, also in a column where some row has none ("-")
        align = ["left"] + ["right"] * len(headers)
        out += [title, "", tight_table(rows, ["side / player" if sides else "player", *headers], align), ""]
    return out[:-1]


@click.command("stats", context_settings=CONTEXT_SETTINGS)
@click.argument("record_paths", metavar="RECORD...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@json_option
def stats(record_paths: tuple[str, ...], as_json: bool) -> None:
    """Statistics over match records (a game each: a night, a season), per side and per player.

    Deals bid, made, set (set, not on board or without trump) and conceded, the made rate, the
    average bid, the side's average and biggest meld and points per deal, games played and won.
    A player's meld, points and games are their side's.
    """
    check_distinct(record_paths)
    records = [read_record(path) for path in record_paths]
    sides, players = record_stats(records)
    if as_json:
        emit_json({"games": len(records), "sides": [t.to_json() for t in sides],
                   "players": [t.to_json() for t in players]})
        return
    deals = sum(len(r.deals) for r in records)
    head = f"{len(records)} game{'s' if len(records) != 1 else ''}, {deals} deal{'s' if deals != 1 else ''}"
    bids = any(r.rules.auction is not None for r in records)
    click.echo("\n".join([head, "", *_tables(sides, players, bids)]))
