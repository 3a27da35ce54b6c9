"""Each legal card's value in one world: solved exactly, or estimated by playing on and solving the rest.

A world is every hand now. A card's value is what our side takes from here on (the cards on the trick
included) after that card. Where the cards still in play are few (``Plan.exact``), every legal card is
solved double-dummy (``Solver.plays``). Else the card is played, the computer player carries the deal on
(``player.rollout.play_on``, every seat from what it can see, the voids shown so far kept) until
``Plan.tail`` tricks are left, and those are solved exactly: the value is what our side took on the
way plus the tail's double-dummy value. Every card of a world is judged the same way, so two cards'
difference in one world is a fair comparison. ``WorldValues`` keeps one solver per thread (its table
reused from world to world); a search past its node limit raises ``SearchLimitError``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from ..cards import N_CARDS, N_SUITS, Card, Hand
from ..game.tricks import legal_plays
from ..player.rollout import play_on, rotate
from ..player.tables import SIDE, PlayerTables
from ..solver.solve import Position, Solver
from .facts import Facts
from .worlds import World

__all__ = ["NODE_LIMIT", "Plan", "Valued", "WorldValues", "plan_for"]

# a search past this many nodes gives the world up (about a second): the few worlds that hard never hold the
# hint past its time
NODE_LIMIT = 2_000_000
# the cards in play (the hands and the trick) at or below which every card is solved exactly, and the tail an
# estimate solves exactly: plays of 10 single-deck or double-deck tricks take 23 and 40 ms in the median
# (docs/hint.md, "Pace")
EXACT_CARDS = 40


@dataclass(frozen=True)
class Plan:
    """How a position's cards are judged: ``exact``, or played on by the computer until ``tail`` tricks are left
    (then solved exactly; none: the computer plays to the end, as the engine does before it is compiled)."""

    exact: bool
    tail: int

    def words(self, facts: Facts) -> str:
        if self.exact:
            return "solved exactly (double-dummy)"
        if self.tail == 0:
            return "estimated: the computer plays every trick on"
        last = facts.rules.tricks_per_deal - self.tail
        return (f"estimated: the computer plays on to trick {last}, the last {self.tail} tricks solved exactly "
                "(double-dummy)")


def plan_for(facts: Facts, tail: int | None = None) -> Plan:
    """The plan for ``facts``'s position: exact when its cards in play are ``EXACT_CARDS`` or fewer, else an estimate
    whose tail is as many tricks as ``EXACT_CARDS`` cards make (or ``tail``)."""
    players = facts.players
    left = facts.rules.tricks_per_deal - len(facts.tricks)
    in_play = left * players - len(facts.trick)
    most = tail if tail is not None else max(1, EXACT_CARDS // players)
    if in_play <= EXACT_CARDS or left <= most:
        return Plan(True, left)
    return Plan(False, most)


@dataclass(frozen=True)
class Valued:
    """One world's values: each legal card with our side's counters from here on after it."""

    plays: tuple[tuple[Card, int], ...]
    exact: bool


class WorldValues:
    """The values of the legal cards in worlds of one position (see the module docstring); thread-safe, each
    thread with its own solver."""

    def __init__(self, facts: Facts, last_trick: int | None = None) -> None:
        self.facts = facts
        self.rules = facts.rules
        self.last_trick = last_trick
        self.player = PlayerTables.build(facts.rules)
        self.local = threading.local()
        self.bidder = facts.bidder if facts.bidder is not None else 0
        self.voids = self._voids()

    def _solver(self, last_trick: int | None) -> Solver:
        kept: dict[int | None, Solver] = getattr(self.local, "solvers", None) or {}
        self.local.solvers = kept
        if last_trick not in kept:
            kept[last_trick] = Solver(self.rules, self.facts.trump, us=self.facts.seat, bidder=self.facts.bidder,
                                      last_trick=last_trick, clock=time.thread_time)
            kept[last_trick].node_limit = NODE_LIMIT
        return kept[last_trick]

    def _voids(self) -> np.ndarray:
        """The suits each seat (from the bidder) has shown it lacks, from every trick played after the stock."""
        facts = self.facts
        out = np.zeros((facts.players, N_SUITS), dtype=bool)
        tricks = (*zip(facts.tricks, facts.leaders, strict=True), (facts.trick, facts.leader))
        for k, (trick, first) in enumerate(tricks):
            if k < facts.stock_tricks or not trick:
                continue
            for j in range(1, len(trick)):
                if trick[j].suit != trick[0].suit:
                    out[rotate((first + j) % facts.players, self.bidder, facts.players), int(trick[0].suit)] = True
        return out

    def value(self, world: World, plan: Plan, last_trick: int | None, deadline: float | None = None) -> Valued:
        """The values of the legal cards in ``world`` (``last_trick``: its last trick's worth, None: the ruleset's);
        past ``deadline`` (a reading of ``time.monotonic``) its searches are given up (``SearchLimitError``)."""
        facts = self.facts
        pos = Position(world.hands, facts.leader, facts.trick)
        if plan.tail == 0:
            legal = legal_plays(facts.rules, world.hands[facts.seat], facts.trick, facts.trump, phase=facts.phase,
                                leader_seat=facts.leader, bidder=facts.bidder)
            return Valued(tuple((card, self._estimate(None, pos, card, plan)) for card in legal), False)
        solver = self._solver(last_trick)
        left = None if deadline is None else deadline - time.monotonic()
        solver.restart(None if left is None else max(left, 0.01))
        if plan.exact:
            return Valued(tuple(solver.plays(pos)), True)
        return Valued(tuple((card, self._estimate(solver, pos, card, plan)) for card in solver.legal(pos)), False)

    def _estimate(self, solver: Solver | None, pos: Position, card: Card, plan: Plan) -> int:
        """``card`` played, the computer on until ``plan.tail`` tricks are left, the rest solved."""
        facts, p = self.facts, self.facts.players
        nxt = pos.play(card)
        hands = np.zeros((1, p, N_CARDS), dtype=np.int64)
        for seat, hand in enumerate(nxt.hands):
            hands[0, rotate(seat, self.bidder, p)] = hand.counts
        trick = np.array([[c.index for c in nxt.trick]], dtype=np.int64).reshape(1, -1)
        first = len(facts.tricks)
        count = facts.rules.tricks_per_deal - first - plan.tail
        leader = np.array([rotate(pos.leader, self.bidder, p)], dtype=np.int64)
        table = self.player.table
        carried = play_on(self.player, hands, int(facts.trump), leader, trick, first, count, self.voids[None],
                          bidding_side=int(table[SIDE, 0]))
        ours = int(table[SIDE, rotate(facts.seat, self.bidder, p)])
        taken = int(carried.points[0, ours])
        if solver is None:
            return taken
        left = tuple(Hand.from_counts([int(x) for x in carried.hands[0, rotate(s, self.bidder, p)]])
                     for s in range(p))
        lead = (int(carried.leader[0]) + self.bidder) % p
        return taken + solver.value(Position(left, lead))
