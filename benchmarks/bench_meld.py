"""Time the meld engine on random full hands: ``python benchmarks/bench_meld.py [--hands N] [--ruleset R]``.

Prints the CPU count, then µs per call of ``MeldTable.totals`` (all four trumps, exact totals
only), of ``meld_by_trump`` (all four trumps with the declarations), and the throughput of
``MeldTable.total_batch`` in hands per second. Tables are built before timing (first use).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from pinochle_cli.cards import ALL_CARDS, Hand
from pinochle_cli.meld import meld_by_trump, meld_table
from pinochle_cli.ruleset import load_ruleset


def random_counts(rules_name: str, hands: int, seed: int) -> np.ndarray:
    rules = load_ruleset(rules_name)
    pack = np.array([c.index for c in rules.deck.cards()])
    rng = np.random.default_rng(seed)
    out = np.zeros((hands, len(ALL_CARDS)), dtype=np.int64)
    for i in range(hands):
        np.add.at(out[i], rng.choice(pack, rules.hand_size, replace=False), 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=200_000)
    parser.add_argument("--ruleset", default="double-deck")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"os.cpu_count() = {os.cpu_count()}")
    rules = load_ruleset(args.ruleset)
    table = meld_table(rules)
    counts = random_counts(args.ruleset, args.hands, args.seed)
    rows = [tuple(int(x) for x in row) for row in counts]
    start = time.perf_counter()
    table.totals(rows[0])
    for suit in rules.suits:
        table.total_batch(counts[:1], suit)
    print(f"{args.ruleset}: tables built in {(time.perf_counter() - start) * 1e3:.1f} ms; "
          f"{rules.hand_size}-card hands, {args.hands} hands")

    start = time.perf_counter()
    for row in rows:
        table.totals(row)
    per = (time.perf_counter() - start) / len(rows) * 1e6
    print(f"MeldTable.totals (4 trumps):      {per:8.1f} µs per hand")

    hands = [Hand.from_counts(row) for row in rows[:max(1, args.hands // 4)]]
    start = time.perf_counter()
    for hand in hands:
        meld_by_trump(rules, hand)
    per = (time.perf_counter() - start) / len(hands) * 1e6
    print(f"meld_by_trump (4 trumps, items):  {per:8.1f} µs per hand")

    big = random_counts(args.ruleset, min(args.batch, 20_000), args.seed + 1)
    big = np.tile(big, (max(1, args.batch // len(big)), 1))
    start = time.perf_counter()
    for suit in rules.suits:
        table.total_batch(big, suit)
    elapsed = time.perf_counter() - start
    print(f"MeldTable.total_batch, each of 4 trumps: {len(big) / elapsed:,.0f} hands/s for all four "
          f"({len(big)} hands, {elapsed * 1e3:.0f} ms)")
    start = time.perf_counter()
    table.totals_batch(big)
    elapsed = time.perf_counter() - start
    print(f"MeldTable.totals_batch (4 trumps at once): {len(big) / elapsed:,.0f} hands/s "
          f"({len(big)} hands, {elapsed * 1e3:.0f} ms)")


if __name__ == "__main__":
    main()
