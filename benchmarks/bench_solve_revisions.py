"""Two or more git revisions of the solver side by side, deal by deal in one run, on the fixed set of positions.

    python benchmarks/bench_solve_revisions.py REV [REV ...] [--deals 30] [--tricks N] [--ruleset single-deck]

Each revision runs in a process of its own from a temporary git worktree (``revisions.Revision``: its whole
package, the worktree's own numba cache); ``.`` stands for this checkout as it is in the working tree. Every deal
of ``common.positions`` is solved by each revision in turn, the order reversed every other deal, so that all of
them see the same machine load: on a shared machine the CPU time of one solver moves by a tenth from run to run,
while the ratio of two solvers' sums in one run moves by one or two hundredths (one revision against itself:
1.021x and 1.007x). Prints, per revision, the median and sum of the CPU seconds, the nodes, the speed of the first
revision's sum over this one's, and whether the values are the first revision's.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import machine, positions  # noqa: E402
from revisions import Revision  # noqa: E402

from pinochle_cli.ruleset import load_ruleset  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("revs", nargs="+", metavar="REV")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--tricks", type=int, default=None, help="endgames of this many tricks [default: whole deals]")
    ap.add_argument("--ruleset", default="single-deck")
    args = ap.parse_args()
    rules = load_ruleset(args.ruleset)
    tricks = args.tricks or min(rules.hand_size, rules.deck.size // rules.players)
    print(f"{machine()}  {rules.name}, {args.deals} deals of {tricks} tricks")
    bidder = 0 if rules.sides_by_auction else None
    with contextlib.ExitStack() as stack:
        solvers = [stack.enter_context(Revision(rev)) for rev in args.revs]
        warm = positions(rules, 1, 2)[0]
        for solver in solvers:  # compile (or load the cache) first
            solver.solve(rules, *warm, bidder=bidder)
        times: list[list[float]] = [[] for _ in solvers]
        nodes = [0] * len(solvers)
        values: list[list[int | None]] = [[] for _ in solvers]
        for i, (trump, pos) in enumerate(positions(rules, args.deals, tricks)):
            turn = range(len(solvers)) if i % 2 == 0 else reversed(range(len(solvers)))
            for k in turn:
                value, seconds, count = solvers[k].solve(rules, trump, pos, bidder=bidder)
                values[k].append(value)
                times[k].append(seconds)
                nodes[k] += count
    for k, rev in enumerate(args.revs):
        same = "the same" if values[k] == values[0] else "DIFFER"
        print(f"  {rev:12s} median {np.median(times[k]):7.3f} s  sum {sum(times[k]):8.2f} s  nodes {nodes[k]:12d}  "
              f"speed {sum(times[0]) / sum(times[k]):.3f}x  values {same}")


if __name__ == "__main__":
    main()
