"""Two or more git revisions of the solver side by side, deal by deal in one process, on bench_solve.py's fixed set.

    python benchmarks/bench_solve_revisions.py REV [REV ...] [--deals 30] [--tricks N] [--ruleset single-deck]

Each revision's ``pinochle_cli/solver/solve.py`` and ``search.py`` (``git show REV:...``) become a package of their
own in the system's temporary folder (kept, so numba's cache of each is built once), importing the rest of
``pinochle_cli`` from this checkout; ``.`` stands for the files as they are in the working tree. Every deal is solved
by each revision in turn, the order reversed every other deal, so that all of them see the same machine load: on a
shared machine the CPU time of one solver moves by a tenth from run to run, while the ratio of two solvers' sums
in one run moves by one or two hundredths (one revision against itself: 1.021x and 1.007x). Prints, per revision,
the median and sum of the CPU seconds, the nodes, the speed of the first revision's sum over this one's, and
whether the values are the first revision's. A revision whose other package files differ from this checkout's is
reported: its figures then mix two versions.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_solve import positions  # noqa: E402

from pinochle_cli.ruleset import load_ruleset  # noqa: E402

FILES = ("solve.py", "search.py")
HOME = Path(tempfile.gettempdir()) / "pinochle-bench-revisions"


def source(rev: str, name: str) -> str:
    """The solver file ``name`` at ``rev`` (``.``: the working tree)."""
    path = f"pinochle_cli/solver/{name}"
    if rev == ".":
        return (ROOT / path).read_text()
    return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout


def package(rev: str) -> ModuleType:
    """The revision's solver as a package of its own; its ``solve`` module."""
    texts = {name: source(rev, name).replace("from ..", "from pinochle_cli.") for name in FILES}
    digest = hashlib.sha256("".join(texts[name] for name in FILES).encode()).hexdigest()[:12]
    name = f"solver_{digest}"
    folder = HOME / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text("")
    for file, text in texts.items():
        target = folder / file
        if not target.exists() or target.read_text() != text:
            target.write_text(text)
    if str(HOME) not in sys.path:
        sys.path.insert(0, str(HOME))
    return importlib.import_module(f"{name}.solve")


def mixed(rev: str) -> bool:
    """Do the package's other files at ``rev`` differ from this checkout's?"""
    if rev == ".":
        return False
    excluded = [f":!pinochle_cli/solver/{name}" for name in FILES]
    out = subprocess.run(["git", "diff", "--stat", rev, "--", "pinochle_cli", *excluded], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return bool(out.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("revs", nargs="+", metavar="REV")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--tricks", type=int, default=None, help="endgames of this many tricks [default: whole deals]")
    ap.add_argument("--ruleset", default="single-deck")
    args = ap.parse_args()
    rules = load_ruleset(args.ruleset)
    tricks = args.tricks or min(rules.hand_size, rules.deck.size // rules.players)
    load = f"  load: {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    print(f"cores: {os.cpu_count()} (one used){load}  {rules.name}, {args.deals} deals of {tricks} tricks")
    solvers = [package(rev).Solver for rev in args.revs]
    for rev in args.revs:
        if mixed(rev):
            print(f"  {rev}: other files of the package differ from this checkout's (its figures mix two versions)")
    warm = positions(rules, 1, 2)[0]
    for make in solvers:  # compile (or load the cache) first
        make(rules, warm[0]).value(warm[1])
    times: list[list[float]] = [[] for _ in solvers]
    nodes = [0] * len(solvers)
    values: list[list[int]] = [[] for _ in solvers]
    for i, (trump, pos) in enumerate(positions(rules, args.deals, tricks)):
        turn = range(len(solvers)) if i % 2 == 0 else reversed(range(len(solvers)))
        for k in turn:
            solver = solvers[k](rules, trump)
            t0 = time.process_time()
            values[k].append(int(solver.value(pos)))
            times[k].append(time.process_time() - t0)
            nodes[k] += solver.nodes
    for k, rev in enumerate(args.revs):
        same = "the same" if values[k] == values[0] else "DIFFER"
        print(f"  {rev:12s} median {np.median(times[k]):7.3f} s  sum {sum(times[k]):8.2f} s  nodes {nodes[k]:12d}  "
              f"speed {sum(times[0]) / sum(times[k]):.3f}x  values {same}")


if __name__ == "__main__":
    main()
