"""Deals per second of the pure-Python deal engine (random legal play, then replay), per ruleset.

The cards left after the deal are the stock in a game with one (a widow stays out of play: no exchange); where
the auction forms the sides, seat 0 is the bidder.

    python benchmarks/bench_deal.py [DEALS]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.game.deal import deal_cards, play_deal, random_strategy, replay_deal
from pinochle_cli.ruleset import bundled_names, load_ruleset


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    print(f"cores: {os.cpu_count()}  deals per ruleset: {n}")
    for name in bundled_names():
        rules = load_ruleset(name)
        rng = np.random.default_rng(1)
        strategy = random_strategy(rng)
        deals = []
        for _ in range(n):
            hands, rest = deal_cards(rules, rng)
            trump = rest[-1].suit if rules.turn_up_trump else rules.suits[int(rng.integers(len(rules.suits)))]
            deals.append((hands, rest if rules.has_stock else None, trump))
        bidder = 0 if rules.sides_by_auction else None
        t0 = time.perf_counter()
        plays = [play_deal(rules, h, t, 0, strategy, stock=s, bidder=bidder) for h, s, t in deals]
        t1 = time.perf_counter()
        for (h, s, t), p in zip(deals, plays, strict=True):
            replay_deal(rules, h, t, 0, p.tricks, stock=s, bidder=bidder)
        t2 = time.perf_counter()
        print(f"{name:18s} play_deal {n / (t1 - t0):6.0f} deals/s  replay_deal {n / (t2 - t1):6.0f} deals/s")


if __name__ == "__main__":
    main()
