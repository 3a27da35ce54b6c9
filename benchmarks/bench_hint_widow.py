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
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import machine  # noqa: E402

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
    cores = available_cores()
    rows: dict[str, list[tuple[float, bool, float]]] = {"seeing": [], "blind": []}
    for number in range(a.positions):
        facts = position(rules, number, trick, a.seed)
        assert len(facts.widow), "the widow is seen"
        long = hint_facts(facts, worlds=a.reference, seconds=None, seed=a.seed + 1, workers=cores)
        points = {j.card: j.points for j in long.cards}
        for label, view in (("seeing", facts), ("blind", replace(facts, widow=Hand(), widow_left=()))):
            start = time.monotonic()
            answer = hint_facts(view, seconds=a.time, seed=a.seed, workers=cores)
            rows[label].append((time.monotonic() - start, answer.best == long.best,
                                points[long.best] - points[answer.best]))
    for label, got in rows.items():
        s, same, lost = (np.array(x, dtype=float) for x in zip(*got, strict=True))
        print(f"{rules.name:12s} trick {trick:2d} {label:6s} {a.positions} hints  seconds: median {np.median(s):.2f}  "
              f"max {s.max():.2f}  same card as {a.reference} worlds seeing the widow: {100 * same.mean():.0f}%  "
              f"points lost: {lost.mean():.2f}", flush=True)
    diff = np.array([b[2] - s[2] for s, b in zip(rows["seeing"], rows["blind"], strict=True)])
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("inf")
    print(f"    points lost, blind - seeing: {diff.mean():+.2f} (95 % {diff.mean() - half:+.2f} to "
          f"{diff.mean() + half:+.2f})", flush=True)


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
