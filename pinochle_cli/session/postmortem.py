"""The review of a finished deal: each of the user's calls, pass and cards beside the advice from their view at
that moment and the double-dummy best, with what the difference cost, the costly ones first.

The yardstick is the deal solved with every hand seen, everyone perfect afterwards:

- a card: ``solver.analyze.analyze_deal`` on the deal as recorded — its cost is the counters the card gave up,
  exactly what ``pinochle analyze`` says of it;
- the last call, when it won the contract: the contract solved from the first card (the bidding side's
  counters and meld, ``perfect``). A bid made under perfect play cost nothing (a lower one scores the same); a
  bid set cost the difference to the lowest bid that still won, when that one is made, else to passing (counted
  as 0: the deal the others would have played is not solved). Other calls get the advice only;
- the pass, the return or the bury (practice): the advised cards put in their place, the computer's replies
  played again, and the deal solved from the first card; the cost is the difference of the two deals' points.

Points are the deal's score, the user's side's less the others' (their mean, with two others). The advice from
the user's view is the one asked for at that moment (kept by the session), else asked now within the time left.
The review takes about ``TIME_SHARES`` times the session's time for an answer: half for the solving, half for
the advice; what is left when the time is out is marked not judged. ``Review.rows`` holds at most ``SCREEN``
rows, the costly first; a card that cost nothing is only counted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..errors import PinochleError, SearchLimitError
from ..game.actions import Action
from ..game.state import DealState
from ..records import MatchRecord
from ..scoring import DealFacts, score_deal

__all__ = ["SCREEN", "TIME_SHARES", "JudgedDecision", "Review", "review", "state_at"]

# the rows shown, and the review's time in answers' times
SCREEN = 12
TIME_SHARES = 6


@dataclass(frozen=True)
class JudgedDecision:
    """One decision: ``kind`` (``call``, ``pass``, ``bury``, ``card``), when (``trick``: the trick of a card, 0 before
    the play), what was done, the advice from the user's view then (None: not judged), the double-dummy best and what
    the difference cost (None: not judged; ``unit``: ``points`` of the deal's score, or ``counters`` of a card);
    ``note``: why something is not judged."""

    kind: str
    index: int
    trick: int
    played: Action
    advised: Action | None
    best: str | None
    cost: int | None
    unit: str = "points"
    note: str = ""


@dataclass(frozen=True)
class Review:
    """The user's decisions judged (``judged`` of them; ``rows``: at most ``SCREEN``, the costly first — the calls,
    the exchange and the cards that cost something or were not judged; ``fine``: the cards that cost nothing, only
    counted; ``more``: rows left out),
    ``perfect``: the bidding side's counters with perfect play from trick ``first_trick`` (None: not solved),
    ``meld`` its meld, ``bid``; ``seconds`` taken."""

    rows: tuple[JudgedDecision, ...]
    more: int
    judged: int
    fine: int
    perfect: int | None
    first_trick: int
    tricks: int
    meld: int
    bid: int | None
    bidder: int | None
    seconds: float

    @property
    def makeable(self) -> bool | None:
        if self.bid is None or self.perfect is None or self.first_trick != 1:
            return None
        return self.perfect + self.meld >= self.bid


def state_at(state: DealState, actions: int) -> DealState:
    """The deal as it stood after its first ``actions`` actions."""
    data = state.to_json()
    data["actions"] = data["actions"][:actions]
    return DealState.from_json(data, state.rules)


def _points(state: DealState, facts: DealFacts, seat: int) -> float:
    """The deal's score for ``seat``'s side less the others' (their mean)."""
    rules = state.rules
    score = score_deal(rules, facts)
    mine = rules.side_of(seat)
    others = [p for i, p in enumerate(score.points) if i != mine]
    return score.points[mine] - sum(others) / len(others)


def _with_counters(state: DealState, facts: DealFacts, ours: int, bid: int | None = None) -> DealFacts:
    """``facts`` with the bidding side's counters ``ours`` (the rest to the first other side) and ``bid``."""
    rules = state.rules
    assert state.bidder is not None
    side = rules.side_of(state.bidder)
    counters = [0] * len(facts.meld)
    counters[side] = ours
    other = next(i for i in range(len(counters)) if i != side)
    counters[other] = rules.counter_total - ours
    took = tuple(True if i != side else ours > 0 for i in range(len(counters)))
    return replace(facts, counters=tuple(counters), took_trick=took, bid=facts.bid if bid is None else bid)


def review(record: MatchRecord, state: DealState, seat: int, advice: Mapping[int, dict[str, Any]], *,
           seconds: float, seed: int, clock: Callable[[], float] = time.monotonic) -> Review:
    """The review of the finished deal ``state``, written as ``record``'s last deal (see the module docstring)."""
    began = clock()
    half = TIME_SHARES * seconds / 2
    analysis = _analysis(record, half)
    end = clock() + half

    def asked(index: int) -> Action | None:
        return _advised(state, seat, index, advice, seconds, seed, end, clock)

    rows: list[JudgedDecision] = []
    for index, act in enumerate(state.history):
        if act.seat == seat and act.kind in ("bid", "pass", "give", "bury", "play"):
            rows.append(_judge(state, seat, index, act, analysis, asked, _kept(advice, index), seconds))
    last_call = max((r.index for r in rows if r.kind == "call"), default=None)
    rows = [_call_cost(state, seat, r, analysis) if r.index == last_call else r for r in rows]
    rows.sort(key=lambda r: (r.cost is None, -(r.cost or 0), r.index))
    # a card that cost nothing is only counted
    listed = [r for r in rows if r.kind != "card" or r.cost != 0]
    shown = [r if r.advised is not None else replace(r, advised=asked(r.index)) for r in listed[:SCREEN]]
    side = [state.rules.side_of(state.bidder)] if state.bidder is not None else []
    meld = sum(state.facts().meld[i] for i in side)
    perfect = None if analysis is None else analysis.perfect
    first = analysis.first_trick if analysis is not None else state.rules.tricks_per_deal + 1
    return Review(tuple(shown), len(listed) - len(shown), len(rows), len(rows) - len(listed), perfect, first,
                  state.rules.tricks_per_deal, meld, state.bid, state.bidder, clock() - began)


def _analysis(record: MatchRecord, limit: float) -> Any:
    """The double-dummy analysis of the record's last deal (None: no play recorded)."""
    from ..solver.analyze import analyze_deal, playable_deals

    deal = record.deals[-1]
    if deal not in playable_deals(record):
        return None
    return analyze_deal(record, deal, time_limit=max(limit, 0.05), workers=1)


def _kind(act: Action) -> str:
    return {"bid": "call", "pass": "call", "give": "pass", "bury": "bury", "play": "card"}[act.kind]


def _judge(state: DealState, seat: int, index: int, act: Action, analysis: Any,
           asked: Callable[[int], Action | None], advised: Action | None, seconds: float) -> JudgedDecision:
    """One decision judged double-dummy; its advice where the session kept one (asked now for a pass or bury, whose
    cost depends on it)."""
    kind = _kind(act)
    if kind in ("pass", "bury"):
        return _exchange_cost(state, seat, index, act, asked(index), analysis, seconds)
    if kind == "card":
        trick = _trick_of(state, index)
        verdict = next((v for v in (analysis.verdicts if analysis is not None else ())
                        if v.trick == trick and v.seat == seat), None)
        if verdict is None:
            note = "no play recorded" if analysis is None else "not analysed in the time"
            return JudgedDecision(kind, index, trick, act, advised, None, None, "counters", note)
        best = str(verdict.better) if verdict.better is not None else str(act.card)
        return JudgedDecision(kind, index, trick, act, advised, best, verdict.cost, "counters")
    return JudgedDecision(kind, index, 0, act, advised, None, None, note="only the last call is judged double-dummy")


def _trick_of(state: DealState, index: int) -> int:
    """The trick (from 1) of the card that is action ``index``; 0 for an action before the play."""
    plays = [i for i, a in enumerate(state.history) if a.kind == "play"]
    return plays.index(index) // state.rules.players + 1 if index in plays else 0


def _kept(advice: Mapping[int, dict[str, Any]], index: int) -> Action | None:
    """The advice the session kept for the decision at action ``index`` (None: none asked)."""
    kept = advice.get(index)
    if kept is None or kept.get("best") is None:
        return None
    return Action.from_json(kept["best"])


def _advised(state: DealState, seat: int, index: int, advice: Mapping[int, dict[str, Any]], seconds: float,
             seed: int, end: float, clock: Callable[[], float]) -> Action | None:
    """The advice at action ``index``: kept from the session, else asked now while the time lasts."""
    kept = _kept(advice, index)
    if kept is not None:
        return kept
    left = end - clock()
    if left <= 0.05:
        return None
    from .advising import advise

    try:
        got = advise(state_at(state, index), seat, seconds=min(seconds, left), seed=seed)
    except PinochleError:
        return None
    return got.best


def _call_cost(state: DealState, seat: int, row: JudgedDecision, analysis: Any) -> JudgedDecision:
    """The last call judged by the contract solved from its first card (see the module docstring)."""
    rules, bidder, bid = state.rules, state.bidder, state.bid
    if bidder != seat or bid is None or row.played.kind != "bid":
        return replace(row, note="the contract was not yours: it is not solved with you as bidder")
    if analysis is None or analysis.perfect is None or analysis.first_trick != 1:
        return replace(row, note="the contract was not solved from its first card in the time")
    facts = state.facts()
    perfect = analysis.perfect
    side = rules.side_of(bidder)
    total = perfect + facts.meld[side]
    assert rules.auction is not None
    if total >= bid:
        return replace(row, best=f"made under perfect play ({total})", cost=0)
    smallest = _smallest_before(state, row.index)
    actual = _points(state, _with_counters(state, facts, perfect), seat)
    if smallest <= total:
        alt = _points(state, _with_counters(state, facts, perfect, smallest), seat)
        return replace(row, best=f"bid {smallest} (perfect play: {total})", cost=round(alt - actual))
    return replace(row, best=f"pass (perfect play: {total})", cost=round(0 - actual))


def _smallest_before(state: DealState, index: int) -> int:
    from ..player.turn import auction_facts

    return auction_facts(state_at(state, index))[0]


def _exchange_cost(state: DealState, seat: int, index: int, act: Action, advised: Action | None, analysis: Any,
                   seconds: float) -> JudgedDecision:
    """The pass, return or bury against the advice's, both deals solved from the first card."""
    kind = _kind(act)
    if advised is None:
        return JudgedDecision(kind, index, 0, act, None, None, None, note="no advice in the time")
    if advised.cards == act.cards:
        return JudgedDecision(kind, index, 0, act, advised, str(advised), 0)
    if analysis is None or analysis.perfect is None or analysis.first_trick != 1 or state.bidder is None:
        return JudgedDecision(kind, index, 0, act, advised, None, None,
                              note="the deal was not solved from its first card")
    try:
        alt = _replayed(state, index, advised)
        ours = _solved(alt, seconds)
    except (PinochleError, SearchLimitError) as exc:
        return JudgedDecision(kind, index, 0, act, advised, None, None, note=f"the other deal was not solved: {exc}")
    facts = state.facts()
    actual = _points(state, _with_counters(state, facts, analysis.perfect), seat)
    other = _points(alt, _with_counters(alt, replace(alt.facts(), counters=facts.counters), ours), seat)
    return JudgedDecision(kind, index, 0, act, advised, str(advised), round(other - actual))


def _replayed(state: DealState, index: int, instead: Action) -> DealState:
    """The deal with ``instead`` for action ``index``, the later actions up to the first card played again: the
    same where they still may be, else the computer's."""
    from ..player.turn import Computer

    alt = state_at(state, index)
    alt.apply(instead)
    computer = Computer(state.rules, 0)
    later: Sequence[Action] = state.history[index + 1:]
    for act in later:
        if alt.stage == "play":
            break
        try:
            alt.apply(Action("meld", act.seat, cards=alt.meld_shows(act.seat)) if act.kind == "meld"
                      and act.seat is not None else act)
        except PinochleError:
            alt.apply(computer.act(alt))
    while alt.stage not in ("play", "done"):
        alt.apply(computer.act(alt))
    return alt


def _solved(state: DealState, seconds: float) -> int:
    """The bidding side's counters from the first card under perfect play (the buried ones where they are its)."""
    from ..solver.state_view import position_of, solver_for

    rules = state.rules
    solver = solver_for(state, state.bidder, time_limit=seconds)
    value = solver.value(position_of(state))
    buried = state.buried
    if buried is not None and rules.bury is not None and rules.bury.counters == "bidder":
        value += sum(rules.counter_value(c) for c in buried)
    return value
