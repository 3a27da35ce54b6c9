"""The computer's action for whatever a deal asks of a seat: its call, trump, pass, return, bury, meld or card.

``Computer(rules, seed)`` plays every seat it is asked about in one deal of a ``DealState`` whose cards it
can see for that seat: ``act(state)`` returns the action of the seat to move — the call and trump of
``player.bidder`` (each hand valued once, from ``seed`` and the seat), the partner's pass and the bidder's
return of ``player.exchange``, its bury (``bury_hand``), all the meld the hand shows (``meld.shown_cards``),
in a game with a stock the best declaration the last trick won allows, then the card of
``player.seat.computer_card``. It never concedes. A seat whose hand is not known raises ``PlayError``.
The same seed and deal give the same actions.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np

from ..cards import ALL_CARDS, Hand
from ..errors import PlayError
from ..game.actions import Action
from ..game.state import DealState
from ..meld import check_declaration
from ..ruleset import Ruleset
from .bidder import Valuation, computer_call, computer_trump, value_hand
from .exchange import bury_hand, choose_pass, choose_return
from .seat import computer_card
from .tables import ExchangeTables

__all__ = ["Computer", "auction_facts", "best_declaration", "seat_seed"]


def seat_seed(seed: int, seat: int) -> int:
    """The seed of one seat's valuation, drawn from the deal's ``seed`` (a stable digest: any platform)."""
    text = f"valuation|{seed}|{seat}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:6], "big")


def auction_facts(state: DealState) -> tuple[int, bool]:
    """The least bid the seat to call may make, and whether it is the dealer stuck with the minimum."""
    auction = state.rules.auction
    assert auction is not None
    bids = [b for _, b in state.calls if b is not None]
    smallest = auction.next_bid(max(bids)) if bids else auction.minimum
    passed = {s for s, b in state.calls if b is None}
    stuck = (auction.dealer_stuck and not bids and state.turn.seat == state.dealer
             and len(passed) == state.rules.players - 1)
    return smallest, stuck


@lru_cache(maxsize=16)
def _exchange_tables(rules: Ruleset) -> ExchangeTables:
    return ExchangeTables.build(rules)


def _rows(hand: Hand) -> np.ndarray:
    return np.array([[c.index for c in hand]], dtype=np.int64)


class Computer:
    """The computer's actions in one deal (see the module docstring)."""

    def __init__(self, rules: Ruleset, seed: int) -> None:
        self.rules, self.seed = rules, seed
        self._values: dict[int, Valuation] = {}

    def valuation(self, state: DealState, seat: int) -> Valuation:
        """``seat``'s hand as dealt, valued once for the deal."""
        if seat not in self._values:
            hand = self._hand(state, seat)
            self._values[seat] = value_hand(self.rules, hand, seat_seed(self.seed, seat))
        return self._values[seat]

    def _hand(self, state: DealState, seat: int) -> Hand:
        hand = state.hand(seat)
        if hand is None:
            raise PlayError(f"seat {seat}'s cards are not known: the computer plays a seat whose cards it holds")
        return hand

    def act(self, state: DealState) -> Action:
        """The action of the seat to move."""
        turn = state.turn
        if turn.seat is None or not turn.kinds:
            raise PlayError(f"no seat is to act: {turn}")
        seat, kind = turn.seat, turn.kinds[0]
        if kind == "bid":
            smallest, stuck = auction_facts(state)
            return Action.call(computer_call(self.rules, self.valuation(state, seat), smallest, stuck), seat)
        if kind == "trump":
            return self._trump(state, seat)
        if kind == "give":
            return Action("give", seat, cards=self._give(state, seat))
        if kind == "bury":
            assert state.trump is not None
            return Action("bury", seat, cards=bury_hand(self.rules, self._hand(state, seat), state.trump)[0])
        if kind == "meld":
            return Action("meld", seat, cards=state.meld_shows(seat))
        if kind == "play":
            declared = self._declaration(state, seat) if "meld" in turn.kinds else None
            return declared or Action.play(computer_card(state, seat), seat)
        raise PlayError(f"the computer does not {kind}: {turn}")

    def _trump(self, state: DealState, seat: int) -> Action:
        hand = self._hand(state, seat)
        # a dealer stuck with the minimum never called: the hand as dealt is valued now
        value = self.valuation(state, seat) if len(hand) == self.rules.hand_size else self._values.get(seat)
        suit = computer_trump(self.rules, hand, value)
        if suit is None:
            raise PlayError(f"seat {seat} may name no trump with {hand}")
        return Action("trump", seat, suit=suit)

    def _give(self, state: DealState, seat: int) -> Hand:
        """The partner's pass, or the bidder's return (from its hand with what it received)."""
        assert state.trump is not None
        hand, k = self._hand(state, seat), self.rules.exchange
        trump = np.array([int(state.trump)], dtype=np.int64)
        pick = choose_return if seat == state.bidder else choose_pass
        sent, _ = pick(_exchange_tables(self.rules), _rows(hand), trump, k)
        return Hand([ALL_CARDS[i] for i in sent[0].tolist()])

    def _declaration(self, state: DealState, seat: int) -> Action | None:
        return best_declaration(state, seat)


def best_declaration(state: DealState, seat: int) -> Action | None:
    """The best combination ``seat`` may declare now (a game with a stock: the winner of the last trick), None when
    none scores; ``PlayError`` when its hand is not known."""
    rules = state.rules
    hand = state.hand(seat)
    if hand is None or state.trump is None:
        raise PlayError(f"seat {seat}'s cards are not known: the computer plays a seat whose cards it holds")
    history = [list(a.cards) for a in state.history if a.kind == "meld" and a.seat == seat]
    best: tuple[int, list[int]] | None = None
    for combo in rules.meld:
        for inst in combo.instances(state.trump, rules.suits):
            for k in range(1, len(combo.points) + 1):
                cards = list(inst) * k
                if not Hand(cards).issubset(hand):
                    break
                verdict = check_declaration(rules, hand, state.trump, cards, history)
                if verdict.valid and verdict.points > 0 and (best is None or verdict.points > best[0]):
                    best = (verdict.points, [c.index for c in cards])
    if best is None:
        return None
    return Action("meld", seat, cards=Hand([ALL_CARDS[i] for i in best[1]]))
