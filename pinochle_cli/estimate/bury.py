"""The bidder's bury: which cards, of the hand and the widow, go back face down — a heuristic.

``BuryTables.build(rules)`` reads the ruleset's ``bury`` (how many, when, what may not be buried,
whose the buried counters are); ``choose_bury`` splits a batch of bidders' hands (card indices,
trump per row) into the buried and the kept cards, and ``bury_hand`` does it for one ``Hand``.
A card the ruleset forbids is buried only when fewer cards than the widow's may be buried.
Nothing else is raised on purpose. The heuristic in words: docs/estimate.md.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..arrays import BoolArray, IntArray
from ..cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, Hand, Suit
from ..ruleset import Ruleset
from .players import ExchangeTables, meld_cards

__all__ = ["FORBIDDEN", "BuryTables", "bury_hand", "choose_bury"]

# a card the ruleset forbids to bury: kept before any other
FORBIDDEN = 10_000


@dataclass(frozen=True)
class BuryTables:
    """The bury's constants for one ruleset (real card indices): a card's keep score is
    ``base + trump_weight * trump + meld_weight * in_meld + 10 * suit length``; the lowest are buried."""

    # cards buried (the widow's size)
    cards: int
    # True: the bidder buries before the meld, so what is buried is not melded
    before_meld: bool
    # (24,) the part of the score that depends on neither trump nor the hand
    base: IntArray
    trump_weight: int
    meld_weight: int
    # (24,) counter points of each card (what a buried card adds to whoever gets the buried counters)
    counter: IntArray
    ex: ExchangeTables

    @classmethod
    def build(cls, rules: Ruleset, ex: ExchangeTables | None = None) -> BuryTables:
        ex = ExchangeTables.build(rules) if ex is None else ex
        bury = rules.bury
        forbidden = bury.forbidden if bury is not None else ()
        before = bury is not None and bury.when == "before-meld"
        to_bidder = bury is None or bury.counters == "bidder"
        counter = np.array([rules.counter_value(c) if c in rules.deck else 0 for c in ALL_CARDS], dtype=np.int64)
        has_cv = (counter > 0) & ~ex.top
        # buried counters the bidder keeps are points banked: bury a counter that is not a top card before
        # a plain card; where they go to the last trick, keep it
        counter_term = np.where(has_cv, -30 if to_bidder else 20, 0)
        base = (200 * ex.top + counter_term + ex.strength + FORBIDDEN * ((counter > 0) & ("counter" in forbidden)))
        trump_weight = 1000 + FORBIDDEN * ("trump" in forbidden)
        # a meld card buried before the meld is meld lost; after it, only the rule protects it
        meld_weight = FORBIDDEN if "melded" in forbidden else 400 if before else 0
        return cls(rules.widow_size, before, base.astype(np.int64), trump_weight, meld_weight, counter, ex)


def keep_scores(tab: BuryTables, cards: IntArray, trump: IntArray) -> IntArray:
    """``(B, H)`` keep score of each card of ``cards`` ``(B, H)`` (the lowest are buried)."""
    ex = tab.ex
    b = cards.shape[0]
    counts = np.bincount((np.arange(b)[:, None] * N_CARDS + cards).ravel(),
                         minlength=b * N_CARDS).reshape(b, N_CARDS)
    in_meld: BoolArray = (meld_cards(ex, cards, trump, counts) if tab.meld_weight
                          else np.zeros(cards.shape, dtype=bool))
    is_tr = ex.suit[cards] == trump[:, None]
    suit_len = np.take_along_axis(counts.reshape(-1, N_SUITS, N_RANKS).sum(axis=2), ex.suit[cards], axis=1)
    out: IntArray = (tab.base[cards] + tab.trump_weight * is_tr + tab.meld_weight * in_meld + 10 * suit_len)
    return out


def choose_bury(tab: BuryTables, cards: IntArray, trump: IntArray) -> tuple[IntArray, IntArray]:
    """Split each bidder's ``cards`` ``(B, H + k)`` (the hand and the widow) into (buried ``(B, k)``, kept
    ``(B, H)``), ``k = tab.cards``, trump ``trump`` ``(B,)`` (real suits).

    Buries what serves the play least: never a forbidden card while another will do, no trump while a
    plain card will do, no top card (ace) while a lower one will do; among the rest, a counter first
    when the buried counters are the bidder's (points banked), and the cards of the shortest side suits
    (voids to trump in). Ties: the earlier card.
    """
    order = np.argsort(keep_scores(tab, cards, trump), axis=1, kind="stable")
    ordered = np.take_along_axis(cards, order, axis=1)
    return ordered[:, :tab.cards], ordered[:, tab.cards:]


def bury_hand(rules: Ruleset, cards: Hand, trump: Suit) -> tuple[Hand, Hand]:
    """The bidder's bury of ``cards`` (the hand with the widow, ``rules.largest_hand`` cards) with ``trump``:
    (buried, kept), by ``choose_bury``."""
    tab = BuryTables.build(rules)
    idx = np.array([c.index for c in cards], dtype=np.int64)[None, :]
    buried, kept = choose_bury(tab, idx, np.array([int(trump)], dtype=np.int64))
    return (Hand([ALL_CARDS[i] for i in buried[0].tolist()]), Hand([ALL_CARDS[i] for i in kept[0].tolist()]))
