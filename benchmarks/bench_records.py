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

ROOT = Path(__file__).resolve().parent.parent
SEATS = ("Ann", "Bob", "Cy", "Di")
# bidder, bid, meld (NS, EW), counters (NS, EW): made, set, made, set: every four deals add 0 to each side
CYCLE = (("Ann", 250, (100, 0), (150, 100)), ("Ann", 400, (150, 0), (200, 50)),
         ("Bob", 250, (0, 100), (100, 150)), ("Bob", 400, (0, 150), (50, 200)))


def long_record_text(deals: int) -> str:
    """A single-deck record of ``deals`` deals whose totals come back to 0 every four deals."""
    lines = ["ruleset: single-deck", "teams:", "  North-South: [Ann, Cy]", "  East-West: [Bob, Di]", "deals:"]
    for i in range(deals):
        bidder, bid, (m_ns, m_ew), (c_ns, c_ew) = CYCLE[i % 4]
        lines += [f"  - dealer: {SEATS[i % 4]}", f"    bidder: {bidder}", f"    bid: {bid}", "    trump: hearts",
                  f"    meld: {{North-South: {m_ns}, East-West: {m_ew}}}",
                  f"    counters: {{North-South: {c_ns}, East-West: {c_ew}}}"]
    return "\n".join(lines) + "\n"


COMMANDS = {
    "score": ["score", "{f}"],
    "add": ["record", "add", "{f}", "--bidder", "Ann", "--bid", "250", "-t", "H", "--meld", "NS=100",
            "--meld", "EW=0", "--counters", "NS=150"],
    "undo": ["record", "undo", "{f}"],
    "redo": ["record", "redo", "{f}"],
    "edit": ["record", "edit", "{f}", "2", "--counters", "NS=210"],
    "score --brief": ["score", "{f}", "--brief"],
}


def timed(args: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PINOCHLE_RULESET": ""}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pinochle_cli", *args], env=env, capture_output=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: {done.stderr.decode()}")
    return took


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 5000]
    print(f"cores: {os.cpu_count()}  python {sys.version.split()[0]}")
    start_up = min(timed(["--version"]) for _ in range(3))
    print(f"start-up alone (pinochle --version): {start_up:.2f} s")
    with tempfile.TemporaryDirectory() as folder:
        for deals in sizes:
            path = Path(folder) / f"r{deals}.yaml"
            path.write_text(long_record_text(deals))
            row = []
            for name, args in COMMANDS.items():
                seconds = min(timed([a.replace("{f}", str(path)) for a in args]) for _ in range(1))
                row.append(f"{name} {seconds:.2f} s")
            print(f"{deals:>6} deals: " + ", ".join(row))


if __name__ == "__main__":
    main()
