"""Telling the user how long: a wait in words, the progress line of a long run on stderr (only on a terminal,
only once the run has taken a second), and the notice while the compiled engine is built (``ready_engine``)."""

from __future__ import annotations

import sys
import time

import click

from ..prepare import ensure

__all__ = ["Progress", "duration", "ready_engine", "time_left"]


def duration(seconds: float) -> str:
    """A wait in words: "about 40 s", "about 3 min", "about 2 h 05 min"."""
    if seconds < 1:
        return "under a second"
    if seconds < 90:
        return f"about {seconds:.0f} s"
    minutes = seconds / 60
    if minutes < 90:
        return f"about {minutes:.0f} min"
    return f"about {int(minutes // 60)} h {int(minutes % 60):02d} min"


# the share of the work done, and the seconds it took, before the time left is told: the first parts are no guide
_ETA_FROM, _ETA_AFTER = 0.05, 10.0


def time_left(done: int, total: int, elapsed: float) -> str:
    """", about 3 min left" from the wall time so far (work done at an even pace), once enough is done to tell."""
    if done <= 0 or done >= total or done < _ETA_FROM * total or elapsed < _ETA_AFTER:
        return ""
    return f", {duration(elapsed * (total - done) / done)} left"


class Progress:
    """A progress bar on stderr, shown only on a terminal and only once a run has taken a second."""

    def __init__(self, what: str = "deals") -> None:
        self.what = what
        self.start = time.monotonic()
        self.shown = False
        self.enabled = sys.stderr.isatty()
        self.width = 0
        # work done before ``start`` (not in the pace)
        self.before = 0

    def resume(self, before: int) -> None:
        """Shown from now on (on a terminal), the time left told from the pace after ``before`` parts done."""
        self.enabled, self.start, self.before = sys.stderr.isatty(), time.monotonic(), before

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.monotonic() - self.start
        if not self.enabled or (not self.shown and elapsed < 1.0):
            return
        self.shown = True
        width = 30
        filled = min(width, width * done // max(total, 1))
        # the line keeps its length: a shorter one would leave the end of the last
        left = time_left(done - self.before, total - self.before, elapsed)
        line = f"estimating [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {self.what}{left}"
        self.width = max(self.width, len(line))
        click.echo(f"\r{line:{self.width}s}", err=True, nl=False)

    def close(self) -> None:
        if self.shown:
            click.echo("", err=True)


def _building(seconds: int) -> None:
    if sys.stderr.isatty():
        click.echo(f"Preparing the fast engine: once after an install, {duration(seconds)} "
                   "(`pinochle prepare` does it ahead)…", err=True)


def ready_engine() -> None:
    """Build the compiled engine now when it is not built, saying so on a terminal (a command that plays cards
    calls this before it starts)."""
    ensure(_building)
