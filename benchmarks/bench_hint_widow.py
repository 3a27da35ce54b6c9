"""What the widow turned up is worth to a defender's hint (three-handed, where every player sees it).

    python benchmarks/bench_hint_widow.py [--positions 20] [--tricks 4] [--time 5] [--reference 200] [--seed 1]

Positions: a deal of ``--ruleset`` (default three-handed); the bidder (board number mod the players) takes the
widow, names the trump of its best meld, shows that meld and buries the three cheapest cards it may (no meld,
the fewest counters, no trump); every player shows its meld; the computer plays to the start of trick ``k``
and on until a defender has a choice to make. That defender asks the hint twice in the same run at the default
settings: seeing the widow (the bidder held it at the meld) and blind to it. Both answers are judged by a long
run seeing it (``--reference`` worlds, no time limit, another seed): the share of the long run's card and the
points the answer's card loses against the long run's best by its own figures, with the paired difference
blind − seeing and its 95 % interval. Prints the machine's cores first.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import Judged, judged_hint, machine, print_judged  # noqa: E402

from pinochle_cli.cards import Hand  # noqa: E402
from pinochle_cli.game.deal import deal_cards  # noqa: E402
from pinochle_cli.game.state import DealState  # noqa: E402
from pinochle_cli.hint.advice import hint_facts  # noqa: E402
from pinochle_cli.hint.facts import Facts, facts_of  # noqa: E402
from pinochle_cli.meld import meld, shown_cards  # noqa: E402
from pinochle_cli.player.seat import computer_card  # noqa: E402
from pinochle_cli.ruleset import Ruleset, load_ruleset  # noqa: E402
from pinochle_cli.workers import available_cores  # noqa: E402


def board(rules: Ruleset, number: int, seed: int) -> DealState:
    """Deal ``number``: the widow taken, trump named, the meld shown and the cheapest cards buried."""
    hands, widow = deal_cards(rules, np.random.default_rng([seed, number]))
    bidder = number % rules.players
    held = hands[bidder] + Hand(widow)
    trump = max(rules.suits, key=lambda s: meld(rules, held, s).total)
    shown = {s: shown_cards(rules, held if s == bidder else hands[s], trump) for s in range(rules.players)}
    spare = sorted(held - shown[bidder], key=lambda c: (c.suit == trump, rules.counter_value(c)))
    buried = Hand(spare[:rules.widow_size])
    hands = [held - buried if s == bidder else h for s, h in enumerate(hands)]
    return DealState.at_play(rules, trump, bidder=bidder, bid=rules.auction.minimum if rules.auction else None,
                             hands=hands, shown=shown, buried=buried, widow=Hand(widow))


def position(rules: Ruleset, number: int, trick: int, seed: int) -> Facts:
    """The board played by the computer to trick ``trick`` and on until a defender has a choice: its view."""
    state = board(rules, number, seed)
    while state.trick_number < trick or state.trick:
        state.play(computer_card(state))
    while state.turn.seat == state.bidder or len(state.legal_plays()) < 2:
        state.play(computer_card(state))
    return facts_of(state)


def compare(rules: Ruleset, trick: int, a: argparse.Namespace) -> None:
    """Each position seeing the widow and blind to it, judged by a long run seeing it."""
    cores = available_cores()
    rows: dict[str, list[Judged]] = {"seeing": [], "blind": []}
    for number in range(a.positions):
        facts = position(rules, number, trick, a.seed)
        assert len(facts.widow), "the widow is seen"
        long = hint_facts(facts, worlds=a.reference, seconds=None, seed=a.seed + 1, workers=cores)
        for label, view in (("seeing", facts), ("blind", replace(facts, widow=Hand()))):
            rows[label].append(judged_hint(view, long, a.time, a.seed, cores))
    print_judged(f"{rules.name:12s} trick {trick:2d}", rows, f"{a.reference} worlds seeing the widow", "blind",
                 "seeing")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--ruleset", default="three-handed")
    ap.add_argument("--tricks", type=int, nargs="+", default=[4])
    ap.add_argument("--time", type=float, default=5.0)
    ap.add_argument("--reference", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(machine("every one used"))
    rules = load_ruleset(a.ruleset)
    for trick in a.tricks:
        compare(rules, trick, a)


if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    main()
