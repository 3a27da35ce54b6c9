"""The post-mortem of a recorded deal: could the bid have been made, and which cards cost points?

Every card of the recorded play is judged double-dummy (all hands visible, everyone perfect
afterwards): the counters its side would have ended the deal with had it played the best card,
and the counters it ends with after the card actually played. The difference is what the card
gave up. The bidding side is the solver's "our side" (the first seat's side when the game has
no bidder).

``view_deal`` judges the same cards again from each player's view at that moment (the hint:
the worlds consistent with the player's hand, the meld shown and the tricks so far): a card that
scores fewer points than the hint's best by what the player could see is a mistake; a card that
cost counters double-dummy but was the hint's best was unlucky.

The cards are judged as one batch (``solver.batch``, over ``workers`` processes) from the last card back
to the first, so each solver's table fills with the endings before the hard early positions; a time
limit (CPU seconds, every worker's) stops the work early and the first tricks are then reported as
not analysed. Tricks played while a stock lasts (whose hands change by drawing) are never analysed:
the analysis starts with the first trick after the stock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..cards import Card, Suit
from ..errors import Argument, HintError, Message, PlayError, SearchLimitError
from ..records import DealRecord, MatchRecord
from ..records.replay import record_state
from ..workers import KeptRunner, kept
from .batch import CHUNK, BatchFailure, BatchItem, BatchResult, SharedClock, solve_batch
from .solve import Position, check_time_limit
from .state_view import position_of

__all__ = ["VIEW_WORLDS", "CardVerdict", "DealAnalysis", "PlayerSummary", "PlayersView", "ViewVerdict", "analyze_deal",
           "analyze_deals", "playable_deals", "view_deal"]

# worlds the players' view solves for each card (fewer when the time runs short)
VIEW_WORLDS = 20

ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class CardVerdict:
    """One card judged: ``best`` is what the player's side ends the deal with after the best card,
    ``after`` after the card played; ``cost = best - after``; ``better``: a card keeping ``best``."""

    trick: int
    seat: int
    player: str
    card: Card
    best: int
    after: int
    better: Card | None

    @property
    def cost(self) -> int:
        return self.best - self.after


@dataclass(frozen=True)
class PlayerSummary:
    player: str
    # cards analysed
    cards: int
    # cards that gave up points
    costly: int
    # their total
    given_up: int


@dataclass(frozen=True)
class DealAnalysis:
    """A deal's verdicts; ``perfect``: the bidding side's counters for the deal had everyone played
    perfectly from trick ``first_trick`` on (None when nothing was analysed); ``taken``: what it took."""

    number: int
    side: str
    bidder: str | None
    bid: int | None
    meld: int
    trump: Suit
    taken: int
    perfect: int | None
    first_trick: int
    tricks: int
    # why the tricks before first_trick were not analysed
    stopped: str | None
    verdicts: tuple[CardVerdict, ...]
    seconds: float
    nodes: int

    @property
    def makeable(self) -> bool | None:
        """Was the bid makeable under perfect play (counters plus meld)? None without bid or full analysis."""
        if self.bid is None or self.perfect is None or self.first_trick != 1:
            return None
        return self.perfect + self.meld >= self.bid

    def players(self, seating: tuple[str, ...]) -> list[PlayerSummary]:
        rows = []
        for name in seating:
            mine = [v for v in self.verdicts if v.player == name]
            costly = [v for v in mine if v.cost > 0]
            rows.append(PlayerSummary(name, len(mine), len(costly), sum(v.cost for v in costly)))
        return rows


def playable_deals(record: MatchRecord) -> list[DealRecord]:
    """The deals of ``record`` with hands and a replayed play."""
    return [d for d in record.deals if d.played and d.play is not None and d.hands is not None]


@dataclass(frozen=True)
class _Step:
    trick: int
    seat: int
    pos: Position
    card: Card
    # our side's counters from the tricks before this position
    taken: int
    # our side's counters from the trick this card completes (0 if it completes none)
    gain: int


def _buried(record: MatchRecord, deal: DealRecord, bidder: int | None, goes_to: str) -> int:
    """The counters in the cards the bidder buried where ``bury.counters`` is ``goes_to`` (known to the analysis)."""
    rules = record.rules
    if rules.bury is None or rules.bury.counters != goes_to or bidder is None or deal.buried is None:
        return 0
    return sum(rules.counter_value(c) for c in deal.buried)


def _steps(record: MatchRecord, deal: DealRecord, us: int, bidder: int | None) -> tuple[list[_Step], int, int]:
    """The analysable positions in play order, the first trick among them, and our side's counters (the
    buried ones the bidder's from the start)."""
    rules = record.rules
    assert deal.play is not None
    state = record_state(record, deal, 0)
    ours = [s for s in range(rules.players) if rules.deal_side_of(s, bidder) == rules.deal_side_of(us, bidder)]
    steps: list[_Step] = []
    taken = _buried(record, deal, bidder, "bidder")
    first = len(deal.play) + 1
    for k, trick in enumerate(deal.play):
        judged = state.phase != "stock"
        before = sum(state.counters()[s] for s in ours)
        for card in trick:
            if judged:
                steps.append(_Step(k + 1, state.turn.seat or 0, position_of(state), card, taken, 0))
            state.play(card)
        gain = sum(state.counters()[s] for s in ours) - before
        if k == rules.tricks_per_deal - 1 and state.tricks[-1].winner in ours:
            gain += _buried(record, deal, bidder, "last-trick")
        if judged:
            first = min(first, k + 1)
            steps[-1] = replace(steps[-1], gain=gain)
        taken += gain
    return steps, first, taken


def _items(record: MatchRecord, deal: DealRecord, steps: list[_Step], us: int,
           bidder: int | None) -> list[BatchItem]:
    """Each step's card to judge, from the last card back to the first."""
    assert deal.trump is not None
    rules = record.rules
    last = rules.last_trick + _buried(record, deal, bidder, "last-trick")
    return [BatchItem(rules, deal.trump, st.pos, us=us, bidder=bidder, last_trick=last, played=st.card)
            for st in reversed(steps)]


def analyze_deal(record: MatchRecord, deal: DealRecord, *, time_limit: float | None = None,
                 progress: ProgressCallback | None = None, clock: Callable[[], float] = time.process_time,
                 workers: int = 1, chunk: int = CHUNK) -> DealAnalysis:
    """Judge every card of ``deal`` (see the module docstring); ``progress(done, total)`` after each card.

    ``workers`` processes judge the cards, each taking ``chunk`` consecutive ones at a time from the last card
    back; the verdicts do not depend on either. ``time_limit``: CPU seconds of ``clock`` with one worker, of
    every worker's CPU time with more. A deal without a recorded play is a ``PlayError``, and so is a time limit
    out of range (``solve.check_time_limit``); reaching the time limit is not an error (``stopped`` says so).
    """
    if not deal.played or deal.play is None or deal.hands is None or deal.trump is None:
        raise PlayError(f"deal {deal.number} has no recorded play to analyse (it needs hands: and play:)")
    table = record.table
    bidder = table.seat_of(deal.bidder) if deal.bidder is not None else None
    us = bidder if bidder is not None else 0
    check_time_limit(time_limit)
    steps, first, taken = _steps(record, deal, us, bidder)
    spent = clock if workers <= 1 else SharedClock()
    start = spent()
    judged: list[CardVerdict] = []
    values = [0] * len(steps)
    done_from, nodes = len(steps), 0
    stopped: str | None = None
    results = solve_batch(_items(record, deal, steps, us, bidder), workers=workers, chunk=chunk,
                          time_limit=time_limit, clock=spent)
    try:
        for i, result in zip(range(len(steps) - 1, -1, -1), results, strict=True):
            if isinstance(result, BatchFailure):
                if result.kind == SearchLimitError.__name__:
                    stopped = "time limit"
                    break
                raise PlayError(result.error, parameter=result.parameter)
            judged.append(_verdict(record, steps[i], result, us, bidder))
            values[i], done_from, nodes = result.value, i, nodes + result.nodes
            if progress is not None:
                progress(len(steps) - i, len(steps))
    finally:
        results.close()
    first_done = _first_whole_trick(steps, done_from, len(deal.play))
    whole = tuple(v for v in reversed(judged) if v.trick >= first_done)
    at = next((i for i, st in enumerate(steps) if st.trick == first_done), None)
    perfect = None if at is None else steps[at].taken + values[at]
    if first_done == first:
        stopped = "stock" if first > 1 else None
    bidder_side = table.side_of_seat(us)
    return DealAnalysis(deal.number, table.sides[bidder_side], deal.bidder, deal.bid, deal.meld[bidder_side],
                        deal.trump, taken, perfect, first_done, len(deal.play), stopped, whole, spent() - start,
                        nodes)


def analyze_deals(record: MatchRecord, deals: Sequence[DealRecord], *, time_limit: float | None = None,
                  workers: int = 1, progress: ProgressCallback | None = None) -> list[DealAnalysis]:
    """``analyze_deal`` of each of ``deals`` (of ``record``), in order; ``time_limit`` is per deal. With more than
    one deal and worker the deals are spread over ``workers`` processes, each judging one deal at a time alone
    (the deal's CPU time its process's); one deal is judged over the workers. ``progress(done, total)`` after
    each deal. The analyses are those of ``analyze_deal`` with any number of workers."""
    check_time_limit(time_limit)
    if len(deals) == 1:
        one = analyze_deal(record, deals[0], time_limit=time_limit, workers=workers)
        if progress is not None:
            progress(1, 1)
        return [one]
    jobs = [(record.deals.index(deal), time_limit) for deal in deals]
    runner = KeptRunner(record, workers, _analyze_one, _analyze_kept)
    done: list[DealAnalysis] = []
    try:
        for analysis in runner.run(jobs):
            done.append(analysis)
            if progress is not None:
                progress(len(done), len(jobs))
    except BaseException:
        runner.close(interrupted=True)
        raise
    runner.close()
    return done


def _analyze_one(record: MatchRecord, job: tuple[int, float | None]) -> DealAnalysis:
    index, limit = job
    return analyze_deal(record, record.deals[index], time_limit=limit)


def _analyze_kept(job: tuple[int, float | None]) -> DealAnalysis:
    return _analyze_one(kept(MatchRecord), job)


def _verdict(record: MatchRecord, step: _Step, result: BatchResult, us: int, bidder: int | None) -> CardVerdict:
    """The card's verdict in its player's side's counters for the deal."""
    rules = record.rules
    assert result.after is not None
    best, after = step.taken + result.value, step.taken + result.after
    if rules.deal_side_of(step.seat, bidder) != rules.deal_side_of(us, bidder):
        best, after = rules.counter_total - best, rules.counter_total - after
    return CardVerdict(step.trick, step.seat, record.table.seating[step.seat], step.card, best, after, result.better)


def _first_whole_trick(steps: list[_Step], done_from: int, tricks: int) -> int:
    """The first trick whose every card was judged (``steps[done_from:]`` were)."""
    if done_from >= len(steps):
        return tricks + 1
    step = steps[done_from]
    return step.trick if not step.pos.trick else step.trick + 1


@dataclass(frozen=True)
class ViewVerdict:
    """A card judged from its player's view: ``best`` the hint's card, ``lost`` the points (the deal's score, our
    side minus theirs, by the player's view) the card played gave up against it; ``cost`` the double-dummy cost."""

    trick: int
    seat: int
    player: str
    card: Card
    best: Card
    lost: float
    worlds: int
    exact: bool
    cost: int

    @property
    def verdict(self) -> str:
        """``mistake`` (by what the player could see), ``unlucky`` (only the double-dummy view shows it) or ``fine``."""
        if self.lost > _TIE:
            return "mistake"
        return "unlucky" if self.cost > 0 else "fine"


# points a card may trail the hint's best by and still count as as good (rounding of the means)
_TIE = 1e-9


@dataclass(frozen=True)
class PlayersView:
    """The cards of a deal judged from their players' view, in play order; ``first_trick``: the first trick whose
    every card was judged (the tricks before it ran out of time); ``seed`` and ``worlds``: what drew each card's
    worlds; ``not_judged``: the cards judged double-dummy but not from the player's view."""

    verdicts: tuple[ViewVerdict, ...]
    first_trick: int
    seconds: float
    seed: int = 1
    worlds: int = VIEW_WORLDS
    not_judged: int = 0


def _view_of(record: MatchRecord, deal: DealRecord, v: CardVerdict, worlds: int, seed: int,
             stop: Callable[[], bool]) -> ViewVerdict | None:
    """The card judged by the hint over ``worlds`` worlds drawn from ``seed``; None when ``stop()`` came first."""
    # the hint solves with this package's solver: imported here, as the hint imports it
    from ..hint.advice import hint

    assert deal.play is not None
    before = sum(len(t) for t in deal.play[:v.trick - 1])
    start = record_state(record, deal, before)
    state = record_state(record, deal, before + (v.seat - start.leader) % record.rules.players)
    legal = state.legal_plays()
    if len(legal) == 1:
        return ViewVerdict(v.trick, v.seat, v.player, v.card, v.card, 0.0, 0, True, v.cost)
    answer = hint(state, worlds=worlds, seconds=None, seed=seed, workers=1, names=record.table.seating, stop=stop)
    # a card judged over fewer worlds than drawn, or drawn while stopping, would depend on the time: not judged
    if len(answer.worlds) < answer.drawn or stop():
        return None
    points = {j.card: j.points for j in answer.cards}
    best = max(points.values())
    return ViewVerdict(v.trick, v.seat, v.player, v.card, answer.best, best - points[v.card], len(answer.worlds),
                       answer.exact, v.cost)


def view_deal(record: MatchRecord, analysis: DealAnalysis, deal: DealRecord, *, time_limit: float | None = None,
              worlds: int = VIEW_WORLDS, seed: int = 1, progress: ProgressCallback | None = None,
              clock: Callable[[], float] = time.process_time) -> PlayersView:
    """Judge each card ``analysis`` judged again from its player's view (see the module docstring), from the last
    card back, each over ``worlds`` worlds drawn from ``seed``; ``time_limit`` seconds of ``clock`` only stop the
    work early (the cards left are not judged), never change a verdict. ``progress(done, total)`` after each card."""
    check_time_limit(time_limit)
    if worlds < 1:
        raise HintError(Message(Argument("worlds", worlds), ": give 1 or more"))
    start = clock()

    def stop() -> bool:
        return time_limit is not None and clock() - start > time_limit

    cards = list(analysis.verdicts)
    judged: list[ViewVerdict] = []
    for i in range(len(cards) - 1, -1, -1):
        verdict = None if stop() else _view_of(record, deal, cards[i], worlds, seed, stop)
        if verdict is None:
            break
        judged.append(verdict)
        if progress is not None:
            progress(len(judged), len(cards))
    done = tuple(reversed(judged))
    first = analysis.tricks + 1 if not done else done[0].trick
    if done and any(v.trick == first for v in cards[:len(cards) - len(done)]):
        first += 1
    kept = tuple(v for v in done if v.trick >= first)
    return PlayersView(kept, first, clock() - start, seed, worlds, len(cards) - len(kept))
