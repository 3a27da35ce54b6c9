"""What every test shares: an environment that does not leak in, one way to edit a bundled ruleset,
and a whole-suite run spread over every core with the compiled code built once.

The command line is driven through ``tests/clihelp.py`` (``run_cli``); ``tests/rulesethelp.py``
holds the edited ruleset's type, for annotations.

``python -m pytest`` with no test named runs on every core (pytest-xdist, ``--dist worksteal``);
a run of named files or tests stays in one process. ``-n N`` (``-n 0``: one process) or
``-p no:xdist`` overrides this, and a one-core machine runs in one process.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from filelock import FileLock
from rulesethelp import EditedRuleset, EditRuleset, edit_ruleset_text

# what the estimate keeps for its background build (compiled_cache.state_dir): the run's own, never the user's;
# set here, before any test, so that the commands the tests start in subprocesses inherit it
_STATE = tempfile.mkdtemp(prefix="pinochle-state-")
os.environ["PINOCHLE_CACHE_DIR"] = _STATE
atexit.register(shutil.rmtree, _STATE, ignore_errors=True)


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


def _warm_solver() -> None:
    from clihelp import run_cli

    ran = run_cli("solve", "-r", "single-deck", "-t", "H", "--hand", "9H", "--hand", "9D", "--hand", "AS", "--hand", "QH")
    assert ran.code == 0, ran


def _warm_generalised() -> None:
    from pinochle_cli.cards import Hand, Suit
    from pinochle_cli.ruleset import load_ruleset
    from pinochle_cli.solver.solve import Position, Solver

    pos = Position(tuple(Hand.parse(h) for h in ("9H AS", "9D KS", "AH QS", "QH JS")), 0)
    Solver(load_ruleset("single-deck"), Suit.H, generalise=True).value(pos)


def _warm_player() -> None:
    from pinochle_cli.cards import Hand
    from pinochle_cli.estimate.simulate import Simulator
    from pinochle_cli.ruleset import load_ruleset

    rules = load_ruleset("single-deck")
    Simulator(rules, Hand.parse("AH TH KH QH JH AS KS QS KD QD KC QC"), rules.suits).load_compiled()


# the modules whose tests run the compiled solver, in this process or in another (found by watching which tests
# read its cache): under xdist they run after the others, and wait for the solver to be built. A module missing
# here still passes, only slower (it may compile the solver itself while another worker does).
SOLVER_MODULES = frozenset({
    "test_analyze.py", "test_analyze_view.py", "test_analyze_workers.py", "test_estimate_double_dummy.py",
    "test_estimate_perfect_cli.py", "test_exact_output.py", "test_fuzz_options.py", "test_hint.py",
    "test_hint_cli.py", "test_json_everywhere.py", "test_readme.py", "test_solve.py", "test_solve_batch.py",
    "test_solve_cli.py", "test_three_handed_records.py", "test_time_limit.py",
})
_built: set[str] = set()


# long checks in files rewritten elsewhere, marked for the long step here by node id: the end-to-end background
# build compiles the card player again into an empty cache (≈ 13 s of CPU, in a process of low priority that the
# test waits for)
LONG = frozenset({
    "tests/test_compiled_cache.py::test_after_enough_work_the_next_runs_find_the_compiled_player_built",
})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``LONG`` marked ``exhaustive`` (before ``-m`` selects). Under xdist, the tests of ``SOLVER_MODULES`` last (each
    in its order), and the generalised entries' tests after them: each worker's first tests need no solver while
    one worker compiles it (and the last worker starts on the generalised search while the others run the rest)."""
    for item in items:
        if item.nodeid in LONG:
            item.add_marker(pytest.mark.exhaustive)
    if "PYTEST_XDIST_WORKER" in os.environ:
        items.sort(key=lambda item: ("generalised_search" in item.fixturenames, item.path.name in SOLVER_MODULES))


def _build(name: str, shared: Path) -> None:
    """The compiled engine ``name`` loaded here: compiled by the first worker to ask, under a lock shared by the
    run, and loaded from numba's cache by the others."""
    if name not in _built:
        with FileLock(str(shared / f"numba-{name}.lock")):
            {"solver": _warm_solver, "player": _warm_player, "generalised": _warm_generalised}[name]()
        _built.add(name)


@pytest.fixture(scope="session")
def _shared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.getbasetemp().parent


@pytest.fixture(scope="session", autouse=True)
def _compiled_once(_shared: Path) -> None:
    """Under xdist, each compiled engine is built by one worker while the others go on with tests that do not use it.

    The first worker compiles the solver and then loads the card player; every other worker builds or loads the
    card player (its build is a process of its own) and then runs the tests not in ``SOLVER_MODULES`` (they come
    first) until the first one that is (``_solver_built``). A run in one process compiles only what it uses.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return
    if worker == "gw0":
        _build("solver", _shared)
    _build("player", _shared)


@pytest.fixture(scope="module", autouse=True)
def _solver_built(request: pytest.FixtureRequest, _shared: Path) -> None:
    """Under xdist, a module of ``SOLVER_MODULES`` first waits for the solver (built by the first worker), before
    its own fixtures too."""
    if "PYTEST_XDIST_WORKER" in os.environ and request.path.name in SOLVER_MODULES:
        _build("solver", _shared)


@pytest.fixture(scope="session")
def generalised_search(_shared: Path) -> None:
    """The solver's search with generalised entries, compiled for them alone (about a minute): under xdist by the
    first worker to ask, the others waiting for it (the long step's tests, ``test_solve_general.py``)."""
    if "PYTEST_XDIST_WORKER" in os.environ:
        _build("generalised", _shared)


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No default ruleset or engine choice from the environment, a fixed terminal width, a UTF-8 locale."""
    monkeypatch.delenv("PINOCHLE_RULESET", raising=False)
    monkeypatch.delenv("PINOCHLE_COMPILED", raising=False)
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
