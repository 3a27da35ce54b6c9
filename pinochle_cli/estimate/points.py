"""Expected points of a bid: the bidding side's score minus the other side's, over the sampled games.

``outcomes(sim, games)`` reduces each game to what its score at any bid needs — the claim, the
bidders' meld as shown, and per ending (made, set, not on the board, no trump) the part of the
difference that does not depend on the bid — counted in a ``Counter`` per suit, so tallies add
up in any order. ``expected(rules, counter, deals, bid)`` is the mean difference when the
bidding side plays at ``bid``, scored as ``scoring.score_deal`` scores a deal (the outcome kinds
of ``rules.scoring``); ``expected_interval`` adds its 95 % normal interval. Nothing is raised on purpose.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from functools import lru_cache

import numpy as np

from ..arrays import BoolArray, IntArray
from ..cards import Suit
from ..meld import MeldTable, meld_table
from ..ruleset import Ruleset
from ..ruleset.vocabulary import OutcomeKind
from .games import GameBatch, Simulator
from .interval import Z95

__all__ = ["NO_TRUMP", "expected", "expected_interval", "outcomes"]

# the flag column of a game whose bidder held no suit they may name
NO_TRUMP = 1
# what an outcome kind scores that grows with the bid: per point bid
_SLOPE = {"minus-bid": -1, "minus-double-bid": -2, "meld": 0, "meld-and-counters": 0, "nothing": 0}


def _const(kind: OutcomeKind, meld: IntArray, counters: IntArray) -> IntArray:
    """What ``kind`` scores apart from the bid."""
    zero = np.zeros_like(meld)
    out: IntArray = {"meld": meld, "meld-and-counters": meld + counters}.get(kind, zero)
    return out


def _kept(rules: Ruleset, meld: IntArray, only: BoolArray, won: IntArray, took: BoolArray) -> IntArray:
    """The meld a side keeps (``scoring.keep_meld``; meld made only of ``kept_if_only`` combinations is kept)."""
    s = rules.scoring
    keeps = {"trick": took, "counter": won >= s.counter_minimum, "always": np.ones_like(took),
             "nothing": np.ones_like(took)}[s.keep_meld] | (only & (meld > 0))
    kept: IntArray = np.where(keeps, meld, 0)
    return kept


@lru_cache(maxsize=8)
def _only_table(rules: Ruleset) -> tuple[Ruleset, MeldTable] | None:
    """The meld table of the ``kept_if_only`` combinations (None: there are none), with its ruleset (the meld
    cache holds tables weakly)."""
    names = set(rules.scoring.kept_if_only)
    if not names:
        return None
    only = dataclasses.replace(rules, meld=tuple(c for c in rules.meld if c.name in names))
    return only, meld_table(only)


def _side_meld(sim: Simulator, g: GameBatch, seats: tuple[int, ...]) -> tuple[IntArray, BoolArray]:
    """The meld of ``seats`` in each game's trump, and whether it is made only of ``kept_if_only`` combinations."""
    meld = np.zeros(len(g.trump), dtype=np.int64)
    only = np.ones(len(g.trump), dtype=bool)
    table = _only_table(sim.rules)
    for t in np.unique(g.trump).tolist():
        rows = g.trump == t
        for seat in seats:
            total = sim.meld_table.total_batch(g.hands[rows, seat], Suit(t))
            meld[rows] += total
            if table is not None:
                only[rows] &= table[1].total_batch(g.hands[rows, seat], Suit(t)) == total
    if table is None:
        only[:] = False
    return meld, only


def outcomes(sim: Simulator, g: GameBatch, suits: int, no_trump: BoolArray | None = None,
             named: IntArray | None = None) -> list[Counter[tuple[int, ...]]]:
    """Per suit (``g``'s rows grouped by suit, ``suits`` groups), the games counted by what scores them:
    ``(claim, bidders' meld, made, set, not on board, flag)`` — made, set and not on board the bid-free
    part of the difference at each ending, the flag ``NO_TRUMP`` for rows of ``no_trump`` — and, when
    ``named`` is given, a last column with it (the suit the bidder named)."""
    r = sim.rules
    sc = r.scoring
    side = sim.side
    # the sides of the play (in a game whose auction forms them: the bidder alone, and the others)
    sides = r.deal_sides(0)
    others = tuple(s for s in range(r.players) if s not in sides[side])
    their = [i for i in range(len(sides)) if i != side]
    won_b = g.points[:, side]
    won_d = g.points[:, their].sum(axis=1)
    took_d = g.tricks[:, their].sum(axis=1) > 0
    meld_d, only_d = _side_meld(sim, g, others)
    only_b = _side_meld(sim, g, sim.side_seats)[1]
    kept_b = _kept(r, g.meld, only_b, won_b, g.tricks[:, side] > 0)
    kept_d = _kept(r, meld_d, only_d, won_d, took_d)
    made = _const(sc.made, kept_b, won_b) - _const(sc.set.defenders, kept_d, won_d)
    short = _const(sc.set.bidders, kept_b, won_b) - _const(sc.set.defenders, kept_d, won_d)
    nob = sc.not_on_board
    board = (_const(nob.bidders, g.meld, 0 * won_b) - _const(nob.defenders, meld_d, 0 * won_d)) if nob else 0 * made
    flag = np.zeros(len(made), dtype=np.int64) if no_trump is None else no_trump.astype(np.int64) * NO_TRUMP
    columns = [g.claim, g.meld, made, short, board, flag] + ([] if named is None else [named])
    rows = np.stack(columns, axis=1)
    n = len(rows) // suits
    out: list[Counter[tuple[int, ...]]] = []
    for i in range(suits):
        keys, counts = np.unique(rows[i * n:(i + 1) * n], axis=0, return_counts=True)
        out.append(Counter({tuple(k): int(c) for k, c in zip(keys.tolist(), counts.tolist(), strict=True)}))
    return out


def expected(rules: Ruleset, counter: Counter[tuple[int, ...]], deals: int, bid: int) -> float:
    """The mean of (bidding side − other side) over the games of ``counter`` when the bid is ``bid``."""
    return expected_interval(rules, counter, deals, bid)[0]


def expected_interval(rules: Ruleset, counter: Counter[tuple[int, ...]], deals: int,
                      bid: int) -> tuple[float, tuple[float, float]]:
    """``expected``'s mean with its 95 % normal interval (the games' spread over ``deals``)."""
    if not counter or not deals:
        return 0.0, (0.0, 0.0)
    keys = np.array(list(counter), dtype=np.int64)
    n = np.array(list(counter.values()), dtype=np.int64)
    value = _values(rules, keys, bid).astype(np.float64)
    mean = float((value * n).sum() / deals)
    var = float((n * (value - mean) ** 2).sum() / max(deals - 1, 1))
    half = Z95 * math.sqrt(var / deals) if deals > 1 else math.inf
    return mean, (mean - half, mean + half)


def _values(rules: Ruleset, keys: IntArray, bid: int) -> IntArray:
    """Each outcome's (bidding side − other side) at ``bid``."""
    claim, meld, made, short, board, flag = keys.T[:6]
    sc = rules.scoring
    d = sc.set.defenders
    value = np.where(claim >= bid, made + (_SLOPE[sc.made] - _SLOPE[d]) * bid,
                     short + (_SLOPE[sc.set.bidders] - _SLOPE[d]) * bid)
    if sc.not_on_board is not None:
        nob = sc.not_on_board
        off = meld + rules.counter_total < bid
        value = np.where(off, board + (_SLOPE[nob.bidders] - _SLOPE[nob.defenders]) * bid, value)
    if sc.no_trump is not None:
        nt = sc.no_trump
        value = np.where(flag == NO_TRUMP, (_SLOPE[nt.bidders] - _SLOPE[nt.defenders]) * bid, value)
    out: IntArray = value
    return out
