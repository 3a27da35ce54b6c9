"""Card notation: one parser, one formatter, hands as multisets, decks from rulesets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pinochle_cli.cards import (
    ALL_CARDS,
    Card,
    Deck,
    Hand,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
    parse_rank,
    parse_suit,
)
from pinochle_cli.errors import CardError

cards = st.sampled_from(ALL_CARDS)
card_lists = st.lists(cards, max_size=30)


@pytest.mark.parametrize(("text", "expected"), [
    ("AS", Card(Rank.A, Suit.S)), ("as", Card(Rank.A, Suit.S)), ("10h", Card(Rank.T, Suit.H)),
    ("Td", Card(Rank.T, Suit.D)), ("tD", Card(Rank.T, Suit.D)), ("9♣", Card(Rank.N, Suit.C)),
    ("K♥", Card(Rank.K, Suit.H)), ("q♠", Card(Rank.Q, Suit.S)), ("J♦️", Card(Rank.J, Suit.D)),
    (" 10C ", Card(Rank.T, Suit.C)),
])
def test_parse_card_accepts_every_notation(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


@pytest.mark.parametrize("text", ["XZ", "1S", "10", "S", "AX", "A S", "KK", "", "11H", "8S", "AS,"])
def test_parse_card_refuses_and_quotes_the_token(text: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(text)
    assert f'"{text}"' in str(err.value)


def test_parse_cards_separators() -> None:
    assert [c.ascii() for c in parse_cards("AS, 10h  Td,9♣,,K♥")] == ["AS", "TH", "TD", "9C", "KH"]
    assert parse_cards("") == []
    assert parse_cards(["AS KS", "QS"]) == [parse_card("AS"), parse_card("KS"), parse_card("QS")]


def test_bad_token_in_list_is_named() -> None:
    with pytest.raises(CardError, match='"XZ" is not a card'):
        parse_cards("AS KS XZ")


def test_formats() -> None:
    card = parse_card("10h")
    assert card.ascii() == "TH"
    assert str(card) == "10♥"
    assert format_cards(parse_cards("AS 9D")) == "A♠ 9♦"
    assert format_cards(parse_cards("AS 9D"), ascii=True, sep=",") == "AS,9D"


@pytest.mark.parametrize(("text", "suit"), [
    ("S", Suit.S), ("spades", Suit.S), ("Spade", Suit.S), ("♠", Suit.S), ("h", Suit.H), ("HEARTS", Suit.H),
    ("♦", Suit.D), ("clubs", Suit.C), ("♣️", Suit.C),
])
def test_parse_suit(text: str, suit: Suit) -> None:
    assert parse_suit(text) is suit


def test_parse_suit_and_rank_errors() -> None:
    with pytest.raises(CardError, match='"X" is not a suit'):
        parse_suit("X")
    with pytest.raises(CardError, match='"8" is not a rank'):
        parse_rank("8")


@given(cards)
def test_card_round_trips_through_both_forms(card: Card) -> None:
    assert parse_card(card.ascii()) == card
    assert parse_card(str(card)) == card
    assert Card.from_index(card.index) == card


@given(card_lists)
def test_card_list_round_trip(items: list[Card]) -> None:
    assert parse_cards(format_cards(items)) == items
    assert parse_cards(format_cards(items, ascii=True, sep=",")) == items


@given(card_lists)
def test_hand_is_an_order_free_multiset(items: list[Card]) -> None:
    hand = Hand(items)
    assert len(hand) == len(items)
    assert Hand(reversed(items)) == hand
    assert hash(Hand(reversed(items))) == hash(hand)
    assert list(hand) == sorted(items)
    assert Hand.parse(" ".join(hand.ascii())) == hand
    for card in set(items):
        assert hand.count(card) == items.count(card)


@given(card_lists, card_lists)
def test_hand_add_and_remove(a: list[Card], b: list[Card]) -> None:
    ha, hb = Hand(a), Hand(b)
    both = ha + hb
    assert len(both) == len(a) + len(b)
    assert both.remove(*b) == ha
    assert ha.issubset(both) and hb.issubset(both)
    assert (both - hb) == ha


def test_hand_remove_missing_card() -> None:
    with pytest.raises(KeyError):
        Hand.parse("AS").remove(parse_card("KS"))


def test_hand_sorted_by_suit_then_rank() -> None:
    assert Hand.parse("9C AS 10S KH AH QD").ascii() == ["AS", "TS", "AH", "KH", "QD", "9C"]


def test_deck_check() -> None:
    deck = Deck((Suit.S, Suit.H, Suit.D, Suit.C), (Rank.A, Rank.T, Rank.K, Rank.Q, Rank.J), 4, "the double-deck pack")
    assert deck.size == 80
    assert len(deck.full()) == 80
    with pytest.raises(CardError, match=r"9♠ \(9S\) is not in the double-deck pack"):
        deck.check(parse_cards("AS 9S"))
    with pytest.raises(CardError, match=r"5 copies of A♠ \(AS\); the double-deck pack has 4"):
        deck.check(parse_cards("AS AS AS AS AS"))
    assert deck.check(parse_cards("AS AS AS AS")).count(parse_card("AS")) == 4


REPR_NAMES = {"Card": Card, "Hand": Hand, "Rank": Rank, "Suit": Suit}


def test_card_repr_is_python_that_gives_it_back() -> None:
    assert repr(Card.parse("AS")) == "Card.parse('AS')"
    assert repr(Card.parse("10h")) == "Card.parse('TH')"
    for card in ALL_CARDS:
        assert eval(repr(card), REPR_NAMES) is card


def test_rank_and_suit_reprs_give_them_back() -> None:
    assert (repr(Suit.H), repr(Rank.N)) == ("Suit.H", "Rank.N")
    for value in [*Suit, *Rank]:
        assert eval(repr(value), REPR_NAMES) is value


def test_hand_repr_empty_and_with_copies() -> None:
    assert repr(Hand()) == "Hand.parse('')"
    assert repr(Hand.parse("TH AS AS")) == "Hand.parse('AS AS TH')"
    assert eval(repr(Hand()), REPR_NAMES) == Hand()


@given(st.lists(cards, max_size=48))
def test_hand_repr_round_trips(items: list[Card]) -> None:
    hand = Hand(items)
    assert eval(repr(hand), REPR_NAMES) == hand
