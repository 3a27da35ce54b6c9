"""The solver asked about a ``DealState``: the position now, a solver for the deal, each card's value.

``position_of(state)`` is the deal's position for the solver (every hand must be known: the solver sees
all cards); ``solver_for(state)`` a ``Solver`` for its ruleset, trump and sides, the buried counters
added to the last trick where the ruleset gives them to its winner; ``solve_state`` the value of the
position for a side and every legal card's value after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..errors import PlayError
from ..game.state import DealState
from .solve import Position, Solver

__all__ = ["StateSolved", "last_trick_worth", "position_of", "solve_state", "solver_for"]


def position_of(state: DealState) -> Position:
    """The position of the trick under way (or the next one), every hand as it is now."""
    if state.stage != "play":
        raise PlayError(f"the solver judges the play: the deal is at its {state.stage}")
    hands = []
    for seat in range(state.rules.players):
        hand = state.hand(seat)
        if hand is None:
            raise PlayError(f"the solver sees every hand, and seat {seat}'s is not known")
        hands.append(hand)
    return Position(tuple(hands), state.leader, state.trick)


def last_trick_worth(state: DealState) -> int:
    """The last trick's worth: the ruleset's bonus, and the buried counters where they go to its winner."""
    rules, buried = state.rules, state.buried
    extra = 0
    if rules.bury is not None and rules.bury.counters == "last-trick" and buried is not None:
        extra = sum(rules.counter_value(c) for c in buried)
    return rules.last_trick + extra


def _us(state: DealState, us: int | None) -> int:
    return us if us is not None else state.bidder if state.bidder is not None else 0


def solver_for(state: DealState, us: int | None = None, **options: Any) -> Solver:
    """A solver for the deal's ruleset and trump, ``us`` (default: the bidder, else seat 0) and its side counting."""
    if state.trump is None:
        raise PlayError("the solver needs trump")
    return Solver(state.rules, state.trump, us=_us(state, us), bidder=state.bidder,
                  last_trick=last_trick_worth(state), **options)


@dataclass(frozen=True)
class StateSolved:
    """``value``: the counters ``us``'s side takes from here on (the cards on the trick included) under perfect
    play; ``plays``: each distinct legal card of the player to move with the value after it."""

    us: int
    to_play: int
    value: int
    plays: tuple[tuple[Card, int], ...]


def solve_state(state: DealState, us: int | None = None, **options: Any) -> StateSolved:
    """The deal solved double-dummy from where it stands (see ``StateSolved``)."""
    solver = solver_for(state, us, **options)
    pos = position_of(state)
    plays = solver.plays(pos)
    return StateSolved(_us(state, us), pos.to_play, solver.best(plays, pos.to_play), tuple(plays))
