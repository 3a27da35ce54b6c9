"""The final round of the pass advice: the best candidates played out with the strongest play the project has.

The race (``race.race``) ranks every candidate with the estimator's heuristic players. Its best
``FINAL_CANDIDATES`` then play ``FINAL_DEALS`` fresh common deals again as the hint judges a card
in one world: the heuristic plays the opening tricks, and the last ``FINAL_CARDS`` cards (7 tricks
of four) are solved exactly (double-dummy, ``solver.Solver``) — every card of the middle and end game
played perfectly, which bounds what good play takes from each pass. The contract's points (meld
kept + counters when made, minus the bid when set) on these deals give the final ranking, by the
same race machinery (so the same seed gives the same answer at any number of workers). The cost
and the figures: docs/estimate.md, "The pass".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..arrays import IntArray
from ..cards import Hand, Suit
from ..player.play import play_opening
from ..solver.batch import BatchSolver
from ..solver.solve import Position, Solver
from .candidates import Pass
from .judge import Dealt, Judge, Judging, PassQuestion, RaceOutcome

__all__ = ["FINAL_CANDIDATES", "FINAL_CARDS", "FINAL_DEALS", "FINAL_SALT", "Played", "final_seed", "solved_tricks"]

# the candidates the final round plays, the deals each, the cards in play at which the solver takes over
FINAL_CANDIDATES = 4
FINAL_DEALS = 300
FINAL_CARDS = 28
# the final round's deals are fresh: its seed is the race's with these bits flipped
FINAL_SALT = 0x5EED_F1A1


def final_seed(seed: int) -> int:
    return seed ^ FINAL_SALT


def solved_tricks(q: PassQuestion) -> int:
    """The tricks of a deal the final round solves exactly."""
    r = q.rules
    return min(r.tricks_per_deal, max(1, FINAL_CARDS // r.players))


class Played(Judging):
    """The candidates of a question on common deals, each played out: heuristic openings, the rest solved."""

    def __init__(self, q: PassQuestion) -> None:
        self.judge = Judge(q)
        self.sim = self.judge.sim
        self.q = q
        self.opening = q.rules.tricks_per_deal - solved_tricks(q)
        self._solvers: BatchSolver | None = None

    def __reduce__(self) -> tuple[type[Played], tuple[PassQuestion]]:
        return Played, (self.q,)

    def deal(self, index: int, n: int, seed: int) -> Dealt:
        return self.judge.deal(index, n, seed)

    def acceptance(self, seed: int, needed: int) -> float | None:
        return self.judge.acceptance(seed, needed)

    def _solver(self, trump: Suit) -> Solver:
        if self._solvers is None:
            self._solvers = BatchSolver()
        bidder = 0 if self.q.rules.sides_by_auction else None
        return self._solvers.solver(self.q.rules, trump, bidder=bidder)

    def play(self, cands: Sequence[Pass], dealt: Dealt) -> RaceOutcome:
        """Every candidate on every deal of ``dealt`` played out (``(len(cands), n)`` outcomes)."""
        judge, sim, q = self.judge, self.sim, self.q
        n, m = len(dealt.leader), len(cands)
        slots = judge.slots(cands, dealt.cards)
        trump = np.full(n * m, int(q.trump), dtype=np.int64)
        exchange = judge._fixed_pass(cands, n) if q.role == "partner" else None
        g = sim.play_slots(slots, trump, np.tile(dealt.leader, m), exchange or _nothing)
        side = sim.side
        opened = play_opening(sim.play, g.hands, sim.order_rows, trump, g.leader, self.opening, bidding_side=side)
        solver = self._solver(q.trump)
        guess = g.points[:, side] - opened.points[:, side]
        solved = np.array([solver.value(Position(tuple(Hand.from_counts(h.tolist()) for h in opened.hands[i]),
                                                 int(opened.leader[i])), near=int(guess[i]))
                           for i in range(n * m)], dtype=np.int64)
        won: IntArray = opened.points[:, side] + solved
        took = (opened.tricks[:, side] > 0) | (solved > 0)
        claim = sim.claims(g.meld, g.meld_kept_anyway, won, took)
        made = claim >= q.bid
        points = np.where(made, claim, -q.bid)
        return RaceOutcome(made.reshape(m, n), g.meld.reshape(m, n), won.reshape(m, n), points.reshape(m, n))


def _nothing(slots: IntArray, trump: IntArray) -> None:
    """The bidder's return is already made in the deals."""


@dataclass(frozen=True)
class Final:
    """The final round: the candidates it played (best first, by the played-out points), the deals each, the tricks
    solved exactly, each candidate's mean points and P(make) played out, and whether its best differs from the
    race's."""

    deals: int
    solved_tricks: int
    order: tuple[Pass, ...]
    points: tuple[float, ...]
    p_make: tuple[float, ...]
    # each finalist's place in the race (1: the heuristic players' best)
    race_rank: tuple[int, ...]
    # the deals it was to play, and the advice's time bound (None: none); fewer ``deals``: the bound cut it
    planned: int = field(default=0, kw_only=True)
    seconds: float | None = field(default=None, kw_only=True)

    @property
    def cut(self) -> bool:
        """The time bound stopped the round before its planned deals (the answer then depends on the pace)."""
        return self.deals < self.planned

    @property
    def changed(self) -> bool:
        """The final best is not the race's best."""
        return self.race_rank[0] != 1

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"method": "heuristic openings, the last tricks solved exactly", "deals": self.deals,
                               "solved_tricks": self.solved_tricks, "changed": self.changed,
                               "ranked": [{"race_rank": r, "points_mean": round(p, 4), "p_make": round(m, 4)}
                                          for r, p, m in zip(self.race_rank, self.points, self.p_make, strict=True)]}
        # only when the time bound cut the round: the deals planned and the bound (the deals then depend on time)
        if self.cut:
            doc["cut_by_time"] = {"planned_deals": self.planned, "seconds": self.seconds}
        return doc
