"""The compiled player plays every card the numpy player plays, and the simulator uses it only when it pays."""

from __future__ import annotations

import dataclasses
import json
import pickle

import numpy as np
import pytest
from clihelp import run_cli

from pinochle_cli.cards import parse_cards
from pinochle_cli.estimate import compiled_cache
from pinochle_cli.estimate.compiled import FastTables, play_deals
from pinochle_cli.estimate.players import PlayTables, play_batch
from pinochle_cli.estimate.simulate import Simulator, Tally, estimable_trumps, estimate, tally_jobs
from pinochle_cli.ruleset import Duty, Ruleset, bundled_names, load_ruleset

HANDS = {12: "AH TH KH QH JH AS KS QS KD QD KC QC",
         20: "AH AH TH KH KH QH QH JH JH AS AS KS QS AD KD QD AC TC KC QC",
         # the games with a widow: the bidder's hand before it
         15: "AH AH TH KH QH JH 9H AS KS QS JD AD KC QC 9C",
         11: "AH TH KH QH JH AS KS QS JD AD KC",
         25: "AH AH TH TH KH KH QH QH JH JH AS AS KS QS QS JD JD AD AD KC QC AC TC TS TD"}
WIDOW_GAMES = ["three-handed", "examples/rulesets/four-handed-kitty.yaml", "examples/rulesets/three-handed-double.yaml"]
DUTY_LISTS = [  # beyond the bundled files: every field of a duty, and no duty at all
    (Duty("follow"), Duty("trump", only_if_winning=True), Duty("beat", partner=False)),
    (Duty("beat", when="trump-led"), Duty("follow"), Duty("trump", when="plain-led", partner=False)),
    (Duty("follow"),),
    (),
]


def _rulesets() -> list[tuple[str, Ruleset]]:
    out = [(name, load_ruleset(name)) for name in [*bundled_names(), *WIDOW_GAMES[1:]]]
    out.append(("single-deck-small/trump-lead", load_ruleset("single-deck-small", {"overtake": "trump-lead"})))
    sd = load_ruleset("single-deck")
    out += [(f"single-deck/duties-{i}", dataclasses.replace(sd, play=dataclasses.replace(sd.play, duties=d)))
            for i, d in enumerate(DUTY_LISTS)]
    return out


RULESETS = _rulesets()


def _deals(rules: Ruleset, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random deals of the whole pack (counts, canonical = any relabelling; a widow's cards left out, as if
    buried) and random first leaders."""
    rng = np.random.default_rng(seed)
    pack = np.repeat(np.arange(24), PlayTables.build(rules).full)
    p = rules.players
    cards = rng.permuted(np.broadcast_to(pack, (n, len(pack))), axis=1)[:, rules.widow_size:].reshape(n, p, -1)
    hands = np.zeros((n, p, 24), dtype=np.int64)
    for q in range(p):
        np.add.at(hands[:, q], (np.arange(n)[:, None], cards[:, q]), 1)
    return hands, rng.integers(0, p, n)


@pytest.mark.parametrize(("name", "rules"), RULESETS, ids=[n for n, _ in RULESETS])
@pytest.mark.parametrize("bidding_side", [0, 1])
def test_compiled_player_plays_the_numpy_players_deals(name: str, rules: Ruleset, bidding_side: int) -> None:
    tab = PlayTables.build(rules)
    hands, leader = _deals(rules, 300, seed=len(name) + bidding_side)
    expected = play_batch(tab, hands, leader, bidding_side=bidding_side)
    got = play_deals(FastTables.build(tab), hands, leader, bidding_side)
    assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])
    counters = PlayTables.build(rules).counter
    assert (got[0].sum(axis=1) == (hands * counters).sum(axis=(1, 2)) + rules.last_trick).all()


@pytest.mark.parametrize("name", ["single-deck", "single-deck-small", "double-deck", *WIDOW_GAMES])
def test_simulator_games_are_the_same_compiled(name: str) -> None:
    rules = load_ruleset(name)
    hand = rules.deck.check(parse_cards(HANDS[rules.hand_size]))
    sim = Simulator(rules, hand, estimable_trumps(rules, hand))
    numpy_games = sim.games(2, 200, seed=5)
    sim.load_compiled()
    compiled_games = sim.games(2, 200, seed=5)
    for field in dataclasses.fields(numpy_games):
        assert np.array_equal(getattr(numpy_games, field.name), getattr(compiled_games, field.name)), field.name


@pytest.mark.parametrize("workers", [1, 2])
def test_estimate_json_is_the_same_compiled(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    rules = load_ruleset("single-deck")
    hand = parse_cards(HANDS[12])
    out = {}
    for mode in ("0", "1"):
        monkeypatch.setenv("PINOCHLE_COMPILED", mode)
        out[mode] = estimate(rules, hand, samples=700, seed=21, workers=workers).to_json()
    assert json.dumps(out["0"]) == json.dumps(out["1"])


def test_cli_tables_are_the_same_compiled() -> None:
    args = ("estimate", "AH TH KH KH QH JH AS AD AC KS QD 9C", "-r", "single-deck-small", "--samples", "300",
            "--seed", "7", "--workers", "1")
    numpy_run = run_cli(*args, env={"PINOCHLE_COMPILED": "0"})
    compiled_run = run_cli(*args, env={"PINOCHLE_COMPILED": "1"})
    assert numpy_run[0] == 0 and numpy_run == compiled_run


# --------------------------------------------------------------------------- when to compile

USE_CASES = [
    # (PINOCHLE_COMPILED, deal-suits, cache on disk, compiled?)
    ("", compiled_cache.LOAD_PAYS - 1, True, False),  # the default estimate: numpy, not even numba imported
    ("", compiled_cache.LOAD_PAYS, True, True),
    ("", compiled_cache.LOAD_PAYS, False, False),  # a first run that would spend longer compiling than playing
    ("", compiled_cache.COMPILE_PAYS, False, True),
    ("0", compiled_cache.COMPILE_PAYS, True, False),
    ("1", 1, False, True),
]


@pytest.mark.parametrize(("env", "work", "on_disk", "expected"), USE_CASES)
def test_compiled_only_when_it_pays(monkeypatch: pytest.MonkeyPatch, env: str, work: int, on_disk: bool,
                                    expected: bool) -> None:
    monkeypatch.setenv("PINOCHLE_COMPILED", env)
    monkeypatch.setattr(compiled_cache, "cached", lambda: on_disk)
    assert compiled_cache.use_compiled(work) is expected


def test_a_simulator_pickles_as_what_builds_it() -> None:
    rules = load_ruleset("single-deck")
    hand = rules.deck.check(parse_cards(HANDS[12]))
    sim = Simulator(rules, hand, estimable_trumps(rules, hand))
    sim.load_compiled()
    copy = pickle.loads(pickle.dumps(sim))  # as a worker that is started, not forked, receives it
    assert copy.fast is None and copy.trumps == sim.trumps
    assert np.array_equal(copy.games(1, 100, seed=3).claim, sim.games(1, 100, seed=3).claim)


def test_a_job_of_several_chunks_tallies_as_its_chunks_one_by_one() -> None:
    rules = load_ruleset("single-deck")
    hand = rules.deck.check(parse_cards(HANDS[12]))
    sim = Simulator(rules, hand, estimable_trumps(rules, hand))
    sim.load_compiled()
    together = sim.tally([(3, 120), (4, 80)], seed=9)
    apart = Tally.empty(len(sim.trumps))
    apart.add(sim.tally([(3, 120)], seed=9))
    apart.add(sim.tally([(4, 80)], seed=9))
    assert together == apart and together.deals == 200


JOB_CASES = [
    # (deals, workers, compiled, deals per job)
    (2_000, 1, False, [500] * 4),  # numpy: a chunk a job
    (2_000, 2, True, [500] * 4),  # too few chunks to group: every worker gets 4 jobs or more
    (10_000, 1, True, [2_000] * 5),
    (10_000, 2, True, [1_000] * 10),
    (20_000, 2, True, [2_000] * 10),  # at most 4 chunks a job
    (5_100, 1, True, [1_000] * 5 + [100]),  # a last, partial chunk
]


@pytest.mark.parametrize(("deals", "workers", "compiled", "sizes"), JOB_CASES)
def test_jobs_group_chunks_only_for_the_compiled_player(deals: int, workers: int, compiled: bool,
                                                        sizes: list[int]) -> None:
    jobs = tally_jobs(5, 0, deals, compiled, workers)
    assert [sum(n for _, n in chunks) for chunks, _, _ in jobs] == sizes
    assert [i for chunks, _, _ in jobs for i, _ in chunks] == list(range(-(-deals // 500)))  # every chunk, in order
    assert all(seed == 5 and flag is compiled for _, seed, flag in jobs)
