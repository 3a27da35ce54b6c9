"""The Monte Carlo estimate: sampling, the exchange, legality, tallies, the curve, reproducibility."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import numpy as np
import pytest

from pinochle_cli.cards import ALL_CARDS, Card, Hand, Suit, parse_cards
from pinochle_cli.errors import CardError, SimulationError
from pinochle_cli.estimate.checks import CHUNK, chunk_rng
from pinochle_cli.estimate.games import Simulator
from pinochle_cli.estimate.simulate import estimate
from pinochle_cli.meld import meld
from pinochle_cli.player.exchange import choose_pass, choose_return
from pinochle_cli.player.tables import ExchangeTables
from pinochle_cli.ruleset import Ruleset, bundled_path, load_ruleset, load_ruleset_text

FOUR = ["single-deck", "single-deck-small", "double-deck"]
HANDS = {
    "single-deck": "AH TH KH KH QH JH AS AD AC KS QD 9C",
    "single-deck-small": "AH TH KH KH QH JH AS AD AC KS QD 9C",
    "double-deck": "AH AH TH KH KH QH QH JH JH AS AS AD KD QD AC TC KC QC JS JS",
}
DOUBLE_RUN = "AH AH TH TH KH KH QH QH JH JH 9S 9C"
JUNK = "9S 9S JS JS 9H 9H JH 9D 9D 9C 9C JC"


def rules_of(name: str, **options: str) -> Ruleset:
    return load_ruleset(name, options)


def hand_of(name: str) -> Hand:
    return Hand(parse_cards(HANDS[name]))


def variant(name: str, old: str, new: str) -> Ruleset:
    """A bundled ruleset's YAML with one text replacement (a user's house rules)."""
    path = bundled_path(name)
    assert path is not None
    text = path.read_text()
    assert old in text
    return load_ruleset_text(text.replace(old, new), f"<{name} variant>")


# --------------------------------------------------------------------------- seeding and sampling

@pytest.mark.parametrize("index", [0, 1, 7])
def test_chunk_generator_is_the_spawned_child(index: int) -> None:
    child = np.random.SeedSequence(1234).spawn(index + 1)[index]
    expected = np.random.default_rng(child).integers(0, 1 << 30, 5)
    assert (chunk_rng(1234, index).integers(0, 1 << 30, 5) == expected).all()


def test_deal_gives_each_other_seat_a_full_hand_of_the_unseen_cards() -> None:
    rules = rules_of("single-deck")
    hand = hand_of("single-deck")
    sim = Simulator(rules, hand, [Suit.H])
    deals = sim.deal(np.random.default_rng(1), 50)
    assert deals.shape == (50, 3, 12)
    unseen = Counter(c for c in rules.deck.cards() for _ in [0]) - Counter(hand)
    for d in deals:
        assert Counter(ALL_CARDS[i] for i in d.ravel()) == unseen


# chi-square critical value for 2 degrees of freedom at p = 0.001 (tables: 13.816)
CHI2_DF2_P001 = 13.816


@pytest.mark.parametrize("card", ["AS", "9H", "KD", "TC"])
def test_sampler_deals_uniformly(card: str) -> None:
    """Where the unseen copies of a card land: each of the three other seats equally often."""
    rules = rules_of("single-deck")
    hand = hand_of("single-deck")
    sim = Simulator(rules, hand, [Suit.H])
    n = 3000
    idx = Card.parse(card).index
    deals = sim.deal(np.random.default_rng(2024), n)
    per_seat = (deals == idx).sum(axis=(0, 2))
    copies = rules.deck.copies - hand.count(Card.parse(card))
    expected = n * copies / 3
    chi2 = float(((per_seat - expected) ** 2 / expected).sum())
    assert chi2 < CHI2_DF2_P001, (card, per_seat.tolist())


def test_chi_square_check_catches_a_biased_sampler() -> None:
    """The statistic above is not toothless: seat 1 getting a card 40 % of the time fails it."""
    expected = 2000  # 3000 deals × 2 copies / 3 seats
    per_seat = np.array([0.40, 0.30, 0.30]) * 3 * expected
    chi2 = float(((per_seat - expected) ** 2 / expected).sum())
    assert chi2 > CHI2_DF2_P001


# --------------------------------------------------------------------------- the exchange

def test_partner_sends_trump_then_aces_then_pinochle_cards() -> None:
    rules = rules_of("single-deck")
    ex = ExchangeTables.build(rules)
    partner = parse_cards("9H JH AS AD QS JD KC QC TC 9C 9S 9D")
    cards = np.array([[c.index for c in partner]])
    sent, kept = choose_pass(ex, cards, np.array([int(Suit.H)]), 4)
    assert sorted(ALL_CARDS[i].ascii() for i in sent[0]) == ["9H", "AD", "AS", "JH"]
    assert sorted(np.concatenate([sent[0], kept[0]]).tolist()) == sorted(cards[0].tolist())
    sent, _ = choose_pass(ex, cards, np.array([int(Suit.C)]), 4)  # four clubs are trump now
    assert sorted(ALL_CARDS[i].ascii() for i in sent[0]) == ["9C", "KC", "QC", "TC"]


def test_bidder_returns_plain_cards_and_keeps_trump_and_meld() -> None:
    rules = rules_of("single-deck")
    ex = ExchangeTables.build(rules)
    bidder = parse_cards("AH TH KH QH JH 9H AS KS QS JD 9C JC 9D 9S KD QD")  # 12 + 4 received
    cards = np.array([[c.index for c in bidder]])
    back, keep = choose_return(ex, cards, np.array([int(Suit.H)]), 4)
    returned = {ALL_CARDS[i].ascii() for i in back[0]}
    assert returned == {"9C", "JC", "9D", "9S"}
    assert len(keep[0]) == 12


# --------------------------------------------------------------------------- one chunk of games

@pytest.mark.parametrize("name", FOUR)
def test_every_deal_accounts_for_every_counter(name: str) -> None:
    rules = rules_of(name)
    hand = hand_of(name)
    sim = Simulator(rules, hand, rules.eligible_trumps(hand))
    g = sim.games(0, 200, seed=5)
    assert (g.points.sum(axis=1) == rules.counter_total).all()
    assert (g.tricks.sum(axis=1) == rules.tricks_per_deal).all()
    assert (g.hands.sum(axis=2) == rules.hand_size).all()
    assert (g.hands.sum(axis=1) == np.array(rules.deck.full().counts)).all()


@pytest.mark.parametrize("name", FOUR)
def test_meld_is_the_exact_meld_of_the_bidding_side(name: str) -> None:
    rules = rules_of(name)
    hand = hand_of(name)
    sim = Simulator(rules, hand, rules.eligible_trumps(hand))
    g = sim.games(3, 20, seed=5)
    for i in range(0, len(g.meld), 7):
        trump = Suit(int(g.trump[i]))
        expected = sum(meld(rules, Hand.from_counts(g.hands[i, s].tolist()), trump).total
                       for s in rules.partnerships[rules.side_of(0)])
        assert g.meld[i] == expected


def test_claim_follows_keep_meld_trick() -> None:
    rules = rules_of("single-deck")  # meld kept with a trick; made needs nothing more
    hand = hand_of("single-deck")
    g = Simulator(rules, hand, rules.suits).games(0, 300, seed=8)
    won, took = g.points[:, 0], g.tricks[:, 0] > 0
    assert (g.claim == np.where(took, g.meld, 0) + won).all()


@pytest.mark.parametrize("minimum", [1, 4])
def test_claim_follows_made_needs_counter(minimum: int) -> None:
    # counter points needed to make the bid and keep meld (the default one, and a house rule's more)
    rules = variant("single-deck-small", "made_needs: counter", f"made_needs: counter\n  counter_minimum: {minimum}")
    hand = Hand(parse_cards(JUNK))
    g = Simulator(rules, hand, rules.suits).games(0, 300, seed=8)
    won = g.points[:, 0]
    assert (g.claim == np.where(won >= minimum, g.meld + won, -1)).all()
    if minimum > 1:
        assert (g.claim == -1).any()  # the junk hand's side sometimes takes too little


def test_meld_only_of_dix_is_kept_when_the_make_condition_does_not_need_a_counter() -> None:
    rules = variant("single-deck-small", "made_needs: counter", "made_needs: nothing")
    hand = Hand(parse_cards(JUNK))
    g = Simulator(rules, hand, rules.suits).games(0, 200, seed=4)
    for i in range(len(g.meld)):
        trump = Suit(int(g.trump[i]))
        results = [meld(rules, Hand.from_counts(g.hands[i, s].tolist()), trump) for s in (0, 2)]
        only_dix = all(r.total == 0 or r.only(("dix",)) for r in results)
        assert bool(g.meld_kept_anyway[i]) == only_dix
    won = g.points[:, 0]
    assert (g.claim == np.where((won > 0) | g.meld_kept_anyway, g.meld, 0) + won).all()


def test_not_on_board_needs_no_play_a_bid_above_meld_and_every_counter_is_never_made() -> None:
    rules = rules_of("single-deck")
    hand = hand_of("single-deck")
    g = Simulator(rules, hand, rules.suits).games(0, 300, seed=9)
    assert (g.claim <= g.meld + rules.counter_total).all()


def test_dealer_left_leader_is_supported() -> None:
    rules = variant("single-deck", "leader: bidder", "leader: dealer-left")
    hand = hand_of("single-deck")
    g = Simulator(rules, hand, [Suit.H]).games(0, 100, seed=2)
    assert (g.points.sum(axis=1) == rules.counter_total).all()


# --------------------------------------------------------------------------- the estimate

@pytest.mark.parametrize("name", FOUR)
def test_curve_never_rises_and_intervals_hold_the_estimate(name: str) -> None:
    rules = rules_of(name)
    result = estimate(rules, hand_of(name), samples=300, seed=11, workers=1)
    assert rules.auction is not None
    for s in result.suits:
        bids = [c.bid for c in s.bids]
        assert bids[0] == rules.auction.minimum
        assert all(b == rules.auction.next_bid(a) for a, b in itertools.pairwise(bids))
        ps = [c.p_make for c in s.bids]
        assert all(a >= b for a, b in itertools.pairwise(ps))
        assert ps[-1] < 0.01 and all(p >= 0.01 for p in ps[:-1])
        assert all(c.ci95[0] <= c.p_make <= c.ci95[1] for c in s.bids)
        ok = [c.bid for c in s.bids if c.p_make >= 0.75]
        assert s.recommended_bid == (max(ok) if ok else None)


def test_double_run_is_near_certain_at_the_minimum_bid() -> None:
    rules = rules_of("single-deck")
    result = estimate(rules, parse_cards(DOUBLE_RUN), trump=Suit.H, samples=300, seed=3, workers=1)
    (hearts,) = result.suits
    assert hearts.bids[0].p_make >= 0.99
    assert hearts.meld_mean >= 1500


def test_junk_hand_is_not_a_bid() -> None:
    rules = rules_of("single-deck")
    result = estimate(rules, parse_cards(JUNK), samples=300, seed=3, workers=1)
    assert all(s.bids[0].p_make < 0.5 for s in result.suits)
    assert all(s.recommended_bid is None for s in result.suits)


def test_best_suit_is_the_one_with_the_highest_recommended_bid() -> None:
    rules = rules_of("single-deck")
    result = estimate(rules, hand_of("single-deck"), samples=300, seed=3, workers=1)
    assert result.best == Suit.H
    rec = {s.trump: s.recommended_bid or 0 for s in result.suits}
    assert rec[Suit.H] == max(rec.values())


def test_same_seed_same_answer_with_one_or_two_workers() -> None:
    rules = rules_of("single-deck-small")
    hand = hand_of("single-deck-small")
    one = estimate(rules, hand, samples=CHUNK + 200, seed=77, workers=1).to_json()
    two = estimate(rules, hand, samples=CHUNK + 200, seed=77, workers=2).to_json()
    assert json.dumps(one) == json.dumps(two)
    other = estimate(rules, hand, samples=CHUNK + 200, seed=78, workers=1).to_json()
    assert json.dumps(one) != json.dumps(other)


def test_intervals_shrink_as_samples_grow() -> None:
    rules = rules_of("single-deck")
    hand = hand_of("single-deck")
    small = estimate(rules, hand, trump=Suit.S, samples=200, seed=5, workers=1).suits[0]
    large = estimate(rules, hand, trump=Suit.S, samples=1600, seed=5, workers=1).suits[0]
    widths_small = {c.bid: c.ci95[1] - c.ci95[0] for c in small.bids if 0.2 < c.p_make < 0.8}
    widths_large = {c.bid: c.ci95[1] - c.ci95[0] for c in large.bids}
    assert widths_small
    for bid, w in widths_small.items():
        assert widths_large[bid] < w / 1.8


def test_precision_samples_until_every_interval_is_narrow_enough() -> None:
    rules = rules_of("single-deck")
    result = estimate(rules, hand_of("single-deck"), trump=Suit.H, samples=100, seed=5, workers=1, precision=0.05)
    assert result.samples > 100
    assert result.precision_reached is True
    assert all((c.ci95[1] - c.ci95[0]) / 2 <= 0.05 for s in result.suits for c in s.bids)


@pytest.mark.parametrize("precision", [1e-16, 1e-100, 1e-300, 0.0, float("nan"), 0.5])
def test_a_precision_no_run_can_reach_is_refused(precision: float) -> None:
    with pytest.raises(SimulationError, match=f"precision {precision}: a half-width from 1e-05 up to 0.5 is needed"):
        estimate(rules_of("single-deck"), hand_of("single-deck"), samples=100, seed=5, workers=1,
                 precision=precision)


def test_the_finest_precision_samples_up_to_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from pinochle_cli.estimate import simulate
    from pinochle_cli.estimate.interval import wilson_half_width

    # the finest precision is one the largest run can reach (at P(make) 0 or 1)
    assert wilson_half_width(0, simulate.MAX_SAMPLES) <= simulate.MIN_PRECISION
    monkeypatch.setattr(simulate, "MAX_SAMPLES", 1000)
    result = estimate(rules_of("single-deck"), hand_of("single-deck"), trump=Suit.H, samples=100, seed=5,
                      workers=1, precision=simulate.MIN_PRECISION)
    assert (result.samples, result.precision_reached) == (1000, False)


def test_means_are_the_bidding_sides() -> None:
    rules = rules_of("single-deck")
    hand = hand_of("single-deck")
    result = estimate(rules, hand, trump=Suit.H, samples=200, seed=6, workers=1)
    g = Simulator(rules, hand, [Suit.H]).games(0, 200, seed=6)
    (s,) = result.suits
    assert s.meld_mean == pytest.approx(g.meld.mean())
    assert s.counters_mean == pytest.approx(g.points[:, 0].mean())
    assert s.score_mean == pytest.approx(s.meld_mean + s.counters_mean)


# --------------------------------------------------------------------------- refusals

def test_a_game_without_auction_is_refused_by_its_data_not_its_name() -> None:
    with pytest.raises(SimulationError, match="two-handed game has no auction"):
        estimate(rules_of("two-handed"), parse_cards(HANDS["single-deck"]), samples=10, seed=1)
    renamed = variant("two-handed", "name: two-handed", "name: heads-up")
    with pytest.raises(SimulationError, match="heads-up game has no auction"):
        estimate(renamed, parse_cards(HANDS["single-deck"]), samples=10, seed=1)


@pytest.mark.parametrize(("name", "cards", "message"), [
    ("single-deck", "AH TH KH", "has 3 cards"),
    ("double-deck", HANDS["double-deck"].replace("JS JS", "JS 9S"), "9♠"),
    ("single-deck", "AH AH AH TH KH KH QH JH AS AD AC KS", "3 copies"),
])
def test_bad_hands_are_refused(name: str, cards: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        estimate(rules_of(name), parse_cards(cards), samples=10, seed=1)


def test_an_ineligible_trump_is_refused_with_the_reason() -> None:
    with pytest.raises(SimulationError, match="king and queen"):
        estimate(rules_of("double-deck"), parse_cards(HANDS["double-deck"].replace("QC", "JC")), trump=Suit.C,
                 samples=10, seed=1)


def test_no_eligible_suit_gives_no_suits_and_no_best() -> None:
    rules = rules_of("single-deck-small", **{"marriage-required": "yes"})
    result = estimate(rules, parse_cards(JUNK), samples=10, seed=1)
    assert result.suits == () and result.best is None
    assert result.to_json()["suits"] == [] and result.to_json()["best"] is None


def test_marriage_required_option_limits_the_suits() -> None:
    rules = rules_of("single-deck-small", **{"marriage-required": "yes"})
    result = estimate(rules, hand_of("single-deck-small"), samples=50, seed=1, workers=1)
    assert [s.trump for s in result.suits] == [Suit.H]
