"""Many double-dummy positions in one call: results in the order given, spread over worker processes.

``solve_batch(items, workers=N)`` yields, for each ``BatchItem``, a ``BatchResult`` (the value, each
legal card's value when asked, the nodes and CPU seconds spent) or a ``BatchFailure`` (the position
cannot arise, the ruleset cannot be solved, the time ran out), in order; one failure never stops
the others. Each process keeps one ``Solver`` per ruleset, trump and side (``BatchSolver``), so
positions sharing most cards reuse its table, history and move ordering. The values never depend
on the workers or the order: a table entry is keyed by the whole position (the cards still out, who
holds them, the leader) and holds bounds on its exact value, so it stays valid for every later
position of the same ruleset, trump and side. The nodes and seconds are measurements: they depend
on what the process solved before.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from ..cards import Card, Hand, Suit
from ..errors import PinochleError
from ..ruleset import Ruleset
from ..workers import ChunkPool, keep, kept
from .solve import Position, Solver, check_position

__all__ = ["CHUNK", "BatchFailure", "BatchItem", "BatchResult", "BatchSolver", "solve_batch"]

# positions a worker process takes at once (fixed: the jobs do not depend on the worker count)
CHUNK = 8


@dataclass(frozen=True)
class BatchItem:
    """One position to solve. ``us``: the seat whose side the values count; ``bidder``: the bidder's seat, where
    the auction forms the sides (see ``Solver``); ``plays``:
    each legal card's value too, else the value alone; ``near``: a value it is likely close to (see
    ``Solver.value``); ``time_limit``: CPU seconds for this position (None: no limit); ``last_trick``: what the
    last trick is worth, where it is not the ruleset's (a game whose buried counters go to its winner; see
    ``Solver``)."""

    rules: Ruleset
    trump: Suit
    position: Position
    us: int = 0
    bidder: int | None = None
    plays: bool = True
    near: int | None = None
    time_limit: float | None = None
    last_trick: int | None = None


@dataclass(frozen=True)
class BatchResult:
    """Our side's value, the seat to play, each legal card with the value after it (empty unless asked),
    the trick-boundary nodes searched and the CPU seconds it took."""

    value: int
    to_play: int
    plays: tuple[tuple[Card, int], ...]
    nodes: int
    seconds: float


@dataclass(frozen=True)
class BatchFailure:
    """A position not solved: the message of the error (``kind``: its class name; ``parameter``: the
    library argument at fault, if one is)."""

    error: str
    kind: str
    parameter: str | None = None


class BatchSolver:
    """Solvers kept per ruleset, trump, side and worth of the last trick, each solving positions one after
    another."""

    def __init__(self) -> None:
        self.solvers: dict[tuple[Ruleset, Suit, int, int | None, int | None], Solver] = {}

    def solver(self, rules: Ruleset, trump: Suit, us: int = 0, bidder: int | None = None,
               last_trick: int | None = None) -> Solver:
        """The solver kept for ``rules``, ``trump``, the side of ``us``, the bidder and the last trick's worth
        (made, and its code loaded, at first)."""
        key = (rules, trump, us, bidder, last_trick)
        if key not in self.solvers:
            solver = Solver(rules, trump, us=us, bidder=bidder, last_trick=last_trick)
            # the compiled code loaded (or compiled) before any position is timed: a one-trick position
            cards = rules.deck.cards()[:rules.players]
            solver.value(Position(tuple(Hand([c]) for c in cards), 0))
            self.solvers[key] = solver
        return self.solvers[key]

    def solve(self, item: BatchItem) -> BatchResult | BatchFailure:
        """One position; any of the package's errors becomes a ``BatchFailure``."""
        try:
            check_position(item.rules, item.trump, item.position, item.bidder)
            solver = self.solver(item.rules, item.trump, item.us, item.bidder, item.last_trick)
            solver.restart(item.time_limit)
            nodes, start = solver.nodes, time.process_time()
            pos = item.position
            if item.plays:
                plays = tuple(solver.plays(pos))
                value = solver.best(plays, pos.to_play)
            else:
                plays, value = (), solver.value(pos, near=item.near)
            return BatchResult(value, pos.to_play, plays, solver.nodes - nodes, time.process_time() - start)
        except PinochleError as exc:
            return BatchFailure(str(exc), type(exc).__name__, exc.parameter)

    def solve_all(self, items: list[BatchItem]) -> list[BatchResult | BatchFailure]:
        return [self.solve(item) for item in items]


def _work(items: list[BatchItem]) -> list[BatchResult | BatchFailure]:
    return kept(BatchSolver).solve_all(items)


def _chunks(items: Iterable[BatchItem]) -> Iterator[list[BatchItem]]:
    it = iter(items)
    while chunk := list(islice(it, CHUNK)):
        yield chunk


def solve_batch(items: Iterable[BatchItem], *, workers: int = 1,
                solver: BatchSolver | None = None) -> Iterator[BatchResult | BatchFailure]:
    """The result of each item, in order, from ``workers`` processes (1: this one, with ``solver`` if given).
    On any exception (Ctrl-C too) the workers are ended."""
    if workers <= 1:
        here = solver if solver is not None else BatchSolver()
        for item in items:
            yield here.solve(item)
        return
    pool = ChunkPool(workers, keep, (BatchSolver,))
    try:
        for results in pool.map(_work, _chunks(items)):
            yield from results
    # Ctrl-C, or the caller stopped reading: end the workers now
    except BaseException:
        pool.stop()
        raise
    pool.close()
