"""The heuristic's take as the first question of the estimate's solves: nodes and CPU with it and without it.

    python benchmarks/bench_estimate_guess.py [--deals 20] [--exact-from 1] [--hand CARDS]

Runs the perfect-play part of ``pinochle estimate HAND --play double-dummy --exact-from K`` (single-deck,
seed 1, every suit, one process: ``PerfectPlayer``) twice on the same deals, first without the guess, then
with it, and prints the trick-boundary nodes (exact) and CPU seconds of each, with the machine's cores.
``estimate`` passes the guess only after a trick played (docs/estimate.md).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.cards import Hand, parse_cards
from pinochle_cli.estimate.double_dummy import PerfectPlayer
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.workers import available_cores


def measure(hand: Hand, deals: int, exact_from: int, guess: bool) -> tuple[int, float]:
    """The nodes and CPU seconds of solving ``deals`` deals of every suit."""
    rules = load_ruleset("single-deck")
    player = PerfectPlayer(rules, hand, rules.suits, exact_from)
    player.guess = guess
    player.warm()
    start = time.process_time()
    for suit in range(len(rules.suits)):
        player.run((0, deals, 1, suit, 0, deals))
    seconds = time.process_time() - start
    return sum(s.nodes for s in player.batch.solvers.values()), seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--exact-from", type=int, default=1)
    ap.add_argument("--hand", default="AS AS TS KH KH QH JH 9H AD QS JC 9C")
    args = ap.parse_args()
    hand = Hand(parse_cards(args.hand))
    print(f"cores: {os.cpu_count()} (available {available_cores()}, one used)  load: {os.getloadavg()[0]:.1f}  "
          f"hand: {args.hand}  {args.deals} deals x 4 suits from trick {args.exact_from}")
    base = None
    for guess in (False, True):
        nodes, seconds = measure(hand, args.deals, args.exact_from, guess)
        base = base or nodes
        label = "with the guess" if guess else "without it"
        print(f"  {label:15s} nodes {nodes:>13,} ({nodes / base - 1:+.1%})  CPU {seconds:7.1f} s")


if __name__ == "__main__":
    main()
