"""Many double-dummy positions in one call: results in the order given, spread over worker processes.

``solve_batch(items, workers=N)`` yields, for each ``BatchItem``, a ``BatchResult`` (the value, each
legal card's value when asked, or the value after a card played and a card that keeps the value,
the nodes and CPU seconds spent) or a ``BatchFailure`` (the position cannot arise, the ruleset cannot
be solved, the time ran out), in order; one failure never stops the others. Each process keeps one
``Solver`` per ruleset, trump, side and last-trick bonus (``BatchSolver``), so positions sharing most
cards reuse its table, history and move ordering; the worker processes take the items in chunks of
consecutive items, each chunk solved in its order. The values never depend on the workers, the
chunks or the order: a table entry is keyed by the whole position (the cards still out, who holds
them, the leader) and holds bounds on its exact value, so it stays valid for every later position
of the same solver. The nodes and seconds are measurements: they depend on what the process solved
before. A time limit for the whole batch counts the CPU time of every process (``SharedClock``).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from ..cards import Card, Hand, Suit
from ..errors import Message, PinochleError
from ..ruleset import Ruleset
from ..workers import ChunkPool, keep, kept
from .solve import TABLE_BITS, Position, Solver, check_position

__all__ = ["CHUNK", "MAX_KEPT", "BatchFailure", "BatchItem", "BatchResult", "BatchSolver", "SharedClock", "solve_batch"]

# solvers a process keeps at most (each holds a 32 MB table)
MAX_KEPT = 8
# positions a worker process takes at once (fixed: the jobs do not depend on the worker count)
CHUNK = 8
# exact values a solver's process remembers (the positions it solved last): a judged card's next position
_KNOWN = 64

Clock = Callable[[], float]
# a kept solver's key: ruleset, trump, our seat, the bidder's seat and the last trick's bonus
Key = tuple[Ruleset, Suit, int, int | None, int | None]


@dataclass(frozen=True)
class BatchItem:
    """One position to solve. ``us``: the seat whose side the values count; ``bidder``: the bidder's seat, where
    the auction forms the sides (see ``Solver``); ``last_trick``: what the last trick earns besides its cards
    (None: the ruleset's bonus); ``plays``: each legal card's value too, else the value alone; ``near``: a
    value it is likely close to (see ``Solver.value``); ``time_limit``: CPU seconds for this position (None: no
    limit). ``played``: the card played from the position, to judge it: the value after it, and a card that keeps
    the value when it does not (``plays`` and ``near`` then do not apply); cheapest when the position after it
    was the item before, in the same chunk."""

    rules: Ruleset
    trump: Suit
    position: Position
    us: int = 0
    bidder: int | None = None
    plays: bool = True
    near: int | None = None
    time_limit: float | None = None
    last_trick: int | None = None
    played: Card | None = None


@dataclass(frozen=True)
class BatchResult:
    """Our side's value, the seat to play, each legal card with the value after it (empty unless asked),
    the trick-boundary nodes searched and the CPU seconds it took; for an item with ``played``, the value
    after that card (``after``) and, when it is below the value for the side to play, the first legal card
    that keeps the value (``better``)."""

    value: int
    to_play: int
    plays: tuple[tuple[Card, int], ...]
    nodes: int
    seconds: float
    after: int | None = None
    better: Card | None = None


@dataclass(frozen=True)
class BatchFailure:
    """A position not solved: the message of the error, its arguments kept apart (``kind``: its class name;
    ``parameter``: the library argument at fault, if one is)."""

    error: Message
    kind: str
    parameter: str | None = None


class SharedClock:
    """CPU seconds spent by every process that reads it since it was made: a reading adds the reading process's
    CPU time since its previous reading (a worker process's, since it started) and returns the total."""

    def __init__(self) -> None:
        self.total = multiprocessing.get_context().Value("d", 0.0)
        self.pid = os.getpid()
        self.last = time.process_time()

    def __call__(self) -> float:
        now = time.process_time()
        # a worker process started from this one: its own CPU time counts from its start
        if os.getpid() != self.pid:
            self.pid, self.last = os.getpid(), 0.0
        with self.total.get_lock():
            self.total.value += now - self.last
            self.last = now
            return float(self.total.value)


class BatchSolver:
    """Solvers kept per ruleset, trump, side and last-trick bonus, each solving positions one after another;
    ``time_limit``: CPU seconds of ``clock`` for every position it solves together, counted from ``since`` (a
    reading of ``clock``; None: from its making), besides each item's own limit."""

    def __init__(self, time_limit: float | None = None, clock: Clock = time.process_time,
                 since: float | None = None) -> None:
        self.solvers: dict[Key, Solver] = {}
        self.known: dict[tuple[Key, Position], int] = {}
        self.time_limit = time_limit
        self.clock = clock
        self.since = clock() if since is None else since

    def solver(self, rules: Ruleset, trump: Suit, us: int = 0, bidder: int | None = None,
               last_trick: int | None = None) -> Solver:
        """The solver kept for ``rules``, ``trump``, the side of ``us``, the bidder and the last trick's bonus (made,
        and its code loaded, at first)."""
        key = (rules, trump, us, bidder, last_trick)
        if key not in self.solvers:
            # each solver's table is 32 MB: the one used longest ago goes first (a game whose last trick's worth
            # varies with the buried counters makes a solver per worth)
            if len(self.solvers) >= MAX_KEPT:
                del self.solvers[next(iter(self.solvers))]
            # kept for many positions, small ones often first (analyze): the whole table from the start, as a
            # table grown later starts empty
            solver = Solver(rules, trump, us=us, bidder=bidder, last_trick=last_trick, clock=self.clock,
                            table_bits=TABLE_BITS)
            # the compiled code loaded (or compiled) before any position is timed: a one-trick position
            cards = rules.deck.cards()[:rules.players]
            solver.value(Position(tuple(Hand([c]) for c in cards), 0))
            self.solvers[key] = solver
        # the most recently used last
        self.solvers[key] = self.solvers.pop(key)
        return self.solvers[key]

    def _restart(self, solver: Solver, item: BatchItem) -> None:
        """The item's time limit or what is left of the whole's, whichever ends first."""
        whole, own = self.time_limit, item.time_limit
        if whole is None or (own is not None and self.clock() + own < self.since + whole):
            solver.restart(own)
        else:
            solver.restart(whole, since=self.since)

    def solve(self, item: BatchItem) -> BatchResult | BatchFailure:
        """One position; any of the package's errors becomes a ``BatchFailure``."""
        try:
            result: BatchResult | BatchFailure = self._solve(item)
        except PinochleError as exc:
            result = BatchFailure(exc.message, type(exc).__name__, exc.parameter)
        # a reading of a shared clock counts this process's time so far for the others
        self.clock()
        return result

    def _solve(self, item: BatchItem) -> BatchResult:
        check_position(item.rules, item.trump, item.position, item.bidder)
        key = (item.rules, item.trump, item.us, item.bidder, item.last_trick)
        solver = self.solver(*key)
        self._restart(solver, item)
        nodes, start = solver.nodes, time.process_time()
        pos = item.position
        after, better = None, None
        if item.played is not None:
            plays: tuple[tuple[Card, int], ...] = ()
            value, after, better = self._judge(key, solver, pos, item.played)
        elif item.plays:
            plays = tuple(solver.plays(pos))
            value = solver.best(plays, pos.to_play)
        else:
            plays, value = (), solver.value(pos, near=item.near)
        self._remember(key, pos, value)
        return BatchResult(value, pos.to_play, plays, solver.nodes - nodes, time.process_time() - start, after, better)

    def _remember(self, key: Key, pos: Position, value: int) -> None:
        self.known[(key, pos)] = value
        if len(self.known) > _KNOWN:
            del self.known[next(iter(self.known))]

    def _judge(self, key: Key, solver: Solver, pos: Position, card: Card) -> tuple[int, int, Card | None]:
        """The value of ``pos``, the value after ``card`` and a card that keeps the value if ``card`` does not."""
        nxt, taken = solver.after(pos, card)
        if not any(nxt.hands):
            after = taken
        else:
            known = self.known.get((key, nxt))
            after = taken + (solver.value(nxt) if known is None else known)
        # the best card keeps at least ``after`` for the side to play: the value is likely ``after`` itself
        if solver.side[pos.to_play] == 0:
            value = solver.value(pos, lower=after, near=after + solver.step)
        else:
            value = solver.value(pos, upper=after, near=after)
        better = None
        if value != after:
            better = next(c for c in solver.legal(pos) if c != card and solver.keeps(pos, c, value))
        return value, after, better

    def solve_all(self, items: list[BatchItem]) -> list[BatchResult | BatchFailure]:
        return [self.solve(item) for item in items]


def _work(items: list[BatchItem]) -> list[BatchResult | BatchFailure]:
    return kept(BatchSolver).solve_all(items)


def _chunks(items: Iterable[BatchItem], size: int) -> Iterator[list[BatchItem]]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def solve_batch(items: Iterable[BatchItem], *, workers: int = 1, solver: BatchSolver | None = None,
                chunk: int = CHUNK, time_limit: float | None = None,
                clock: Clock | None = None) -> Generator[BatchResult | BatchFailure, None, None]:
    """The result of each item, in order, from ``workers`` processes (1: this one, with ``solver`` if given),
    each taking ``chunk`` consecutive items at a time. ``time_limit``: CPU seconds for the whole batch (not with
    ``solver``), counted on ``clock`` from the call (with more workers, a ``SharedClock``: every worker's CPU
    time; default: this process's CPU time, or a new ``SharedClock``); the items after it ran out fail. An
    item's own limit counts on the same clock, or its process's CPU time where there is none.
    On any exception (Ctrl-C too) the workers are ended."""
    assert solver is None or time_limit is None, "a given solver keeps its own time limit"
    if workers <= 1:
        here = solver if solver is not None else BatchSolver(time_limit, clock or time.process_time)
        for item in items:
            yield here.solve(item)
        return
    # without a limit for the whole or a clock to share, each item's own limit counts its process's CPU time
    args: tuple[Any, ...] = (BatchSolver,)
    if time_limit is not None or clock is not None:
        shared = clock if clock is not None else SharedClock()
        assert isinstance(shared, SharedClock), "more workers share a SharedClock"
        args = (BatchSolver, time_limit, shared, shared())
    pool = ChunkPool(workers, keep, args)
    try:
        for results in pool.map(_work, _chunks(items, chunk)):
            yield from results
    # Ctrl-C, or the caller stopped reading: end the workers now
    except BaseException:
        pool.stop()
        raise
    pool.close()
