"""Speed of conditioned estimates (``estimate --given``) against the unconditioned one, in the same run.

For the single-deck hand of ``bench_estimate``, ``--samples`` deals on every suit: the plain
estimate, then conditions that about one deal in five meets — one counted on the cards (a seat's
aces: the deals are drawn once for every suit) and one on meld (counted in each trump: each suit
draws its own deals) — each timed ``--repeat`` times, interleaved, the best time kept. Prints the
cores, the share of drawn deals that met the conditions, deal-suits per second and the ratio to
the plain rate (the target: 50 % or more). The compiled engine is built first (``prepare.ensure``) and loaded
before timing.

    .venv/bin/python benchmarks/bench_conditions.py [--samples 10000] [--workers 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli import prepare
from pinochle_cli.cards import Hand
from pinochle_cli.estimate.conditions import Given
from pinochle_cli.estimate.simulate import estimate
from pinochle_cli.ruleset import load_ruleset

HAND = "AH TH KH QH JH AS KS QS KD QD KC QC"
CASES = {"unconditioned": [], "cards (left: aces >= 2, clubs >= 4, diamonds >= 3)":
         ["left: aces >= 2 and clubs >= 4 and diamonds >= 3"],
         "meld (partner: meld >= 56)": ["partner: meld >= 56"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    rules = load_ruleset("single-deck")
    hand = Hand.parse(HAND)
    prepare.ensure()
    # the engine loaded (and the conditions' tables built) before timing
    for texts in CASES.values():
        estimate(rules, hand, samples=10, seed=0, workers=1, given=[Given.parse(t) for t in texts])
    print(f"cores: {os.cpu_count()} (workers {a.workers}); single-deck, {a.samples} deals x 4 suits")
    best = {name: float("inf") for name in CASES}
    share: dict[str, float | None] = {}
    for _ in range(a.repeat):
        for name, texts in CASES.items():
            start = time.perf_counter()
            e = estimate(rules, hand, samples=a.samples, seed=1, workers=a.workers,
                         given=[Given.parse(t) for t in texts])
            best[name] = min(best[name], time.perf_counter() - start)
            share[name] = e.acceptance
    plain = a.samples * 4 / best["unconditioned"]
    print(f"{'case':<52} {'met by':>8} {'deal-suits/s':>13} {'vs plain':>9}")
    for name in CASES:
        rate = a.samples * 4 / best[name]
        met = "" if share[name] is None else f"{100 * share[name]:.1f} %"
        print(f"{name:<52} {met:>8} {rate:>13,.0f} {100 * rate / plain:>8.0f} %")


if __name__ == "__main__":
    main()
