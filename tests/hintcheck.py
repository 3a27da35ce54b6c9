"""An independent checker of a hint's worlds: each fact given, checked with the public rules engine."""

from __future__ import annotations

from collections.abc import Sequence

from pinochle_cli.cards import Hand
from pinochle_cli.game.tricks import legal_plays
from pinochle_cli.hint.facts import Facts
from pinochle_cli.hint.inference import infer
from pinochle_cli.meld import meld


def _hand_then(facts: Facts, hands: Sequence[Hand], seat: int, k: int, j: int) -> Hand:
    """``seat``'s cards as it played card ``j`` of trick ``k`` (from 0): its cards now and every card it played
    from then on."""
    tricks = [*zip(facts.tricks, facts.leaders, strict=True), (facts.trick, facts.leader)]
    cards = list(hands[seat])
    for i, (trick, first) in enumerate(tricks):
        for place, card in enumerate(trick):
            if (first + place) % facts.players == seat and (i, place) >= (k, j):
                cards.append(card)
    return Hand(cards)


def check_world(facts: Facts, hands: Sequence[Hand]) -> list[str]:
    """Every fact the world breaks, in words (empty: consistent)."""
    rules = facts.rules
    wrong = []
    if hands[facts.seat] != facts.hand:
        wrong.append("this seat's hand is not its own")
    rest = [c for s, h in enumerate(hands) if s != facts.seat for c in h]
    if not Hand(rest).issubset(facts.unseen) or len(rest) + facts.out_of_play != len(facts.unseen):
        wrong.append("the other hands are not the unseen cards")
    for s, h in enumerate(hands):
        if len(h) != facts.sizes[s]:
            wrong.append(f"seat {s} holds {len(h)} cards, not {facts.sizes[s]}")
    tricks = [*zip(facts.tricks, facts.leaders, strict=True), (facts.trick, facts.leader)]
    for k, (trick, first) in enumerate(tricks):
        if k < facts.stock_tricks:
            continue
        for j, card in enumerate(trick):
            seat = (first + j) % facts.players
            held = _hand_then(facts, hands, seat, k, j)
            legal = legal_plays(rules, held, trick[:j], facts.trump, phase=facts.phase, leader_seat=first,
                                bidder=facts.bidder)
            if card not in legal:
                wrong.append(f"trick {k + 1}: seat {seat} could not play {card} holding {held}")
    if not facts.stock_tricks:
        for seat, shown in facts.shown.items():
            at_meld = _hand_then(facts, hands, seat, 0, 0)
            if meld(rules, at_meld, facts.trump).total != meld(rules, shown, facts.trump).total \
                    or not shown.issubset(at_meld):
                wrong.append(f"seat {seat}'s hand at the meld {at_meld} does not show exactly {shown}")
    for inference in infer(facts):
        held = _hand_then(facts, hands, inference.seat, inference.trick - 1, 0)
        if any(c in held for c in inference.cards):
            wrong.append(f"{inference.says}, yet it held {held}")
    return wrong
