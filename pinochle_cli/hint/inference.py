"""What the duties revealed: for each card another seat played, the cards it cannot have held then.

Derived from the ruleset's duty list, not from a list of pinochle's inferences: for the card
``p`` played to a trick, a card ``c`` is excluded when the duty engine (``tricks.check_play``)
refuses ``p`` to a player holding just ``p`` and ``c`` — a player holding ``c`` would have had to
play something else. The refusing duty names the inference ("did not follow trick 3"); an edited
duty list gives other refusals and so other inferences. The player held none of the excluded
cards then, and so none now (its hand now is part of the hand it held then). Each inference is
checked against the cards the seat is known to have held (played later, shown, passed to it):
a contradiction is a ``HintError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import ALL_CARDS, Card, Hand, Suit, format_cards
from ..errors import HintError, Message
from ..game.tricks import check_play, duties_for, rank_places, winning_card
from .facts import Facts

__all__ = ["Inference", "excluded", "infer"]


@dataclass(frozen=True)
class Inference:
    """``seat`` held none of ``cards`` (each kind, every copy) when it played ``card`` to trick ``trick``
    (from 1), because of the duty ``duty``; ``says``: in words."""

    seat: int
    trick: int
    card: Card
    duty: str
    cards: tuple[Card, ...]
    says: str


def excluded(facts: Facts, prefix: Sequence[Card], card: Card, leader: int) -> dict[str, list[Card]]:
    """The kinds of card whose holder could not have played ``card`` after ``prefix``, by the duty refusing it."""
    rules = facts.rules
    out: dict[str, list[Card]] = {}
    for other in ALL_CARDS:
        if other == card or other not in rules.deck:
            continue
        ruling = check_play(rules, Hand([card, other]), card, prefix, facts.trump, phase=facts.phase,
                            leader_seat=leader, bidder=facts.bidder)
        if not ruling.allowed and ruling.duty is not None and ruling.duty != "not-held":
            out.setdefault(ruling.duty, []).append(other)
    # in the order of the duty list
    order: list[str] = [d.name for d in duties_for(rules, facts.phase)]
    return {name: out[name] for name in sorted(out, key=lambda name: order.index(name))}


def _suit_words(facts: Facts, suit: Suit, cards: list[Card]) -> str:
    """``no ♥``, ``no trump``, ``no ♥ above the K♥`` or ``none of A♥ 10♥``."""
    rules = facts.rules
    name = "trump" if suit == facts.trump else suit.symbol
    every = [c for c in ALL_CARDS if c.suit == suit and c in rules.deck]
    if len(cards) == len(every):
        return f"no {name}"
    place = rank_places(rules)
    rest = sorted((c for c in every if c not in cards), key=lambda c: place[c.index])
    top = rest[0]
    if all(place[c.index] < place[top.index] for c in cards) and \
            len(cards) == sum(place[c.index] < place[top.index] for c in every):
        return f"no {name} above the {top}"
    return f"none of {format_cards(cards)}"


def _why(duty: str, trick: int, winning: Card | None) -> str:
    if duty == "beat" and winning is not None:
        return f"did not beat the {winning} in trick {trick}"
    return f"did not {duty} trick {trick}"


def _says(facts: Facts, who: str, duty: str, cards: list[Card], trick: int, winning: Card | None) -> str:
    suits = list(dict.fromkeys(c.suit for c in cards))
    what = " and ".join(_suit_words(facts, s, [c for c in cards if c.suit == s]) for s in suits)
    return f"{who}: {what} ({_why(duty, trick, winning)})"


def _plays(facts: Facts) -> list[tuple[int, int, Sequence[Card], int]]:
    """Every card another seat played after the stock: (trick index, place, the trick, its leader)."""
    out: list[tuple[int, int, Sequence[Card], int]] = []
    tricks = (*zip(facts.tricks, facts.leaders, strict=True), (facts.trick, facts.leader))
    for k, (trick, first) in enumerate(tricks):
        if k < facts.stock_tricks:
            continue
        for j in range(1, len(trick)):
            if (first + j) % facts.players != facts.seat:
                out.append((k, j, trick, first))
    return out


def infer(facts: Facts, names: Sequence[str] | None = None) -> list[Inference]:
    """Every inference from the other seats' plays, in play order (see the module docstring)."""
    who = list(names) if names is not None else [f"seat {s}" for s in range(facts.players)]
    found: list[Inference] = []
    for k, j, trick, first in _plays(facts):
        seat = (first + j) % facts.players
        card = trick[j]
        winning = winning_card(facts.rules, trick[:j], facts.trump)
        for duty, cards in excluded(facts, trick[:j], card, first).items():
            found.append(Inference(seat, k + 1, card, duty, tuple(cards),
                                   _says(facts, who[seat], duty, cards, k + 1, winning)))
    for inference in found:
        _check(facts, inference, who)
    return found


def _check(facts: Facts, inference: Inference, who: Sequence[str]) -> None:
    """``HintError`` when the seat is known to have held an excluded card at that trick."""
    seat, k = inference.seat, inference.trick - 1
    later: list[tuple[str, Card]] = []
    tricks = (*zip(facts.tricks, facts.leaders, strict=True), (facts.trick, facts.leader))
    for i, (trick, first) in enumerate(tricks):
        for j, card in enumerate(trick):
            if (first + j) % facts.players == seat and i > k:
                later.append((f"played {card} in trick {i + 1}", card))
    later += [(f"is known to hold {card} (shown or passed)", card) for card in facts.known.get(seat, Hand())]
    for what, card in later:
        if card in inference.cards:
            raise HintError(Message(f"trick {inference.trick}: {who[seat]} played {inference.card} — but "
                                    f"{who[seat]} {what}, so the play broke a duty: "
                                    f"{inference.says.split(': ', 1)[1]}"),
                            parameter="tricks" if inference.trick <= len(facts.tricks) else "trick")
