"""The deal engine: random deals played and replayed in every ruleset, the stock, reneges caught."""

from __future__ import annotations

import numpy as np
import pytest

from pinochle_cli.cards import Card, Hand, Suit, parse_card, parse_cards
from pinochle_cli.errors import PlayError
from pinochle_cli.game.deal import (
    DealPlay,
    DealState,
    IllegalPlayError,
    deal_cards,
    opening_leader,
    play_deal,
    random_strategy,
    replay_deal,
)
from pinochle_cli.game.tricks import legal_plays, trick_winner
from pinochle_cli.ruleset import Ruleset, load_ruleset

GAMES = {
    "two-handed": (load_ruleset("two-handed"), 250),
    "single-deck": (load_ruleset("single-deck"), 250),
    "single-deck-small": (load_ruleset("single-deck-small"), 25),
    "single-deck-small/trump-lead": (load_ruleset("single-deck-small", {"overtake": "trump-lead"}), 25),
    "double-deck": (load_ruleset("double-deck"), 50),
}


def random_deal(rules: Ruleset, rng: np.random.Generator) -> tuple[list[Hand], list[Card], Suit, int]:
    hands, stock = deal_cards(rules, rng)
    trump = stock[-1].suit if rules.turn_up_trump else rules.suits[int(rng.integers(len(rules.suits)))]
    return hands, stock, trump, int(rng.integers(rules.players))


def walk(rules: Ruleset, hands: list[Hand], stock: list[Card], trump: Suit, leader: int,
         tricks: list[list[Card]]) -> list[tuple[int, int, Hand, list[Card], str | None, int, list[Card]]]:
    """Replay independently with the public functions: (trick, seat, hand, trick so far, phase, leader, legal)."""
    hands = list(hands)
    pile = list(stock)
    out = []
    for k, trick in enumerate(tricks):
        phase = None if not rules.has_stock else ("stock" if pile else "play-off")
        for j, card in enumerate(trick):
            seat = (leader + j) % rules.players
            allowed = legal_plays(rules, hands[seat], trick[:j], trump, phase=phase, leader_seat=leader)
            out.append((k, seat, hands[seat], trick[:j], phase, leader, allowed))
            hands[seat] = hands[seat].remove(card)
        winner = (leader + trick_winner(rules, trick, trump)) % rules.players
        if phase == "stock":
            for d in range(rules.players):
                hands[(winner + d) % rules.players] = hands[(winner + d) % rules.players].add(pile.pop(0))
        leader = winner
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_deals_are_legal_and_counters_add_up(game: str) -> None:
    rules, total = GAMES[game]
    assert rules.counter_total == total
    rng = np.random.default_rng(np.random.SeedSequence([4, len(game)]))
    choose = random_strategy(rng)
    for _ in range(25):
        hands, stock, trump, leader = random_deal(rules, rng)
        play = play_deal(rules, hands, trump, leader, choose, stock=stock)
        assert play.complete and len(play.tricks) == rules.tricks_per_deal
        assert sum(play.counters) == total
        assert sum(play.tricks_won) == rules.tricks_per_deal
        assert Hand(c for t in play.tricks for c in t) == rules.deck.full()
        # every card played was legal, checked by the public functions on an independent walk
        steps = walk(rules, hands, stock, trump, leader, play.tricks)
        for (k, _, hand, _, _, _, allowed), card in zip(steps, (c for t in play.tricks for c in t), strict=True):
            assert card in hand and card in allowed, (k, card, allowed)
        # counters per seat from the winners the engine reports
        expect = [0] * rules.players
        for k, (trick, winner) in enumerate(zip(play.tricks, play.winners, strict=True)):
            assert trick_winner(rules, trick, trump) == (winner - play.leaders[k]) % rules.players
            expect[winner] += sum(rules.counter_value(c) for c in trick)
        expect[play.winners[-1]] += rules.last_trick
        assert play.counters == expect
        assert play.leaders == [leader, *play.winners[:-1]]
        again = replay_deal(rules, hands, trump, leader, play.tricks, stock=stock)
        assert (again.counters, again.winners, again.tricks_won) == (play.counters, play.winners, play.tricks_won)
        assert sum(play.side_counters(rules)) == total and sum(play.side_tricks(rules)) == rules.tricks_per_deal


def test_two_handed_stock_convention() -> None:
    rules = GAMES["two-handed"][0]
    rng = np.random.default_rng(7)
    hands, stock, trump, leader = random_deal(rules, rng)
    play = play_deal(rules, hands, trump, leader, random_strategy(rng), stock=stock)
    assert play.phases == ["stock"] * 12 + ["play-off"] * 12
    drawn = [card for d in play.draws for _, card in d]
    assert drawn == stock  # top first, the turned-up bottom card last
    for k, d in enumerate(play.draws[:12]):
        winner = play.winners[k]
        assert [seat for seat, _ in d] == [winner, 1 - winner]
    assert play.draws[11][1] == (1 - play.winners[11], stock[-1])  # the loser of trick 12 takes the trump card
    assert all(d == [] for d in play.draws[12:])


def test_turned_up_card_must_be_trump() -> None:
    rules = GAMES["two-handed"][0]
    hands, stock, _, _ = random_deal(rules, np.random.default_rng(3))
    wrong = next(s for s in rules.suits if s != stock[-1].suit)
    with pytest.raises(PlayError, match=f"the turned-up card \\(bottom of the stock\\) is {stock[-1]}"):
        replay_deal(rules, hands, wrong, 0, [], stock=stock, partial=True)


# --------------------------------------------------------------------------- reneges

# A single-deck deal built by hand; trump clubs.
ANN = "AS AS TS TS KS QS QS JS JS 9S 9S QH"
BOB = "KS AH AH TH TH KH KH QH JH JH 9H 9H"
CY = "AD AD TD TD KD KD QD QD JD JD 9D 9D"
DI = "AC AC TC TC KC KC QC QC JC JC 9C 9C"
NAMES = ["Ann", "Bob", "Cy", "Di"]


def built() -> list[Hand]:
    return [Hand.parse(h) for h in (ANN, BOB, CY, DI)]


@pytest.mark.parametrize(("trick", "message", "duty"), [
    ("AS 9H", "trick 1: Bob played 9♥ holding K♠ — must follow suit in ♠", "follow"),
    ("QH 9H", "trick 1: Bob played 9♥ holding A♥ 10♥ K♥ — must beat the Q♥ led", "beat"),
    ("AD", "trick 1: Ann played A♦, which is not in their hand", "not-held"),
])
def test_renege_detected(trick: str, message: str, duty: str) -> None:
    rules = GAMES["single-deck"][0]
    with pytest.raises(IllegalPlayError) as info:
        replay_deal(rules, built(), Suit.C, 0, [parse_cards(trick)], names=NAMES, partial=True)
    err = info.value
    assert str(err) == message
    assert (err.trick, err.ruling.duty, err.card) == (1, duty, parse_cards(trick)[-1])
    assert err.seat == len(parse_cards(trick)) - 1 and err.detail == message.removeprefix("trick 1: ")


def test_trump_renege() -> None:
    """Di, void in spades, discards a heart instead of trumping."""
    rules = GAMES["single-deck"][0]
    hands = built()
    hands[1] = Hand.parse("KS AH AH TH TH KH KH QH JH JH 9H 9C")
    hands[3] = Hand.parse("AC AC TC TC KC KC QC QC JC JC 9C 9H")
    with pytest.raises(IllegalPlayError) as info:
        replay_deal(rules, hands, Suit.C, 0, [parse_cards("9S KS AD 9H")], names=NAMES, partial=True)
    assert str(info.value) == "trick 1: Di played 9♥ holding A♣ 10♣ K♣ Q♣ J♣ 9♣ — void in ♠, must trump"
    assert (info.value.seat, info.value.ruling.duty) == (3, "trump")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_renege_is_found_where_it_happens(game: str) -> None:
    rules = GAMES[game][0]
    rng = np.random.default_rng(np.random.SeedSequence([11, len(game)]))
    found = 0
    for _ in range(10):
        hands, stock, trump, leader = random_deal(rules, rng)
        play = play_deal(rules, hands, trump, leader, random_strategy(rng), stock=stock)
        for k, seat, hand, so_far, _, _, allowed in walk(rules, hands, stock, trump, leader, play.tricks):
            wrong = [c for c in hand.distinct() if c not in allowed]
            if wrong:
                tricks = [list(t) for t in play.tricks]
                tricks[k][len(so_far)] = wrong[0]
                with pytest.raises(IllegalPlayError) as info:
                    replay_deal(rules, hands, trump, leader, tricks, stock=stock)
                err = info.value
                assert (err.trick, err.seat, err.card) == (k + 1, seat, wrong[0])
                assert err.ruling.duty in {"follow", "trump", "beat"}
                assert str(err).startswith(f"trick {k + 1}: seat {seat} played {wrong[0]} holding ")
                found += 1
                break
    assert found >= 8


# --------------------------------------------------------------------------- bad input

def test_incomplete_play_needs_partial() -> None:
    rules = GAMES["single-deck"][0]
    with pytest.raises(PlayError, match=r"^1 tricks given; a deal of single-deck has 12$"):
        replay_deal(rules, built(), Suit.C, 0, [parse_cards("9S KS AD AC")])
    with pytest.raises(PlayError, match=r"^trick 1 has 3 cards; a trick has 4$"):
        replay_deal(rules, built(), Suit.C, 0, [parse_cards("9S KS AD")])
    part = replay_deal(rules, built(), Suit.C, 0, [parse_cards("9S KS AD AC"), parse_cards("9C")], partial=True)
    assert isinstance(part, DealPlay) and not part.complete
    assert part.winners == [3] and part.counters == [0, 0, 0, 30] and part.tricks_won == [0, 0, 0, 1]


@pytest.mark.parametrize(("change", "message"), [
    (lambda h: h[:3], "^3 hands given; single-deck has 4 players$"),
    (lambda h: [h[0].remove(parse_card("AS")), *h[1:]], "^seat 0's hand has 11 cards; a hand in single-deck has 12$"),
    (lambda h: [h[0].remove(parse_card("9S")).add(parse_card("AS")), *h[1:]],
     r"^the hands together: 3 copies of A♠ \(AS\); the single-deck pack has 2$"),
])
def test_impossible_hands(change: object, message: str) -> None:
    rules = GAMES["single-deck"][0]
    with pytest.raises(PlayError, match=message):
        replay_deal(rules, change(built()), Suit.C, 0, [], partial=True)  # type: ignore[operator]


def test_stock_required_and_refused() -> None:
    th = GAMES["two-handed"][0]
    hands, stock, trump, _ = random_deal(th, np.random.default_rng(5))
    with pytest.raises(PlayError, match="two-handed has a stock"):
        replay_deal(th, hands, trump, 0, [], partial=True)
    with pytest.raises(PlayError, match="the stock has 23 cards; in two-handed it has 24"):
        replay_deal(th, hands, trump, 0, [], stock=stock[1:], partial=True)
    with pytest.raises(PlayError, match="single-deck has no stock, but 1 stock cards were given"):
        replay_deal(GAMES["single-deck"][0], built(), Suit.C, 0, [], stock=[parse_card("AS")], partial=True)


def test_strategy_must_play_a_legal_card() -> None:
    rules = GAMES["single-deck"][0]

    def cheat(state: DealState, legal: list[Card]) -> Card:
        hand = state.hand(state.turn.seat or 0)
        assert hand is not None
        return next(c for c in hand.distinct() if c not in legal) if state.trick else legal[0]

    with pytest.raises(PlayError, match=r"^trick 1: the strategy chose A♥ for seat 1; legal: K♠$"):
        play_deal(rules, built(), Suit.C, 0, cheat)


def test_state_seen_by_a_strategy() -> None:
    rules = GAMES["single-deck"][0]
    seen: list[tuple[int, int, int, int, int]] = []

    def first(state: DealState, legal: list[Card]) -> Card:
        seat = state.turn.seat
        assert seat is not None
        hand = state.hand(seat)
        assert hand is not None and hand.count(legal[0]) >= 1 and state.trump is Suit.C
        played = sum(len(state.played_by(s)) for s in range(rules.players))
        seen.append((state.trick_number, seat, state.leader, len(state.trick), played))
        return legal[0]

    play_deal(rules, built(), Suit.C, 2, first)
    assert seen[:5] == [(1, 2, 2, 0, 0), (1, 3, 2, 1, 1), (1, 0, 2, 2, 2), (1, 1, 2, 3, 3), (2, 3, 3, 0, 4)]
    assert len(seen) == 48


def test_opening_leader() -> None:
    assert opening_leader(GAMES["single-deck"][0], dealer=3, bidder=1) == 1
    assert opening_leader(GAMES["two-handed"][0], dealer=1) == 0
    with pytest.raises(PlayError, match="the bidder leads"):
        opening_leader(GAMES["double-deck"][0], dealer=0)
