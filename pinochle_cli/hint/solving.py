"""Solving many positions: every legal card's double-dummy value in each, in order.

``solve_positions`` is the one place the hint asks the solver: a ``Solver`` per worker process
(its table kept across positions), the answers yielded in the order of the positions whatever
the number of workers, and no more once ``stop()`` is true.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ..cards import Card, Suit
from ..ruleset import Ruleset
from ..solver.solve import Position, Solver
from ..workers import ChunkPool, keep, kept

__all__ = ["Plays", "solve_positions"]

# each distinct legal card of the player to move with our side's counters from the position on after it
Plays = list[tuple[Card, int]]


def _solver(rules: Ruleset, trump: Suit, us: int) -> Solver:
    return Solver(rules, trump, us=us)


def _plays(pos: Position) -> Plays:
    return kept(Solver).plays(pos)


def solve_positions(rules: Ruleset, trump: Suit, us: int, positions: Sequence[Position], *, workers: int = 1,
                    stop: Callable[[], bool] | None = None) -> Iterator[Plays]:
    """Each position's plays, for ``us``'s side, in order; nothing more once ``stop()`` is true."""
    if workers <= 1 or len(positions) <= 1:
        solver = _solver(rules, trump, us)
        for i, pos in enumerate(positions):
            # the first is always solved
            if i and stop is not None and stop():
                return
            yield solver.plays(pos)
        return
    pool = ChunkPool(workers, keep, (_solver, rules, trump, us))
    try:
        for plays in pool.map(_plays, positions):
            yield plays
            if stop is not None and stop():
                return
    finally:
        pool.stop()
