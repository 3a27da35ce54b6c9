"""The expert set (tests/experts/) at the commands' default settings: agreement per kind, and a figure per disagreement.

Every case is asked as ``pass``, ``estimate --auction`` and ``hint`` answer it by default (the pass: 4,000
deals and the final round; the bid: 4,000 deals; the hint: 5 seconds on every core, as ``hint`` runs). For a
pass the project and the expert disagree on, the best pass that keeps to the expert (``sends`` and ``keeps``)
is played out against the project's on ``--deals`` fresh deals (the final round's play: heuristic openings,
the last tricks solved exactly) and the difference per deal printed with its 95 % interval; for a card, the
hint's own points of the expert's card and its best, judged with ``--hint-time`` seconds. Usage:

    python benchmarks/bench_experts.py [--kind pass|bid|card] [--deals 2000] [--hint-time 30]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine  # noqa: E402
from expertcases import (  # noqa: E402
    KINDS,
    THRESHOLDS,
    Case,
    _holds,
    _less,
    _suit,
    agreement,
    ask_bid,
    ask_card,
    ask_pass,
    case_cards,
    case_facts,
    load,
    report,
)

from pinochle_cli.cards import Card, Hand  # noqa: E402
from pinochle_cli.passing.candidates import passes  # noqa: E402
from pinochle_cli.passing.judge import PassQuestion  # noqa: E402
from pinochle_cli.passing.played import Played, final_seed  # noqa: E402
from pinochle_cli.passing.race import Difference, race  # noqa: E402


def _question(case: Case) -> PassQuestion:
    d = case.data
    hand = case.cards("hand")
    received = case.cards("received") or None
    if received is not None:
        hand = hand + received
    return PassQuestion(case.rules, d["role"], Hand(hand), _suit(d["trump"]), int(d["bid"]),
                    Hand(received) if received is not None else None)


def pass_figure(case: Case, project: str, deals: int) -> str:
    """The project's pass against the best one keeping to the expert, played out on ``deals`` fresh deals."""
    q = _question(case)
    e = case.expert
    hand = list(q.hand)
    cands = passes(q.hand, q.size)
    ok = [c for c in cands if _holds([Card.from_index(i) for i in c], case_cards(e.get("sends")))
          and _holds(_less(hand, [Card.from_index(i) for i in c]), case_cards(e.get("keeps")))]
    mine = tuple(sorted(Card.parse(t).index for t in project.split()))
    field = [mine, *[c for c in ok if c != mine]]
    # the expert's candidates raced among themselves (the project's pass played on every deal)
    run = race(Played(q), field, 0, final_seed(7), samples=deals, top=1, workers=None)
    best = next(i for i in run.order if i != 0)
    d = Difference.of(run.joined[0].points, run.joined[best].points[:len(run.joined[0].points)])
    sent = " ".join(Card.from_index(i).ascii() for i in field[best])
    return (f"project's {project} minus the expert's best ({sent}): {d.mean:+.1f} points a deal "
            f"(95 % {d.ci95[0]:+.1f} to {d.ci95[1]:+.1f}) over {len(run.joined[0].points)} deals played out")


def card_figure(case: Case, seconds: float) -> str:
    from pinochle_cli.hint.advice import hint_facts

    h = hint_facts(case_facts(case), seconds=seconds, workers=2)
    pts = {j.card.ascii(): (j.points, j.counters) for j in h.cards}
    plays = [c.ascii() for c in case_cards(case.expert["plays"]) if c.ascii() in pts]
    best_expert = max(plays, key=lambda c: pts[c])
    mine, theirs = pts[h.best.ascii()], pts[best_expert]
    return (f"hint --time {seconds:g}: {h.best.ascii()} {mine[0]:.1f} points ({mine[1]:.1f} counters) against the "
            f"expert's {best_expert} {theirs[0]:.1f} ({theirs[1]:.1f} counters) over {len(h.worlds)} worlds")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--kind", choices=KINDS, action="append")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--hint-time", type=float, default=30.0)
    a = p.parse_args()
    print(machine("every one used"))
    for kind in a.kind or KINDS:
        start = time.monotonic()
        verdicts = []
        for case in load(kind):
            if kind == "pass":
                v = ask_pass(case, samples=4000, workers=None)
            elif kind == "bid":
                v = ask_bid(case, samples=4000, workers=None)
            else:
                v = ask_card(case, seconds=5.0, workers=None)
            verdicts.append(v)
            if not v.agrees:
                figure = pass_figure(case, v.answer, a.deals) if kind == "pass" else (
                    card_figure(case, a.hint_time) if kind == "card" else "")
                print(f"  {case.id}: {figure}", flush=True)
        print(report(kind, verdicts))
        met = "met" if agreement(verdicts) >= THRESHOLDS[kind] else "NOT met"
        print(f"  needed {100 * THRESHOLDS[kind]:.0f} %: {met}"
              f"; {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
