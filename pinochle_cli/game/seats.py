"""The seats of a deal: what each holds (known or not), the contract, and the checks of where a card can be.

``Seats`` is the part of a deal's state that every stage reads: each hand now (None: unknown), how many
cards it holds, the cards a seat whose hand is unknown is known to hold (its shown meld, the cards
passed to it), the bidder, bid and trump, the meld shown and the buried cards; ``Turn`` says who acts
next. ``holds``/``possible`` refuse a card a seat cannot have; ``move`` takes cards out of a hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card, Hand, Suit, format_cards
from ..errors import ActionError, CardError, PlayError
from ..ruleset import Ruleset

__all__ = ["Seats", "Turn"]


@dataclass(frozen=True)
class Turn:
    """Who acts next (None: whoever enters what the table saw) and the kinds of action they may take."""

    seat: int | None
    kinds: tuple[str, ...]
    stage: str

    def __str__(self) -> str:
        who = "the table" if self.seat is None else f"seat {self.seat}"
        return f"{who}: {' or '.join(self.kinds)}" if self.kinds else "the deal is over"


class Seats:
    """Every seat's cards and what is known of them (see the module docstring)."""

    def __init__(self, rules: Ruleset, dealer: int, hands: Sequence[Hand | None], names: Sequence[str]) -> None:
        if len(hands) != rules.players:
            raise PlayError(f"{len(hands)} hands given; {rules.name} has {rules.players} players")
        if not 0 <= dealer < rules.players:
            raise PlayError(f"dealer seat {dealer} is not a seat 0..{rules.players - 1}")
        self.rules, self.dealer = rules, dealer
        self.names = tuple(names) or tuple(f"seat {s}" for s in range(rules.players))
        self.held: list[Hand | None] = list(hands)
        self.sizes = [rules.hand_size] * rules.players
        # cards a seat whose hand is unknown is known to hold (its shown meld, the cards passed to it)
        self.known = [Hand() for _ in range(rules.players)]
        self.bidder: int | None = None
        self.bid: int | None = None
        self.trump: Suit | None = None
        self.shown: dict[int, Hand] = {}
        self.buried: Hand | None = None
        # the cards played by each seat, in order
        self.played: list[list[Card]] = [[] for _ in range(rules.players)]

    def check_pack(self, cards: Sequence[Card], what: str) -> None:
        """``PlayError`` when ``cards`` are not of the pack, or hold more copies than it has."""
        try:
            self.rules.deck.check(cards)
        except CardError as exc:
            raise PlayError(f"{what}: {exc}") from None

    def holds(self, seat: int, cards: Hand, what: str) -> None:
        """``ActionError`` unless ``seat`` may hold ``cards``: in its hand when known, else copies left for it."""
        hand = self.held[seat]
        if hand is not None:
            if not cards.issubset(hand):
                missing = cards - hand
                raise ActionError(f"{what}: {self.names[seat]} does not hold {format_cards(missing)}")
            return
        self.possible(cards, what, skip=seat)

    def possible(self, cards: Hand, what: str, skip: int | None) -> None:
        """``PlayError`` unless copies of ``cards`` are left outside the known hands (``skip``: the seat meant)."""
        placed: Counter[Card] = Counter()
        for seat, hand in enumerate(self.held):
            if seat != skip:
                placed.update(hand.cards() if hand is not None else self.known[seat].cards())
        for p in self.played:
            placed.update(p)
        if self.buried is not None:
            placed.update(self.buried.cards())
        for card, n in Counter(cards.cards()).items():
            if placed[card] + n > self.rules.deck.copies:
                raise PlayError(f"{what}: no {card} is left to hold — every copy is held, played or buried elsewhere")

    def move(self, seat: int, cards: Hand, count: int) -> None:
        """``count`` cards (``cards`` when known) leave ``seat``'s hand."""
        hand = self.held[seat]
        if hand is not None:
            self.held[seat] = hand - cards
        else:
            self.known[seat] = self.known[seat] - cards
        self.sizes[seat] -= count

