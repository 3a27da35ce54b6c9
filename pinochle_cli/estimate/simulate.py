"""Monte Carlo bid estimates: ``estimate`` samples deals in chunks, plays them out and tallies each bid.

The chunks run in this process or on worker processes (``games.TallyRunner``), more of them until every
interval is narrow enough with ``precision``; the deals are conditioned on what is known of the unseen
hands (``conditioned``) and each bid's expected points are added (``points``) when asked. The same
seed gives the same answer whatever the number of workers. The model, its seeds and its engine:
docs/estimate.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

from ..cards import Card, Hand, Suit, as_suit
from ..errors import Argument, Message, SimulationError
from ..ruleset import Ruleset
from ..workers import workers_for
from .checks import (
    AHEAD_JOBS,
    CHUNK,
    DEFAULT_CONFIDENCE,
    DEFAULT_SAMPLES,
    JOB_CHUNKS,
    MAX_SAMPLES,
    MIN_PRECISION,
    SAMPLES_LIMIT,
    check_full_hand,
    check_pass_policy,
    default_seed,
    estimable_trumps,
)
from .conditioned import ConditionedSimulator
from .conditions import Given
from .games import ChunkJob, Simulator, Tally, TallyRunner
from .interval import samples_for_half_width
from .results import ChoiceEstimate, Estimate, SuitEstimate, best_suit, summarise, summarise_choice

__all__ = ["estimate", "next_start", "tally_jobs"]



def tally_jobs(seed: int, first: int, deals: int, workers: int) -> list[ChunkJob]:
    """Chunks for deals ``first`` … ``first + deals - 1`` (``first`` a multiple of CHUNK), grouped in jobs.

    A job takes up to ``JOB_CHUNKS`` chunks (fewer calls, fewer round trips to the workers), while every worker
    still gets ``AHEAD_JOBS`` jobs or more to share out the work evenly.
    """
    chunks = []
    start = first
    while start < first + deals:
        chunks.append((start // CHUNK, min(CHUNK, first + deals - start)))
        start += CHUNK
    per_job = max(1, min(JOB_CHUNKS, len(chunks) // (AHEAD_JOBS * workers)))
    return [(tuple(chunks[i:i + per_job]), seed) for i in range(0, len(chunks), per_job)]


def _more_needed(suits: Sequence[SuitEstimate | ChoiceEstimate], precision: float, samples: int) -> int:
    """Total samples the widest reported interval asks for (at least one more chunk)."""
    worst = 0
    for s in suits:
        for c in s.bids:
            if (c.ci95[1] - c.ci95[0]) / 2 > precision:
                worst = max(worst, samples_for_half_width(c.p_make, precision, limit=MAX_SAMPLES))
    if worst == 0:
        return samples
    return max(worst, samples + 1)


def estimate(rules: Ruleset, cards: Hand | Iterable[Card], *, trump: Suit | str | None = None,
             samples: int = DEFAULT_SAMPLES, seed: int | None = None, workers: int | None = None,
             precision: float | None = None, confidence: float = DEFAULT_CONFIDENCE,
             progress: Callable[[int, int], None] | None = None, given: Sequence[Given] = (),
             points: bool = False, pass_policy: str = "heuristic") -> Estimate:
    """Estimate bid safety for the bidder holding ``cards``; see the module docstring for the model.

    ``samples`` deals (more, up to ``MAX_SAMPLES``, with ``precision``: until every reported
    interval's half-width is at most that). ``seed`` None: ``default_seed``, so the same question
    gets the same answer (reported; ``new_seed`` draws a fresh one).
    ``workers`` None: every core (never more than the cores available). ``progress(done, total)`` is
    called after each chunk. ``given``: conditions the unseen hands meet (``conditioned``); ``points``: each bid's
    expected points too (``points``); ``pass_policy`` "advised": the pass and return by ``passing.policy`` (with
    neither ``given`` nor ``points``). Raises ``SimulationError`` for samples, precision, confidence or seed out
    of range, and as ``check_full_hand``, ``estimable_trumps`` and ``check_pass_policy`` do.
    """
    trump = as_suit(trump)
    hand = check_full_hand(rules, cards)
    trumps = estimable_trumps(rules, hand, trump)
    _check_run(samples, precision, confidence)
    check_pass_policy(rules, pass_policy, plain=not (given or points))
    if seed is None:
        seed = default_seed(rules, hand, trump)
    if seed < 0:
        raise SimulationError(Message(Argument("seed", seed), ": seeds are non-negative integers"))
    conditions = tuple(str(g) for g in given)
    if not trumps:
        return Estimate(rules.name, hand, 0, seed, confidence, precision, None, (), None, conditions,
                        widow=rules.widow_size, pass_policy=pass_policy)
    sim = _simulator(rules, hand, trumps, given, points, (seed, samples), pass_policy)
    runner = TallyRunner(sim, workers_for(workers)[0])
    tally = Tally.empty(len(trumps) + sim.choosing)
    choice: ChoiceEstimate | None = None
    target = samples
    reached: bool | None = None
    try:
        while True:
            deals = target - tally.deals
            jobs = tally_jobs(seed, next_start(tally.deals), deals, runner.workers)
            for part in runner.run(jobs):
                tally.add(part)
                if progress is not None:
                    progress(tally.deals, target)
            suits = summarise(rules, trumps, tally, confidence)
            choice = summarise_choice(rules, tally, len(trumps), confidence) if sim.choosing else None
            if precision is None:
                break
            wanted = _more_needed([*suits, *([choice] if choice else [])], precision, tally.deals)
            reached = wanted <= tally.deals
            if reached or tally.deals >= MAX_SAMPLES:
                break
            target = min(MAX_SAMPLES, CHUNK * math.ceil(wanted / CHUNK))
    # Ctrl-C between chunks too: end the workers now
    except BaseException:
        runner.close(interrupted=True)
        raise
    runner.close()
    acceptance = tally.deals * len(trumps) / tally.drawn if tally.drawn else None
    return Estimate(rules.name, hand, tally.deals, seed, confidence, precision, reached, tuple(suits), best_suit(suits),
                    conditions, acceptance, rules.widow_size, choice, pass_policy)


def _simulator(rules: Ruleset, hand: Hand, trumps: Sequence[Suit], given: Sequence[Given],
               points: bool, run: tuple[int, int], pass_policy: str = "heuristic") -> Simulator:
    """The simulator of the question: deals drawn on the conditions when there are any (refused at once when no
    deal can meet them), each game's score counted when points are asked for (the same deals either way).
    ``run``: the seed and the samples asked for."""
    if not given and not points:
        return Simulator(rules, hand, trumps, pass_policy)
    sim = ConditionedSimulator(rules, hand, trumps, given, points=points)
    if given:
        # a condition almost no deal meets is refused now, with its share, rather than drawn for minutes
        sim.dealer.check_share(*run, trumps)
    return sim


def _check_run(samples: int, precision: float | None, confidence: float) -> None:
    """``SimulationError`` for samples, precision or confidence out of range."""
    if not 1 <= samples <= SAMPLES_LIMIT:
        raise SimulationError(Message(Argument("samples", samples), f": give between 1 and {SAMPLES_LIMIT:,} deals"))
    if precision is not None and not MIN_PRECISION <= precision < 0.5:
        raise SimulationError(Message(Argument("precision", precision), f": a half-width from {MIN_PRECISION} up "
                                      f"to 0.5 is needed ({MAX_SAMPLES:,} deals, where it stops, make no interval "
                                      "narrower)"))
    if not 0 <= confidence <= 1:
        raise SimulationError(Message(Argument("confidence", confidence), ": a probability between 0 and 1 is needed"))


def next_start(deals: int) -> int:
    """Where the next chunks start: after the last full or partial chunk run so far."""
    return CHUNK * math.ceil(deals / CHUNK)
