"""The computer's card for one seat of a deal being played, from what that seat has seen.

``choose_card(tables, view)`` gives the heuristic's card (``player.play``'s ``choose_lead`` and ``choose_follow``,
the same player that plays the estimator's deals) for the seat of a ``SeatView``: its hand, the cards it cannot
see, the voids each seat has shown and the trick so far. ``computer_card(state)`` does it for the player to move
of a ``DealState`` (``view_of``); a seat whose cards are not known raises ``PlayError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..arrays import F32Array, IntArray, U32Array
from ..cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, Card
from ..errors import PlayError
from ..game.kernels import jit, legal_given, low_bit
from ..game.state import DealState
from ..ruleset import Ruleset
from .play import HAS, VOID, VOIDS, choose_follow, choose_lead, deal_state
from .tables import ABOVE, INFERRED, META, PLAYERS, SIDE, PlayerTables, canonical_order

__all__ = ["SeatView", "choose_card", "computer_card", "view_of", "warm_seat"]



@dataclass(frozen=True)
class SeatView:
    """What one seat knows when it must play, seats counted from the bidder (the bidder is seat 0).

    ``hand`` and ``unseen``: 24 counts, real card indices — the seat's cards, and the cards still in the
    other hands as far as it can tell (not played, not its own, not known to be out of play); ``voids``:
    ``(players, 4)`` the suits each seat has shown it lacks (real suits); ``trick``: the cards on the trick
    (real indices, leader first), led by ``leader``.
    """

    trump: int
    seat: int
    hand: IntArray
    unseen: IntArray
    voids: npt.NDArray[np.bool_]
    trick: tuple[int, ...]
    leader: int


@jit
def _choose(t: IntArray, pn: F32Array, suit_mask: U32Array, duties: IntArray, hands: IntArray, order: IntArray,
            voids: IntArray, seat: int, trick: IntArray, leader: int, bidding_side: int) -> int:
    """The heuristic's card (canonical) for ``seat``: ``hands`` holds its cards in its row and what it cannot see
    in another (``deal_state`` reads what the seat may know only); ``voids``: canonical suits shown void per seat."""
    p = hands.shape[0]
    packed = np.zeros((p + 1, N_SUITS), dtype=np.int64)
    info = np.zeros((p + 1, VOIDS + 1), dtype=np.int64)
    deal_state(t, hands, order, packed, info)
    for q in range(p):
        for s in range(N_SUITS):
            if voids[q, s]:
                info[q, VOID + s] = 1
                info[q, VOIDS] |= 1 << s
    n = trick.shape[0]
    legal = info[seat, HAS]
    if n == 0:
        return low_bit(legal) if legal & (legal - 1) == 0 else choose_lead(t, pn, packed, info, seat, bidding_side)
    win = trick[0]
    win_seat = leader
    for k in range(1, n):
        if (t[ABOVE, win] >> trick[k]) & 1:
            win, win_seat = trick[k], (leader + k) % p
    partner_win = win_seat != seat and t[SIDE, win_seat] == t[SIDE, seat]
    legal = legal_given(suit_mask, 0, duties, legal, trick[0] // N_RANKS, t[ABOVE, win], partner_win)
    if legal & (legal - 1) == 0:
        return low_bit(legal)
    return choose_follow(t, pn, packed, info, seat, n, trick[0] // N_RANKS, win, win_seat, legal)


def choose_card(pt: PlayerTables, view: SeatView, bidding_side: int = 0) -> int:
    """The heuristic's card (a real card index) for the seat of ``view``; ``bidding_side``: the bidder's side."""
    order = canonical_order(view.trump)
    real_to_canon = np.argsort(order)
    p = view.voids.shape[0]
    hands = np.zeros((p, N_CARDS), dtype=np.int64)
    hands[view.seat] = view.hand
    hands[(view.seat + 1) % p] = view.unseen
    suits = [view.trump] + [s for s in range(N_SUITS) if s != view.trump]
    voids = np.ascontiguousarray(view.voids[:, suits].astype(np.int64))
    trick = np.array([real_to_canon[c] for c in view.trick], dtype=np.int64)
    card = _choose(pt.table, pt.none_of, pt.suit_mask, pt.duties, hands, order, voids, view.seat, trick,
                   view.leader, bidding_side)
    return int(order[card])




def warm_seat(pt: PlayerTables) -> None:
    """Load the compiled choice of one seat's card (compiling it on the first run after an install)."""
    p = int(pt.table[META, PLAYERS])
    hands = np.zeros((p, N_CARDS), dtype=np.int64)
    hands[0, 0] = 1
    _choose(pt.table, pt.none_of, pt.suit_mask, pt.duties, hands, np.arange(N_CARDS, dtype=np.int64),
            np.zeros((p, N_SUITS), dtype=np.int64), 0, np.zeros(0, dtype=np.int64), 0, 0)


def view_of(pt: PlayerTables, state: DealState, seat: int | None = None) -> SeatView:
    """What ``seat`` (default: the player to move) has seen of the deal ``state``, seats counted from the bidder:
    its hand, the cards it cannot see (the pack less its hand, the cards played and, for the bidder, those it
    buried), the voids each seat showed by not following, and the trick so far."""
    seat = state.turn.seat if seat is None else seat
    assert seat is not None and state.trump is not None
    rules, p = state.rules, state.rules.players
    bidder = state.bidder if state.bidder is not None else 0
    hand = state.hand(seat)
    if hand is None:
        raise PlayError(f"seat {seat}'s cards are not known: the computer plays a seat whose cards it holds")
    unseen = np.array(rules.deck.full().counts, dtype=np.int64) - np.array(hand.counts, dtype=np.int64)
    voids = np.zeros((p, N_SUITS), dtype=bool)
    # a player void in the suit led who plays no trump shows no trump either, where the duties say so
    inferred = bool(pt.table[META, INFERRED])
    for trick in state.tricks:
        for j, card in enumerate(trick.cards):
            unseen[card.index] -= 1
            if j and card.suit != trick.cards[0].suit:
                who = (trick.leader + j - bidder) % p
                voids[who, int(trick.cards[0].suit)] = True
                if inferred and card.suit != state.trump:
                    voids[who, int(state.trump)] = True
    if seat == state.bidder and state.buried is not None:
        for card in state.buried:
            unseen[card.index] -= 1
    return SeatView(int(state.trump), (seat - bidder) % p, np.array(hand.counts, dtype=np.int64), unseen, voids,
                    tuple(c.index for c in state.trick), (state.leader - bidder) % p)


def computer_card(state: DealState, seat: int | None = None) -> Card:
    """The computer player's card for ``seat`` (default: the player to move) of the deal ``state``."""
    pt = _tables(state.rules)
    side = int(pt.table[SIDE, 0])
    return ALL_CARDS[choose_card(pt, view_of(pt, state, seat), side)]


@lru_cache(maxsize=16)
def _tables(rules: Ruleset) -> PlayerTables:
    return PlayerTables.build(rules)
