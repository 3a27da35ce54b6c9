"""``hint``: the worlds drawn first (from the seed alone), then judged in order while the time lasts.

Every legal card is judged in every world the same way (``values.plan_for``): solved exactly where few
cards are left, else played on by the computer player and the rest solved exactly. The worlds are
judged in order on the machine's cores (``judging``) until the best card is clear — at least
``EARLY_STOP_AT`` worlds judged and the paired 95 % interval of its lead over the next card above 0 —
or every world drawn is judged, or the time is up (``seconds`` of ``clock``: the drawing, the judging
and a reserve for printing), or ``stop()``. The answer depends on the seed and on how many worlds were
judged, never on the number of workers. The answer says how it was reached (``Hint.why``) and warns
when too few worlds were judged to rank the cards (``RELIABLE_WORLDS``); ``card_reasons`` says why the best
card (its lead over the next, P(make), the counters). The stages and the figures
behind them: docs/hint.md.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import Card
from ..errors import Argument, HintError, Message
from ..game.state import DealState
from ..reasons import Reason, percent
from .facts import Facts, facts_of
from .inference import Inference, infer
from .judging import WorldsJudged, judge_worlds
from .values import Plan, Valued, WorldValues, plan_for
from .weigh import CardJudgement, best_card, judge, last_trick_worth, world_points
from .worlds import World, Worlds, draw_worlds

__all__ = ["CALIBRATE_FOR", "DEFAULT_WORLDS", "EARLY_STOP_AT", "RELIABLE_WORLDS", "Hint", "Margin", "hint",
           "hint_facts"]

# the most worlds judged when the number is not given
DEFAULT_WORLDS = 200
# the share of the time the drawing may take when the worlds are many
_DRAW_SHARE = 0.3
# the time kept back for printing the answer: a share, and at least this many seconds
_RESERVE_SHARE, _RESERVE = 0.04, 0.1
# the judging stops early once this many worlds are judged and the best card leads the next beyond the noise
EARLY_STOP_AT = 100
# fewer worlds judged than this: the ranking is said to be unreliable
RELIABLE_WORLDS = 20
# the worlds a plan must be able to judge in the time, or a cheaper one is taken; the share of the time left that
# one trial (a world a thread) may take, and what each trick fewer solved exactly divides a world's time by
CALIBRATE_FOR = EARLY_STOP_AT
_TRIAL_SHARE, _PER_TRICK = 0.25, 3.0
# a world's time varies widely from world to world: the first ones' pace is taken as this much too fast
_MARGIN = 3.0
# a deeper plan is tried only when the last run's pace, times ``_PER_TRICK``, fits the time left this many times
_DEEPEN_MARGIN = 1.0
# the two-sided 95 % normal quantile
_Z95 = 1.959963984540054


@dataclass(frozen=True)
class Margin:
    """The best card's lead over ``second`` in points, over the same worlds: the mean and its 95 % interval;
    ``clear``: the interval lies above 0."""

    second: Card
    mean: float
    low: float
    high: float

    @property
    def clear(self) -> bool:
        return self.low > 0


@dataclass(frozen=True)
class Hint:
    """The answer: ``cards`` judged over ``worlds`` (the ones judged, in order), ``best`` the card to play.

    ``exact``: every consistent world judged; ``drawn``: the worlds drawn (a sample) or consistent (exact);
    ``plan``: how the cards were judged; ``method``: ``exact`` or ``estimated`` for every world; ``margin``:
    the best card's lead over the next (None with one legal card); ``why``: ``enough``, ``all``, ``time`` or
    ``stopped``; ``skipped``: worlds given up as too costly to solve; ``leads``: the best card's lead over each
    other card over the same worlds (``within_noise`` reads them).
    """

    to_play: int
    best: Card
    cards: tuple[CardJudgement, ...]
    worlds: tuple[World, ...]
    exact: bool
    drawn: int
    layouts: int
    inferences: tuple[Inference, ...]
    seconds: float
    plan: str = ""
    method: str = "exact"
    why: str = "all"
    skipped: int = 0
    # the plan the worlds were judged by (None: as ``plan_for``)
    scheme: Plan | None = None
    # the best card's lead over each other card, the next first (``margin`` is the first)
    leads: tuple[Margin, ...] = ()

    @property
    def margin(self) -> Margin | None:
        """The best card's lead over the next (None with one legal card)."""
        return self.leads[0] if self.leads else None

    @property
    def cut_short(self) -> bool:
        """The time (or a stop) ended the judging before the worlds drawn were judged or the best was clear."""
        return self.why in ("time", "stopped")

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """Why the best card: one to three reasons, each with its figure (``card_reasons``)."""
        return card_reasons(self)

    def within_noise(self, card: Card) -> bool:
        """``card`` is the best, or behind it by no more than the noise: the 95 % interval of the best's lead over it
        reaches 0."""
        return card == self.best or any(m.second == card and not m.clear for m in self.leads)

    @property
    def reliable(self) -> bool:
        """Enough worlds judged to rank the cards (or every consistent one)."""
        return self.exact or len(self.worlds) >= RELIABLE_WORLDS


def hint(state: DealState, seat: int | None = None, *, worlds: int | None = None, seconds: float | None = 5.0,
         seed: int = 1, workers: int = 1, names: Sequence[str] | None = None,
         clock: Callable[[], float] = time.monotonic, stop: Callable[[], bool] | None = None,
         give_up: Callable[[], bool] | None = None) -> Hint:
    """The hint for ``seat`` (default: the player to move) in the deal ``state``, from what that seat has seen
    (``facts_of``); the rest as ``hint_facts``."""
    return hint_facts(facts_of(state, seat), worlds=worlds, seconds=seconds, seed=seed, workers=workers,
                      names=names, clock=clock, stop=stop, give_up=give_up)


def hint_facts(facts: Facts, *, worlds: int | None = None, seconds: float | None = 5.0, seed: int = 1,
               workers: int = 1, names: Sequence[str] | None = None, clock: Callable[[], float] = time.monotonic,
               stop: Callable[[], bool] | None = None, plan: Plan | None = None,
               give_up: Callable[[], bool] | None = None) -> Hint:
    """The hint for ``facts.seat`` (see the module docstring): at most ``worlds`` worlds (default
    ``DEFAULT_WORLDS``), within ``seconds`` (None: no limit) on ``workers`` threads; ``plan``: how the cards are
    judged (default ``plan_for(facts)``); ``give_up``: ``HintError`` when it is true before any world is drawn
    (default: drawing goes on until one is)."""
    if worlds is not None and worlds < 1:
        raise HintError(Message(Argument("worlds", worlds), ": give 1 or more"))
    if seconds is not None and not seconds > 0:
        raise HintError(Message(Argument("time", seconds), ": give seconds above 0"))
    start = clock()
    end = None if seconds is None else start + seconds - max(_RESERVE, _RESERVE_SHARE * seconds)

    def late(share: float) -> bool:
        return seconds is not None and clock() - start > seconds * share

    def drawn_enough() -> bool:
        return late(_DRAW_SHARE) or (stop is not None and stop())

    inferences = infer(facts, names)
    drawn = draw_worlds(facts, inferences, worlds or DEFAULT_WORLDS, random.Random(seed), until=drawn_enough,
                        give_up=give_up)
    values = WorldValues(facts)
    deal = drawn.worlds
    # each world's values under the plan they were judged by: the calibration's are kept
    kept_values: dict[tuple[Plan, int], Valued] = {}
    index = {id(w): i for i, w in enumerate(deal)}

    def judged_by(chosen: Plan) -> Callable[[World], Valued]:
        def value(world: World) -> Valued:
            key = (chosen, index[id(world)])
            if key not in kept_values:
                kept_values[key] = values.value(world, chosen, last_trick_worth(facts, world), end)
            return kept_values[key]
        return value

    calibrated = plan is None
    if plan is None:
        plan = _calibrated(facts, deal, judged_by, workers, end, clock)
    began = clock()
    judged = _judge(facts, deal, judged_by(plan), workers, end, clock, stop)
    if calibrated and judged.values:
        plan, judged = _deepened(facts, deal, judged_by, plan, (judged, clock() - began), workers, end, clock, stop)
    if not judged.values:
        plan = Plan(False, 0)
        grace = None if seconds is None else clock() + max(_RESERVE, _RESERVE_SHARE * seconds)
        judged = _at_least_one(deal, judged_by(plan), judged.why, workers, grace, clock, stop)
    return _answer(facts, drawn, judged, plan, tuple(inferences), clock() - start)


def _answer(facts: Facts, drawn: Worlds, judged: WorldsJudged[Valued], plan: Plan,
            inferences: tuple[Inference, ...], seconds: float) -> Hint:
    """The hint from the worlds judged: each card's figures, the best card and its margin over the next."""
    deal = drawn.worlds
    found = list(judged.values)
    kept = tuple(deal[i] for i in judged.indices)
    cards = judge(facts, kept, [list(v.plays) for v in found])
    exact = drawn.exact and len(kept) == len(deal)
    method = "exact" if all(v.exact for v in found) else "estimated"
    final = _Points(facts)
    final.extend(list(kept), found)
    return Hint(facts.seat, best_card(cards), tuple(cards), kept, exact, len(deal), drawn.layouts,
                inferences, seconds, plan.words(facts), method, judged.why, judged.skipped, plan, final.leads())


def _judge(facts: Facts, deal: Sequence[World], value: Callable[[World], Valued], workers: int, end: float | None,
           clock: Callable[[], float], stop: Callable[[], bool] | None) -> WorldsJudged[Valued]:
    """``deal`` judged in order by ``value`` until the best card is clear (``EARLY_STOP_AT`` worlds or more and its
    margin above 0), every world is judged, ``end`` or ``stop()``."""
    points = _Points(facts)

    def enough(indices: list[int], found: list[Valued]) -> bool:
        points.extend([deal[i] for i in indices], found)
        if len(found) < EARLY_STOP_AT:
            return False
        margin = points.margin()
        return margin is not None and margin.clear

    return judge_worlds(deal, value, workers=workers, deadline=end, clock=clock, enough=enough, stop=stop)


def _deepened(facts: Facts, deal: Sequence[World], judged_by: Callable[[Plan], Callable[[World], Valued]],
              plan: Plan, last: tuple[WorldsJudged[Valued], float], workers: int, end: float | None,
              clock: Callable[[], float], stop: Callable[[], bool] | None) -> tuple[Plan, WorldsJudged[Valued]]:
    """A calibrated plan's judging ended (enough or all) with time left: the same worlds judged again by a plan
    solving one trick more exactly, while the last run's pace (``last``: its worlds and seconds) says the next
    fits in the time left; a deeper run cut short before ``CALIBRATE_FOR`` worlds is dropped."""
    judged, spent = last
    full = plan_for(facts)
    while not plan.exact and plan.tail < full.tail and end is not None and judged.why in ("enough", "all"):
        deeper = full if plan.tail + 1 >= full.tail else Plan(False, plan.tail + 1)
        need = min(CALIBRATE_FOR, len(deal))
        per_world = spent / max(1, len(judged.values) + judged.skipped)
        if per_world * _PER_TRICK * need * _DEEPEN_MARGIN > end - clock():
            break
        began = clock()
        trial = _judge(facts, deal, judged_by(deeper), workers, end, clock, stop)
        if trial.why not in ("enough", "all") and len(trial.values) < need:
            break
        plan, judged, spent = deeper, trial, clock() - began
    return plan, judged


def _at_least_one(deal: Sequence[World], value: Callable[[World], Valued], why: str, workers: int,
                  grace: float | None, clock: Callable[[], float],
                  stop: Callable[[], bool] | None) -> WorldsJudged[Valued]:
    """No world judged in the time, or stopped first: the first world judged by ``value`` (the computer's play
    alone: fast) and, out of time, more until ``grace``."""
    judged = judge_worlds(deal[:1], value, workers=1, deadline=None, clock=clock, enough=lambda i, v: False)
    if why != "time":
        return WorldsJudged(judged.values, judged.indices, judged.skipped, why)
    more = judge_worlds(deal[1:], value, workers=workers, deadline=grace, clock=clock, enough=lambda i, v: False,
                        stop=stop)
    return WorldsJudged(judged.values + more.values, judged.indices + tuple(i + 1 for i in more.indices),
                  judged.skipped + more.skipped, why)


def _calibrated(facts: Facts, deal: Sequence[World], judged_by: Callable[[Plan], Callable[[World], Valued]],
                workers: int, end: float | None, clock: Callable[[], float]) -> Plan:
    """The plan to judge ``deal`` by within the time: ``plan_for``'s, or — when its first worlds, one a thread,
    show that ``CALIBRATE_FOR`` worlds would not be judged by ``end`` — one that solves fewer tricks exactly."""
    plan = plan_for(facts)
    if end is None:
        return plan
    while plan.tail > 1:
        first = deal[:workers]
        began = clock()
        trial = judge_worlds(first, judged_by(plan), workers=workers, deadline=began + (end - began) * _TRIAL_SHARE,
                             clock=clock, enough=lambda i, v: False)
        spent = clock() - began
        if trial.values and len(trial.values) == len(first):
            rounds = math.ceil(min(CALIBRATE_FOR, len(deal)) / max(1, workers)) - 1
            needed = spent * rounds * _MARGIN
            if needed <= end - clock():
                return plan
            # each trick fewer solved exactly cuts the search about threefold (docs/hint.md, "Pace")
            ratio = max(needed / max(end - clock(), 1e-3), _PER_TRICK)
            cut = max(1, math.ceil(math.log(ratio) / math.log(_PER_TRICK)))
        else:
            cut = 2
        plan = Plan(False, max(1, plan.tail - cut))
    return plan


class _Points:
    """Each world's points per card (our side's score minus theirs), kept as the worlds come, and the best card's
    lead over the next with its 95 % interval over the same worlds."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.rows: list[list[float]] = []
        self.weights: list[int] = []
        self.cards: list[Card] = []
        self.counters: list[list[int]] = []

    def extend(self, worlds: Sequence[World], found: Sequence[Valued]) -> None:
        """Add the worlds of ``found`` not added yet (``worlds[i]`` is ``found[i]``'s)."""
        new = range(len(self.rows), len(found))
        if not new:
            return
        plays = [list(found[i].plays) for i in new]
        if not self.cards:
            self.cards = [c for c, _ in plays[0]]
        scored = world_points(self.facts, [worlds[i] for i in new], plays)
        self.rows += [[row[c] for c in self.cards] for row in scored]
        self.counters += [[dict(p)[c] for c in self.cards] for p in plays]
        self.weights += [worlds[i].weight for i in new]

    def margin(self) -> Margin | None:
        """The best card's lead over the next (None with one card or no world)."""
        leads = self.leads(1)
        return leads[0] if leads else None

    def leads(self, most: int | None = None) -> tuple[Margin, ...]:
        """The best card's lead over each other card (at most ``most`` of them), the next first (the best: most
        points, then most counters, then the first in hand order, as ``best_card``)."""
        if len(self.cards) < 2 or not self.rows:
            return ()
        w = np.array(self.weights, dtype=float)
        rows, counters = np.array(self.rows), np.array(self.counters, dtype=float)
        mean = w @ rows / w.sum()
        tie = w @ counters / w.sum()
        order = sorted(range(len(self.cards)), key=lambda i: (-mean[i], -tie[i], i))
        others = order[1:] if most is None else order[1:1 + most]
        return tuple(self._lead(w, rows[:, order[0]] - rows[:, other], self.cards[other]) for other in others)

    @staticmethod
    def _lead(w: np.ndarray, diffs: np.ndarray, other: Card) -> Margin:
        """The weighted mean of ``diffs`` (one a world) with its 95 % interval: the lead over ``other``."""
        n = len(diffs)
        lead = float(w @ diffs / w.sum())
        if n < 2:
            return Margin(other, lead, -math.inf, math.inf)
        var = float(w @ (diffs - lead) ** 2 / w.sum()) * n / (n - 1)
        half = _Z95 * math.sqrt(var / n)
        return Margin(other, lead, lead - half, lead + half)


def card_reasons(h: Hint) -> tuple[Reason, ...]:
    """One to three reasons for ``h.best``."""
    best = next(j for j in h.cards if j.card == h.best)
    n = len(h.worlds)
    out: list[Reason] = []
    m = h.margin
    if m is None:
        out.append(Reason(f"{h.best} is the only card you may play", 1.0, "legal cards"))
    else:
        out.append(Reason(f"{h.best} scores {m.mean:+.1f} points for our side against {m.second}, the next best, over "
                          f"the same {n} worlds", m.mean, "points", (m.low, m.high)))
    if best.p_make is not None:
        # the same chance whatever is played is no reason for this card: it says the counters decide
        same = len(h.cards) > 1 and all(j.p_make == best.p_make for j in h.cards)
        text = (f"the bid is made {percent(best.p_make)} of the time whatever you play, so the counters decide"
                if same else f"with {h.best} the bid is made {percent(best.p_make)} of the time")
        out.append(Reason(text, best.p_make, "P(make)"))
    out.append(Reason(f"our side takes {best.counters:.1f} in counters from here on", best.counters, "counters"))
    return tuple(out[:3])
