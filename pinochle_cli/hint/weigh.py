"""Judging each legal card by the deal's objective, over the worlds solved.

In a world, a card's double-dummy value (our side's counters from here on) completes our side's
counters for the deal (those already taken added); the ruleset's scoring (``score_deal``) turns
them, with the meld each side showed, the bid and who took a trick, into each side's points.
A card's ``points`` is the mean (over the worlds, each by its weight) of our side's points minus
the other side's; ``p_make`` the chance the bid is made (None without a bid); ``counters`` the
mean value; ``best_in`` the worlds where no card scores more. The buried counters count for the
bidder, or for the last trick's winner (the world's ``last_trick_worth``, which the solver is given), as
the ruleset says. Where the scoring's sides are not
the two sides of the play (each player scoring alone with three sides), ``points`` is the
counter difference and ``p_make`` None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card
from ..meld import meld, meld_table
from ..scoring import DealFacts, score_deal
from .facts import Facts
from .solving import Plays
from .worlds import World

__all__ = ["CardJudgement", "Objective", "best_card", "judge", "last_trick_worth", "objective", "world_points"]


@dataclass(frozen=True)
class CardJudgement:
    card: Card
    points: float
    p_make: float | None
    counters: float
    best_in: int


@dataclass(frozen=True)
class Objective:
    """What the deal's score needs besides the counters still to come, for this seat's side (``ours``)."""

    ours: int
    sides: int
    taken: tuple[int, ...]
    took: tuple[bool, ...]
    meld: tuple[int, ...]
    meld_only: tuple[bool, ...]
    bidder_side: int | None
    scored: bool


def objective(facts: Facts) -> Objective:
    """The counters each side took in the tricks so far, the meld each showed, and whether the scoring's
    sides are the play's (see the module docstring)."""
    rules = facts.rules
    sides = facts.sides()
    n = len(sides)
    taken, took = [0] * n, [False] * n
    for k, (trick, winner) in enumerate(zip(facts.tricks, facts.winners, strict=True)):
        side = facts.side_of(winner)
        taken[side] += sum(rules.counter_value(c) for c in trick) + (rules.last_trick if k == rules.tricks_per_deal - 1
                                                                      else 0)
        took[side] = True
    table = meld_table(rules)
    melds, only = [0] * n, [True] * n
    for seat, shown in facts.shown.items():
        side = facts.side_of(seat)
        melds[side] += table.total(shown.counts, facts.trump)
        if len(shown):
            only[side] = only[side] and meld(rules, shown, facts.trump).only(rules.scoring.kept_if_only)
    meld_only = tuple(o and m > 0 for o, m in zip(only, melds, strict=True))
    bidder_side = facts.side_of(facts.bidder) if facts.bidder is not None and facts.bid is not None else None
    scored = n == 2 and len(rules.partnerships) == 2
    return Objective(facts.side_of(facts.seat), n, tuple(taken), tuple(took), tuple(melds), meld_only, bidder_side,
                     scored)


def last_trick_worth(facts: Facts, world: World) -> int | None:
    """What the last trick is worth in ``world`` where the ruleset gives the buried counters to its winner (the
    ruleset's bonus and those counters), else None (the ruleset's own worth)."""
    rules = facts.rules
    if rules.bury is None or rules.bury.counters != "last-trick":
        return None
    return rules.last_trick + sum(rules.counter_value(c) for c in world.buried + facts.buried)


def _score(facts: Facts, goal: Objective, world: World, value: int) -> tuple[float, bool | None]:
    """Our side's points minus theirs, and whether the bid is made, when our side takes ``value`` more."""
    rules = facts.rules
    buried = sum(rules.counter_value(c) for c in world.buried + facts.buried)
    ours = goal.taken[goal.ours] + value
    theirs = rules.counter_total - buried - ours
    # where the buried counters go to the last trick's winner, ``value`` holds them when it is ours
    if last_trick_worth(facts, world) is not None:
        theirs += buried
    # the buried counters the bidder's where the ruleset says so
    elif rules.bury is not None and rules.bury.counters == "bidder" and facts.bidder is not None:
        if facts.side_of(facts.bidder) == goal.ours:
            ours += buried
        else:
            theirs += buried
    if not goal.scored:
        return float(ours - theirs), None
    other = 1 - goal.ours
    counters = [0, 0]
    counters[goal.ours], counters[other] = ours, theirs
    took = tuple(goal.took[s] or counters[s] > 0 for s in range(2))
    deal = DealFacts(meld=goal.meld, counters=tuple(counters), bidder_side=goal.bidder_side, bid=facts.bid,
                     took_trick=took, meld_only=goal.meld_only)
    score = score_deal(rules, deal)
    made = None if goal.bidder_side is None else score.result == "made"
    return float(score.points[goal.ours] - score.points[other]), made


def world_points(facts: Facts, worlds: Sequence[World], plays: Sequence[Plays]) -> list[dict[Card, float]]:
    """Per world, each card's points: our side's score minus theirs for the deal when it takes the card's value."""
    goal = objective(facts)
    return [{c: _score(facts, goal, world, v)[0] for c, v in values}
            for world, values in zip(worlds, plays, strict=False)]


def judge(facts: Facts, worlds: Sequence[World], plays: Sequence[Plays]) -> list[CardJudgement]:
    """Each legal card's figures over ``worlds`` (``plays[i]``: the cards' values in ``worlds[i]``), in hand order."""
    goal = objective(facts)
    cards = [c for c, _ in plays[0]]
    points = {c: 0.0 for c in cards}
    counters = {c: 0.0 for c in cards}
    made = {c: 0.0 for c in cards}
    best = {c: 0 for c in cards}
    weight = 0
    for world, values in zip(worlds, plays, strict=False):
        scored = {c: _score(facts, goal, world, v) for c, v in values}
        top = max(p for p, _ in scored.values())
        for c, v in values:
            p, m = scored[c]
            points[c] += world.weight * p
            counters[c] += world.weight * v
            made[c] += world.weight * bool(m)
            best[c] += p == top
        weight += world.weight
    bid = goal.bidder_side is not None and goal.scored
    return [CardJudgement(c, points[c] / weight, made[c] / weight if bid else None, counters[c] / weight, best[c])
            for c in cards]


def best_card(judged: Sequence[CardJudgement]) -> Card:
    """The card of most points (of a tie: more counters, then the first in hand order)."""
    return max(judged, key=lambda j: (j.points, j.counters, -judged.index(j))).card

