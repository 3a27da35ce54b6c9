"""Solving many positions: every legal card's double-dummy value in each, in order.

``solve_positions`` is the one place the hint asks the solver, through its batch interface
(``solver.batch``: one ``Solver`` kept per ruleset, trump, side and bidder in each process, the
answers in the order of the positions whatever the number of workers); no more once ``stop()`` is true.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ..cards import Card, Suit
from ..errors import PlayError
from ..ruleset import Ruleset
from ..solver.batch import BatchFailure, BatchItem, solve_batch
from ..solver.solve import Position

__all__ = ["Plays", "solve_positions"]

# each distinct legal card of the player to move with our side's counters from the position on after it
Plays = list[tuple[Card, int]]


def solve_positions(rules: Ruleset, trump: Suit, us: int, positions: Sequence[Position], *, workers: int = 1,
                    bidder: int | None = None, stop: Callable[[], bool] | None = None,
                    last_tricks: Sequence[int | None] | None = None) -> Iterator[Plays]:
    """Each position's plays, for ``us``'s side (``bidder``: where the auction forms the sides), in order; the
    first always, nothing more once ``stop()`` is true. ``last_tricks``: each position's worth of the last
    trick where it is not the ruleset's (None: the ruleset's). A position the solver refuses is a ``PlayError``."""
    worths = list(last_tricks) if last_tricks is not None else [None] * len(positions)
    items = [BatchItem(rules, trump, pos, us=us, bidder=bidder, last_trick=worth)
             for pos, worth in zip(positions, worths, strict=True)]
    for result in solve_batch(items, workers=workers if len(items) > 1 else 1):
        if isinstance(result, BatchFailure):
            raise PlayError(result.error, parameter=result.parameter)
        yield list(result.plays)
        if stop is not None and stop():
            return
