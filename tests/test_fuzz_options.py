"""Every numeric option of every command, fed the extremes: an answer, or one ``Error:`` line — never a traceback.

The command tree is walked (``pinochle_cli.cli.COMMANDS``, groups included): each option whose type
is an integer or a float (ranges too) gets 0, -1, 1e-300, 1e-16, 1e15, 1e308, inf, -inf, nan and
10**30, with the fewest other arguments that make the command valid (``BASE``) and small work
(``--samples 50``, one deal). A new command or option with a number fails here until ``BASE``
says how to run it. Each run has a time limit: an accepted value must not make a cheap run slow,
except for an option that is a time budget itself (``BUDGETS``), which passes when it is still
working, without a traceback, at its limit. A server runs in a subprocess, the rest in this process.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import click
import pytest
from click.testing import CliRunner

from pinochle_cli.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HAND = "AH 10H KH KH QH JH 9H AS AC KD QS JD"
VALUES = ("0", "-1", "1e-300", "1e-16", "1e15", "1e308", "inf", "-inf", "nan", str(10**30))
# the seconds one cheap run may take on a loaded machine
SECONDS = 30
# a time budget that is accepted runs as long as it says: still working after this, it passes
BUDGET_SECONDS = 5
# (a server runs until it is stopped: a port it takes is still serving at the limit)
BUDGETS = {("analyze", "--time-limit"), ("serve", "--port")}
# the commands run in a subprocess of their own: a server, stopped by killing it
SERVERS = {("serve",)}
ALARM = hasattr(signal, "setitimer")
# what each command needs besides the option tried ({night}: a copy of a record, made for each run)
BASE: dict[tuple[str, ...], tuple[str, ...]] = {
    ("analyze",): (str(EXAMPLES / "single-deck-close-call.yaml"), "--deal", "1", "--workers", "1"),
    ("estimate",): (HAND, "--samples", "50", "--seed", "1", "--workers", "1"),
    ("hint",): ("-r", "single-deck", "-t", "S", "--hand", "TS QH 9D", "--seat", "1", "--bidder", "2", "--tricks",
                "QD AD QD AD; JC JC AC QC; TD KD 9D TD; QS TS JS JS; 9S KH KS AS; AS KS 9H 9S; 9C KC AC 9H; 9C AH QC QS; "
                "TH TC AH TH", "--leader", "2", "--trick", "KD", "--workers", "1"),
    ("pass",): ("AH 10H KH 9H AS AC AD QS 9S JD 9D 9C", "-t", "H", "--bid", "300", "-o", "exchange=3", "--samples",
                "50", "--seed", "1", "--workers", "1"),
    ("legal",): ("-r", "three-handed", "--hand", "AH KH 9S", "--trick", "9H", "-t", "S"),
    ("record", "add"): ("{night}", "--dealer", "Ann", "--bidder", "Bob", "--bid", "300", "-t", "H",
                        "--meld", "NS=60", "--meld", "EW=180", "--counters", "NS=80", "--no-prompt"),
    ("record", "edit"): ("{night}", "1", "--bid", "300"),
    ("serve",): ("{night}",),
    ("solve",): ("-r", "single-deck", "-t", "H", "--hand", "9H", "--hand", "9D", "--hand", "AS", "--hand", "QH"),
    # a practice deal, its session kept in the test's own folder ($PINOCHLE_DATA_DIR); no input: it ends at once
    ("play",): ("--fresh", "--no-review"),
}
# what one option needs besides (an option that counts only with another)
EXTRA = {("estimate", "--exact-from"): ("--play", "double-dummy")}


def _numeric(option: click.Parameter) -> bool:
    return isinstance(option, click.Option) and not option.is_flag and isinstance(
        option.type, (click.types.IntParamType, click.types.FloatParamType))


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


def numeric_options() -> list[tuple[tuple[str, ...], str]]:
    return [(path, option.opts[0]) for path, command in _commands(cli) for option in command.params
            if _numeric(option)]


OPTIONS = numeric_options()


def test_the_walk_finds_every_command_and_knows_how_to_run_it() -> None:
    assert {path[0] for path, _ in _commands(cli)} == set(COMMANDS)
    assert (("estimate",), "--precision") in OPTIONS and (("solve",), "--leader") in OPTIONS
    assert {path for path, _ in OPTIONS} <= set(BASE), "a command with a numeric option needs its BASE arguments"


def _cases() -> Iterator[object]:
    for path, option in OPTIONS:
        for value in VALUES:
            # today's tracebacks of analyze --time-limit / solve, fixed on another branch
            marks: list[pytest.MarkDecorator] = []
            yield pytest.param(path, option, value, id=f"{' '.join(path)} {option} {value}", marks=marks)


class _TooLong(BaseException):
    pass


def _too_long(_signum: int, _frame: FrameType | None) -> None:
    raise _TooLong


def _argv(path: tuple[str, ...], option: str, value: str, tmp_path: Path) -> list[str]:
    night = tmp_path / "night.yaml"
    shutil.copy(EXAMPLES / "single-deck-night.yaml", night)
    base = [arg.replace("{night}", str(night)) for arg in BASE[path]]
    return [*path, *base, *EXTRA.get((*path, option), ()), f"{option}={value}"]


def _check(code: int, err: str, what: str) -> None:
    assert "Traceback" not in err, f"{what}: a traceback\n{err}"
    assert code in (0, 1, 2), f"{what}: exit {code}\n{err}"
    if code == 2:
        assert err.startswith("Error: ") and err.count("\n") == 1, f"{what}: not one error line\n{err}"


def _in_process(argv: list[str], budget: bool = False) -> tuple[int, str] | None:
    """The exit code and stderr; None when a ``budget`` run was still working, without a traceback, at its limit."""
    if ALARM:
        before = signal.signal(signal.SIGALRM, _too_long)
        signal.setitimer(signal.ITIMER_REAL, BUDGET_SECONDS if budget else SECONDS)
    try:
        result = CliRunner().invoke(cli, argv, env={"PINOCHLE_RULESET": "", "COLUMNS": "80"})
    finally:
        if ALARM:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, before)
    exc = result.exception
    if budget and isinstance(exc, _TooLong):
        return None
    assert not isinstance(exc, _TooLong), f"{argv}: more than {SECONDS} s"
    assert exc is None or isinstance(exc, SystemExit), f"{argv}: a traceback would show: {exc!r}"
    return result.exit_code, result.stderr


def _in_subprocess(argv: list[str]) -> tuple[int, str] | None:
    """The exit code and stderr, or None when it was still working, without a traceback, at its limit."""
    env = {**os.environ, "PINOCHLE_RULESET": "", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "pinochle_cli", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        _out, err = proc.communicate(timeout=BUDGET_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        _out, err = proc.communicate()
        assert "Traceback" not in err, err
        return None
    return proc.returncode, err


@pytest.mark.parametrize(("path", "option", "value"), list(_cases()))
def test_an_extreme_number_gets_an_answer_or_one_error_line(path: tuple[str, ...], option: str, value: str,
                                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINOCHLE_DATA_DIR", str(tmp_path))
    argv = _argv(path, option, value, tmp_path)
    budget = (*path, option) in BUDGETS
    # without an alarm a budget too runs in a subprocess, killed at its limit
    ran = _in_subprocess(argv) if path in SERVERS or (budget and not ALARM) else _in_process(argv, budget)
    if ran is not None:
        _check(*ran, " ".join(argv))
