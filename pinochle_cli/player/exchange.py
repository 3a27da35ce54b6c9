"""The computer's exchange, compiled: the partner's pass, the bidder's return, the bidder's bury.

Each takes a batch of hands as card indices (real coordinates), one trump per row, and orders each
hand by a score (``tables.ExchangeTables``, ``tables.BuryTables``): a stable order, ties to the
earlier card. ``choose_pass`` sends the partner's best cards for the bidder: trump first (highest
first), then aces, then the cards named in meld by suit (the pinochle's), then the highest.
``choose_return`` returns what serves the contract least: never trump while anything else is left,
not a card of a meld combination held complete, an ace or a counter while a plain card will do; among
plain cards the shortest side suits first (voids to trump in). ``choose_bury`` lays away the same
way, never a card the ruleset forbids while another will do. Nothing is raised on purpose.
"""

from __future__ import annotations

import numpy as np

from ..arrays import IntArray
from ..cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, Hand, Suit
from ..game.kernels import jit, kernel
from ..ruleset import Ruleset
from .tables import KEEP_BASE, PASS_BASE, TOP, BuryTables, ExchangeTables

__all__ = ["bury_hand", "choose_bury", "choose_pass", "choose_return", "exchange_deals", "warm_exchange"]

# below every key of _order
_OUT = 1 << 60
# _order's key: ``score * _SLOTS`` and the index in the reverse order, ``_SLOTS - 1 - i`` (a hand and what it
# receives stay below: at most 4 copies of 24 cards)
_SLOTS = 128


@kernel
def _order(score: IntArray, n: int, k: int, sign: int, order: IntArray, taken: IntArray) -> None:
    """The ``k`` highest of ``sign * score[:n]``, ties to the earlier — a stable sort's first ``k`` — in that order
    into ``order[:k]``, marked in ``taken[:n]``. Each is the largest key ``score * 128 + 127 - i`` not yet taken."""
    taken[:n] = 0
    for j in range(k):
        best = -_OUT
        for i in range(n):
            best = max(best, sign * score[i] * _SLOTS + _SLOTS - 1 - i - taken[i] * _OUT)
        i = _SLOTS - 1 - (best & (_SLOTS - 1))
        order[j] = i
        taken[i] = 1


@kernel
def _suit_lengths(counts: IntArray, have: IntArray) -> None:
    """``have[s]``: the cards of suit ``s`` in ``counts``."""
    for s in range(N_SUITS):
        have[s] = 0
        for i in range(N_RANKS * s, N_RANKS * s + N_RANKS):
            have[s] += counts[i]


@kernel
def _in_meld(melds: IntArray, trump: int, counts: IntArray, have: IntArray) -> int:
    """The cards (a mask) of every combination instance (for ``trump``) held complete in ``counts``."""
    levels = melds.shape[2]
    have[:levels] = 0
    for c in range(N_CARDS):
        for k in range(min(counts[c], levels)):
            have[k] |= 1 << c
    marked = 0
    for i in range(melds.shape[1]):
        complete = True
        for k in range(levels):
            if melds[trump, i, k] & ~have[k]:
                complete = False
                break
        if complete:
            marked |= melds[trump, i, 0]
    return marked


@kernel
def _count(cards: IntArray, n: int, counts: IntArray) -> None:
    counts[:N_CARDS] = 0
    for i in range(n):
        counts[cards[i]] += 1


@kernel
def _pass_order(xc: IntArray, trump: int, cards: IntArray, work: IntArray) -> None:
    """The partner's cards ``cards`` best first for the bidder, into ``work[4]``."""
    score = work[0]
    for i in range(cards.shape[0]):
        c = cards[i]
        score[i] = xc[PASS_BASE, c] + (1000 if c // N_RANKS == trump else 500 * xc[TOP, c])
    _order(score, cards.shape[0], cards.shape[0], 1, work[4], work[5])


@kernel
def _return_order(xc: IntArray, melds: IntArray, trump: int, cards: IntArray, work: IntArray) -> None:
    """The bidder's cards ``cards`` (its hand with what it received) least useful first, into ``work[4]``."""
    n = cards.shape[0]
    score, counts, have = work[0], work[2], work[3]
    _count(cards, n, counts)
    marked = _in_meld(melds, trump, counts, have)
    # the suit's length (``have`` is free again)
    _suit_lengths(counts, have)
    for i in range(n):
        c = cards[i]
        score[i] = (xc[KEEP_BASE, c] + 1000 * (c // N_RANKS == trump) + 400 * ((marked >> c) & 1)
                    + 10 * have[c // N_RANKS])
    _order(score, n, n, -1, work[4], work[5])


@kernel
def _bury_order(base: IntArray, weights: IntArray, melds: IntArray, trump: int, cards: IntArray,
                work: IntArray) -> None:
    """The bidder's cards ``cards`` (hand and widow) least worth keeping first, into ``work[4]``."""
    n = cards.shape[0]
    score, counts, have = work[0], work[2], work[3]
    _count(cards, n, counts)
    marked = _in_meld(melds, trump, counts, have) if weights[2] else 0
    _suit_lengths(counts, have)
    for i in range(n):
        c = cards[i]
        score[i] = (base[c] + weights[1] * (c // N_RANKS == trump) + weights[2] * ((marked >> c) & 1)
                    + 10 * have[c // N_RANKS])
    _order(score, n, n, -1, work[4], work[5])


@kernel
def _split(cards: IntArray, order: IntArray, k: int, first: IntArray, rest: IntArray) -> None:
    """``cards`` in ``order``: the first ``k`` into ``first``, the others into ``rest``."""
    for j in range(k):
        first[j] = cards[order[j]]
    for j in range(k, cards.shape[0]):
        rest[j - k] = cards[order[j]]


def _work(cards: IntArray, melds: IntArray) -> IntArray:
    return np.zeros((6, max(cards.shape[1], N_CARDS, melds.shape[2], 1)), dtype=np.int64)


@jit
def _pass_all(xc: IntArray, trump: IntArray, cards: IntArray, k: int, work: IntArray, sent: IntArray,
              kept: IntArray) -> None:
    for g in range(cards.shape[0]):
        _pass_order(xc, trump[g], cards[g], work)
        _split(cards[g], work[4], k, sent[g], kept[g])


@jit
def _return_all(xc: IntArray, melds: IntArray, trump: IntArray, cards: IntArray, k: int, work: IntArray,
                back: IntArray, kept: IntArray) -> None:
    for g in range(cards.shape[0]):
        _return_order(xc, melds, trump[g], cards[g], work)
        _split(cards[g], work[4], k, back[g], kept[g])


@jit
def _bury_all(base: IntArray, weights: IntArray, melds: IntArray, trump: IntArray, cards: IntArray, work: IntArray,
              buried: IntArray, kept: IntArray) -> None:
    for g in range(cards.shape[0]):
        _bury_order(base, weights, melds, trump[g], cards[g], work)
        _split(cards[g], work[4], weights[0], buried[g], kept[g])


def _rows(cards: IntArray, trump: IntArray) -> tuple[IntArray, IntArray]:
    return np.ascontiguousarray(cards, dtype=np.int64), np.ascontiguousarray(trump, dtype=np.int64)


def choose_pass(ex: ExchangeTables, cards: IntArray, trump: IntArray, k: int) -> tuple[IntArray, IntArray]:
    """The partner's pass: split ``cards`` ``(B, H)`` into (sent ``(B, k)``, kept ``(B, H-k)``), best first."""
    cards, trump = _rows(cards, trump)
    b, h = cards.shape
    sent, kept = np.zeros((b, k), dtype=np.int64), np.zeros((b, h - k), dtype=np.int64)
    _pass_all(ex.card, trump, cards, k, _work(cards, ex.melds), sent, kept)
    return sent, kept


def choose_return(ex: ExchangeTables, cards: IntArray, trump: IntArray, k: int) -> tuple[IntArray, IntArray]:
    """The bidder's return: split ``cards`` ``(B, H+k)`` into (returned ``(B, k)``, kept ``(B, H)``)."""
    cards, trump = _rows(cards, trump)
    b, n = cards.shape
    back, kept = np.zeros((b, k), dtype=np.int64), np.zeros((b, n - k), dtype=np.int64)
    _return_all(ex.card, ex.melds, trump, cards, k, _work(cards, ex.melds), back, kept)
    return back, kept


def exchange_deals(ex: ExchangeTables, bidder: IntArray, partner: IntArray, trump: IntArray,
                   k: int) -> tuple[IntArray, IntArray]:
    """The partner's pass, then the bidder's return, for every row: the bidder's and the partner's hands after
    it, ``(B, H)`` each."""
    sent, kept = choose_pass(ex, partner, trump, k)
    back, keep = choose_return(ex, np.concatenate([bidder, sent], axis=1), trump, k)
    return keep, np.concatenate([kept, back], axis=1)


def choose_bury(tab: BuryTables, cards: IntArray, trump: IntArray) -> tuple[IntArray, IntArray]:
    """Split each bidder's ``cards`` ``(B, H + k)`` (the hand and the widow) into (buried ``(B, k)``, kept
    ``(B, H)``), ``k = tab.cards``, trump ``trump`` ``(B,)`` (real suits)."""
    cards, trump = _rows(cards, trump)
    b, n = cards.shape
    buried, kept = np.zeros((b, tab.cards), dtype=np.int64), np.zeros((b, n - tab.cards), dtype=np.int64)
    _bury_all(tab.base, tab.weights, tab.melds, trump, cards, _work(cards, tab.melds), buried, kept)
    return buried, kept


def bury_hand(rules: Ruleset, cards: Hand, trump: Suit) -> tuple[Hand, Hand]:
    """The bidder's bury of ``cards`` (the hand with the widow, ``rules.largest_hand`` cards) with ``trump``:
    (buried, kept), by ``choose_bury``."""
    idx = np.array([c.index for c in cards], dtype=np.int64)[None, :]
    buried, kept = choose_bury(BuryTables.build(rules), idx, np.array([int(trump)], dtype=np.int64))
    return Hand([ALL_CARDS[i] for i in buried[0].tolist()]), Hand([ALL_CARDS[i] for i in kept[0].tolist()])


def warm_exchange(ex: ExchangeTables, bury: BuryTables) -> None:
    """Load the compiled exchange and bury (compiling them on the first run after an install)."""
    none, trump = np.zeros((0, bury.cards), dtype=np.int64), np.zeros(0, dtype=np.int64)
    choose_pass(ex, none, trump, 0)
    choose_return(ex, none, trump, 0)
    choose_bury(bury, none, trump)
