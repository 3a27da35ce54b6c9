"""Seconds for `record add`, `undo`, `redo`, `edit` and `score` on long records (goal: under 1 s each).

    python benchmarks/bench_records.py [DEALS ...]      (default: 1000 5000)

Each command runs as a user runs it (a fresh `python -m pinochle_cli` process, start-up included),
on a record of DEALS deals that never ends (the deals cycle so that neither side gets anywhere).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pinochle_cli.records import parse_record
from pinochle_cli.records.entry import DealInput, deal_entries
from pinochle_cli.records.writer import insert_deal, new_record_text

ROOT = Path(__file__).resolve().parent.parent
TEAMS = (("North-South", ("Ann", "Cy")), ("East-West", ("Bob", "Di")))
# made and set by each side in turn: the totals are 0 to 0 again every four deals, so the record never ends
CYCLE = (DealInput(bidder="Ann", bid=250, trump="H", meld=("NS=100", "EW=0"), counters=("NS=150",)),
         DealInput(bidder="Ann", bid=400, trump="H", meld=("NS=150", "EW=0"), counters=("NS=200",)),
         DealInput(bidder="Bob", bid=250, trump="H", meld=("NS=0", "EW=100"), counters=("NS=100",)),
         DealInput(bidder="Bob", bid=400, trump="H", meld=("NS=0", "EW=150"), counters=("NS=50",)))

COMMANDS = {
    "score": ["score", "{f}"],
    "add": ["record", "add", "{f}", "--bidder", "Ann", "--bid", "250", "-t", "H", "--meld", "NS=100",
            "--meld", "EW=0", "--counters", "NS=150"],
    "undo": ["record", "undo", "{f}"],
    "redo": ["record", "redo", "{f}"],
    "edit": ["record", "edit", "{f}", "2", "--counters", "NS=210"],
    "score --brief": ["score", "{f}", "--brief"],
}


def long_record_text(deals: int) -> str:
    """A single-deck record of ``deals`` deals, the four of ``CYCLE`` again and again, each as ``record add``
    writes it."""
    text = new_record_text("single-deck", {}, teams=TEAMS)
    for deal in CYCLE:
        text = insert_deal(text, deal_entries(parse_record(text), deal))
    head, _, body = text.partition("deals:\n")
    items = ["  - " + item for item in body.split("  - ")[1:]]
    return head + "deals:\n" + "".join(items[i % len(items)] for i in range(deals))


def _child_cpu() -> float:
    try:
        import resource
    except ImportError:  # not on Windows: CPU time is not reported there
        return float("nan")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run; CPU time is what a busy machine does not inflate."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PINOCHLE_RULESET": ""}
    cpu, start = _child_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pinochle_cli", *args], env=env, capture_output=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: {done.stderr.decode()}")
    return took, _child_cpu() - cpu


def in_process(path: Path) -> None:
    """The same work called from Python (no start-up): CPU seconds of the library call alone."""
    from pinochle_cli.records import read_record
    from pinochle_cli.records.edit import edit_deal, merged_entries, redo_deal, undo_deal
    from pinochle_cli.records.entry import DealInput, deal_entries
    from pinochle_cli.records.writer import append_deal

    add = DealInput(bidder="Ann", bid=250, trump="H", meld=("NS=100", "EW=0"), counters=("NS=150",))
    calls = {"score": lambda: read_record(str(path)),
             "add": lambda: append_deal(str(path), lambda r: deal_entries(r, add)),
             "undo": lambda: undo_deal(str(path)), "redo": lambda: redo_deal(str(path)),
             "edit": lambda: edit_deal(str(path), 2, lambda record, old: merged_entries(
                 record, 2, old, DealInput(counters=("NS=210",))))}
    row = []
    for name, call in calls.items():
        start = time.process_time()
        call()
        row.append(f"{name} {time.process_time() - start:.2f} s")
    print("  in-process CPU: " + ", ".join(row))


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 5000]
    print(f"cores: {os.cpu_count()}  python {sys.version.split()[0]}")
    wall, cpu = min(timed(["--version"]) for _ in range(3))
    print(f"start-up alone (pinochle --version): {wall:.2f} s wall, {cpu:.2f} s CPU")
    print("each command: wall seconds / CPU seconds (best of 3), start-up included")
    with tempfile.TemporaryDirectory() as folder:
        for deals in sizes:
            path = Path(folder) / f"r{deals}.yaml"
            path.write_text(long_record_text(deals))
            print(f"{deals} deals:")
            for name, args in COMMANDS.items():
                text = path.read_text()
                runs = []
                for _ in range(3):
                    path.write_text(text)  # each run starts from the same record
                    runs.append(timed([a.replace("{f}", str(path)) for a in args]))
                wall, cpu = min(runs)
                print(f"  {name:14s} {wall:5.2f} s / {cpu:5.2f} s")
            path.write_text(long_record_text(deals))
            in_process(path)


if __name__ == "__main__":
    main()
