"""Double-dummy solving speed: CPU seconds and nodes for a fixed set of deals per ruleset.

    python benchmarks/bench_solve.py [--deals 100] [--tricks N] [--cap SECONDS] [--node-limit N]
                                     [--ruleset NAME ...] [--check N]

Each deal (fixed seed) is solved from its first lead with a fresh solver (its table empty); the
time is the process's CPU time (one core), the nodes are trick-boundary nodes. ``--tricks N``
solves endgames of N tricks (random hands of N cards) instead of whole deals. A game with a
stock is solved from the play-off on (random hands of the play-off's size). ``--cap`` stops a
ruleset after that many CPU seconds and ``--node-limit`` gives up a deal when one question
("do we take at least v?") passes that many nodes (counted as infinitely slow in the median,
p95 and max, and in the output). ``--check N``
first compares N random 3–4-trick endgames per ruleset with the exhaustive minimax of
tests/solve_reference.py.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from solve_reference import minimax, random_endgame  # noqa: E402

from pinochle_cli.cards import Hand  # noqa: E402
from pinochle_cli.errors import SearchLimitError  # noqa: E402
from pinochle_cli.ruleset import Ruleset, bundled_names, load_ruleset  # noqa: E402
from pinochle_cli.solver.solve import Position, Solver  # noqa: E402


def positions(rules: Ruleset, deals: int, tricks: int) -> list[tuple[object, Position]]:
    rng = np.random.default_rng(2026)
    cards = rules.deck.cards()
    out = []
    for _ in range(deals):
        order = rng.permutation(len(cards))
        trump = rules.suits[int(rng.integers(len(rules.suits)))]
        hands = tuple(Hand([cards[i] for i in order[s * tricks:(s + 1) * tricks]]) for s in range(rules.players))
        out.append((trump, Position(hands, 0)))
    return out


def check(rules: Ruleset, n: int) -> None:
    rng = np.random.default_rng(99)
    t0 = time.process_time()
    for _ in range(n):
        trump, pos = random_endgame(rules, rng, int(rng.integers(1, (3 if rules.players > 2 else 4) + 1)))
        got, want = Solver(rules, trump, table_bits=12).value(pos), minimax(rules, trump, pos)
        assert got == want, (rules.name, trump, pos, got, want)
    print(f"{rules.name:18s} {n} endgames agree with the exhaustive minimax ({time.process_time() - t0:.0f} s)")


def bench(rules: Ruleset, deals: int, tricks: int, cap: float, node_limit: int) -> None:
    times: list[float] = []
    nodes: list[float] = []
    spent = 0.0
    for trump, pos in positions(rules, deals, tricks):
        if spent > cap:
            break
        solver = Solver(rules, trump)  # type: ignore[arg-type]
        solver.node_limit = node_limit
        t0 = time.process_time()
        try:
            solver.value(pos)
        except SearchLimitError:  # slower than any deal solved: it counts as infinite in the percentiles
            times.append(math.inf)
            nodes.append(math.inf)
        else:
            times.append(time.process_time() - t0)
            nodes.append(solver.nodes)
        spent += time.process_time() - t0
    over = times.count(math.inf)
    line = f"{rules.name:18s} {tricks:2d} tricks  {len(times):3d}/{deals} deals"
    if len(times) > over:
        t = np.array(times)
        with np.errstate(invalid="ignore"):  # percentiles between two infinite times
            p95 = np.percentile(t, 95)
        line += (f"  median {_fmt(np.median(t), 7, 3)} s  p95 {_fmt(p95, 7, 3)} s"
                 f"  max {_fmt(t.max(), 7, 3)} s  nodes median {_fmt(np.median(nodes), 10, 0)}"
                 f"  max {_fmt(max(nodes), 10, 0)}")
    if over:
        line += f"  ({over} over {node_limit} nodes in one question: counted as infinite)"
    print(line, flush=True)


def _fmt(x: float, width: int, digits: int) -> str:
    return f"{x:{width}.{digits}f}" if math.isfinite(x) else f"{'over':>{width}s}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--tricks", type=int, default=None, help="endgames of this many tricks [default: whole deals]")
    ap.add_argument("--cap", type=float, default=600.0, help="CPU seconds per ruleset")
    ap.add_argument("--node-limit", type=int, default=50_000_000)
    ap.add_argument("--ruleset", action="append", default=None)
    ap.add_argument("--check", type=int, default=0)
    args = ap.parse_args()
    load = f"  load: {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    print(f"cores: {os.cpu_count()} (one used){load}  deals per ruleset: {args.deals}  cap: {args.cap:g} CPU s per "
          "ruleset")
    warm = load_ruleset("single-deck")
    Solver(warm, warm.suits[0]).value(positions(warm, 1, 2)[0][1])  # compile (or load the cache) first
    for name in args.ruleset or bundled_names():
        rules = load_ruleset(name)
        if args.check:
            check(rules, args.check)
        tricks = args.tricks or min(rules.hand_size, rules.deck.size // rules.players)
        bench(rules, args.deals, tricks, args.cap, args.node_limit)


if __name__ == "__main__":
    main()
