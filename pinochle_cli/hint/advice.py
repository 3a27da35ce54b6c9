"""``hint``: the worlds decided first (from the seed alone), then solved in order while the time lasts.

The answer depends on the seed and on how many worlds were solved, never on the number of
workers: the worlds are drawn before any is solved and the solved ones are always the first.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import Card
from ..errors import Argument, HintError, Message
from ..game.state import DealState
from ..solver.solve import Position
from .facts import Facts, facts_of
from .inference import Inference, infer
from .solving import solve_positions
from .weigh import CardJudgement, best_card, judge, last_trick_worth
from .worlds import World, draw_worlds

__all__ = ["DEFAULT_WORLDS", "Hint", "hint", "hint_facts"]

# the most worlds solved when the number is not given
DEFAULT_WORLDS = 200
# the share of the time the drawing may take when the worlds are many
_DRAW_SHARE = 0.3


@dataclass(frozen=True)
class Hint:
    """The answer: ``cards`` judged over ``worlds`` (the ones solved), ``best`` the card to play."""

    to_play: int
    best: Card
    cards: tuple[CardJudgement, ...]
    worlds: tuple[World, ...]
    exact: bool
    # the worlds drawn (a sample) or consistent (exact) before the time ran out
    drawn: int
    layouts: int
    inferences: tuple[Inference, ...]
    seconds: float


def hint(state: DealState, seat: int | None = None, *, worlds: int | None = None, seconds: float | None = 5.0,
         seed: int = 1, workers: int = 1, names: Sequence[str] | None = None,
         clock: Callable[[], float] = time.monotonic, stop: Callable[[], bool] | None = None) -> Hint:
    """The hint for ``seat`` (default: the player to move) in the deal ``state``, from what that seat has seen
    (``facts_of``); the rest as ``hint_facts``."""
    return hint_facts(facts_of(state, seat), worlds=worlds, seconds=seconds, seed=seed, workers=workers,
                      names=names, clock=clock, stop=stop)


def hint_facts(facts: Facts, *, worlds: int | None = None, seconds: float | None = 5.0, seed: int = 1,
               workers: int = 1, names: Sequence[str] | None = None, clock: Callable[[], float] = time.monotonic,
               stop: Callable[[], bool] | None = None) -> Hint:
    """The hint for ``facts.seat`` (see the module docstring): at most ``worlds`` worlds (default
    ``DEFAULT_WORLDS``), drawing and solving until ``seconds`` have passed (None: every world drawn is solved)
    or ``stop()`` is true (one world at least)."""
    if worlds is not None and worlds < 1:
        raise HintError(Message(Argument("worlds", worlds), ": give 1 or more"))
    if seconds is not None and not seconds > 0:
        raise HintError(Message(Argument("time", seconds), ": give seconds above 0"))
    start = clock()

    def late(share: float) -> bool:
        return seconds is not None and clock() - start > seconds * share

    inferences = infer(facts, names)
    drawn = draw_worlds(facts, inferences, worlds or DEFAULT_WORLDS, random.Random(seed),
                        until=None if seconds is None else lambda: late(_DRAW_SHARE))
    positions = [Position(w.hands, facts.leader, facts.trick) for w in drawn.worlds]
    plays = list(solve_positions(facts.rules, facts.trump, facts.seat, positions, workers=workers,
                                 bidder=facts.bidder, stop=lambda: late(1.0) or (stop is not None and stop()),
                                 last_tricks=[last_trick_worth(facts, w) for w in drawn.worlds]))
    solved = drawn.worlds[:len(plays)]
    judged = judge(facts, solved, plays)
    exact = drawn.exact and len(plays) == len(drawn.worlds)
    return Hint(facts.seat, best_card(judged), tuple(judged), solved, exact, len(drawn.worlds), drawn.layouts,
                tuple(inferences), clock() - start)
