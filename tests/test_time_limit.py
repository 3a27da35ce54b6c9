"""The solver's time limit: a node limit per search from the measured rate, asked again while time is left."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pinochle_cli.cards import Suit
from pinochle_cli.errors import PlayError, SearchLimitError
from pinochle_cli.game.deal import deal_cards
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.solver import solve
from pinochle_cli.solver.solve import Position, Solver, quick_tricks

# nodes a second of the clock below: twenty times the rate the solver assumes before it measured one
RATE = 20 * solve._ASSUMED_RATE


def whole_deal(name: str, seed: int) -> tuple[Position, Suit]:
    rules = load_ruleset(name)
    hands, _stock = deal_cards(rules, np.random.default_rng(seed))
    return Position(tuple(hands[:rules.players]), 0), rules.suits[0]


class NodeClock:
    """A clock that reads the solver's nodes (``RATE`` a second): the same on every run."""

    def __init__(self) -> None:
        self.solver: Solver | None = None

    def __call__(self) -> float:
        return 0.0 if self.solver is None else self.solver.nodes / RATE


@pytest.mark.parametrize("above", [0, 1])
def test_a_search_past_its_slice_is_asked_again_and_gives_the_same_answer(above: int,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """One question, time for twice its nodes: the first slice (the assumed rate, a twentieth of the
    clock's) ends it short; it is asked again with the rate measured, from the cards as they were."""
    monkeypatch.setattr(solve, "_MIN_SLICE", 1_000)
    rules = load_ruleset("single-deck")
    pos, trump = whole_deal("single-deck", 8)
    target = Solver(rules, trump).value(pos) + above * solve.counter_step(rules)
    searches: list[int] = []
    free = Solver(rules, trump, progress=lambda seconds, nodes: searches.append(nodes))
    answer = free.reaches(pos, target)
    assert free.nodes > 20 * solve._MEASURED_NODES
    clock = NodeClock()
    timed = Solver(rules, trump, time_limit=2 * free.nodes / RATE, clock=clock,
                   progress=lambda seconds, nodes: searches.append(nodes))
    clock.solver = timed
    assert timed.reaches(pos, target) == answer == (above == 0)
    # the free search, then the timed one twice: stopped after a tenth of the nodes, then to the end
    assert len(searches) == 3 and abs(searches[1] - free.nodes / 10) <= 2


def test_past_the_time_limit_the_search_stops_and_names_the_size() -> None:
    rules = load_ruleset("double-deck")
    pos, trump = whole_deal("double-deck", 1)
    seen: list[tuple[float, int]] = []
    solver = Solver(rules, trump, time_limit=0.3, progress=lambda seconds, nodes: seen.append((seconds, nodes)))
    with pytest.raises(SearchLimitError) as stop:
        solver.plays(pos)
    assert stop.value.parameter == "time_limit"
    assert str(stop.value) == ("stopped after 0.3 s of CPU: this position has 20 tricks left; 12 tricks left usually "
                               "solve in under a second")
    assert 0.3 <= solver.seconds < 1.5
    assert seen and seen == sorted(seen)


def test_quick_tricks_come_from_the_measured_cards() -> None:
    assert solve.QUICK_CARDS == 48
    assert [quick_tricks(load_ruleset(n)) for n in ("single-deck", "double-deck", "two-handed")] == [12, 12, 12]


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 1e308, 1e15, 86_400.5, 0.0, -1.0])
def test_a_time_limit_out_of_range_is_refused(value: float) -> None:
    rules = load_ruleset("single-deck")
    with pytest.raises(PlayError) as refused:
        Solver(rules, rules.suits[0], time_limit=value)
    assert refused.value.parameter == "time_limit"


def test_the_longest_time_limit_is_taken() -> None:
    rules = load_ruleset("single-deck")
    pos, trump = whole_deal("single-deck", 4)
    assert Solver(rules, trump, time_limit=solve.MAX_TIME_LIMIT).value(pos) == Solver(rules, trump).value(pos)
