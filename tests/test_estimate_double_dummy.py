"""Perfect play in the estimator: the opening is the heuristic's, the rest is the solver's (checked against
an exhaustive minimax), the heuristic tally is the estimate's, and the answer depends on the seed only."""

from __future__ import annotations

from pathlib import Path

import pytest

from pinochle_cli.cards import Hand, Suit, parse_cards
from pinochle_cli.errors import SimulationError
from pinochle_cli.estimate import double_dummy
from pinochle_cli.estimate.double_dummy import Cost, PerfectPlayer, check_exact_from, perfect_play
from pinochle_cli.estimate.simulate import estimate
from pinochle_cli.ruleset import Ruleset, load_ruleset
from pinochle_cli.solver.batch import BatchFailure, BatchItem, BatchResult
from pinochle_cli.solver.reference import minimax
from pinochle_cli.solver.solve import Position, Solver

HANDS = {
    "single-deck": "AH TH KH KH QH JH AS AD AC KS QD 9C",
    "single-deck-small": "AH TH KH KH QH JH AS AD AC KS QD 9C",
    "double-deck": "AH AH TH KH KH QH QH JH JH AS AS AD KD QD AC TC KC QC JS JS",
}
NAMES = sorted(HANDS)
ROOT = Path(__file__).resolve().parent.parent


def _player(name: str, exact_from: int) -> PerfectPlayer:
    rules = load_ruleset(name)
    hand = Hand(parse_cards(HANDS[name]))
    return PerfectPlayer(rules, hand, rules.eligible_trumps(hand), exact_from)


def _play_out(solver: Solver, pos: Position) -> int:
    """Our side's counters when every card is the solver's best, to the last trick."""
    taken = 0
    while any(pos.hands):
        plays = solver.plays(pos)
        best = solver.best(plays, pos.to_play)
        card = next(c for c, v in plays if v == best)
        pos, got = solver.after(pos, card)
        taken += got
    return taken


@pytest.mark.parametrize("name", NAMES)
def test_the_solved_tricks_are_perfect_play(name: str) -> None:
    """Each sampled deal's last three tricks: the solver's value is the exhaustive minimax and what playing
    its best cards to the end takes; the perfect tally is the opening's counters plus that value."""
    rules = load_ruleset(name)
    player = _player(name, rules.tricks_per_deal - 2)
    n = 5
    for suit, trump in enumerate(player.sim.trumps[:2]):
        o = player.openings(0, n, 3, suit)
        heuristic, got = player.run((0, n, 3, suit, 0, n))
        values = []
        for j in range(n):
            pos = Position(tuple(Hand.from_counts(h.tolist()) for h in o.hands[j]), int(o.leader[j]))
            value = player.solver(suit).value(pos)
            assert value == minimax(rules, trump, pos) == _play_out(Solver(rules, trump, table_bits=10), pos)
            values.append(value)
        assert got.counters == [int(o.points.sum()) + sum(values)]
        assert heuristic.deals == got.deals == n


@pytest.mark.parametrize("name", NAMES)
def test_the_heuristic_side_is_the_estimate_itself(name: str) -> None:
    rules = load_ruleset(name)
    hand = Hand(parse_cards(HANDS[name]))
    est = estimate(rules, hand, samples=30, seed=2, workers=1)
    result = perfect_play(rules, hand, [s.trump for s in est.suits], samples=30, seed=2,
                          exact_from=rules.tricks_per_deal - 1, workers=1, confidence=0.75)
    assert [s.heuristic for s in result.suits] == list(est.suits)
    for s in result.suits:
        assert [b.bid for b in s.bids][:len(s.heuristic.bids)] == [b.bid for b in s.heuristic.bids]
        assert all(b.heuristic == h for b, h in zip(s.bids, s.heuristic.bids, strict=False))
        assert all(b.perfect.made >= c.perfect.made for b, c in zip(s.bids, s.bids[1:], strict=False))


def _run(workers: int, seed: int = 8, samples: int = 520) -> dict[str, object]:
    rules = load_ruleset("single-deck-small")
    hand = Hand(parse_cards(HANDS["single-deck-small"]))
    return perfect_play(rules, hand, [Suit(1), Suit(2)], samples=samples, seed=seed, exact_from=10,
                        workers=workers, confidence=0.75).to_json()


def test_same_seed_same_answer_serial_or_parallel_whatever_the_job_sizes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two chunks (520 deals), two suits: jobs of any size, one worker or two, give the same document."""
    serial = _run(1)
    monkeypatch.setattr(double_dummy, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(double_dummy, "JOB_SECONDS", 0.02)
    assert _run(2) == serial
    assert _run(1, samples=50) == _run(1, samples=50)
    assert _run(1, samples=50) != _run(1, seed=9, samples=50)


def test_the_cost_is_measured_on_the_first_solves() -> None:
    rules = load_ruleset("single-deck")
    hand = Hand(parse_cards(HANDS["single-deck"]))
    seen: list[Cost] = []
    perfect_play(rules, hand, [Suit(1), Suit(2)], samples=5, seed=1, exact_from=11, workers=2, confidence=0.75,
                 on_cost=seen.append)
    [cost] = seen
    assert (cost.exact_from, cost.tricks, cost.solves, cost.workers) == (11, 12, 10, 2)
    # the first solves of each suit timed
    assert 2 <= cost.probed <= 10 and cost.cpu > 0 and len(cost.times) == cost.probed
    assert cost.cpu == pytest.approx(sum(cost.times))
    assert cost.seconds_left == pytest.approx(cost.per_solve * (10 - cost.probed) / 2)
    high = cost.seconds_left_high
    assert high is not None and high >= cost.seconds_left


def test_no_suit_to_name_solves_nothing() -> None:
    rules = load_ruleset("single-deck")
    seen: list[Cost] = []
    result = perfect_play(rules, Hand(parse_cards(HANDS["single-deck"])), [], samples=5, seed=1, exact_from=1,
                          workers=1, confidence=0.75, on_cost=seen.append)
    assert (result.suits, result.best, seen) == ((), None, [])


@pytest.mark.parametrize(("name", "exact_from", "message"), [
    ("single-deck", 0, "exact_from 0: a single-deck deal has 12 tricks; give a trick from 1 to 12"),
    ("single-deck", 13, "exact_from 13: a single-deck deal has 12 tricks; give a trick from 1 to 12"),
    ("double-deck", 1, "exact_from 1: perfect play over all 20 tricks of a double-deck deal is out of reach "
                       "(beyond 12 tricks one deal can take hours); give exact_from=9 or later"),
    ("double-deck", 8, "exact_from 8: perfect play over the last 13 tricks of a double-deck deal is out of reach "
                       "(beyond 12 tricks one deal can take hours); give exact_from=9 or later"),
])
def test_exact_from_must_fit_the_deal_and_the_solver(name: str, exact_from: int, message: str) -> None:
    """The library names its parameter (the command line words it as --exact-from)."""
    with pytest.raises(SimulationError) as caught:
        check_exact_from(load_ruleset(name), exact_from)
    assert str(caught.value) == message
    assert caught.value.parameter == "exact_from"


@pytest.mark.parametrize(("name", "exact_from"), [("single-deck", 1), ("single-deck", 12), ("double-deck", 9),
                                                  ("double-deck", 20)])
def test_exact_from_accepts_up_to_twelve_solved_tricks(name: str, exact_from: int) -> None:
    check_exact_from(load_ruleset(name), exact_from)


THREE_HAND = "AS TS KS QS AH TH KH QH JD AD KC QC AC 9D 9C"


def _widow_rules(tmp_path: Path, counters: str) -> Ruleset:
    """three-handed, its buried counters the bidder's (as bundled) or the last trick's winner's."""
    text = (ROOT / "rulesets" / "three-handed.yaml").read_text(encoding="utf-8")
    path = tmp_path / f"three-{counters}.yaml"
    path.write_text(text.replace("  counters: bidder ", f"  counters: {counters} "), encoding="utf-8")
    rules = load_ruleset(str(path))
    assert rules.bury is not None and rules.bury.counters == counters
    return rules


@pytest.mark.parametrize("counters", ["bidder", "last-trick"])
def test_a_widow_game_solved_from_the_last_trick_is_the_heuristic_play(tmp_path: Path, counters: str) -> None:
    """In a game with a widow the solver plays the estimate's own deals after the widow and the bury: with only
    the last trick (one card each) left to solve, perfect play is the heuristic's, the buried counters counted
    where the ruleset says, bid by bid."""
    rules = _widow_rules(tmp_path, counters)
    hand = Hand(parse_cards(THREE_HAND))
    est = estimate(rules, hand, samples=40, seed=3, workers=1)
    result = perfect_play(rules, hand, [s.trump for s in est.suits], samples=40, seed=3,
                          exact_from=rules.tricks_per_deal, workers=1, confidence=0.75)
    for s in result.suits:
        assert s.perfect == s.heuristic
        assert all(b.difference == 0 for b in s.bids)


@pytest.mark.parametrize("counters", ["bidder", "last-trick"])
def test_a_widow_games_solved_tricks_are_perfect_play(tmp_path: Path, counters: str) -> None:
    """The last three tricks of three-handed deals: the kept solver's value is a fresh solver's playing its
    best cards to the end, the bidder alone, the last trick worth its buried counters where they go to it."""
    rules = _widow_rules(tmp_path, counters)
    player = PerfectPlayer(rules, Hand(parse_cards(THREE_HAND)), [Suit(0)], rules.tricks_per_deal - 2)
    n = 6
    o = player.openings(0, n, 4, 0)
    bonus, to_last = player.buried(o.games, o.rows)
    assert to_last == (counters == "last-trick") and bonus.any()
    _, got = player.run((0, n, 4, 0, 0, n))
    total = 0
    for j in range(n):
        pos = Position(tuple(Hand.from_counts(h.tolist()) for h in o.hands[j]), int(o.leader[j]))
        last = rules.last_trick + int(bonus[j]) if to_last else None
        fresh = Solver(rules, Suit(0), bidder=0, last_trick=last, table_bits=10)
        total += _play_out(fresh, pos) + (0 if to_last else int(bonus[j]))
    assert got.counters == [int(o.points.sum()) + total]


def test_the_widow_games_perfect_play_is_the_same_serial_or_parallel() -> None:
    rules = load_ruleset("three-handed")
    hand = Hand(parse_cards(THREE_HAND))
    run = [perfect_play(rules, hand, [Suit(0), Suit(3)], samples=60, seed=5, exact_from=12, workers=w,
                        confidence=0.75).to_json() for w in (1, 2)]
    assert run[0] == run[1]


@pytest.mark.parametrize(("exact_from", "guessed"), [(1, False), (11, True)])
def test_the_heuristic_take_is_the_first_question_only_after_a_trick_played(
        exact_from: int, guessed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """From the first lead the solver's own climb asks first (the heuristic's guess costs nodes there); later
    the questions start at what the heuristic took after the opening."""
    player = _player("single-deck", exact_from)
    asked = []
    solve = player.batch.solve

    def noting(item: BatchItem) -> BatchResult | BatchFailure:
        asked.append(item.near)
        return solve(item)

    monkeypatch.setattr(player.batch, "solve", noting)
    player.run((0, 4, 3, 0, 0, 2))
    assert len(asked) == 2
    assert all((near is not None) == guessed for near in asked)


def test_a_long_run_measures_its_cost_on_more_solves() -> None:
    """One second of measuring for a short run; for a long one a share of its projected cost, with a ceiling."""
    probe = double_dummy._probe_seconds
    assert probe([], 8000) == double_dummy.PROBE_SECONDS
    assert probe([0.001] * 4, 400) == double_dummy.PROBE_SECONDS
    assert probe([0.2] * 4, 8000) == pytest.approx(double_dummy.PROBE_SHARE * 0.2 * 8000)
    assert probe([1.0, 3.0], 8000) == double_dummy.PROBE_MOST
