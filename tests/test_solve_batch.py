"""``solver.batch`` and ``pinochle solve --batch``: values as one solver alone finds them, in order, every refusal."""

from __future__ import annotations

import json

import numpy as np
import pytest
from clihelp import run_cli

from pinochle_cli.ruleset import bundled_names, load_ruleset
from pinochle_cli.solver.batch import MAX_KEPT, BatchFailure, BatchItem, BatchResult, BatchSolver, solve_batch
from pinochle_cli.solver.reference import minimax, random_endgame
from pinochle_cli.solver.solve import Position, Solver

RULESETS = [name for name in bundled_names() if not load_ruleset(name).sides_by_auction]
LINE = {"trump": "H", "hands": ["9H JD 9C", "9D JC 9C", "AS JS 10H", "QH AC 10C"]}


def _items(name: str, n: int, seed: int, tricks: int = 3) -> list[BatchItem]:
    rules = load_ruleset(name)
    rng = np.random.default_rng(seed)
    return [BatchItem(rules, *random_endgame(rules, rng, int(rng.integers(1, tricks + 1))), plays=k % 2 == 0)
            for k in range(n)]


@pytest.mark.parametrize("name", RULESETS)
def test_a_kept_solver_gives_the_values_of_a_fresh_solver_and_of_the_minimax(name: str) -> None:
    # one BatchSolver keeps its table, history and killers from position to position (a trump's positions in
    # any order): each value is still the one a fresh solver and the exhaustive minimax find
    items = _items(name, 60, 5)
    kept = BatchSolver()
    for item in items:
        got = kept.solve(item)
        assert isinstance(got, BatchResult)
        fresh = Solver(item.rules, item.trump, table_bits=12)
        assert got.value == fresh.value(item.position) == minimax(item.rules, item.trump, item.position)
        if item.plays:
            assert list(got.plays) == fresh.plays(item.position)


def test_positions_sharing_most_cards_reuse_the_table_and_keep_their_values() -> None:
    # the positions after each first lead of one deal: solved one after another by one solver they take fewer
    # nodes than with a fresh solver each, with the same values
    rules = load_ruleset("single-deck")
    rng = np.random.default_rng(11)
    trump, pos = random_endgame(rules, rng, 6, mid_trick=False)
    solver = Solver(rules, trump)
    after = [solver.after(pos, card)[0] for card in solver.legal(pos)]
    items = [BatchItem(rules, trump, p, plays=False) for p in after]
    kept = [r for r in solve_batch(items)]
    fresh = [BatchSolver().solve(item) for item in items]
    assert all(isinstance(r, BatchResult) for r in kept + fresh)
    assert [r.value for r in kept] == [r.value for r in fresh]  # type: ignore[union-attr]
    assert sum(r.nodes for r in kept) < sum(r.nodes for r in fresh)  # type: ignore[union-attr]


def test_workers_give_the_results_of_one_process_in_order() -> None:
    items = _items("single-deck", 30, 8)
    rules = items[0].rules
    # a position that cannot arise: a failure in its place, the others solved
    bad = BatchItem(rules, rules.suits[0], Position(items[0].position.hands[:2], 0))
    items.insert(7, bad)
    one = list(solve_batch(items, workers=1))
    two = list(solve_batch(items, workers=2))
    assert len(one) == len(two) == len(items)
    assert isinstance(one[7], BatchFailure) and one[7] == two[7]
    assert one[7].error.startswith("2 hands given")
    assert [(r.value, r.to_play, r.plays) for r in one if isinstance(r, BatchResult)] == \
        [(r.value, r.to_play, r.plays) for r in two if isinstance(r, BatchResult)]


def test_a_time_limit_is_counted_per_position() -> None:
    rules = load_ruleset("single-deck")
    trump, pos = random_endgame(rules, np.random.default_rng(3), 12, mid_trick=False)
    solver = BatchSolver()
    clock = iter(range(0, 10_000, 100))
    solver.solvers[(rules, trump, 0, None, None)] = Solver(rules, trump, clock=lambda: float(next(clock)))
    failed = solver.solve(BatchItem(rules, trump, pos, time_limit=50.0))
    assert isinstance(failed, BatchFailure) and failed.kind == "SearchLimitError"
    assert failed.parameter == "time_limit" and failed.error.startswith("stopped after 50 s of CPU")


# --------------------------------------------------------------------------- the command line

THREE = {"trump": "S", "hands": ["AS 9H KD", "TS AH QD", "KS TH AD"], "ruleset": "three-handed"}


def _batch(lines: list[str], *args: str) -> tuple[int, list[dict[str, object]], str]:
    code, out, err = run_cli("solve", "--batch", "-", *args, input="".join(line + "\n" for line in lines))
    return code, [json.loads(line) for line in out.splitlines()], err


def test_each_line_gives_the_solve_json_document_plus_nodes_and_seconds() -> None:
    code, out, err = _batch([json.dumps(LINE), "", json.dumps({**LINE, "leader": 1})])
    assert (code, err) == (0, "")
    assert len(out) == 2
    hands = [word for h in LINE["hands"] for word in ("--hand", h)]
    alone = json.loads(run_cli("solve", "-t", "H", *hands, "--json").out)
    assert {k: out[0][k] for k in alone} == alone
    assert set(out[0]) == {*alone, "nodes", "seconds"}
    assert isinstance(out[0]["nodes"], int) and isinstance(out[0]["seconds"], float)
    assert out[1]["to_play"] == 1


@pytest.mark.parametrize("bidder", [0, 1, 2])
def test_a_bidder_alone_line_is_solved_as_solve_with_its_bidder(bidder: int) -> None:
    code, out, err = _batch([json.dumps({**THREE, "bidder": bidder})])
    assert (code, err) == (0, "")
    hands = [word for h in THREE["hands"] for word in ("--hand", h)]
    alone = json.loads(run_cli("solve", "-r", "three-handed", "-t", "S", *hands, "--bidder", str(bidder),
                               "--json").out)
    assert {k: out[0][k] for k in alone} == alone


@pytest.mark.parametrize(("line", "error"), [
    ("not json", "not JSON: Expecting value: line 1 column 1 (char 0)"),
    ("[1, 2]", "a position is a JSON object with the keys trump, hands, leader, trick, ruleset, bidder, not [1, 2]"),
    (json.dumps({**LINE, "colour": 1}), 'unknown key "colour": the keys are trump, hands, leader, trick, ruleset, '
                                        "bidder"),
    (json.dumps({"hands": LINE["hands"]}), 'the key "trump" is missing'),
    (json.dumps({"trump": "H"}), 'the key "hands" is missing'),
    (json.dumps({**LINE, "trump": "X"}), '"X" is not a suit (use S, H, D, C, a suit name or ♠ ♥ ♦ ♣)'),
    (json.dumps({**LINE, "trump": 3}), '"trump": 3 is not a str'),
    (json.dumps({**LINE, "hands": "9H JD"}), '"hands": "9H JD" is not a list'),
    (json.dumps({**LINE, "hands": LINE["hands"][:3]}), '"hands": give 4 strings of cards (single-deck has 4 '
                                                       "players), seat 0 first"),
    (json.dumps({**LINE, "hands": [*LINE["hands"][:3], "QH ZZ"]}), '"hands" 3 (seat 3): "ZZ" is not a card'),
    (json.dumps({**LINE, "leader": 4}), '"leader": 4 is not a seat 0..3'),
    (json.dumps({**LINE, "leader": True}), '"leader": true is not an integer'),
    (json.dumps({**LINE, "bidder": 1}), '"bidder" does not apply: in single-deck the partnerships are fixed'),
    (json.dumps(THREE), '"bidder" is needed: in three-handed the bidder plays alone against the others'),
    (json.dumps({**THREE, "bidder": 3}), '"bidder": 3 is not a seat 0..2'),
    (json.dumps({**LINE, "trick": "QX"}), '"trick": "QX" is not a card'),
    (json.dumps({**LINE, "ruleset": "nope"}), "no bundled ruleset named 'nope'"),
    (json.dumps({**LINE, "ruleset": " "}), '"ruleset" is empty'),
    (json.dumps({**LINE, "hands": ["9H JD", *LINE["hands"][1:]]}), "the hands hold 2, 3, 3, 3 cards"),
])
def test_a_bad_line_is_reported_in_its_place_and_the_others_solved(line: str, error: str) -> None:
    code, out, err = _batch([json.dumps(LINE), line, json.dumps(LINE)])
    assert code == 2
    assert err == 'Error: 1 of 3 positions could not be solved: see the lines with "error"\n'
    assert out[0] == {**out[2], "seconds": out[0]["seconds"], "nodes": out[0]["nodes"]}
    assert out[1]["line"] == 2 and str(out[1]["error"]).startswith(error), out[1]
    assert set(out[1]) == {"line", "error"}


def test_a_position_past_its_time_limit_is_a_bad_line_naming_the_option() -> None:
    rules = load_ruleset("double-deck")
    trump, pos = random_endgame(rules, np.random.default_rng(1), 16, mid_trick=False)
    line = json.dumps({"trump": trump.letter, "hands": [" ".join(c.ascii() for c in h) for h in pos.hands],
                       "ruleset": "double-deck"})
    code, out, err = _batch([line], "--time-limit", "0.05")
    assert code == 2 and err.startswith("Error: 1 of 1 position could not be solved")
    assert str(out[0]["error"]).startswith("stopped after 0.05 s of CPU: this position has 16 tricks left")


@pytest.mark.parametrize(("args", "message"), [
    (["--batch", "-", "--hand", "AH"], "Error: --batch takes each position from its line: leave out --hand"),
    (["--batch", "-", "-t", "H", "--trick", "AH"], "leave out -t/--trump, --trick"),
    (["--batch", "-", "--leader", "2"], "leave out --leader"),
    (["--batch", "no-such-file.jsonl"], "Error: Invalid value for '--batch': 'no-such-file.jsonl': No such file"),
    (["-t", "H", "--hand", "AH", "--workers", "2"], "Error: --workers goes with --batch"),
    (["-t", "H"], "Error: Missing option '--hand'."),
    (["--hand", "AH"], "Error: Missing option '-t' / '--trump'."),
    (["--batch", "-", "--workers", "0"], "Error: Invalid value for '--workers'"),
])
def test_the_batch_options_refuse_what_does_not_go_with_them(args: list[str], message: str) -> None:
    code, out, err = run_cli("solve", *args, input="")
    assert code == 2 and out == ""
    assert message in err


def test_an_empty_batch_prints_nothing() -> None:
    assert run_cli("solve", "--batch", "-", input="\n\n") == (0, "", "")


def test_more_workers_than_cores_is_noted() -> None:
    code, out, err = run_cli("solve", "--batch", "-", "--workers", "999", input=json.dumps(LINE) + "\n")
    assert code == 0 and err.startswith("Note: --workers 999: using ")
    assert json.loads(out)["value"] == 50


def test_a_process_keeps_at_most_max_kept_solvers_the_latest_used() -> None:
    """Each kept solver holds a 32 MB table: past MAX_KEPT the one used longest ago goes; values do not change."""
    rules = load_ruleset("single-deck")
    trump, pos = random_endgame(rules, np.random.default_rng(4), 2, mid_trick=False)
    batch = BatchSolver()
    worths = [rules.last_trick + 10 * k for k in range(MAX_KEPT + 3)]
    for worth in [worths[0], *worths]:
        result = batch.solve(BatchItem(rules, trump, pos, plays=False, last_trick=worth))
        fresh = Solver(rules, trump, last_trick=worth, table_bits=10).value(pos)
        assert isinstance(result, BatchResult) and result.value == fresh
    assert len(batch.solvers) == MAX_KEPT
    assert [key[4] for key in batch.solvers] == worths[-MAX_KEPT:]
