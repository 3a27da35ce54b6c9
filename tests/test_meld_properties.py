"""Properties of the meld engine, and a cross-check against an independent brute-force solver."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochle_cli.cards import Card, Hand, Suit, parse_cards
from pinochle_cli.meld import MeldTable, meld, meld_table
from pinochle_cli.meld import components as meld_module
from pinochle_cli.ruleset import Ruleset, load_ruleset

VARIANTS = [
    ("two-handed", {}), ("single-deck", {}), ("single-deck-small", {}),
    ("single-deck-small", {"run-extra": "2"}), ("single-deck-small", {"run-extra": "4", "double-pinochle": "32"}),
    ("double-deck", {}),
]
RULES = [load_ruleset(name, opts) for name, opts in VARIANTS]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def brute_force(rules: Ruleset, cards: Sequence[Card], trump: Suit) -> int:
    """The best total by enumerating, class by class, every feasible number of copies of each instance."""
    held = Counter(c.index for c in cards)
    total = 0
    for klass in rules.meld_classes:
        options = [(combo, Counter(c.index for c in inst)) for combo in rules.meld if combo.klass == klass
                   for inst in combo.instances(trump, rules.suits)]

        def best(j: int, left: Counter[int], options: list = options) -> int:  # type: ignore[type-arg]
            if j == len(options):
                return 0
            combo, need = options[j]
            result, n, rest = 0, 0, Counter(left)
            while True:
                result = max(result, (combo.value(n) if n else 0) + best(j + 1, rest))
                if any(rest[c] < k for c, k in need.items()):
                    return result
                rest = Counter({c: rest[c] - need.get(c, 0) for c in rest})
                n += 1

        total += best(0, held)
    return total


@st.composite
def hands(draw: st.DrawFn, max_size: int | None = None) -> tuple[Ruleset, list[Card], Suit]:
    rules = draw(st.sampled_from(RULES))
    pack = rules.deck.cards()
    size = rules.hand_size if max_size is None else min(max_size, rules.hand_size)
    picks = draw(st.lists(st.integers(0, len(pack) - 1), unique=True, max_size=size))
    trump = draw(st.sampled_from(rules.suits))
    return rules, [pack[i] for i in picks], trump


@SETTINGS
@given(hands(), st.randoms(use_true_random=False))
def test_total_does_not_depend_on_card_order(case: tuple[Ruleset, list[Card], Suit], rnd) -> None:  # type: ignore[no-untyped-def]
    rules, cards, trump = case
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert meld(rules, shuffled, trump) == meld(rules, cards, trump)


@SETTINGS
@given(hands(), st.data())
def test_total_never_drops_when_a_card_is_added(case: tuple[Ruleset, list[Card], Suit], data: st.DataObject) -> None:
    rules, cards, trump = case
    held = Counter(cards)
    room = [c for c in dict.fromkeys(rules.deck.cards()) if held[c] < rules.deck.copies]
    extra = data.draw(st.sampled_from(room))
    table = meld_table(rules)
    before = table.total(Hand(cards).counts, trump)
    assert table.total(Hand([*cards, extra]).counts, trump) >= before


@SETTINGS
@given(hands())
def test_listed_items_sum_to_the_total_and_fit_the_hand_in_each_class(case: tuple[Ruleset, list[Card], Suit]) -> None:
    rules, cards, trump = case
    result = meld(rules, cards, trump)
    assert sum(m.points for m in result.melds) == result.total
    held = Counter(cards)
    by_name = {c.name: c for c in rules.meld}
    for klass in rules.meld_classes:
        used: Counter[Card] = Counter()
        for m in result.melds:
            if m.klass == klass:
                used.update(m.cards)
                combo = by_name[m.name]
                assert m.points == combo.points[m.copies - 1]
                assert any(Counter(inst * m.copies) == Counter(m.cards)
                           for inst in combo.instances(trump, rules.suits))
        assert all(used[c] <= held[c] for c in used)


@SETTINGS
@given(st.lists(hands(), min_size=1, max_size=8), st.sampled_from(list(Suit)))
def test_batch_equals_scalar_equals_meld(cases: list[tuple[Ruleset, list[Card], Suit]], trump: Suit) -> None:
    rules = cases[0][0]
    cards_list = [c for r, c, _ in cases if r is rules]
    table = meld_table(rules)
    counts = np.array([Hand(c).counts for c in cards_list])
    batch = table.total_batch(counts, trump).tolist()
    scalar = [table.total(Hand(c).counts, trump) for c in cards_list]
    full = [meld(rules, c, trump).total for c in cards_list]
    every = [table.totals(Hand(c).counts)[int(trump)] for c in cards_list]
    all_at_once = table.totals_batch(counts.astype(np.int8))[:, int(trump)].tolist()
    assert batch == scalar == full == every == all_at_once


@settings(max_examples=80, deadline=None)
@given(hands())
def test_fast_tables_agree_with_a_brute_force_solver(case: tuple[Ruleset, list[Card], Suit]) -> None:
    rules, cards, trump = case
    assert meld_table(rules).total(Hand(cards).counts, trump) == brute_force(rules, cards, trump)


@pytest.mark.parametrize("seed", range(3))
def test_full_double_deck_hands_agree_with_brute_force(seed: int) -> None:
    rules = load_ruleset("double-deck")
    rng = np.random.default_rng(seed)
    pack = rules.deck.cards()
    table = meld_table(rules)
    for _ in range(15):
        cards = [pack[i] for i in rng.choice(len(pack), rules.hand_size, replace=False)]
        for trump in rules.suits:
            assert table.total(Hand(cards).counts, trump) == brute_force(rules, cards, trump)


def test_brute_force_itself_prices_known_hands() -> None:
    # the reference must be right for the cross-check to mean anything
    rules = load_ruleset("single-deck")
    run = parse_cards("AH TH KH QH JH")
    assert brute_force(rules, run, Suit.H) == 150
    assert brute_force(rules, run * 2, Suit.H) == 1500
    assert brute_force(rules, [*run, Card.parse("KH"), Card.parse("QH")], Suit.H) == 230


@settings(max_examples=40, deadline=None)
@given(hands())
def test_the_search_fallback_for_untabulated_components_is_exact(
        case: tuple[Ruleset, list[Card], Suit]) -> None:
    rules, cards, trump = case
    saved = (meld_module.TABLE_LIMIT, meld_module._COMPONENTS)
    meld_module.TABLE_LIMIT, meld_module._COMPONENTS = 0, {}
    try:
        table = MeldTable(rules)
        assert not any(comp.tabulated for comp in table.plan(trump))
        counts = Hand(cards).counts
        expected = brute_force(rules, cards, trump)
        assert table.total(counts, trump) == expected
        assert table.total_batch(np.array([counts]), trump).tolist() == [expected]
        assert table.totals_batch(np.array([counts]))[0, int(trump)] == expected
        assert table.result(Hand(cards), trump).total == expected
    finally:
        meld_module.TABLE_LIMIT, meld_module._COMPONENTS = saved
