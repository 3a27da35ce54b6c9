"""``pinochle legal``: the cards a player may play to a trick, and why a card is refused."""

from __future__ import annotations

from typing import Any

import click

from ..cards import Card, Deck, Hand, format_cards, parse_card
from ..errors import CardError, PlayError
from ..game.tricks import PHASES, check_play, legal_plays, trick_winner
from ..ruleset import Ruleset
from .common import (
    CONTEXT_SETTINGS,
    emit_json,
    get_ruleset,
    get_trump,
    heading,
    json_option,
    read_cards,
    ruleset_options,
    table,
    trump_option,
)


def _check(deck: Deck, cards: list[Card], where: str) -> Hand:
    try:
        return deck.check(cards)
    except CardError as exc:
        raise CardError(f"{where}: {exc}") from None


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _who(rules: Ruleset, trick: list[Card], position: int, bidder: int | None) -> str:
    """Whose card is at ``position`` of the trick, seen by the next player (the leader at seat 0; ``bidder``:
    the bidder's seat, when the auction forms the sides)."""
    me = len(trick) % rules.players
    by = "the leader" if position == 0 else f"the {_ordinal(position + 1)} player"
    if bidder is not None and position == bidder:
        by += ", the bidder"
    side = "your partner" if rules.deal_side_of(position, bidder) == rules.deal_side_of(me, bidder) else "an opponent"
    return f"{by}, {side}"


def _bidder_seat(rules: Ruleset, bidder: int | None) -> int | None:
    """The bidder's seat (the leader at 0) from ``--bidder`` (1 the leader, 2 the second to play …); the
    leader when not given in a game whose auction forms the sides (the bidder leads the first trick)."""
    if not rules.sides_by_auction:
        if bidder is not None:
            raise PlayError(f"--bidder does not apply: in {rules.name} the partnerships are fixed")
        return None
    if bidder is None:
        return 0
    if not 1 <= bidder <= rules.players:
        raise PlayError(f"--bidder {bidder}: the players of a trick are counted from 1 (the leader) to "
                        f"{rules.players}")
    return bidder - 1


def _bidder_words(trick: list[Card], seat: int | None, players: int) -> str:
    """The heading's note of who bid, in a game whose auction forms the sides ("" otherwise)."""
    if seat is None:
        return ""
    if seat == len(trick) % players:
        return ", you are the bidder"
    return ", the bidder " + ("leads" if seat == 0 else f"plays {_ordinal(seat + 1)}")


def _check_sizes(rules: Ruleset, hand: Hand, trick: list[Card], phase: str | None) -> None:
    """A hand no larger than a dealt one, a trick not complete, and a phase iff the game has a stock."""
    if len(hand) > rules.hand_size:
        raise PlayError(f"--hand has {len(hand)} cards; a hand in {rules.name} has at most {rules.hand_size}")
    if len(trick) >= rules.players:
        raise PlayError(f"--trick has {len(trick)} cards: with {rules.players} players that trick is "
                        f"complete and nobody is left to play to it")
    if rules.has_stock and phase is None:
        raise PlayError(f"{rules.name} has a stock: give --phase stock or --phase play-off")
    if not rules.has_stock and phase is not None:
        raise PlayError(f"{rules.name} has no stock: --phase does not apply")


@click.command("legal", context_settings=CONTEXT_SETTINGS)
@click.option("--hand", "hand_text", required=True, metavar="CARDS", help="The cards you hold.")
@click.option("--trick", "trick_text", default="", metavar="CARDS",
              help="Cards already played to this trick, leader first (empty when leading).")
@trump_option(required=True)
@ruleset_options
@click.option("--phase", type=click.Choice(PHASES, case_sensitive=False), default=None,
              help="stock or play-off: required by games with a stock, refused by the others.")
@click.option("--play", "play_text", default=None, metavar="CARD",
              help="Ask whether this card may be played (exit 1 if not).")
@click.option("--bidder", "bidder", type=int, default=None, metavar="N",
              help="Games whose auction forms the sides: the bidder plays Nth to this trick "
                   "(1 the leader, the default; you are the next to play).")
@json_option
def legal(hand_text: str, trick_text: str, trump: str, ruleset: str | None, options: tuple[str, ...],
          phase: str | None, play_text: str | None, bidder: int | None, as_json: bool) -> None:
    """The legal plays to a trick, the card now winning it, and with --play whether CARD is allowed.

    \b
    Examples:
      pinochle legal --hand "10S JS AC" --trick KS -t H
      pinochle legal --hand "KH 9H" --trick "AS QH" -t H --play 9H
      pinochle legal -r two-handed --phase play-off --hand "AS 9D" --trick KS -t D
      pinochle legal -r three-handed --hand "AS 9D KH" --trick "KS TS" -t D --bidder 2
    """
    rules = get_ruleset(ruleset, options)
    suit = get_trump(trump, rules)
    hand_cards = read_cards(hand_text, "--hand")
    trick = read_cards(trick_text, "--trick")
    card = parse_card_at(play_text) if play_text is not None else None
    if not hand_cards:
        raise PlayError("--hand is empty: give the cards you hold")
    hand = _check(rules.deck, hand_cards, "--hand")
    _check(rules.deck, trick, "--trick")
    _check(rules.deck, hand_cards + trick, "--hand and --trick together")
    if card is not None:
        _check(rules.deck, [card], "--play")
    _check_sizes(rules, hand, trick, phase)
    phase = phase.lower() if phase else None
    seat = _bidder_seat(rules, bidder)

    allowed = legal_plays(rules, hand, trick, suit, phase=phase, bidder=seat)
    win_pos = trick_winner(rules, trick, suit) if trick else None
    winning = trick[win_pos] if win_pos is not None else None
    ruling = check_play(rules, hand, card, trick, suit, phase=phase, bidder=seat) if card is not None else None

    if as_json:
        data: dict[str, Any] = {"legal": [c.ascii() for c in allowed],
                                "winning": winning.ascii() if winning else None}
        if seat is not None:
            data["bidder"] = seat + 1
        if ruling is not None:
            data.update(play=ruling.card.ascii(), allowed=ruling.allowed, reason=ruling.reason,
                        because=[{"duty": duty, "says": says} for duty, says in ruling.because])
        emit_json(data)
    else:
        click.echo(heading(rules, suit) + (f", {phase} phase" if phase else "")
                   + _bidder_words(trick, seat, rules.players))
        rows: list[list[str]] = [["legal", format_cards(allowed)]]
        if winning is None or win_pos is None:
            rows.append(["winning", "nothing yet: you lead"])
        else:
            rows.append(["winning", f"{winning} (played by {_who(rules, trick, win_pos, seat)})"])
        if ruling is not None:
            verdict = "allowed" if ruling.allowed else "not allowed"
            rows.append(["play", f"{ruling.card}: {verdict} — {ruling.reason}"])
        click.echo(table(rows, tablefmt="plain"))
    if ruling is not None and not ruling.allowed:
        raise click.exceptions.Exit(1)


def parse_card_at(text: str) -> Card:
    try:
        return parse_card(text)
    except CardError as exc:
        raise CardError(f"--play: {exc}") from None
