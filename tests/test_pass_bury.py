"""Bury advice (`pinochle pass --bury`): the candidates the rules allow, the fixed bury against estimate's own
simulation, a clear hand, the words, determinism, conditions, and every refusal."""

from __future__ import annotations

import dataclasses
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from clihelp import run_cli, run_cli_json
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_cli.cards import Card, Hand, Suit
from pinochle_cli.errors import ConditionError, PassError, SimulationError
from pinochle_cli.estimate.conditions import Given
from pinochle_cli.estimate.games import Simulator
from pinochle_cli.meld import meld, shown_cards
from pinochle_cli.passing.bury import BuryJudge, BuryQuestion, advise_bury, allowed, buries
from pinochle_cli.passing.burywords import bury_words
from pinochle_cli.passing.judge import Dealt
from pinochle_cli.ruleset import Ruleset, load_ruleset

THREE = load_ruleset("three-handed")
KITTY = load_ruleset("examples/rulesets/four-handed-kitty.yaml")
# the melded cards (hearts run, dix, two marriages, pinochle) may not go; seven others may
HAND = Hand.parse("AH AH TH KH QH JH 9H AS KS QS JD AD KC QC 9C TS 9D JC")
# eight trumps with a run, aces around, and lone side cards: kings and a ten among them
CLEAR = Hand.parse("AH AH TH TH KH QH JH 9H AS AD AC KS TD KC 9S 9D 9C JS")
DEALT = "AH AH TH KH QH JH 9H AS KS QS JD AD KC QC 9C"


def _with_bury(rules: Ruleset, **changes: object) -> Ruleset:
    assert rules.bury is not None
    return dataclasses.replace(rules, bury=dataclasses.replace(rules.bury, **changes))  # type: ignore[arg-type]


def _hand(cards: tuple[int, ...]) -> Hand:
    return Hand([Card.from_index(c) for c in cards])


# --------------------------------------------------------------------------- candidates

def test_the_buries_of_a_hand_are_the_allowed_cards_sets() -> None:
    cands, forced = buries(THREE, HAND, Suit.H)
    free = allowed(THREE, HAND, Suit.H)
    assert not forced and free == Hand.parse("AH TS AS AD 9D JC 9C")
    assert len(cands) == 35 == len(set(cands))
    assert {tuple(sorted(c.index for c in combo)) for combo in combinations(list(free), 3)} == set(cands)


@pytest.mark.parametrize(("changes", "free"), [
    ({}, "AH TS AS AD 9D JC 9C"),
    ({"forbidden": ("melded", "trump")}, "TS AS AD 9D JC 9C"),
    ({"forbidden": ("melded", "counter")}, "9D JC 9C"),
    # nothing forbidden: every card may go (the meld is shown before the bury)
    ({"forbidden": ()}, str(HAND)),
    # buried before the meld: nothing is shown yet, so only the other bans apply
    ({"when": "before-meld", "forbidden": ("trump",)}, "AS TS KS QS AD JD 9D KC QC JC 9C"),
])
def test_the_ruleset_says_what_may_be_buried(changes: dict[str, object], free: str) -> None:
    rules = _with_bury(THREE, **changes)
    assert allowed(rules, HAND, Suit.H) == Hand.parse(free)


def test_a_forced_bury_takes_every_allowed_card_and_the_fewest_forbidden() -> None:
    # meld and trumps forbidden: only the ace of spades is free, and the kitty's four must go
    hand = Hand.parse("AH AH TH TH KH KH QH QH JH JH 9H 9H QS JD AS")
    cands, forced = buries(KITTY, hand, Suit.H)
    assert forced and cands
    ace = Card.parse("AS").index
    assert all(len(c) == 4 and c.count(ace) == 1 and _hand(c).issubset(hand) for c in cands)
    # the heuristic's forced bury is one of them
    assert BuryJudge(BuryQuestion(KITTY, hand, Suit.H, 250)).heuristic() in cands


@st.composite
def bidder_hands(draw: st.DrawFn) -> tuple[Hand, Suit]:
    pack = THREE.deck.cards()
    picks = draw(st.lists(st.integers(0, len(pack) - 1), unique=True, min_size=18, max_size=18))
    return Hand([pack[i] for i in picks]), draw(st.sampled_from(THREE.suits))


@settings(max_examples=60, deadline=None)
@given(bidder_hands(), st.sampled_from([("melded",), ("melded", "trump"), ("melded", "counter")]))
def test_a_bury_of_meld_is_never_offered_where_forbidden(drawn: tuple[Hand, Suit], bans: tuple[str, ...]) -> None:
    hand, trump = drawn
    rules = _with_bury(THREE, forbidden=bans)
    cands, forced = buries(rules, hand, trump)
    shown = shown_cards(rules, hand, trump)
    free = allowed(rules, hand, trump)
    assert len(set(cands)) == len(cands) > 0
    for cand in cands:
        out = _hand(cand)
        assert len(out) == 3 and out.issubset(hand)
        if not forced:
            # every shown copy stays: the kept cards still show the whole declaration
            assert shown.issubset(hand - out) and out.issubset(free)
            assert meld(rules, hand - out, trump).total == meld(rules, hand, trump).total
            assert not ("trump" in bans and any(c.suit == trump for c in out))
            assert not ("counter" in bans and any(rules.counter_value(c) for c in out))
        else:
            assert free.issubset(out)
    assert forced == (len(free) < 3)


# --------------------------------------------------------------------------- the fixed bury equals estimate's

@pytest.mark.parametrize("changes", [{}, {"counters": "last-trick"}, {"when": "before-meld", "forbidden": ()},
                                     {"forbidden": ("melded", "counter")}])
def test_the_heuristic_bury_through_the_hook_is_estimates_simulation(changes: dict[str, object]) -> None:
    rules = _with_bury(THREE, **changes)
    dealt = Hand.parse(DEALT)
    sim = Simulator(rules, dealt, [Suit.H])
    others, leader, widow = sim.deal_chunk(2, 40, seed=8)
    # the widow's cards in order (the heuristic's ties go to the earlier card, and the widow given is a hand)
    widow = np.sort(widow, axis=1)
    g = sim.play_out(others, leader, widow)
    assert g.buried is not None
    for d in range(40):
        seen = Hand([Card.from_index(int(c)) for c in widow[d]])
        judge = BuryJudge(BuryQuestion(rules, dealt + seen, Suit.H, 300, seen))
        mine = judge.heuristic()
        assert mine == tuple(sorted(g.buried[d].tolist()))
        out = judge.play([mine], Dealt(others[d].reshape(1, -1), leader[d:d + 1]))
        assert out.made[0, 0] == (g.claim[d] >= 300)
        assert out.points[0, 0] == (g.claim[d] if g.claim[d] >= 300 else -300)
        assert (out.meld[0, 0], out.counters[0, 0]) == (g.meld[d], g.points[d, 0])


def test_each_bury_is_played_with_the_rest_of_the_hand() -> None:
    judge = BuryJudge(BuryQuestion(THREE, HAND, Suit.H, 300))
    cands, _ = buries(THREE, HAND, Suit.H)
    dealt = judge.deal(0, 30, 4)
    full = np.array(THREE.deck.full().counts)
    for row in dealt.cards:
        assert (np.bincount(row, minlength=24) + np.array(HAND.counts) == full).all()
    out = judge.play(cands[:5], dealt)
    assert out.made.shape == (5, 30)
    # the bury's counters are the bidder's: a deal's counters are never below them
    for i, cand in enumerate(cands[:5]):
        assert (out.counters[i] >= sum(THREE.counter_value(c) for c in _hand(cand))).all()


# --------------------------------------------------------------------------- a clear hand, the words

def test_a_clear_hand_buries_side_counters_and_keeps_trumps_and_meld() -> None:
    advice = advise_bury(BuryQuestion(THREE, CLEAR, Suit.H, 300), samples=800, top=3, workers=1, seed=5)
    best = advice.ranked[0]
    assert not any(c.suit == Suit.H for c in best.cards)
    assert best.words.to_json()["counters_buried"] >= 20 and best.words.to_json()["trumps_kept"] == 8
    # burying the spare trumps and a nine is worse, on the same deals
    judge = BuryJudge(BuryQuestion(THREE, CLEAR, Suit.H, 300))
    worse = tuple(sorted(c.index for c in Hand.parse("AH TH 9S")))
    out = judge.play([tuple(c.index for c in best.cards), worse], judge.deal(0, 400, 3))
    assert out.points[0].mean() > out.points[1].mean() + 5


def test_buried_before_the_meld_the_best_keeps_the_meld() -> None:
    rules = _with_bury(THREE, when="before-meld", forbidden=())
    best = advise_bury(BuryQuestion(rules, HAND, Suit.H, 350), samples=600, top=2, workers=1, seed=2).ranked[0]
    doc = best.words.to_json()
    assert not doc["broken"] and doc["meld"] == meld(rules, HAND, Suit.H).total


@settings(max_examples=40, deadline=None)
@given(bidder_hands(), st.data())
def test_words_agree_with_the_meld_engine(drawn: tuple[Hand, Suit], data: st.DataObject) -> None:
    hand, trump = drawn
    when = data.draw(st.sampled_from(["after-meld", "before-meld"]))
    rules = _with_bury(THREE, when=when, forbidden=())
    out = [Card.from_index(c) for c in data.draw(st.sampled_from(buries(rules, hand, trump)[0]))]
    words = bury_words(rules, hand, out, trump)
    kept = hand.remove(*out)
    assert words.counters == sum(rules.counter_value(c) for c in out)
    assert words.trumps_kept == sum(c.suit == trump for c in kept) and len(words.trumps) == 3 - sum(
        c.suit != trump for c in out)
    assert words.meld == meld(rules, hand if when == "after-meld" else kept, trump).total
    assert all(hand.has_suit(s) and not kept.has_suit(s) for s in words.voids)
    assert "buries" in words.text("buries")


def test_the_words_say_whose_the_buried_counters_are() -> None:
    out = list(Hand.parse("TS AS 9D"))
    assert "20 in counters (the bidder's)" in bury_words(THREE, HAND, out, Suit.H).text("buries")
    last = _with_bury(THREE, counters="last-trick")
    assert "20 in counters (the last trick's)" in bury_words(last, HAND, out, Suit.H).text("buries")
    assert "no counter" in bury_words(THREE, HAND, list(Hand.parse("9D JC 9C")), Suit.H).text("buries")
    # partners keep their teams in a kitty game: the buried counters are the side's
    kitty = Hand.parse("AH TH KH QH JH 9H AS KS QS JD AD KC QC 9C TS")
    words = bury_words(KITTY, kitty, list(Hand.parse("AS TS AD 9C")), Suit.H)
    assert "30 in counters (the bidding side's)" in words.text("buries") and words.counters_to == "bidder"


def test_a_heuristic_bury_the_rules_forbid_is_played_but_never_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    # the heuristic's meld marks are wider than the declaration's: were it to bury a shown card (the pinochle's)
    shown = tuple(sorted(c.index for c in Hand.parse("JD 9D JC")))
    monkeypatch.setattr(BuryJudge, "heuristic", lambda self: shown)
    advice = advise_bury(BuryQuestion(THREE, HAND, Suit.H, 350), samples=200, top=40, workers=1, seed=3)
    assert advice.candidates == 35 and len(advice.ranked) == 35 and advice.heuristic_rank is None
    assert advice.heuristic.cards == tuple(sorted(Hand.parse("JD 9D JC"))) and advice.heuristic.heuristic
    free = allowed(THREE, HAND, Suit.H)
    assert all(Hand(j.cards).issubset(free) and not j.heuristic for j in advice.ranked)


# --------------------------------------------------------------------------- determinism, conditions

def test_same_seed_same_advice_serial_and_parallel() -> None:
    q = BuryQuestion(THREE, HAND, Suit.H, 350)
    one = advise_bury(q, samples=500, seed=4, workers=1).to_json()
    assert advise_bury(q, samples=500, seed=4, workers=1).to_json() == one
    assert advise_bury(q, samples=500, seed=4, workers=2).to_json() == one
    assert one["candidates"] == 35 and one["seed"] == 4
    # no seed: one from the question, reported
    assert advise_bury(q, samples=100, workers=1).seed == advise_bury(q, samples=100, workers=1).seed


def test_conditioned_deals_meet_the_conditions() -> None:
    q = BuryQuestion(THREE, HAND, Suit.H, 350, given=(Given.parse("left: holds TD TD"),))
    judge = BuryJudge(q)
    cards = judge.deal(0, 200, 6).cards
    td = Card.parse("TD").index
    assert ((cards[:, :15] == td).sum(axis=1) == 2).all()
    full = np.array(THREE.deck.full().counts)
    assert all((np.bincount(row, minlength=24) + np.array(HAND.counts) == full).all() for row in cards)
    advice = advise_bury(q, samples=200, workers=1, seed=1)
    assert advice.acceptance == 1.0 and advice.to_json()["conditions"] == ["left: holds TD TD"]


# --------------------------------------------------------------------------- refusals (library)

@pytest.mark.parametrize(("rules", "hand", "widow", "bid", "words"), [
    (load_ruleset("single-deck"), HAND, None, 300, "the single-deck game has no widow"),
    (THREE, Hand.parse(DEALT), None, 300, "exactly 18 in three-handed"),
    (THREE, HAND, Hand.parse("9D JC"), 300, "widow 9♦ J♣: 2 cards; the widow is 3 cards"),
    (THREE, HAND + Hand.parse("9S"), Hand.parse("9D JC 9S"), 300, "the hand has 16 cards .*hand as dealt has exactly 15"),
    (THREE, HAND, None, 255, "bid 255: not a bid of three-handed"),
    (THREE, HAND, None, 10**30, "more than any three-handed deal can score"),
])
def test_refusals(rules: Ruleset, hand: Hand, widow: Hand | None, bid: int, words: str) -> None:
    with pytest.raises(PassError, match=words):
        BuryJudge(BuryQuestion(rules, hand, Suit.H, bid, widow))


def test_a_trump_the_bidder_may_not_name_is_refused() -> None:
    rules = dataclasses.replace(THREE, trump_eligible="marriage")
    with pytest.raises(PassError, match="trump D: the bidder may name only a suit"):
        BuryJudge(BuryQuestion(rules, HAND, Suit.D, 300))


def test_samples_and_conditions_out_of_range() -> None:
    with pytest.raises(SimulationError, match="samples 0"):
        advise_bury(BuryQuestion(THREE, HAND, Suit.H, 300), samples=0)
    with pytest.raises(ConditionError, match="AH"):
        BuryJudge(BuryQuestion(THREE, HAND, Suit.H, 300, given=(Given.parse("left: holds AH"),)))


# --------------------------------------------------------------------------- the command line

FAST = ["-r", "three-handed", "--bury", "--samples", "200", "--seed", "2", "--workers", "1"]


def test_json_shape() -> None:
    data = run_cli_json("pass", str(HAND), "-t", "H", "--bid", "350", "--top", "2", *FAST)
    assert isinstance(data, dict)
    assert (data["ruleset"], data["role"], data["bury"], data["trump"], data["bid"], data["seed"]) == (
        "three-handed", "bidder", True, "H", 350, 2)
    assert data["candidates"] == 35 and data["forced"] is False and data["widow"] is None
    assert data["rounds"] == [{"candidates": 35, "deals": 200}]
    assert len(data["ranked"]) == 2 and data["heuristic"]["heuristic"] is True
    for j in data["ranked"]:
        assert len(j["bury"]) == 3 and j["deals"] == 200
        assert set(j["words"]) == {"counters_buried", "counters_to", "trumps_buried", "trumps_kept", "meld", "melds",
                                   "broken", "voids"}
    assert isinstance(data["within_noise"], bool)


def test_the_widow_given_apart_is_the_same_question() -> None:
    apart = run_cli_json("pass", DEALT, "--widow", "TS 9D JC", "-t", "H", "--bid", "350", *FAST)
    together = run_cli_json("pass", str(HAND), "-t", "H", "--bid", "350", *FAST)
    assert sorted(apart["widow"]) == ["9D", "JC", "TS"]
    assert apart["ranked"] == together["ranked"] and apart["candidates"] == together["candidates"]


def test_answer_names_the_best_and_the_heuristic() -> None:
    code, out, err = run_cli("pass", str(HAND), "-t", "H", "--bid", "350", *FAST)
    assert code == 0 and err == ""
    assert "the bidder's bury" in out and "35 buries of 3 on common sampled deals (seed 2)" in out
    lines = out.splitlines()
    why = lines.index("Why:")
    assert "(h)" in out and lines[why - 1].startswith("Best bury: ") and all(x.startswith("  - ") for x in lines[why + 1:])


@pytest.mark.parametrize(("args", "words"), [
    (["-r", "single-deck", "--bury"], "the single-deck game has no widow"),
    (["-r", "three-handed", "--bury", "--as", "bidder"], "--bury does not go with --as"),
    (["-r", "three-handed", "--bury", "--as", "partner"], "--bury does not go with --as"),
    (["-r", "three-handed", "--bury", "--received", "AS"], "--bury does not go with --received"),
    (["-r", "three-handed", "--bury", "--auction", "250 pass pass"], "--auction needs --dealer"),
    (["-r", "three-handed", "--bury", "--dealer", "left"], "--dealer needs --auction"),
    (["-r", "three-handed", "--bury", "--conventions", "x.yaml"], "--conventions needs --auction"),
    (["-r", "three-handed", "--bury", "--auction", "350 pass pass", "--dealer", "partner"],
     "--dealer partner: the three-handed game has no such seat (seats: me, left, right)"),
    (["-r", "three-handed", "--bury", "--auction", "300 350 pass pass", "--dealer", "me"],
     'won by right at 350, and the question is a bid of 350 by me'),
    (["-r", "three-handed", "--widow", "9D"], "--widow needs --bury"),
    (["-r", "three-handed", "--bury", "--widow", "9D"], "--widow 9♦: 1 card; the widow is 3 cards"),
    (["-r", "three-handed", "--bury", "--widow", "AH 9S 9S"], "--widow A♥ 9♠ 9♠: 3 copies of A♥ (AH)"),
    (["-r", "three-handed", "--bury", "--widow", "ZZ 9S 9S"], "--widow: \"ZZ\" is not a card"),
    (["-r", "three-handed", "--bury", "--bid", "355"], "--bid 355: not a bid of three-handed"),
    (["-r", "three-handed", "--bury", "--bid", str(10**30)], "more than any three-handed deal can score"),
    (["-r", "three-handed", "--bury", "--given", "left: holds AH"], "no deal can meet the conditions"),
    (["-r", "three-handed", "--bury", "--samples", "0"], "--samples"),
    (["-r", "three-handed", "--bury", "--top", "0"], "--top"),
])
def test_cli_refusals(args: list[str], words: str) -> None:
    code, out, err = run_cli("pass", str(HAND), "-t", "H", "--bid", "350", *args)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and words in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("hand", "widow", "words"), [
    (DEALT, None, "the hand has 15 cards (A♠ K♠ Q♠ A♥ A♥ 10♥ K♥ Q♥ J♥ 9♥ A♦ J♦ K♣ Q♣ 9♣); the bidder's hand with "
                  "the widow taken has exactly 18 in three-handed (or 15 as dealt, with the widow given)"),
    (str(HAND), "9S JS TC", "the hand has 18 cards"),
])
def test_cli_hand_of_the_wrong_size(hand: str, widow: str | None, words: str) -> None:
    extra = ["--widow", widow] if widow is not None else []
    code, _, err = run_cli("pass", hand, "-t", "H", "--bid", "350", "-r", "three-handed", "--bury", *extra)
    assert code == 2 and words in err


def test_cli_a_widow_card_not_in_the_pack_is_refused() -> None:
    dealt = "AS AS TS TS TS KS QS QS JS AH AH KH QH QH QH JH JH JH AD TD KD QD QD JD AC"
    code, out, err = run_cli("pass", dealt, "--widow", "AC 9C KC KC QC", "-t", "H", "--bid", "500", "-r",
                             "examples/rulesets/three-handed-double.yaml", "--bury")
    assert (code, out) == (2, "") and err.startswith("Error: --widow A♣ 9♣ K♣ K♣ Q♣: 9♣ (9C) is not in")


def test_cli_cards_beyond_the_pack_are_refused() -> None:
    code, _, err = run_cli("pass", str(HAND) + " AH", "-t", "H", "--bid", "350", "-r", "three-handed", "--bury")
    assert code == 2 and "3 copies of A♥" in err



def test_a_won_auction_tells_the_bury_what_the_others_showed(tmp_path: Path) -> None:
    """--auction (the bidder's won auction, seats from the bidder) gives the judge's deals the conditions the
    conventions read from each call, as for a pass; without conventions that show anything it changes nothing."""
    plain = run_cli_json("pass", str(HAND), "-t", "H", "--bid", "350", *FAST)
    quiet = run_cli_json("pass", str(HAND), "-t", "H", "--bid", "350", *FAST, "--auction", "pass 350 pass",
                         "--dealer", "left")
    assert quiet["ranked"] == plain["ranked"]
    conventions = tmp_path / "conventions.yaml"
    conventions.write_text("conventions:\n  name: meld bids\n  pass: []\n  opening: []\n  raise: []\n"
                           "  jump_meld: 1\n", encoding="utf-8")
    args = ("pass", str(HAND), "-t", "H", "--bid", "350", *FAST, "--auction", "300 330 350 pass pass", "--dealer",
            "me", "--conventions", str(conventions))
    shown = run_cli_json(*args)
    assert {g.split(":")[0] for g in shown["conditions"]} == {"left", "right"} and 0 < shown["acceptance"] < 1
    assert shown["ranked"] != plain["ranked"]
    # the ruleset's own conventions show nothing: no conditions
    assert "conditions" not in run_cli_json(*args[:-2])
