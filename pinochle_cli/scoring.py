"""Scoring: one deal's result and points from its facts; a match's totals, winner and status.

Everything comes from ``rules.scoring`` and ``rules.match``; nothing asks which game it is.

A deal is described by ``DealFacts``: per side (a side is a partnership, or a player in games
without partnerships) the meld shown, whether that meld is made only of the combinations the
ruleset keeps regardless (``scoring.kept_if_only``, e.g. dix), the counters taken and whether
the side took a trick. What the record does not say is ``None``; ``score_deal`` decides without
it when the answer is the same either way, and otherwise raises ``MissingFactError`` naming the
field that would settle it (``tricks`` or ``meld``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import MissingFactError, ScoringError
from .ruleset import Outcome, Ruleset
from .ruleset.vocabulary import DealResult, EarlyEnd, MatchStatus, OutcomeKind

__all__ = [
    "DealFacts", "DealScore", "Standing", "deal_ends_before_play", "match_standing", "meld_only_from_number",
    "not_on_board", "score_deal", "score_match",
]

@dataclass(frozen=True)
class DealFacts:
    """What happened in one deal, per side (``meld[i]`` is side ``i``'s meld).

    ``bidder_side``/``bid`` are None in games without an auction. ``counters`` is None when
    the deal ended before play. ``took_trick[i]`` None: unknown (no tricks recorded and no
    counters taken). ``meld_only[i]`` None: unknown whether the meld is only ``kept_if_only``
    combinations. ``buried``: the counters among the bidder's that lay in the buried cards
    (not a trick; games with a bury whose counters are the bidder's), None when not known.
    """

    meld: tuple[int, ...]
    counters: tuple[int, ...] | None = None
    bidder_side: int | None = None
    bid: int | None = None
    took_trick: tuple[bool | None, ...] | None = None
    meld_only: tuple[bool | None, ...] | None = None
    conceded: bool = False
    no_trump: bool = False
    redeal: bool = False
    buried: int | None = 0

    @property
    def sides(self) -> int:
        return len(self.meld)


@dataclass(frozen=True)
class DealScore:
    """``result``: made, set, conceded, not-on-board, no-trump, redeal, or None (no auction)."""

    result: DealResult | None
    points: tuple[int, ...]
    # whether each side kept (scored) its meld
    kept: tuple[bool, ...]


def not_on_board(rules: Ruleset, facts: DealFacts) -> bool:
    """True when the bidders cannot reach the bid even with every counter and the ruleset ends the deal."""
    if rules.scoring.not_on_board is None or facts.bidder_side is None or facts.bid is None:
        return False
    return facts.meld[facts.bidder_side] + rules.counter_total < facts.bid


def deal_ends_before_play(rules: Ruleset, facts: DealFacts) -> EarlyEnd | None:
    """The result of a deal that ends before any card is played, or None if it is played out."""
    if facts.redeal:
        return "redeal"
    if facts.no_trump:
        return "no-trump"
    if not_on_board(rules, facts):
        return "not-on-board"
    if facts.conceded:
        return "conceded"
    return None


def meld_only_from_number(rules: Ruleset, points: int) -> bool | None:
    """Whether a meld given only as a number is made only of ``kept_if_only`` combinations.

    False when no choice of those combinations adds up to it; True when it is smaller than any
    other combination could be; None when the number alone cannot tell.
    """
    kept = [c for c in rules.meld if c.name in rules.scoring.kept_if_only]
    if not kept or points <= 0:
        return False
    reachable = {0}
    for combo in kept:
        reachable = {r + combo.value(k) for r in reachable for k in range(rules.deck.copies + 1)}
    if points not in reachable:
        return False
    others = [c.value(1) for c in rules.meld if c.name not in rules.scoring.kept_if_only]
    if not others or points < min(others):
        return True
    return None


def _value(kind: OutcomeKind, bid: int, meld: int, counters: int) -> int:
    return {
        "minus-bid": -bid,
        "minus-double-bid": -2 * bid,
        "meld": meld,
        "meld-and-counters": meld + counters,
        "nothing": 0,
    }[kind]


def _outcome(rules: Ruleset, facts: DealFacts, result: EarlyEnd) -> Outcome:
    outcome = {"no-trump": rules.scoring.no_trump, "not-on-board": rules.scoring.not_on_board,
               "conceded": rules.scoring.concede}[result]
    if outcome is None:
        field = {"no-trump": "no-trump", "conceded": "conceded", "not-on-board": "bid"}[result]
        what = {"no-trump": "a deal without a trump suit (every suit may be named)",
                "conceded": "conceding a deal", "not-on-board": "a deal ending after the meld"}[result]
        raise ScoringError(f"the {rules.name} ruleset has no rule for {what}", field=field)
    return outcome


def _score_known(rules: Ruleset, facts: DealFacts, took: Sequence[bool], only: Sequence[bool]) -> DealScore:
    """Score with every unknown settled."""
    n = facts.sides
    sc = rules.scoring
    bidders = facts.bidder_side
    bid = facts.bid or 0
    early = deal_ends_before_play(rules, facts)
    if early == "redeal":
        return DealScore("redeal", (0,) * n, (False,) * n)
    if early is not None:
        outcome = _outcome(rules, facts, early)
        points = tuple(
            _value(outcome.bidders if side == bidders else outcome.defenders, bid, facts.meld[side], 0)
            for side in range(n))
        kept = tuple((outcome.bidders if side == bidders else outcome.defenders) in ("meld", "meld-and-counters")
                     and facts.meld[side] > 0 for side in range(n))
        return DealScore(early, points, kept)
    counters = facts.counters if facts.counters is not None else (0,) * n

    def keeps(side: int) -> bool:
        if sc.keep_meld == "always" or (only[side] and facts.meld[side] > 0):
            return True
        if sc.keep_meld == "counter":
            return counters[side] >= sc.counter_minimum
        return took[side]

    kept = tuple(keeps(side) for side in range(n))
    kept_meld = tuple(facts.meld[side] if kept[side] else 0 for side in range(n))
    # no auction: every side scores its kept meld and counters
    if bidders is None:
        return DealScore(None, tuple(kept_meld[s] + counters[s] for s in range(n)),
                         tuple(k and m > 0 for k, m in zip(kept, facts.meld, strict=True)))
    reached = kept_meld[bidders] + counters[bidders] >= bid
    needs = {"nothing": True, "trick": took[bidders],
             "counter": counters[bidders] >= sc.counter_minimum}[sc.made_needs]
    result: DealResult
    if reached and needs:
        result = "made"
        outcome = Outcome(sc.made, sc.set.defenders)
    else:
        result = "set"
        outcome = sc.set
    points = tuple(
        _value(outcome.bidders if side == bidders else outcome.defenders, bid, kept_meld[side], counters[side])
        for side in range(n))
    shown = tuple(kept[s] and facts.meld[s] > 0 and
                  (outcome.bidders if s == bidders else outcome.defenders) in ("meld", "meld-and-counters")
                  for s in range(n))
    return DealScore(result, points, shown)


def _buried_at_most(rules: Ruleset, facts: DealFacts) -> int:
    """The most of the bidder's counters that can have come from the buried cards rather than a trick."""
    if rules.bury is None or rules.bury.counters != "bidder":
        return 0
    if facts.buried is not None:
        return facts.buried
    values = sorted((rules.counter_value(c) for c in rules.deck.cards()), reverse=True)
    return sum(values[:rules.widow_size])


def score_deal(rules: Ruleset, facts: DealFacts) -> DealScore:
    """Score one deal.

    Raises ``MissingFactError`` (fact ``tricks`` or ``meld``) when an unknown fact decides the
    score, ``ScoringError`` when the ruleset has no rule for how the deal ended.
    """
    n = facts.sides
    took: list[bool | None] = list(facts.took_trick) if facts.took_trick is not None else [None] * n
    only: list[bool | None] = list(facts.meld_only) if facts.meld_only is not None else [False] * n
    counters = facts.counters
    # a counter point is only ever captured in a trick, or buried by the bidder
    for side in range(n):
        aside = _buried_at_most(rules, facts) if side == facts.bidder_side else 0
        if took[side] is None and counters is not None and counters[side] > aside:
            took[side] = True
    unknown = [("tricks", s) for s in range(n) if took[s] is None] + [("meld", s) for s in range(n) if only[s] is None]
    if not unknown:
        return _score_known(rules, facts, [bool(t) for t in took], [bool(o) for o in only])
    results: dict[tuple[bool, ...], DealScore] = {}
    for values in itertools.product((False, True), repeat=len(unknown)):
        t = [bool(x) for x in took]
        o = [bool(x) for x in only]
        for (field, side), v in zip(unknown, values, strict=True):
            if field == "tricks":
                t[side] = v
            else:
                o[side] = v
        results[values] = _score_known(rules, facts, t, o)
    first = next(iter(results.values()))
    if all(r.points == first.points and r.result == first.result for r in results.values()):
        # the unknowns do not matter; report the reading that assumes the least
        return results[tuple(False for _ in unknown)]
    for i, (field, side) in enumerate(unknown):
        for values, res in results.items():
            flipped = (*values[:i], not values[i], *values[i + 1:])
            other = results[flipped]
            if other.points != res.points or other.result != res.result:
                raise MissingFactError(field, side)
    raise AssertionError("unreachable")  # pragma: no cover


# --------------------------------------------------------------------------- the match

@dataclass(frozen=True)
class Standing:
    """Totals after some deals and what they mean: ``in-progress``, ``won`` or ``draw``."""

    totals: tuple[int, ...]
    # deals counted toward a fixed-length match (redeals do not count)
    deals: int
    status: MatchStatus
    winner: int | None


def match_standing(rules: Ruleset, totals: Sequence[int], deals: int, bidder_side: int | None) -> Standing:
    """The standing after a deal: ``deals`` counted so far, ``bidder_side`` of the deal just scored."""
    totals = tuple(totals)
    m = rules.match

    def best(among: Sequence[int]) -> Standing:
        top = max(totals[s] for s in among)
        leaders = [s for s in among if totals[s] == top]
        if len(leaders) == 1:
            return Standing(totals, deals, "won", leaders[0])
        if m.tie == "draw":
            return Standing(totals, deals, "draw", None)
        return Standing(totals, deals, "in-progress", None)

    if m.target is not None:
        reached = [s for s in range(len(totals)) if totals[s] >= m.target]
        if not reached:
            return Standing(totals, deals, "in-progress", None)
        if len(reached) == 1:
            return Standing(totals, deals, "won", reached[0])
        if m.both_reach == "bidders" and bidder_side is not None and bidder_side in reached:
            return Standing(totals, deals, "won", bidder_side)
        return best(reached)
    if m.deals is not None and deals >= m.deals:
        return best(range(len(totals)))
    return Standing(totals, deals, "in-progress", None)


def score_match(rules: Ruleset, deals: Sequence[DealFacts]) -> list[tuple[DealScore, Standing]]:
    """Score deals in order: each deal's score and the standing after it.

    A deal after the match was decided is a ``ScoringError`` (its ``deal`` is 1-based), as is
    a deal that cannot be scored.
    """
    out: list[tuple[DealScore, Standing]] = []
    if not deals:
        return out
    totals = [0] * deals[0].sides
    counted = 0
    for number, facts in enumerate(deals, start=1):
        if out and out[-1][1].status != "in-progress":
            raise ScoringError(f"the match was already decided after deal {number - 1}", deal=number)
        try:
            score = score_deal(rules, facts)
        except ScoringError as exc:
            exc.deal = number
            raise
        totals = [t + p for t, p in zip(totals, score.points, strict=True)]
        if score.result != "redeal":
            counted += 1
        out.append((score, match_standing(rules, totals, counted, facts.bidder_side)))
    return out
