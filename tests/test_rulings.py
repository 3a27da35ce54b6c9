"""Why an allowed card may go: every duty weighed, in the words a refusal uses (tricks.check_play)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_cli.cards import Card, parse_card, parse_cards, parse_suit
from pinochle_cli.game.tricks import check_play, legal_plays
from pinochle_cli.ruleset import load_ruleset


@pytest.mark.parametrize(("game", "options", "hand", "trick", "card", "reason"), [
    ("single-deck", {}, "AS 10S QS", "KS", "AS", "you hold ♠ and you must beat the K♠, so A♠ or 10♠ may go"),
    ("single-deck", {}, "QS 9S KD", "AS", "9S", "you hold ♠ and you cannot beat the A♠, so any ♠ may go"),
    ("single-deck", {}, "9H KD", "AS", "9H", "you hold no ♠ and you must trump, so 9♥ may go"),
    ("single-deck", {}, "9H AH KD", "AS 10H", "AH", "you hold no ♠, you must trump and you must beat the 10♥, so A♥ may go"),
    ("single-deck", {}, "KD QC", "AS", "QC", "you hold no ♠, you hold no trump and you cannot beat the A♠, so any card may go"),
    ("single-deck", {"must-trump": "if-it-wins"}, "9H KD", "AS AH", "KD",
     "you hold no ♠ and your trumps cannot beat the A♥, so any card may go"),
    ("single-deck", {"beat-partner": "no"}, "AS QS", "KS 9S", "QS",
     "you hold ♠ and you need not beat your partner's K♠, so any card may go"),
    ("single-deck-small", {"overtake": "trump-lead"}, "AS QS KD", "KS", "QS",
     "you hold ♠ and you need not beat on a plain lead, so any ♠ may go"),
    ("single-deck", {}, "AS", "", "AS", "the leader may play any card"),
])
def test_allowed_reason(game: str, options: dict[str, str], hand: str, trick: str, card: str, reason: str) -> None:
    ruling = check_play(load_ruleset(game, options), load_ruleset(game).deck.check(
        parse_cards(hand)), parse_card(card), parse_cards(trick), parse_suit("H"))
    assert ruling.allowed
    assert ruling.reason == reason
    assert bool(ruling.because) == bool(trick)
    assert all(text in reason for _, text in ruling.because)


def test_a_refusal_keeps_its_words() -> None:
    rules = load_ruleset("single-deck")
    ruling = check_play(rules, rules.deck.check(parse_cards("AS 9S")), parse_card("9S"), parse_cards("KS"),
                        parse_suit("H"))
    assert (ruling.allowed, ruling.reason, ruling.because) == (False, "A♠ beats the K♠ and you must beat it", ())


@settings(max_examples=150, deadline=None)
@given(deal=st.permutations(list(load_ruleset("single-deck").deck.cards())), size=st.integers(1, 12),
       played=st.integers(1, 3), trump=st.sampled_from("SHDC"),
       options=st.fixed_dictionaries({"must-trump": st.sampled_from(["always", "if-it-wins"]),
                                      "beat-partner": st.sampled_from(["yes", "no"])}))
def test_every_legal_card_is_allowed_with_a_reason_that_names_the_legal_cards(
        deal: list[Card], size: int, played: int, trump: str, options: dict[str, str]) -> None:
    rules = load_ruleset("single-deck", options)
    hand, trick = rules.deck.check(deal[:size]), deal[size:size + played]
    legal = legal_plays(rules, hand, trick, parse_suit(trump))
    for card in legal:
        ruling = check_play(rules, hand, card, trick, parse_suit(trump))
        assert ruling.allowed and ruling.because
        went = ruling.reason.rsplit(", so ", 1)[1]
        if len(legal) == len(set(hand)):
            assert went == "any card may go"
        elif not went.startswith("any "):
            assert went == " or ".join([", ".join(str(c) for c in legal[:-1]), str(legal[-1])]
                                       if len(legal) > 1 else [str(legal[0])]) + " may go"
