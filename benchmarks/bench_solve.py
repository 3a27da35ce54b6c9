"""Double-dummy solving speed: CPU seconds and nodes for a fixed set of deals per ruleset, the solver beside the
solver of an earlier commit (``--baseline REV``), in the same run.

    python benchmarks/bench_solve.py [--deals 100] [--tricks N] [--cap SECONDS] [--node-limit N]
                                     [--ruleset NAME ...] [--check N] [--baseline REV | --no-baseline]
                                     [--generalise]

Each deal of the fixed set (``common.positions``) is solved from its first lead with a fresh solver (its table
empty), first by the baseline, then by the current solver, deal by deal (so both see the same machine load). The
baseline is the solver of the revision ``REV`` (default: the commit before issue 24's speed work,
``revisions.BEFORE_SPEED_WORK``), that revision's whole package run from a temporary git worktree in a process of
its own (``revisions.Revision``); ``--no-baseline``: the current solver alone. The time is each process's CPU time
(one core), the nodes are trick-boundary nodes. Each line gives the median, p95, max and sum of the seconds, the
median, max and sum of the nodes, and a hash of the values of the fixed set (the same hash: the same values).
``--tricks N`` solves endgames of N tricks (random hands of N cards) instead of whole deals. A game with a stock is
solved from the play-off on (random hands of the play-off's size). ``--cap`` stops a ruleset after that many CPU
seconds (both solvers together) and ``--node-limit`` gives up a deal when one question ("do we take at least v?")
passes that many nodes (counted as infinitely slow in the median, p95 and max). It fails unless both solvers'
values of the fixed set agree; ``--check N`` first compares N random 3–4-trick endgames per ruleset with the
exhaustive minimax of ``solver/reference.py``. ``--generalise``: the current solver with generalised table entries
too (``Solver(generalise=True)``), a line of its own after the current solver's, its values checked against them. A
game whose bidder plays alone (three-handed) is checked with every seat as the bidder and benchmarked with seat 0
bidding; a baseline that cannot solve a ruleset's positions (older than the game, or than a bidder's seat) is left
out of that ruleset, saying why.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import machine, positions  # noqa: E402
from revisions import BEFORE_SPEED_WORK, Revision, RevisionError  # noqa: E402

from pinochle_cli.cards import Suit  # noqa: E402
from pinochle_cli.errors import SearchLimitError  # noqa: E402
from pinochle_cli.ruleset import Ruleset, bundled_names, load_ruleset  # noqa: E402
from pinochle_cli.solver.reference import minimax, random_endgame  # noqa: E402
from pinochle_cli.solver.solve import Position, Solver  # noqa: E402

# what a solver answers for one position: (value or None past the node limit, CPU seconds, nodes)
Solved = tuple[int | None, float, int]


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


def in_process(**options: object) -> Callable[[Ruleset, Suit, Position, int, int | None], Solved]:
    """This checkout's solver (``Solver(..., **options)``) as a benchmark solves with it."""
    def solve(rules: Ruleset, trump: Suit, pos: Position, node_limit: int, bidder: int | None) -> Solved:
        solver = Solver(rules, trump, bidder=bidder, **options)  # type: ignore[arg-type]
        solver.node_limit = node_limit
        t0 = time.process_time()
        try:
            value: int | None = int(solver.value(pos))
        except SearchLimitError:
            value = None
        return value, time.process_time() - t0, solver.nodes
    return solve


def in_revision(revision: Revision) -> Callable[[Ruleset, Suit, Position, int, int | None], Solved]:
    """The solver of ``revision``, in its worker process."""
    def solve(rules: Ruleset, trump: Suit, pos: Position, node_limit: int, bidder: int | None) -> Solved:
        return revision.solve(rules, trump, pos, node_limit=node_limit, bidder=bidder)
    return solve


class Figures:
    """One solver's seconds, nodes and values over a fixed set."""

    def __init__(self, name: str, solve: Callable[[Ruleset, Suit, Position, int, int | None], Solved]) -> None:
        self.name, self.solve_one = name, solve
        self.times: list[float] = []
        self.nodes: list[float] = []
        self.values: list[int | None] = []

    def solve(self, rules: Ruleset, trump: Suit, pos: Position, node_limit: int, bidder: int | None) -> float:
        """Solve one position; its CPU seconds (a deal past the node limit counts as infinite in the figures)."""
        value, seconds, nodes = self.solve_one(rules, trump, pos, node_limit, bidder)
        self.times.append(seconds if value is not None else math.inf)
        self.nodes.append(nodes if value is not None else math.inf)
        self.values.append(value)
        return seconds

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


def agree(a: Figures, b: Figures, rules: Ruleset, what: str) -> int:
    """The deals both solved (neither past the node limit); fails unless their values agree."""
    both = [(x, y) for x, y in zip(a.values, b.values, strict=True) if x is not None and y is not None]
    assert all(x == y for x, y in both), (rules.name, what)
    return len(both)


def bench(rules: Ruleset, deals: int, tricks: int, cap: float, node_limit: int, baseline: Revision | None,
          generalise: bool = False) -> None:
    # a game whose bidder plays alone: seat 0 bids
    bidder = 0 if rules.sides_by_auction else None
    solvers = ([Figures("baseline", in_revision(baseline))] if baseline is not None else []) + [
        Figures("now", in_process())]
    if generalise:
        solvers.append(Figures("general", in_process(generalise=True)))
    spent = 0.0
    for trump, pos in positions(rules, deals, tricks):
        if spent > cap:
            break
        for figures in list(solvers):
            try:
                spent += figures.solve(rules, trump, pos, node_limit, bidder)
            except RevisionError as exc:
                print(f"  the baseline is left out of {rules.name}: {exc}", flush=True)
                solvers.remove(figures)
                baseline = None
    done = len(solvers[0].times)
    print(f"{rules.name:18s} {tricks:2d} tricks  {done:3d}/{deals} deals", flush=True)
    for figures in solvers:
        print(figures.line(node_limit), flush=True)
    if generalise:
        now, general = solvers[-2:]
        print(f"  now/general: median {_ratio(float(np.median(now.times)), float(np.median(general.times)))}  "
              f"sum {_ratio(sum(now.times), sum(general.times))}  nodes {_change(sum(now.nodes), sum(general.nodes))}")
        agree(now, general, rules, "generalised entries changed a value")
    if baseline is not None:
        old, new = solvers[:2]
        print(f"  baseline/now: median {_ratio(float(np.median(old.times)), float(np.median(new.times)))}  "
              f"sum {_ratio(sum(old.times), sum(new.times))}")
        print(f"  values agree with the baseline's on {agree(old, new, rules, 'the values differ from the baseline')} "
              "deals")


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
    ap.add_argument("--baseline", metavar="REV", default=BEFORE_SPEED_WORK,
                    help="the revision whose solver is the baseline [default: before issue 24's speed work]")
    ap.add_argument("--no-baseline", dest="baseline", action="store_const", const=None)
    ap.add_argument("--generalise", action="store_true")
    args = ap.parse_args()
    print(f"{machine()}  deals per ruleset: {args.deals}  cap: {args.cap:g} CPU s per ruleset")
    warm = load_ruleset("single-deck")
    trump, pos = positions(warm, 1, 2)[0]
    with contextlib.ExitStack() as stack:
        baseline = stack.enter_context(Revision(args.baseline)) if args.baseline else None
        if baseline is not None:
            print(f"baseline: {baseline.name}, from a worktree of its own", flush=True)
        # compile (or load the cache) first
        for solve in [in_process(), *([in_revision(baseline)] if baseline else []),
                      *([in_process(generalise=True)] if args.generalise else [])]:
            solve(warm, trump, pos, 0, None)
        for name in args.ruleset or bundled_names():
            rules = load_ruleset(name)
            if args.check:
                check(rules, args.check)
            tricks = args.tricks or min(rules.hand_size, rules.deck.size // rules.players)
            bench(rules, args.deals, tricks, args.cap, args.node_limit, baseline, args.generalise)


if __name__ == "__main__":
    main()
