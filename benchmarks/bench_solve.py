"""Double-dummy solving speed: CPU seconds and nodes for a fixed set of deals per ruleset, the solver
beside the solver as it was before issue 24 (benchmarks/solve_baseline), in the same run.

    python benchmarks/bench_solve.py [--deals 100] [--tricks N] [--cap SECONDS] [--node-limit N]
                                     [--ruleset NAME ...] [--check N] [--no-baseline] [--generalise]

Each deal (fixed seed) is solved from its first lead with a fresh solver (its table empty), first by
the baseline, then by the current solver, deal by deal (so both see the same machine load); the time
is the process's CPU time (one core), the nodes are trick-boundary nodes. Each line gives the median,
p95, max and sum of the seconds, the median, max and sum of the nodes, and a hash of the values of the
fixed set (the same hash: the same values). ``--tricks N`` solves endgames of N tricks (random hands
of N cards) instead of whole deals. A game with a stock is solved from the play-off on (random hands
of the play-off's size). ``--cap`` stops a ruleset after that many CPU seconds (both solvers together)
and ``--node-limit`` gives up a deal when one question ("do we take at least v?") passes that many
nodes (counted as infinitely slow in the median, p95 and max). ``--check N`` first compares N random
3–4-trick endgames per ruleset with the exhaustive minimax of solver/reference.py, and then
fails unless both solvers' values of the fixed set agree. ``--no-baseline``: the current solver alone.
``--generalise``: the current solver with generalised table entries too (``Solver(generalise=True)``), a line
of its own after the current solver's, its values checked against them. A game
whose bidder plays alone (three-handed) is checked with every seat as the bidder and benchmarked with seat 0
bidding, by the current solver alone (the baseline predates those games).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.solve_baseline.solve import Solver as BaselineSolver  # noqa: E402
from pinochle_cli.cards import Hand  # noqa: E402
from pinochle_cli.errors import SearchLimitError  # noqa: E402
from pinochle_cli.ruleset import Ruleset, bundled_names, load_ruleset  # noqa: E402
from pinochle_cli.solver.reference import minimax, random_endgame  # noqa: E402
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
        # where the auction forms the sides, any seat may be the bidder
        bidder = int(rng.integers(rules.players)) if rules.sides_by_auction else None
        trump, pos = random_endgame(rules, rng, int(rng.integers(1, (3 if rules.players > 2 else 4) + 1)),
                                    bidder=bidder)
        got = Solver(rules, trump, bidder=bidder, table_bits=12).value(pos)
        want = minimax(rules, trump, pos, bidder)
        assert got == want, (rules.name, trump, pos, bidder, got, want)
    print(f"{rules.name:18s} {n} endgames agree with the exhaustive minimax ({time.process_time() - t0:.0f} s)")


class Figures:
    """One solver's seconds, nodes and values over a fixed set."""

    def __init__(self, name: str, make: Callable[..., object]) -> None:
        self.name, self.make = name, make
        self.times: list[float] = []
        self.nodes: list[float] = []
        self.values: list[int | None] = []

    def solve(self, rules: Ruleset, trump: object, pos: Position, node_limit: int) -> float:
        solver = self.make(rules, trump)
        solver.node_limit = node_limit  # type: ignore[attr-defined]
        t0 = time.process_time()
        try:
            value = solver.value(pos)  # type: ignore[attr-defined]
        except SearchLimitError:  # slower than any deal solved: it counts as infinite in the percentiles
            self.times.append(math.inf)
            self.nodes.append(math.inf)
            self.values.append(None)
        else:
            self.times.append(time.process_time() - t0)
            self.nodes.append(solver.nodes)  # type: ignore[attr-defined]
            self.values.append(int(value))
        return time.process_time() - t0

    def digest(self) -> str:
        return hashlib.sha256(repr(self.values).encode()).hexdigest()[:12]

    def line(self, node_limit: int) -> str:
        over = self.times.count(math.inf)
        line = f"  {self.name:9s}"
        if len(self.times) > over:
            t = np.array(self.times)
            with np.errstate(invalid="ignore"):  # percentiles between two infinite times
                p95 = np.percentile(t, 95)
            finite = [x for x in self.nodes if math.isfinite(x)]
            line += (f" median {_fmt(np.median(t), 7, 3)} s  p95 {_fmt(p95, 7, 3)} s  max {_fmt(t.max(), 7, 3)} s"
                     f"  sum {_fmt(t.sum(), 8, 2)} s  nodes median {_fmt(np.median(self.nodes), 10, 0)}"
                     f"  max {_fmt(max(self.nodes), 10, 0)}  sum {sum(finite):12.0f}  values {self.digest()}")
        if over:
            line += f"  ({over} over {node_limit} nodes in one question: counted as infinite)"
        return line


def bench(rules: Ruleset, deals: int, tricks: int, cap: float, node_limit: int, baseline: bool,
          verify: bool, generalise: bool = False) -> None:
    # the baseline predates the games whose bidder plays alone: those are solved with seat 0 as the bidder, now only
    baseline = baseline and not rules.sides_by_auction
    bidder = 0 if rules.sides_by_auction else None
    solvers = ([Figures("baseline", BaselineSolver)] if baseline else []) + [
        Figures("now", lambda rules, trump: Solver(rules, trump, bidder=bidder))]
    if generalise:
        solvers.append(Figures("general", lambda rules, trump: Solver(rules, trump, bidder=bidder, generalise=True)))
    spent = 0.0
    for trump, pos in positions(rules, deals, tricks):
        if spent > cap:
            break
        for figures in solvers:
            spent += figures.solve(rules, trump, pos, node_limit)
    done = len(solvers[0].times)
    print(f"{rules.name:18s} {tricks:2d} tricks  {done:3d}/{deals} deals", flush=True)
    for figures in solvers:
        print(figures.line(node_limit), flush=True)
    if generalise:
        now, general = solvers[-2:]
        print(f"  now/general: median {_ratio(float(np.median(now.times)), float(np.median(general.times)))}  "
              f"sum {_ratio(sum(now.times), sum(general.times))}  nodes {_change(sum(now.nodes), sum(general.nodes))}")
        both = [(a, b) for a, b in zip(now.values, general.values, strict=True) if a is not None and b is not None]
        assert all(a == b for a, b in both), (rules.name, "generalised entries changed a value")
    if baseline:
        old, new = solvers[:2]
        print(f"  baseline/now: median {_ratio(float(np.median(old.times)), float(np.median(new.times)))}  "
              f"sum {_ratio(sum(old.times), sum(new.times))}")
        if verify:
            both = [(a, b) for a, b in zip(old.values, new.values, strict=True) if a is not None and b is not None]
            assert all(a == b for a, b in both), (rules.name, "the values differ from the baseline's")
            print(f"  values agree with the baseline's on {len(both)} deals")


def _ratio(old: float, new: float) -> str:
    """``old / new`` as a speed-up, or why there is none (a deal past the node limit counts as infinitely slow)."""
    if math.isfinite(old) and math.isfinite(new):
        return f"{old / new:.2f}x"
    if math.isfinite(new):
        return "inf (the baseline passed the node limit)"
    return "n/a (past the node limit)"


def _change(old: float, new: float) -> str:
    """``new`` against ``old`` as a change in per cent, or n/a past the node limit."""
    return f"{new / old - 1:+.1%}" if math.isfinite(old) and math.isfinite(new) else "n/a (past the node limit)"


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
    ap.add_argument("--no-baseline", dest="baseline", action="store_false")
    ap.add_argument("--generalise", action="store_true")
    args = ap.parse_args()
    load = f"  load: {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    print(f"cores: {os.cpu_count()} (one used){load}  deals per ruleset: {args.deals}  cap: {args.cap:g} CPU s per "
          "ruleset")
    warm = load_ruleset("single-deck")
    for make in (Solver, BaselineSolver) if args.baseline else (Solver,):
        make(warm, warm.suits[0]).value(positions(warm, 1, 2)[0][1])  # compile (or load the cache) first
    if args.generalise:
        Solver(warm, warm.suits[0], generalise=True).value(positions(warm, 1, 2)[0][1])
    for name in args.ruleset or bundled_names():
        rules = load_ruleset(name)
        if args.check:
            check(rules, args.check)
        tricks = args.tricks or min(rules.hand_size, rules.deck.size // rules.players)
        bench(rules, args.deals, tricks, args.cap, args.node_limit, args.baseline, args.check > 0, args.generalise)


if __name__ == "__main__":
    main()
