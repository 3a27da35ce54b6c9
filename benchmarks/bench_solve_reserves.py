"""What is left to gain in the solver's question order and table, measured on bench_solve.py's fixed set.

    python benchmarks/bench_solve_reserves.py [--deals 30] [--ruleset single-deck] [--tricks N]

Each deal (bench_solve's fixed deals, same seed) is solved from its first lead with a fresh solver,
several ways in one run, and the nodes (trick-boundary nodes, exact) and CPU seconds summed:

- ``default``: ``Solver.value`` as it is (questions climbing from where the side to move answers cheaply);
- ``told the value``: ``near`` the exact value found first (the best any guess can do: the question
  order's whole reserve);
- ``heuristic guess``: ``near`` what the computer player (``player.play.play_opening``) takes in the same
  deal (a guess that costs one play-out);
- ``table 2^18`` and ``table 2^24`` rows: the table's size (the default is 2^21 rows).

Values must agree in every row (asserted). The machine's cores and load are printed; nodes do not
depend on the load, seconds do.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import machine, positions  # noqa: E402

from pinochle_cli.cards import Suit  # noqa: E402
from pinochle_cli.player.play import play_opening  # noqa: E402
from pinochle_cli.player.tables import PlayerTables, canonical_order  # noqa: E402
from pinochle_cli.ruleset import Ruleset, load_ruleset  # noqa: E402
from pinochle_cli.solver.solve import Position, Solver  # noqa: E402

Way = Callable[[Ruleset, Suit, Position, int], tuple[int, int]]


def _plain(**kw: int) -> Way:
    def solve(rules: Ruleset, trump: Suit, pos: Position, value: int) -> tuple[int, int]:
        s = Solver(rules, trump, **kw)
        return s.value(pos), s.nodes
    return solve


def _told(rules: Ruleset, trump: Suit, pos: Position, value: int) -> tuple[int, int]:
    s = Solver(rules, trump)
    return s.value(pos, near=value), s.nodes


def _heuristic(pt: PlayerTables) -> Way:
    orders = np.array([canonical_order(t) for t in range(4)], dtype=np.int64)

    def solve(rules: Ruleset, trump: Suit, pos: Position, value: int) -> tuple[int, int]:
        hands = np.array([h.counts for h in pos.hands], dtype=np.int64)[None]
        played = play_opening(pt, hands, orders, np.array([int(trump)]), np.array([pos.leader]), len(pos.hands[0]))
        s = Solver(rules, trump)
        return s.value(pos, near=int(played.points[0, rules.side_of(0)])), s.nodes
    return solve


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--ruleset", default="single-deck")
    ap.add_argument("--tricks", type=int, default=None)
    args = ap.parse_args()
    rules = load_ruleset(args.ruleset)
    print(f"{machine()}  {rules.name}, {args.deals} deals")
    tricks = args.tricks or min(rules.hand_size, rules.deck.size // rules.players)
    deals = positions(rules, 100, tricks)[:args.deals]
    ways: dict[str, Way] = {"default": _plain(), "told the value": _told,
                            "heuristic guess": _heuristic(PlayerTables.build(rules)),
                            "table 2^18": _plain(table_bits=18), "table 2^24": _plain(table_bits=24)}
    _plain()(rules, deals[0][0], deals[0][1], 0)  # compile (or load the cache) first
    nodes = dict.fromkeys(ways, 0)
    seconds = dict.fromkeys(ways, 0.0)
    for trump, pos in deals:
        value = -1
        for name, way in ways.items():
            start = time.process_time()
            v, n = way(rules, trump, pos, value)
            seconds[name] += time.process_time() - start
            nodes[name] += n
            assert value < 0 or v == value, (name, v, value)
            value = v
    base = nodes["default"]
    for name in ways:
        print(f"  {name:16s} nodes {nodes[name]:12,d} ({nodes[name] / base - 1:+6.1%})  CPU {seconds[name]:7.2f} s")


if __name__ == "__main__":
    main()
