"""``analyze`` through the solver's batch: the same verdicts from any number of workers and chunks, the batch's
judged cards as the exhaustive search finds them, the whole batch's CPU limit, and ``--workers`` refused."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from analysed import analysed
from clihelp import run_cli

from pinochle_cli.records import parse_record
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.solver.analyze import analyze_deal, analyze_deals, playable_deals
from pinochle_cli.solver.batch import BatchFailure, BatchItem, BatchResult, BatchSolver, SharedClock, solve_batch
from pinochle_cli.solver.reference import minimax, random_endgame, value_after
from pinochle_cli.solver.solve import Solver

ROOT = Path(__file__).resolve().parent.parent
PLAYED = str(ROOT / "examples" / "single-deck-played.yaml")
CLOSE = str(ROOT / "examples" / "single-deck-close-call.yaml")


@pytest.mark.parametrize("path", [PLAYED, CLOSE])
def test_two_workers_and_any_chunks_give_the_verdicts_of_one(path: str) -> None:
    record, deal, one = analysed(path)
    assert (one.first_trick, one.stopped) == (1, None)
    for workers, chunk in [(2, 1), (2, 8), (2, 48)]:
        other = analyze_deal(record, deal, workers=workers, chunk=chunk)
        assert (other.perfect, other.first_trick, other.stopped) == (one.perfect, one.first_trick, one.stopped)
        assert other.verdicts == one.verdicts


def test_the_cli_answer_does_not_depend_on_the_workers() -> None:
    one = run_cli("analyze", CLOSE, "--json", "--workers", "1")
    two = run_cli("analyze", CLOSE, "--json", "--workers", "2")
    assert one.code == 0 and one == two
    assert json.loads(one.out)["deals"][0]["perfect"] == 200


def test_the_players_view_does_not_depend_on_the_workers() -> None:
    args = ("analyze", CLOSE, "--view", "players", "--worlds", "1", "--seed", "3", "--time-limit", "3600", "--json")
    one, two = run_cli(*args, "--workers", "1"), run_cli(*args, "--workers", "2")
    assert one.code == 0 and one == two
    assert json.loads(one.out)["deals"][0]["players_view"]["judged_from_trick"] == 1


@pytest.mark.parametrize(("value", "shown"), [("0", "0 is not in the range x>=1"), ("-1", "-1 is not in the range x>=1"),
                                             ("two", "'two' is not a valid integer range")])
def test_a_bad_worker_count_is_one_line(value: str, shown: str) -> None:
    assert run_cli("analyze", CLOSE, "--workers", value) == (2, "", f"Error: Invalid value for '--workers': {shown}.\n")


def test_more_workers_than_cores_is_noted() -> None:
    code, out, err = run_cli("analyze", CLOSE, "--workers", "999")
    assert code == 0 and err.startswith("Note: --workers 999: using ") and err.endswith(", the cores available.\n")
    assert "the bid of 340 was not makeable" in out


def test_a_time_limit_across_workers_leaves_the_first_tricks_not_analysed() -> None:
    record, deal, whole = analysed(PLAYED)
    # far less than the deal's search: the workers' CPU together runs out
    part = analyze_deal(record, deal, time_limit=0.05, workers=2)
    assert (part.stopped, part.makeable) == ("time limit", None) and part.first_trick > 1
    assert part.verdicts == tuple(v for v in whole.verdicts if v.trick >= part.first_trick)


# --------------------------------------------------------------------------- the batch's judged cards

@pytest.mark.parametrize("name", ["single-deck", "single-deck-small", "two-handed"])
def test_a_judged_card_gets_its_value_after_and_a_better_card_as_the_minimax(name: str) -> None:
    rules = load_ruleset(name)
    rng = np.random.default_rng(4)
    solver = BatchSolver()
    for _ in range(12):
        trump, pos = random_endgame(rules, rng, 3)
        legal = Solver(rules, trump).legal(pos)
        card = legal[int(rng.integers(len(legal)))]
        got = solver.solve(BatchItem(rules, trump, pos, played=card))
        assert isinstance(got, BatchResult) and got.plays == ()
        assert (got.value, got.after) == (minimax(rules, trump, pos), value_after(rules, trump, pos, card))
        if got.value == got.after:
            assert got.better is None
        else:
            assert got.better is not None and got.better != card
            assert value_after(rules, trump, pos, got.better) == got.value


def test_the_last_trick_bonus_of_an_item_is_its_own() -> None:
    rules = load_ruleset("single-deck")
    trump, pos = random_endgame(rules, np.random.default_rng(2), 2, mid_trick=False)
    solver = BatchSolver()
    plain, more = (solver.solve(BatchItem(rules, trump, pos, plays=False, last_trick=bonus))
                   for bonus in (None, rules.last_trick + 30))
    assert isinstance(plain, BatchResult) and isinstance(more, BatchResult)
    # the side that takes the last trick takes the 30 too: our side's value moves by 0 or 30
    assert more.value - plain.value in (0, 30)
    assert len(solver.solvers) == 2


def test_a_batch_time_limit_fails_the_items_after_it_ran_out() -> None:
    rules = load_ruleset("single-deck")
    rng = np.random.default_rng(6)
    items = [BatchItem(rules, *random_endgame(rules, rng, 6), plays=False) for _ in range(6)]
    ticks = iter(range(10_000))
    # a clock one second further at each reading: the whole's 100 seconds end after a few items
    got = list(solve_batch(items, time_limit=100.0, clock=lambda: float(next(ticks))))
    failed = [isinstance(r, BatchFailure) for r in got]
    assert not failed[0] and failed[-1] and failed == sorted(failed)
    assert all(r.error.startswith("stopped after 100 s of CPU") for r in got if isinstance(r, BatchFailure))
    # each item's own limit, when it ends first
    own = [BatchItem(item.rules, item.trump, item.position, plays=False, time_limit=1.0) for item in items]
    ticks = iter(range(10_000))
    assert all(isinstance(r, BatchFailure) for r in solve_batch(own, time_limit=100.0,
                                                                 clock=lambda: float(next(ticks))))


def test_the_shared_clock_counts_the_workers_cpu() -> None:
    rules = load_ruleset("single-deck")
    rng = np.random.default_rng(9)
    items = [BatchItem(rules, *random_endgame(rules, rng, 7), plays=False) for _ in range(16)]
    clock = SharedClock()
    start = clock()
    got = list(solve_batch(items, workers=2, chunk=4, clock=clock))
    assert all(isinstance(r, BatchResult) for r in got)
    assert clock() - start >= sum(r.seconds for r in got if isinstance(r, BatchResult))


def test_a_judged_card_without_its_next_position_known_is_solved_anyway() -> None:
    rules = load_ruleset("single-deck")
    trump, pos = random_endgame(rules, np.random.default_rng(12), 4, mid_trick=False)
    card = Solver(rules, trump).legal(pos)[0]
    got = BatchSolver().solve(BatchItem(rules, trump, pos, played=card))
    assert isinstance(got, BatchResult)
    assert (got.value, got.after) == (minimax(rules, trump, pos), value_after(rules, trump, pos, card))


# --------------------------------------------------------------------------- a record of several deals

def _four_deals(*paths: str) -> str:
    """A record of four played deals: those of ``paths`` (the two single-deck examples) over and over, under the
    first one's head."""
    texts = [Path(p).read_text(encoding="utf-8") for p in paths or (PLAYED, CLOSE)]
    deals = [text[text.index("deals:\n") + len("deals:\n"):] for text in texts]
    return texts[0][:texts[0].index("deals:\n") + len("deals:\n")] + "".join((deals * 4)[:4])


def test_the_deals_of_a_record_spread_over_the_workers_get_the_analyses_of_one_by_one() -> None:
    record = parse_record(_four_deals())
    deals = playable_deals(record)
    # deals 3 and 4 are deals 1 and 2 again: one by one, each of the two once
    one = [analyze_deal(record, deal) for deal in deals[:2]] * 2
    seen: list[tuple[int, int]] = []
    spread = analyze_deals(record, deals, workers=2, progress=lambda done, total: seen.append((done, total)))
    assert [a.number for a in spread] == [1, 2, 3, 4]
    assert [(a.perfect, a.first_trick, a.verdicts) for a in spread] == \
        [(a.perfect, a.first_trick, a.verdicts) for a in one]
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert [a.perfect for a in spread] == [70, 200, 70, 200]


def test_the_cli_answer_for_a_record_does_not_depend_on_the_workers(tmp_path: Path) -> None:
    path = tmp_path / "four.yaml"
    # the quick example four times: the deals' numbers in the answer show their order
    path.write_text(_four_deals(CLOSE), encoding="utf-8")
    one = run_cli("analyze", str(path), "--workers", "1")
    assert one.code == 0 and one == run_cli("analyze", str(path), "--workers", "2")
    assert [line.split(":")[0] for line in one.out.splitlines() if line.startswith("Deal ")] == \
        ["Deal 1", "Deal 2", "Deal 3", "Deal 4"]
