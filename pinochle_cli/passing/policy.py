"""The advised pass as a cheap policy, for every sampled deal of an estimate (``pass_policy="advised"``).

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
from typing import TYPE_CHECKING

import numpy as np

from ..arrays import IntArray
from ..cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, Suit
from ..meld import MeldTable, meld_table
from ..ruleset import Ruleset

if TYPE_CHECKING:
    from ..meld.components import Component

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


# a candidate's positions as two halves: (the distinct first halves, which one each candidate has, the same of the
# second halves)
Halves = tuple[IntArray, IntArray, IntArray, IntArray]


@cache
def _combos(h: int, k: int) -> tuple[IntArray, IntArray, Halves]:
    """Every ``k`` of ``h`` positions: (taken ``(C, k)``, the rest ``(C, h-k)``, ``Halves``), in lexicographic
    order."""
    taken = np.array(list(itertools.combinations(range(h), k)), dtype=np.int64).reshape(-1, k)
    mask = np.ones((len(taken), h), dtype=bool)
    mask[np.arange(len(taken))[:, None], taken] = False
    rest = np.nonzero(mask)[1].reshape(len(taken), h - k)
    first, a = np.unique(taken[:, :(k + 1) // 2], axis=0, return_inverse=True)
    second, b = np.unique(taken[:, (k + 1) // 2:], axis=0, return_inverse=True)
    return taken, rest, (first, a.ravel(), second, b.ravel())


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
        # in hundredths of a point; a tie-break within each weight: the stronger card (1 … ranks hundredths)
        strength = np.array([len(pos) - pos[c.rank] if c.rank in pos else 0 for c in ALL_CARDS], dtype=np.int64)
        sent = np.empty((N_SUITS, N_CARDS), dtype=np.int64)
        kept = np.empty((N_SUITS, N_CARDS), dtype=np.int64)
        for t in range(N_SUITS):
            trump = suit == t
            run = _run_cards(rules, Suit(t)) if Suit(t) in rules.suits else np.zeros(N_CARDS, dtype=bool)
            sent[t] = 100 * (SENT_TRUMP * trump + SENT_RUN * run + SENT_ACE * (ace & ~trump)) + strength
            kept[t] = 100 * (KEPT_TRUMP * trump + KEPT_ACE * ace + KEPT_COUNTER * counts) + strength
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
        taken, rest, halves = _combos(cards.shape[1], k)
        best = np.empty(len(cards), dtype=np.int64)
        step = max(1, ROWS // len(taken))
        for start in range(0, len(cards), step):
            rows = slice(start, start + step)
            best[rows] = self._scores(cards[rows], trump[rows], taken, halves, bidder).argmax(axis=1)
        ar = np.arange(len(cards))[:, None]
        return cards[ar, taken[best]], cards[ar, rest[best]]

    def _scores(self, cards: IntArray, trump: IntArray, taken: IntArray, halves: Halves, bidder: bool) -> np.ndarray:
        """``(b, C)``: each candidate's evaluation in hundredths of a point (the higher the better); ``halves`` as
        ``_combos`` gives them."""
        b, c = len(cards), len(taken)
        meld = np.zeros((b, c), dtype=np.int64)
        for t in np.unique(trump):
            rows = trump == t
            meld[rows] = self._meld(cards[rows], Suit(int(t)), taken, halves)
        if not bidder:
            score: np.ndarray = 100 * meld + _over(self.sent_value[trump[:, None], cards], halves)
            return score
        score = 100 * meld - _over(self.kept_value[trump[:, None], cards], halves)
        suit = cards // N_RANKS
        for s in range(N_SUITS):
            held = suit == s
            # a side suit held and returned whole
            whole = held.sum(axis=1)[:, None] == _over(held.astype(np.int64), halves)
            score += 100 * VOID * (whole & (held.any(axis=1) & (trump != s))[:, None])
        return score

    def _meld(self, cards: IntArray, trump: Suit, taken: IntArray, halves: Halves) -> IntArray:
        """``(b, C)``: the meld kept plus the meld passed, component by component of the meld engine's plan. A
        component's table is indexed by its cards' counts times their strides, so the kept hand's index is the
        whole hand's less the passed cards' strides, and the passed cards' index is those strides' sum."""
        b, c = len(cards), len(taken)
        out = np.zeros((b, c), dtype=np.int64)
        for comp in self.table.plan(trump):
            if not comp.tabulated:
                out += self._untabulated(comp, cards, taken)
                continue
            stride = np.zeros(N_CARDS, dtype=np.int64)
            stride[list(comp.cards)] = comp.strides
            each = stride[cards]
            passed = _over(each, halves)
            out += comp.table[each.sum(axis=1)[:, None] - passed] + comp.table[passed]
        return out

    @staticmethod
    def _untabulated(comp: Component, cards: IntArray, taken: IntArray) -> IntArray:
        """A component too large for a table: solved for every kept and passed hand."""
        b, c = len(cards), len(taken)
        out = np.zeros((b, c), dtype=np.int64)
        counts = np.zeros((b, N_CARDS), dtype=np.int64)
        np.add.at(counts, (np.arange(b)[:, None], cards), 1)
        for i in range(b):
            for j, cand in enumerate(taken):
                given = np.bincount(cards[i, cand], minlength=N_CARDS)
                out[i, j] = comp.value((counts[i] - given).tolist()) + comp.value(given.tolist())
        return out


def _over(per_card: np.ndarray, halves: Halves) -> np.ndarray:
    """``(b, C)``: a per-card integer ``(b, H)`` summed over each candidate's positions: the sums over the few
    distinct halves first, then one sum a candidate."""
    first, a, second, b = halves
    out: np.ndarray = _sums(per_card, first)[:, a] + _sums(per_card, second)[:, b]
    return out


def _sums(per_card: np.ndarray, groups: IntArray) -> np.ndarray:
    out = np.zeros((len(per_card), len(groups)), dtype=per_card.dtype)
    for j in range(groups.shape[1]):
        out += per_card[:, groups[:, j]]
    return out
