"""Worlds judged in order on threads, within a deadline: the first worlds whose values came in, and why it stopped.

``judge_worlds`` gives each world to ``value(world)`` on ``workers`` threads (the compiled engine releases
Python's lock while it searches) and keeps the answers of the first worlds in their order — never a later
world without every earlier one, so the answer depends on how many worlds were judged, not on the threads.
After each world it asks ``enough(indices, values)`` of the worlds judged so far; it stops there, at
``deadline`` (a reading of ``clock``: no world is started after it), when ``stop()`` is true, or when every
world is judged. A world whose search passes its limit is skipped (counted). Ctrl-C stops the threads and
is raised again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..errors import SearchLimitError

__all__ = ["WorldsJudged", "judge_worlds"]

W = TypeVar("W")
V = TypeVar("V")


@dataclass(frozen=True)
class WorldsJudged(Generic[V]):
    """The values of the first worlds in order and which worlds they are (``indices``), the worlds given up as
    too costly among them, and why the judging stopped: ``enough``, ``time``, ``stopped`` or ``all``."""

    values: tuple[V, ...]
    indices: tuple[int, ...]
    skipped: int
    why: str


class _Shared:
    """The worlds handed out and the answers come back, under one lock."""

    def __init__(self, count: int) -> None:
        self.lock = threading.Lock()
        self.next = 0
        self.answers: list[object] = [None] * count
        self.done = [False] * count
        self.halt = False
        self.error: BaseException | None = None


# a world given up: its search passed its limit
_SKIPPED = object()


def _work(shared: _Shared, worlds: Sequence[W], value: Callable[[W], V], late: Callable[[], bool]) -> None:
    while True:
        with shared.lock:
            if shared.halt or shared.next >= len(worlds) or late():
                return
            i = shared.next
            shared.next += 1
        try:
            answer: object = value(worlds[i])
        except SearchLimitError:
            answer = _SKIPPED
        except BaseException as exc:  # the caller raises it again
            with shared.lock:
                shared.error, shared.halt = exc, True
            return
        with shared.lock:
            shared.answers[i], shared.done[i] = answer, True


# long: the wait loop reads the shared answers in order, checking the deadline, the stop and the rule of enough
def judge_worlds(worlds: Sequence[W], value: Callable[[W], V], *, workers: int, deadline: float | None,
                 clock: Callable[[], float], enough: Callable[[list[int], list[V]], bool],
                 stop: Callable[[], bool] | None = None) -> WorldsJudged[V]:
    """The first worlds' values in order (see the module docstring)."""
    shared = _Shared(len(worlds))

    def late() -> bool:
        return deadline is not None and clock() >= deadline

    threads = [threading.Thread(target=_work, args=(shared, worlds, value, late), daemon=True)
               for _ in range(max(1, min(workers, len(worlds))))]
    for t in threads:
        t.start()
    values: list[V] = []
    indices: list[int] = []
    skipped, at, why = 0, 0, "all"
    try:
        while at < len(worlds):
            with shared.lock:
                ready = shared.done[at]
                error = shared.error
            if error is not None:
                raise error
            if ready:
                answer = shared.answers[at]
                at += 1
                if answer is _SKIPPED:
                    skipped += 1
                    continue
                values.append(answer)  # type: ignore[arg-type]
                indices.append(at - 1)
                if enough(indices, values):
                    why = "enough"
                    break
                continue
            if late() or (stop is not None and stop()):
                why = "time" if late() else "stopped"
                break
            alive = any(t.is_alive() for t in threads)
            if not alive and not shared.done[at]:
                why = "time"
                break
            threading.Event().wait(0.002)
    finally:
        with shared.lock:
            shared.halt = True
    return WorldsJudged(tuple(values), tuple(indices), skipped, why)
