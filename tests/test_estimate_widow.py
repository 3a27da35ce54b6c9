"""The estimate of a game with a widow: the widow sampled, the bury heuristic, the sides and the scores."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import numpy as np
import pytest
from clihelp import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_rulesets import _load_or_refuse, _yaml, odd_games

from pinochle_cli.cards import Hand, Suit, parse_cards
from pinochle_cli.errors import CardError, SimulationError
from pinochle_cli.estimate.checks import estimable_trumps
from pinochle_cli.estimate.games import Simulator
from pinochle_cli.estimate.simulate import estimate
from pinochle_cli.player.exchange import bury_hand, choose_bury
from pinochle_cli.player.play import play_relabelled
from pinochle_cli.player.tables import SIDE, BuryTables, PlayerTables, canonical_order
from pinochle_cli.ruleset import Ruleset, load_ruleset
from pinochle_cli.scoring import DealFacts, score_deal

THREE = "AH AH TH KH QH JH 9H AS KS QS JD AD KC QC 9C"
KITTY = "AH TH KH QH JH AS KS QS JD AD KC"
DOUBLE = "AH AH TH TH KH KH QH QH JH JH AS AS KS QS QS JD JD AD AD KC QC AC TC TS TD"
GAMES = {"three-handed": THREE, "examples/rulesets/four-handed-kitty.yaml": KITTY,
         "examples/rulesets/three-handed-double.yaml": DOUBLE}


def _hand(rules: Ruleset, text: str) -> Hand:
    return rules.deck.check(parse_cards(text))


def _with_bury(rules: Ruleset, **changes: object) -> Ruleset:
    assert rules.bury is not None
    return dataclasses.replace(rules, bury=dataclasses.replace(rules.bury, **changes))  # type: ignore[arg-type]


def _cards(text: str) -> list[str]:
    return sorted(c.ascii() for c in parse_cards(text))


def _in_meld(rules: Ruleset, cards: np.ndarray, trump: int) -> np.ndarray:
    """For each card of ``cards``: is it in a meld combination the cards hold complete?"""
    held = Counter(int(c) for c in cards)
    marked: set[int] = set()
    for combo in rules.meld:
        for instance in combo.instances(Suit(trump), rules.suits):
            need = Counter(c.index for c in instance)
            if all(held[c] >= n for c, n in need.items()):
                marked |= set(need)
    return np.array([int(c) in marked for c in cards])


# --------------------------------------------------------------------------- the bury, by hand

# (game, bury changes, the hand with the widow, trump, what is buried)
BURIES = [
    # the melded cards (hearts run, dix, pinochle, two marriages) stay; of the rest the ten of spades goes
    # first (its 10 counters banked for the bidder), then the short suits' low cards
    ("three-handed", {}, THREE + " TS 9D JC", Suit.H, "TS 9D 9C"),
    # the buried counters go to the last trick's winner: the ten is kept, the low cards go
    ("three-handed", {"counters": "last-trick"}, THREE + " TS 9D JC", Suit.H, "9D JC 9C"),
    # nothing forbidden: melded cards may go (the meld is shown already) — the king of the marriage and a jack
    # of the pinochle, with the ten of clubs
    ("three-handed", {"forbidden": ()}, "AH TH KH QH JH 9H 9H AS AS AD AD AC AC KS QS JD JD TC", Suit.H,
     "KS JD TC"),
    # buried before the meld: the meld cards are kept (a pinochle buried is meld lost)
    ("three-handed", {"when": "before-meld", "forbidden": ()}, THREE + " TS 9D JC", Suit.H, "TS 9D 9C"),
    # a kitty game forbidding melded cards and trump: exactly four others are left, all buried
    ("examples/rulesets/four-handed-kitty.yaml", {}, "AH TH KH QH JH 9H AS KS QS JD AD KC QC 9C TS", Suit.H,
     "AS TS AD 9C"),
    # only one card may be buried: the forbidden cards of least worth go with it (a meld card before a trump)
    ("examples/rulesets/four-handed-kitty.yaml", {}, "AH AH TH TH KH KH QH QH JH JH 9H 9H QS JD AS", Suit.H,
     "AS QS JD KH"),
    # counters forbidden too
    ("three-handed", {"forbidden": ("melded", "counter")}, THREE + " TS 9D JC", Suit.H, "9D JC 9C"),
]


@pytest.mark.parametrize(("name", "changes", "cards", "trump", "buried"), BURIES)
def test_the_bury_of_a_hand(name: str, changes: dict[str, object], cards: str, trump: Suit, buried: str) -> None:
    rules = _with_bury(load_ruleset(name), **changes)
    hand = Hand(parse_cards(cards))
    out, kept = bury_hand(rules, hand, trump)
    assert sorted(out.ascii()) == _cards(buried)
    assert len(kept) == rules.hand_size and Counter(kept.ascii()) + Counter(out.ascii()) == Counter(hand.ascii())


def test_the_bury_never_buries_a_melded_card_while_another_may_go() -> None:
    rules = load_ruleset("three-handed")
    tab = BuryTables.build(rules)
    rng = np.random.default_rng(3)
    pack = np.repeat(np.arange(24), 2)
    cards = rng.permuted(np.broadcast_to(pack, (2000, 48)), axis=1)[:, :18]
    trump = rng.integers(0, 4, 2000)
    buried, kept = choose_bury(tab, cards, trump)
    assert buried.shape == (2000, 3) and kept.shape == (2000, 15)
    in_meld = np.array([_in_meld(rules, row, int(t)) for row, t in zip(cards, trump, strict=True)])
    free = (~in_meld).sum(axis=1)
    # a buried card's kind is not among the cards shown in meld, whenever three others were free
    shown = [{int(c) for c, m in zip(row, mark, strict=True) if m} for row, mark in zip(cards, in_meld, strict=True)]
    for row in np.nonzero(free >= 3)[0]:
        assert not set(buried[row].tolist()) & shown[row]
    assert (free >= 3).mean() > 0.9


# --------------------------------------------------------------------------- the widow sampled

@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_widow_is_dealt_from_the_unseen_cards(name: str) -> None:
    rules = load_ruleset(name)
    hand = _hand(rules, GAMES[name])
    sim = Simulator(rules, hand, estimable_trumps(rules, hand))
    others, leader, widow = sim.deal_chunk(0, 300, seed=4)
    assert widow.shape == (300, rules.widow_size) and others.shape == (300, rules.players - 1, rules.hand_size)
    deck = Counter(c.index for c in rules.deck.cards())
    mine = Counter(c.index for c in hand)
    for d in range(300):
        dealt = Counter(others[d].ravel().tolist()) + Counter(widow[d].tolist())
        assert dealt + mine == deck
        # the widow holds no more copies of a card than the bidder leaves unseen
        assert all(deck[c] - mine[c] >= n for c, n in Counter(widow[d].tolist()).items())
    assert (leader == 0).all()
    # every unseen card reaches the widow sometimes
    assert set(np.unique(widow)) == {c for c in deck if deck[c] > mine[c]}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_bidder_plays_the_hand_and_widow_less_the_buried_cards(name: str) -> None:
    rules = load_ruleset(name)
    hand = _hand(rules, GAMES[name])
    sim = Simulator(rules, hand, estimable_trumps(rules, hand))
    g = sim.games(1, 200, seed=6)
    assert g.widow is not None and g.buried is not None
    for row in range(len(g.claim)):
        taken = Counter(c.index for c in hand) + Counter(g.widow[row].tolist())
        played = Counter({c: int(n) for c, n in enumerate(g.hands[row, 0]) if n})
        assert played + Counter(g.buried[row].tolist()) == taken
        assert g.hands[row].sum() == rules.players * rules.hand_size
    # every counter is someone's, the buried ones the bidder's
    assert (g.points.sum(axis=1) == rules.counter_total).all()


def test_buried_counters_go_to_the_last_trick_when_the_ruleset_says_so() -> None:
    rules = _with_bury(load_ruleset("three-handed"), counters="last-trick")
    hand = _hand(rules, THREE)
    g = Simulator(rules, hand, [Suit.H]).games(0, 300, seed=2)
    assert (g.points.sum(axis=1) == rules.counter_total).all()
    # the play with a bonus for the last trick: the same cards, the bonus to one side
    pt = PlayerTables.build(rules)
    orders = np.array([canonical_order(t) for t in range(4)])
    trump = np.full(300, int(Suit.H))
    bonus = np.arange(300) % 4 * 10
    plain = play_relabelled(pt, g.hands, orders, trump, g.leader)
    got = play_relabelled(pt, g.hands, orders, trump, g.leader, 0, bonus)
    assert np.array_equal(plain[1], got[1])
    diff = got[0] - plain[0]
    assert (diff.sum(axis=1) == bonus).all() and ((diff == 0) | (diff == bonus[:, None])).all()


def test_the_sides_are_the_bidder_alone_against_the_others() -> None:
    rules = load_ruleset("three-handed")
    sim = Simulator(rules, _hand(rules, THREE), [Suit.H])
    assert sim.side == 0 and sim.side_seats == (0,) and sim.partner is None
    assert list(sim.play.table[SIDE, :3]) == [0, 1, 1] and sim.play.nsides == 2
    kitty = load_ruleset("examples/rulesets/four-handed-kitty.yaml")
    ksim = Simulator(kitty, _hand(kitty, KITTY), [Suit.H])
    assert ksim.side_seats == (0, 2) and list(ksim.play.table[SIDE, :4]) == [0, 1, 0, 1]


def test_only_the_bidder_melds_with_meld_bidder() -> None:
    hand = Hand(parse_cards(THREE))
    every = Simulator(load_ruleset("three-handed"), hand, [Suit.H]).games(0, 100, seed=1)
    alone = Simulator(load_ruleset("three-handed", {"meld": "bidder"}), hand, [Suit.H]).games(0, 100, seed=1)
    # the bidding side is the bidder alone either way: same meld
    assert np.array_equal(every.meld, alone.meld)
    kitty = load_ruleset("examples/rulesets/four-handed-kitty.yaml")
    both = Simulator(kitty, _hand(kitty, KITTY), [Suit.H]).games(0, 100, seed=1)
    bidder = Simulator(dataclasses.replace(kitty, melders="bidder"), _hand(kitty, KITTY), [Suit.H]).games(0, 100, 1)
    assert (bidder.meld <= both.meld).all() and (bidder.meld < both.meld).any()


# --------------------------------------------------------------------------- the scores

@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2 ** 32), game=st.sampled_from(sorted(GAMES)))
def test_a_simulated_claim_is_the_highest_bid_the_scoring_rules_call_made(seed: int, game: str) -> None:
    rules = load_ruleset(game)
    hand = _hand(rules, GAMES[game])
    sim = Simulator(rules, hand, estimable_trumps(rules, hand))
    g = sim.games(0, 12, seed=seed)
    assert rules.auction is not None
    for row in range(len(g.claim)):
        side = sim.side
        facts = {"meld": (int(g.meld[row]), 0) if side == 0 else (0, int(g.meld[row])),
                 "counters": tuple(int(x) for x in g.points[row]), "bidder_side": side,
                 "took_trick": tuple(bool(x) for x in g.tricks[row] > 0),
                 "meld_only": tuple(bool(g.meld_kept_anyway[row]) if s == side else False for s in range(2))}
        claim = int(g.claim[row])
        for bid in (rules.auction.minimum, claim, claim + 1, claim + 10):
            if bid < rules.auction.minimum:
                continue
            result = score_deal(rules, DealFacts(bid=bid, **facts)).result  # type: ignore[arg-type]
            assert (result == "made") == (bid <= claim), (row, bid, claim, result)


# --------------------------------------------------------------------------- the estimate

def test_the_suit_chosen_after_the_widow_is_at_least_as_good_as_a_fixed_weak_suit() -> None:
    rules = load_ruleset("three-handed")
    result = estimate(rules, parse_cards(THREE), samples=500, seed=3, workers=1)
    assert result.after_widow is not None and result.widow == 3
    weakest = min(result.suits, key=lambda s: s.score_mean)
    assert result.after_widow.score_mean > weakest.score_mean
    doc = result.to_json()
    assert doc["after_widow"]["bids"][0]["bid"] == 250
    # one suit asked for: nothing to choose
    one = estimate(rules, parse_cards(THREE), trump=Suit.H, samples=200, seed=3, workers=1)
    assert one.after_widow is None and one.to_json()["after_widow"] is None
    # no widow: no member
    assert "after_widow" not in estimate(load_ruleset("single-deck"), parse_cards("AH TH KH QH JH AS KS QS KD QD KC QC"),
                                         samples=100, seed=1, workers=1).to_json()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_widow_estimate_is_the_same_on_two_workers(name: str) -> None:
    rules = load_ruleset(name)
    out = []
    for workers in (1, 2):
        out.append(json.dumps(estimate(rules, parse_cards(GAMES[name]), samples=1100, seed=8,
                                       workers=workers).to_json()))
    assert len(set(out)) == 1


def test_a_widow_estimate_refuses_the_hand_with_the_widow() -> None:
    rules = load_ruleset("three-handed")
    with pytest.raises(CardError, match="exactly 15, the bidder's hand before the widow"):
        estimate(rules, parse_cards(THREE + " TS 9D JC"), samples=10)
    from pinochle_cli.estimate.double_dummy import check_exact_from

    # perfect play of a widow game: from trick 4 on (12 tricks), as in any game of 15 tricks
    with pytest.raises(SimulationError, match="all 15 tricks of a three-handed deal is out of reach"):
        check_exact_from(rules, 1)
    check_exact_from(rules, 4)


# --------------------------------------------------------------------------- the command

def test_the_command_estimates_every_widow_game() -> None:
    for name, hand in GAMES.items():
        code, out, err = run_cli("estimate", hand, "-r", name, "--samples", "200", "--seed", "2", "--ladder")
        assert code == 0 and err == "", (name, err)
        assert "Best suit chosen after seeing the widow" in out and "Trump chosen after seeing the widow" in out
        assert "meld in hand: before the widow" in out


@pytest.mark.parametrize(("args", "message"), [
    ((THREE + " TS 9D JC",), "Error: the hand has 18 cards"),
    ((THREE, "--play", "double-dummy"), "Error: --play double-dummy: perfect play over all 15 tricks of a "
                                        "three-handed deal is out of reach"),
    ((THREE, "--play", "double-dummy", "--exact-from", "3"), "Error: --exact-from 3: perfect play over the last 13 "
                                                              "tricks of a three-handed deal is out of reach"),
    (("AH AH TH KH QH",), "Error: the hand has 5 cards"),
])
def test_the_command_refuses(args: tuple[str, ...], message: str) -> None:
    code, out, err = run_cli("estimate", *args, "-r", "three-handed", "--samples", "50")
    assert code == 2 and out == "" and err.startswith(message) and "Traceback" not in err


def test_the_json_names_the_suit_chosen_after_the_widow() -> None:
    code, out, _ = run_cli("estimate", THREE, "-r", "three-handed", "--samples", "200", "--seed", "2", "--json")
    doc = json.loads(out)
    assert code == 0 and set(doc["after_widow"]) == {"meld_mean", "counters_mean", "score_mean", "bids",
                                                     "recommended_bid"}
    assert [s["trump"] for s in doc["suits"]] == ["S", "H", "D", "C"]



# --------------------------------------------------------------------------- any widow game the format accepts

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(doc=odd_games().filter(lambda d: "widow" in d and d.get("auction") is not None), seed=st.integers(0, 999))
def test_any_widow_game_is_played_whole_and_alike_from_its_seed(doc: dict[str, object], seed: int) -> None:
    rules = _load_or_refuse(_yaml(doc))
    if rules is None:
        return
    rng = np.random.default_rng(seed)
    cards = rng.permutation([c.index for c in rules.deck.cards()])[:rules.hand_size]
    hand = Hand.from_counts(np.bincount(cards, minlength=24).tolist())
    try:
        trumps = estimable_trumps(rules, hand)
    except SimulationError:
        return  # said why: nothing to estimate
    if not trumps:
        return
    sim = Simulator(rules, hand, trumps)
    games = sim.games(0, 40, seed=seed)
    again = Simulator(rules, hand, trumps).games(0, 40, seed=seed)
    for field in dataclasses.fields(games):
        assert np.array_equal(getattr(games, field.name), getattr(again, field.name)), field.name
    assert (games.points.sum(axis=1) == rules.counter_total).all()
    assert (games.hands.sum(axis=(1, 2)) == rules.players * rules.hand_size).all()


def test_deal_gives_the_other_hands_in_a_widow_game_too() -> None:
    rules = load_ruleset("three-handed")
    sim = Simulator(rules, _hand(rules, THREE), [Suit.H])
    others = sim.deal(np.random.default_rng(5), 10)
    assert np.array_equal(others, sim.deal_widow(np.random.default_rng(5), 10)[0]) and others.shape == (10, 2, 15)
