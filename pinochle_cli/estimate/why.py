"""The reasons for an estimate's recommended bid (``reasons.Reason``): the rule that chose it with its figure, and
the meld and counters the side brings in its suit. Words from the figures and the ruleset's suits; nothing is
raised on purpose. The reasons for a call in an auction (the rule, a sacrifice) are ``question.answer_reasons``."""

from __future__ import annotations

from ..reasons import Reason, percent
from .results import BidChance, Estimate, SuitEstimate

__all__ = ["estimate_reasons", "meld_reason", "suit_words"]


def suit_words(s: SuitEstimate) -> str:
    return f"{s.trump.symbol} {s.trump.word}"


def _making_chance(rule: float, s: SuitEstimate, c: BidChance) -> Reason:
    return Reason(f"the rule: the highest bid made at least {percent(rule)} of the time — {c.bid} in "
                  f"{suit_words(s)} is made {percent(c.p_make)} of the time", c.p_make, "P(make)", c.ci95)


def meld_reason(s: SuitEstimate) -> Reason:
    return Reason(f"in {suit_words(s)} the side melds {s.meld_mean:.0f} and takes {s.counters_mean:.0f} in counters "
                  "on average", s.meld_mean, "meld points")


def estimate_reasons(est: Estimate) -> tuple[Reason, ...]:
    """Why the estimate's best suit and bid (none: no suit the bidder may name)."""
    s = next((s for s in est.suits if s.trump == est.best), None)
    if s is None:
        return ()
    if s.recommended_bid is None:
        low = s.bids[0]
        return (Reason(f"no bid is made {percent(est.confidence)} of the time: even {low.bid} in {suit_words(s)} "
                       f"is made {percent(low.p_make)} of the time", low.p_make, "P(make)", low.ci95), meld_reason(s))
    c = next(c for c in s.bids if c.bid == s.recommended_bid)
    return _making_chance(est.confidence, s, c), meld_reason(s)
