"""``pinochle record new|add``: keep a match record at the table, one deal at a time."""

from __future__ import annotations

import re

import click

from ..errors import RecordError
from ..recordfile import (
    DealInput,
    append_deal,
    check_name,
    deal_entries,
    new_record_text,
    ruleset_spec_for,
    write_new_record,
)
from ..records import MatchRecord
from ..ruleset import parse_options
from .common import CONTEXT_SETTINGS, complete_player, complete_suit, get_ruleset, json_option, ruleset_options
from .docs_cmd import record_format
from .record_schema_cmd import record_schema
from .score_cmd import show


@click.group("record", context_settings=CONTEXT_SETTINGS)
def record() -> None:
    """Keep a match record at the table: start one, then add each deal as it is scored."""


def _names(text: str) -> list[str]:
    return [n.strip() for n in re.split(r"[,]+", text) if n.strip()]


@record.command("new", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@ruleset_options
@click.option("--team", "teams", multiple=True, metavar="NAME=P1,P2",
              help="A team and its players (partnership games; once per team).")
@click.option("--player", "players", multiple=True, metavar="NAME",
              help="A player (games without partnerships; once per player, in seating order).")
@click.option("--seating", metavar="P1,P2,...", default=None,
              help="Players clockwise from seat 0 [default: the teams alternate].")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
def new(path: str, ruleset: str | None, options: tuple[str, ...], teams: tuple[str, ...],
        players: tuple[str, ...], seating: str | None, force: bool) -> None:
    """Start a match record FILE for a ruleset and its table."""
    rules = get_ruleset(ruleset, options)
    team_list: list[tuple[str, list[str]]] = []
    for item in teams:
        name, sep, members = item.partition("=")
        if not sep or not name.strip() or not _names(members):
            raise RecordError(f"--team {item!r} is not NAME=PLAYER,PLAYER")
        team_list.append((name.strip(), _names(members)))
    for option, names in (("--team", [t for t, _ in team_list]), ("--player", list(players)),
                          ("a player of --team", [p for _, ms in team_list for p in ms])):
        seen: set[str] = set()
        for name in names:
            check_name(name, option)
            if name.lower() in seen:
                raise RecordError(f"{option} {name!r} is given twice")
            seen.add(name.lower())
    if teams and players:
        raise RecordError("give --team (partnership games) or --player (games without partnerships), not both")
    if not teams and not players:
        partnered = any(len(p) > 1 for p in rules.partnerships)
        raise RecordError(f"the {rules.name} game needs its table: "
                          + (f"--team NAME=P1,P2 for each of its {len(rules.partnerships)} teams" if partnered
                             else f"--player NAME for each of its {rules.players} players"))
    seats = [n for n in re.split(r"[\s,]+", seating or "") if n]
    text = new_record_text(ruleset_spec_for(ruleset, rules, path), parse_options(options), teams=team_list,
                           players=list(players), seating=seats)
    made = write_new_record(path, text, force=force)
    click.echo(f"Started {path}: {made.rules.name}, {made.table.describe()}.")
    click.echo(f"Add deals with: pinochle record add {path} --dealer ... --bidder ... --bid ... --meld ... "
               "--counters ...")


@record.command("add", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--dealer", metavar="PLAYER", shell_complete=complete_player,
              help="Who dealt [default: the next player after the last dealer].")
@click.option("--bidder", metavar="PLAYER", shell_complete=complete_player, help="Who won the auction.")
@click.option("--bid", type=int, metavar="N", help="The contract.")
@click.option("-t", "--trump", metavar="SUIT", shell_complete=complete_suit,
              help="The trump suit: S H D C, a name or ♠ ♥ ♦ ♣.")
@click.option("--auction", metavar="CALLS", help='The calls from the dealer\'s left, e.g. "250 pass 260 pass pass".')
@click.option("--meld", "meld", multiple=True, metavar="SIDE=N",
              help="Meld by team or player (repeatable); a player's may be the cards shown.")
@click.option("--counters", "counters", multiple=True, metavar="SIDE=N",
              help="Counters taken by team or player (repeatable); one side left out is inferred.")
@click.option("--tricks", "tricks", multiple=True, metavar="SIDE=N", help="Tricks taken (repeatable).")
@click.option("--conceded", is_flag=True, help="The bidding side threw the deal in after the meld.")
@click.option("--no-trump", "no_trump", is_flag=True, help="The bidder held no suit they could name.")
@click.option("--redeal", is_flag=True, help="The deal was thrown in before the auction.")
@click.option("--note", "note", metavar="TEXT", help="A note kept with the deal.")
@json_option
def add(path: str, dealer: str | None, bidder: str | None, bid: int | None, trump: str | None,
        auction: str | None, meld: tuple[str, ...], counters: tuple[str, ...], tricks: tuple[str, ...],
        conceded: bool, no_trump: bool, redeal: bool, note: str | None, as_json: bool) -> None:
    """Add a deal to FILE, checked against the ruleset and the record first; print the standings.

    Sides may be named in full or abbreviated (NS for North-South, a unique start of a name).
    """
    given = DealInput(dealer, bidder, bid, trump, auction, meld, counters, tricks, conceded, no_trump, redeal, note)

    def build(current: MatchRecord) -> list[tuple[str, object]]:
        return deal_entries(current, given)

    updated = append_deal(path, build)
    if not as_json:
        click.echo(f"Added deal {len(updated.deals)} to {path}.\n")
    show(updated, as_json)


record.add_command(record_format)
record.add_command(record_schema)
