"""What every test shares: an environment that does not leak in, one way to edit a bundled ruleset,
and a whole-suite run spread over every core with the compiled code built once.

The command line is driven through ``tests/clihelp.py`` (``run_cli``); ``tests/rulesethelp.py``
holds the edited ruleset's type, for annotations.

``python -m pytest`` with no test named runs on every core (pytest-xdist, ``--dist worksteal``);
a run of named files or tests stays in one process. ``-n N`` (``-n 0``: one process) or
``-p no:xdist`` overrides this, and a one-core machine runs in one process.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import FileLock
from rulesethelp import EditedRuleset, EditRuleset, edit_ruleset_text

# the checkout the tests run from
_ROOT = Path(__file__).resolve().parent.parent

def _cores() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The whole suite on every core, unless the run names its tests, chooses ``-n`` or has one core."""
    worker = hasattr(config, "workerinput") or "PYTEST_XDIST_WORKER" in os.environ
    if worker or not config.pluginmanager.hasplugin("xdist") or config.option.numprocesses is not None:
        return
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS or _cores() < 2:
        return
    config.option.numprocesses = "logical"  # xdist's own choice (one process under --pdb)
    if config.option.dist == "no":
        config.option.dist = "worksteal"  # the few long tests do not hold up a worker's queue


@pytest.fixture(scope="session", autouse=True)
def _compiled_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The compiled engine built once for the run, before any test: its parts in processes of their own, at once
    (``prepare.build``); under xdist one worker builds while the others wait for it under a lock shared by the run."""
    from pinochle_cli import prepare

    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        prepare.ensure()
    else:
        with FileLock(str(tmp_path_factory.getbasetemp().parent / "engine.lock")):
            prepare.ensure()
    yield


def _warm_generalised() -> None:
    from pinochle_cli.cards import Hand, Suit
    from pinochle_cli.ruleset import load_ruleset
    from pinochle_cli.solver.solve import Position, Solver

    pos = Position(tuple(Hand.parse(h) for h in ("9H AS", "9D KS", "AH QS", "QH JS")), 0)
    Solver(load_ruleset("single-deck"), Suit.H, generalise=True).value(pos)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist, the tests of the generalised entries (the long step's) last: the last worker starts on their
    own compile of the search while the other runs the rest."""
    if "PYTEST_XDIST_WORKER" in os.environ:
        items.sort(key=lambda item: "generalised_search" in item.fixturenames)


@pytest.fixture(scope="session")
def generalised_search(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The solver's search with generalised entries, compiled for them alone (about a minute): under xdist by the
    first worker to ask, the others waiting for it (the long step's tests, ``test_solve_general.py``)."""
    if "PYTEST_XDIST_WORKER" in os.environ:
        with FileLock(str(tmp_path_factory.getbasetemp().parent / "generalised.lock")):
            _warm_generalised()


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No default ruleset from the environment, a fixed terminal width, a UTF-8 locale; a command run in a process
    of its own imports this checkout's package, the one the tests import (whose compiled engine the run built),
    not an installed copy."""
    monkeypatch.delenv("PINOCHLE_RULESET", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(_ROOT), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def edited_ruleset(tmp_path: Path) -> EditRuleset:
    """``edited_ruleset(name, (old, new), …, file="house.yaml")``: a house-rules file made from a bundled one."""

    def edit(name: str, *changes: tuple[str, str], file: str = "house.yaml") -> EditedRuleset:
        path = tmp_path / file
        text = edit_ruleset_text(name, *changes)
        path.write_text(text, encoding="utf-8")
        return EditedRuleset(path, text)

    return edit


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The agreement with the expert set per kind (``tests/test_experts.py`` records it), after the run."""
    lines = [str(value) for outcome in ("passed", "failed", "xfailed") for rep in terminalreporter.stats.get(outcome, [])
             for key, value in getattr(rep, "user_properties", ()) if key == "expert agreement"]
    if lines:
        terminalreporter.write_sep("-", "expert agreement")
        for line in sorted(lines):
            terminalreporter.write_line(line)
