"""``pinochle meld``: the exact meld of a hand, per trump or for every trump; two-handed declarations."""

from __future__ import annotations

from typing import Any

import click

from ..cards import Card, Hand, Suit, format_cards, parse_cards
from ..errors import CardError, MeldError
from ..meld import (
    Declaration,
    MeldItem,
    MeldResult,
    best_trump,
    check_cards,
    check_declaration,
    meld_by_trump,
    nameable_trumps,
)
from ..meld import meld as best_meld
from ..ruleset import Ruleset
from ..ruleset.rulebook import redeal_text
from .common import (
    CONTEXT_SETTINGS,
    emit_json,
    get_ruleset,
    get_trump,
    heading,
    json_option,
    ruleset_options,
    table,
    trump_option,
)


def _item_json(item: MeldItem) -> dict[str, Any]:
    return {"name": item.name, "cards": [c.ascii() for c in item.cards], "points": item.points,
            "copies": item.copies, "class": item.klass}


def _result_json(result: MeldResult) -> dict[str, Any]:
    return {"melds": [_item_json(m) for m in result.melds], "total": result.total}


def _redeal_text(rules: Ruleset) -> str:
    return f"This hand may call a redeal ({redeal_text(rules)})."


def _meld_rows(result: MeldResult) -> list[list[Any]]:
    rows: list[list[Any]] = [[m.title, format_cards(m.cards), m.points] for m in result.melds]
    rows.append(["total", "", result.total])
    return rows


def _read(text: str, where: str, rules: Ruleset) -> list[Card]:
    try:
        cards = parse_cards(text)
        rules.deck.check(cards)
        return cards
    except CardError as exc:
        raise CardError(f"{where}: {exc}") from None


def _declaration(rules: Ruleset, hand: Hand, trump: Suit, declare: str, declared: tuple[str, ...],
                 as_json: bool) -> None:
    cards = _read(declare, "--declare", rules)
    if not cards:
        raise MeldError(f"--declare {declare!r} has no cards: give the cards of the declaration, e.g. \"KS QS\"")
    earlier = [_read(text, f"--declared {i}", rules) for i, text in enumerate(declared, start=1)]
    for i, (text, given) in enumerate(zip(declared, earlier, strict=True), start=1):
        if not given:
            raise MeldError(f"--declared {i} ({text!r}) has no cards: give the cards of each earlier declaration")
    try:
        result: Declaration = check_declaration(rules, hand, trump, cards, earlier)
    except MeldError as exc:
        raise MeldError(f"--declared: {exc}") from None
    if as_json:
        emit_json({"valid": result.valid, "name": result.name, "points": result.points, "reason": result.reason,
                   "copies": result.copies, "cards": [c.ascii() for c in result.cards],
                   "ruleset": rules.name, "trump": trump.letter})
        return
    click.echo(heading(rules, trump))
    click.echo(table([
        ["declaration", format_cards(result.cards) or "(none)"],
        ["allowed", "yes" if result.valid else "no"],
        ["combination", result.name if result.name is not None else "-"],
        ["points", result.points],
        ["reason", result.reason],
    ], tablefmt="plain"))


@click.command("meld", context_settings=CONTEXT_SETTINGS)
@click.argument("cards", nargs=-1, required=True)
@trump_option()
@ruleset_options
@json_option
@click.option("--declare", "declare", metavar="CARDS", default=None,
              help="Check one declaration (two-handed style) against the hand; needs -t.")
@click.option("--declared", "declared", metavar="CARDS", multiple=True,
              help="A combination scored earlier, oldest first (repeatable); with --declare.")
def meld(cards: tuple[str, ...], trump: str | None, ruleset: str | None, options: tuple[str, ...],
                 as_json: bool, declare: str | None, declared: tuple[str, ...]) -> None:
    """The meld in a hand: CARDS such as "AH 10H KH QH JH" (spaces or commas).

    With -t, the best declaration for that trump and its total; without, the total for each
    suit as trump and the best. --declare checks one declaration after the earlier ones.
    """
    rules = get_ruleset(ruleset, options)
    suit = get_trump(trump, rules)
    hand = check_cards(rules, parse_cards(cards), limit=True)
    if not len(hand):
        raise MeldError(f"no cards given in {' '.join(cards)!r}: CARDS is the hand, e.g. \"AH 10H KH QH JH\"")
    if declared and declare is None:
        raise MeldError("--declared needs --declare (the declaration to check)")
    if declare is not None:
        if suit is None:
            raise MeldError("--declare needs -t/--trump (the trump suit)")
        _declaration(rules, hand, suit, declare, declared, as_json)
        return
    redeal = rules.may_redeal(hand)
    if suit is not None:
        result = best_meld(rules, hand, suit)
        if as_json:
            data: dict[str, Any] = {"ruleset": rules.name, "trump": suit.letter, "hand": hand.ascii(),
                                    **_result_json(result)}
            if redeal:
                data["may_redeal"] = True
            emit_json(data)
            return
        click.echo(f"{heading(rules, suit)}: {format_cards(hand)}")
        click.echo(table(_meld_rows(result), ["combination", "cards", "points"]))
        if redeal:
            click.echo(_redeal_text(rules))
        return
    results = meld_by_trump(rules, hand)
    best = best_trump(rules, hand)
    nameable = set(nameable_trumps(rules, hand))
    if as_json:
        data = {"ruleset": rules.name, "hand": hand.ascii(),
                "by_trump": {s.letter: {**_result_json(r), "eligible": s in nameable} for s, r in results.items()},
                "best": best.letter}
        if redeal:
            data["may_redeal"] = True
        emit_json(data)
        return
    click.echo(f"{heading(rules)}: {format_cards(hand)}")
    rows = [[f"{s.symbol} {s.word}" + (" *" if s == best else "") + ("" if s in nameable else " (†)"), r.total,
             ", ".join(f"{m.title} {m.points}" for m in r.melds) or "-"] for s, r in results.items()]
    click.echo(table(rows, ["trump", "total", "melds"]))
    click.echo(f"best: {best.symbol} {best.word} ({results[best].total})")
    if len(nameable) < len(results):
        click.echo(f"(†) the bidder may not name this suit: naming it takes the {rules.trump_requirement()}")
    if redeal:
        click.echo(_redeal_text(rules))

