"""The compiled engine made ready before its first use: is it built, and building it in processes of its own.

The computer player and the double-dummy solver are compiled by numba on their first use after an
install, into ``game.kernels.engine_dir`` (a folder named by a digest of their sources); later runs
load them from there in about half a second. ``ready()`` says whether that build is done (a marker
the build writes last); ``build()`` makes it: the player and the solver each compiled in a process
of its own, both at once, waited for (a Ctrl-C kills them, and numba's renamed writes leave no
half-written entry; the next run starts again). ``python -m pinochle_cli.prepare`` is one such
process. Without numba nothing is built (the engine runs as plain Python). Nothing is raised on
purpose: a build that fails leaves the compile to the process that needs it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from .game.machine_code import engine_dir

__all__ = ["BUILD_SECONDS", "PARTS", "build", "build_part", "ensure", "main", "marker", "ready", "start_background"]

# what the first build takes on a 2-core machine, both parts at once (24.4 s measured: player 7.9 s, solver 22.9 s)
BUILD_SECONDS = 25
# the parts built, each in its own process
PARTS = ("player", "solver")
_MARKER = "ready"
# the background build's flag and lock
_BACKGROUND, _LOCK = "--background", "build.lock"
# this module by name, also when it runs as ``python -m`` (its ``__name__`` is then ``__main__``)
_MODULE = f"{__package__}.prepare"


def _numba() -> bool:
    return importlib.util.find_spec("numba") is not None


def marker() -> Path:
    """The file the build writes once every part is compiled."""
    return engine_dir() / _MARKER


def ready() -> bool:
    """Is the compiled engine built (or is there nothing to build: no numba)?"""
    return not _numba() or marker().is_file()


def build_part(part: str) -> None:
    """Compile one part of the engine in this process (loading it when it is already compiled)."""
    from .cards import Hand, Suit
    from .ruleset import load_ruleset

    rules = load_ruleset("single-deck")
    if part == "player":
        from .player.exchange import warm_exchange
        from .player.play import warm_play
        from .player.rollout import warm_rollout
        from .player.seat import warm_seat
        from .player.tables import BuryTables, ExchangeTables, PlayerTables

        # every ruleset's tables have the same types: one compile serves them all
        warm_play(PlayerTables.build(rules))
        warm_seat(PlayerTables.build(rules))
        warm_rollout(PlayerTables.build(rules))
        warm_exchange(ExchangeTables.build(rules), BuryTables.build(rules))
    elif part == "solver":
        from .solver.solve import Position, Solver

        hands = (Hand.parse("9H"), Hand.parse("9D"), Hand.parse("AS"), Hand.parse("QH"))
        Solver(rules, Suit.H).plays(Position(hands, 0, ()))
    else:
        raise ValueError(f"no part {part!r} (parts: {', '.join(PARTS)})")


def build() -> bool:
    """Compile every part, each in a process of its own, all at once, and wait (did it succeed?)."""
    procs = [subprocess.Popen([sys.executable, "-m", _MODULE, part], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for part in PARTS]
    try:
        ok = all(proc.wait() == 0 for proc in procs)
    except BaseException:
        for proc in procs:
            proc.kill()
            proc.wait()
        raise
    if ok:
        try:
            marker().parent.mkdir(parents=True, exist_ok=True)
            marker().write_text("built\n", encoding="utf-8")
        except OSError:
            return False
    return ok


def start_background() -> bool:
    """Start the build in a process of its own that outlives this one, unless one is already running (a lock in
    the engine's folder): did it start?"""
    folder = marker().parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    flags = 0
    for name in ("DETACHED_PROCESS", "CREATE_NEW_PROCESS_GROUP", "BELOW_NORMAL_PRIORITY_CLASS"):
        # Windows only; 0 elsewhere
        flags |= getattr(subprocess, name, 0)
    subprocess.Popen([sys.executable, "-m", _MODULE, _BACKGROUND], stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True,
                     start_new_session=os.name == "posix", creationflags=flags)
    return True


def _build_once() -> int:
    """The background build: one at a time (a lock beside the machine code), nothing when already built."""
    from filelock import FileLock, Timeout

    try:
        marker().parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(marker().parent / _LOCK), timeout=0):
            if not ready():
                build()
    # another build holds the lock, or the folder cannot be written (each command then compiles what it needs)
    except (Timeout, OSError):
        pass
    return 0


def ensure(notice: Callable[[int], None] | None = None) -> None:
    """Build the engine when it is not built, calling ``notice(expected seconds)`` first."""
    if ready() or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    if notice is not None:
        notice(BUILD_SECONDS)
    build()


def main(argv: list[str]) -> int:
    if argv == [_BACKGROUND]:
        return _build_once()
    for part in argv or PARTS:
        build_part(part)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
