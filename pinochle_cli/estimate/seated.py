"""The game when another player is the bidder: their hand drawn, their trump named by a heuristic.

``side_estimate(rules, hand, bidder, ...)`` answers for the player holding ``hand`` when the
player at ``bidder`` (``partner``, ``left``, ``right``) plays the bid: the bidder's hand (with
the others) is drawn under the conditions given, the bidder names the trump ``choose_trump``
picks (in a game with a widow, from the hand before it: the widow is then taken and buried as
``Simulator`` does), the exchange and the play follow as in ``Simulator``; each bid gets P(make) for the
bidding side and the expected points of the estimating player's side (our side − theirs).
Seeds work as in ``simulate`` (same seed, same answer at any number of workers). Raises as
``simulate.estimate`` does, and ``ConditionError`` / ``RareConditionError`` as the conditioned
sampler does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..arrays import BoolArray, IntArray
from ..cards import Hand, Suit
from ..errors import Message, SimulationError
from ..meld import MeldTable, meld_table
from ..ruleset import Ruleset
from ..workers import workers_for
from .checks import STOP_BELOW, check_full_hand, chunk_rng
from .conditioned import ConditionedSimulator, counts_of
from .conditions import Given, seat_of
from .games import Tally, TallyRunner
from .interval import wilson_interval
from .points import expected_interval, outcomes
from .results import BidChance
from .simulate import next_start, tally_jobs

__all__ = ["SideEstimate", "choose_trump", "side_estimate"]

MAX_LADDER = 200


def choose_trump(rules: Ruleset, table: MeldTable, counts: IntArray) -> tuple[IntArray, BoolArray]:
    """The suit each hand ``(N, 24)`` names: of the suits it may name, the most meld plus, per card of the
    suit, a share of a deal's counters (``counter_total / hand_size``); and the hands that may name none."""
    weight = rules.counter_total / rules.hand_size
    score = np.full((len(counts), len(rules.suits)), -np.inf)
    for i, t in enumerate(rules.suits):
        length = counts[:, int(t) * 6:(int(t) + 1) * 6].sum(axis=1)
        allowed = np.ones(len(counts), dtype=bool)
        for rank in rules.trump_needs:
            allowed &= counts[:, int(t) * 6 + int(rank)] > 0
        value = table.total_batch(counts, t) + weight * length
        score[:, i] = np.where(allowed, value, -np.inf)
    pick = score.argmax(axis=1)
    suits = np.array([int(t) for t in rules.suits], dtype=np.int64)
    none: BoolArray = np.isneginf(score.max(axis=1))
    return suits[pick], none


class SeatedSimulator(ConditionedSimulator):
    """Deals in which the player at ``bidder`` (a seat relative to the hand) bids and names trump."""

    def __init__(self, rules: Ruleset, hand: Hand, bidder: int, givens: Sequence[Given]) -> None:
        # the play is set up with the bidder at seat 0 (``Simulator``'s frame); the hand sits at ``-bidder``
        super().__init__(rules, hand, (rules.suits[0],), givens, points=True)
        self.bidder = bidder
        self.rotation = (np.arange(rules.players) + bidder) % rules.players
        self.table = meld_table(rules)

    def __reduce__(self) -> tuple[Any, ...]:
        return SeatedSimulator, (self.rules, self.hand, self.bidder, self.dealer.givens)

    def trump_of(self, deals: IntArray) -> IntArray:
        """The trump the bidder names in each deal ``(m, players-1, hand_size)`` (the hand's seats)."""
        return choose_trump(self.rules, self.table, counts_of(deals[:, self.bidder - 1]))[0]

    def tally(self, chunks: Sequence[tuple[int, int]], seed: int) -> Tally:
        r = self.rules
        dealt, widows, leaders, drawn = [], [], [], 0
        for index, n in chunks:
            rng = chunk_rng(seed, index)
            deals, widow, d = self.dealer.draw(rng, n, self.trump_of)
            dealt.append(deals)
            widows.append(widow)
            leaders.append(self.leaders(rng, n))
            drawn += d
        others = np.concatenate(dealt)
        mine = np.empty((len(others), r.players, r.hand_size), dtype=np.int64)
        mine[:, 0] = self.hand_cards[None, :]
        mine[:, 1:] = others
        slots = np.ascontiguousarray(mine[:, self.rotation])
        trump, none = choose_trump(r, self.table, counts_of(slots[:, 0]))
        g = self.play_slots(slots, trump, np.concatenate(leaders), widow=np.concatenate(widows))
        g.claim[none] = -1
        t = Tally.of(g.claim, g.meld, g.points[:, self.side], 1)
        t.drawn = drawn
        # the suit named (-1: none) counted with each game
        t.outcomes = outcomes(self, g, 1, none, named=np.where(none, -1, trump))
        return t


@dataclass(frozen=True)
class SideEstimate:
    """The bidding side's chances and our side's expected points at each bid, the bidder at ``bidder``."""

    bidder: str
    samples: int
    seed: int
    bids: tuple[BidChance, ...]
    acceptance: float | None
    # how often each suit was named (None: the bidder could name none)
    named: dict[Suit | None, float]

    def points_at(self, bid: int) -> float | None:
        return next((c.points for c in self.bids if c.bid == bid), None)

    def to_json(self) -> dict[str, Any]:
        return {"bidder": self.bidder, "samples": self.samples, "seed": self.seed,
                "acceptance": None if self.acceptance is None else round(self.acceptance, 6),
                "trump_named": {("none" if s is None else s.letter): round(p, 4) for s, p in self.named.items()},
                "bids": [{"bid": c.bid, "p_make": round(c.p_make, 4), "ci95": [round(c.ci95[0], 4),
                                                                              round(c.ci95[1], 4)],
                          "expected_points": None if c.points is None else round(c.points, 2),
                          **({} if c.points_ci95 is None else {"expected_points_ci95": [
                              round(c.points_ci95[0], 2), round(c.points_ci95[1], 2)]})} for c in self.bids]}


def side_estimate(rules: Ruleset, hand: Hand, bidder: str, *, given: Sequence[Given] = (), samples: int,
                  seed: int, workers: int | None = None, from_bid: int | None = None,
                  progress: Callable[[int, int], None] | None = None) -> SideEstimate:
    """P(make) and our expected points at each bid from ``from_bid`` (default: the minimum) when ``bidder`` plays."""
    hand = check_full_hand(rules, hand)
    seat = seat_of(rules, bidder)
    if rules.auction is None:
        raise SimulationError(Message(f"the {rules.name} game has no auction: nobody bids"), parameter="as")
    sim = SeatedSimulator(rules, hand, seat, given)
    if given:
        sim.dealer.check_share(seed, samples, [sim.trump_of])
    runner = TallyRunner(sim, workers_for(workers)[0])
    tally = Tally.empty(1)
    try:
        jobs = tally_jobs(seed, next_start(0), samples, runner.workers)
        for part in runner.run(jobs):
            tally.add(part)
            if progress is not None:
                progress(tally.deals, samples)
    except BaseException:
        runner.close(interrupted=True)
        raise
    runner.close()
    sign = 1 if rules.side_of(seat) == rules.side_of(0) else -1
    bids = _ladder(rules, tally, sign, from_bid)
    named: Counter[int] = Counter()
    for key, count in tally.outcomes[0].items():
        named[key[-1]] += count
    shares = {(None if s < 0 else Suit(s)): n / tally.deals for s, n in sorted(named.items())}
    acceptance = tally.deals / tally.drawn if given and tally.drawn else None
    return SideEstimate(bidder, tally.deals, seed, tuple(bids), acceptance, shares)


def _ladder(rules: Ruleset, tally: Tally, sign: int, from_bid: int | None) -> list[BidChance]:
    """Bids from ``from_bid`` up to the first made less often than ``STOP_BELOW``: P(make) for the bidders,
    expected points for our side (``sign`` -1: we defend)."""
    assert rules.auction is not None
    n = tally.deals
    bid = rules.auction.minimum if from_bid is None else from_bid
    out: list[BidChance] = []
    while len(out) < MAX_LADDER:
        made = tally.made(0, bid)
        mean, (lo, hi) = expected_interval(rules, tally.outcomes[0], n, bid)
        ci = (lo, hi) if sign > 0 else (-hi, -lo)
        out.append(BidChance(bid, made, made / n, wilson_interval(made, n), sign * mean, ci))
        if made / n < STOP_BELOW or bid > tally.top(0):
            break
        bid = rules.auction.next_bid(bid)
    return out
