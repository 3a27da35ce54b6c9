"""Two-handed declarations: one combination (or one double) at a time, each card once per class."""

from __future__ import annotations

import pytest

from pinochle_cli.cards import Hand, Suit, parse_cards
from pinochle_cli.errors import CardError, MeldError
from pinochle_cli.meld import Declaration, check_declaration
from pinochle_cli.ruleset import load_ruleset

RULES = load_ruleset("two-handed")
HAND = "AS TS KS QS JS QS JD JD KH QH 9S 9S"


def declare(cards: str, earlier: tuple[str, ...] = (), hand: str = HAND, trump: Suit = Suit.S,
            rules: str = "two-handed") -> Declaration:
    return check_declaration(load_ruleset(rules), Hand(parse_cards(hand)), trump, parse_cards(cards),
                             [parse_cards(e) for e in earlier])


@pytest.mark.parametrize(("cards", "earlier", "hand", "name", "points", "copies"), [
    ("KS QS", (), HAND, "trump marriage", 40, 1),
    ("AS TS KS QS JS", (), HAND, "run", 150, 1),
    ("KH QH", (), HAND, "marriage", 20, 1),
    ("9S", (), HAND, "dix", 10, 1),
    ("9S", ("9S",), HAND, "dix", 10, 1),                                 # the other nine: another dix
    ("QS JD", (), HAND, "pinochle", 40, 1),
    ("QS QS JD JD", (), HAND, "pinochle", 300, 2),                       # a double, declared together
    ("QS JD", ("QS JD",), HAND, "pinochle", 40, 1),                      # after a single: another single
    ("KH QH", ("KS KH KD KC",), HAND + " KD KC", "marriage", 20, 1),     # kings around is another class
    ("QS JD", ("AS TS KS QS JS",), HAND, "pinochle", 40, 1),             # the run's Q♠ still makes a pinochle
    ("AS AS TS TS KS KS QS QS JS JS", (), "AS AS TS TS KS KS QS QS JS JS", "run", 1500, 2),
    ("KS KS QS QS", (), "KS KS QS QS", "trump marriage", 80, 2),
])
def test_allowed_declarations(cards: str, earlier: tuple[str, ...], hand: str, name: str, points: int,
                              copies: int) -> None:
    result = declare(cards, earlier, hand)
    assert (result.valid, result.name, result.points, result.copies) == (True, name, points, copies)
    assert result.reason == f"allowed: {'double ' if copies == 2 else ''}{name} scores {points}"


@pytest.mark.parametrize(("cards", "earlier", "hand", "name", "reason"), [
    ("KC QC", (), HAND, "marriage", "K♣ is not in your hand"),
    ("QS QS JD JD", (), "QS JD JD", "pinochle", "only 1 Q♠ in your hand; this declaration needs 2"),
    ("KS JD", (), HAND, None, "K♠ J♦: not a combination of the two-handed meld table"),
    ("AS TS KS QS", (), HAND, None, "A♠ 10♠ K♠ Q♠: not a combination of the two-handed meld table"),
    ("9S 9S", (), HAND, None,
     "9♠ 9♠: 2 × dix is 2 declarations, not one (the table prices at most 1 declared together)"),
    ("QS JD", ("KS QS", "QS JD"), "KS QS JD JD", "pinochle",
     "Q♠ already scored in the pinochles class (pinochle, declaration 2)"),
    # the K and Q inside a run never count again as a marriage
    ("KS QS", ("AS TS KS QS JS",), HAND, "trump marriage",
     "K♠ already scored in the family class (run, declaration 1)"),
    ("AS TS KS QS JS", ("KS QS",), HAND, "run", "K♠ already scored in the family class (trump marriage, declaration 1)"),
    ("QS QS JD JD", ("QS JD",), HAND, "pinochle",
     "a double pinochle needs both copies declared before any single pinochle was scored (declaration 1 scored "
     "one); now each copy scores only as another single pinochle (40)"),
    ("KS KS QS QS", ("KS QS",), "KS KS QS QS", "trump marriage",
     "a double trump marriage needs both copies declared before any single trump marriage was scored "
     "(declaration 1 scored one); now each copy scores only as another single trump marriage (40)"),
])
def test_refused_declarations_say_why(cards: str, earlier: tuple[str, ...], hand: str, name: str | None,
                                      reason: str) -> None:
    result = declare(cards, earlier, hand)
    assert (result.valid, result.name, result.points, result.reason) == (False, name, 0, reason)


def test_a_plain_marriage_double_after_another_suits_single_is_allowed() -> None:
    result = declare("KH KH QH QH", ("KD QD",), "KH KH QH QH KD QD")
    assert (result.valid, result.name, result.points) == (True, "marriage", 40)


def test_declarations_follow_the_data_in_any_ruleset() -> None:
    # double-deck: a triple run is one declaration worth 225
    result = declare(" ".join(["AH TH KH QH JH"] * 3), (), " ".join(["AH TH KH QH JH"] * 3), Suit.H, "double-deck")
    assert (result.valid, result.name, result.points, result.copies) == (True, "run", 225, 3)


@pytest.mark.parametrize(("earlier", "message"), [
    (("QS KD",), "earlier declaration 1 (Q♠ K♦): not a combination of the two-handed meld table"),
    (("KS QS", "KS QS", "KS QS"),
     "earlier declaration 3 (K♠ Q♠) could not have scored: K♠ already scored in the family class "
     "(trump marriage, declaration 1; trump marriage, declaration 2)"),
    (("QS JD", "QS QS JD JD"),
     "earlier declaration 2 (Q♠ Q♠ J♦ J♦) could not have scored: a double pinochle needs both copies declared "
     "before any single pinochle was scored (declaration 1 scored one); now each copy scores only as another "
     "single pinochle (40)"),
])
def test_an_impossible_earlier_declaration_is_bad_input(earlier: tuple[str, ...], message: str) -> None:
    with pytest.raises(MeldError) as err:
        declare("9S", earlier)
    assert str(err.value) == message


def test_cards_outside_the_pack_are_bad_input() -> None:
    with pytest.raises(CardError, match="3 copies of 9♦"):
        declare("9D 9D 9D")
    with pytest.raises(CardError, match="9♠"):
        declare("9S", hand="AS", rules="double-deck")
