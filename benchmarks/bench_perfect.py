"""Perfect play in the estimator: CPU per solve, and how far perfect play moves P(make) from the heuristic's.

    python benchmarks/bench_perfect.py [--case NAME ...] [--exact-from K ...] [--scale X]

For each hand (the README's, the bidder's of examples/single-deck-played.yaml, the README's in
single-deck-small, a double-deck hand of the tests) and each first exact trick, it runs what
``pinochle estimate HAND -r RULESET -t SUIT --play double-dummy --exact-from K --samples N`` runs (the
default seed, one worker) and prints: CPU seconds per solve (the whole run's process time over
the solves), the bidding side's mean counters with heuristic and with perfect play, the recommended
bid of each, P(make) of the heuristic's recommended bid under both, and the largest difference in
P(make) (perfect minus heuristic, percentage points) with its bid. ``--scale`` multiplies every
sample count.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.cards import Hand, parse_cards, parse_suit
from pinochle_cli.estimate.checks import default_seed
from pinochle_cli.estimate.double_dummy import SuitComparison, perfect_play
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.workers import available_cores

CASES = {  # name: (ruleset, hand, trump, [(first exact trick, samples), ...])
    "readme": ("single-deck", "AH 10H KH KH QH JH 9H AS AC KD QS JD", "H", [(7, 2000), (5, 1000), (1, 12)]),
    "played": ("single-deck", "10S KS QS 9S 10H JH JH KD QD JD KC QC", "S", [(7, 2000), (5, 1000), (1, 12)]),
    "small": ("single-deck-small", "AH 10H KH KH QH JH 9H AS AC KD QS JD", "H", [(7, 2000), (5, 1000), (1, 12)]),
    "double": ("double-deck", "AH AH TH KH KH QH QH JH JH AS AS AD KD QD AC TC KC QC JS JS", "H",
               [(15, 2000), (13, 1000), (9, 60)]),
}


def run(name: str, scale: float, only: list[int] | None) -> None:
    ruleset, cards, letter, runs = CASES[name]
    rules = load_ruleset(ruleset)
    hand = Hand(parse_cards(cards))
    trump = parse_suit(letter)
    seed = default_seed(rules, hand, trump)
    for exact_from, samples in runs:
        if only and exact_from not in only:
            continue
        n = max(1, round(samples * scale))
        start = time.process_time()
        result = perfect_play(rules, hand, [trump], samples=n, seed=seed, exact_from=exact_from, workers=1,
                              confidence=0.75)
        cpu = time.process_time() - start
        [s] = result.suits
        widest = max(s.bids, key=lambda b: (abs(b.difference), -b.bid))
        print(f"{name:7} {ruleset:18} -t {letter} --exact-from {exact_from:2} --samples {n:5}: "
              f"{cpu / n:8.4f} s CPU/solve; counters {s.heuristic.counters_mean:6.1f} -> "
              f"{s.perfect.counters_mean:6.1f}; "
              f"bid {s.heuristic.recommended_bid} -> {s.perfect.recommended_bid}; largest difference "
              f"{100 * widest.difference:+.1f} at {widest.bid} ({100 * widest.heuristic.p_make:.1f} -> "
              f"{100 * widest.perfect.p_make:.1f} %){_at_bid(s)}", flush=True)


def _at_bid(s: SuitComparison) -> str:
    """P(make) of the heuristic's recommended bid under both models."""
    pair = next((b for b in s.bids if b.bid == s.heuristic.recommended_bid), None)
    if pair is None:
        return ""
    return f"; at {pair.bid}: {100 * pair.heuristic.p_make:.1f} -> {100 * pair.perfect.p_make:.1f} %"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", choices=sorted(CASES))
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--exact-from", type=int, action="append", help="only these first exact tricks")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"cores available: {available_cores()}, load {load:.2f}; one worker, default seeds", flush=True)
    for name in args.case or list(CASES):
        run(name, args.scale, args.exact_from)


if __name__ == "__main__":
    main()
