"""Wall time of ``pinochle analyze`` (``solver.analyze.analyze_deal``) with one worker and two, in the same run.

For each recorded deal with a play among the examples (single-deck-played, single-deck-close-call,
three-handed-played; no double-deck record has a play), every card is judged with each setting of
workers and chunk (consecutive cards a worker takes at a time, from the last card back; 1 interleaves
the cards over the workers): the median wall time over ``--repeats`` runs, the CPU seconds (every
worker's, as the time limit counts them) and the nodes of that run. Every setting's verdicts are checked
against the first's. The compiled search is loaded before the first run is timed (forked workers inherit it).

    .venv/bin/python benchmarks/bench_analyze.py [--repeats 3] [--records single-deck-played ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.records import read_record
from pinochle_cli.solver.analyze import analyze_deal, playable_deals
from pinochle_cli.workers import available_cores

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RECORDS = ["single-deck-played", "single-deck-close-call", "three-handed-played"]
# (workers, chunk): one worker, then two with the cards interleaved, in short runs and in the default runs
SETTINGS = [(1, 8), (2, 1), (2, 4), (2, 8), (2, 12)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--records", nargs="+", default=RECORDS, choices=RECORDS)
    args = parser.parse_args()
    print(f"cores available: {available_cores()} (of {os.cpu_count()}); load average {os.getloadavg()[0]:.2f}")
    warm = read_record(str(EXAMPLES / "single-deck-close-call.yaml"))
    analyze_deal(warm, playable_deals(warm)[0])
    print(f"{'record':24} {'workers':>7} {'chunk':>5} {'wall s':>8} {'CPU s':>7} {'nodes':>11}  same")
    for name in args.records:
        record = read_record(str(EXAMPLES / f"{name}.yaml"))
        deal = playable_deals(record)[0]
        first = None
        for workers, chunk in SETTINGS:
            walls = []
            for _ in range(args.repeats):
                start = time.perf_counter()
                result = analyze_deal(record, deal, workers=workers, chunk=chunk)
                walls.append(time.perf_counter() - start)
            first = first or result.verdicts
            same = "yes" if result.verdicts == first else "NO"
            print(f"{name:24} {workers:7} {chunk:5} {statistics.median(walls):8.2f} {result.seconds:7.2f} "
                  f"{result.nodes:11,}  {same}", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
