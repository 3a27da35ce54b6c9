"""Generalised table entries (``Solver(generalise=True)``): the same values as without them and as an exhaustive
minimax, with and without a table kept from position to position, and fewer nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_cli.cards import Hand, Suit, parse_card
from pinochle_cli.ruleset import Ruleset, bundled_names, load_ruleset
from pinochle_cli.solver.general import _compared, _duty_marks, _limit_marks, _limits
from pinochle_cli.solver.ordering import _gather
from pinochle_cli.solver.reference import minimax, random_endgame
from pinochle_cli.solver.search_layout import PRUNE, _holders
from pinochle_cli.solver.solve import Position, Solver

SD = load_ruleset("single-deck")
F = TypeVar("F", bound=Callable[..., None])


def solves_generalised(test: F) -> F:
    """A test that solves with generalised entries: those run a search compiled for them alone (about a minute on a
    fresh install, and no command uses them), so the test is the long step's (``python -m pytest -m exhaustive``),
    and waits for that search to be built (conftest's ``generalised_search``)."""
    return cast(F, pytest.mark.exhaustive(pytest.mark.usefixtures("generalised_search")(test)))


def _bidder(rules: Ruleset) -> int | None:
    """A bidder where the sides depend on who bid (the bidder-alone games), else None."""
    return 0 if rules.sides_by_auction else None


def _endgame(rules: Ruleset, rng: np.random.Generator, tricks: int) -> tuple[Suit, Position]:
    return random_endgame(rules, rng, tricks, bidder=_bidder(rules))


@solves_generalised
@pytest.mark.parametrize("name", bundled_names())
def test_generalised_entries_agree_with_exhaustive_minimax(name: str) -> None:
    # one solver a trump, its small tables shared by every position (mid-trick ones too)
    rules = load_ruleset(name)
    rng = np.random.default_rng(24)
    bidder = _bidder(rules)
    solvers = {s: Solver(rules, s, table_bits=10, generalise=True, bidder=bidder) for s in rules.suits}
    for _ in range(400):
        trump, pos = _endgame(rules, rng, int(rng.integers(1, (3 if rules.players > 2 else 4) + 1)))
        assert solvers[trump].value(pos) == minimax(rules, trump, pos, bidder=bidder), (trump, pos)


@solves_generalised
@pytest.mark.parametrize("name", bundled_names())
def test_with_and_without_reuse_and_generalised_entries_the_values_are_the_same(name: str) -> None:
    # each position solved four ways: a fresh solver or one kept from position to position (its tables, history
    # and killers carried over), each with and without generalised entries
    rules = load_ruleset(name)
    rng = np.random.default_rng(2424)
    bidder = _bidder(rules)
    kept = {(s, g): Solver(rules, s, generalise=g, bidder=bidder) for s in rules.suits for g in (False, True)}
    for _ in range(20):
        trump, pos = _endgame(rules, rng, 7)
        values = {Solver(rules, trump, generalise=g, bidder=bidder).value(pos) for g in (False, True)}
        values |= {kept[trump, g].value(pos) for g in (False, True)}
        assert len(values) == 1, (trump, pos, values)


@solves_generalised
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tricks=st.integers(2, 7))
def test_a_position_has_one_value_with_or_without_generalised_entries(seed: int, tricks: int) -> None:
    trump, pos = _endgame(SD, np.random.default_rng(seed), tricks)
    assert Solver(SD, trump, generalise=True).value(pos) == Solver(SD, trump).value(pos)


@solves_generalised
@pytest.mark.parametrize("name", ["single-deck", "double-deck"])
def test_generalised_entries_cut_the_nodes(name: str) -> None:
    # measured with bench_solve.py --tricks 8 --generalise: about a fifth fewer nodes on endings of eight tricks
    rules = load_ruleset(name)
    rng = np.random.default_rng(7)
    plain = general = 0
    for _ in range(20):
        trump, pos = random_endgame(rules, rng, 8, mid_trick=False)
        a, b = Solver(rules, trump), Solver(rules, trump, generalise=True)
        assert a.value(pos) == b.value(pos)
        plain, general = plain + a.nodes, general + b.nodes
    assert general < 0.95 * plain, (general, plain)


@solves_generalised
def test_a_position_differing_in_cards_that_did_not_matter_is_found_in_the_table() -> None:
    # the same deal with two low spades of the defenders swapped: after the first, the second takes fewer nodes
    # with generalised entries than without, and has the value a fresh solver finds
    hands = ("AH AH 10H KS 9S AC", "QS JS 9H KC QC 9D", "10S 10S KH AD KD QD", "JS QS 9S 9C JC JD")
    swapped = ("AH AH 10H KS 9S AC", "QS 9S 9H KC QC 9D", "10S 10S KH AD KD QD", "JS QS JS 9C JC JD")
    first, second = (Position(tuple(Hand.parse(h) for h in hs), 0) for hs in (hands, swapped))
    nodes = {}
    for general in (False, True):
        solver = Solver(SD, Suit.H, generalise=general)
        solver.value(first)
        before = solver.nodes
        assert solver.value(second) == Solver(SD, Suit.H).value(second)
        nodes[general] = solver.nodes - before
    assert nodes[True] < nodes[False], nodes


@solves_generalised
def test_a_bound_that_depended_on_a_duty_to_beat_is_not_used_where_those_ranks_differ() -> None:
    # found by solving without the duty's marks: the generalised entries then gave 40 here, not 50
    hands = ("10S JS KH QH JH KD QC 9C", "10H 10H QH JH KD JD 9D KC", "AS 10S KS AH 10D QD 9D QC",
             "KS 9S 9H 9H QD JD AC 10C")
    pos = Position(tuple(Hand.parse(h) for h in hands), 1)
    assert Solver(SD, Suit.H, generalise=True).value(pos) == Solver(SD, Suit.H).value(pos) == 50


def test_the_cards_left_out_as_equal_are_recorded_for_the_generalised_entries() -> None:
    s = Solver(SD, Suit.H, generalise=True)
    held = np.array([_mask("AS", "10S", "QS", "9S"), _mask("KS"), _mask("JS"), 0], dtype=np.int64)
    who, _cards = _who(("AS 10S QS 9S", "KS", "JS", ""))
    frame = np.zeros_like(s.frames[0])
    out = np.zeros(24, dtype=np.int64)
    n = _gather(held, who, 0, int(held[0]), 0, 0, 0, False, s.par, s.side, s.tab, s.order, s.ranked, s.hist, out,
                s.keys, s.suit_mask, s.duties, s.above, frame, s.gt)
    # AS and 10S are one move (equal counters, nothing out between them): 10S left out; QS and 9S are two (JS)
    assert n == 3
    assert frame[PRUNE] == _mask("10S")


def _card(text: str) -> int:
    return parse_card(text).index


def _mask(*cards: str) -> int:
    return sum(1 << _card(c) for c in cards)


@pytest.mark.parametrize(("a", "b", "stronger"), [
    ("AS", "9S", "AS"), ("9S", "KS", "KS"), ("QS", "QS", "QS"),
    ("AS", "9H", None),  # suits differ: the suit decides, no rank
])
def test_two_cards_of_the_last_trick_compared_keep_the_stronger(a: str, b: str, stronger: str | None) -> None:
    s = Solver(SD, Suit.H)
    assert _compared(_card(a), _card(b), s.tab) == (0 if stronger is None else _mask(stronger))


@pytest.mark.parametrize(("mine", "winning", "marked"), [
    ("AS 9S", "KS", ("KS",)),  # a spade below the king: the king's rank decides which spades beat it
    ("AS 10S", "KS", ("10S",)),  # both above: the weaker of them must stay above the king
    ("9S JS", "KS", ("KS",)),  # both below
    ("AH 9C", "KS", ()),  # no spade: no rank compared
])
def test_a_duty_to_beat_keeps_the_ranks_it_compares(mine: str, winning: str, marked: tuple[str, ...]) -> None:
    s = Solver(SD, Suit.H)
    held = sum(1 << c.index for c in Hand.parse(mine))
    assert _duty_marks(held, _card(winning), s.tab, s.order, s.ranked) == _mask(*marked)


def _who(hands: tuple[str, ...]) -> tuple[np.ndarray, int]:
    """The search's holder bits of each card (``_holders``) and the cards out, a mask."""
    counts = np.array([Hand.parse(text).counts for text in hands], dtype=np.int64)
    who = np.zeros(24, dtype=np.int64)
    _holders(counts, len(hands), who)
    return who, sum(1 << c for c in range(24) if who[c])


@pytest.mark.parametrize(("req", "prune", "places", "weakest"), [
    ((), (), 0, None),  # nothing depended on
    (("AS",), (), 2, "AS"),  # both aces: held in two hands, they tie, so neither goes without the other
    (("KS",), (), 3, "KS"),  # AS AS KS: down to the king
    (("KS",), ("QS",), 4, "QS"),  # the queen was left out as equal to the king: kept with it
    (("KS",), ("9S",), 3, "KS"),  # a card left out further down stays with the cards below
])
def test_the_places_kept_run_to_the_weakest_card_that_mattered(req: tuple[str, ...], prune: tuple[str, ...],
                                                               places: int, weakest: str | None) -> None:
    s = Solver(SD, Suit.H)
    who, held_any = _who(("AS KS QS", "AS", "9S", ""))
    spades = int(Suit.S)
    limits, marks = _limits(_mask(*req), _mask(*prune), held_any, who, s.order, s.ranked)
    assert (limits >> (4 * spades)) & 15 == places
    assert marks == (0 if weakest is None else _mask(weakest))
    # and back: the card of the last place kept
    assert _limit_marks(limits, held_any, who, s.order, s.ranked) == marks
