"""Speed of ``pinochle estimate``: deal-suits per second (one deal scored for one trump), numpy beside compiled.

For each four-handed bundled ruleset, a hand that may name every suit, ``--samples`` deals,
with 1 and 2 workers: the numpy player (today's reference, ``PINOCHLE_COMPILED=0``) and the
compiled player (``PINOCHLE_COMPILED=1``, its cache loaded once before timing), interleaved
``--repeat`` times in one run; the best time of each is shown and their ratio. Wall-clock
time of the library call, pool start-up included. The table also shows the CPU time per deal-suit
of each player (``getrusage``: this process and the pool's workers, the whole estimate): on a machine
shared with other jobs it varies far less than the wall-clock rates. For the compiled player, the
cores it kept busy on average (CPU time / wall time: 2.00 would be two cores busy all along) and its
rate against one worker's.

Then the command as users run it, in fresh processes: the default ``estimate`` (2,000
samples), today's path against the automatic choice, once with an empty numba cache (a first
run after install) and once with the cache in place; and a ``--samples 100000`` run.

``--profile`` adds a cProfile summary of a one-worker compiled run.

The games with a widow (three-handed and the two example rulesets) have a table of their own: the
same two players, their deal-suits per second on 1 and 2 workers (and per CPU second, twice that for
two cores kept busy) against the target of 100,000 on two cores (three-handed, compiled); ``--widow``
prints only that table.

    .venv/bin/python benchmarks/bench_estimate.py [--samples 10000] [--workers 1 2] [--repeat 3] [--profile]
    .venv/bin/python benchmarks/bench_estimate.py --widow [--samples 20000]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.cards import parse_cards
from pinochle_cli.estimate.checks import estimable_trumps
from pinochle_cli.estimate.games import Simulator
from pinochle_cli.estimate.simulate import estimate
from pinochle_cli.ruleset import bundled_names, load_ruleset

HANDS = {  # by hand size: K and Q in every suit, so that every suit may be named under any eligibility rule
    12: "AH TH KH QH JH AS KS QS KD QD KC QC",
    20: "AH AH TH KH KH QH QH JH JH AS AS KS QS AD KD QD AC TC KC QC",
}
MODES = {"numpy": "0", "compiled": "1"}
# the bidder's hand before the widow, by game
WIDOW_HANDS = {
    "three-handed": "AH AH TH KH QH JH 9H AS KS QS JD AD KC QC 9C",
    "examples/rulesets/four-handed-kitty.yaml": "AH TH KH QH JH AS KS QS JD AD KC",
    "examples/rulesets/three-handed-double.yaml": "AH AH TH TH KH KH QH QH JH JH AS AS KS QS QS JD JD AD AD KC QC AC "
                                                  "TC TS TD",
}
# deal-suits a second the three-handed estimate must reach on two cores, compiled
WIDOW_TARGET = 100_000
ROOT = Path(__file__).resolve().parent.parent


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (a pool's workers, once closed)."""
    try:
        import resource  # microseconds; os.times counts clock ticks (10 ms)
    except ImportError:  # Windows: os.times counts no children, so the pool's CPU is missing there
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _best(run: Callable[..., object], args: tuple[object, ...], repeat: int, **kw: object) -> tuple[float, float]:
    """The best wall-clock and the best CPU time (this process and its workers) of ``repeat`` calls."""
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), _cpu()
        run(*args, **kw)
        wall.append(time.perf_counter() - t0)
        cpu.append(_cpu() - c0)
    return min(wall), min(cpu)


def library_table(samples: int, workers_list: list[int], repeat: int, seed: int) -> None:
    print(f"{'ruleset':<18} {'suits':>5} {'workers':>7} {'numpy/s':>10} {'compiled/s':>11} {'ratio':>6}"
          f"  {'CPU µs/deal-suit: numpy':>23} {'compiled':>8} {'ratio':>6}  {'compiled: CPU/wall':>18}"
          f" {'x 1 worker':>10}")
    for name in bundled_names():
        rules = load_ruleset(name)
        if rules.auction is None or rules.players != 4:
            continue
        hand = rules.deck.check(parse_cards(HANDS[rules.hand_size]))
        Simulator(rules, hand, estimable_trumps(rules, hand)).load_compiled()  # the cache, loaded once
        suits = len(estimable_trumps(rules, hand))
        one = 0.0
        for workers in workers_list:
            rate, cpu = {}, {}
            for mode, flag in MODES.items():
                os.environ["PINOCHLE_COMPILED"] = flag
                dt, ct = _best(estimate, (rules, hand), repeat, samples=samples, seed=seed, workers=workers)
                rate[mode] = samples * suits / dt
                cpu[mode] = ct * 1e6 / (samples * suits)
            one = one or rate["compiled"]
            busy = cpu["compiled"] * rate["compiled"] / 1e6  # cores kept busy on average
            print(f"{name:<18} {suits:>5} {workers:>7} {rate['numpy']:>10,.0f} {rate['compiled']:>11,.0f} "
                  f"{rate['compiled'] / rate['numpy']:>5.2f}x  {cpu['numpy']:>23.2f} {cpu['compiled']:>8.2f} "
                  f"{cpu['numpy'] / cpu['compiled']:>5.2f}x  {busy:>18.2f} {rate['compiled'] / one:>9.2f}x")
    os.environ.pop("PINOCHLE_COMPILED", None)


def widow_table(samples: int, workers_list: list[int], repeat: int, seed: int) -> None:
    """Deal-suits a second of the games with a widow (every suit estimated), numpy beside compiled: by the wall
    clock, and per CPU second of this process and its workers (on a machine shared with other jobs the wall
    clock measures the others too; two cores kept busy do twice the CPU rate)."""
    print(f"\n{'game with a widow':<44} {'suits':>5} {'workers':>7} {'numpy/s':>10} {'compiled/s':>11} "
          f"{'ratio':>6}  {'compiled per CPU s':>18} {'x 2 cores':>10}  target (three-handed, 2 workers)")
    for name, cards in WIDOW_HANDS.items():
        rules = load_ruleset(name)
        hand = rules.deck.check(parse_cards(cards))
        Simulator(rules, hand, estimable_trumps(rules, hand)).load_compiled()  # the cache, loaded once
        suits = len(estimable_trumps(rules, hand))
        for workers in workers_list:
            rate, per_cpu = {}, {}
            for mode, flag in MODES.items():
                os.environ["PINOCHLE_COMPILED"] = flag
                dt, ct = _best(estimate, (rules, hand), repeat, samples=samples, seed=seed, workers=workers)
                rate[mode], per_cpu[mode] = samples * suits / dt, samples * suits / ct
            target = ""
            if name == "three-handed" and workers == 2:
                wall = "met" if rate["compiled"] >= WIDOW_TARGET else "missed"
                cores = "met" if 2 * per_cpu["compiled"] >= WIDOW_TARGET else "missed"
                target = f"{WIDOW_TARGET:,}/s: wall clock {wall}, two cores busy {cores}"
            print(f"{name:<44} {suits:>5} {workers:>7} {rate['numpy']:>10,.0f} {rate['compiled']:>11,.0f} "
                  f"{rate['compiled'] / rate['numpy']:>5.2f}x  {per_cpu['compiled']:>18,.0f} "
                  f"{2 * per_cpu['compiled']:>10,.0f}  {target}")
    os.environ.pop("PINOCHLE_COMPILED", None)


def _command(args: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pinochle_cli", *args], check=True, capture_output=True,
                   env={**os.environ, "PINOCHLE_RULESET": "", **env}, cwd=ROOT)
    return time.perf_counter() - t0


def command_table(repeat: int) -> None:
    hand = HANDS[12]
    default = ["estimate", hand, "--seed", "1", "--json"]
    large = ["estimate", hand, "--seed", "1", "--json", "--samples", "100000"]
    with tempfile.TemporaryDirectory() as empty:
        cases = [
            ("default, first run (empty cache)", default, {"NUMBA_CACHE_DIR": empty}),
            ("default, cache in place", default, {}),
            ("--samples 100000, cache in place", large, {}),
        ]
        print(f"\n{'pinochle estimate (single-deck, every core)':<44} {'today s':>8} {'new s':>7} {'ratio':>6}")
        for label, args, env in cases:
            today = min(_command(args, {**env, "PINOCHLE_COMPILED": "0"}) for _ in range(repeat))
            new = min(_command(args, env) for _ in range(repeat))
            print(f"{label:<44} {today:>8.2f} {new:>7.2f} {today / new:>5.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=10_000)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--widow", action="store_true", help="only the games with a widow")
    args = ap.parse_args()
    print(f"cpu_count={os.cpu_count()} load(1 min)={os.getloadavg()[0]:.2f} samples={args.samples} "
          f"(best of {args.repeat})")
    if not args.widow:
        library_table(args.samples, args.workers, args.repeat, args.seed)
    widow_table(args.samples, args.workers, args.repeat, args.seed)
    if not args.widow:
        command_table(args.repeat)
    print(f"load(1 min) after: {os.getloadavg()[0]:.2f}")
    if args.profile:
        os.environ["PINOCHLE_COMPILED"] = "1"
        rules = load_ruleset("single-deck")
        prof = cProfile.Profile()
        prof.enable()
        estimate(rules, parse_cards(HANDS[12]), samples=args.samples, seed=args.seed, workers=1)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
