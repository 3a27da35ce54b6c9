"""How long does the default pass advice take, for the partner and for the bidder, and the bury advice?

Fresh processes, ``pinochle pass HAND -t SUIT --bid N --json`` (``--bury`` for a three-handed bidder's bury)
with the default samples and top, on
``--workers`` cores (default 2), the compiled engine built first (``pinochle prepare``, not timed). Prints the
machine's cores, each run's wall time to the process's exit (start-up included), the median, and the games
played.

    .venv/bin/python benchmarks/bench_pass.py [--workers 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.workers import available_cores

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = {
    # a partner holding aces around, a pinochle and four hearts: 495 passes
    "partner": ["AH 10H KH 9H AS AC AD QS 9S JD 9D 9C", "-t", "H", "--bid", "300"],
    # a bidder with a double run in hearts after the pass: 565 returns
    "bidder": ["AH 10H KH QH JH AH 10H KH QH JH AS AC 9S JS 9D 9C", "-t", "H", "--bid", "1700", "--as", "bidder"],
    # a bidder whose 16 cards hold no card twice: 1,820 returns, the most there are
    "bidder, 16 different": ["AH 10H KH QH JH 9H AS 10S KS QS AD 10D KD QD AC 10C", "-t", "H", "--bid", "350",
                             "--as", "bidder"],
    # a three-handed bidder's bury with the widow taken (the README's): 56 buries, the melded cards kept
    "bury": ["AS TS KS QS JS 9S AH TH KH 9H AD QD JD 9D AC KC 9C JC", "-r", "three-handed", "--bury", "-t", "S",
             "--bid", "400"],
    # one with little meld: 286 buries
    "bury, 286": ["AS TS KS JS 9S AH TH QH JH 9H AD TD KD JD 9D AC TC KC", "-r", "three-handed", "--bury", "-t", "D",
                  "--bid", "300"],
}


def _run(args: list[str], workers: int) -> tuple[float, dict[str, object]]:
    env = {**os.environ, "PINOCHLE_RULESET": "", "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "pinochle_cli", "pass", *args, "--workers", str(workers), "--json"],
                         env=env, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, json.loads(out)


def _games(doc: dict[str, object]) -> int:
    rounds = doc["rounds"]
    assert isinstance(rounds, list)
    total, before = 0, 0
    for r in rounds:
        total += (r["candidates"] + 1) * (r["deals"] - before)
        before = r["deals"]
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"cores available: {available_cores()} (os.cpu_count {os.cpu_count()}); workers {args.workers}")
    # the engine built first: a first run after an install would build it
    subprocess.run([sys.executable, "-m", "pinochle_cli", "prepare"], check=True, capture_output=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    for name, question in QUESTIONS.items():
        times = []
        doc: dict[str, object] = {}
        for _ in range(args.repeat):
            t, doc = _run(question, args.workers)
            times.append(t)
        runs = " ".join(f"{t:.2f}" for t in times)
        print(f"{name:22} {doc['candidates']:5} candidates, {_games(doc):7,} games: "
              f"median {statistics.median(times):.2f} s (runs {runs})")


if __name__ == "__main__":
    main()
