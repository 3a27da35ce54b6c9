"""Pass advice: the candidates, the fixed-pass simulation against estimate's, clear hands, determinism."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_cli.arrays import IntArray
from pinochle_cli.cards import Card, Hand, Suit
from pinochle_cli.errors import PassError, SimulationError
from pinochle_cli.estimate.games import Simulator
from pinochle_cli.meld import meld
from pinochle_cli.passing.candidates import passes
from pinochle_cli.passing.explain import explain
from pinochle_cli.passing.judge import Judge, PassQuestion
from pinochle_cli.passing.race import _key, advise, schedule
from pinochle_cli.player import exchange
from pinochle_cli.ruleset import load_ruleset

SINGLE = load_ruleset("single-deck")
PARTNER = Hand.parse("AH 10H KH 9H AS AC AD QS 9S JD 9D 9C")
BIDDER16 = Hand.parse("AH 10H KH QH JH AH 10H KH QH JH AS AC 9S JS 9D 9C")


def idx(text: str) -> tuple[int, ...]:
    return tuple(sorted(c.index for c in Hand.parse(text)))


# --------------------------------------------------------------------------- candidates

@pytest.mark.parametrize(("cards", "k", "count"), [
    ("AH 10H KH QH JH 9H AS 10S KS QS JS 9S", 4, 495),
    ("AH 10H KH QH JH 9H AS 10S KS QS JS 9S AD 10D KD QD", 4, 1820),
    # one card doubled: C(10,4) + 2 of the rest with one copy... counted once
    ("AH AH KH QH JH 9H AS 10S KS QS JS 9S", 4, 210 + 120 + 45),
    ("AH 10H KH QH JH 9H AS 10S KS QS JS 9S", 3, 220),
    ("AH KH", 3, 0),
])
def test_every_distinct_pass(cards: str, k: int, count: int) -> None:
    got = passes(Hand.parse(cards), k)
    assert len(got) == count == len(set(got))
    assert all(len(p) == k and Hand([Card.from_index(c) for c in p]).issubset(Hand.parse(cards)) for p in got)


@st.composite
def dealt(draw: st.DrawFn) -> Hand:
    pack = SINGLE.deck.cards()
    picks = draw(st.lists(st.integers(0, len(pack) - 1), unique=True, min_size=12, max_size=12))
    return Hand([pack[i] for i in picks])


@settings(max_examples=60, deadline=None)
@given(dealt(), st.integers(0, 5))
def test_passes_are_the_distinct_sub_multisets(hand: Hand, k: int) -> None:
    # the count of k-card sub-multisets: the coefficient of x^k in the product of (1 + x + … + x^copies)
    poly = [1]
    for n in hand.counts:
        if n:
            poly = [sum(poly[i - j] for j in range(n + 1) if 0 <= i - j < len(poly)) for i in range(len(poly) + n)]
    got = passes(hand, k)
    assert len(got) == len(set(got)) == (poly[k] if k < len(poly) else 0)
    assert all(Hand([Card.from_index(c) for c in p]).issubset(hand) for p in got)


@settings(max_examples=40, deadline=None)
@given(dealt(), st.data())
def test_words_agree_with_the_meld_engine(hand: Hand, data: st.DataObject) -> None:
    sent = data.draw(st.sampled_from(passes(hand, 4)))
    cards = [Card.from_index(c) for c in sent]
    trump = data.draw(st.sampled_from(SINGLE.suits))
    words = explain(SINGLE, hand, cards, trump)
    assert words.kept_meld == meld(SINGLE, hand.remove(*cards), trump).total
    assert len(words.trumps) == sum(c.suit == trump for c in cards)
    assert words.counters == sum(SINGLE.counter_value(c) for c in cards)


def test_schedule_ends_with_the_samples_and_top_plus_one() -> None:
    plan = schedule(495, 4000, 5)
    assert plan[0] == (495, 200) and plan[-1] == (6, 4000)
    assert all(a[0] >= b[0] and a[1] < b[1] for a, b in itertools.pairwise(plan))
    assert schedule(495, 100, 5) == [(495, 100)]


# --------------------------------------------------------------------------- the simulation equals estimate's

def _fixed(monkeypatch: pytest.MonkeyPatch, name: str, cards: Sequence[int]) -> None:
    """The player's heuristic ``name`` (choose_pass or choose_return) replaced by one that picks ``cards``."""
    def chosen(ex: object, held: IntArray, trump: IntArray, k: int) -> tuple[IntArray, IntArray]:
        out_sent = np.repeat(np.array([cards], dtype=np.int64), len(held), axis=0)
        keep = np.array([_less(row, cards) for row in held], dtype=np.int64)
        return out_sent, keep

    monkeypatch.setattr(exchange, name, chosen)


def _less(row: IntArray, gone: Sequence[int]) -> list[int]:
    out = [int(c) for c in row]
    for c in gone:
        out.remove(c)
    return out


@pytest.mark.parametrize("cand", ["AH 10H KH 9H", "QS JD 9D 9C", "AS AC AD 9S"])
def test_partner_candidate_is_estimates_simulation_with_that_pass(monkeypatch: pytest.MonkeyPatch, cand: str) -> None:
    judge = Judge(PassQuestion(SINGLE, "partner", PARTNER, Suit.H, 300))
    dealt = judge.deal(3, 60, 11)
    ours = judge.play([idx(cand)], dealt)
    slots = judge.slots([idx(cand)], dealt.cards)
    _fixed(monkeypatch, "choose_pass", idx(cand))
    theirs = Simulator(SINGLE, PARTNER, [Suit.H]).play_slots(slots, np.full(60, int(Suit.H)), dealt.leader)
    assert (ours.made[0] == (theirs.claim >= 300)).all()
    assert (ours.meld[0] == theirs.meld).all() and (ours.counters[0] == theirs.points[:, 0]).all()


def test_heuristic_candidate_is_estimates_own_simulation() -> None:
    judge = Judge(PassQuestion(SINGLE, "partner", PARTNER, Suit.H, 300))
    dealt = judge.deal(0, 80, 5)
    h = judge.heuristic()
    ours = judge.play([h], dealt)
    theirs = Simulator(SINGLE, PARTNER, [Suit.H]).play_slots(judge.slots([h], dealt.cards),
                                                            np.full(80, int(Suit.H)), dealt.leader)
    assert (ours.made[0] == (theirs.claim >= 300)).all() and (ours.meld[0] == theirs.meld).all()


def test_bidder_candidate_is_estimates_simulation_with_pass_and_return(monkeypatch: pytest.MonkeyPatch) -> None:
    received = Hand.parse("AS AC 9S JS")
    dealt12 = BIDDER16 - received
    q = PassQuestion(SINGLE, "bidder", BIDDER16, Suit.H, 300, received)
    judge = Judge(q)
    dealt = judge.deal(1, 50, 9)
    cand = idx("9S JS 9D 9C")
    ours = judge.play([cand], dealt)
    # estimate's deal: the bidder's 12, the partner's 8 plus the 4 it passed, the opponents'
    slots = np.empty((50, 4, 12), dtype=np.int64)
    slots[:, 0] = np.array(sorted(c.index for c in dealt12))
    slots[:, 2, :8] = dealt.cards[:, :8]
    slots[:, 2, 8:] = np.array(idx("AS AC 9S JS"))
    slots[:, 1] = dealt.cards[:, 8:20]
    slots[:, 3] = dealt.cards[:, 20:32]
    _fixed(monkeypatch, "choose_pass", idx("AS AC 9S JS"))
    _fixed(monkeypatch, "choose_return", cand)
    theirs = Simulator(SINGLE, dealt12, [Suit.H]).play_slots(slots, np.full(50, int(Suit.H)), dealt.leader)
    assert (ours.made[0] == (theirs.claim >= 300)).all()
    assert (ours.meld[0] == theirs.meld).all() and (ours.counters[0] == theirs.points[:, 0]).all()


def test_common_deals_hold_the_hand_and_the_unseen_cards() -> None:
    judge = Judge(PassQuestion(SINGLE, "partner", PARTNER, Suit.H, 300))
    slots = judge.slots([idx("AH 10H KH 9H")], judge.deal(0, 20, 1).cards)
    full = np.array(SINGLE.deck.full().counts)
    for deal in slots:
        assert (np.bincount(deal.ravel(), minlength=24) == full).all()
        assert sorted(deal[2].tolist()) == sorted(c.index for c in PARTNER)


def test_marriage_required_gives_the_bidder_the_marriage() -> None:
    small = load_ruleset("single-deck-small", {"marriage-required": "yes"})
    judge = Judge(PassQuestion(small, "partner", PARTNER, Suit.S, 25))
    cards = judge.deal(0, 100, 2).cards[:, :12]
    for c in (Card.parse("KS"), Card.parse("QS")):
        assert (cards == c.index).any(axis=1).all()


# --------------------------------------------------------------------------- clear hands

def test_bidder_with_a_double_run_returns_junk() -> None:
    q = PassQuestion(SINGLE, "bidder", BIDDER16, Suit.H, 1700)
    best = advise(q, samples=600, top=3, workers=1).ranked[0]
    assert not best.words.trumps and "double run ♥" in best.words.kept and not best.words.broken


def test_partner_with_trumps_and_aces_sends_them() -> None:
    q = PassQuestion(SINGLE, "partner", Hand.parse("AH 10H 9H AS JS 9S JC 9C QD 9D 10C 10D"), Suit.H, 300)
    best = advise(q, samples=600, top=3, workers=1).ranked[0]
    assert len(best.words.trumps) + len(best.words.tops) == 4


def test_breaking_a_double_pinochle_ranks_below_keeping_it() -> None:
    hand = Hand.parse("QS QS JD JD AH 10H KH 9S 9C JC 10C 9D")
    judge = Judge(PassQuestion(SINGLE, "partner", hand, Suit.H, 300))
    keep, broken = idx("AH 10H KH 9C"), idx("AH 10H KH QS")
    out = judge.play([keep, broken], judge.deal(0, 400, 3))
    rows = [type(out)(out.made[i], out.meld[i], out.counters[i], out.points[i]) for i in range(2)]
    assert _key(rows[0], 0) < _key(rows[1], 1)
    assert "double pinochle" in explain(SINGLE, hand, [Card.parse(c) for c in ["AH", "10H", "KH", "QS"]],
                                        Suit.H).broken


# --------------------------------------------------------------------------- determinism, refusals

def test_same_seed_same_advice_serial_and_parallel() -> None:
    q = PassQuestion(load_ruleset("single-deck", {"exchange": "3"}), "partner", PARTNER, Suit.H, 300)
    one = advise(q, samples=300, seed=4, workers=1).to_json()
    assert advise(q, samples=300, seed=4, workers=1).to_json() == one
    assert advise(q, samples=300, seed=4, workers=2).to_json() == one
    assert one["candidates"] == len(passes(PARTNER, 3))


@pytest.mark.parametrize(("rules", "hand", "words"), [
    (load_ruleset("two-handed"), PARTNER, "has no pass"),
    (load_ruleset("double-deck"), PARTNER, "has no pass"),
    (load_ruleset("single-deck", {"exchange": "0"}), PARTNER, "with exchange=0 has no pass"),
    (SINGLE, Hand.parse("AH 10H"), "exactly 12"),
])
def test_refusals(rules: object, hand: Hand, words: str) -> None:
    with pytest.raises(PassError, match=words):
        Judge(PassQuestion(rules, "partner", hand, Suit.H, 300))  # type: ignore[arg-type]


def test_bad_bid_and_samples() -> None:
    with pytest.raises(PassError, match="bid 255"):
        Judge(PassQuestion(SINGLE, "partner", PARTNER, Suit.H, 255))
    with pytest.raises(SimulationError, match="samples 0"):
        advise(PassQuestion(SINGLE, "partner", PARTNER, Suit.H, 300), samples=0)


def test_a_trump_the_bidder_could_not_have_named_is_refused() -> None:
    small = load_ruleset("single-deck-small", {"marriage-required": "yes"})
    hand = Hand.parse("KS KS AH 10H KH 9H AC AD QS 9S JD 9D")
    with pytest.raises(PassError, match="this hand holds every K♠"):
        Judge(PassQuestion(small, "partner", hand, Suit.S, 25))
    with pytest.raises(PassError, match="before the pass"):
        Judge(PassQuestion(small, "bidder", BIDDER16, Suit.S, 25, Hand.parse("AS AC 9S JS")))
