"""The advised pass policy (passing/policy.py) and ``estimate --pass advised``: clear hands, the exchange it makes,
serial == parallel, the refusals, the JSON echo."""

from __future__ import annotations

import json

import numpy as np
import pytest
from clihelp import run_cli, run_cli_json

from pinochle_cli.cards import N_CARDS, Card, Rank, Suit, parse_cards
from pinochle_cli.errors import SimulationError
from pinochle_cli.estimate.checks import CHUNK
from pinochle_cli.estimate.games import Simulator
from pinochle_cli.estimate.simulate import estimate
from pinochle_cli.meld import meld_table
from pinochle_cli.passing.policy import AdvisedPolicy
from pinochle_cli.ruleset import load_ruleset

SINGLE = load_ruleset("single-deck")
POLICY = AdvisedPolicy(SINGLE)
BIDDER = "AH 10H KH QH JH AS AD AC KS QS JD 9H"


def _cards(text: str) -> np.ndarray:
    hand = SINGLE.deck.check(parse_cards(text))
    return np.repeat(np.arange(N_CARDS), np.array(hand.counts))[None, :]


def _sent(text: str, trump: Suit, *, bidder: bool = False) -> list[Card]:
    choose = POLICY.return_ if bidder else POLICY.pass_
    out, kept = choose(_cards(text), np.array([int(trump)]), SINGLE.exchange)
    assert sorted(np.concatenate([out[0], kept[0]]).tolist()) == _cards(text)[0].tolist()
    return sorted(Card.from_index(int(c)) for c in out[0])


def test_partner_keeps_a_double_pinochle() -> None:
    hand = "QS QS JD JD AH 10H KH 9S 9D 9C 10C JC"
    sent = _sent(hand, Suit.H)
    assert not {Card(Rank.Q, Suit.S), Card(Rank.J, Suit.D)} & set(sent)
    # and sends its trumps
    assert {Card(Rank.A, Suit.H), Card(Rank.T, Suit.H), Card(Rank.K, Suit.H)} <= set(sent)


def test_partner_keeps_aces_around() -> None:
    sent = _sent("AS QS 9S AH 10H KH 9H AD JD 9D AC 9C", Suit.H)
    assert all(c.rank != Rank.A for c in sent)
    assert {Card(Rank.T, Suit.H), Card(Rank.K, Suit.H)} <= set(sent)


def test_partner_without_meld_sends_trumps_and_aces() -> None:
    sent = _sent("AS 9S AH 10H 9H JD 9D KD 10C JC 9C QC", Suit.H)
    assert sent == sorted([Card(Rank.A, Suit.H), Card(Rank.T, Suit.H), Card(Rank.N, Suit.H), Card(Rank.A, Suit.S)])


def test_bidder_with_a_double_run_returns_junk() -> None:
    sent = _sent("AH 10H KH QH JH AH 10H KH QH JH AS AC 9S JS 9D 9C", Suit.H, bidder=True)
    assert sent == sorted(parse_cards("9S JS 9D 9C"))


def test_choice_does_not_depend_on_the_cards_order() -> None:
    rng = np.random.default_rng(3)
    deck = np.repeat(np.arange(N_CARDS), 2)
    cards = np.array([rng.permutation(deck)[:16] for _ in range(40)])
    trump = rng.integers(0, 4, 40)
    a_out, _ = POLICY.return_(cards, trump, 4)
    b_out, _ = POLICY.return_(rng.permuted(cards, axis=1), trump, 4)
    assert np.array_equal(np.sort(a_out, axis=1), np.sort(b_out, axis=1))
    # each row alone chooses as in the batch
    one, _ = POLICY.return_(cards[7:8], trump[7:8], 4)
    assert np.array_equal(np.sort(one, axis=1), np.sort(a_out[7:8], axis=1))


def test_advised_pass_is_the_best_by_its_evaluation() -> None:
    """Against a brute force over every pass of one hand: the chosen one scores highest."""
    import itertools

    text, trump = "QS QS JD KH QH 9H AD 10D KD 9C AC 10C", Suit.D
    cards = _cards(text)[0]
    table = meld_table(SINGLE)

    def score(sent: tuple[int, ...]) -> float:
        kept = list(cards)
        for c in sent:
            kept.remove(c)
        held = np.bincount(kept, minlength=N_CARDS)[None, :]
        given = np.bincount(list(sent), minlength=N_CARDS)[None, :]
        meld = int(table.total_batch(held, trump)[0] + table.total_batch(given, trump)[0])
        return 100 * meld + float(POLICY.sent_value[int(trump)][list(sent)].sum())

    best = max(score(s) for s in itertools.combinations(cards.tolist(), 4))
    chosen = tuple(int(c) for c in POLICY.pass_(cards[None, :], np.array([int(trump)]), 4)[0][0])
    assert score(chosen) == pytest.approx(best)


def test_simulator_exchange_keeps_every_card() -> None:
    hand = SINGLE.deck.check(parse_cards(BIDDER))
    sim = Simulator(SINGLE, hand, [Suit.H], "advised")
    g = sim.games(0, 50, seed=5)
    assert (g.hands.sum(axis=1) == 2).all()
    assert (g.hands[:, 0].sum(axis=1) == SINGLE.hand_size).all()
    heuristic = Simulator(SINGLE, hand, [Suit.H]).games(0, 50, seed=5)
    # the same deals, another exchange: the opponents' hands are the same, the side's are not
    p = sim.partner
    assert p is not None
    side = g.hands[:, 0] + g.hands[:, p]
    assert np.array_equal(side, heuristic.hands[:, 0] + heuristic.hands[:, p])
    assert not np.array_equal(g.hands, heuristic.hands)


def test_advised_estimate_same_at_one_or_two_workers() -> None:
    hand = parse_cards(BIDDER)
    one = estimate(SINGLE, hand, trump=Suit.H, samples=CHUNK + 100, seed=9, workers=1, pass_policy="advised")
    two = estimate(SINGLE, hand, trump=Suit.H, samples=CHUNK + 100, seed=9, workers=2, pass_policy="advised")
    assert json.dumps(one.to_json()) == json.dumps(two.to_json())
    heuristic = estimate(SINGLE, hand, trump=Suit.H, samples=CHUNK + 100, seed=9, workers=1)
    assert one.to_json()["suits"] != heuristic.to_json()["suits"]


def test_library_refusals() -> None:
    hand = parse_cards(BIDDER)
    with pytest.raises(SimulationError, match="pass_policy 'best': one of heuristic, advised") as e:
        estimate(SINGLE, hand, samples=10, pass_policy="best")
    assert e.value.parameter == "pass_policy"
    no_pass = load_ruleset("single-deck", {"exchange": "0"})
    with pytest.raises(SimulationError, match="has no pass"):
        Simulator(no_pass, SINGLE.deck.check(hand), [Suit.H], "advised")


def test_cli_json_echoes_the_advised_pass_only() -> None:
    args = (BIDDER, "-t", "H", "--samples", "200", "--seed", "4", "--workers", "1")
    advised = run_cli_json("estimate", *args, "--pass", "advised")
    assert advised["pass"] == "advised"
    assert "pass" not in run_cli_json("estimate", *args)
    assert run_cli_json("estimate", *args, "--pass", "heuristic") == run_cli_json("estimate", *args)
    code, out, _ = run_cli("estimate", *args, "--pass", "advised")
    assert code == 0 and "200 sampled deals, seed 4, advised pass" in out


@pytest.mark.parametrize(("args", "message"), [
    (("-r", "double-deck"), "--pass advised: the double-deck game has no pass"),
    (("-o", "exchange=0"), "--pass advised: the single-deck game with exchange=0 has no pass"),
])
def test_cli_refuses_advised_pass_without_a_pass(args: tuple[str, ...], message: str) -> None:
    hand = ("AH 10H KH QH JH AS AD AC KS QS JD JH AH AS 10S 10D 10C KC QC JC" if "double-deck" in args
            else BIDDER)
    code, out, err = run_cli("estimate", hand, *args, "--samples", "100", "--pass", "advised")
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and message in err, err


def test_cli_refuses_an_unknown_pass() -> None:
    code, _, err = run_cli("estimate", BIDDER, "--pass", "best")
    assert code == 2 and "--pass" in err and "best" in err
