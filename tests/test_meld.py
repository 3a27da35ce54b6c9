"""The exact meld engine: hand → total tables for every combination and interaction of the
meld tables (docs/games/NAME.md).

Expected totals are worked out by hand from the meld tables (comments give the sum), never from the engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from rulesethelp import EditRuleset

from pinochle_cli.cards import Hand, Suit, parse_cards, parse_suit
from pinochle_cli.errors import CardError
from pinochle_cli.meld import MeldItem, MeldResult, check_cards, meld, meld_by_trump, meld_table
from pinochle_cli.ruleset import load_ruleset

RUN_H = "AH TH KH QH JH"

CASES = [
    # ---- single-deck (tens)
    ("single-deck", {}, RUN_H, "H", 150),                                   # run
    ("single-deck", {}, RUN_H + " KH", "H", 190),                           # run + extra K
    ("single-deck", {}, RUN_H + " QH", "H", 190),                           # run + extra Q
    ("single-deck", {}, RUN_H + " KH QH", "H", 230),                        # run + extra K and Q
    ("single-deck", {}, RUN_H + " " + RUN_H, "H", 1500),                    # double run, not 2 × 150
    ("single-deck", {}, RUN_H + " " + RUN_H + " 9H 9H", "H", 1520),         # double run + 2 dix
    ("single-deck", {}, "AS TS KS QS JS", "H", 20),                         # a run off trump is a marriage
    ("single-deck", {}, "KH QH", "H", 40),                                  # trump marriage
    ("single-deck", {}, "KH KH QH QH", "H", 80),                            # both trump marriages
    ("single-deck", {}, "KS QS", "H", 20),                                  # plain marriage
    ("single-deck", {}, "KS QS KS QS", "H", 40),                            # both plain marriages
    ("single-deck", {}, "KS QD", "H", 0),                                   # K and Q of different suits
    ("single-deck", {}, "9H", "H", 10),                                     # dix
    ("single-deck", {}, "9H 9H", "H", 20),                                  # dix per copy
    ("single-deck", {}, "9S 9D 9C", "H", 0),                                # nines off trump
    ("single-deck", {}, "AS AH AD AC", "H", 100),                           # aces around
    ("single-deck", {}, "AS AH AD AC AS AH AD AC", "C", 1000),              # double aces
    ("single-deck", {}, "AS AH AD AC AS AH AD", "C", 100),                  # one ace short of double
    ("single-deck", {}, "KS KH KD KC", "S", 80),                            # kings around (no Q: no marriage)
    ("single-deck", {}, "KS KH KD KC KS KH KD KC", "S", 800),               # double kings
    ("single-deck", {}, "QS QH QD QC", "S", 60),                            # queens around
    ("single-deck", {}, "QS QH QD QC QS QH QD QC", "S", 600),               # double queens
    ("single-deck", {}, "JS JH JD JC", "S", 40),                            # jacks around (no Q♠: no pinochle)
    ("single-deck", {}, "JS JH JD JC JS JH JD JC", "S", 400),               # double jacks
    ("single-deck", {}, "QS JD", "H", 40),                                  # pinochle
    ("single-deck", {}, "JD JD QS QS", "H", 300),                           # double pinochle
    ("single-deck", {}, "JD QS QS", "H", 40),                               # one pinochle only
    ("single-deck", {}, "KS QS KH QH KD QD KC QC", "H", 240),               # round robin
    ("single-deck", {}, "KC KD KH KS QC", "C", 120),                        # kings around + trump marriage
    ("single-deck", {}, RUN_H + " AS AD AC", "H", 250),                     # run 150 + aces 100 (AH twice)
    ("single-deck", {}, "AD TD KD QD JD JD QS QS", "D", 450),               # run 150 + double pinochle 300
    ("single-deck", {}, "AD TD KD QD JD QS", "D", 190),                     # run 150 + pinochle 40
    ("single-deck", {}, "AD TD KD QD JD QS QH QC", "D", 250),               # run 150 + queens 60 + pinochle 40
    ("single-deck", {}, "", "S", 0),                                        # nothing laid down
    # ---- two-handed
    ("two-handed", {}, RUN_H, "H", 150),
    ("two-handed", {}, RUN_H + " KH", "H", 150),                            # no run-extra rows: lone K is nothing
    ("two-handed", {}, RUN_H + " KH QH", "H", 190),                         # run 150 + trump marriage 40
    ("two-handed", {}, RUN_H + " " + RUN_H, "H", 1500),                     # double run
    ("two-handed", {}, "KH QH KH QH", "H", 80),                             # double trump marriage
    ("two-handed", {}, "KS QS KS QS", "H", 40),                             # double plain marriage
    ("two-handed", {}, "AS AH AD AC AS AH AD AC", "H", 1000),               # double aces
    ("two-handed", {}, "KS KH KD KC KS KH KD KC", "H", 800),                # double kings (no Q: no marriage)
    ("two-handed", {}, "QS JD QS JD", "H", 300),                            # double pinochle
    ("two-handed", {}, "9H 9H QS JD", "H", 60),                             # 2 dix 20 + pinochle 40
    # ---- single-deck-small (units); options
    ("single-deck-small", {}, RUN_H, "H", 15),
    ("single-deck-small", {}, RUN_H + " " + RUN_H, "H", 150),
    ("single-deck-small", {}, "KH QH", "H", 4),
    ("single-deck-small", {}, "KS QS", "H", 2),
    ("single-deck-small", {}, "9H 9H", "H", 2),
    ("single-deck-small", {}, "QS JD", "H", 4),
    ("single-deck-small", {}, "QS JD QS JD", "H", 30),
    ("single-deck-small", {"double-pinochle": "32"}, "QS JD QS JD", "H", 32),
    ("single-deck-small", {"double-pinochle": "32"}, "QS JD", "H", 4),
    ("single-deck-small", {}, "AS AH AD AC", "H", 10),
    ("single-deck-small", {}, "AS AH AD AC AS AH AD AC", "H", 100),
    ("single-deck-small", {}, "KS KH KD KC", "C", 8),
    ("single-deck-small", {}, "KS KH KD KC KS KH KD KC", "C", 80),
    ("single-deck-small", {}, "QS QH QD QC", "C", 6),
    ("single-deck-small", {}, "QS QH QD QC QS QH QD QC", "C", 60),
    ("single-deck-small", {}, "JS JH JD JC", "C", 4),
    ("single-deck-small", {}, "JS JH JD JC JS JH JD JC", "C", 40),
    ("single-deck-small", {}, "TS TH TD TC TS TH TD TC", "C", 0),          # tens around: nothing
    ("single-deck-small", {}, "AD TD KD QD JD QC QH QS KH 9D", "D", 28),   # 15 + 1 + 2 + 6 + 4
    ("single-deck-small", {}, "KS QS KH QH KD QD KC QC", "H", 24),         # 4 + 3×2 + 8 + 6
    ("single-deck-small", {"run-extra": "0"}, RUN_H + " KH", "H", 15),
    ("single-deck-small", {"run-extra": "0"}, RUN_H + " QH", "H", 15),
    ("single-deck-small", {"run-extra": "0"}, RUN_H + " KH QH", "H", 19),  # run 15 + trump marriage 4
    ("single-deck-small", {"run-extra": "2"}, RUN_H + " KH", "H", 17),
    ("single-deck-small", {"run-extra": "2"}, RUN_H + " QH", "H", 17),
    ("single-deck-small", {"run-extra": "2"}, RUN_H + " KH QH", "H", 19),
    ("single-deck-small", {"run-extra": "4"}, RUN_H + " KH", "H", 19),
    ("single-deck-small", {"run-extra": "4"}, RUN_H + " QH", "H", 19),
    ("single-deck-small", {"run-extra": "4"}, RUN_H + " KH QH", "H", 23),
    ("single-deck-small", {"run-extra": "4"}, RUN_H + " " + RUN_H, "H", 150),  # nothing extra beside a double
    # ---- double-deck
    ("double-deck", {}, RUN_H, "H", 15),
    ("double-deck", {}, " ".join([RUN_H] * 2), "H", 150),
    ("double-deck", {}, " ".join([RUN_H] * 3), "H", 225),
    ("double-deck", {}, " ".join([RUN_H] * 4), "H", 300),
    ("double-deck", {}, RUN_H + " KH", "H", 15),                            # a lone extra K: nothing
    ("double-deck", {}, RUN_H + " KH QH", "H", 19),                         # run 15 + trump pair 4
    ("double-deck", {}, RUN_H + " KH QH KH QH KH QH", "H", 27),             # run 15 + 3 trump pairs
    ("double-deck", {}, " ".join([RUN_H] * 2) + " KH QH KH QH", "H", 158),  # double run 150 + 2 × 4
    ("double-deck", {}, " ".join([RUN_H] * 3) + " KH QH", "H", 229),        # triple run 225 + 4
    ("double-deck", {}, "KH QH", "H", 4),
    ("double-deck", {}, "KS QS KS QS KS QS", "H", 6),                       # 3 plain pairs × 2
    ("double-deck", {}, "AS AH AD AC", "S", 10),
    ("double-deck", {}, " ".join(["AS AH AD AC"] * 2), "S", 100),
    ("double-deck", {}, " ".join(["AS AH AD AC"] * 3), "S", 150),
    ("double-deck", {}, " ".join(["AS AH AD AC"] * 4), "S", 200),
    ("double-deck", {}, " ".join(["AS AH AD AC"] * 3) + " AS", "S", 150),   # the fourth set is short
    ("double-deck", {}, " ".join(["KS KH KD KC"] * 3), "S", 120),
    ("double-deck", {}, " ".join(["KS KH KD KC"] * 4), "S", 160),
    ("double-deck", {}, " ".join(["QS QH QD QC"] * 4), "S", 120),
    ("double-deck", {}, " ".join(["JS JH JD JC"] * 2), "S", 40),
    ("double-deck", {}, " ".join(["JS JH JD JC"] * 3), "S", 60),
    ("double-deck", {}, " ".join(["JS JH JD JC"] * 4), "S", 80),
    ("double-deck", {}, "QS JD", "H", 4),
    ("double-deck", {}, "QS JD QS JD", "H", 30),
    ("double-deck", {}, "QS JD QS JD QS JD", "H", 60),
    ("double-deck", {}, "QS JD QS JD QS JD QS JD", "H", 90),
    ("double-deck", {}, "QS QS QS JD", "H", 4),
    # 2 × kings and queens around (160: kings 80 + queens 60 + trump pairs 2×4 + plain pairs 6×2 = 160) + double pinochle
    ("double-deck", {}, " ".join(["KS KH KD KC QS QH QD QC"] * 2), "H", 80 + 60 + 8 + 12),
    ("double-deck", {}, " ".join(["KS KH KD KC QS QH QD QC"] * 2) + " JD JD", "H", 80 + 60 + 8 + 12 + 30),
    ("double-deck", {}, " ".join(["AS AH AD AC"] * 4) + " KS KH KD KC", "C", 200 + 8),
]


@pytest.mark.parametrize(("ruleset", "options", "cards", "trump", "total"), CASES)
def test_meld_total(ruleset: str, options: dict[str, str], cards: str, trump: str, total: int) -> None:
    rules = load_ruleset(ruleset, options)
    result = meld(rules, parse_cards(cards), parse_suit(trump))
    assert result.total == total
    assert sum(m.points for m in result.melds) == total
    table = meld_table(rules)
    counts = Hand(parse_cards(cards)).counts
    assert table.total(counts, parse_suit(trump)) == total
    assert table.totals(counts)[int(parse_suit(trump))] == total
    assert table.total_batch(np.array([counts]), parse_suit(trump)).tolist() == [total]


@pytest.mark.parametrize(("ruleset", "cards", "trump", "expected"), [
    ("single-deck", RUN_H + " KH", "H", [("run and extra king", 1, 190)]),
    ("single-deck", RUN_H + " " + RUN_H, "H", [("run", 2, 1500)]),
    ("single-deck", "9H 9H", "H", [("dix", 1, 10), ("dix", 1, 10)]),
    ("single-deck", "QS JD QS JD", "H", [("pinochle", 2, 300)]),
    ("double-deck", " ".join([RUN_H] * 3) + " KH QH", "H", [("run", 3, 225), ("trump marriage", 1, 4)]),
    ("double-deck", RUN_H + " KH QH KH QH", "H", [("run", 1, 15), ("trump marriage", 1, 4), ("trump marriage", 1, 4)]),
    ("single-deck", "KC KD KH KS QC", "C", [("trump marriage", 1, 40), ("kings around", 1, 80)]),
])
def test_meld_items_name_copies_and_points(ruleset: str, cards: str, trump: str,
                                           expected: list[tuple[str, int, int]]) -> None:
    result = meld(load_ruleset(ruleset), parse_cards(cards), parse_suit(trump))
    assert [(m.name, m.copies, m.points) for m in result.melds] == expected


def test_meld_item_cards_are_the_instance_times_copies_in_hand_order() -> None:
    result = meld(load_ruleset("single-deck"), parse_cards("JD QS JD QS KH"), Suit.H)
    assert result.melds == (MeldItem("pinochle", "pinochles", tuple(parse_cards("QS QS JD JD")), 300, 2),)


def test_run_cards_in_both_classes_are_listed_twice() -> None:
    result = meld(load_ruleset("single-deck"), parse_cards(RUN_H + " AS AD AC"), Suit.H)
    assert [(m.name, [c.ascii() for c in m.cards]) for m in result.melds] == [
        ("run", ["AH", "TH", "KH", "QH", "JH"]), ("aces around", ["AS", "AH", "AD", "AC"])]


def test_only_is_true_for_a_meld_of_nothing_but_the_names() -> None:
    rules = load_ruleset("single-deck-small")
    assert meld(rules, parse_cards("9H 9H AS"), Suit.H).only(["dix"])
    assert not meld(rules, parse_cards("9H KH QH"), Suit.H).only(["dix"])
    assert not meld(rules, parse_cards("AS"), Suit.H).only(["dix"])  # no meld at all
    assert not MeldResult(Suit.H, (), 0).only(["dix"])


def test_meld_by_trump_gives_every_suit_of_the_pack() -> None:
    results = meld_by_trump(load_ruleset("single-deck"), parse_cards(RUN_H))
    assert {s: r.total for s, r in results.items()} == {Suit.S: 20, Suit.H: 150, Suit.D: 20, Suit.C: 20}
    assert all(r.trump is s for s, r in results.items())


@pytest.mark.parametrize(("ruleset", "cards", "message"), [
    ("single-deck", "AS AS AS", "3 copies of A♠ (AS); the single-deck pack has 2"),
    ("double-deck", "9H", "9♥ (9H) is not in the double-deck pack"),
])
def test_meld_refuses_cards_outside_the_pack(ruleset: str, cards: str, message: str) -> None:
    with pytest.raises(CardError) as err:
        meld(load_ruleset(ruleset), parse_cards(cards), Suit.S)
    assert str(err.value) == message


def test_check_cards_limit_names_the_count_and_the_limit() -> None:
    rules = load_ruleset("single-deck")
    cards = parse_cards("AS AS TS TS KS KS QS QS JS JS 9S 9S AH")
    with pytest.raises(CardError) as err:
        check_cards(rules, cards, limit=True)
    assert str(err.value).startswith("13 cards given (")
    assert str(err.value).endswith("a single-deck hand holds at most 12")
    assert len(check_cards(rules, cards)) == 13  # the library itself accepts any hand within the pack


def test_meld_table_is_cached_per_ruleset_object() -> None:
    rules = load_ruleset("double-deck")
    assert meld_table(rules) is meld_table(rules)


def test_total_batch_refuses_counts_outside_the_pack() -> None:
    table = meld_table(load_ruleset("single-deck"))
    with pytest.raises(ValueError, match=r"0\.\.2"):
        table.total_batch(np.full((1, 24), 3), Suit.S)
    with pytest.raises(ValueError, match="shape"):
        table.total_batch(np.zeros((2, 23)), Suit.S)


MARKER = "  pinochle:       {class: pinochles"


def test_a_house_rule_combination_scores(edited_ruleset: EditRuleset) -> None:
    rules = edited_ruleset("single-deck", (MARKER, "  tens around:    {class: arounds, cards: [TS, TH, TD, TC], "
                                                   "points: 50}\n" + MARKER)).rules()
    assert meld(rules, parse_cards("TS TH TD TC"), Suit.S).total == 50
    assert meld(rules, parse_cards("TS TH TD TC TS TH TD TC"), Suit.S).total == 100   # 50 each copy
    assert meld(rules, parse_cards("TS TH TD TC AS AH AD AC"), Suit.S).total == 150   # + aces 100
    result = meld(rules, parse_cards("TS TH TD TC"), Suit.S)
    assert [(m.name, m.klass, m.points) for m in result.melds] == [("tens around", "arounds", 50)]


def test_a_house_rule_card_shared_within_a_class_is_counted_once(edited_ruleset: EditRuleset) -> None:
    # "royal pair": K♠ + Q♥, in the family class beside marriages of spades and hearts.
    rules = edited_ruleset("single-deck", (MARKER, "  royal pair:     {class: family, cards: [KS, QH], points: 30}\n"
                                                   + MARKER)).rules()
    # K♠ Q♠ K♥ Q♥, trump D: two marriages 40, or royal pair 30 (+ nothing): 40
    assert meld(rules, parse_cards("KS QS KH QH"), Suit.D).total == 40
    # with a second K♠ and Q♥: two marriages 40 + royal pair 30
    assert meld(rules, parse_cards("KS QS KH QH KS QH"), Suit.D).total == 70
    # K♠ Q♥ Q♠, trump S: trump marriage 40 beats royal pair 30
    assert meld(rules, parse_cards("KS QH QS"), Suit.S).total == 40
