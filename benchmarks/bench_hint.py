"""How often is the simulator's heuristic card the hint's best, and what does it give away?

Single-deck, trump ♠, no exchange, seat 0 leads. For each of ``--positions`` random deals, the
computer player (player/, through ``heuristic.seat_view``) plays every seat for a random number of tricks (3 to 9)
and a random number of cards of the next one; then the player to move asks for a hint (every
seat's meld shown, the tricks so far; ``--worlds`` worlds, no bid: the objective is the side's
points for the deal, its meld kept and its counters). The figures: the share of positions where
the heuristic's card is among the hint's best (a tie counts), the mean points (by the hint's view)
the heuristic's card gives away, and the same with only the positions with a real choice.

    .venv/bin/python benchmarks/bench_hint.py [--positions 200] [--worlds 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from heuristic import heuristic_strategy  # noqa: E402

from pinochle_cli import prepare  # noqa: E402
from pinochle_cli.cards import Suit  # noqa: E402
from pinochle_cli.game.deal import Strategy, deal_cards  # noqa: E402
from pinochle_cli.game.state import DealState  # noqa: E402
from pinochle_cli.hint.advice import hint  # noqa: E402
from pinochle_cli.meld import shown_cards  # noqa: E402
from pinochle_cli.ruleset import Ruleset, load_ruleset  # noqa: E402
from pinochle_cli.workers import available_cores  # noqa: E402

TRUMP = Suit.S


def position(rules: Ruleset, heuristic: Strategy, rng: random.Random) -> DealState:
    """A random deal played by the heuristic to a random point (every seat's meld shown, seat 0 leading)."""
    hands, _ = deal_cards(rules, np.random.default_rng(rng.randrange(2**32)))
    state = DealState.at_play(rules, TRUMP, leader=0, hands=hands,
                              shown={s: shown_cards(rules, hands[s], TRUMP) for s in range(rules.players)})
    for _ in range(rng.randrange(3, 10) * rules.players + rng.randrange(rules.players)):
        state.play(heuristic(state, state.legal_plays()))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = load_ruleset("single-deck")
    prepare.ensure()
    heuristic = heuristic_strategy(rules)
    rng = random.Random(args.seed)
    print(f"cores available: {available_cores()} (one used); single-deck, trump ♠, {args.positions} positions, "
          f"{args.worlds} worlds each")
    agree = choices = agree_choices = 0
    lost: list[float] = []
    lost_choices: list[float] = []
    start = time.perf_counter()
    for _ in range(args.positions):
        state = position(rules, heuristic, rng)
        mine = heuristic(state, state.legal_plays())
        answer = hint(state, worlds=args.worlds, seconds=600, workers=1)
        points = {j.card: j.points for j in answer.cards}
        gap = max(points.values()) - points[mine]
        agree += gap <= 1e-9
        lost.append(gap)
        if len(points) > 1:
            choices += 1
            agree_choices += gap <= 1e-9
            lost_choices.append(gap)
    seconds = time.perf_counter() - start
    n = args.positions
    print(f"heuristic card among the hint's best: {agree}/{n} = {100 * agree / n:.1f}%; "
          f"with a choice of cards: {agree_choices}/{choices} = {100 * agree_choices / max(choices, 1):.1f}%")
    print(f"points given away (the hint's view), mean: {np.mean(lost):.2f} over all positions, "
          f"{np.mean(lost_choices):.2f} with a choice; median with a choice {np.median(lost_choices):.1f}")
    print(f"{seconds:.0f} s ({seconds / n:.2f} s a position)")


if __name__ == "__main__":
    main()
