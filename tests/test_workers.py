"""The estimate's worker processes: Ctrl-C, a killed parent, the worker count, jobs handed out lazily.

Signals go to real subprocesses in their own process group, as a terminal sends Ctrl-C.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import pinochle_cli.workers
from pinochle_cli.cli import cli
from pinochle_cli.workers import AHEAD, ChunkPool, available_cores, keep, kept, same, workers_for

ROOT = Path(__file__).resolve().parent.parent
HAND = "AS TS KS QS JS 9S AH TH KH QH JH 9H"
POSIX_PROCS = sys.platform.startswith("linux") and os.path.exists(f"/proc/{os.getpid()}/task")
needs_proc = pytest.mark.skipif(not POSIX_PROCS, reason="reads child processes from /proc")


def children(pid: int) -> list[int]:
    out: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as fh:
            out += [int(c) for c in fh.read().split()]
    return out


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child: Ctrl-C handled as by a program started at a terminal, even when the tests themselves run in
    the background of a shell, which starts its background jobs with Ctrl-C ignored (inherited, and kept by Python)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_estimate(workers: int = 2) -> tuple[subprocess.Popen[str], list[int]]:
    """A long estimate in its own session, once its workers are running."""
    env = {**os.environ, "PINOCHLE_RULESET": "", "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "pinochle_cli", "estimate", HAND, "--samples", "10000000",
                             "--workers", str(workers), "--seed", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
                            preexec_fn=_ctrl_c_as_at_a_terminal)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = children(proc.pid)
        if len(found) >= workers:
            time.sleep(0.5)  # let the workers take their first chunks
            return proc, children(proc.pid)
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the workers never started")


def wait_gone(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


@needs_proc
@pytest.mark.skipif(available_cores() < 2, reason="needs two cores for two workers")
def test_one_ctrl_c_stops_the_estimate_quietly_with_code_130() -> None:
    proc, workers = start_estimate()
    os.killpg(proc.pid, signal.SIGINT)  # the terminal sends Ctrl-C to the whole foreground group
    start = time.monotonic()
    try:
        _out, err = proc.communicate(timeout=30)
    finally:  # a failure leaves no estimate running on
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    took = time.monotonic() - start
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert wait_gone(workers, 1) == []
    assert took < 3.0, f"took {took:.2f} s to stop"  # about 0.2 s idle; the bound leaves room for a loaded machine


@needs_proc
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_workers_exit_when_the_parent_is_killed(sig: signal.Signals) -> None:
    proc, workers = start_estimate()
    proc.send_signal(sig)
    proc.wait(timeout=30)
    assert wait_gone(workers, 5) == [], "workers outlived their parent"


def test_more_workers_than_cores_are_capped_with_a_notice() -> None:
    cores = available_cores()
    assert workers_for(cores + 62) == (cores, f"workers {cores + 62}: using {cores}, the cores available")
    assert workers_for(1) == (1, None)
    assert workers_for(None) == (cores, None)
    result = CliRunner().invoke(cli, ["estimate", HAND, "--samples", "50", "--seed", "1", "--workers",
                                      str(cores + 62), "--json"], env={"PINOCHLE_RULESET": ""})
    assert result.exit_code == 0
    assert result.stderr == f"Note: --workers {cores + 62}: using {cores}, the cores available.\n"


def test_available_cores_follows_the_affinity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pinochle_cli.workers.os, "sched_getaffinity", lambda _pid: {0, 3}, raising=False)
    assert available_cores() == 2


def _square(x: int) -> int:
    return x * x


def _nothing() -> None:
    return None


def test_jobs_are_handed_out_as_workers_free_up() -> None:
    pulled: list[int] = []

    def jobs() -> Iterator[int]:
        for i in range(1000):
            pulled.append(i)
            yield i

    pool = ChunkPool(2, _nothing, ())
    try:
        results = pool.map(_square, jobs())
        assert next(results) == 0
        assert len(pulled) <= 2 * AHEAD  # not all 1000 queued at once
        assert list(results) == [i * i for i in range(1, 1000)]
    finally:
        pool.close()


class _Offset:
    def __init__(self, by: int) -> None:
        self.by = by
        self.pid = os.getpid()


def _offset(x: int) -> tuple[int, bool]:
    kept_one = kept(_Offset)
    return x + kept_one.by, kept_one.pid == os.getpid()


def test_keep_sets_up_one_object_per_worker_built_there_or_passed_as_is() -> None:
    built = ChunkPool(2, keep, (_Offset, 10))
    passed = ChunkPool(2, keep, (same, _Offset(100)))
    try:
        assert list(built.map(_offset, range(5))) == [(x + 10, True) for x in range(5)]  # made in the worker
        assert [y for y, _ in passed.map(_offset, range(5))] == [x + 100 for x in range(5)]
    finally:
        built.close()
        passed.close()
    with pytest.raises(AssertionError, match="no _Offset kept"):
        kept(_Offset)  # not set up in this process


def test_stop_ends_a_worker_the_pool_had_not_noted_yet() -> None:
    pool = ChunkPool(2, _nothing, ())
    results = pool.map(_square, range(100))
    assert next(results) == 0
    processes = list(pool.executor._processes.values())
    pool.executor._processes.clear()  # as when Ctrl-C lands while the pool is starting a worker
    pool.stop()
    for process in processes:
        process.join(timeout=5)
    assert [p.is_alive() for p in processes] == [False] * len(processes)


# the estimate command started ("ready" on stdout as it begins), then a Ctrl-C at staggered moments: Python's
# own start-up, the imports and click's parsing before the command runs are not what is tested here
AFTER_IMPORTS = """
import sys
from pinochle_cli.cli import cli, estimate_cmd
from pinochle_cli.cli.common import plain_fallback

plain_fallback(sys.stdout)
plain_fallback(sys.stderr)
run = estimate_cmd.estimate.callback

def ready(*args, **kwargs):
    print("ready", flush=True)
    return run(*args, **kwargs)

estimate_cmd.estimate.callback = ready
cli(prog_name="pinochle")
"""


def _session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (an estimate, its workers, its build)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                found.append(int(entry))
    return found


def _interrupt_at(delay: float, env: dict[str, str]) -> tuple[subprocess.Popen[str], threading.Thread]:
    """The estimate started, and the thread that sends it Ctrl-C ``delay`` seconds after it is ready (join it
    before reading the output: it reads the "ready")."""
    proc = subprocess.Popen([sys.executable, "-c", AFTER_IMPORTS, "estimate", HAND, "--samples", "10000000",
                             "--workers", "2", "--seed", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True, preexec_fn=_ctrl_c_as_at_a_terminal)

    def interrupt() -> None:
        assert proc.stdout is not None
        if proc.stdout.readline() == "ready\n":
            time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)

    thread = threading.Thread(target=interrupt, daemon=True)
    thread.start()
    return proc, thread


def _loadable(cache: Path) -> bool:
    """Every index numba wrote reads back; and when the estimate would load the cache (``cached``), every data
    file its indexes name is there, whole (numba renames each file once written)."""
    import pickle

    named = []
    for index in cache.rglob("*.nbi"):
        with index.open("rb") as f:
            pickle.load(f)
            _stamp, overloads = pickle.loads(f.read())
        named += [index.parent / name for name in overloads.values()]
    # the build's mark that it is done: then the estimate loads what it names
    used = any(cache.glob("engine-*/ready"))
    return not used or all(path.is_file() for path in named)


@needs_proc
@pytest.mark.skipif(available_cores() < 2, reason="needs two cores for two workers")
@pytest.mark.parametrize("every", [pytest.param(5, id="every-fifth"),
                                   pytest.param(1, id="all", marks=pytest.mark.exhaustive)])
def test_every_ctrl_c_is_quiet_whenever_it_comes(every: int, tmp_path: Path) -> None:
    """30 interrupts (every fifth of them outside the long step): while the compiled engine is built into an empty
    cache (start-up, the build, loading it), and while the built engine plays on two workers (the pool starting,
    running). Each: exit 130, nothing on stderr but the line break, no process left, the cache absent or loadable."""
    base = {**os.environ, "PINOCHLE_RULESET": "", "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    runs = [(0.27 * i, {**base, "NUMBA_CACHE_DIR": str(tmp_path / f"cache{i}")}) for i in range(0, 15, every)]
    runs += [(0.11 * i, base) for i in range(0, 15, every)]
    wrong = []
    # six at once, a build beside a run
    runs = runs[0::2] + runs[1::2]
    for batch in range(0, len(runs), 6):
        started = [(delay, env, *_interrupt_at(delay, env)) for delay, env in runs[batch:batch + 6]]
        for delay, env, proc, thread in started:
            try:
                thread.join(timeout=60)
                _out, err = proc.communicate(timeout=30)
            finally:  # a failure leaves no estimate running on
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)
            what = f"Ctrl-C {delay:.2f} s in ({'empty cache' if 'NUMBA_CACHE_DIR' in env else 'built'})"
            if (proc.returncode, err) != (130, "\n"):
                wrong.append(f"{what}: exit {proc.returncode}\n{err}")
            # six at once on two cores, beside the long step's other tests: a process may take seconds to go
            if wait_gone(_session(proc.pid), 10):
                wrong.append(f"{what}: processes left")
    assert wrong == []
    assert all(_loadable(tmp_path / f"cache{i}") for i in range(0, 15, every))
