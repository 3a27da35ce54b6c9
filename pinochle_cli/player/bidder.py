"""The computer's auction and its trump: a fast, seeded rule on the estimator's own figures.

``value_hand(rules, hand, seed)`` asks the estimator once what a hand is worth as the bidder
(``estimate.simulate.estimate`` over ``SAMPLES`` deals drawn from ``seed``, every suit the hand may name,
about 30 ms on one core): its *limit* is the highest bid of any suit made at least ``CONFIDENCE`` of the
time (the estimate's recommended bid), None when no bid is. ``computer_call`` then bids the smallest bid
the auction allows while that is within the limit and passes above it; a dealer stuck with the minimum
takes it. The other players' calls are not read (a partner's bid does not raise the limit). ``computer_trump``
names the suit with the highest limit (ties: the higher expected score) while the hand is the one valued;
once it has changed (a widow taken) the suit ``estimate.seated.choose_trump`` picks — the most meld plus a
share of a deal's counters per card of the suit, the rule the estimator gives every bidder it draws. Only
suits the ruleset lets the hand name are named; None when there is none (the deal then ends without trump).
Nothing here reads a clock: the same seed gives the same calls.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import Hand, Suit
from ..estimate.seated import choose_trump
from ..estimate.simulate import estimate
from ..meld import meld_table
from ..ruleset import Ruleset

__all__ = ["CONFIDENCE", "SAMPLES", "Valuation", "computer_call", "computer_trump", "value_hand"]

# the deals one valuation plays (every suit on the same deals) and the share of them a bid must make
SAMPLES = 500
CONFIDENCE = 0.75


@dataclass(frozen=True)
class Valuation:
    """What a hand is worth as the bidder: ``limit`` the highest bid it makes (None: none), ``limits`` each suit's
    (the suits it may name), ``scores`` each suit's expected score when made, ``hand`` the hand valued."""

    hand: Hand
    limit: int | None
    limits: dict[Suit, int | None]
    scores: dict[Suit, float]


def value_hand(rules: Ruleset, hand: Hand, seed: int, *, samples: int = SAMPLES) -> Valuation:
    """The hand valued by the estimator (see the module docstring); ``hand`` is a whole hand as dealt."""
    if not rules.eligible_trumps(hand):
        return Valuation(hand, None, {}, {})
    result = estimate(rules, hand, samples=samples, seed=seed, workers=1, confidence=CONFIDENCE)
    limits = {s.trump: s.recommended_bid for s in result.suits}
    scores = {s.trump: s.score_mean for s in result.suits}
    found = [b for b in limits.values() if b is not None]
    return Valuation(hand, max(found) if found else None, limits, scores)


def computer_call(rules: Ruleset, value: Valuation, smallest: int, stuck: bool) -> int | None:
    """The bid to make (None: pass) when ``smallest`` is the least bid allowed; ``stuck``: the dealer must take the
    minimum."""
    assert rules.auction is not None
    if stuck:
        return rules.auction.minimum
    if value.limit is not None and smallest <= value.limit:
        return smallest
    return None


def computer_trump(rules: Ruleset, hand: Hand, value: Valuation | None) -> Suit | None:
    """The suit to name with ``hand`` (see the module docstring); None when the hand may name none."""
    eligible = rules.eligible_trumps(hand)
    if not eligible:
        return None
    if value is not None and value.hand == hand and value.limits:
        return max((s for s in value.limits if s in eligible),
                   key=lambda s: (value.limits[s] or 0, value.scores[s]))
    counts = np.array([hand.counts], dtype=np.int64)
    suit, _ = choose_trump(rules, meld_table(rules), counts)
    return Suit(int(suit[0]))
