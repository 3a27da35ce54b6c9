"""The reasons for a recommended bid (``reasons.Reason``): the rule that chose it with its figure, a sacrifice
said as one (a bid likely set, worth more than letting the other side play) with what it saves, and the meld and
counters the hand brings. Words from the figures and the ruleset's suits; nothing is raised on purpose."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..reasons import Reason, percent
from .results import BidChance, Estimate, SuitEstimate

if TYPE_CHECKING:
    from .question import Answer

__all__ = ["answer_reasons", "estimate_reasons"]


def _suit_words(s: SuitEstimate) -> str:
    return f"{s.trump.symbol} {s.trump.word}"


def _chance(rule: float, s: SuitEstimate, c: BidChance) -> Reason:
    return Reason(f"the rule: the highest bid made at least {percent(rule)} of the time — {c.bid} in "
                  f"{_suit_words(s)} is made {percent(c.p_make)} of the time", c.p_make, "P(make)", c.ci95)


def _meld(s: SuitEstimate) -> Reason:
    return Reason(f"in {_suit_words(s)} the side melds {s.meld_mean:.0f} and takes {s.counters_mean:.0f} in counters "
                  "on average", s.meld_mean, "meld points")


def estimate_reasons(est: Estimate) -> tuple[Reason, ...]:
    """Why the estimate's best suit and bid (none: no suit the bidder may name)."""
    s = next((s for s in est.suits if s.trump == est.best), None)
    if s is None:
        return ()
    if s.recommended_bid is None:
        low = s.bids[0]
        return (Reason(f"no bid is made {percent(est.confidence)} of the time: even {low.bid} in {_suit_words(s)} "
                       f"is made {percent(low.p_make)} of the time", low.p_make, "P(make)", low.ci95), _meld(s))
    c = next(c for c in s.bids if c.bid == s.recommended_bid)
    return _chance(est.confidence, s, c), _meld(s)


def answer_reasons(a: Answer) -> tuple[Reason, ...]:  # long: one reason per rule, the sacrifice and the meld
    """Why the call ``a`` recommends: the rule (``by``), a sacrifice when it is one, the meld of its suit."""
    call = a.recommended
    out: list[Reason] = []
    chances = _chances(a, call)
    if a.by == "points":
        if call is not None and call.points is not None:
            ci = chances.points_ci95 if chances is not None else None
            what = "pass" if call.bid is None else f"bid {call.bid}"
            out.append(Reason(f"the rule: the call with the best expected points — {what}, {call.points:+.1f} for "
                              "our side on average", call.points, "points a deal", ci))
    elif chances is not None and call is not None and call.bid is not None:
        out.append(Reason(f"the rule: the highest bid made at least {percent(a.confidence)} of the time — "
                          f"{call.bid} is made {percent(chances.p_make)} of the time", chances.p_make, "P(make)",
                          chances.ci95))
    else:
        out.append(Reason(f"the rule: no bid from {a.smallest} is made {percent(a.confidence)} of the time, so pass",
                          a.confidence, "P(make) needed"))
    sac = _sacrifice(a, chances)
    if sac is not None:
        out.append(sac)
    suit = next((s for s in (a.estimate.suits if a.estimate else ()) if call is not None and s.trump == call.trump),
                None)
    if suit is not None:
        out.append(_meld(suit))
    return tuple(out[:3])


def _chances(a: Answer, call: object) -> BidChance | None:
    """The ladder's row of the recommended bid."""
    bid = getattr(call, "bid", None)
    trump = getattr(call, "trump", None)
    if bid is None:
        return None
    if a.estimate is not None:
        s = next((s for s in a.estimate.suits if s.trump == trump), None)
        return None if s is None else next((c for c in s.bids if c.bid == bid), None)
    return None if a.side is None else next((c for c in a.side.bids if c.bid == bid), None)


def _sacrifice(a: Answer, c: BidChance | None) -> Reason | None:
    """A bid more likely set than made, worth more than passing: a sacrifice, and what it saves."""
    call, passing = a.recommended, a.passing
    if c is None or call is None or call.points is None or c.p_make >= 0.5:
        return None
    if passing is None or passing.points is None or call.points <= passing.points or a.auction is None:
        return None
    saves = call.points - passing.points
    return Reason(f"a sacrifice: {c.bid} is made only {percent(c.p_make)} of the time, but going set costs less than "
                  f"letting {a.auction.high_seat} play {a.auction.high} ({passing.points:+.1f}): it saves "
                  f"{saves:.1f} points a deal", saves, "points a deal")
