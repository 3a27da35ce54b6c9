"""The computer player carrying deals on from where they stand: a trick under way completed, then more tricks.

``play_on`` takes a batch of positions — each a layout of every hand now, the cards on the trick under
way and who led it, the voids the seats have shown — and plays ``count`` tricks from the trick under way
with the heuristic at every seat (``player.play.play_tricks``, the estimator's own play), returning what
each side took and every hand after it. The hint judges a card by it where solving the whole rest of the
deal exactly costs too much: the card played, the next tricks played on, the rest solved exactly.

Seats are counted from the bidder, as the player's tables count them (``tables.PlayerTables``: seat 0
bids); ``rotate`` turns a deal's seats into those. Cards are real card indices; the play relabels trump
as suit 0 as it sets each position up. Nothing is raised on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..arrays import IntArray
from ..cards import N_CARDS, N_SUITS
from ..game.kernels import jit
from .play import VOID, VOIDS, deal_state, hands_left, play_tricks
from .tables import META, PLAYERS, PlayerTables, canonical_order

__all__ = ["Carried", "play_on", "rotate", "warm_rollout"]


@dataclass(frozen=True)
class Carried:
    """Positions after ``play_on``: every hand (real counts, seats from the bidder), the next leader, and the
    counters and tricks each side took from the trick under way on (the cards on it included)."""

    hands: IntArray
    leader: IntArray
    points: IntArray
    tricks: IntArray


def rotate(seat: int, bidder: int, players: int) -> int:
    """A seat of the deal counted from the bidder (the player's seats), or back with ``-bidder``."""
    return (seat - bidder) % players


@jit
def _carry(t: IntArray, pn: npt.NDArray[np.float32], suit_mask: npt.NDArray[np.uint32], duties: IntArray,
           hands: IntArray, order: IntArray, leader: IntArray, trick: IntArray, n_on: int,
           first: int, count: int, voids: IntArray, bidding_side: int, points: IntArray, tricks: IntArray,
           left: IntArray) -> None:
    p = hands.shape[1]
    packed = np.zeros((p + 1, N_SUITS), dtype=np.int64)
    info = np.zeros((p + 1, VOIDS + 1), dtype=np.int64)
    for g in range(hands.shape[0]):
        deal_state(t, hands[g], order, packed, info)
        for q in range(p):
            for s in range(N_SUITS):
                if voids[g, q, s]:
                    info[q, VOID + s] = 1
                    info[q, VOIDS] |= 1 << s
        leader[g] = play_tricks(t, pn, suit_mask, duties, packed, info, leader[g], trick[g], n_on, first, count,
                                bidding_side, 0, points[g], tricks[g])
        hands_left(t, packed, order, left[g])


def play_on(pt: PlayerTables, hands: IntArray, trump: int, leader: IntArray, trick: IntArray, first: int,
            count: int, voids: npt.NDArray[np.bool_], bidding_side: int = 0) -> Carried:
    """Play ``count`` tricks of ``B`` positions from the trick under way (number ``first``, from 0).

    ``hands``: ``(B, players, 24)`` counts now, seats from the bidder; ``trick``: ``(B, k)`` the real cards on the
    trick under way (``k`` may be 0), led by ``leader`` ``(B,)``; ``voids``: ``(B, players, 4)`` the real suits each
    seat has shown it lacks.
    """
    b = hands.shape[0]
    order = canonical_order(trump)
    to_canon = np.argsort(order)
    trick = np.asarray(trick, dtype=np.int64).reshape(b, trick.shape[1] if trick.ndim == 2 else 0)
    canon_trick = np.ascontiguousarray(to_canon[trick])
    suits = [trump] + [s for s in range(N_SUITS) if s != trump]
    canon_voids = np.ascontiguousarray(np.asarray(voids)[:, :, suits].astype(np.int64))
    points = np.zeros((b, pt.nsides), dtype=np.int64)
    tricks = np.zeros((b, pt.nsides), dtype=np.int64)
    lead = np.array(leader, dtype=np.int64)
    left = np.zeros_like(hands, dtype=np.int64)
    _carry(pt.table, pt.none_of, pt.suit_mask, pt.duties, np.ascontiguousarray(hands, dtype=np.int64), order,
           lead, canon_trick, trick.shape[1],
           first, count, canon_voids, bidding_side, points, tricks, left)
    return Carried(left, lead, points, tricks)


def warm_rollout(pt: PlayerTables) -> None:
    """Load the compiled rollout (compiling it on the first run after an install)."""
    players = int(pt.table[META, PLAYERS])
    play_on(pt, np.zeros((0, players, N_CARDS), dtype=np.int64), 0, np.zeros(0, dtype=np.int64),
            np.zeros((0, 0), dtype=np.int64), 0, 0, np.zeros((0, players, N_SUITS), dtype=bool))
