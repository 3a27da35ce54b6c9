"""Does starting the compiled engine's background build slow the run that starts it? And what do later runs gain?

Fresh processes, ``pinochle estimate HAND --samples N --json`` (every core), an empty numba cache
each time: "old" runs with the work counted so far at 0 (no build is started: today's behaviour
of a run that does not repay a compile), "new" with the count one short of
``compiled_cache.BACKGROUND_PAYS`` (the run prints its answer, then starts the build, detached).
Interleaved ``--repeat`` times; the foreground wall time is to the process's exit. After each
"new" run the build is waited for (not timed in the foreground), then one more run of the same
size is timed with the cache in place: what the user's next run gets.

    .venv/bin/python benchmarks/bench_background.py [--samples 50000] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from filelock import FileLock

from pinochle_cli.estimate import compiled_cache
from pinochle_cli.workers import available_cores

ROOT = Path(__file__).resolve().parent.parent
HAND = "AH TH KH QH JH AS KS QS KD QD KC QC"


def _env(folder: Path, counted: int) -> dict[str, str]:
    state = folder / "state"
    state.mkdir(parents=True, exist_ok=True)
    (state / compiled_cache.WORK_FILE).write_text(json.dumps({"deal_suits": counted}))
    env = {**os.environ, "PINOCHLE_CACHE_DIR": str(state), "NUMBA_CACHE_DIR": str(folder / "numba"),
           "PINOCHLE_RULESET": "", "PYTHONPATH": str(ROOT)}
    env.pop("PINOCHLE_COMPILED", None)
    return env


def _run(env: dict[str, str], samples: int) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pinochle_cli", "estimate", HAND, "--samples", str(samples), "--json"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def _wait_for_build(folder: Path) -> float:
    """Seconds until the background build has released its lock (started by the run just timed)."""
    start = time.perf_counter()
    # the build takes the lock once its interpreter is up
    time.sleep(3)
    with FileLock(str(folder / "state" / compiled_cache.BUILD_LOCK), timeout=600):
        pass
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    deal_suits = 4 * args.samples
    print(f"cores {available_cores()}, load {os.getloadavg()[0]:.1f}, --samples {args.samples} "
          f"({deal_suits:,} deal-suits), BACKGROUND_PAYS {compiled_cache.BACKGROUND_PAYS:,}")
    times: dict[str, list[float]] = {"old": [], "new": [], "next (compiled)": []}
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as old, tempfile.TemporaryDirectory() as new:
            times["old"].append(_run(_env(Path(old), 0), args.samples))
            env = _env(Path(new), compiled_cache.BACKGROUND_PAYS - 1)
            times["new"].append(_run(env, args.samples))
            built = _wait_for_build(Path(new))
            times["next (compiled)"].append(_run(env, args.samples))
            print(f"  old {times['old'][-1]:.2f} s, new {times['new'][-1]:.2f} s (build then took "
                  f"{built:.1f} s more), next run {times['next (compiled)'][-1]:.2f} s", flush=True)
    for name, got in times.items():
        best = min(got)
        print(f"{name:16} best {best:6.2f} s  {deal_suits / best:9,.0f} deal-suits/s  (all: "
              f"{', '.join(f'{t:.2f}' for t in got)})")


if __name__ == "__main__":
    main()
