"""The pass advice: every candidate on a few hundred common deals, then the deals go to those still in contention.

``advise(question)`` judges every distinct pass (``candidates``) on the first ``FIRST_DEALS`` deals
(100 when there are more than 1,000 candidates), then in rounds keeps the best quarter (never
fewer than ``top + 1``) and deals more to them, until the last ones have ``samples`` deals; the
heuristic's own pass is played on every deal as the reference. Candidates are ranked by what the
contract scores the bidding side on the same deals (meld kept + counters when made, minus the bid
when set), then by P(make); the best few are then played out (``played``, the final round), and
``pass_reasons`` says why the best (its lead, the meld it keeps, its P(make)). The same seed gives the
same advice whatever the number of workers.
Raises as ``PassQuestion.check`` and ``Judge`` do, and ``SimulationError`` for samples, top or seed
out of range. ``race`` is the machinery on any ``Judging`` (the bury's too: ``bury.advise_bury``).
The method: docs/estimate.md, "The pass".
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ..cards import Card, format_cards
from ..errors import Argument, Message, SimulationError
from ..estimate.interval import Z95, wilson_interval
from ..reasons import Reason, percent
from ..workers import KeptRunner, kept, workers_for
from .candidates import Pass, passes
from .explain import Words, explain
from .judge import Judge, Judging, PassQuestion, RaceOutcome, question_seed
from .played import FINAL_CANDIDATES, FINAL_DEALS, Final, Played, final_seed, solved_tricks

__all__ = ["CHUNK", "DEFAULT_SAMPLES", "DEFAULT_TOP", "FIRST_DEALS", "PASS_SECONDS", "Advice", "Difference", "Judged",
           "Race", "Said", "Raced", "advise", "check_run", "games_of", "judged_of", "race", "race_members", "schedule"]

# the advice's time at the defaults: the final round deals no more once its pace says it would end later
PASS_SECONDS = 9.0
# deals per chunk (the unit of seeding); every candidate gets FIRST_DEALS deals first, or (many candidates)
# as many chunks as FIRST_GAMES games allow, at least one
CHUNK = 100
FIRST_DEALS = 200
FIRST_GAMES = 100_000
# the deals the last candidates get by default, and how many are shown
DEFAULT_SAMPLES = 4000
DEFAULT_TOP = 5
MAX_SAMPLES = 200_000
# each round keeps this fraction of the candidates (at least top + 1) and gives them this many times the deals
KEEP = 4
GROWTH = 2.5
# rows (candidates × deals) of one job: the unit of parallel work
JOB_ROWS = 10_000


@dataclass(frozen=True)
class Difference:
    """A mean difference per deal on common deals (``a`` minus ``b``) with its 95 % normal interval."""

    mean: float
    ci95: tuple[float, float]

    @classmethod
    def of(cls, a: np.ndarray, b: np.ndarray) -> Difference:
        d = a.astype(np.float64) - b.astype(np.float64)
        n = len(d)
        mean = float(d.mean())
        half = Z95 * float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
        return cls(mean, (mean - half, mean + half))

    @property
    def noise(self) -> bool:
        """The interval holds 0: these two are not told apart."""
        return self.ci95[0] <= 0 <= self.ci95[1]

    def to_json(self) -> dict[str, Any]:
        return {"mean": round(self.mean, 4), "ci95": [round(self.ci95[0], 4), round(self.ci95[1], 4)]}


class Said(Protocol):
    """A candidate in words (``explain.Words``, ``burywords.BuryWords``)."""

    def text(self, verb: str) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Judged:
    """One candidate as judged on ``deals`` common deals."""

    cards: tuple[Card, ...]
    deals: int
    made: int
    ci95: tuple[float, float]
    meld_mean: float
    counters_mean: float
    # what the contract scores the side, on average
    points_mean: float
    # P(make) and the contract's points against the heuristic's pass on the same deals
    change: Difference
    points_change: Difference
    heuristic: bool
    words: Said

    @property
    def p_make(self) -> float:
        return self.made / self.deals

    def to_json(self, key: str = "pass") -> dict[str, Any]:
        return {key: [c.ascii() for c in self.cards], "deals": self.deals, "p_make": round(self.p_make, 4),
                "ci95": [round(self.ci95[0], 4), round(self.ci95[1], 4)], "meld_mean": round(self.meld_mean, 4),
                "counters_mean": round(self.counters_mean, 4), "points_mean": round(self.points_mean, 4),
                "change": self.change.to_json(), "points_change": self.points_change.to_json(),
                "heuristic": self.heuristic, "words": self.words.to_json()}


@dataclass(frozen=True)
class Raced:
    """What a pass's or a bury's advice holds of its race: the candidates offered, the rounds, the ranking."""

    seed: int
    candidates: int
    # (candidates judged, deals each) per round
    rounds: tuple[tuple[int, int], ...]
    ranked: tuple[Judged, ...]
    heuristic: Judged
    # the heuristic's place among the last round's candidates (None: it went out earlier, or a bury the rules
    # do not allow)
    heuristic_rank: int | None
    # the best minus the next: the contract's points and P(make) per deal (None: a single candidate)
    margin: Difference | None
    p_make_margin: Difference | None
    # the share of drawn deals that met the conditions (None: no conditions)
    acceptance: float | None = None

    @property
    def games(self) -> int:
        """The games played: every round's candidates and the heuristic's pass on that round's new deals."""
        return games_of(self.rounds)


@dataclass(frozen=True)
class Advice(Raced):
    question: PassQuestion = field(kw_only=True)
    # the final round (None: not played); ``ranked`` then starts with its candidates in its order
    final: Final | None = field(default=None, kw_only=True)

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """Why the best pass: one to three reasons, each with its figure (``pass_reasons``)."""
        return pass_reasons(self)

    def to_json(self) -> dict[str, Any]:
        q = self.question
        doc: dict[str, Any] = {"ruleset": q.rules.name, "role": q.role, "hand": q.hand.ascii(),
                "received": q.received.ascii() if q.received is not None else None, "trump": q.trump.letter,
                "bid": q.bid, "seed": self.seed, "candidates": self.candidates}
        out = {**doc, **race_members(self, "pass", q.given)}
        out["reasons"] = [r.to_json() for r in self.reasons]
        if self.final is not None:
            out["final"] = self.final.to_json()
        return out


def race_members(advice: Raced, key: str, given: Sequence[object]) -> dict[str, Any]:
    """The members of an advice's JSON document from ``rounds`` on (each candidate's cards named ``key``), and the
    conditions with their acceptance when there are any."""
    doc: dict[str, Any] = {
        "rounds": [{"candidates": c, "deals": d} for c, d in advice.rounds],
        "ranked": [j.to_json(key) for j in advice.ranked], "heuristic": advice.heuristic.to_json(key),
        "heuristic_rank": advice.heuristic_rank,
        "margin": advice.margin.to_json() if advice.margin is not None else None,
        "p_make_margin": advice.p_make_margin.to_json() if advice.p_make_margin is not None else None,
        "within_noise": advice.margin.noise if advice.margin is not None else None}
    if given:
        doc["conditions"] = [str(g) for g in given]
        doc["acceptance"] = None if advice.acceptance is None else round(advice.acceptance, 6)
    return doc


def schedule(candidates: int, samples: int, top: int) -> list[tuple[int, int]]:
    """The rounds: (candidates kept, deals each by the end of the round), the last with ``samples`` deals."""
    floor = min(candidates, top + 1)
    first = min(samples, FIRST_DEALS, max(CHUNK, CHUNK * math.ceil(FIRST_GAMES / max(candidates, 1) / CHUNK)))
    rounds = [(candidates, first)]
    while rounds[-1][1] < samples:
        n, d = rounds[-1]
        rounds.append((max(floor, math.ceil(n / KEEP)), min(samples, CHUNK * math.ceil(d * GROWTH / CHUNK))))
    return rounds


def check_run(samples: int, top: int, seed: int | None) -> None:
    if not 1 <= samples <= MAX_SAMPLES:
        raise SimulationError(Message(Argument("samples", samples), f": give between 1 and {MAX_SAMPLES:,} deals"))
    if top < 1:
        raise SimulationError(Message(Argument("top", top), ": show at least 1 pass"))
    if seed is not None and seed < 0:
        raise SimulationError(Message(Argument("seed", seed), ": seeds are non-negative integers"))


def advise(q: PassQuestion, *, samples: int = DEFAULT_SAMPLES, top: int = DEFAULT_TOP, seed: int | None = None,
           workers: int | None = None, progress: Callable[[int, int], None] | None = None,
           final_deals: int | None = None, seconds: float | None = PASS_SECONDS,
           clock: Callable[[], float] = time.monotonic) -> Advice:
    """The ranked passes for ``q`` (the module docstring says how); ``progress(done, total)`` counts games;
    ``final_deals``: the deals of the final round (``played``; 0: none, the race's ranking stands; None:
    ``FINAL_DEALS``, or ``samples`` when fewer: never more than the race's last round); ``seconds`` (of ``clock``,
    from the call): the final round deals no more once its pace says the advice would end later (None: no
    limit; ``Final.planned`` then says how many it would have played)."""
    check_run(samples, top, seed)
    end = None if seconds is None else clock() + seconds
    judge = Judge(q)
    seed = question_seed(q) if seed is None else seed
    cands = passes(q.hand, q.size)
    run = race(judge, cands, cands.index(judge.heuristic()), seed, samples=samples, top=top, workers=workers,
               progress=progress)
    final = None
    final_deals = min(FINAL_DEALS, samples) if final_deals is None else final_deals
    if final_deals > 0 and len(run.order) > 1:
        run, final = _final(q, run, seed, final_deals, workers, progress, _Budget(end, seconds, clock))

    def judged(cards: Pass, o: RaceOutcome, ref: RaceOutcome, heuristic: bool) -> Judged:
        sent = [Card.from_index(c) for c in cards]
        return judged_of(sent, o, ref, heuristic, explain(q.rules, q.hand, sent, q.trump))

    ranked, ref, rank, margin, p_make = run.ranking(top, judged)
    if final is not None:
        margin, p_make = final[1], final[2]
    return Advice(seed, run.offered, tuple(run.plan), ranked, ref, rank, margin, p_make, run.acceptance,
                  question=q, final=None if final is None else final[0])


@dataclass(frozen=True)
class _Budget:
    """When the advice should end (``end`` of ``clock``; None: no limit) and its ``seconds``."""

    end: float | None
    seconds: float | None
    clock: Callable[[], float]

    def go_on(self, began: float, done: int, more: int) -> bool:
        """Whether ``more`` deals fit before the end at the pace of the ``done`` played since ``began``."""
        if self.end is None or done <= 0:
            return True
        now = self.clock()
        return now + (now - began) / done * more <= self.end


def _final(q: PassQuestion, run: Race, seed: int, deals: int, workers: int | None,
           progress: Callable[[int, int], None] | None,
           budget: _Budget) -> tuple[Race, tuple[Final, Difference, Difference]]:
    """The race's best few played out (``played.Played``), a round of a chunk a worker at a time while the budget's
    pace allows (the first always): the race with its finalists in the final order, the final round, and its
    best's margins over the next."""
    finalists = list(run.order[:FINAL_CANDIDATES])
    base = games_of(run.plan)
    told = None if progress is None else (lambda done, total: progress(base + done, base + total))
    step = CHUNK * workers_for(workers)[0]
    plan = [(len(finalists), min(deals, d)) for d in range(step, deals + step, step)]
    began = budget.clock()
    played = race(Played(q), [run.cands[c] for c in finalists], 0, final_seed(seed), samples=deals,
                  top=len(finalists), workers=workers, progress=told, plan=plan,
                  go_on=lambda done: budget.go_on(began, done, min(step, deals - done)))
    order = [finalists[i] for i in played.order]
    first, second = played.joined[played.order[0]], played.joined[played.order[1]]
    outcomes = [played.joined[i] for i in played.order]
    final = Final(len(first.points), solved_tricks(q), tuple(run.cands[c] for c in order),
                  tuple(float(o.points.mean()) for o in outcomes), tuple(float(o.made.mean()) for o in outcomes),
                  tuple(run.order.index(c) + 1 for c in order), planned=deals, seconds=budget.seconds)
    reordered = dataclasses.replace(run, order=[*order, *run.order[len(finalists):]])
    return reordered, (final, Difference.of(first.points, second.points), Difference.of(first.made, second.made))


@dataclass(frozen=True)
class Race:
    """A race run: the candidates, the rounds, each last-round candidate's and the reference's outcomes on every
    deal it got, the last round's candidates best first, and the share of drawn deals that met the conditions."""

    cands: Sequence[Pass]
    offered: int
    plan: Sequence[tuple[int, int]]
    joined: dict[int, RaceOutcome]
    order: Sequence[int]
    reference: int
    acceptance: float | None

    def ranking(self, top: int, judged: Callable[[Pass, RaceOutcome, RaceOutcome, bool], Judged]) -> tuple[
            tuple[Judged, ...], Judged, int | None, Difference | None, Difference | None]:
        """The best ``top`` judged (``judged(cards, outcome, reference's outcome, is the reference)``), the
        reference judged, its rank (None: out before the last round), the best's margins over the next."""
        ref = self.joined[self.reference]
        ranked = tuple(judged(self.cands[c], self.joined[c], ref, c == self.reference) for c in self.order[:top])
        margin = p_make = None
        if len(self.order) > 1:
            a, b = self.joined[self.order[0]], self.joined[self.order[1]]
            margin, p_make = Difference.of(a.points, b.points), Difference.of(a.made, b.made)
        rank = self.order.index(self.reference) + 1 if self.reference in self.order else None
        return ranked, judged(self.cands[self.reference], ref, ref, True), rank, margin, p_make


def race(judge: Judging, cands: Sequence[Pass], reference: int, seed: int, *, samples: int, top: int,
         workers: int | None, progress: Callable[[int, int], None] | None = None, offered: int | None = None,
         plan: Sequence[tuple[int, int]] | None = None, go_on: Callable[[int], bool] | None = None) -> Race:
    """The candidates ``cands`` raced on ``judge``'s common deals; ``cands[reference]`` played on every deal. Only
    the first ``offered`` (default: all) are ranked: a reference after them is played, never offered. ``plan``:
    the rounds (default ``schedule``); ``go_on(deals so far)``, asked before each round after the first: False
    ends the race there (its ``plan`` then holds the rounds played)."""
    offered = len(cands) if offered is None else offered
    plan = schedule(offered, samples, top) if plan is None else list(plan)
    acceptance = judge.acceptance(seed, plan[-1][1])
    total = games_of(plan)
    runner = _Runner(judge, workers_for(workers)[0])
    results: dict[int, list[RaceOutcome]] = {}
    alive = list(range(offered))
    done, dealt = 0, 0
    try:
        for i, (keep_n, deals) in enumerate(plan):
            if i and go_on is not None and not go_on(dealt):
                plan = plan[:i]
                break
            if i:
                alive = _best(alive, results, keep_n, reference)
            playing = sorted(set(alive) | {reference})
            for block, outcome in runner.run(_jobs([cands[c] for c in playing], dealt, deals, seed)):
                for c, row in zip(playing[block[0]:block[1]], _rows(outcome), strict=True):
                    results.setdefault(c, []).append(row)
                done += (block[1] - block[0]) * outcome.made.shape[1]
                if progress is not None:
                    progress(done, total)
            dealt = deals
    except BaseException:
        runner.close(interrupted=True)
        raise
    runner.close()
    joined = {c: _joined(results[c]) for c in set(alive) | {reference}}
    order = sorted(alive, key=lambda c: _key(joined[c], c))
    return Race(cands, offered, plan, joined, order, reference, acceptance)


def games_of(plan: Sequence[tuple[int, int]]) -> int:
    """The games a race of ``plan`` plays: each round's candidates and the heuristic's on that round's new deals."""
    total, before = 0, 0
    for n, d in plan:
        total += (n + 1) * (d - before)
        before = d
    return total


def _rows(o: RaceOutcome) -> Iterable[RaceOutcome]:
    for i in range(o.made.shape[0]):
        yield RaceOutcome(o.made[i], o.meld[i], o.counters[i], o.points[i])


def _joined(parts: Sequence[RaceOutcome]) -> RaceOutcome:
    return RaceOutcome(np.concatenate([p.made for p in parts]), np.concatenate([p.meld for p in parts]),
                       np.concatenate([p.counters for p in parts]), np.concatenate([p.points for p in parts]))


def _key(o: RaceOutcome, c: int) -> tuple[int, int, int]:
    """The most points from the contract, then the most deals made, then the first in the candidates' order."""
    return (-int(o.points.sum()), -int(o.made.sum()), c)


def _best(alive: Sequence[int], results: dict[int, list[RaceOutcome]], n: int, reference: int) -> list[int]:
    joined = {c: _joined(results[c]) for c in alive}
    return sorted(alive, key=lambda c: _key(joined[c], c))[:n]


# a job: (first, last) positions of its candidates, the candidates, chunk index, deals, seed
RaceJob = tuple[tuple[int, int], tuple[Pass, ...], int, int, int]


def _jobs(cands: Sequence[Pass], first: int, last: int, seed: int) -> list[RaceJob]:
    """Deals ``first`` … ``last - 1`` (chunk by chunk) for every candidate, in blocks of about ``JOB_ROWS``."""
    out = []
    for start in range(first, last, CHUNK):
        n = min(CHUNK, last - start)
        per = max(1, JOB_ROWS // n)
        for i in range(0, len(cands), per):
            block = tuple(cands[i:i + per])
            out.append(((i, i + len(block)), block, start // CHUNK, n, seed))
    return out


def _play(judge: Judging, job: RaceJob) -> tuple[tuple[int, int], RaceOutcome]:
    block, cands, index, n, seed = job
    return block, judge.play(cands, judge.deal(index, n, seed))


def _work(job: RaceJob) -> tuple[tuple[int, int], RaceOutcome]:
    return _play(kept(Judging), job)


class _Runner(KeptRunner[RaceJob, tuple[tuple[int, int], RaceOutcome]]):
    """Runs jobs here or in a pool of workers; results in job order."""

    def __init__(self, judge: Judging, workers: int) -> None:
        super().__init__(judge, workers, _play, _work)
        self.judge = judge


def judged_of(cards: Sequence[Card], o: RaceOutcome, ref: RaceOutcome, heuristic: bool, words: Said) -> Judged:
    """One candidate's outcomes judged against the reference's on the same deals."""
    n = len(o.made)
    made = int(o.made.sum())
    return Judged(tuple(sorted(cards)), n, made, wilson_interval(made, n), float(o.meld.mean()),
                  float(o.counters.mean()), float(o.points.mean()), Difference.of(o.made, ref.made[:n]),
                  Difference.of(o.points, ref.points[:n]), heuristic, words)


def pass_reasons(advice: Advice) -> tuple[Reason, ...]:
    """One to three reasons for ``advice.ranked[0]``."""
    q, best = advice.question, advice.ranked[0]
    out: list[Reason] = []
    m = advice.margin
    if m is not None and len(advice.ranked) > 1:
        how = ("played out (the computer's openings, the last tricks solved exactly)" if advice.final is not None
               else "with the computer's play")
        out.append(Reason(f"{how}, it scores {m.mean:+.1f} points a deal against the next best, "
                          f"{format_cards(advice.ranked[1].cards)}", m.mean, "points a deal", m.ci95))
    w = best.words
    if not isinstance(w, Words):
        return tuple(out)
    verb = "keeps" if q.role == "partner" else "keeps back"
    if w.kept:
        out.append(Reason(f"{verb} {', '.join(w.kept)}: {w.kept_meld} meld in the hand that passes",
                          float(w.kept_meld), "meld points"))
    elif w.whole:
        out.append(Reason(f"passes {', '.join(w.whole)} whole; {w.kept_meld} meld stays in the hand that passes",
                          float(w.kept_meld), "meld points"))
    sent = [*w.trumps, *w.tops]
    what = f"sends {format_cards(sent)}: " if sent else ""
    out.append(Reason(f"{what}the bid of {q.bid} is made {percent(best.p_make)} of the time with this pass",
                      best.p_make, "P(make)", best.ci95))
    return tuple(out[:3])
