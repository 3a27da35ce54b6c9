"""The one definition of a trick's rules (``game.trick_rules``): each outcome of a duty, and its compiled copies
(``game.kernels``) answering exactly as the Python source does on random positions of every ruleset."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from pinochle_cli.cards import ALL_CARDS, N_CARDS, Card, Hand, Suit, parse_cards
from pinochle_cli.game import kernels
from pinochle_cli.game import trick_rules as tr
from pinochle_cli.game.tricks import partner_winning, trick_rules
from pinochle_cli.ruleset import Duty, Ruleset, bundled_names, load_ruleset

EDITED_DUTIES = [  # duty lists the bundled files do not use, to cover every field of a duty
    (Duty("follow"), Duty("trump", only_if_winning=True), Duty("beat", partner=False)),
    (Duty("beat", when="trump-led"), Duty("follow"), Duty("trump", when="plain-led")),
    (Duty("trump", partner=False), Duty("beat", when="plain-led", partner=False)),
    (),
]


def _rulesets() -> list[tuple[str, Ruleset]]:
    out = [(name, load_ruleset(name)) for name in bundled_names()]
    sd = load_ruleset("single-deck")
    out += [(f"edited-{i}", dataclasses.replace(sd, play=dataclasses.replace(sd.play, duties=d)))
            for i, d in enumerate(EDITED_DUTIES)]
    return out


RULESETS = _rulesets()


def mask(cards: str) -> int:
    return sum(1 << c.index for c in parse_cards(cards))


def outcomes(duties: tuple[Duty, ...], hand: str, trick: str, trump: Suit = Suit.H,
             partner: bool = False) -> list[tuple[int, str]]:
    """Each duty's outcome for ``hand`` after ``trick``, with the cards it leaves."""
    rules = dataclasses.replace(load_ruleset("single-deck"), play=dataclasses.replace(
        load_ruleset("single-deck").play, duties=duties))
    t = trick_rules(rules, trump)
    idx = [c.index for c in parse_cards(trick)]
    led = idx[0] // 6
    out, allowed = [], mask(hand)
    for i in range(len(duties)):
        code, allowed = tr.duty_outcome(t.duties, i, mask(hand), allowed, t.suit_mask[led], t.suit_mask[int(trump)],
                                        led == int(trump), t.above[idx[t.winner(idx)]], partner)
        out.append((code, " ".join(c.ascii() for c in ALL_CARDS if allowed >> c.index & 1)))
    return out


# --------------------------------------------------------------------------- each outcome

def test_follow_narrows_to_the_suit_led_or_finds_none() -> None:
    assert outcomes((Duty("follow"),), "AS 9S KD", "QS") == [(tr.NARROWS, "AS 9S")]
    assert outcomes((Duty("follow"),), "KD 9C", "QS") == [(tr.NONE_HELD, "KD 9C")]


def test_trump_applies_only_when_void_in_the_suit_led() -> None:
    assert outcomes((Duty("trump"),), "AS 9H", "QS") == [(tr.INAPPLICABLE, "AS 9H")]
    assert outcomes((Duty("trump"),), "KD 9H", "QS") == [(tr.NARROWS, "9H")]
    assert outcomes((Duty("trump"),), "KD 9C", "QS") == [(tr.NONE_HELD, "KD 9C")]


def test_trump_only_if_winning_lapses_when_no_trump_held_would_win() -> None:
    duty = (Duty("trump", only_if_winning=True),)
    assert outcomes(duty, "KD 9H", "QS AH") == [(tr.CANNOT_WIN, "9H KD")]
    assert outcomes(duty, "KD 9H", "QS") == [(tr.NARROWS, "9H")]


def test_beat_narrows_to_the_cards_that_take_the_trick() -> None:
    assert outcomes((Duty("beat"),), "AS 9S", "QS") == [(tr.NARROWS, "AS")]
    # a plain lead already trumped: nothing of the suit led can beat it
    assert outcomes((Duty("follow"), Duty("beat")), "AS 9S", "QS 9H") == [(tr.NARROWS, "AS 9S"),
                                                                         (tr.NONE_HELD, "AS 9S")]
    # of identical cards the one played first wins
    assert outcomes((Duty("beat"),), "AS 9S", "AS") == [(tr.NONE_HELD, "AS 9S")]


def test_a_duty_lapses_on_the_other_lead_and_for_the_partner() -> None:
    assert outcomes((Duty("beat", when="trump-led"),), "AS 9S", "QS") == [(tr.LAPSED_LEAD, "AS 9S")]
    assert outcomes((Duty("beat", when="plain-led"),), "AH 9H", "QH") == [(tr.LAPSED_LEAD, "AH 9H")]
    assert outcomes((Duty("beat", partner=False),), "AS 9S", "QS", partner=True) == [(tr.LAPSED_PARTNER, "AS 9S")]
    assert outcomes((Duty("beat"),), "AS 9S", "QS", partner=True) == [(tr.NARROWS, "AS")]


def test_each_duty_narrows_what_the_earlier_left() -> None:
    # single-deck: follow, beat, trump — void in spades: the beat duty keeps the trumps, the trump duty agrees
    rules = load_ruleset("single-deck")
    assert outcomes(rules.play.duties, "KD 9H JH", "QS") == [(tr.NONE_HELD, "JH 9H KD"), (tr.NARROWS, "JH 9H"),
                                                            (tr.NARROWS, "JH 9H")]


def test_the_winner_is_the_highest_trump_or_the_highest_of_the_suit_led_first_played() -> None:
    t = trick_rules(load_ruleset("single-deck"), Suit.H)
    for trick, winner in [("KS AS 9S QS", 1), ("KS AS 9H QS", 2), ("AS AS TS", 0), ("KS KD AD 9H", 3),
                          ("9H AS TH AH", 3)]:
        assert t.winner([c.index for c in parse_cards(trick)]) == winner, trick


def test_the_duties_encode_every_field() -> None:
    rows = tr.encode((Duty("beat", when="plain-led", partner=False), Duty("trump", only_if_winning=True)))
    assert rows == (tr.BEAT, tr.PLAIN_LED, 0, 0, tr.TRUMP, tr.ALWAYS, 1, 1)


def test_strength_and_above() -> None:
    rules = load_ruleset("double-deck")  # no nines
    strength = tr.strengths(rules.rank_order, (c.index for c in rules.deck.full()))
    assert strength[Card.parse("AS").index] == 5 and strength[Card.parse("JS").index] == 1
    assert strength[Card.parse("9S").index] == 0
    above = tr.above_masks(strength, int(Suit.H))
    assert above[Card.parse("TS").index] == mask("AS AH TH KH QH JH")
    assert above[Card.parse("AH").index] == 0


@pytest.mark.parametrize(("duties", "shows"), [
    ((Duty("follow"), Duty("beat"), Duty("trump")), True),
    ((Duty("follow"), Duty("trump"), Duty("beat")), True),
    ((Duty("follow"), Duty("trump", only_if_winning=True), Duty("beat")), False),
    ((Duty("follow"), Duty("trump", partner=False), Duty("beat", partner=False)), False),
    ((Duty("follow"), Duty("trump", when="trump-led")), False),
    ((Duty("follow"), Duty("beat")), False),
    ((), False),
])
def test_a_void_shows_no_trump_as_the_duties_say(duties: tuple[Duty, ...], shows: bool) -> None:
    assert tr.void_shows_no_trump(tr.encode(duties)) is shows


# --------------------------------------------------------------------------- the compiled copies

def _position(rules: Ruleset, rnd: random.Random) -> tuple[Hand, list[int], int]:
    """A random hand for the next player, a random trick so far (from the other cards) and its leader."""
    pack = [c.index for c in rules.deck.cards()]
    rnd.shuffle(pack)
    size = rnd.randint(1, rules.hand_size)
    hand = Hand(ALL_CARDS[i] for i in pack[:size])
    trick = pack[size:size + rnd.randrange(rules.players)]
    return hand, trick, rnd.randrange(rules.players)


@pytest.mark.parametrize(("name", "rules"), RULESETS, ids=[n for n, _ in RULESETS])
def test_the_compiled_rules_answer_as_the_source(name: str, rules: Ruleset) -> None:
    rnd = random.Random(name)
    phases = ["stock", "play-off"] if rules.has_stock else [None]
    bidder = 0 if rules.sides_by_auction else None
    for trump in [*rules.suits, None]:
        for phase in phases:
            t = trick_rules(rules, trump, phase)
            arrays = (np.array(t.above, dtype=np.uint32), np.array(t.suit_mask, dtype=np.uint32),
                      np.array(t.duties, dtype=np.int64))
            for _ in range(150):
                hand, trick, leader = _position(rules, rnd)
                partner = partner_winning(rules, [ALL_CARDS[i] for i in trick], trump, leader, bidder)
                held = sum(1 << c.index for c in hand)
                arr = np.array(trick + [0] * (rules.players - len(trick)), dtype=np.int64)
                expected = t.legal(held, trick, partner)
                got = kernels.legal_in_trick(arrays[0], arrays[1], t.trump, arrays[2], held, arr, len(trick), partner)
                assert got == expected, (hand, trick, phase)
                assert expected & held == expected and (expected or not held)


def test_compile_rules_is_the_play_off_rules_as_arrays() -> None:
    rules = load_ruleset("single-deck")
    core = kernels.compile_rules(rules, int(Suit.H))
    t = trick_rules(rules, Suit.H)
    assert tuple(core.above) == t.above and tuple(core.duties) == t.duties and tuple(core.strength) == t.strength


def test_popcount_and_the_lowest_card() -> None:
    for x in [0, 1, 0xFFFFFF, 0xFFFFFFFF, 0x80000001, 0x12345678]:
        assert kernels.popcount(x) == bin(x).count("1")
    for m in [1, 0b1010000, 1 << 23, 0xFFFFFF, 0x800001, 0x35A00C]:
        assert kernels.lowest_card(m) == (m & -m).bit_length() - 1
    assert N_CARDS == 24
