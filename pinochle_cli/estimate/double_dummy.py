"""Perfect play in the estimator: the estimate's own sampled deals, their last tricks solved double-dummy.

For ``estimate --play double-dummy``: every sampled deal (same seed, chunks, exchange and meld)
is played by the heuristic up to trick K - 1 and solved from trick K on (``solve.Solver``), so
the heuristic and perfect tallies come from the same deals and their difference is the play
model's effect. Tallies are integer sums: the answer depends neither on the job sizes nor on the
number of workers. ``check_exact_from`` raises ``SimulationError`` when more than
``MAX_EXACT_TRICKS`` tricks would be solved. In a game with a widow the deal is the estimate's own after
the widow taken and the bury, the buried counters the bidder's or in the last trick's worth as the
ruleset says. The claim, the cost estimate and the jobs:
docs/estimate.md.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..arrays import BoolArray, IntArray
from ..cards import Hand, Suit
from ..errors import Argument, Message, SimulationError
from ..player.play import play_opening
from ..ruleset import Ruleset
from ..solver.batch import BatchFailure, BatchItem, BatchSolver
from ..solver.solve import Position, Solver
from ..workers import ChunkPool, keep, kept
from .checks import CHUNK, MAX_BIDS, STOP_BELOW
from .games import GameBatch, Simulator, Tally
from .interval import wilson_interval
from .results import BidChance, SuitEstimate, best_suit, summarise

__all__ = ["MAX_EXACT_TRICKS", "BidPair", "Cost", "PerfectPlay", "PerfectPlayer", "SuitComparison",
           "check_exact_from", "perfect_play"]

# tricks solved per deal at most: a full single-deck deal takes seconds, more can take hours
MAX_EXACT_TRICKS = 12
# CPU time of solving spent measuring the cost before the run, shared by the suits (at least one solve each);
# a long run measures this share of what it is projected to cost instead, up to PROBE_MOST seconds: solve times
# have a heavy tail, which a few solves miss
PROBE_SECONDS = 1.0
PROBE_SHARE = 0.01
PROBE_MOST = 30.0
# CPU time of solving a job aims at
JOB_SECONDS = 2.0

# chunk index, its deals, seed, suit number, first deal, end deal
SolveJob = tuple[int, int, int, int, int, int]


def check_exact_from(rules: Ruleset, exact_from: int, where: str | None = None) -> None:
    """``SimulationError`` (``parameter`` ``exact_from``) unless trick ``exact_from`` of a deal of
    ``rules`` can start perfect play (``where``: how the caller asked for it, quoted in the message;
    default ``exact_from N``)."""
    tricks = rules.tricks_per_deal
    asked: str | Argument = Argument("exact_from", exact_from) if where is None else where
    if not 1 <= exact_from <= tricks:
        raise SimulationError(Message(asked, f": a {rules.name} deal has {tricks} tricks; give a trick from 1 to "
                                      f"{tricks}"), parameter="exact_from")
    solved = tricks - exact_from + 1
    if solved > MAX_EXACT_TRICKS:
        span = f"all {solved}" if solved == tricks else f"the last {solved}"
        raise SimulationError(Message(asked, f": perfect play over {span} tricks of a {rules.name} deal is out of "
                                      f"reach (beyond {MAX_EXACT_TRICKS} tricks one deal can take hours); give ",
                                      Argument("exact_from", tricks - MAX_EXACT_TRICKS + 1, assigned=True),
                                      " or later"), parameter="exact_from")


@dataclass(frozen=True)
class Openings:
    """The games of one chunk and suit after the heuristic's first tricks (real card indices)."""

    # the whole chunk, every suit (the estimate's games)
    games: GameBatch
    # (n,) this suit's rows of ``games``
    rows: IntArray
    # (n, players, 24) cards left
    hands: IntArray
    # (n,) the seat leading the first trick played perfectly
    leader: IntArray
    # (n,) the bidding side's counters so far
    points: IntArray
    # (n,) whether it took a trick so far
    took_trick: BoolArray


class PerfectPlayer:
    """What one process needs to play the estimate's deals perfectly from trick ``exact_from`` on."""

    def __init__(self, rules: Ruleset, hand: Hand, trumps: Sequence[Suit], exact_from: int) -> None:
        check_exact_from(rules, exact_from)
        self.sim = Simulator(rules, hand, trumps)
        self.exact_from = exact_from
        # the heuristic's take as each solve's first question: only after a trick played (from the first lead it
        # costs nodes: docs/estimate.md)
        self.guess = exact_from > 1
        # one solver per suit, kept from deal to deal (its table, history and ordering)
        self.batch = BatchSolver()
        self._games: tuple[tuple[int, int, int], GameBatch] | None = None
        self._openings: tuple[tuple[int, int, int, int], Openings] | None = None

    def openings(self, index: int, n: int, seed: int, suit: int) -> Openings:
        """Chunk ``index`` of the estimate, suit ``suit``, after the heuristic's tricks (kept: a process
        usually gets several slices of one chunk and suit in a row)."""
        if self._openings is not None and self._openings[0] == (index, n, seed, suit):
            return self._openings[1]
        if self._games is None or self._games[0] != (index, n, seed):
            self._games = (index, n, seed), self.sim.games(index, n, seed)
        g = self._games[1]
        sim = self.sim
        rows = np.arange(suit * n, (suit + 1) * n)
        played = play_opening(sim.play, g.hands[rows], sim.order_rows, np.full(n, int(sim.trumps[suit])),
                              g.leader[rows], self.exact_from - 1, bidding_side=sim.side)
        out = Openings(g, rows, played.hands, played.leader, played.points[:, sim.side],
                       played.tricks[:, sim.side] > 0)
        self._openings = (index, n, seed, suit), out
        return out

    @property
    def bidder(self) -> int | None:
        """Seat 0 bids: where the auction forms the sides, the solver is told so."""
        return 0 if self.sim.rules.sides_by_auction else None

    def solver(self, suit: int) -> Solver:
        return self.batch.solver(self.sim.rules, self.sim.trumps[suit], bidder=self.bidder)

    def warm(self) -> None:
        """Load (or compile) the solver's code, so that no timing includes it."""
        self.solver(0)

    def _value(self, suit: int, hands: IntArray, leader: int, near: int | None, last_trick: int | None) -> int:
        """The solver's value of one deal's position after the heuristic's tricks (``last_trick``: the last trick's
        worth with the buried counters, where they go to its winner)."""
        pos = Position(tuple(Hand.from_counts(h.tolist()) for h in hands), leader)
        result = self.batch.solve(BatchItem(self.sim.rules, self.sim.trumps[suit], pos, bidder=self.bidder,
                                            plays=False, near=near, last_trick=last_trick))
        # the estimator's own positions arise in its deals: a failure would be a fault of the estimator
        if isinstance(result, BatchFailure):
            raise SimulationError(f"perfect play: the solver refused a deal's position: {result.error}")
        return result.value

    def buried(self, g: GameBatch, rows: IntArray) -> tuple[IntArray, bool]:
        """The counters the bidder buried in games ``rows`` (0 without a widow), and whether they go to the last
        trick's winner (else they are the bidder's)."""
        bury = self.sim.rules.bury
        if g.buried is None or self.sim.bury is None or bury is None:
            return np.zeros(len(rows), dtype=np.int64), False
        counters: IntArray = self.sim.bury.counter[g.buried[rows]].sum(axis=1)
        return counters, bury.counters == "last-trick"

    def run(self, job: SolveJob) -> tuple[Tally, Tally]:
        """The heuristic and the perfect-play tallies (one suit) of the job's deals.

        Perfect play: the counters the bidding side took in the heuristic's tricks plus the solver's value
        of the position after them; it takes a trick if it took one then or takes a counter after."""
        index, n, seed, suit, start, stop = job
        o = self.openings(index, n, seed, suit)
        g, rows = o.games, o.rows[start:stop]
        meld, only, side = g.meld[rows], g.meld_kept_anyway[rows], self.sim.side
        bonus, to_last = self.buried(g, rows)
        # the buried counters: in the last trick's worth, or the bidder's after the play
        worths = [self.sim.rules.last_trick + int(b) if to_last else None for b in bonus]
        after = 0 if to_last else bonus
        # what the heuristic took after: a value likely near
        guess = g.points[rows, side] - o.points[start:stop] - after
        near = [int(v) if self.guess else None for v in guess]
        solved = np.array([self._value(suit, o.hands[j], int(o.leader[j]), near[j - start], worths[j - start])
                           for j in range(start, stop)], dtype=np.int64)
        won = o.points[start:stop] + solved + after
        claim = self.sim.claims(meld, only, won, o.took_trick[start:stop] | (solved > 0))
        return Tally.of(g.claim[rows], meld, g.points[rows, side], 1), Tally.of(claim, meld, won, 1)


# --------------------------------------------------------------------------- workers

def _work(job: SolveJob) -> tuple[Tally, Tally]:
    return kept(PerfectPlayer).run(job)


# --------------------------------------------------------------------------- cost and jobs

@dataclass(frozen=True)
class Cost:
    """The run's cost, measured on its first solves before the rest starts."""

    exact_from: int
    # tricks in a deal
    tricks: int
    # deals × suits
    solves: int
    # solves timed
    probed: int
    # their CPU seconds
    cpu: float
    workers: int
    # each timed solve's CPU seconds (when kept)
    times: tuple[float, ...] = ()
    # suits solved per deal
    suits: int = 1

    @property
    def per_solve(self) -> float:
        return self.cpu / max(self.probed, 1)

    @property
    def per_solve_high(self) -> float:
        """A solve's CPU seconds at the high end of the mean's 95 % interval (the mean plus twice its standard
        error, from ``times``; the mean itself with fewer than two)."""
        n = len(self.times)
        if n < 2:
            return self.per_solve
        mean = sum(self.times) / n
        spread = math.sqrt(sum((x - mean) ** 2 for x in self.times) / (n - 1))
        return mean + 2 * spread / math.sqrt(n)

    def deals_within(self, seconds: float) -> int:
        """The deals (every suit solved) a whole run can play in ``seconds`` of wall time on the workers, at the
        high end of the measured cost per solve (``per_solve_high``)."""
        return int(seconds * self.workers / max(self.per_solve_high * self.suits, 1e-9))

    @property
    def seconds_left(self) -> float:
        """Expected wall time of the solves still to do, with every worker busy."""
        return self.per_solve * (self.solves - self.probed) / self.workers

    @property
    def seconds_left_high(self) -> float | None:
        """The wall time of the solves still to do at the high end of the mean's 95 % interval (the mean plus
        twice its standard error, from ``times``: a few slow deals widen it), None with fewer than two times."""
        if len(self.times) < 2:
            return None
        return self.per_solve_high * (self.solves - self.probed) / self.workers


def _chunks(samples: int) -> list[tuple[int, int]]:
    """(index, deals) of each chunk of the estimate's ``samples`` deals."""
    return [(start // CHUNK, min(CHUNK, samples - start)) for start in range(0, samples, CHUNK)]


def _jobs(samples: int, seed: int, suits: int, size: int, skip: Sequence[int]) -> list[SolveJob]:
    """Slices of ``size`` deals, chunk by chunk and suit by suit, the first ``skip[suit]`` deals of chunk 0
    left out (already solved)."""
    jobs: list[SolveJob] = []
    for index, n in _chunks(samples):
        for suit in range(suits):
            first = skip[suit] if index == 0 else 0
            jobs.extend((index, n, seed, suit, a, min(a + size, n)) for a in range(first, n, size))
    return jobs


class _Run:
    """Per-suit tallies of the heuristic and the perfect play, filled job by job in any order."""

    def __init__(self, suits: int, total: int, progress: Callable[[int, int], None] | None) -> None:
        self.heuristic = [Tally.empty(1) for _ in range(suits)]
        self.perfect = [Tally.empty(1) for _ in range(suits)]
        self.total = total
        self.done = 0
        self.progress = progress

    def add(self, job: SolveJob, result: tuple[Tally, Tally]) -> None:
        self.heuristic[job[3]].add(result[0])
        self.perfect[job[3]].add(result[1])
        self.done += job[5] - job[4]
        if self.progress is not None:
            self.progress(self.done, self.total)


def _probe_seconds(times: Sequence[float], solves: int) -> float:
    """The CPU seconds to spend measuring, given the solves timed so far: ``PROBE_SECONDS``, or for a long run
    ``PROBE_SHARE`` of its projected cost, at most ``PROBE_MOST``."""
    projected = sum(times) / len(times) * solves if times else 0.0
    return min(PROBE_MOST, max(PROBE_SECONDS, PROBE_SHARE * projected))


def _probe(player: PerfectPlayer, run: _Run, samples: int, seed: int, suits: int) -> tuple[list[int], list[float]]:
    """Solve the first deals of chunk 0 of every suit one by one, each suit until its share of ``_probe_seconds``
    of CPU (at least one deal): the deals solved per suit, and each solve's CPU seconds."""
    n = min(CHUNK, samples)
    player.warm()
    deals: list[int] = []
    times: list[float] = []
    for suit in range(suits):
        player.openings(0, n, seed, suit)
        spent = 0.0
        done = 0
        while done < n and (done == 0 or spent < _probe_seconds(times, samples * suits) / suits):
            job = (0, n, seed, suit, done, done + 1)
            start = time.process_time()
            run.add(job, player.run(job))
            times.append(time.process_time() - start)
            spent += times[-1]
            done += 1
        deals.append(done)
    return deals, times


def _solve(player: PerfectPlayer, run: _Run, jobs: list[SolveJob], workers: int) -> None:
    """Every job, in this process or in a pool (forked after the solver's code is loaded, where forking exists)."""
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            run.add(job, player.run(job))
        return
    sim = player.sim
    pool = ChunkPool(workers, keep, (PerfectPlayer, sim.rules, sim.hand, sim.trumps, player.exact_from))
    try:
        for job, result in zip(jobs, pool.map(_work, jobs), strict=True):
            run.add(job, result)
    # Ctrl-C too: end the workers now
    except BaseException:
        pool.stop()
        raise
    pool.close()


# --------------------------------------------------------------------------- the comparison

@dataclass(frozen=True)
class BidPair:
    """One bid's chance under each play model, on the same deals."""

    bid: int
    heuristic: BidChance
    perfect: BidChance

    @property
    def difference(self) -> float:
        """Perfect minus heuristic P(make)."""
        return self.perfect.p_make - self.heuristic.p_make


@dataclass(frozen=True)
class SuitComparison:
    heuristic: SuitEstimate
    perfect: SuitEstimate
    bids: tuple[BidPair, ...]

    @property
    def trump(self) -> Suit:
        return self.perfect.trump


@dataclass(frozen=True)
class PerfectPlay:
    """The estimate with perfect play from trick ``exact_from`` on, beside the heuristic one (same deals)."""

    exact_from: int
    tricks: int
    samples: int
    suits: tuple[SuitComparison, ...]
    # by the perfect-play estimate
    best: Suit | None

    def to_json(self) -> dict[str, Any]:
        """The ``double_dummy`` member of the ``--json`` document (docs/json.md)."""
        return {
            "exact_from": self.exact_from,
            "tricks_solved": self.tricks - self.exact_from + 1,
            "suits": [{
                "trump": s.trump.letter,
                "meld_mean": round(s.perfect.meld_mean, 4),
                "counters_mean": round(s.perfect.counters_mean, 4),
                "score_mean": round(s.perfect.score_mean, 4),
                "heuristic_counters_mean": round(s.heuristic.counters_mean, 4),
                "bids": [{"bid": b.bid, "p_make": round(b.perfect.p_make, 4),
                          "ci95": [round(b.perfect.ci95[0], 4), round(b.perfect.ci95[1], 4)],
                          "heuristic_p_make": round(b.heuristic.p_make, 4), "difference": round(b.difference, 4)}
                         for b in s.bids],
                "recommended_bid": s.perfect.recommended_bid,
                "heuristic_recommended_bid": s.heuristic.recommended_bid,
            } for s in self.suits],
            "best": self.best.letter if self.best is not None else None,
        }


def _bid_chance(tally: Tally, suit: int, bid: int) -> BidChance:
    made = tally.made(suit, bid)
    return BidChance(bid, made, made / tally.deals, wilson_interval(made, tally.deals))


def _pairs(rules: Ruleset, heuristic: Tally, perfect: Tally, suit: int) -> tuple[BidPair, ...]:
    """From the minimum bid up to the first bid both models make less often than ``STOP_BELOW`` (or above
    every claim of either)."""
    assert rules.auction is not None
    out: list[BidPair] = []
    bid = rules.auction.minimum
    top = max(heuristic.top(suit), perfect.top(suit))
    while len(out) < MAX_BIDS:
        pair = BidPair(bid, _bid_chance(heuristic, suit, bid), _bid_chance(perfect, suit, bid))
        out.append(pair)
        if max(pair.heuristic.p_make, pair.perfect.p_make) < STOP_BELOW or bid > top:
            break
        bid = rules.auction.next_bid(bid)
    return tuple(out)


def _merged(tallies: Sequence[Tally]) -> Tally:
    """One tally of every suit from per-suit tallies of the same deals."""
    return Tally(tallies[0].deals, [t.hist[0] for t in tallies], [t.meld[0] for t in tallies],
                 [t.counters[0] for t in tallies])


def perfect_play(rules: Ruleset, hand: Hand, trumps: Sequence[Suit], *, samples: int, seed: int, exact_from: int,
                 workers: int, confidence: float, progress: Callable[[int, int], None] | None = None,
                 on_cost: Callable[[Cost], None] | None = None) -> PerfectPlay:
    """The estimate's ``samples`` deals of ``seed`` (``simulate.estimate``; ``trumps`` as it found them) played
    perfectly from trick ``exact_from`` on, compared with the heuristic play bid by bid. ``on_cost`` gets the
    measured cost before the bulk of the work; ``progress(done, total)`` counts solves."""
    if not trumps:
        check_exact_from(rules, exact_from)
        return PerfectPlay(exact_from, rules.tricks_per_deal, samples, (), None)
    player = PerfectPlayer(rules, hand, trumps, exact_from)
    run = _Run(len(trumps), samples * len(trumps), progress)
    probed, times = _probe(player, run, samples, seed, len(trumps))
    cost = Cost(exact_from, rules.tricks_per_deal, run.total, sum(probed), sum(times), workers, tuple(times),
                len(trumps))
    if on_cost is not None:
        on_cost(cost)
    size = max(1, min(CHUNK, round(JOB_SECONDS / max(cost.per_solve, 1e-6))))
    jobs = _jobs(samples, seed, len(trumps), size, probed)
    _solve(player, run, jobs, workers)
    heuristic, perfect = _merged(run.heuristic), _merged(run.perfect)
    ours, theirs = summarise(rules, trumps, perfect, confidence), summarise(rules, trumps, heuristic, confidence)
    suits = tuple(SuitComparison(h, p, _pairs(rules, heuristic, perfect, i))
                  for i, (h, p) in enumerate(zip(theirs, ours, strict=True)))
    return PerfectPlay(exact_from, rules.tricks_per_deal, samples, suits, best_suit(ours))
