"""Pit the computer player (player/) against a random legal player.

For each four-handed bundled ruleset, ``--deals`` random deals (trump fixed to one suit: the deal is uniform, so
that is any trump), seat 0 leads, no exchange, played a card at a time by ``game.deal.play_deal``: the computer
player's side chooses with ``heuristic.heuristic_strategy``, the other with ``game.deal.random_strategy`` (one
legal card, uniformly). The match-up is played twice on the same deals with the sides swapped, which cancels the
leader's advantage; the figure is the computer player's share of all counter points (last trick included). (The
greedy player the numpy engine had went with it: there is one player now.)

    .venv/bin/python benchmarks/bench_players.py [--deals 500] [--seed 7]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import machine  # noqa: E402
from heuristic import heuristic_strategy  # noqa: E402

from pinochle_cli import prepare  # noqa: E402
from pinochle_cli.cards import Card, Hand, Suit  # noqa: E402
from pinochle_cli.game.deal import Strategy, deal_cards, play_deal, random_strategy  # noqa: E402
from pinochle_cli.game.state import DealState  # noqa: E402
from pinochle_cli.ruleset import Ruleset, bundled_names, load_ruleset  # noqa: E402

TRUMP = Suit.H


def _sides(rules: Ruleset, mine: int, heuristic: Strategy, other: Strategy) -> Strategy:
    """``heuristic`` for the seats of side ``mine``, ``other`` for the rest."""
    def choose(state: DealState, legal: list[Card]) -> Card:
        seat = state.turn.seat
        assert seat is not None
        return (heuristic if rules.side_of(seat) == mine else other)(state, legal)

    return choose


def share(rules: Ruleset, deals: list[list[Hand]], rng: np.random.Generator) -> float:
    """The computer player's share of the counters, playing each side once on the same deals."""
    heuristic, random = heuristic_strategy(rules), random_strategy(rng)
    total = 0
    for mine in range(2):
        choose = _sides(rules, mine, heuristic, random)
        for hands in deals:
            points = play_deal(rules, hands, TRUMP, 0, choose).side_counters(rules)
            assert sum(points) == rules.counter_total
            total += points[mine]
    return total / (2 * len(deals) * rules.counter_total)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    print(f"{machine()}  deals={args.deals} seed={args.seed}")
    prepare.ensure()
    print(f"{'ruleset':<20} {'heuristic vs random':>20} {'sec':>6}")
    for name in bundled_names():
        rules = load_ruleset(name)
        if rules.players != 4 or rules.has_stock:
            continue
        rng = np.random.default_rng(np.random.SeedSequence(args.seed))
        deals = [deal_cards(rules, rng)[0] for _ in range(args.deals)]
        t0 = time.perf_counter()
        hr = share(rules, deals, rng)
        print(f"{name:<20} {hr:>20.1%} {time.perf_counter() - t0:>6.2f}")


if __name__ == "__main__":
    main()
