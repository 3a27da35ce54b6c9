"""Wall time of ``pinochle analyze`` (``solver.analyze.analyze_deal``) with one worker and two, in the same run.

For each recorded deal with a play among the examples (single-deck-played, single-deck-close-call,
three-handed-played; no double-deck record has a play), every card is judged with each setting of
workers and chunk (consecutive cards a worker takes at a time, from the last card back; 1 interleaves
the cards over the workers): the median wall time over ``--repeats`` runs, the CPU seconds (every
worker's, as the time limit counts them) and the nodes of that run, and the share of the CPU time the first
card takes (one position, judged by one process). Every setting's verdicts are checked
against the first's. Then a record of four deals (the two single-deck examples twice) analysed whole with one
worker and with two (a deal each: ``analyze_deals``). The compiled search is loaded before the first run is
timed (forked workers inherit it). First, what two processes can gain on the machine at the moment: the
wall time of a pure-Python loop run twice in this process and once in each of two processes (on a machine
shared with other work the ratio falls well below 2, and so does every figure's).

    .venv/bin/python benchmarks/bench_analyze.py [--repeats 3] [--records single-deck-played ...]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.records import DealRecord, MatchRecord, parse_record, read_record
from pinochle_cli.solver.analyze import analyze_deal, analyze_deals, playable_deals
from pinochle_cli.workers import available_cores

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RECORDS = ["single-deck-played", "single-deck-close-call", "three-handed-played"]
# (workers, chunk): one worker, then two with the cards interleaved, in short runs and in the default runs
SETTINGS = [(1, 8), (2, 1), (2, 4), (2, 8), (2, 12)]


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def capacity(n: int = 20_000_000) -> None:
    """The speed-up two processes give a pure-Python loop now (2 on an idle machine with two cores)."""
    start = time.perf_counter()
    _burn(n)
    _burn(n)
    alone = time.perf_counter() - start
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_burn, [n, n])
    both = time.perf_counter() - start
    print(f"a loop twice: {alone:.2f} s in one process, {both:.2f} s in two: two processes gain x{alone / both:.2f}")


def first_card_share(record: MatchRecord, deal: DealRecord) -> float:
    """The share of the deal's CPU time (one worker) that its first card took: the cards go from the last back."""
    marks: list[float] = []
    start = time.process_time()
    analyze_deal(record, deal, progress=lambda done, total: marks.append(time.process_time()))
    return (marks[-1] - marks[-2]) / (marks[-1] - start)


def four_deals() -> MatchRecord:
    """The single-deck examples' two deals, twice, in one record."""
    texts = [(EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8") for name in RECORDS[:2]]
    deals = [text[text.index("deals:\n") + len("deals:\n"):] for text in texts]
    return parse_record(texts[0][:texts[0].index("deals:\n") + len("deals:\n")] + "".join(deals * 2))


def whole_record(repeats: int) -> None:
    """The four-deal record with one worker and with two (a deal each)."""
    record = four_deals()
    deals = playable_deals(record)
    first = None
    for workers in (1, 2):
        walls = []
        for _ in range(repeats):
            start = time.perf_counter()
            results = analyze_deals(record, deals, workers=workers)
            walls.append(time.perf_counter() - start)
        verdicts = [a.verdicts for a in results]
        first = first or verdicts
        same = "yes" if verdicts == first else "NO"
        print(f"{'four deals (a deal each)':24} {workers:7} {'-':>5} {statistics.median(walls):8.2f} "
              f"{sum(a.seconds for a in results):7.2f} {sum(a.nodes for a in results):11,}  {same}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--records", nargs="+", default=RECORDS, choices=RECORDS)
    args = parser.parse_args()
    print(f"cores available: {available_cores()} (of {os.cpu_count()}); load average {os.getloadavg()[0]:.2f}")
    capacity()
    warm = read_record(str(EXAMPLES / "single-deck-close-call.yaml"))
    analyze_deal(warm, playable_deals(warm)[0])
    print(f"{'record':24} {'workers':>7} {'chunk':>5} {'wall s':>8} {'CPU s':>7} {'nodes':>11}  same")
    for name in args.records:
        record = read_record(str(EXAMPLES / f"{name}.yaml"))
        deal = playable_deals(record)[0]
        first = None
        print(f"{name:24} the first card: {first_card_share(record, deal):.0%} of the CPU time with one worker")
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
    whole_record(args.repeats)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
