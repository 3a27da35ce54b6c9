"""Every command that reads a record or a ruleset reads it the one safe way (yamlsource.read_source).

Each is given ``/dev/zero`` (a device that never ends), a named pipe nobody writes to and a file
over ``MAX_BYTES``, in every place it takes one (a record argument, ``-r PATH``, a ruleset
argument, a record naming it as its ruleset): it must answer at once with exit 2 and one line
on stderr, nothing on stdout. A command added later with a file argument or ``-r`` must be added
to ``READERS`` (the last test walks the command tree). Each runs in this process (click's test runner),
under a time limit and a cap on the memory it may take (``_limits``).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import click
import pytest
from click.testing import CliRunner

from pinochle_cli.cli import cli
from pinochle_cli.yamlsource import MAX_BYTES

# every command that reads a file: its arguments, BAD standing for the file, TMP for a fresh folder
READERS: dict[str, list[str]] = {
    "analyze": ["analyze", "BAD"],
    "estimate -r": ["estimate", "AS KS", "-r", "BAD"],
    "hint -r": ["hint", "--hand", "AS", "-t", "S", "-r", "BAD"],
    "legal -r": ["legal", "--hand", "AS", "-t", "S", "-r", "BAD"],
    "meld -r": ["meld", "AS", "-r", "BAD"],
    "pass -r": ["pass", "AS KS", "-t", "S", "--bid", "300", "-r", "BAD"],
    "play -r": ["play", "-r", "BAD", "--record", "TMP/play.yaml"],
    "play --record": ["play", "--record", "BAD"],
    "solve -r": ["solve", "--hand", "AS", "--hand", "KS", "--hand", "QS", "--hand", "JS", "-t", "S", "-r", "BAD"],
    "record add": ["record", "add", "BAD", "--bid", "250", "--no-prompt"],
    "record add --prompt": ["record", "add", "BAD", "--prompt"],
    "record edit": ["record", "edit", "BAD", "1", "--bid", "300"],
    "record new -r": ["record", "new", "TMP/new.yaml", "-r", "BAD", "--player", "Ann", "--player", "Bob"],
    "record redo": ["record", "redo", "BAD"],
    "record show": ["record", "show", "BAD"],
    "record show N": ["record", "show", "BAD", "1"],
    "record undo": ["record", "undo", "BAD"],
    "rulesets check": ["rulesets", "check", "BAD"],
    "rulesets copy": ["rulesets", "copy", "BAD", "TMP/copy.yaml"],
    "rulesets show": ["rulesets", "show", "BAD"],
    "rulesets show --rules": ["rulesets", "show", "BAD", "--rules"],
    "score": ["score", "BAD"],
    "serve": ["serve", "BAD", "--port", "0"],
    "score (its ruleset)": ["score", "TMP/names-it.yaml"],
    "stats": ["stats", "BAD"],
}

KINDS = ["device", "fifo", "too large"]
# seconds: a refusal is immediate; the limit only keeps a reader that waits or reads forever from hanging the run
LIMIT = 30.0


def _bad_file(kind: str, tmp: Path) -> str:
    if kind == "device":
        if not os.path.exists("/dev/zero"):
            pytest.skip("needs /dev/zero")
        return "/dev/zero"
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("needs named pipes")
        fifo = tmp / "pipe.yaml"
        os.mkfifo(fifo)
        return str(fifo)
    big = tmp / "big.yaml"
    big.write_bytes(b"ruleset: single-deck\n" + b"#" * MAX_BYTES + b"\n")
    return str(big)


class _TooLong(BaseException):
    pass


def _too_long(_signum: int, _frame: FrameType | None) -> None:
    raise _TooLong


@contextmanager
def _limits() -> Iterator[None]:
    """``LIMIT`` seconds (a reader waiting on the pipe is interrupted), and 2 GiB more address space than the
    process has (a reader that reads /dev/zero to the end runs out of memory here, not on the machine)."""
    alarm = hasattr(signal, "setitimer")
    try:
        import resource

        cap = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm") as fh:  # the pages the process maps now
            mapped = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (mapped + (2 << 30), cap[1]))
    except (ImportError, OSError, ValueError):
        cap = None  # no such limit here: the time limit alone
    if alarm:
        before = signal.signal(signal.SIGALRM, _too_long)
        signal.setitimer(signal.ITIMER_REAL, LIMIT)
    try:
        yield
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, before)
        if cap is not None:
            resource.setrlimit(resource.RLIMIT_AS, cap)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(READERS))
def test_every_reader_refuses_a_special_or_huge_file_at_once(name: str, kind: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    bad = _bad_file(kind, tmp_path)
    (tmp_path / "names-it.yaml").write_text(f"ruleset: {bad}\nplayers: [Ann, Bob]\ndeals:\n", encoding="utf-8")
    args = [bad if a == "BAD" else a.replace("TMP", str(tmp_path)) for a in READERS[name]]
    monkeypatch.chdir(tmp_path)
    start = time.monotonic()
    with _limits():
        ran = CliRunner().invoke(cli, args, input="")
    took = time.monotonic() - start
    assert not isinstance(ran.exception, _TooLong), f"still reading after {LIMIT} s"
    assert ran.exception is None or isinstance(ran.exception, SystemExit), f"a traceback: {ran.exception!r}"
    lines = ran.stderr.splitlines()
    assert (ran.exit_code, ran.stdout, len(lines)) == (2, "", 1), (ran.exit_code, ran.stdout, ran.stderr)
    assert lines[0].startswith("Error: ") and bad in lines[0], lines
    assert any(w in lines[0] for w in ("not a regular file", "too large")), lines
    assert took < LIMIT / 2, took
    assert not (tmp_path / "new.yaml").exists() and not (tmp_path / "copy.yaml").exists()


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    ctx = click.Context(group)
    out = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            out += _commands(command, f"{prefix}{name} ")
        out.append((f"{prefix}{name}", command))
    return out


def test_every_command_that_reads_a_file_is_listed() -> None:
    """A command with a file or ruleset argument, or -r, is among ``READERS``."""
    readers = {n.removesuffix(" -r").split(" --")[0].removesuffix(" N") for n in READERS if "(" not in n}
    for name, command in _commands(cli):
        takes = {p.name for p in command.params} & {"path", "record_paths", "ruleset"}
        if takes:
            assert name in readers, f"{name} reads {takes}: add it to READERS"
