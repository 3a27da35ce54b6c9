"""Start-up of each command against the import floor, and what the compiled engine costs to load and build.

The package's bytecode is compiled first (``compileall``, in each checkout), as ``pip install``
does: a checkout run with ``PYTHONDONTWRITEBYTECODE`` set would otherwise compile every module
from source on every run, which no installed copy does. Each command runs as a fresh
``python -m pinochle_cli`` process, ``--repeat`` times interleaved
with the floors (``python -c pass``; ``import click, yaml, tabulate``; the same plus numpy); the
median wall time of each is shown with its ratio to the click/yaml/tabulate floor. With
``--baseline DIR`` (another checkout of the project, e.g. the main branch) every command also
runs from there, with the same interpreter, and the ratio new/baseline is shown ("today").

Then the work each command does beyond the floor, counted (the same on a loaded machine, where
wall times are not): modules imported, dataclasses created, Python function calls (cProfile).

Then the compiled engine's fixed costs, in fresh processes: importing numba, loading each part of the engine
(``prepare.PARTS``: the player, the solver) from its folder, compiling each into an empty folder (one process,
one part after the other), and ``pinochle prepare`` into an empty folder (the build a first run after an install
waits for: both parts at once, each in a process of its own).

Goal: ``--version``, ``meld``, ``legal`` and ``score`` each within 1.5x of the
click/yaml/tabulate floor measured in the same run; the last lines say whether each one is.

    .venv/bin/python benchmarks/bench_startup.py [--repeat 7] [--baseline /path/to/other/checkout]
                                                 [--startup-only]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAND = "AH TH KH QH JH AS KS QS KD QD KC QC"
FLOORS = {
    "python -c pass": ["-c", "pass"],
    "import click, yaml, tabulate": ["-c", "import click, yaml, tabulate"],
    "  + numpy": ["-c", "import click, yaml, tabulate, numpy"],
}
COMMANDS = {
    "--version": ["--version"],
    "meld … --json": ["meld", "AH TH KH QH JH KH QS JD 9H", "-t", "H", "--json"],
    "legal …": ["legal", "--hand", "KH 9H AS", "--trick", "AS QH", "-t", "H", "--play", "9H"],
    "score examples/single-deck-night.yaml": ["score", "examples/single-deck-night.yaml"],
    "estimate (default)": ["estimate", HAND, "--seed", "1"],
}
GOAL = 1.5  # x the click/yaml/tabulate floor, for every command but estimate
GOAL_COMMANDS = ("--version", "meld … --json", "legal …", "score examples/single-deck-night.yaml")
LOAD = """
import time
from pinochle_cli import prepare
t1 = time.perf_counter(); import numba; t2 = time.perf_counter()
prepare.build_part("player"); t3 = time.perf_counter()
prepare.build_part("solver"); t4 = time.perf_counter()
print(t2 - t1, t3 - t2, t4 - t3)
"""
WORK = """
import contextlib, cProfile, dataclasses, io, pstats, sys
import click, yaml, tabulate
before, made, create = set(sys.modules), [0], dataclasses._process_class
def counted(*args, **kwargs):
    made[0] += 1
    return create(*args, **kwargs)
dataclasses._process_class = counted
profile = cProfile.Profile()
profile.enable()
from pinochle_cli.cli import main
sys.argv = ["pinochle", *{args!r}]
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main()
profile.disable()
print(len(set(sys.modules) - before), made[0], pstats.Stats(profile).total_calls)
"""


def _time(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, *args], check=False, capture_output=True, cwd=cwd,
                   env={**os.environ, "PINOCHLE_RULESET": "", "PYTHONPATH": str(cwd), **(env or {})})
    return time.perf_counter() - t0


def compile_bytecode(*checkouts: Path) -> None:
    for checkout in checkouts:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "pinochle_cli")], check=True,
                       env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""})


def startup_table(repeat: int, baseline: Path | None) -> dict[str, float]:
    compile_bytecode(ROOT, *([baseline] if baseline is not None else []))
    runs: dict[str, list[float]] = {}
    for _ in range(repeat):  # interleaved, so that a change of load hits every figure alike
        for label, args in FLOORS.items():
            runs.setdefault(label, []).append(_time(args, ROOT))
        for label, args in COMMANDS.items():
            runs.setdefault(label, []).append(_time(["-m", "pinochle_cli", *args], ROOT))
            if baseline is not None:
                runs.setdefault("today " + label, []).append(_time(["-m", "pinochle_cli", *args], baseline))
    med = {label: statistics.median(v) for label, v in runs.items()}
    floor = med["import click, yaml, tabulate"]
    head = f"{'':<40} {'median s':>8} {'x floor':>8}"
    print(head + (f" {'today s':>8} {'new/today':>9}" if baseline else ""))
    for label in [*FLOORS, *COMMANDS]:
        line = f"{label:<40} {med[label]:>8.3f} {med[label] / floor:>8.2f}"
        if baseline is not None and label in COMMANDS:
            today = med["today " + label]
            line += f" {today:>8.3f} {med[label] / today:>9.2f}"
        print(line)
    return {label: med[label] / floor for label in COMMANDS}


def _work(args: list[str], cwd: Path) -> list[int]:
    out = subprocess.run([sys.executable, "-c", WORK.format(args=args)], check=True, capture_output=True, text=True,
                         cwd=cwd, env={**os.environ, "PINOCHLE_RULESET": "", "PYTHONPATH": str(cwd)}).stdout
    return [int(x) for x in out.split()]


def work_table(baseline: Path | None) -> None:
    print(f"\nwork beyond the floor (counted){'; today in brackets' if baseline else ''}")
    print(f"{'':<40} {'modules':>8} {'classes':>8} {'calls':>8}")
    for label in GOAL_COMMANDS:
        new = _work(COMMANDS[label], ROOT)
        old = _work(COMMANDS[label], baseline) if baseline is not None else None
        print(f"{label:<40} " + " ".join(f"{n:>8}" for n in new) + (f"  ({' / '.join(map(str, old))})" if old else ""))


def goal_lines(ratios: dict[str, float]) -> None:
    print(f"\ngoal: each within {GOAL}x of the click/yaml/tabulate floor")
    for label in GOAL_COMMANDS:
        verdict = "pass" if ratios[label] <= GOAL else "FAIL"
        print(f"{label:<40} {ratios[label]:>8.2f} {verdict}")


def _costs(empty: str) -> list[float]:
    out = subprocess.run([sys.executable, "-c", LOAD], check=True, capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "NUMBA_CACHE_DIR": empty, "PYTHONPATH": str(ROOT)}).stdout
    return [float(x) for x in out.split()]


def compiled_costs() -> None:
    print("\ncompiled engine (fresh processes)")
    with tempfile.TemporaryDirectory() as empty, tempfile.TemporaryDirectory() as other:
        first = _costs(empty)
        again = _costs(empty)
        build = _time(["-m", "pinochle_cli", "prepare"], ROOT, {"NUMBA_CACHE_DIR": other})
    print(f"{'import numba':<40} {again[0]:>8.3f} s")
    print(f"{'load the player from its folder':<40} {again[1]:>8.3f} s")
    print(f"{'load the solver from its folder':<40} {again[2]:>8.3f} s")
    print(f"{'compile the player (one process)':<40} {first[1]:>8.3f} s")
    print(f"{'compile the solver (one process)':<40} {first[2]:>8.3f} s")
    print(f"{'pinochle prepare (both at once)':<40} {build:>8.3f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--baseline", type=Path, help="another checkout to compare with (run with this interpreter)")
    ap.add_argument("--startup-only", action="store_true", help="skip the compiled engine's costs (slow)")
    args = ap.parse_args()
    print(f"cpu_count={os.cpu_count()} load(1 min)={os.getloadavg()[0]:.2f} repeat={args.repeat}")
    goal_lines(startup_table(args.repeat, args.baseline))
    work_table(args.baseline)
    if not args.startup_only:
        compiled_costs()
    print(f"load(1 min) after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
