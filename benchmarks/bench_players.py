"""Pit the simulator's heuristic card player against a random legal player and a greedy one.

For each four-handed bundled ruleset, ``--deals`` random deals (trump fixed to one suit: the
deal is uniform, so that is any trump), seat 0 leads, no exchange. Each match-up is played
twice on the same deals with the sides swapped, which cancels the leader's advantage; the
figure is the heuristic side's share of all counter points (last trick included).

    .venv/bin/python benchmarks/bench_players.py [--deals 2000] [--seed 7]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.estimate.players import PlayTables, play_batch

from pinochle_cli.ruleset import bundled_names, load_ruleset


def deal(rules, rng: np.random.Generator, n: int) -> np.ndarray:
    cards = np.repeat(np.arange(24), np.array(rules.deck.full().counts))
    slots = rng.permuted(np.broadcast_to(cards, (n, len(cards))), axis=1).reshape(n, rules.players, rules.hand_size)
    flat = (np.arange(n * rules.players)[:, None] * 24 + slots.reshape(n * rules.players, -1)).ravel()
    return np.bincount(flat, minlength=n * rules.players * 24).reshape(n, rules.players, 24)


def share(rules, tab: PlayTables, hands: np.ndarray, me: str, other: str, rng: np.random.Generator) -> float:
    """``me``'s share of the counters, playing each side once on the same deals."""
    seats = range(rules.players)
    n = hands.shape[0]
    total = 0
    for my_side in range(2):
        pol = [me if rules.side_of(s) == my_side else other for s in seats]
        points, _ = play_batch(tab, hands.copy(), np.zeros(n, dtype=np.int64), policies=pol, rng=rng)
        assert (points.sum(axis=1) == rules.counter_total).all()
        total += int(points[:, my_side].sum())
    return total / (2 * n * rules.counter_total)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    print(f"cpu_count={os.cpu_count()} load={os.getloadavg()[0]:.2f} deals={args.deals} seed={args.seed}")
    print(f"{'ruleset':<20} {'heuristic vs random':>20} {'heuristic vs greedy':>20} {'greedy vs random':>18}"
          f" {'sec':>6}")
    for name in bundled_names():
        rules = load_ruleset(name)
        if rules.players != 4 or rules.has_stock:
            continue
        rng = np.random.default_rng(np.random.SeedSequence(args.seed))
        hands = deal(rules, rng, args.deals)
        tab = PlayTables.build(rules)
        t0 = time.perf_counter()
        hr = share(rules, tab, hands, "heuristic", "random", rng)
        hg = share(rules, tab, hands, "heuristic", "greedy", rng)
        gr = share(rules, tab, hands, "greedy", "random", rng)
        dt = time.perf_counter() - t0
        print(f"{name:<20} {hr:>20.1%} {hg:>20.1%} {gr:>18.1%} {dt:>6.2f}")
    print(f"load(1 min) after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
