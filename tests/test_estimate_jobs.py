"""The estimate's work in jobs: a simulator pickles as what builds it, a job of chunks tallies as its chunks, jobs
group chunks evenly over the workers, and the answer does not depend on the workers."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from clihelp import run_cli

from pinochle_cli.cards import parse_cards
from pinochle_cli.estimate.checks import estimable_trumps
from pinochle_cli.estimate.games import Simulator, Tally
from pinochle_cli.estimate.simulate import estimate, tally_jobs
from pinochle_cli.ruleset import load_ruleset

HANDS = {12: "AH TH KH QH JH AS KS QS KD QD KC QC"}


@pytest.mark.parametrize("workers", [1, 2])
def test_estimate_json_is_the_same_on_any_workers(workers: int) -> None:
    rules = load_ruleset("single-deck")
    hand = parse_cards(HANDS[12])
    one = estimate(rules, hand, samples=1200, seed=4, workers=1).to_json()
    assert estimate(rules, hand, samples=1200, seed=4, workers=workers).to_json() == one


def test_cli_json_is_the_same_on_any_workers() -> None:
    args = ("estimate", HANDS[12], "--samples", "1500", "--seed", "3", "--json")
    one, two = run_cli(*args, "--workers", "1"), run_cli(*args, "--workers", "2")
    assert one.code == two.code == 0 and json.loads(one.out) == json.loads(two.out)


def test_a_simulator_pickles_as_what_builds_it() -> None:
    rules = load_ruleset("single-deck")
    hand = rules.deck.check(parse_cards(HANDS[12]))
    sim = Simulator(rules, hand, estimable_trumps(rules, hand))
    copy = pickle.loads(pickle.dumps(sim))  # as a worker that is started, not forked, receives it
    assert copy.trumps == sim.trumps
    assert np.array_equal(copy.games(1, 100, seed=3).claim, sim.games(1, 100, seed=3).claim)


def test_a_job_of_several_chunks_tallies_as_its_chunks_one_by_one() -> None:
    rules = load_ruleset("single-deck")
    hand = rules.deck.check(parse_cards(HANDS[12]))
    sim = Simulator(rules, hand, estimable_trumps(rules, hand))
    together = sim.tally([(3, 120), (4, 80)], seed=9)
    apart = Tally.empty(len(sim.trumps))
    apart.add(sim.tally([(3, 120)], seed=9))
    apart.add(sim.tally([(4, 80)], seed=9))
    assert together == apart and together.deals == 200


JOB_CASES = [
    # (deals, workers, deals per job)
    (2_000, 1, [500] * 4),  # too few chunks to group: every worker gets 4 jobs or more
    (2_000, 2, [500] * 4),
    (10_000, 1, [2_000] * 5),
    (10_000, 2, [1_000] * 10),
    (20_000, 2, [2_000] * 10),  # at most 4 chunks a job
    (5_100, 1, [1_000] * 5 + [100]),  # a last, partial chunk
]


@pytest.mark.parametrize(("deals", "workers", "sizes"), JOB_CASES)
def test_jobs_group_chunks_evenly_over_the_workers(deals: int, workers: int, sizes: list[int]) -> None:
    jobs = tally_jobs(5, 0, deals, workers)
    assert [sum(n for _, n in chunks) for chunks, _ in jobs] == sizes
    assert [i for chunks, _ in jobs for i, _ in chunks] == list(range(-(-deals // 500)))  # every chunk, in order
    assert all(seed == 5 for _, seed in jobs)
