"""An estimate's answer: each suit's chance of making every bid, with its interval, and the recommendation.

``summarise`` turns a ``Tally`` into ``SuitEstimate``s (per suit the bids from the minimum up to the first
made less often than ``STOP_BELOW``, each with its Wilson interval), ``best_suit`` picks the suit to name;
``Estimate.to_json`` is the document ``estimate --json`` prints (docs/json.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Hand, Suit
from ..ruleset import Ruleset
from .checks import MAX_BIDS, STOP_BELOW
from .games import Tally
from .interval import wilson_interval
from .points import expected_interval

__all__ = ["BidChance", "ChoiceEstimate", "Estimate", "SuitEstimate", "best_suit", "summarise", "summarise_choice"]


# --------------------------------------------------------------------------- the estimate

@dataclass(frozen=True)
class BidChance:
    bid: int
    made: int
    p_make: float
    ci95: tuple[float, float]
    # the mean of our side's score minus the other side's when we play at this bid (None: not asked for)
    points: float | None = None
    # its 95 % interval (None: not asked for; ``question`` keeps it with ``by="points"``)
    points_ci95: tuple[float, float] | None = None


@dataclass(frozen=True)
class SuitEstimate:
    trump: Suit
    meld_mean: float
    counters_mean: float
    bids: tuple[BidChance, ...]
    recommended_bid: int | None
    # the highest bid worth more expected points than passing (``question``; None: not asked for, or none)
    points_bid: int | None = None

    @property
    def score_mean(self) -> float:
        """Meld plus counters: what the bidding side scores when it makes the bid."""
        return self.meld_mean + self.counters_mean


@dataclass(frozen=True)
class ChoiceEstimate:
    """The bidder naming the suit after seeing the widow (``Simulator.choose_suits``), deal by deal."""

    meld_mean: float
    counters_mean: float
    bids: tuple[BidChance, ...]
    recommended_bid: int | None

    @property
    def score_mean(self) -> float:
        return self.meld_mean + self.counters_mean

    def to_json(self) -> dict[str, Any]:
        return {"meld_mean": round(self.meld_mean, 4), "counters_mean": round(self.counters_mean, 4),
                "score_mean": round(self.score_mean, 4), "bids": _bids_json(self.bids),
                "recommended_bid": self.recommended_bid}


def _bids_json(bids: Sequence[BidChance]) -> list[dict[str, Any]]:
    return [_bid_json(c) for c in bids]


def _bid_json(c: BidChance) -> dict[str, Any]:
    out = {"bid": c.bid, "p_make": round(c.p_make, 4), "ci95": [round(c.ci95[0], 4), round(c.ci95[1], 4)]}
    if c.points is not None:
        out["expected_points"] = round(c.points, 2)
    if c.points_ci95 is not None:
        out["expected_points_ci95"] = [round(c.points_ci95[0], 2), round(c.points_ci95[1], 2)]
    return out


@dataclass(frozen=True)
class Estimate:
    ruleset: str
    hand: Hand
    samples: int
    seed: int
    confidence: float
    precision: float | None
    precision_reached: bool | None
    suits: tuple[SuitEstimate, ...]
    best: Suit | None
    # the conditions the deals met (``Given`` as text), and the share of drawn deals that met them
    conditions: tuple[str, ...] = ()
    acceptance: float | None = None
    # the widow's size (0: none) and, with a widow and more than one suit, the suit named after seeing it
    widow: int = 0
    after_widow: ChoiceEstimate | None = None
    # how the partner passes and the bidder returns (PASS_POLICIES)
    pass_policy: str = "heuristic"

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document (docs/json.md) (plus ``confidence``, ``precision``, ``precision_reached``;
        ``after_widow`` in a game with a widow; ``conditions`` and ``acceptance`` when conditions were given;
        ``pass`` when it is not the heuristic)."""
        doc = {
            "ruleset": self.ruleset,
            "hand": self.hand.ascii(),
            "samples": self.samples,
            "seed": self.seed,
            "confidence": self.confidence,
            "precision": self.precision,
            "precision_reached": self.precision_reached,
            "suits": [{
                "trump": s.trump.letter,
                "meld_mean": round(s.meld_mean, 4),
                "counters_mean": round(s.counters_mean, 4),
                "score_mean": round(s.score_mean, 4),
                "bids": _bids_json(s.bids),
                "recommended_bid": s.recommended_bid,
                **({} if s.points_bid is None else {"points_bid": s.points_bid}),
            } for s in self.suits],
            "best": self.best.letter if self.best is not None else None,
        }
        if self.widow:
            doc["after_widow"] = None if self.after_widow is None else self.after_widow.to_json()
        if self.conditions:
            doc["conditions"] = list(self.conditions)
            doc["acceptance"] = None if self.acceptance is None else round(self.acceptance, 6)
        if self.pass_policy != "heuristic":
            doc["pass"] = self.pass_policy
        return doc


def _bids(rules: Ruleset, tally: Tally, suit: int) -> list[BidChance]:
    """The ladder of bids from the minimum to the first one made less often than ``STOP_BELOW`` (or
    above every claim), at most ``MAX_BIDS`` of them."""
    assert rules.auction is not None
    n = tally.deals
    out: list[BidChance] = []
    bid = rules.auction.minimum
    top = tally.top(suit)
    while len(out) < MAX_BIDS:
        made = tally.made(suit, bid)
        p = made / n
        out.append(BidChance(bid, made, p, wilson_interval(made, n)))
        if p < STOP_BELOW or bid > top:
            break
        bid = rules.auction.next_bid(bid)
    return out


def summarise(rules: Ruleset, trumps: Sequence[Suit], tally: Tally, confidence: float) -> list[SuitEstimate]:
    out = []
    for i, t in enumerate(trumps):
        c = summarise_choice(rules, tally, i, confidence)
        out.append(SuitEstimate(t, c.meld_mean, c.counters_mean, c.bids, c.recommended_bid))
    return out


def summarise_choice(rules: Ruleset, tally: Tally, index: int, confidence: float) -> ChoiceEstimate:
    """Group ``index`` of ``tally`` (a suit, or the suit chosen after the widow) summarised."""
    bids = _bids(rules, tally, index)
    ok = [c.bid for c in bids if c.p_make >= confidence]
    if tally.outcomes:
        bids = [dataclasses.replace(c, points=mean, points_ci95=ci)
                for c in bids for mean, ci in [expected_interval(rules, tally.outcomes[index], tally.deals, c.bid)]]
    return ChoiceEstimate(tally.meld[index] / tally.deals, tally.counters[index] / tally.deals, tuple(bids),
                          max(ok) if ok else None)


def best_suit(suits: Sequence[SuitEstimate]) -> Suit | None:
    if not suits:
        return None
    return max(suits, key=lambda s: (s.recommended_bid is not None, s.recommended_bid or 0, s.score_mean)).trump


