"""The double-dummy solver against an exhaustive minimax and the reference trick engine, every bundled ruleset."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from sample import sizes

from pinochle_cli.cards import ALL_CARDS, Hand, Suit, parse_cards, parse_suit
from pinochle_cli.errors import PlayError, SearchLimitError
from pinochle_cli.game.tricks import legal_plays
from pinochle_cli.ruleset import Ruleset, bundled_names, load_ruleset
from pinochle_cli.ruleset.loading import load_ruleset_text
from pinochle_cli.solver.batch import BatchSolver
from pinochle_cli.solver.keys import _rekey, _suit_key, _suit_key_kept, _victim, empty_suit_cache
from pinochle_cli.solver.ordering import _behind, _gather
from pinochle_cli.solver.reference import minimax, random_endgame, value_after
from pinochle_cli.solver.search import _sure
from pinochle_cli.solver.search_layout import BUCKET, _holders
from pinochle_cli.solver.solve import (
    TABLE_BITS,
    Position,
    Solver,
    _aligned_table,
    check_position,
    counter_step,
    table_bits_for,
)

# the games with fixed sides (the bidder-alone games: ALONE below)
ROOT = Path(__file__).resolve().parent.parent
RULESETS = [name for name in bundled_names() if not load_ruleset(name).sides_by_auction]
POSITIONS = 150  # per ruleset, of 1 to 4 tricks
ENDGAMES = 400  # per ruleset, of 3 (four players) or 4 tricks (two): 1,600 in all, the check (the long step)


def _who(hands: np.ndarray, players: int, holders: Callable[..., None] = _holders) -> np.ndarray:
    """The search's holder bits of each card (``solver.search_layout._holders``) for ``hands``."""
    who = np.zeros(24, dtype=np.int64)
    holders(hands, players, who)
    return who


def _tricks(players: int) -> int:
    return 3 if players > 2 else 4


@pytest.mark.parametrize("name", RULESETS)
def test_values_agree_with_exhaustive_minimax(name: str) -> None:
    rules = load_ruleset(name)
    rng = np.random.default_rng(14)
    solvers = {s: Solver(rules, s, table_bits=14) for s in rules.suits}  # one table kept across positions
    for _ in range(POSITIONS):
        trump, pos = random_endgame(rules, rng, int(rng.integers(1, _tricks(rules.players) + 1)))
        assert solvers[trump].value(pos) == minimax(rules, trump, pos), (trump, pos)


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("count", sizes(ENDGAMES, ENDGAMES // 4))
def test_thousands_of_endgames_agree_with_exhaustive_minimax(name: str, count: int) -> None:
    rules = load_ruleset(name)
    rng = np.random.default_rng(1414)
    solvers = {s: Solver(rules, s, table_bits=10) for s in rules.suits}  # a small table: slots shared often
    for _ in range(count):
        trump, pos = random_endgame(rules, rng, _tricks(rules.players))
        assert solvers[trump].value(pos) == minimax(rules, trump, pos), (trump, pos)


@pytest.mark.parametrize("name", RULESETS)
def test_every_card_value_agrees_with_exhaustive_minimax(name: str) -> None:
    rules = load_ruleset(name)
    rng = np.random.default_rng(41)
    for _ in range(POSITIONS // 5):
        trump, pos = random_endgame(rules, rng, _tricks(rules.players) - 1)
        solver = Solver(rules, trump, table_bits=12)
        assert solver.plays(pos) == [(c, value_after(rules, trump, pos, c)) for c in solver.legal(pos)]


# the games whose sides the auction forms: the bidder alone against the others
ALONE = [name for name in bundled_names() if load_ruleset(name).sides_by_auction]


@pytest.mark.parametrize("name", ALONE)
def test_a_bidder_alone_game_agrees_with_exhaustive_minimax(name: str) -> None:
    """Each seat as the bidder, seat 0's side counted (the bidder alone, or the others together): the value from
    one kept solver per suit and bidder, and every card's value from a fresh one."""
    rules = load_ruleset(name)
    rng = np.random.default_rng(23)
    kept: dict[tuple[Suit, int], Solver] = {}
    for _ in range(ENDGAMES):
        bidder = int(rng.integers(rules.players))
        trump, pos = random_endgame(rules, rng, int(rng.integers(1, _tricks(rules.players) + 1)), bidder=bidder)
        solver = kept.setdefault((trump, bidder), Solver(rules, trump, bidder=bidder, table_bits=10))
        assert solver.value(pos) == minimax(rules, trump, pos, bidder), (trump, pos, bidder)
    for _ in range(POSITIONS // 5):
        bidder = int(rng.integers(rules.players))
        trump, pos = random_endgame(rules, rng, _tricks(rules.players) - 1, bidder=bidder)
        solver = Solver(rules, trump, bidder=bidder, table_bits=12)
        assert solver.plays(pos) == [(c, value_after(rules, trump, pos, c, bidder)) for c in solver.legal(pos)]


def test_the_bidder_alone_check_sees_the_sides() -> None:
    """The reference's sides are the bidder's: seat 0 alone when it bids, else with the other defender."""
    rules = load_ruleset("three-handed")
    pos = Position(tuple(Hand(parse_cards(h)) for h in ("AS", "TS", "KS")), 0)
    assert (minimax(rules, Suit.S, pos, 0), minimax(rules, Suit.S, pos, 1)) == (40, 40)
    # 10♠ (seat 1) takes 20 and the last trick's 10: seat 0's side only when seat 2 bids (seats 0 and 1 together)
    pos = Position(tuple(Hand(parse_cards(h)) for h in ("9S", "TS", "KS")), 0)
    assert (minimax(rules, Suit.S, pos, 0), minimax(rules, Suit.S, pos, 1), minimax(rules, Suit.S, pos, 2)) == (
        0, 0, 30)


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("count", sizes(1000, 250))
def test_the_sure_bound_holds_the_exhaustive_minimax_value(name: str, count: int) -> None:
    rules = load_ruleset(name)
    rng = np.random.default_rng(41)
    solvers = {s: Solver(rules, s, table_bits=4) for s in rules.suits}
    decided = tight = 0
    for _ in range(count):
        trump, pos = random_endgame(rules, rng, int(rng.integers(1, _tricks(rules.players) + 1)), mid_trick=False)
        solver = solvers[trump]
        hands, _held, _win, rest = solver._arrays(pos)
        who = _who(hands, rules.players, getattr(_holders, "py_func", _holders))
        sure = getattr(_sure, "py_func", _sure)(who, solver.par, solver.tab, solver.order)
        value = minimax(rules, trump, pos)
        lower, upper = max(sure, 0), rest + min(sure, 0)
        assert lower <= value <= upper, (trump, pos, lower, value, upper)
        decided += sure != 0
        tight += value in (lower, upper)
    assert decided > 0.3 * count and tight > count / 100  # the bound is not the trivial 0 and rest


@pytest.mark.parametrize("name", RULESETS)
def test_legal_cards_agree_with_the_trick_engine(name: str) -> None:
    rules = load_ruleset(name)
    rng = np.random.default_rng(7)
    phase = "play-off" if rules.has_stock else None
    for _ in range(POSITIONS):
        trump, pos = random_endgame(rules, rng, int(rng.integers(1, rules.hand_size + 1)))
        want = legal_plays(rules, pos.hands[pos.to_play], pos.trick, trump, phase=phase, leader_seat=pos.leader)
        assert Solver(rules, trump, table_bits=4).legal(pos) == want


@pytest.mark.parametrize(("name", "step"), [("single-deck", 10), ("single-deck-small", 1), ("two-handed", 1),
                                            ("double-deck", 1)])
def test_the_value_grid_comes_from_the_counters(name: str, step: int) -> None:
    assert counter_step(load_ruleset(name)) == step


def _pos(*hands: str, leader: int = 0, trick: str = "") -> Position:
    return Position(tuple(Hand(parse_cards(h)) for h in hands), leader, tuple(parse_cards(trick)))


def test_a_king_and_a_queen_of_different_value_are_two_moves() -> None:
    # two-handed: K is 4, Q is 3. Leading Q♥ lets the K♥ take the last trick: 14; leading K♥ gives 13.
    rules = load_ruleset("two-handed")
    solver = Solver(rules, Suit.S)
    pos = _pos("KH QH", "AH 9H")
    assert solver.plays(pos) == [(c, v) for c, v in zip(parse_cards("KH QH"), (13, 14), strict=True)]
    assert solver.value(pos) == 14


def test_the_other_side_gets_the_rest() -> None:
    rules = load_ruleset("single-deck")
    rng = np.random.default_rng(3)
    for _ in range(20):
        trump, pos = random_endgame(rules, rng, 3)
        rest = sum(rules.counter_value(c) for h in pos.hands for c in h) + sum(
            rules.counter_value(c) for c in pos.trick) + rules.last_trick
        assert Solver(rules, trump, us=1).value(pos) == rest - Solver(rules, trump).value(pos)


@pytest.mark.parametrize("name", RULESETS)
def test_suit_keys_kept_from_trick_to_trick_equal_keys_computed_afresh(name: str) -> None:
    rules = load_ruleset(name)
    rng = np.random.default_rng(23)
    for _ in range(40):
        trump, pos = random_endgame(rules, rng, int(rng.integers(2, rules.hand_size + 1)), mid_trick=False)
        solver = Solver(rules, trump, table_bits=4)
        left = pos.tricks_left
        hands, held, _win, _rest = solver._arrays(pos)
        who = _who(hands, rules.players)
        for s in range(4):
            _suit_key(s, who, int(np.bitwise_or.reduce(held)), solver.par, solver.tab, solver.order, solver.ranked,
                      solver.zob, solver.skey[left])
        while len(pos.trick) < rules.players:
            legal = solver.legal(pos)
            pos = pos.play(legal[int(rng.integers(len(legal)))])
        trick = np.array([c.index for c in pos.trick], dtype=np.int64)
        after = Position(pos.hands, 0)
        hands, held, _win, _rest = solver._arrays(after)
        _holders(hands, rules.players, who)
        fresh = np.zeros((4, 2), dtype=np.int64)
        for s in range(4):
            _suit_key(s, who, int(np.bitwise_or.reduce(held)), solver.par, solver.tab, solver.order, solver.ranked,
                      solver.zob, fresh)
        # the suit keys' cache empty (computed), then holding them (found)
        kept = empty_suit_cache()
        for _found in (False, True):
            solver.skey[left - 1] = 0
            _rekey(solver.skey, left, trick, held, who, solver.par, solver.tab, solver.order, solver.ranked, solver.zob,
                   kept)
            assert (solver.skey[left - 1] == fresh).all(), (trump, pos, _found)


@pytest.mark.parametrize("name", RULESETS)
def test_the_suit_keys_cache_returns_only_the_key_of_the_same_holders(name: str) -> None:
    """Every row of the cache holding another suit's or another position's key (a collision in every row): each
    suit's key is still its own."""
    rules = load_ruleset(name)
    rng = np.random.default_rng(29)
    # rows whose key differs from the one asked for (a cache that ignored its rows' holders would return it)
    told = 0
    for _ in range(20):
        keys = []
        for _pos in range(2):
            trump, pos = random_endgame(rules, rng, int(rng.integers(2, rules.hand_size + 1)), mid_trick=False)
            solver = Solver(rules, trump, table_bits=4)
            hands, held, _win, _rest = solver._arrays(pos)
            keys.append((solver, _who(hands, rules.players), int(np.bitwise_or.reduce(held))))
        (solver, who, held_any), (_other, other_who, other_held) = keys
        for s in range(4):
            fresh = np.zeros((4, 2), dtype=np.int64)
            _suit_key(s, who, held_any, solver.par, solver.tab, solver.order, solver.ranked, solver.zob, fresh)
            for t in range(4):
                # the cache filled with the other position's suit t, copied to every row
                kept = empty_suit_cache()
                out = np.zeros((4, 2), dtype=np.int64)
                _suit_key_kept(t, other_who, other_held, solver.par, solver.tab, solver.order, solver.ranked,
                               solver.zob, out, kept)
                kept[:] = kept[(kept[:, 0] >= 0).argmax()]
                got = np.zeros((4, 2), dtype=np.int64)
                _suit_key_kept(s, who, held_any, solver.par, solver.tab, solver.order, solver.ranked, solver.zob, got,
                               kept)
                assert (got[s] == fresh[s]).all()
                told += int((fresh[s] != out[t]).any())
    assert told > 100


def _key(rules: Ruleset, trump: Suit, hands: tuple[str, ...], suit: Suit) -> tuple[int, int]:
    solver = Solver(rules, trump, table_bits=4)
    pos = Position(tuple(Hand.parse(h) for h in hands))
    arrays, held, _win, _rest = solver._arrays(pos)
    who = _who(arrays, rules.players)
    out = np.zeros((4, 2), dtype=np.int64)
    _suit_key(int(suit), who, int(np.bitwise_or.reduce(held)), solver.par, solver.tab, solver.order, solver.ranked,
              solver.zob, out)
    return int(out[int(suit), 0]), int(out[int(suit), 1])


@pytest.mark.parametrize(("one", "other", "shared"), [
    # both jacks in seat 1 or a jack and a nine there: no other hand's card lies between them
    (("AS", "JS JS", "KS", "QS"), ("AS", "JS 9S", "KS", "QS"), True),
    # copies of one rank in two hands tie (the first played wins): a jack over a nine does not
    (("AS", "JS QS", "JS", "QS"), ("AS", "JS QS", "9S", "QS"), False),
    # one hand's counters and blanks in rank order are one key whatever the ranks
    (("AS 10S", "9S", "JS", "QS"), ("AS AS", "9S", "JS", "QS"), True),
    # who holds which card always counts
    (("AS", "JS JS", "9S", "QS"), ("JS", "AS JS", "9S", "QS"), False),
])
def test_positions_that_play_alike_share_a_table_key(one: tuple[str, ...], other: tuple[str, ...],
                                                      shared: bool) -> None:
    rules = load_ruleset("single-deck")
    spades = parse_suit("S")
    assert (_key(rules, parse_suit("H"), one, spades) == _key(rules, parse_suit("H"), other, spades)) is shared


@pytest.mark.parametrize("name", RULESETS)
def test_the_holders_kept_move_by_move_are_the_hands_again_after_a_search(name: str) -> None:
    rules = load_ruleset(name)
    rng = np.random.default_rng(29)
    for _ in range(10):
        trump, pos = random_endgame(rules, rng, int(rng.integers(2, 5)))
        solver = Solver(rules, trump, table_bits=4)
        solver.value(pos)
        hands, _held, _win, _rest = solver._arrays(pos)
        who = _who(hands, rules.players)
        assert (solver.who == who).all() and who.any(), (trump, pos)


def _leads(hands: tuple[str, ...], trump: str = "H") -> list[str]:
    """Seat 0's leads in the search's order (history empty)."""
    rules = load_ruleset("single-deck")
    solver = Solver(rules, parse_suit(trump), table_bits=4)
    arrays, held, _win, _rest = solver._arrays(Position(tuple(Hand.parse(h) for h in hands)))
    who = _who(arrays, rules.players)
    out = np.zeros(24, dtype=np.int64)
    # a lead: no card on the trick
    n = _gather(held, who, 0, int(held[0]), 0, 0, 0, False, solver.par, solver.side, solver.tab, solver.order,
                solver.ranked, solver.hist, out, solver.keys, solver.suit_mask, solver.duties, solver.above,
                solver.frames[0], None)
    return [ALL_CARDS[c].ascii() for c in out[:n]]


@pytest.mark.parametrize(("hands", "first", "last"), [
    # a suit the partner (seat 2) can trump (void, holding a trump) is led first, before a top card to cash
    (("AS KC", "QS 9C", "QH 9S", "JS AC"), "KC", "AS"),
    # a suit an opponent (seat 1) can trump is led last, its top card included
    (("AS KC", "QH 9C", "QS 9C", "JS AC"), "KC", "AS"),
    # a lead towards a partner's top card (AS) ranks with cashing one's own, before a lead into an opponent's
    (("KS QC", "QS 9C", "AS JC", "JS AC"), "KS", "QC"),
])
def test_leads_are_ordered_by_who_can_trump_and_who_holds_the_top(hands: tuple[str, ...], first: str,
                                                                  last: str) -> None:
    order = _leads(hands)
    assert (order[0], order[-1]) == (first, last)


@pytest.mark.parametrize(("hands", "first", "then"), [
    # 9S lets the opponents (seats 1, 3) answer with AS KS QS and JS (each must beat it), 9C with AC and KC
    (("9S 9C QD QD", "AS KS QS AC", "JC 10C 10D 9D", "JS KC AD KD"), "9C", "9S"),
    # the same with the suits' roles swapped
    (("9C 9S QD QD", "AC KC QC AS", "JS 10S 10D 9D", "JC KS AD KD"), "9S", "9C"),
])
def test_a_lead_that_leaves_the_opponents_fewer_replies_goes_first(hands: tuple[str, ...], first: str,
                                                                   then: str) -> None:
    order = _leads(hands)
    assert order.index(first) < order.index(then), order


@pytest.mark.parametrize(("gathered", "killer", "after"), [
    ([3, 5, 7], 7, [7, 3, 5]),
    ([3, 5, 7], 3, [3, 5, 7]),
    ([3, 5, 7], 5, [5, 3, 7]),
    ([3, 5, 7], 4, [4, 3, 5, 7]),  # not its run's first card: a move of its own
    ([3], 3, [3]),  # the killer was the only move
])
def test_a_failed_killer_lead_keeps_its_place_and_the_others_follow_it_once(gathered: list[int], killer: int,
                                                                           after: list[int]) -> None:
    row = np.array([killer, *gathered, -9], dtype=np.int64)
    count = _behind(row, len(gathered))
    assert row[:count].tolist() == after


def test_a_node_limit_stops_the_search() -> None:
    rules = load_ruleset("single-deck")
    trump, pos = random_endgame(rules, np.random.default_rng(5), 8, mid_trick=False)
    solver = Solver(rules, trump)
    solver.node_limit = 10
    with pytest.raises(SearchLimitError):
        solver.value(pos)


@pytest.mark.parametrize(("hands", "leader", "trick", "message"), [
    (("AS", "KS", "QS"), 0, "", "3 hands given; single-deck has 4 players"),
    (("AS", "KS", "QS", "JS"), 4, "", "leader seat 4 is not a seat 0..3"),
    (("AS KS", "KS", "QS", "JS"), 0, "", "the hands hold 2, 1, 1, 1 cards (seat 0 first): they must be the same "
                                         "size, one card fewer for each player who already played to the trick"),
    (("AS", "KS", "QS", "JS"), 0, "9S", "the hands hold 1, 1, 1, 1 cards (seat 0 first): they must be the same "
                                        "size, one card fewer for each player who already played to the trick"),
    (("AS", "AS", "AS", "JS"), 0, "", "the hands and the trick together: 3 copies of A♠ (AS); the single-deck pack has 2"),
    (("AS", "KH", "QS JS", "JS 9D"), 0, "9H 9S", "the trick: seat 1 played 9♠ — must follow suit in ♥"),
    (("AS", "KH", "QS", "JS"), 0, "9H 9S AH 10H", "the trick 9♥ 9♠ A♥ 10♥ has 4 cards: with 4 players it is "
                                                  "complete"),
    (("", "", "", ""), 0, "", "the hands are empty: there is nothing left to play"),
])
def test_impossible_positions_are_refused(hands: tuple[str, ...], leader: int, trick: str, message: str) -> None:
    with pytest.raises(PlayError) as info:
        check_position(load_ruleset("single-deck"), Suit.S, _pos(*hands, leader=leader, trick=trick))
    assert str(info.value) == message


@pytest.mark.parametrize("bits", [4, 10])
def test_each_table_bucket_fills_one_cache_line(bits: int) -> None:
    table = _aligned_table(bits)
    assert table.shape == (1 << bits, 2)
    assert table.ctypes.data % 64 == 0 and BUCKET * table.strides[0] == 64
    assert not table.any()


@pytest.mark.parametrize(("lefts", "generations", "row"), [
    ((5, 3, 7, 4), (9, 9, 9, 9), 1),  # the entry with the fewest tricks left goes
    ((5, 0, 7, 0), (9, 0, 9, 0), 1),  # an empty row first (no tricks left), the first of two
    ((2, 2, 2, 2), (9, 9, 9, 9), 0),  # a tie: the first
    ((9, 8, 7, 6), (9, 9, 9, 9), 3),
    ((3, 9, 8, 7), (9, 8, 9, 9), 1),  # an entry of an earlier generation goes first, however deep
])
def test_a_new_table_entry_replaces_the_one_least_worth_keeping(lefts: tuple[int, ...], generations: tuple[int, ...],
                                                                row: int) -> None:
    table = _aligned_table(4)
    first = 2 * BUCKET
    for i, (left, generation) in enumerate(zip(lefts, generations, strict=True)):
        table[first + i] = (2 * i + 1 if left else 0, left << 24 | generation << 16 | 40)
    assert _victim(table, np.uint64(first), 9) == first + row


def test_each_value_is_a_new_generation_of_table_entries() -> None:
    rules = load_ruleset("single-deck")
    solver = Solver(rules, Suit.S, table_bits=10)
    rng = np.random.default_rng(5)
    for k in range(1, 4):
        _trump, pos = random_endgame(rules, rng, 3, mid_trick=False)  # one solver's trump will do for the table
        solver.value(pos)
        assert solver.stats[3] == k
        rows = solver.tt[solver.tt[:, 0] != 0, 1]
        assert ((rows >> 16) & 0xFF).max() == k


def test_a_ruleset_whose_counters_overflow_the_table_is_refused() -> None:
    rules = load_ruleset("single-deck")
    huge = dataclasses.replace(rules, last_trick=1 << 16)
    with pytest.raises(PlayError, match=f"add up to {huge.counter_total}; the solver's table holds totals below"):
        Solver(huge, Suit.S)


def _questions(solver: Solver, value: int, window: list[int], *, ours: bool, near: int | None = None) -> list[int]:
    """The targets ``narrow`` asks when the value is ``value`` (each answer's bound is the target itself)."""
    asked: list[int] = []

    def ask(target: int) -> bool:
        asked.append(target)
        if value >= target:
            window[0] = max(window[0], target)
            return True
        window[1] = min(window[1], target - solver.step)
        return False

    solver.narrow(ask, window, ours=ours, near=near)
    assert window == [value, value]
    return asked


@pytest.mark.parametrize("name", ["single-deck", "two-handed"])
def test_the_questions_find_every_value_in_the_window(name: str) -> None:
    rules = load_ruleset(name)
    solver = Solver(rules, Suit.S, table_bits=4)
    step, rest = solver.step, rules.counter_total
    for ours in (True, False):
        for near in (None, rest // 3 // step * step):
            for value in range(0, rest + 1, step):
                asked = _questions(solver, value, [0, rest], ours=ours, near=near)
                assert len(asked) <= 2 * (rest // step).bit_length() + 25, (ours, near, value, asked)


@pytest.mark.parametrize(("ours", "value", "asked"), [
    # our side to move: from a fifth of the way up, a step (a twentieth of the window) at a time while the answer is yes
    (True, 120, [50, 60, 70, 80, 90, 100, 110, 120, 130]),
    (True, 30, [50, 20, 30, 40]),  # a no at once: the binary search below
    # the other side to move: the mirror image, from a fifth of the way down while the answer is no
    (False, 120, [210, 200, 190, 180, 170, 160, 150, 140, 130, 120]),
    (False, 240, [210, 230, 240, 250]),
])
def test_the_side_to_move_gets_the_first_questions_its_way(ours: bool, value: int, asked: list[int]) -> None:
    solver = Solver(load_ruleset("single-deck"), Suit.S, table_bits=4)
    assert _questions(solver, value, [0, 250], ours=ours) == asked


@pytest.mark.parametrize(("tricks", "most", "bits"), [
    (12, 21, 21), (15, 21, 21), (20, 21, 21), (11, 21, 19), (10, 21, 17), (8, 21, 13), (6, 21, 10), (1, 21, 10),
    (3, 4, 4), (12, 12, 12), (10, 12, 10),
])
def test_the_table_is_sized_by_the_tricks_left(tricks: int, most: int, bits: int) -> None:
    assert table_bits_for(tricks, most) == bits


def test_a_kept_solver_grows_its_table_for_a_larger_position() -> None:
    """A short ending gets a small table; a longer position after it a larger one, with the same values as a
    fresh solver's (the table is a cache)."""
    rules = load_ruleset("single-deck")
    rng = np.random.default_rng(8)
    trump, small = random_endgame(rules, rng, 3, mid_trick=False)
    kept = Solver(rules, trump)
    assert kept.value(small) == minimax(rules, trump, small)
    assert kept.tt.shape[0] == 1 << 10
    _, large = random_endgame(rules, rng, 9, mid_trick=False)
    fresh = Solver(rules, trump)
    assert kept.value(large) == fresh.value(large)
    assert kept.tt.shape[0] == fresh.tt.shape[0] == 1 << table_bits_for(9) > 1 << 10
    # a size given is kept whatever the position; the batch's kept solvers have the whole table from the start
    fixed = Solver(rules, trump, table_bits=12)
    fixed.value(large)
    assert fixed.tt.shape[0] == 1 << 12
    assert BatchSolver().solver(rules, trump).tt.shape[0] == 1 << TABLE_BITS


def _eight_handed() -> Ruleset:
    """double-deck's rules for eight players in two sides of four (ten cards each): ``who`` wider than 16 bits."""
    text = (ROOT / "rulesets" / "double-deck.yaml").read_text(encoding="utf-8")
    text = text.replace("name: double-deck", "name: eight-handed").replace('aliases: [double, "80"]', "aliases: []")
    text = text.replace("players: 4\npartnerships: [[0, 2], [1, 3]]\nhand_size: 20",
                        "players: 8\npartnerships: [[0, 2, 4, 6], [1, 3, 5, 7]]\nhand_size: 10")
    return load_ruleset_text(text)


def test_more_than_four_players_key_every_suit_afresh() -> None:
    """With more than four players the holders of three ranks do not fit a word: the suit keys' cache stays empty,
    and the values still agree with the exhaustive minimax."""
    rules = _eight_handed()
    assert rules.players == 8
    rng = np.random.default_rng(31)
    for _ in range(6):
        # three tricks: the keys of the position after the first trick are asked for
        trump, pos = random_endgame(rules, rng, 3, mid_trick=False)
        solver = Solver(rules, trump, table_bits=10)
        assert solver.value(pos) == minimax(rules, trump, pos), (trump, pos)
        assert (solver.kept == empty_suit_cache()).all()
