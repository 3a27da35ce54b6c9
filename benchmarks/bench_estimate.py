"""Speed of ``pinochle estimate``: deal-suits per second (one deal scored for one trump) of the computer player.

For each four-handed bundled ruleset, a hand that may name every suit, ``--samples`` deals, with 1 and 2 workers
(``--workers``), ``--repeat`` times, the best time kept: deal-suits per second by the wall clock (the library call,
pool start-up included), the CPU time per deal-suit (``getrusage``: this process and the pool's workers, the whole
estimate; on a machine shared with other jobs it varies far less than the wall-clock rates), the cores kept busy
on average (CPU time / wall time: 2.00 would be two cores busy all along) and the rate against one worker's. The
compiled engine is built first (``prepare.ensure``, not timed) and loaded once before timing.

The games with a widow (three-handed and the two example rulesets) have a table of their own: deal-suits per
second on 1 and 2 workers, and per CPU second (twice that for two cores kept busy), against the target of 100,000
on two cores (three-handed); ``--widow`` prints only that table.

Then the player beside an earlier commit's (``--baseline REV``, default ``revisions.BEFORE_ONE_PLAYER``, the last
commit with two players: numpy's and its compiled twin; ``--no-baseline``: none): every hand above, ``--samples``
deals, one worker, estimated by the revision's numpy player (``PINOCHLE_COMPILED=0``), by its compiled player
(``=1``, compiled into the revision's worktree first, not timed) and by this checkout's player, each revision in a
worker process of its own (``revisions.Revision``), interleaved ``--repeat`` times, the best kept: deal-suits per
second by the wall clock and per CPU second of the call alone. The answers must be the same JSON (the player is
the same player, the seed the same); the run fails otherwise.

Then the command as users run it, in fresh processes: the default ``estimate`` (2,000 samples) a first time after
an install (the engine not built yet: an empty ``NUMBA_CACHE_DIR``; run once), then with the engine built, and a
``--samples 100000`` run; with a baseline, the revision's command beside it (its automatic choice of player).

``--profile`` adds a cProfile summary of a one-worker run.

    .venv/bin/python benchmarks/bench_estimate.py [--samples 10000] [--workers 1 2] [--repeat 3] [--profile]
                                                  [--baseline REV | --no-baseline]
    .venv/bin/python benchmarks/bench_estimate.py --widow [--samples 20000]
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import machine  # noqa: E402
from revisions import BEFORE_ONE_PLAYER, Revision  # noqa: E402

from pinochle_cli import prepare  # noqa: E402
from pinochle_cli.cards import parse_cards  # noqa: E402
from pinochle_cli.estimate.checks import estimable_trumps  # noqa: E402
from pinochle_cli.estimate.simulate import estimate  # noqa: E402
from pinochle_cli.ruleset import Ruleset, bundled_names, load_ruleset  # noqa: E402

HANDS = {  # by hand size: K and Q in every suit, so that every suit may be named under any eligibility rule
    12: "AH TH KH QH JH AS KS QS KD QD KC QC",
    20: "AH AH TH KH KH QH QH JH JH AS AS KS QS AD KD QD AC TC KC QC",
}
# the bidder's hand before the widow, by game
WIDOW_HANDS = {
    "three-handed": "AH AH TH KH QH JH 9H AS KS QS JD AD KC QC 9C",
    "examples/rulesets/four-handed-kitty.yaml": "AH TH KH QH JH AS KS QS JD AD KC",
    "examples/rulesets/three-handed-double.yaml": "AH AH TH TH KH KH QH QH JH JH AS AS KS QS QS JD JD AD AD KC QC AC "
                                                  "TC TS TD",
}
# deal-suits a second the three-handed estimate must reach on two cores
WIDOW_TARGET = 100_000
# the baseline revision's two players, by the value of its PINOCHLE_COMPILED
OLD_PLAYERS = {"numpy": "0", "compiled": "1"}


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


def _games() -> list[tuple[str, Ruleset, str]]:
    """(name, ruleset, hand) of every game measured: the four-handed bundled rulesets, then those with a widow."""
    out = []
    for name in bundled_names():
        rules = load_ruleset(name)
        if rules.auction is not None and rules.players == 4:
            out.append((name, rules, HANDS[rules.hand_size]))
    return out + [(name, load_ruleset(name), cards) for name, cards in WIDOW_HANDS.items()]


def _warm(rules: Ruleset, cards: str) -> None:
    """The engine loaded into this process (its first use), before any timing."""
    estimate(rules, parse_cards(cards), samples=10, seed=0, workers=1)


def library_table(samples: int, workers_list: list[int], repeat: int, seed: int) -> None:
    print(f"{'ruleset':<18} {'suits':>5} {'workers':>7} {'deal-suits/s':>12}  {'CPU µs/deal-suit':>16}"
          f"  {'CPU/wall':>8} {'x 1 worker':>10}")
    for name, rules, cards in _games():
        if rules.widow_size:
            continue
        hand = rules.deck.check(parse_cards(cards))
        suits = len(estimable_trumps(rules, hand))
        one = 0.0
        for workers in workers_list:
            dt, ct = _best(estimate, (rules, hand), repeat, samples=samples, seed=seed, workers=workers)
            rate, cpu = samples * suits / dt, ct * 1e6 / (samples * suits)
            one = one or rate
            busy = cpu * rate / 1e6  # cores kept busy on average
            print(f"{name:<18} {suits:>5} {workers:>7} {rate:>12,.0f}  {cpu:>16.2f}  {busy:>8.2f} {rate / one:>9.2f}x")


def widow_table(samples: int, workers_list: list[int], repeat: int, seed: int) -> None:
    """Deal-suits a second of the games with a widow (every suit estimated): by the wall clock, and per CPU second
    of this process and its workers (on a machine shared with other jobs the wall clock measures the others too;
    two cores kept busy do twice the CPU rate)."""
    print(f"\n{'game with a widow':<44} {'suits':>5} {'workers':>7} {'deal-suits/s':>12}  {'per CPU s':>10} "
          f"{'x 2 cores':>10}  target (three-handed, 2 workers)")
    for name, rules, cards in _games():
        if not rules.widow_size:
            continue
        hand = rules.deck.check(parse_cards(cards))
        suits = len(estimable_trumps(rules, hand))
        for workers in workers_list:
            dt, ct = _best(estimate, (rules, hand), repeat, samples=samples, seed=seed, workers=workers)
            rate, per_cpu = samples * suits / dt, samples * suits / ct
            target = ""
            if name == "three-handed" and workers == 2:
                wall = "met" if rate >= WIDOW_TARGET else "missed"
                cores = "met" if 2 * per_cpu >= WIDOW_TARGET else "missed"
                target = f"{WIDOW_TARGET:,}/s: wall clock {wall}, two cores busy {cores}"
            print(f"{name:<44} {suits:>5} {workers:>7} {rate:>12,.0f}  {per_cpu:>10,.0f} {2 * per_cpu:>10,.0f}  "
                  f"{target}")


def _source(name: str) -> str:
    """The ruleset as a worker of any revision reads it: a bundled name, or a path of this checkout."""
    return str(ROOT / name) if name.endswith(".yaml") else name


def baseline_table(old: Revision, new: Revision, samples: int, repeat: int, seed: int) -> None:
    """The revision's two players beside this checkout's, one worker each, answers compared (see the docstring)."""
    old_names = [f"{old.name} {player}" for player in OLD_PLAYERS]
    print(f"\n{'one worker, deal-suits/s (per CPU s)':<44} {'suits':>5} "
          + " ".join(f"{label:>22}" for label in [*old_names, "now"]) + "  now/old compiled  answers")
    for name, rules, cards in _games():
        suits = len(estimable_trumps(rules, rules.deck.check(parse_cards(cards))))
        # the revision's compiled player built into its worktree, and this checkout's engine loaded, untimed
        old.estimate(_source(name), cards, samples=10, seed=0, env={"PINOCHLE_COMPILED": "1"})
        new.estimate(_source(name), cards, samples=10, seed=0)
        runs: dict[str, list[tuple[float, float]]] = {label: [] for label in [*old_names, "now"]}
        answers = {}
        for _ in range(repeat):
            for label, player in zip(old_names, OLD_PLAYERS.values(), strict=True):
                answers[label], wall, cpu = old.estimate(_source(name), cards, samples=samples, seed=seed,
                                                         env={"PINOCHLE_COMPILED": player})
                runs[label].append((wall, cpu))
            answers["now"], wall, cpu = new.estimate(_source(name), cards, samples=samples, seed=seed)
            runs["now"].append((wall, cpu))
        rate = {label: (samples * suits / min(w for w, _ in times), samples * suits / min(c for _, c in times))
                for label, times in runs.items()}
        same = all(answer == answers["now"] for answer in answers.values())
        cells = " ".join(f"{f'{wall:,.0f} ({cpu:,.0f})':>22}" for wall, cpu in rate.values())
        print(f"{name:<44} {suits:>5} {cells}  {rate['now'][0] / rate[old_names[1]][0]:>15.2f}x  "
              f"{'the same' if same else 'DIFFER'}")
        if not same:
            raise SystemExit(f"{name}: the answers of {old.name} and this checkout differ for seed {seed}")


def _command(args: list[str], env: dict[str, str], tree: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pinochle_cli", *args], check=True, capture_output=True,
                   env={**os.environ, "PINOCHLE_RULESET": "", "PYTHONPATH": str(tree), **env}, cwd=tree)
    return time.perf_counter() - t0


def command_table(repeat: int, old: Revision | None) -> None:
    """The command in fresh processes, this checkout's beside the revision's (see the docstring)."""
    hand = HANDS[12]
    default = ["estimate", hand, "--seed", "1", "--json"]
    large = ["estimate", hand, "--seed", "1", "--json", "--samples", "100000"]
    with tempfile.TemporaryDirectory() as empty, tempfile.TemporaryDirectory() as state:
        # the revision's background build counts its work in PINOCHLE_CACHE_DIR: a folder of this run's
        cases = [
            ("default, first run (engine not built; once)", default, {"NUMBA_CACHE_DIR": empty}, 1),
            ("default, engine built", default, {}, repeat),
            ("--samples 100000, engine built", large, {}, repeat),
        ]
        old_label = f"{old.name} s" if old is not None else ""
        print(f"\n{'pinochle estimate (single-deck, every core)':<44} {'now s':>7} {old_label:>10} "
              f"{'old/now' if old is not None else '':>7}")
        for label, args, env, times in cases:
            env = {**env, "PINOCHLE_CACHE_DIR": state}
            now = min(_command(args, env, ROOT) for _ in range(times))
            if old is None:
                print(f"{label:<44} {now:>7.2f}")
                continue
            assert old.tree is not None
            before = min(_command(args, env, old.tree) for _ in range(times))
            print(f"{label:<44} {now:>7.2f} {before:>10.2f} {before / now:>6.2f}x")


def _profile(samples: int, seed: int) -> None:
    rules = load_ruleset("single-deck")
    prof = cProfile.Profile()
    prof.enable()
    estimate(rules, parse_cards(HANDS[12]), samples=samples, seed=seed, workers=1)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(12)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=10_000)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--widow", action="store_true", help="only the games with a widow")
    ap.add_argument("--baseline", default=BEFORE_ONE_PLAYER, metavar="REV",
                    help=f"the earlier commit whose players are set beside this one [default: {BEFORE_ONE_PLAYER}]")
    ap.add_argument("--no-baseline", action="store_true", help="this checkout's player alone")
    args = ap.parse_args()
    print(f"{machine('the workers below')}  samples={args.samples} (best of {args.repeat})")
    prepare.ensure()
    _warm(load_ruleset("single-deck"), HANDS[12])
    if not args.widow:
        library_table(args.samples, args.workers, args.repeat, args.seed)
    widow_table(args.samples, args.workers, args.repeat, args.seed)
    with contextlib.ExitStack() as stack:
        old = None
        if not args.widow and not args.no_baseline:
            old = stack.enter_context(Revision(args.baseline))
            new = stack.enter_context(Revision("."))
            baseline_table(old, new, args.samples, args.repeat, args.seed)
        if not args.widow:
            command_table(args.repeat, old)
    if hasattr(os, "getloadavg"):
        print(f"load(1 min) after: {os.getloadavg()[0]:.2f}")
    if args.profile:
        _profile(args.samples, args.seed)


if __name__ == "__main__":
    main()
