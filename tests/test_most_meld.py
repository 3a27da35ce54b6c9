"""``most_meld``: the most meld one hand of a ruleset can show, exact — a hand shows it, no hand shows more."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_cli.cards import Hand
from pinochle_cli.meld import meld, meld_by_trump, most_meld
from pinochle_cli.ruleset import load_ruleset

GAMES = [("single-deck", {}), ("single-deck-small", {"run-extra": "4"}), ("double-deck", {}), ("two-handed", {}),
         ("single-deck-small", {"double-pinochle": "32"})]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_hand_shows_the_most(game, options):
    rules = load_ruleset(game, options)
    most = most_meld(rules)
    assert len(most.hand) <= rules.hand_size
    assert most.trump is not None and meld(rules, most.hand, most.trump).total == most.total


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_no_card_changed_shows_more(game, options):
    """A hand of hand_size cards with the most: no one card exchanged for another, under any trump, shows more."""
    rules = load_ruleset(game, options)
    most = most_meld(rules)
    hand = list(most.hand)
    rest = list(Hand(rules.deck.cards()) - Hand(hand))
    random.Random(0).shuffle(rest)
    hand += rest[:rules.hand_size - len(hand)]
    rest = rest[rules.hand_size - len(hand):]
    for i in range(len(hand)):
        for card in set(rest):
            swapped = Hand([*hand[:i], card, *hand[i + 1:]])
            assert max(r.total for r in meld_by_trump(rules, swapped).values()) <= most.total


def test_known_maxima():
    # single-deck: a double run (1500) and a double pinochle (300) in 12 cards
    assert most_meld(load_ruleset("single-deck")).total == 1800


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(GAMES), st.randoms(use_true_random=False))
def test_no_hand_dealt_shows_more(game_options, rng):
    game, options = game_options
    rules = load_ruleset(game, options)
    hand = rng.sample(rules.deck.cards(), rules.hand_size)
    assert max(r.total for r in meld_by_trump(rules, hand).values()) <= most_meld(rules).total
