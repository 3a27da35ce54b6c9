"""The pass advice with and without its final round: wall time at the defaults, and how often the final round
changes the best pass, over random hands.

For each of ``--hands`` random partner's hands (single-deck, a random trump, bid 300; seed ``--seed``) the
advice is asked twice at the defaults in the same process: the old way (the heuristic race alone,
``final_deals=0``) and the new (the race, then the best four played out). Prints the machine's cores, each
way's median, 90th-percentile and longest seconds, the share of hands whose best pass the final round
changed, and how many of those changes the final round is sure of (its best ahead of the next beyond the noise).
With ``--bound`` the two ways are instead the final round on all its deals (``seconds=None``, before the time
bound) and with the default time bound (``PASS_SECONDS``): how often the bound cut the round and changed the best.

    python benchmarks/bench_pass_final.py [--hands 100] [--seed 1] [--bound]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from common import machine

from pinochle_cli.cards import Hand, Suit
from pinochle_cli.passing.judge import PassQuestion
from pinochle_cli.passing.race import PASS_SECONDS, advise
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.workers import workers_for


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bound", action="store_true", help="old: no time bound; new: the default bound")
    a = p.parse_args()
    if a.bound:
        bound(a.hands, a.seed)
        return
    rules = load_ruleset("single-deck")
    workers = workers_for(None)[0]
    print(machine(f"{workers} used"), flush=True)
    rng = random.Random(a.seed)
    deck = list(rules.deck.cards())
    old, new, changed, sure = [], [], 0, 0
    for i in range(a.hands):
        hand = Hand(rng.sample(deck, rules.hand_size))
        trump = Suit(rng.randrange(4))
        q = PassQuestion(rules, "partner", hand, trump, 300)
        try:
            q.check()
        except Exception:
            continue
        t = time.monotonic()
        advise(q, workers=workers, final_deals=0)
        old.append(time.monotonic() - t)
        t = time.monotonic()
        advice = advise(q, workers=workers)
        new.append(time.monotonic() - t)
        changed += bool(advice.final is not None and advice.final.changed)
        # a change the final round is sure of: its best ahead of the next finalist beyond the noise
        sure += bool(advice.final is not None and advice.final.changed and advice.margin is not None
                     and advice.margin.ci95[0] > 0)
        print(f"hand {i + 1}: old {old[-1]:.1f} s, new {new[-1]:.1f} s, changed so far {changed} of {len(new)}",
              flush=True)
    for name, times in (("old (race alone)", old), ("new (race + final round)", new)):
        print(f"{name}: median {np.median(times):.2f} s, 90th percentile {np.percentile(times, 90):.2f} s, "
              f"longest {max(times):.2f} s")
    print(f"the final round changed the best pass in {changed} of {len(new)} hands ({100 * changed / len(new):.0f} %); "
          f"in {sure} of them its new best was ahead of the next finalist beyond the noise")


def bound(hands: int, seed: int) -> None:
    """The final round on all its deals against the time-bounded one, hand by hand in the same process."""
    rules = load_ruleset("single-deck")
    workers = workers_for(None)[0]
    print(machine(f"{workers} used") + f"; bound {PASS_SECONDS:g} s", flush=True)
    rng = random.Random(seed)
    deck = list(rules.deck.cards())
    old, new, cut, differ = [], [], 0, 0
    for i in range(hands):
        hand = Hand(rng.sample(deck, rules.hand_size))
        q = PassQuestion(rules, "partner", hand, Suit(rng.randrange(4)), 300)
        try:
            q.check()
        except Exception:
            continue
        t = time.monotonic()
        before = advise(q, workers=workers, seconds=None)
        old.append(time.monotonic() - t)
        t = time.monotonic()
        after = advise(q, workers=workers)
        new.append(time.monotonic() - t)
        was_cut = after.final is not None and after.final.cut
        cut += was_cut
        differ += before.ranked[0].cards != after.ranked[0].cards
        print(f"hand {i + 1}: old {old[-1]:.1f} s, new {new[-1]:.1f} s"
              f"{f' (cut to {after.final.deals} deals)' if was_cut and after.final else ''}", flush=True)
    for name, times in (("old (final round unbounded)", old), (f"new (bounded at {PASS_SECONDS:g} s)", new)):
        print(f"{name}: median {np.median(times):.2f} s, 90th percentile {np.percentile(times, 90):.2f} s, "
              f"longest {max(times):.2f} s, over 10 s: {sum(t > 10 for t in times)}")
    print(f"the bound cut the final round in {cut} of {len(new)} hands; the best pass differed in {differ}")


if __name__ == "__main__":
    main()
