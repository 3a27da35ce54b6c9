"""Build the compiled player's cache in a process of its own: ``python -m pinochle_cli.estimate.compiled_build``.

numba compiles into its cache (``compiled_cache.cache_dir``), writing each file under a temporary
name and renaming it, so a build killed at any moment leaves no half-written entry. The estimate
runs this process and waits for it when its own job needs the compiled player now (a Ctrl-C then
ends the build with the estimate, ``compiled_cache.build_now``); with ``--background`` it is
started detached after an estimate, once the user's jobs would have repaid the compile
(``compiled_cache.note_work``): at a low priority, one at a time (a lock in the state
directory), the work counted so far reset. Ctrl-C never reaches it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

from filelock import FileLock, Timeout

__all__ = ["build", "main"]


def build() -> None:
    """Load the compiled player in this process, compiling it into numba's cache if it is not there."""
    from ..cards import Hand
    from ..ruleset import load_ruleset
    from .simulate import Simulator

    rules = load_ruleset("single-deck")
    # every ruleset's tables have the same types: one compile serves them all
    Simulator(rules, Hand.parse("AH TH KH QH JH AS KS QS KD QD KC QC"), rules.suits).load_compiled(here=True)


def _lower_priority() -> None:
    # Windows: the priority class the process was started with (compiled_cache.start_background)
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(10)


def main(argv: list[str]) -> int:
    # the estimate that waits for this build ends it (a kill); a background build outlives a Ctrl-C
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if "--background" not in argv:
        build()
        return 0
    from . import compiled_cache

    _lower_priority()
    state = compiled_cache.state_dir()
    state.mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(str(state / compiled_cache.BUILD_LOCK), timeout=0):
            compiled_cache.reset_work()
            if not compiled_cache.cached():
                build()
    # another build holds the lock
    except Timeout:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
