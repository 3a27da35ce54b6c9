"""Speed of ``pinochle estimate``: simulated deal-suits per second (one deal scored for one trump).

For each four-handed bundled ruleset, a hand that may name every suit, ``--samples`` deals,
with 1 and 2 workers (``--workers`` to change). Wall-clock time of the library call, pool
start-up included. ``--profile`` adds a cProfile summary of a one-worker run.

    .venv/bin/python benchmarks/bench_estimate.py [--samples 10000] [--workers 1 2] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.cards import parse_cards
from pinochle_cli.ruleset import bundled_names, load_ruleset
from pinochle_cli.simulate import estimate

HANDS = {  # by hand size: K and Q in every suit, so that every suit may be named under any eligibility rule
    12: "AH TH KH QH JH AS KS QS KD QD KC QC",
    20: "AH AH TH KH KH QH QH JH JH AS AS KS QS AD KD QD AC TC KC QC",
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=10_000)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    print(f"cpu_count={os.cpu_count()} load(1 min)={os.getloadavg()[0]:.2f} samples={args.samples}")
    print(f"{'ruleset':<20} {'suits':>5} {'workers':>7} {'seconds':>8} {'deal-suits/s':>13}")
    for name in bundled_names():
        rules = load_ruleset(name)
        if rules.auction is None or rules.players != 4:
            continue
        hand = parse_cards(HANDS[rules.hand_size])
        for workers in args.workers:
            t0 = time.perf_counter()
            result = estimate(rules, hand, samples=args.samples, seed=args.seed, workers=workers)
            dt = time.perf_counter() - t0
            n = result.samples * len(result.suits)
            print(f"{name:<20} {len(result.suits):>5} {workers:>7} {dt:>8.2f} {n / dt:>13,.0f}")
    print(f"load(1 min) after: {os.getloadavg()[0]:.2f}")
    if args.profile:
        rules = load_ruleset("single-deck")
        hand = parse_cards(HANDS[12])
        prof = cProfile.Profile()
        prof.enable()
        estimate(rules, hand, samples=args.samples, seed=args.seed, workers=1)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
