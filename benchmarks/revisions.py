"""The solver or the estimator of another git revision, in a process of its own, for a benchmark that sets it
beside this one.

    with Revision("ec32752") as old:     # a commit, branch or tag; "." is this checkout as it is
        value, seconds, nodes = old.solve(rules, trump, position, node_limit=0, bidder=None)
        answer, wall, cpu = old.estimate("single-deck", "AH TH ...", samples=2000, seed=1)

``Revision(rev)`` checks ``rev`` out into a temporary ``git worktree`` (removed again at the end) and starts this
file there as a worker: ``python benchmarks/revisions.py --serve`` with ``PYTHONPATH`` at the worktree, so that the
worker imports that revision's whole package (its rules, trick engine and solver), while the benchmark itself, in
this checkout, writes the questions and reads the answers. Each ``solve`` sends one position (its ruleset by name,
the hands as card text) and gets back the value (None past ``node_limit`` nodes in one question), the worker's CPU
seconds for it alone and the solver's nodes; a fresh solver answers each. The worker compiles that revision's
search into the worktree's own numba cache first (about 10 CPU seconds; not counted). A revision whose package
cannot read a position or a ruleset (older than the game, or than ``bidder``) raises ``RevisionError`` with the
worker's message. Each ``estimate`` sends a ruleset (a name, or a path of this checkout) and a hand as card text
and gets back the revision's ``estimate(rules, hand, samples=, seed=, workers=1)`` as its ``to_json()``, with the
wall-clock and CPU seconds of that call alone; ``env`` sets environment variables in the worker for that call only
(``{"PINOCHLE_COMPILED": "1"}`` chose the compiled player of a revision before the one-player change). Each
``hint`` sends a seat's view as card text and gets back the revision's card, its wall seconds and worlds judged. Nothing
here depends on the revision beyond ``load_ruleset``, ``parse_cards``, ``parse_suit``, ``Hand``,
``errors.SearchLimitError``, ``solver.solve.Position`` and ``Solver`` with ``node_limit``, ``value`` and
``nodes``, and ``estimate.simulate.estimate`` with ``samples``, ``seed``, ``workers`` and its answer's ``to_json``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# the solver before issue 24's speed work (the first of the fixed set's figures in docs/solver.md were measured
# against it)
BEFORE_SPEED_WORK = "ec327520ee5d7dae7d9c68045763c8698a64331e"
# the last commit with two players, numpy's and its compiled twin (PINOCHLE_COMPILED), before the one compiled player
BEFORE_ONE_PLAYER = "2dcfa36"


class RevisionError(RuntimeError):
    """The revision's worker could not answer (its message), or did not start."""


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


class Revision:
    """``rev``'s solver in a worker process (see the module docstring); a context manager."""

    def __init__(self, rev: str) -> None:
        self.rev = rev
        self.name = "." if rev == "." else _git("rev-parse", "--short", rev)
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        # the revision's checkout while the worker runs (this one for "."): a command may run from it too
        self.tree: Path | None = None
        self._worker: subprocess.Popen[str] | None = None

    def __enter__(self) -> Revision:
        tree = ROOT
        if self.rev != ".":
            self._folder = tempfile.TemporaryDirectory(prefix="pinochle-revision-")
            tree = Path(self._folder.name) / self.name
            _git("worktree", "add", "--detach", "--quiet", str(tree), self.rev)
        self.tree = tree
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), *filter(None, [os.environ.get("PYTHONPATH")])])}
        self._worker = subprocess.Popen([sys.executable, __file__, "--serve"], env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        package = Path(self._ask({"hello": True})["package"])
        if tree.resolve() not in package.resolve().parents:
            self.__exit__(None, None, None)
            raise RevisionError(f"{self.name}: the worker imported {package}, not the revision's package")
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._worker is not None:
            assert self._worker.stdin is not None
            self._worker.stdin.close()
            self._worker.wait()
            self._worker = None
        if self._folder is not None:
            _git("worktree", "remove", "--force", str(Path(self._folder.name) / self.name))
            self._folder.cleanup()
            self._folder = None
        self.tree = None

    def solve(self, rules: Any, trump: Any, pos: Any, *, node_limit: int = 0,
              bidder: int | None = None) -> tuple[int | None, float, int]:
        """(value or None past the node limit, CPU seconds, nodes) of ``pos`` solved from scratch by the revision."""
        question = {"ruleset": rules.name, "trump": trump.letter, "leader": pos.leader, "bidder": bidder,
                    "hands": [" ".join(card.ascii() for card in hand) for hand in pos.hands],
                    "node_limit": node_limit}
        answer = self._ask(question)
        return answer["value"], answer["seconds"], answer["nodes"]

    def hint(self, rules: Any, view: dict[str, Any], *, seconds: float, seed: int) -> tuple[str, float, int]:
        """The revision's hint (card, wall seconds, worlds judged) for a seat's view (``make_facts``'s arguments as
        card text: trump, hand, seat, bidder, bid, shown, tricks, leader, trick)."""
        answer = self._ask({"kind": "hint", "ruleset": rules.name, "view": view, "seconds": seconds, "seed": seed})
        return answer["card"], answer["seconds"], answer["worlds"]

    def estimate(self, ruleset: str, hand: str, *, samples: int, seed: int,
                 env: dict[str, str] | None = None) -> tuple[dict[str, Any], float, float]:
        """(the answer's JSON, wall-clock seconds, CPU seconds) of the revision's one-worker estimate of ``hand``."""
        question = {"estimate": {"ruleset": ruleset, "hand": hand, "samples": samples, "seed": seed,
                                 "env": env or {}}}
        answer = self._ask(question)
        return answer["answer"], answer["wall"], answer["seconds"]

    def _ask(self, question: dict[str, Any]) -> dict[str, Any]:
        worker = self._worker
        assert worker is not None and worker.stdin is not None and worker.stdout is not None
        worker.stdin.write(json.dumps(question) + "\n")
        line = worker.stdout.readline()
        if not line:
            raise RevisionError(f"{self.name}: the worker ended (exit code {worker.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RevisionError(f"{self.name}: {answer['error']}")
        return answer


def _ruleset(name: str, rulesets: dict[str, Any]) -> Any:
    """The revision's ruleset ``name`` (a name or a path), loaded once."""
    from pinochle_cli.ruleset import load_ruleset

    rules = rulesets[name] = rulesets.get(name) or load_ruleset(name)
    return rules


def _hint_answer(question: dict[str, Any], rulesets: dict[str, Any]) -> dict[str, Any]:
    """The revision's hint for a seat's view: the card and the wall seconds it took (one thread or process)."""
    from pinochle_cli.cards import Hand, parse_cards, parse_suit
    from pinochle_cli.hint import advice
    from pinochle_cli.hint.facts import make_facts

    rules = _ruleset(question["ruleset"], rulesets)
    view = question["view"]
    facts = make_facts(rules, parse_suit(view["trump"]), Hand(parse_cards(view["hand"])), seat=view["seat"],
                       bidder=view["bidder"], bid=view["bid"],
                       shown={int(s): Hand(parse_cards(c)) for s, c in view["shown"].items()},
                       tricks=[parse_cards(t) for t in view["tricks"]], leader=view["leader"],
                       trick=parse_cards(view["trick"]))
    # the hint of a revision before the front door took a DealState: ``hint(facts)``; after it, ``hint_facts``
    run = getattr(advice, "hint_facts", None) or advice.hint
    start = time.monotonic()
    answer = run(facts, seconds=question["seconds"], seed=question["seed"], workers=1)
    return {"card": answer.best.ascii(), "seconds": time.monotonic() - start, "worlds": len(answer.worlds)}


def _estimate(question: dict[str, Any], rulesets: dict[str, Any]) -> dict[str, Any]:
    """The worker's one-worker estimate, with the revision's package, ``question["env"]`` set for it alone."""
    from pinochle_cli.cards import parse_cards
    from pinochle_cli.estimate.simulate import estimate

    rules = _ruleset(question["ruleset"], rulesets)
    saved = {name: os.environ.get(name) for name in question["env"]}
    os.environ.update(question["env"])
    try:
        wall, start = time.perf_counter(), time.process_time()
        result = estimate(rules, parse_cards(question["hand"]), samples=question["samples"], seed=question["seed"],
                          workers=1)
        seconds, wall = time.process_time() - start, time.perf_counter() - wall
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return {"answer": result.to_json(), "wall": wall, "seconds": seconds}


def _solve(question: dict[str, Any], rulesets: dict[str, Any]) -> dict[str, Any]:
    """The worker's value of one position, solved from scratch with the revision's package."""
    from pinochle_cli.cards import Hand, parse_cards, parse_suit
    from pinochle_cli.errors import SearchLimitError
    from pinochle_cli.solver.solve import Position, Solver

    rules = _ruleset(question["ruleset"], rulesets)
    extra = {} if question["bidder"] is None else {"bidder": question["bidder"]}
    solver = Solver(rules, parse_suit(question["trump"]), **extra)
    solver.node_limit = question["node_limit"]
    pos = Position(tuple(Hand(parse_cards(text)) for text in question["hands"]), question["leader"])
    start = time.process_time()
    try:
        value: int | None = int(solver.value(pos))
    except SearchLimitError:
        value = None
    return {"value": value, "seconds": time.process_time() - start, "nodes": int(solver.nodes)}


def _answer(question: dict[str, Any], rulesets: dict[str, Any]) -> dict[str, Any]:
    """The worker's answer to one question, with the revision's package."""
    import pinochle_cli

    if question.get("hello"):
        return {"package": str(Path(pinochle_cli.__file__).parent)}
    if "estimate" in question:
        return _estimate(question["estimate"], rulesets)
    if question.get("kind") == "hint":
        return _hint_answer(question, rulesets)
    return _solve(question, rulesets)


def serve() -> None:
    """The worker: one JSON question a line on stdin, one JSON answer a line on stdout, until stdin ends."""
    rulesets: dict[str, Any] = {}
    for line in sys.stdin:
        try:
            answer = _answer(json.loads(line), rulesets)
        except Exception as exc:  # any failure of the revision's package goes back as its message
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__" and sys.argv[1:] == ["--serve"]:
    serve()
