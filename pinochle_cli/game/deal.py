"""A whole deal's play at once: replayed from its cards and checked, or played out by a strategy.

Both are a ``DealState`` started at the first card (``DealState.at_play``) and fed one card at a time:
the duties, winners, counters, the stock's draws and the phases are the state's, not written again
here. Seats are numbered clockwise from 0; ``leader`` leads the first trick. Stock convention (rulesets
with ``stock``): ``stock`` lists the undealt cards from the top down; ``stock[-1]`` is the bottom card,
the turned-up trump where ``rules.turn_up_trump`` (it must then be of the trump suit), drawn last.
``deal_cards`` deals a shuffled pack from a seeded generator.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..cards import Card, Hand, Suit, format_cards
from ..errors import CardError, IllegalPlayError, PlayError
from ..ruleset import Ruleset
from .play_stage import opening_leader
from .state import DealState

# replaying a record must not load numpy; only the random deals take a generator
if TYPE_CHECKING:
    import numpy as np

__all__ = ["DealPlay", "IllegalPlayError", "Strategy", "deal_cards", "opening_leader", "play_deal", "random_strategy",
           "replay_deal"]


@dataclass
class DealPlay:
    """A deal's play: every trick (cards in the order played), who led and won it, and the tally.

    ``counters`` and ``tricks_won`` are per seat; ``counters`` includes the last-trick bonus.
    ``phases`` is each trick's phase (None without a stock); ``draws`` the cards drawn after
    each trick as ``(seat, card)`` in drawing order. ``complete`` is False for a partial replay;
    its counters then count the completed tricks only.
    """

    tricks: list[list[Card]]
    leaders: list[int]
    winners: list[int]
    counters: list[int]
    tricks_won: list[int]
    phases: list[str | None] = field(default_factory=list)
    draws: list[list[tuple[int, Card]]] = field(default_factory=list)
    complete: bool = True

    def side_counters(self, rules: Ruleset) -> list[int]:
        """Counters per partnership (index into ``rules.partnerships``)."""
        return [sum(self.counters[s] for s in team) for team in rules.partnerships]

    def side_tricks(self, rules: Ruleset) -> list[int]:
        """Tricks won per partnership."""
        return [sum(self.tricks_won[s] for s in team) for team in rules.partnerships]


# the strategy's choice: the deal as it stands (the player to move is ``state.turn.seat``) and its legal cards
Strategy = Callable[[DealState, list[Card]], Card]


def random_strategy(rng: np.random.Generator) -> Strategy:
    """A strategy that plays a uniformly random legal card, drawing from ``rng``."""
    def choose(state: DealState, legal: list[Card]) -> Card:
        return legal[int(rng.integers(len(legal)))] if len(legal) > 1 else legal[0]
    return choose


def deal_cards(rules: Ruleset, rng: np.random.Generator) -> tuple[list[Hand], list[Card]]:
    """A shuffled deal: one hand per seat and the cards left: the stock (top first) or the widow; empty
    when every card is dealt."""
    cards = rules.deck.cards()
    order = rng.permutation(len(cards))
    shuffled = [cards[i] for i in order]
    n = rules.hand_size
    hands = [Hand(shuffled[s * n:(s + 1) * n]) for s in range(rules.players)]
    return hands, shuffled[rules.players * n:]


def _start(rules: Ruleset, hands: Sequence[Hand], trump: Suit, leader: int, stock: Sequence[Card] | None,
           names: Sequence[str] | None, bidder: int | None) -> DealState:
    """The deal at its first card, its setup checked."""
    if len(hands) != rules.players:
        raise PlayError(f"{len(hands)} hands given; {rules.name} has {rules.players} players")
    if not 0 <= leader < rules.players:
        raise PlayError(f"leader seat {leader} is not a seat 0..{rules.players - 1}")
    if names is not None and len(names) != rules.players:
        raise PlayError(f"{len(names)} names given for {rules.players} players")
    if trump not in rules.suits:
        raise PlayError(f"trump {trump} is not a suit of {rules.deck.name}")
    for seat, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            who = names[seat] if names else f"seat {seat}"
            raise PlayError(f"{who}'s hand has {len(hand)} cards; a hand in {rules.name} has {rules.hand_size}")
    pile = list(stock or ())
    if rules.has_stock:
        if stock is None:
            raise PlayError(f"{rules.name} has a stock: the stock's {rules.stock_size} cards are needed")
        if len(pile) != rules.stock_size:
            raise PlayError(f"the stock has {len(pile)} cards; in {rules.name} it has {rules.stock_size}")
        if rules.turn_up_trump and pile[-1].suit != trump:
            raise PlayError(f"the turned-up card (bottom of the stock) is {pile[-1]}, so trump is "
                            f"{pile[-1].suit}, not {trump}")
    elif pile:
        raise PlayError(f"{rules.name} has no stock, but {len(pile)} stock cards were given")
    everything = [c for h in hands for c in h] + pile
    try:
        rules.deck.check(everything)
    except CardError as exc:
        raise PlayError(f"the hands{' and stock' if pile else ''} together: {exc}") from None
    return DealState.at_play(rules, trump, leader=leader, bidder=bidder, hands=list(hands),
                             stock=pile if rules.has_stock else None, names=names or ())


def _result(state: DealState, complete: bool) -> DealPlay:
    tricks = [t for t in state.tricks if t.winner is not None or not complete]
    play = state._flow.play
    return DealPlay([list(t.cards) for t in tricks], [t.leader for t in tricks],
                    [t.winner for t in tricks if t.winner is not None], state.counters(), list(play.won),
                    [t.phase for t in tricks], [list(d) for d in play.draw_log], complete)


def _illegal(card: Card, error: IllegalPlayError, player: str) -> str:
    """Why ``card`` may not be played, said of a deal already played."""
    ruling = error.ruling
    if ruling.duty == "not-held":
        return f"{player} played {card}, which is not in their hand"
    holding = getattr(ruling, "holding", ())
    return f"{player} played {card} holding {format_cards(holding)} — {ruling.summary}"


def replay_deal(rules: Ruleset, hands: Sequence[Hand], trump: Suit, leader: int,
                tricks: Sequence[Sequence[Card]], *, stock: Sequence[Card] | None = None,
                names: Sequence[str] | None = None, partial: bool = False, bidder: int | None = None) -> DealPlay:
    """Check a played deal and compute its winners and counters.

    ``hands``: each seat's cards when play starts; ``tricks``: the cards of each trick in the
    order played (its leader first); ``bidder``: the bidder's seat, needed where the auction
    forms the sides (``Ruleset.deal_sides``). Raises ``IllegalPlayError`` at the first card not held or
    not legal (naming ``names[seat]`` when given), ``PlayError`` for impossible input. Fewer
    tricks than a deal (or a last trick not complete) is a ``PlayError`` unless ``partial``.
    """
    state = _start(rules, hands, trump, leader, stock, names, bidder)
    n = rules.tricks_per_deal
    if len(tricks) > n:
        raise PlayError(f"{len(tricks)} tricks given; a deal of {rules.name} has {n}")
    for k, trick in enumerate(tricks):
        if not trick or len(trick) > rules.players:
            raise PlayError(f"trick {k + 1} has {len(trick)} cards; a trick has {rules.players}")
        if len(trick) < rules.players and (not partial or k != len(tricks) - 1):
            raise PlayError(f"trick {k + 1} has {len(trick)} cards; a trick has {rules.players}")
    if len(tricks) < n and not partial:
        raise PlayError(f"{len(tricks)} tricks given; a deal of {rules.name} has {n}")
    who = list(names) if names is not None else [f"seat {s}" for s in range(rules.players)]
    for k, trick in enumerate(tricks):
        for card in trick:
            seat = state.turn.seat
            assert seat is not None
            try:
                state.play(card)
            except IllegalPlayError as exc:
                raise IllegalPlayError(k + 1, seat, card, exc.ruling, who[seat], _illegal(card, exc, who[seat])) \
                    from None
    complete = len(tricks) == n and not state.trick
    return _result(state, complete)


def play_deal(rules: Ruleset, hands: Sequence[Hand], trump: Suit, leader: int, choose: Strategy, *,
              stock: Sequence[Card] | None = None, bidder: int | None = None) -> DealPlay:
    """Play a whole deal, asking ``choose(state, legal)`` for each card (``legal``: distinct, hand order).
    ``bidder``: the bidder's seat, needed where the auction forms the sides.

    A strategy that returns a card not in ``legal`` is a ``PlayError``.
    """
    state = _start(rules, hands, trump, leader, stock, None, bidder)
    while state.stage == "play":
        legal = state.legal_plays()
        card = choose(state, legal)
        if card not in legal:
            raise PlayError(f"trick {len(state.tricks) + (0 if state.trick else 1)}: the strategy chose {card} for "
                            f"seat {state.turn.seat}; legal: {format_cards(legal)}")
        state.play(card)
    return _result(state, True)
