"""How much the choice of lead costs the solver at a trick boundary, on bench_solve.py's fixed endgames.

    python benchmarks/bench_solve_leads.py [--tricks 6,7,8] [--deals 120] [--ruleset single-deck]

For each fixed endgame (seat 0 leading, our side), the questions "does our side take at least N?" for N the
exact value and 2 and 4 counter steps below it (those above 0) are answered three ways, each with a fresh
solver:

- ``search``: the search as it is, from the position;
- ``cheapest lead``: every legal lead searched alone (the position after it), and the fewest nodes among
  the leads that answer yes: what a search that knew in advance which lead proves the answer at least
  cost would spend at this one node;
- ``budgeted``: the leads tried in turn, each under a node limit (``--budget``, 4 times more each round)
  until one answers yes or all answer no: a search that avoids the dear leads without knowing them.

Prints the nodes summed per question (exact; they do not depend on the load) and the machine's cores.
Values and answers must agree (asserted).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import machine, positions  # noqa: E402

from pinochle_cli.cards import Suit  # noqa: E402
from pinochle_cli.errors import SearchLimitError  # noqa: E402
from pinochle_cli.ruleset import Ruleset, load_ruleset  # noqa: E402
from pinochle_cli.solver.solve import Position, Solver, counter_step  # noqa: E402

# the questions: this many counter steps below the value
OFFSETS = (0, 2, 4)
# a small table: the endgames are short, and a fresh one is made for every lead
BITS = 16


def _cheapest(rules: Ruleset, trump: Suit, pos: Position, need: int) -> int:
    """The fewest nodes of a lead that proves "at least ``need``", each lead searched alone (+1: the node)."""
    costs = []
    for card in Solver(rules, trump, table_bits=BITS).legal(pos):
        one = Solver(rules, trump, table_bits=BITS)
        if one.reaches(pos.play(card), need):
            costs.append(one.nodes + 1)
    return min(costs)


def _budgeted(rules: Ruleset, trump: Suit, pos: Position, need: int, budget: int) -> tuple[bool, int]:
    """The answer and the nodes when the leads are tried under a node limit growing 4 times a round."""
    s = Solver(rules, trump, table_bits=BITS)
    todo = s.legal(pos)
    while todo:
        later = []
        for card in todo:
            s.node_limit = budget
            try:
                if s.reaches(pos.play(card), need):
                    return True, s.nodes
            except SearchLimitError:
                later.append(card)
        todo, budget = later, budget * 4
    return False, s.nodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tricks", default="6,7,8")
    ap.add_argument("--deals", type=int, default=120)
    ap.add_argument("--ruleset", default="single-deck")
    ap.add_argument("--budget", type=int, default=256)
    args = ap.parse_args()
    rules = load_ruleset(args.ruleset)
    print(f"{machine()}  {rules.name}, {args.deals} endgames of each of {args.tricks} tricks")
    totals = {off: [0, 0, 0, 0] for off in OFFSETS}
    for tricks in (int(t) for t in args.tricks.split(",")):
        for trump, pos in positions(rules, args.deals, tricks):
            value = Solver(rules, trump, table_bits=BITS).value(pos)
            for off in OFFSETS:
                need = value - off * counter_step(rules)
                if need <= 0:
                    continue
                search = Solver(rules, trump, table_bits=BITS)
                assert search.reaches(pos, need)
                answer, budgeted = _budgeted(rules, trump, pos, need, args.budget)
                assert answer
                t = totals[off]
                t[0] += 1
                t[1] += search.nodes
                t[2] += _cheapest(rules, trump, pos, need)
                t[3] += budgeted
    for off, (n, searched, cheapest, budgeted) in totals.items():
        print(f"  value - {off} steps  {n:4d} questions  search {searched:10,d}  cheapest lead {cheapest:10,d} "
              f"({searched / cheapest:.2f}x fewer)  budgeted {budgeted:10,d} ({budgeted / searched:.2f}x the search)")


if __name__ == "__main__":
    main()
