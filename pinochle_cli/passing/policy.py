"""The advised pass as a cheap policy, for every sampled deal of ``estimate --pass advised``.

``AdvisedPolicy(rules)`` chooses, row by row of a batch (cards per row, trump per row), the
partner's pass (``pass_``) and the bidder's return (``return_``) among every way to take ``k`` of
the cards, by a static evaluation: the meld the passer keeps plus the meld the cards passed make
on their own (what they are sure to add to the other hand), exact from the meld engine, plus
what the cards sent (or kept) are worth in tricks (``SENT_*`` / ``KEPT_*``, in meld points).
Each player sees only its own cards, never the other's. ``exchange(slots, trump, partner, k)`` makes both in place, as
``Simulator.exchange_cards`` does. Deterministic: the same cards give the same choice in any order.
The weights and how they were measured: docs/estimate.md, "The pass".
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from ..arrays import IntArray
from ..cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, Suit
from ..meld import MeldTable, meld_table
from ..ruleset import Ruleset

__all__ = ["KEPT_ACE", "KEPT_COUNTER", "KEPT_TRUMP", "ROWS", "SENT_ACE", "SENT_RUN", "SENT_TRUMP", "VOID",
           "AdvisedPolicy"]

# the partner's pass: meld kept + these for each card sent (a trump; a trump of the longest trump-suit
# combination, the run, which the bidder may fill; an ace of another suit)
SENT_TRUMP = 20
SENT_RUN = 20
SENT_ACE = 10
# the bidder's return: meld kept + these for each card kept (a trump; an ace; a card that counts) and each
# side suit left void
KEPT_TRUMP = 30
KEPT_ACE = 15
KEPT_COUNTER = 3
VOID = 10
# candidate rows (hands × candidates) evaluated at once: bounds the working arrays
ROWS = 60_000


@cache
def _combos(h: int, k: int) -> tuple[IntArray, IntArray]:
    """Every ``k`` of ``h`` positions: (taken ``(C, k)``, the rest ``(C, h-k)``), in lexicographic order."""
    taken = np.array(list(itertools.combinations(range(h), k)), dtype=np.int64).reshape(-1, k)
    mask = np.ones((len(taken), h), dtype=bool)
    mask[np.arange(len(taken))[:, None], taken] = False
    rest = np.nonzero(mask)[1].reshape(len(taken), h - k)
    return taken, rest


def _run_cards(rules: Ruleset, trump: Suit) -> np.ndarray:
    """``(N_CARDS,)``: the cards of the combination of trumps only with the most different cards (the run)."""
    best: set[int] = set()
    for combo in rules.meld:
        for cards in combo.instances(trump, rules.suits):
            distinct = {c.index for c in cards}
            if all(c.suit == trump for c in cards) and len(distinct) > len(best):
                best = distinct
    out = np.zeros(N_CARDS, dtype=bool)
    out[sorted(best)] = True
    return out


def _counts(cards: IntArray) -> IntArray:
    """``(..., H)`` card indices as ``(..., N_CARDS)`` counts."""
    flat = cards.reshape(-1, cards.shape[-1])
    b = len(flat)
    idx = (np.arange(b)[:, None] * N_CARDS + flat).ravel()
    return np.bincount(idx, minlength=b * N_CARDS).reshape(*cards.shape[:-1], N_CARDS)


class AdvisedPolicy:
    """The static evaluation of one ruleset: per trump, a value for each card sent or kept."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.table: MeldTable = meld_table(rules)
        top = rules.rank_order[0] if rules.rank_order else None
        pos = {rank: i for i, rank in enumerate(rules.rank_order)}
        suit = np.arange(N_CARDS) // N_RANKS
        ace = np.array([c.rank == top for c in ALL_CARDS])
        counts = np.array([rules.counter_value(c) > 0 for c in ALL_CARDS])
        # a tie-break within each weight: the stronger card (1 … ranks), far below one point of meld
        strength = np.array([len(pos) - pos[c.rank] if c.rank in pos else 0 for c in ALL_CARDS]) / 100
        sent = np.empty((N_SUITS, N_CARDS))
        kept = np.empty((N_SUITS, N_CARDS))
        for t in range(N_SUITS):
            trump = suit == t
            run = _run_cards(rules, Suit(t)) if Suit(t) in rules.suits else np.zeros(N_CARDS, dtype=bool)
            sent[t] = SENT_TRUMP * trump + SENT_RUN * run + SENT_ACE * (ace & ~trump) + strength
            kept[t] = KEPT_TRUMP * trump + KEPT_ACE * ace + KEPT_COUNTER * counts + strength
        self.sent_value, self.kept_value = sent, kept

    def pass_(self, cards: IntArray, trump: IntArray, k: int) -> tuple[IntArray, IntArray]:
        """The partner's pass: ``cards`` ``(B, H)`` split into (sent ``(B, k)``, kept ``(B, H-k)``)."""
        return self._choose(cards, trump, k, bidder=False)

    def return_(self, cards: IntArray, trump: IntArray, k: int) -> tuple[IntArray, IntArray]:
        """The bidder's return: ``cards`` ``(B, H+k)`` split into (returned ``(B, k)``, kept ``(B, H)``)."""
        return self._choose(cards, trump, k, bidder=True)

    def exchange(self, slots: IntArray, trump: IntArray, partner: int, k: int) -> None:
        """The partner's pass, then the bidder's return, in ``slots`` ``(B, players, H)`` (in place)."""
        sent, kept = self.pass_(slots[:, partner], trump, k)
        back, keep = self.return_(np.concatenate([slots[:, 0], sent], axis=1), trump, k)
        slots[:, 0] = keep
        slots[:, partner] = np.concatenate([kept, back], axis=1)

    def _choose(self, cards: IntArray, trump: IntArray, k: int, *, bidder: bool) -> tuple[IntArray, IntArray]:
        # sorted, so that the choice depends on the cards only, not on their order
        cards = np.sort(cards, axis=1)
        taken, rest = _combos(cards.shape[1], k)
        best = np.empty(len(cards), dtype=np.int64)
        step = max(1, ROWS // len(taken))
        for start in range(0, len(cards), step):
            rows = slice(start, start + step)
            best[rows] = self._scores(cards[rows], trump[rows], taken, bidder).argmax(axis=1)
        ar = np.arange(len(cards))[:, None]
        return cards[ar, taken[best]], cards[ar, rest[best]]

    def _scores(self, cards: IntArray, trump: IntArray, taken: IntArray, bidder: bool) -> np.ndarray:
        """``(b, C)``: each candidate's evaluation (the higher the better)."""
        b, c = len(cards), len(taken)
        out = cards[:, taken]
        passed = _counts(out)
        kept = _counts(cards)[:, None, :] - passed
        meld = np.empty((b, c), dtype=np.float64)
        for t in np.unique(trump):
            rows = trump == t
            suit = Suit(int(t))
            meld[rows] = (self.table.total_batch(kept[rows].reshape(-1, N_CARDS), suit)
                          + self.table.total_batch(passed[rows].reshape(-1, N_CARDS), suit)).reshape(-1, c)
        if not bidder:
            value = np.take_along_axis(self.sent_value[trump], out.reshape(b, -1), axis=1)
            score: np.ndarray = meld + value.reshape(out.shape).sum(axis=2)
            return score
        value = np.take_along_axis(self.kept_value[trump], out.reshape(b, -1), axis=1)
        suits = kept.reshape(b, c, N_SUITS, N_RANKS).sum(axis=3)
        side = np.arange(N_SUITS)[None, :] != trump[:, None]
        voids = ((suits == 0) & side[:, None, :]).sum(axis=2)
        score = meld - value.reshape(out.shape).sum(axis=2) + VOID * voids
        return score
