"""A deal's facts for scoring, read off its flow: per side the meld shown, the counters and tricks taken.

Sides are the scoring sides (``rules.partnerships``: a team, or a player alone). The meld of a side is
its seats' shown meld (declared, in a game with a stock); a side whose meld is only of the combinations
the ruleset keeps regardless (``scoring.kept_if_only``) is marked so; the buried counters go to the
bidder or to the winner of the last trick, as ``bury.counters`` says (buried unseen, they are known once every
card is played: the pack's cards not played). ``score_deal`` does the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Hand
from ..meld import meld
from ..scoring import DealFacts, DealScore, score_deal

if TYPE_CHECKING:
    from .flow import Flow

__all__ = ["deal_facts", "deal_score"]


def _only(flow: Flow, seat: int) -> bool:
    """Is ``seat``'s shown meld only of the combinations the ruleset keeps regardless (and some meld)?"""
    rules = flow.rules
    if seat not in flow.shown or flow.trump is None or flow.rules.has_stock:
        return False
    result = meld(rules, flow.shown[seat], flow.trump)
    return result.total > 0 and result.only(rules.scoring.kept_if_only)


def deal_facts(flow: Flow) -> DealFacts:
    """The facts of the deal as it stands (``counters`` None when it ended before a card was played)."""
    rules = flow.rules
    sides = rules.partnerships
    meld_of = tuple(sum(flow.meld_points(s) for s in side) for side in sides)
    if flow.ended == "redeal":
        return DealFacts(meld=(0,) * len(sides), redeal=True)
    bidder_side = rules.side_of(flow.bidder) if flow.bidder is not None else None
    early = flow.ended in ("conceded", "no-trump", "not-on-board")
    only = tuple(any(_only(flow, s) for s in side) and all(_only(flow, s) or not flow.meld_points(s) for s in side)
                 for side in sides)
    if early:
        return DealFacts(meld=meld_of, bidder_side=bidder_side, bid=flow.bid, meld_only=only,
                         conceded=flow.ended == "conceded", no_trump=flow.ended == "no-trump")
    taken = list(flow.taken)
    laid = flow.buried
    if laid is None and rules.bury is not None and flow.buried_done and flow.play.over():
        # buried where nobody here saw: once every card is played, they are the cards of the pack not played
        laid = rules.deck.full() - Hand([c for cards in flow.played for c in cards])
    buried = sum(rules.counter_value(c) for c in laid) if laid is not None else 0
    bury = rules.bury
    if buried and bury is not None and flow.play.tricks:
        to = flow.bidder if bury.counters == "bidder" else flow.play.tricks[-1].winner
        if to is not None and (bury.counters == "bidder" or flow.play.over()):
            taken[to] += buried
    counters = tuple(sum(taken[s] for s in side) for side in sides)
    took = tuple(any(flow.play.won[s] for s in side) for side in sides)
    return DealFacts(meld=meld_of, counters=counters, bidder_side=bidder_side, bid=flow.bid, took_trick=took,
                     meld_only=only, buried=buried if bury is not None and bury.counters == "bidder" else 0)


def deal_score(flow: Flow) -> DealScore | None:
    """The deal's score once it is over (None before)."""
    if flow.ended is None:
        return None
    return score_deal(flow.rules, deal_facts(flow))
