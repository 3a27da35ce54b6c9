"""The hint's pace: what a whole answer takes, how many worlds it judges, and how often its card is a long run's.

    python benchmarks/bench_hint_pace.py [--positions 50] [--ruleset single-deck --ruleset double-deck]
                                         [--tricks 1 4 8] [--time 5] [--reference 2000] [--seed 1]
    python benchmarks/bench_hint_pace.py --deepening [--positions 20] [--tricks 1 4] [--reference 400]

Positions: boards as ``bench_hint_duplicate.py`` deals them, played by the computer player to the start of
trick 1, 4 or 8, then the player to move asks for a hint with the default settings (``--time`` seconds, every
core). Per ruleset and trick: the wall seconds of the whole answer (median, p95, max), the worlds judged
(median and least), how the cards were judged, why the judging stopped, and the share of hints whose card is
the one the same plan picks over ``--reference`` worlds without a time limit (the long run; 0: not run).
With ``--deepening`` each position is asked twice in the same run, without and with the deepening of the plan in
the time left (``advice._deepened``), and both answers are judged by a long run of the deepest plan (no time
limit, ``--reference`` worlds, another seed): the share of the long run's card, and the points the answer's card
loses against the long run's best by the long run's own figures (mean, and the paired difference old − new
with its 95 % interval). Prints the machine's cores first.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_hint_duplicate import board  # noqa: E402
from common import Judged, judged_hint, machine, print_judged  # noqa: E402

from pinochle_cli.hint import advice  # noqa: E402
from pinochle_cli.hint.advice import hint_facts  # noqa: E402
from pinochle_cli.hint.facts import facts_of  # noqa: E402
from pinochle_cli.player.seat import computer_card  # noqa: E402
from pinochle_cli.ruleset import load_ruleset  # noqa: E402
from pinochle_cli.workers import available_cores  # noqa: E402


def position(name: str, number: int, trick: int, seed: int):  # type: ignore[no-untyped-def]
    """Board ``number`` played by the computer to the start of trick ``trick``; its player to move's view."""
    state = board(load_ruleset(name), number, seed)
    while state.trick_number < trick or state.trick:
        state.play(computer_card(state))
    while len(state.legal_plays()) < 2:  # a choice to make
        state.play(computer_card(state))
    return facts_of(state)


def run(name: str, trick: int, a: argparse.Namespace) -> None:
    cores = available_cores()
    seconds, worlds, agree, hows, whys = [], [], [], Counter(), Counter()
    for number in range(a.positions):
        facts = position(name, number, trick, a.seed)
        start = time.monotonic()
        answer = hint_facts(facts, seconds=a.time, seed=a.seed, workers=cores)
        seconds.append(time.monotonic() - start)
        worlds.append(len(answer.worlds))
        hows[answer.plan] += 1
        whys[answer.why] += 1
        if a.reference:
            long = hint_facts(facts, worlds=a.reference, seconds=None, seed=a.seed + 1, workers=cores,
                              plan=answer.scheme)
            agree.append(long.best == answer.best)
    s = np.array(seconds)
    line = (f"{name:12s} trick {trick:2d}  {a.positions} hints  seconds: median {np.median(s):.2f}  p95 "
            f"{np.percentile(s, 95):.2f}  max {s.max():.2f}  worlds: median {np.median(worlds):.0f}  least "
            f"{min(worlds)}")
    if agree:
        line += f"  same card as {a.reference} worlds: {100 * np.mean(agree):.0f}%"
    print(line, flush=True)
    print(f"    stopped: {dict(whys)}; how: {dict(hows)}", flush=True)


def _shallow(facts, deal, judged_by, plan, last, *rest):  # type: ignore[no-untyped-def]
    """The hint before the deepening: the calibrated plan's answer kept."""
    return plan, last[0]


def compare(name: str, trick: int, a: argparse.Namespace) -> None:
    """Each position without and with the deepening, judged by the deepest plan's long run."""
    cores, deepened = available_cores(), advice._deepened
    rows: dict[str, list[Judged]] = {"before": [], "after": []}
    for number in range(a.positions):
        facts = position(name, number, trick, a.seed)
        long = hint_facts(facts, worlds=a.reference, seconds=None, seed=a.seed + 1, workers=cores)
        for label, way in (("before", _shallow), ("after", deepened)):
            advice._deepened = way  # type: ignore[assignment]
            rows[label].append(judged_hint(facts, long, a.time, a.seed, cores))
        advice._deepened = deepened
    print_judged(f"{name:12s} trick {trick:2d}", rows, f"{a.reference} worlds of the deepest plan", "before", "after")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--ruleset", action="append", default=None)
    ap.add_argument("--tricks", type=int, nargs="+", default=[1, 4, 8])
    ap.add_argument("--time", type=float, default=5.0)
    ap.add_argument("--reference", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deepening", action="store_true")
    a = ap.parse_args()
    print(machine("every one used"))
    for name in a.ruleset or ["single-deck", "double-deck"]:
        for trick in a.tricks:
            (compare if a.deepening else run)(name, trick, a)


if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    main()
