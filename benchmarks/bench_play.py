"""The play session's pace: the slowest decision of the computer and of the advice over practice deals.

    python benchmarks/bench_play.py [--deals 20] [--time 5] [--seed 1] [--ruleset NAME …] [--review]

Deals ``--deals`` practice deals (``pinochle play`` through its library, ``session.Session``), the bundled games
in turn unless ``--ruleset`` names some; the user's seat asks for advice (``hint``) at every decision and then
plays the computer's own choice. Every answer is timed as the session times it (``Session.timings``): each action
of the computer for the other seats, each advice (call, trump, pass, bury, meld, card) with the session's
``--time`` budget. Prints the machine's cores first, then per game and kind the answers, their median and their
slowest, and last the slowest answer of the computer and of the advice against the budget. ``--review`` also
times the review at the end of each deal (its own budget: ``postmortem.TIME_SHARES`` times ``--time``). The
engine is loaded before the first deal (``warm_engine``), as the command does, and is not counted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import machine  # noqa: E402

from pinochle_cli.player.turn import Computer  # noqa: E402
from pinochle_cli.ruleset import bundled_names  # noqa: E402
from pinochle_cli.session.commands import parse_command  # noqa: E402
from pinochle_cli.session.postmortem import TIME_SHARES  # noqa: E402
from pinochle_cli.session.session import Session, warm_engine  # noqa: E402
from pinochle_cli.session.settings import Settings  # noqa: E402
from pinochle_cli.workers import available_cores  # noqa: E402


def deal(name: str, seed: int, seconds: float, review: bool) -> list[tuple[str, float]]:
    """One practice deal with advice at every decision of the user; the session's timings."""
    session = Session.begin(Settings(name, seed=seed, seconds=seconds, review=review))
    session.start()
    me = Computer(session.rules, seed + 1)
    while session.phase == "deal":
        session.handle(parse_command("hint", session.rules.players))
        state = session.state
        assert state is not None
        act = me.act(state)
        session.handle(parse_command("meld" if act.kind == "meld" and state.stage == "meld" else str(act),
                                     session.rules.players))
    return session.timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--time", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", action="append", default=None)
    parser.add_argument("--review", action="store_true")
    a = parser.parse_args()
    names = a.ruleset or bundled_names()
    print(f"{machine(f'the hint on {available_cores()}, the estimates on one')}; {a.deals} practice deals; "
          f"budget {a.time:g} s an answer", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["PINOCHLE_DATA_DIR"] = folder
        began = time.monotonic()
        warm_engine()
        print(f"engine loaded in {time.monotonic() - began:.1f} s (not counted)", flush=True)
        times: dict[tuple[str, str], list[float]] = defaultdict(list)
        for k in range(a.deals):
            name = names[k % len(names)]
            for what, seconds in deal(name, a.seed + k, a.time, a.review):
                times[(name, what)].append(seconds)
    print(f"{'game':<18} {'answer':<22} {'count':>6} {'median s':>9} {'slowest s':>10}")
    for (name, what), found in sorted(times.items()):
        print(f"{name:<18} {what:<22} {len(found):>6} {statistics.median(found):>9.3f} {max(found):>10.3f}")
    for who in ("computer", "advice", "review"):
        found = [(s, n, w) for (n, w), ss in times.items() if w.startswith(who) for s in ss]
        if not found:
            continue
        worst = max(found)
        budget = a.time * (TIME_SHARES if who == "review" else 1)
        print(f"slowest {who}: {worst[0]:.3f} s ({worst[1]}, {worst[2]}); budget {budget:g} s: "
              f"{'within' if worst[0] <= budget else 'OVER'}")


if __name__ == "__main__":
    main()
