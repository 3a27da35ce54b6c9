"""A ruleset as the computer player reads it: score tables for the card play, the exchange and the bury.

Everything comes from the ruleset (strength, counters, duties, sides, meld combinations, the bury's
rules) through the one definition of a trick's rules (``game.trick_rules``). The card play works in
*canonical coordinates*: trump relabelled as suit 0, the other suits after it in order
(``canonical_order``); the exchange and the bury in real ones. What each score means: docs/estimate.md,
"The players".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..arrays import BoolArray, F32Array, IntArray, U32Array
from ..cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, Rank, Suit
from ..game.trick_rules import above_masks, encode, strengths, suit_masks, void_shows_no_trump
from ..ruleset import Ruleset

__all__ = [
    "ABOVE", "CASH", "COUNTER", "DUMP", "FEED", "FORBIDDEN", "HAS_CV", "HOLD", "INFERRED", "LAST_TRICK", "LOW", "META",
    "NTRICKS", "ORDER", "PLACE", "PLAYERS", "PULL", "SIDE", "SURE_WINNER", "WIN", "BuryTables", "ExchangeTables",
    "PlayerTables", "canonical_order",
]

# rows of the card play's table T (24 columns): per card, then per seat, then the game's numbers
ABOVE, COUNTER, ORDER, PLACE, CASH, PULL, LOW, FEED, HOLD, WIN, DUMP, HAS_CV, SIDE, META = range(14)
# columns of T[META]
PLAYERS, NTRICKS, INFERRED, LAST_TRICK = range(4)
# a card that holds the trick at least this often counts as a sure winner
SURE_WINNER = 0.8
# a card the ruleset forbids to bury: kept before any other
FORBIDDEN = 10_000


def canonical_order(trump: int) -> IntArray:
    """For each canonical card index, the real card index: trump becomes suit 0, the others follow in order."""
    order = [trump] + [s for s in range(N_SUITS) if s != trump]
    return np.array([order[c // N_RANKS] * N_RANKS + c % N_RANKS for c in range(N_CARDS)], dtype=np.int64)


def _by_rank_strength(rules: Ruleset) -> tuple[int, ...]:
    """Strength of each card by its rank alone (in canonical coordinates any suit of the pack may sit anywhere)."""
    return strengths(rules.rank_order, (c.index for c in ALL_CARDS if c.rank in rules.deck.ranks))


@dataclass(frozen=True)
class PlayerTables:
    """The card play's constants in canonical coordinates (trump is suit 0)."""

    nsides: int
    # T: rows ABOVE … META
    table: IntArray
    # chance that one other player holds none of k unseen cards
    none_of: F32Array
    suit_mask: U32Array
    # ``trick_rules.encode`` of the play-off duties
    duties: IntArray

    @classmethod
    def build(cls, rules: Ruleset) -> PlayerTables:
        strength = np.array(_by_rank_strength(rules), dtype=np.int64)
        counter = np.array([rules.counter_value(c) if c.rank in rules.deck.ranks else 0 for c in ALL_CARDS],
                           dtype=np.int64)
        t = np.zeros((META + 1, N_CARDS), dtype=np.int64)
        t[ABOVE] = above_masks(tuple(int(x) for x in strength), 0)
        t[COUNTER] = counter
        suit = np.arange(N_CARDS) // N_RANKS
        # suit by suit, strongest first, and each card's place in that order
        by_strength = np.argsort(suit * 100 - strength, kind="stable")
        t[ORDER] = by_strength
        t[PLACE] = np.argsort(by_strength) % N_RANKS
        for row, score in _scores(strength, counter, suit == 0).items():
            t[row] = score
        # the sides of a deal the bidder (seat 0) leads: the partnerships, or the bidder alone against the others
        t[SIDE, :rules.players] = [rules.deal_side_of(s, 0) for s in range(rules.players)]
        t[META, [PLAYERS, NTRICKS, INFERRED, LAST_TRICK]] = (rules.players, rules.tricks_per_deal,
                                                             void_shows_no_trump(encode(rules.play.duties)),
                                                             rules.last_trick)
        full = sum(rules.deck.copies for c in ALL_CARDS if c in rules.deck)
        share = 1 / max(1, rules.players - 1)
        none_of = ((1 - share) ** np.arange(full + 1)).astype(np.float32)
        return cls(len(rules.deal_sides(0)), t, none_of, np.array(suit_masks(), dtype=np.uint32),
                   np.array(encode(rules.play.duties), dtype=np.int64))


def _scores(strength: IntArray, counter: IntArray, is_trump: BoolArray) -> dict[int, IntArray]:
    """The play's scores per card: counters valued against rank, trump kept back (docs/estimate.md)."""
    # 0‥10 whatever the units
    cv = np.minimum(counter, 10) * 10 // max(1, int(counter.max()))
    st, tr = strength, is_trump.astype(np.int64)
    return {
        # leading
        CASH: 300 + 10 * cv + st, PULL: 250 + st, LOW: 100 - 10 * cv - st,
        # following
        FEED: 10 * cv - st - 50 * tr, HOLD: 200 + 10 * cv * (1 - tr) - 2 * st - 20 * tr,
        WIN: 100 - st - 20 * tr - 5 * cv, DUMP: -10 * cv - st - 30 * tr,
        HAS_CV: (cv > 0).astype(np.int64),
    }


# --------------------------------------------------------------------------- the exchange and the bury

# rows of ExchangeTables.card
PASS_BASE, TOP, KEEP_BASE = range(3)


@dataclass(frozen=True)
class ExchangeTables:
    """The pass's and the return's constants (real card indices)."""

    # (3, 24): PASS_BASE, TOP (highest rank), KEEP_BASE — the scores' parts not depending on trump
    card: IntArray
    # (4, I, C): per trump, each combination instance as levels: [k] the cards it needs more than k of
    melds: IntArray

    @classmethod
    def build(cls, rules: Ruleset) -> ExchangeTables:
        strength, counter, top = _exchange_parts(rules)
        fixed = np.zeros(N_CARDS, dtype=np.int64)
        for combo in rules.meld:
            for pat in combo.pattern:
                if pat.mode == "fixed" and pat.suit is not None:
                    fixed[int(pat.suit) * N_RANKS + int(pat.rank)] = 1
        card = np.zeros((KEEP_BASE + 1, N_CARDS), dtype=np.int64)
        card[PASS_BASE] = 300 * fixed + 10 * strength + counter
        card[TOP] = top
        card[KEEP_BASE] = 200 * top + 20 * counter.clip(0, 1) + strength
        return cls(card, _meld_levels(rules))


def _exchange_parts(rules: Ruleset) -> tuple[IntArray, IntArray, IntArray]:
    """Per real card: strength by rank (0: a rank not in the game), counter points, 1 for the highest rank."""
    n = len(rules.rank_order)
    place = {rank: i for i, rank in enumerate(rules.rank_order)}
    strength = np.array([n - place[c.rank] if c.rank in place else 0 for c in ALL_CARDS], dtype=np.int64)
    counter = np.array([rules.counter_value(c) for c in ALL_CARDS], dtype=np.int64)
    top_rank = rules.rank_order[0] if rules.rank_order else Rank.A
    top = np.array([c.rank == top_rank for c in ALL_CARDS], dtype=np.int64)
    return strength, counter, top


def _meld_levels(rules: Ruleset) -> IntArray:
    """Per trump, each meld combination instance as levels (a padding row needs nothing and marks nothing)."""
    instances = []
    for t in range(N_SUITS):
        rows = []
        for combo in rules.meld:
            for cards in combo.instances(Suit(t), rules.suits):
                row = np.zeros(N_CARDS, dtype=np.int64)
                for c in cards:
                    row[c.index] += 1
                rows.append(row)
        instances.append(np.array(rows, dtype=np.int64).reshape(-1, N_CARDS))
    most = max(1, max(inst.shape[0] for inst in instances))
    copies = max(1, max((int(inst.max()) for inst in instances if inst.size), default=1))
    melds = np.zeros((N_SUITS, most, copies), dtype=np.int64)
    bits = 1 << np.arange(N_CARDS, dtype=np.int64)
    for t, inst in enumerate(instances):
        for k in range(copies):
            melds[t, :inst.shape[0], k] = (inst > k).astype(np.int64) @ bits
    return melds


@dataclass(frozen=True)
class BuryTables:
    """The bury's constants (real card indices): a card's keep score is ``base + trump_weight * trump +
    meld_weight * in_meld + 10 * suit length``; the lowest are buried."""

    # cards buried (the widow's size)
    cards: int
    # True: the bidder buries before the meld, so what is buried is not melded
    before_meld: bool
    # (24,) counter points of each card (what a buried card adds to whoever gets the buried counters)
    counter: IntArray
    # (24,) the part of the score that depends on neither trump nor the hand
    base: IntArray
    # [cards buried, trump weight, meld weight]
    weights: IntArray
    # ``ExchangeTables.melds`` of the same ruleset
    melds: IntArray

    @classmethod
    def build(cls, rules: Ruleset) -> BuryTables:
        strength, _, top = _exchange_parts(rules)
        bury = rules.bury
        forbidden = bury.forbidden if bury is not None else ()
        before = bury is not None and bury.when == "before-meld"
        to_bidder = bury is None or bury.counters == "bidder"
        counter = np.array([rules.counter_value(c) if c in rules.deck else 0 for c in ALL_CARDS], dtype=np.int64)
        has_cv = (counter > 0) & ~top.astype(bool)
        # buried counters the bidder keeps are points banked: bury a counter that is not a top card before
        # a plain card; where they go to the last trick, keep it
        counter_term = np.where(has_cv, -30 if to_bidder else 20, 0)
        base = 200 * top + counter_term + strength + FORBIDDEN * ((counter > 0) & ("counter" in forbidden))
        trump_weight = 1000 + FORBIDDEN * ("trump" in forbidden)
        # a meld card buried before the meld is meld lost; after it, only the rule protects it
        meld_weight = FORBIDDEN if "melded" in forbidden else 400 if before else 0
        weights = np.array([rules.widow_size, trump_weight, meld_weight], dtype=np.int64)
        return cls(rules.widow_size, before, counter, base.astype(np.int64), weights, _meld_levels(rules))
