"""A bid-or-pass question in the middle of an auction: the estimate with what the table said, in points.

``answer(rules, hand, ...)`` reads the auction (``auction.read_auction``), adds the conditions
its calls show to those given, and estimates: as the bidder (``simulate.estimate``, every suit
on the same deals) or as the bidder's partner (``seated.side_estimate``, the partner's hand
drawn, their trump by the heuristic). Every bid gets the expected points of our side minus the
other side's; ``pass`` gets the same figure when the current high bidder plays at the current
bid. ``Answer`` names the best call by expected points and the call by confidence (the highest
bid made at least ``confidence`` of the time), and recommends the one ``by`` picks; ``answer_reasons``
says why (the rule that chose it, a sacrifice said as one with what it saves, the meld). Raises as
``simulate.estimate``, ``seated.side_estimate`` and ``auction.read_auction`` do.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..cards import Hand, Suit
from ..errors import Argument, Message, SimulationError
from ..reasons import Reason, percent
from ..ruleset import Conventions, Ruleset
from .auction import AuctionSoFar, check_turn, read_auction
from .checks import DEFAULT_CONFIDENCE, DEFAULT_SAMPLES, check_full_hand, default_seed
from .conditions import Given
from .results import BidChance, Estimate
from .seated import SideEstimate, side_estimate
from .simulate import estimate
from .why import meld_reason

__all__ = ["BY", "VIEWS", "Answer", "CallWorth", "answer", "answer_reasons"]

VIEWS = ("bidder", "partner")
BY = ("confidence", "points")


@dataclass(frozen=True)
class CallWorth:
    """A call and what it is worth: ``bid`` None is a pass; ``trump`` the suit we would name (None: another
    player names it, or a pass)."""

    bid: int | None
    trump: Suit | None
    points: float | None

    def to_json(self) -> dict[str, Any]:
        return {"call": "pass" if self.bid is None else self.bid, "trump": None if self.trump is None else
                self.trump.letter, "expected_points": None if self.points is None else round(self.points, 2)}


@dataclass(frozen=True)
class Answer:
    """The estimate (bidder's view) or the side's ladder (partner's view), the auction read, and the calls."""

    view: str
    by: str
    ruleset: str
    side_hand: list[str]
    estimate: Estimate | None
    side: SideEstimate | None
    auction: AuctionSoFar | None
    # the smallest bid we may make now
    smallest: int
    # pass: the current high bidder plays at the current bid (None: nobody has bid)
    passing: CallWorth | None
    best_by_points: CallWorth | None
    best_by_confidence: CallWorth | None
    confidence: float
    # the conditions the deals met, as text (the auction's first)
    conditions: tuple[str, ...]

    @property
    def recommended(self) -> CallWorth | None:
        return self.best_by_points if self.by == "points" else self.best_by_confidence

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """Why the recommended call: the rule that chose it, a sacrifice when it is one, the meld
        (``answer_reasons``)."""
        return answer_reasons(self)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document: the estimate's members as before, and ``as``, ``by``, ``auction``, ``pass``,
        ``best_by_points``, ``best_by_confidence``, ``recommended_call``."""
        doc: dict[str, Any] = self.estimate.to_json() if self.estimate is not None else {}
        if self.side is not None:
            doc.update({"ruleset": self.ruleset, "hand": self.side_hand, "samples": self.side.samples,
                        "seed": self.side.seed,
                        "confidence": self.confidence, "conditions": list(self.conditions),
                        "acceptance": None if self.side.acceptance is None else round(self.side.acceptance, 6),
                        "partner": self.side.to_json()})
        doc.update({
            "as": self.view, "by": self.by,
            "auction": None if self.auction is None else self.auction.to_json(),
            "smallest_bid": self.smallest,
            "pass": None if self.passing is None else {
                "bidder": self.auction.high_seat if self.auction else None, **self.passing.to_json()},
            "best_by_points": None if self.best_by_points is None else self.best_by_points.to_json(),
            "best_by_confidence": None if self.best_by_confidence is None else self.best_by_confidence.to_json(),
            "recommended_call": None if self.recommended is None else self.recommended.to_json(),
            "reasons": [r.to_json() for r in self.reasons],
        })
        return doc


def answer(rules: Ruleset, hand: Hand, *, view: str = "bidder", by: str = "confidence", trump: Suit | None = None,
           given: Sequence[Given] = (), calls: str | None = None, dealer: str | None = None,
           conventions: Conventions | None = None, samples: int = DEFAULT_SAMPLES, seed: int | None = None,
           workers: int | None = None, precision: float | None = None, confidence: float = DEFAULT_CONFIDENCE,
           progress: Callable[[int, int], None] | None = None) -> Answer:
    """The question asked of ``hand`` (see the module docstring); ``conventions`` None: the ruleset's."""
    if view not in VIEWS:
        raise SimulationError(Message(Argument("as", view), f": the estimate is made as one of {', '.join(VIEWS)}"))
    if by not in BY:
        raise SimulationError(Message(Argument("by", by), f": the recommendation follows one of {', '.join(BY)}"))
    hand = check_full_hand(rules, hand)
    state = None
    if calls is not None:
        if dealer is None:
            raise SimulationError(Message("an auction needs the dealer's seat"), parameter="dealer")
        state = read_auction(rules, calls, dealer, conventions if conventions is not None else rules.conventions)
        check_turn(state, calls, rules)
        given = (*state.givens, *given)
    seed = default_seed(rules, hand, trump) if seed is None else seed
    run = dict(given=given, samples=samples, seed=seed, workers=workers, progress=progress)
    assert rules.auction is not None or view == "bidder"
    if view == "partner":
        if len(rules.partner_seats(0)) != 1:
            raise SimulationError(Message(Argument("as", "partner"), f": in the {rules.name} game nobody has a partner "
                                          "(each plays for themselves)"))
        if trump is not None:
            raise SimulationError(Message("a trump is named by the bidder: as the partner, give none"),
                                  parameter="trump")
        side = side_estimate(rules, hand, "partner", **run)  # type: ignore[arg-type]
        est = None
    else:
        est = estimate(rules, hand, trump=trump, precision=precision, confidence=confidence, points=True,
                       **run)  # type: ignore[arg-type]
        side = None
    assert rules.auction is not None
    smallest = rules.auction.minimum if state is None or state.high is None else rules.auction.next_bid(state.high)
    passing = _passing(rules, hand, state, side, dict(run, samples=est.samples if est else samples))
    if by != "points":
        # each bid's interval of points is part of the answer by points only
        est, side = _without_intervals(est), _side_without_intervals(side)
    head = Answer(view, by, rules.name, hand.ascii(), est, side, state, smallest, passing, None, None, confidence,
                  tuple(str(g) for g in given))
    return _calls(head)


def _side_without_intervals(found: SideEstimate | None) -> SideEstimate | None:
    """``found`` with no bid's interval of expected points."""
    if found is None:
        return None
    plain = partial(dataclasses.replace, points_ci95=None)
    return dataclasses.replace(found, bids=tuple(map(plain, found.bids)))


def _without_intervals(found: Estimate | None) -> Estimate | None:
    """``found`` with no bid's interval of expected points."""
    if found is None:
        return None
    plain = partial(dataclasses.replace, points_ci95=None)
    after = found.after_widow
    return dataclasses.replace(found, suits=tuple(dataclasses.replace(s, bids=tuple(map(plain, s.bids)))
                                                  for s in found.suits),
                               after_widow=None if after is None else dataclasses.replace(
                                   after, bids=tuple(map(plain, after.bids))))


def _passing(rules: Ruleset, hand: Hand, state: AuctionSoFar | None, side: SideEstimate | None,
             run: dict[str, Any]) -> CallWorth | None:
    """What passing is worth: the current high bidder plays at the current bid (None: nobody has bid)."""
    if state is None or state.high is None or state.high_seat is None:
        return None
    if side is not None and side.bidder == state.high_seat:
        points = side.points_at(state.high)
    else:
        points = side_estimate(rules, hand, state.high_seat, from_bid=state.high, **run).points_at(state.high)
    return CallWorth(None, None, points)


def _calls(a: Answer) -> Answer:
    """``a`` with the best call by points and by confidence, and each suit's highest bid worth more than passing."""
    est, side, smallest, passing, confidence = a.estimate, a.side, a.smallest, a.passing, a.confidence
    floor = passing.points if passing is not None and passing.points is not None else 0.0
    ladders: list[tuple[Suit | None, Sequence[BidChance]]] = (
        [(s.trump, s.bids) for s in est.suits] if est is not None else [(None, side.bids if side else ())])
    options = [CallWorth(c.bid, t, c.points) for t, bids in ladders for c in bids if c.bid >= smallest]
    best = max(options, key=lambda c: (c.points or 0.0, -(c.bid or 0)), default=None)
    if passing is not None and (best is None or (passing.points or 0.0) >= (best.points or 0.0)):
        best = passing
    sure = [CallWorth(c.bid, t, c.points) for t, bids in ladders for c in bids
            if c.bid >= smallest and c.p_make >= confidence]
    by_confidence = max(sure, key=lambda c: (c.bid or 0, c.points or 0.0), default=CallWorth(None, None, None if
                        passing is None else passing.points))
    if est is not None:
        suits = tuple(dataclasses.replace(s, points_bid=max(
            (c.bid for c in s.bids if c.bid >= smallest and (c.points or 0.0) >= floor), default=None))
            for s in est.suits)
        est = dataclasses.replace(est, suits=suits)
    return dataclasses.replace(a, estimate=est, best_by_points=best, best_by_confidence=by_confidence)


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
        out.append(meld_reason(suit))
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
