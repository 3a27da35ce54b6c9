"""Worker processes for long computations that stop when asked and never outlive their parent.

``ChunkPool.map`` runs jobs in worker processes and yields the results in job order, handing
jobs out as workers free up; on Ctrl-C it ends the workers at once and re-raises
``KeyboardInterrupt``; a worker exits when its parent is gone. ``workers_for`` caps a count at
the cores this process may use. Details: docs/estimate.md, "Inside the estimator".
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from .errors import Argument, Message

__all__ = ["ChunkPool", "KeptRunner", "available_cores", "interrupt_later", "keep", "kept", "same", "workers_for"]

Job = TypeVar("Job")
Result = TypeVar("Result")
T = TypeVar("T")
# jobs waiting per worker: enough to keep every worker busy
AHEAD = 2
# this worker process's object (``keep``): what its jobs run on
_KEPT: list[Any] = []


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else all)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def workers_for(asked: int | None) -> tuple[int, Message | None]:
    """The worker count to use for ``asked`` (None: every core), and a notice if it was lowered
    (naming the parameter: ``workers 64: using 2, the cores available``)."""
    cores = available_cores()
    if asked is None:
        return cores, None
    if asked > cores:
        return cores, Message(Argument("workers", asked), f": using {cores}, the cores available")
    return max(1, asked), None


@contextmanager
def interrupt_later() -> Iterator[None]:
    """A Ctrl-C during the block raises ``KeyboardInterrupt`` after it, not inside it: for short work that an
    exception at any bytecode would leave broken (numba loading its machine code: its locks, its finalizers).
    Only where Ctrl-C raises (the main thread, Python's own handler); elsewhere the block runs as it is."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _watch_parent() -> None:
    parent = multiprocessing.parent_process()
    if parent is not None:
        # returns when the parent has exited, however it ended
        parent.join()
        os._exit(1)


def _start_worker(initializer: Callable[..., None], args: tuple[Any, ...]) -> None:
    # the parent handles Ctrl-C and ends the workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, name="watch-parent", daemon=True).start()
    initializer(*args)


def keep(make: Callable[..., Any], *args: Any) -> None:
    """A ``ChunkPool`` initializer for jobs that run on one object per worker: ``make(*args)``, built in the
    worker, which ``kept`` returns there. ``keep(same, obj)`` keeps ``obj`` itself: the parent's own object
    where workers are forked, else one rebuilt from its pickle."""
    _KEPT[:] = [make(*args)]


def same(obj: T) -> T:
    """``obj`` itself (``keep(same, obj)``)."""
    return obj


def kept(kind: type[T]) -> T:
    """The object ``keep`` set up in this worker process, of type ``kind``."""
    obj = _KEPT[0] if _KEPT else None
    assert isinstance(obj, kind), f"no {kind.__name__} kept in this process"
    return obj


class ChunkPool:
    """A pool of ``workers`` processes, each set up once by ``initializer(*initargs)``."""

    def __init__(self, workers: int, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
        self.workers = workers
        # processes that are not this pool's
        self.before = set(multiprocessing.active_children())
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self.executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                            initargs=(initializer, initargs))

    def map(self, work: Callable[[Job], Result], jobs: Iterable[Job]) -> Iterator[Result]:
        """``work(job)`` for each job, in order; on any exception (Ctrl-C too) the workers are ended."""
        todo = iter(jobs)
        running: deque[Future[Result]] = deque()
        try:
            for job in todo:
                # the first submit forks the workers: a Ctrl-C then would stop a fork half done
                with interrupt_later():
                    running.append(self.executor.submit(work, job))
                if len(running) >= self.workers * AHEAD:
                    yield running.popleft().result()
            while running:
                yield running.popleft().result()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """End the workers now, whatever they are doing."""
        manager = getattr(self.executor, "_executor_manager_thread", None)
        processes = set((getattr(self.executor, "_processes", None) or {}).values())
        # and a worker interrupted while starting, before the pool had noted it
        for process in processes | (set(multiprocessing.active_children()) - self.before):
            process.kill()
        self.executor.shutdown(wait=False, cancel_futures=True)
        # let it finish closing its wake-up pipe before the interpreter exits:
        if manager is not None:
            # Python 3.11's exit hook may otherwise write to it as it closes (EBADF)
            manager.join(timeout=1)

    def close(self) -> None:
        self.executor.shutdown()


class KeptRunner(Generic[Job, Result]):
    """Jobs on one object: run here by ``here(subject, job)`` (one worker, or a single job), else in a pool of
    ``workers`` processes started on first use that each keep ``subject`` (``keep(same, subject)``) and run
    ``work(job)`` there; results in job order. ``close(interrupted=True)`` ends the workers at once."""

    def __init__(self, subject: Any, workers: int, here: Callable[[Any, Job], Result],
                 work: Callable[[Job], Result]) -> None:
        self.subject = subject
        self.workers = workers
        self.here = here
        self.work = work
        self.pool: ChunkPool | None = None

    def run(self, jobs: list[Job]) -> Iterable[Result]:
        if self.workers <= 1 or len(jobs) <= 1:
            return (self.here(self.subject, job) for job in jobs)
        if self.pool is None:
            # the worker's object: the parent's own where workers are forked, else rebuilt from its pickle
            self.pool = ChunkPool(self.workers, keep, (same, self.subject))
        return self.pool.map(self.work, jobs)

    def close(self, *, interrupted: bool = False) -> None:
        if self.pool is not None:
            if interrupted:
                self.pool.stop()
            else:
                self.pool.close()
