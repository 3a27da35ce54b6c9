"""Where a whole deal's nodes go among the solver's questions, on bench_solve.py's fixed set.

    python benchmarks/bench_solve_questions.py [--deals 100] [--ruleset single-deck] [--slowest 3]

``Solver.value`` finds a value by asking "do we take at least v?" for several v (docs/solver.md). Each deal
(fresh solver) is solved with every search logged (the counters asked for, the nodes it took), and the
nodes are summed by where the question stood: at the value ("at least the value"), above it (refuted),
below it. Prints the questions a deal, the three shares, and the slowest deals' questions one by one.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import machine, positions  # noqa: E402

from pinochle_cli.ruleset import load_ruleset  # noqa: E402
from pinochle_cli.solver import solve  # noqa: E402
from pinochle_cli.solver.search import STAT_NODES  # noqa: E402

# (need, nodes) of each search of the deal being solved
LOG: list[tuple[int, int]] = []
REACH = solve.reach


def logged(*args: Any) -> int:
    """``search.reach``, its question (``need``, the seventh argument) and nodes logged."""
    stats = args[-1]
    before = int(stats[STAT_NODES])
    bound = REACH(*args)
    LOG.append((int(args[6]), int(stats[STAT_NODES]) - before))
    return int(bound)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--ruleset", default="single-deck")
    ap.add_argument("--slowest", type=int, default=3)
    args = ap.parse_args()
    rules = load_ruleset(args.ruleset)
    print(f"{machine()}  {rules.name}, {args.deals} whole deals")
    solve.reach = logged
    deals = []
    for trump, pos in positions(rules, args.deals, len(rules.deck.cards()) // rules.players):
        LOG.clear()
        start = time.process_time()
        value = solve.Solver(rules, trump).value(pos)
        deals.append((time.process_time() - start, value, list(LOG)))
    total = sum(n for _, _, log in deals for _, n in log)
    at = sum(n for _, v, log in deals for need, n in log if need == v)
    above = sum(n for _, v, log in deals for need, n in log if need > v)
    print(f"  questions a deal {sum(len(log) for _, _, log in deals) / len(deals):.1f}  nodes {total:,}: at the value "
          f"{at / total:.1%}, above it {above / total:.1%}, below it {(total - at - above) / total:.1%}")
    for seconds, value, log in sorted(deals, key=lambda d: -d[0])[:args.slowest]:
        asked = ", ".join(f"{need}: {n / 1e6:.1f} M" for need, n in log)
        print(f"  value {value}, {seconds:.1f} s: {asked}")


if __name__ == "__main__":
    main()
