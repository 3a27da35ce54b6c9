"""``DealState``, the deal in progress: every stage of every bundled game, each refusal with its reason and the
state left as it was, undo, JSON, hands not known, and the score at the end as ``scoring`` gives it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochle_cli import Action, DealState, Hand, load_ruleset
from pinochle_cli.cards import Card, Suit
from pinochle_cli.errors import ActionError, AuctionError, IllegalPlayError, PlayError
from pinochle_cli.game.deal import deal_cards
from pinochle_cli.meld import meld, shown_cards
from pinochle_cli.ruleset import bundled_names
from pinochle_cli.scoring import score_deal

SD = load_ruleset("single-deck")
HANDS = ["AH TH KH QH JH AS TS KS QS JD 9C 9D",
         "AH TH KH QH JH AS TS KS QS JD 9C 9D",
         "AD TD KD QD 9H 9S AC TC KC QC JC JS",
         "AD TD KD QD 9H 9S AC TC KC QC JC JS"]


def at_meld() -> DealState:
    state = DealState(SD, dealer=3, hands=HANDS)
    for call in ("bid 260", "pass", "pass", "pass", "trump H", "give AD TD AC TC", "give 9C 9D JD QS"):
        state.apply(call)
    return state


def at_play() -> DealState:
    state = at_meld()
    for seat in range(4):
        state.apply(Action("meld", seat, cards=state.meld_shows(seat)))
    return state


def unchanged(state: DealState, action: str, error: type[Exception], match: str) -> None:
    """``action`` is refused with ``error`` and the state stays as it was."""
    before = state.to_json()
    with pytest.raises(error, match=match):
        state.apply(action)
    assert state.to_json() == before


# --------------------------------------------------------------------------- the auction

def test_the_auction_goes_round_from_the_dealers_left() -> None:
    state = DealState(SD, dealer=1, hands=HANDS)
    assert (state.stage, state.turn.seat) == ("auction", 2)
    state.apply("bid 250")
    assert state.turn.seat == 3
    state.apply("pass")
    state.apply("bid 300")
    state.apply("pass")
    assert state.turn.seat == 2 and state.calls == ((2, 250), (3, None), (0, 300), (1, None))
    state.apply("pass")
    assert (state.bidder, state.bid, state.stage) == (0, 300, "trump")


@pytest.mark.parametrize(("calls", "action", "error", "match"), [
    ((), "bid 240", AuctionError, "240 is below the minimum bid 250"),
    ((), "bid 255", AuctionError, "255 is off the steps"),
    (("bid 300",), "bid 300", AuctionError, "does not raise seat 0's 300"),
    ((), "trump H", ActionError, "not now — seat 0: bid or pass"),
    ((), "AS", ActionError, "not now"),
])
def test_a_call_the_auction_does_not_allow_is_refused(calls: tuple[str, ...], action: str, error: type[Exception],
                                                      match: str) -> None:
    state = DealState(SD, dealer=3, hands=HANDS)
    for call in calls:
        state.apply(call)
    unchanged(state, action, error, match)


def test_a_call_out_of_turn_is_refused() -> None:
    state = DealState(SD, dealer=3, hands=HANDS)
    unchanged(state, Action.call(260, seat=2), ActionError, "it is seat 0's turn")


def test_a_seat_that_passed_may_not_call_again() -> None:
    state = DealState(SD, dealer=3, hands=HANDS)
    state.apply("pass")
    state.apply("bid 250")
    unchanged(state, Action.call(260, seat=0), AuctionError, f"seat 0 passed, and {SD.auction.pass_rule}")


def test_a_pass_is_final_and_the_dealer_is_stuck() -> None:
    state = DealState(SD, dealer=3, hands=HANDS)
    for call in ("pass", "pass", "pass"):
        state.apply(call)
    # the others passed: the dealer takes the minimum without a call
    assert (state.bidder, state.bid, state.stage) == (3, 250, "trump")


def test_everyone_passing_is_a_redeal_where_the_dealer_is_not_stuck(edited_ruleset) -> None:  # type: ignore[no-untyped-def]
    rules = load_ruleset(str(edited_ruleset("single-deck", ("dealer_stuck: true", "dealer_stuck: false")).path))
    state = DealState(rules, dealer=3, hands=HANDS)
    for call in ("pass", "pass", "pass", "pass"):
        state.apply(call)
    assert (state.stage, state.result) == ("done", "redeal")
    assert state.score() is not None and state.score().result == "redeal"  # type: ignore[union-attr]


# --------------------------------------------------------------------------- trump, exchange, meld

def test_trump_must_be_a_suit_the_bidder_may_name() -> None:
    dd = load_ruleset("double-deck")
    rng = np.random.default_rng(4)
    hands, _ = deal_cards(dd, rng)
    state = DealState(dd, dealer=3, hands=hands)
    state.apply("bid 50")
    for _ in range(3):
        state.apply("pass")
    hand = state.hand(0)
    assert hand is not None
    bad = next((s for s in dd.suits if s not in dd.eligible_trumps(hand)), None)
    if bad is not None:
        unchanged(state, f"trump {bad.letter}", ActionError, "needs the K and Q")
    if dd.eligible_trumps(hand):
        state.apply(f"trump {dd.eligible_trumps(hand)[0].letter}")
        assert state.stage == "meld"  # no exchange in double-deck


def test_the_exchange_is_the_partners_cards_then_the_bidders() -> None:
    state = DealState(SD, dealer=3, hands=HANDS)
    for call in ("bid 260", "pass", "pass", "pass", "trump H"):
        state.apply(call)
    assert state.turn.seat == 2
    unchanged(state, "give AH TH KH QH", ActionError, "seat 2 does not hold A♥ 10♥ K♥ Q♥")
    unchanged(state, "give AD TD AC", ActionError, "the exchange is 4 cards each way, not 3")
    state.apply("give AD TD AC TC")
    assert state.hand(0) == Hand.parse(HANDS[0]) + Hand.parse("AD TD AC TC") and state.turn.seat == 0
    state.apply("give 9C 9D JD QS")
    assert state.hand(2) == Hand.parse(HANDS[2]) - Hand.parse("AD TD AC TC") + Hand.parse("9C 9D JD QS")
    assert state.given == {2: Hand.parse("AD TD AC TC"), 0: Hand.parse("9C 9D JD QS")}


def test_meld_shown_is_held_and_all_of_it_meld() -> None:
    state = at_meld()
    unchanged(state, "meld KD QD", ActionError, "does not hold")
    unchanged(state, "meld AH TH KH QH JH AS", ActionError, "A♠ is no part of a meld with trump ♥")
    state.apply("meld AH TH KH QH JH")
    assert state.shown[0] == Hand.parse("AH TH KH QH JH") and state.turn.seat == 1


def test_a_bidder_short_of_the_bid_with_every_counter_is_not_on_board() -> None:
    state = DealState(SD, dealer=3, hands=HANDS)
    for call in ("bid 600", "pass", "pass", "pass", "trump H", "give AD TD AC TC", "give 9C 9D JD QS"):
        state.apply(call)
    for _ in range(4):
        state.apply("meld")
    assert (state.stage, state.result) == ("done", "not-on-board")
    assert state.score().result == "not-on-board"  # type: ignore[union-attr]


def test_the_bidder_may_concede_before_the_first_card() -> None:
    state = at_play()
    assert "concede" in state.turn.kinds
    state.apply("concede")
    assert state.result == "conceded" and state.score().result == "conceded"  # type: ignore[union-attr]


# --------------------------------------------------------------------------- the play

def test_a_card_a_duty_forbids_is_refused_naming_the_duty() -> None:
    state = at_play()
    state.play("AH")
    with pytest.raises(IllegalPlayError) as err:
        state.play("9C")
    assert err.value.ruling.duty == "follow" and err.value.trick == 1 and err.value.seat == 1
    assert "must follow suit in ♥" in str(err.value)
    unchanged(state, "9C", IllegalPlayError, "must follow")


def test_a_card_not_held_is_refused() -> None:
    state = at_play()
    with pytest.raises(IllegalPlayError, match="seat 0 does not hold 9♠") as err:
        state.play("9S")
    assert err.value.ruling.duty == "not-held"


def test_undo_steps_back_one_action_at_a_time() -> None:
    state = at_play()
    before = state.to_json()
    state.play("AH")
    assert state.trick == (Card.parse("AH"),)
    assert state.undo() == Action.play("AH", seat=0)
    assert state.to_json() == before
    for _ in range(len(state.history)):
        state.undo()
    assert state.stage == "auction" and state.turn.seat == 0
    with pytest.raises(ActionError, match="nothing to undo"):
        state.undo()


def test_the_state_round_trips_through_json_at_every_step() -> None:
    state = at_play()
    rng = np.random.default_rng(3)
    while state.stage == "play":
        text = json.dumps(state.to_json())
        again = DealState.from_json(json.loads(text))
        assert again.to_json() == state.to_json() and again.turn == state.turn and again.legal_plays() == \
            state.legal_plays()
        legal = state.legal_plays()
        state.play(legal[int(rng.integers(len(legal)))])
    assert DealState.from_json(state.to_json()).score() == state.score()


def test_json_that_breaks_a_rule_is_refused_naming_the_action() -> None:
    doc = at_play().to_json()
    doc["actions"].append({"seat": 0, "kind": "play", "card": "9S"})
    with pytest.raises(ActionError, match=r"action 12 .*seat 0 does not hold 9♠"):
        DealState.from_json(doc)
    with pytest.raises(ActionError, match="not an action"):
        Action.from_json({"kind": "dance"})


# --------------------------------------------------------------------------- every game, to the end

def _drive(state: DealState, rng: np.random.Generator) -> DealState:
    """Play ``state`` to its end: the lowest bids, the first suit, the first cards, the best meld shown."""
    rules = state.rules
    while state.stage != "done":
        kinds, seat = state.turn.kinds, state.turn.seat
        assert seat is not None
        if "bid" in kinds:
            state.apply("pass" if state.calls else f"bid {rules.auction.minimum}")  # type: ignore[union-attr]
        elif kinds == ("trump",):
            hand = state.hand(seat)
            suits = rules.eligible_trumps(hand) if hand is not None else rules.suits
            state.apply(f"trump {suits[0].letter}")
        elif kinds == ("give",):
            hand = state.hand(seat)
            assert hand is not None
            state.apply(Action("give", cards=Hand(list(hand)[:rules.exchange])))
        elif kinds == ("bury",):
            hand, shown = state.hand(seat), state.shown.get(seat, Hand())
            assert hand is not None and state.trump is not None
            spare = sorted(hand - shown, key=lambda c: (c.suit == state.trump, rules.counter_value(c)))
            state.apply(Action("bury", cards=Hand(spare[:rules.widow_size])))
        elif kinds == ("meld",):
            state.apply(Action("meld", cards=state.meld_shows(seat)))
        else:
            legal = state.legal_plays()
            state.play(legal[int(rng.integers(len(legal)))])
    return state


@pytest.mark.parametrize("name", bundled_names())
def test_every_game_plays_to_a_score_its_facts_give(name: str) -> None:
    rules = load_ruleset(name)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        hands, rest = deal_cards(rules, rng)
        extra = {"widow": rest} if rules.widow_size else {"stock": rest} if rules.has_stock else {}
        state = _drive(DealState(rules, dealer=seed % rules.players, hands=hands, **extra), rng)  # type: ignore[arg-type]
        assert state.result == "played"
        assert sum(state.counters()) + sum(rules.counter_value(c) for c in state.buried or ()) == rules.counter_total
        assert state.score() == score_deal(rules, state.facts())
        assert all(not len(state.hand(s) or Hand()) for s in range(rules.players))


def test_three_handed_the_bidder_takes_the_widow_and_buries() -> None:
    rules = load_ruleset("three-handed")
    hands, widow = deal_cards(rules, np.random.default_rng(2))
    state = DealState(rules, dealer=2, hands=hands, widow=widow)
    for call in ("bid 250", "pass", "pass"):
        state.apply(call)
    hand = state.hand(0)
    assert hand is not None and len(hand) == 18 and Hand(widow).issubset(hand)
    state.apply("trump S")
    for _ in range(3):
        state.apply(Action("meld", cards=state.meld_shows(state.turn.seat or 0)))
    assert state.stage == "bury" and state.turn == type(state.turn)(0, ("bury",), "bury")
    with pytest.raises(ActionError, match="the bidder buries 3 cards"):
        state.apply("bury " + " ".join(c.ascii() for c in list(hand)[:2]))


def test_two_handed_draws_from_the_stock_and_declares() -> None:
    rules = load_ruleset("two-handed")
    hands, stock = deal_cards(rules, np.random.default_rng(5))
    state = DealState(rules, dealer=1, hands=hands, stock=stock)
    assert state.stage == "play" and state.trump == stock[-1].suit and state.phase == "stock"
    state.play(state.legal_plays()[0])
    state.play(state.legal_plays()[0])
    winner = state.tricks[0].winner
    assert all(len(state.hand(s) or ()) == 12 for s in range(2)) and state.turn.seat == winner
    assert "meld" in state.turn.kinds


# --------------------------------------------------------------------------- hands not known

def test_a_followed_deal_checks_what_it_can_of_hands_not_known() -> None:
    mine = Hand.parse(HANDS[0])
    state = DealState(SD, dealer=3, hands=[mine, None, None, None])
    for call in ("bid 260", "pass", "pass", "pass", "trump H"):
        state.apply(call)
    state.apply("give AD TD AC TC")  # the partner's cards, seen as they arrive
    state.apply("give 9C 9D JD QS")
    state.apply("meld AH TH KH QH JH")
    state.apply("meld KS QS")  # seat 1 shows a marriage: known to hold K♠ Q♠
    state.apply("meld")
    state.apply("meld")
    state.play("AS")
    # seat 1 showed K♠ and Q♠: it holds spades and must follow
    unchanged(state, "9C", IllegalPlayError, "known to hold")
    state.play("KS")
    assert state.hand(1) is None and state.legal_plays()  # any card not known elsewhere


def test_at_play_starts_at_the_first_card() -> None:
    state = DealState.at_play(SD, "S", bidder=1, bid=300, hands=[None, "AS AS TS KS QS JS 9S AD AD TD AC KC", None,
                                                                    None])
    assert (state.stage, state.turn.seat, state.trump) == ("play", 1, Suit.S)
    with pytest.raises(PlayError, match="hand as play starts has 3 cards"):
        DealState.at_play(SD, "S", bidder=1, hands=[None, "AS TS KS", None, None])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), undo=st.integers(1, 20))
def test_undo_then_replay_gives_the_same_state(seed: int, undo: int) -> None:
    rng = np.random.default_rng(seed)
    state = _drive(DealState(SD, dealer=0, hands=deal_cards(SD, rng)[0]), rng)
    whole, history = state.to_json(), state.history
    for _ in range(min(undo, len(history))):
        state.undo()
    assert len(state.history) == len(history) - min(undo, len(history))
    for act in history[len(state.history):]:
        state.apply(act)
    assert state.to_json() == whole


def test_a_sides_meld_is_its_seats_shown_meld() -> None:
    state = at_play()
    for side, seats in enumerate(SD.partnerships):
        assert state.facts().meld[side] == sum(meld(SD, state.shown[s], "H").total for s in seats)
    assert shown_cards(SD, Hand.parse("AH TH KH QH JH 9C"), "H") == Hand.parse("AH TH KH QH JH")
