"""The compiled trick primitives agree with the reference engine (``tricks.py``) on random positions."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from pinochle_cli import trickcore
from pinochle_cli.cards import ALL_CARDS, Hand, Suit
from pinochle_cli.ruleset import Duty, Ruleset, bundled_names, load_ruleset
from pinochle_cli.tricks import legal_plays, partner_winning, trick_winner

EDITED_DUTIES = [  # duty lists the bundled files do not use, to cover every field of a duty
    (Duty("follow"), Duty("trump", only_if_winning=True), Duty("beat", partner=False)),
    (Duty("beat", when="trump-led"), Duty("follow"), Duty("trump", when="plain-led")),
    (Duty("trump", partner=False), Duty("beat", when="plain-led", partner=False)),
    (),
]


def _rulesets() -> list[tuple[str, Ruleset]]:
    # the games with fixed sides (the compiled engine's sides formed by an auction come with issue 23's solve step)
    out = [(name, load_ruleset(name)) for name in bundled_names() if not load_ruleset(name).sides_by_auction]
    sd = load_ruleset("single-deck")
    out += [(f"edited-{i}", dataclasses.replace(sd, play=dataclasses.replace(sd.play, duties=d)))
            for i, d in enumerate(EDITED_DUTIES)]
    return out


RULESETS = _rulesets()


def _position(rules: Ruleset, rnd: random.Random) -> tuple[Hand, list[int], int]:
    """A random hand for the next player, a random trick so far (from the other cards) and its leader."""
    pack = [c.index for c in rules.deck.cards()]
    rnd.shuffle(pack)
    size = rnd.randint(1, rules.hand_size)
    hand = Hand(ALL_CARDS[i] for i in pack[:size])
    trick = pack[size:size + rnd.randrange(rules.players)]
    return hand, trick, rnd.randrange(rules.players)


@pytest.mark.parametrize(("name", "rules"), RULESETS, ids=[n for n, _ in RULESETS])
def test_legal_winner_points_match_the_reference_engine(name: str, rules: Ruleset) -> None:
    rnd = random.Random(name)
    phases = ["stock", "play-off"] if rules.has_stock else [None]
    for trump in [*rules.suits, None]:
        core = trickcore.compile_rules(rules, trump)
        for _ in range(150):
            hand, trick, leader = _position(rules, rnd)
            cards = [ALL_CARDS[i] for i in trick]
            arr = np.array(trick + [0] * (4 - len(trick)), dtype=np.int64)
            partner = partner_winning(rules, trump, cards, leader)
            assert trickcore.partner_winning_compiled(core, leader, arr, len(trick)) == partner
            levels = trickcore.levels_from_counts(np.array(hand.counts, dtype=np.int64), core.copies)
            for phase in phases:
                duties = core.stock_duties if phase == "stock" else core.duties
                mask = trickcore.legal_mask(core, duties, int(levels[0]), arr, len(trick), partner)
                expected = legal_plays(rules, trump, cards, hand, phase=phase, leader_seat=leader)
                assert [ALL_CARDS[c] for c in range(24) if mask >> c & 1] == expected, (hand, cards, phase)
                assert trickcore.legal_cards(core.above, core.suit_mask, core.trump, duties, int(levels[0]), arr, len(trick),
                                      partner) == mask
            if trick:
                assert trickcore.winner_pos(core, arr, len(trick)) == trick_winner(rules, trump, cards)
                assert trickcore.winner_of(core.above, arr, len(trick)) == trick_winner(rules, trump, cards)
                assert trickcore.trick_points(core, arr, len(trick)) == sum(rules.counter_value(c) for c in cards)


@pytest.mark.parametrize("copies", [2, 4])
def test_levels_keep_counts(copies: int) -> None:
    rnd = np.random.default_rng(copies)
    for _ in range(50):
        counts = rnd.integers(0, copies + 1, 24).astype(np.int64)
        levels = trickcore.levels_from_counts(counts, copies)
        assert list(trickcore.levels_to_counts(levels)) == list(counts)
        assert trickcore.hand_size(levels) == counts.sum()
        c = int(rnd.integers(24))
        if counts[c] < copies:
            trickcore.hand_add(levels, c)
            assert trickcore.hand_count(levels, c) == counts[c] + 1
            trickcore.hand_remove(levels, c)
        if counts[c]:
            trickcore.hand_remove(levels, c)
            assert trickcore.hand_count(levels, c) == counts[c] - 1
        assert trickcore.hand_size(levels) == counts.sum() - (1 if counts[c] else 0)


def test_popcount() -> None:
    for x in [0, 1, 0xFFFFFF, 0xFFFFFFFF, 0x80000001, 0x12345678]:
        assert trickcore.popcount(x) == bin(x).count("1")


def test_duties_encode_every_field() -> None:
    rows = trickcore.encode_duties((Duty("beat", when="plain-led", partner=False), Duty("trump", only_if_winning=True)))
    assert rows.tolist() == [[trickcore.BEAT, trickcore.PLAIN_LED, 0, 0], [trickcore.TRUMP, trickcore.ALWAYS, 1, 1]]


def test_above_lists_the_cards_that_take_the_trick() -> None:
    core = trickcore.compile_rules(load_ruleset("single-deck"), Suit.H)
    ts, ah = 1, 6  # 10♠, A♠ is 0; A♥ is 6
    assert core.above[ts] >> 0 & 1 and not core.above[ts] >> ts & 1  # A♠ beats 10♠, its copy does not
    assert all(core.above[ts] >> c & 1 for c in range(6, 12))  # every trump does
    assert core.above[ah] == 0  # nothing beats the top trump


def test_lowest_card_and_iterating_a_mask() -> None:
    for mask in [1, 0b1010000, 1 << 23, 0xFFFFFF, 0x800001, 0x35A00C]:
        assert trickcore.lowest_card(mask) == (mask & -mask).bit_length() - 1
        cards, m = [], mask
        while m:
            cards.append(trickcore.lowest_card(m))
            m &= m - 1
        assert cards == [c for c in range(24) if mask >> c & 1]
