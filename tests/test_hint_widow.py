"""The widow turned up for all: the bidder held it at the meld, so the hint's worlds keep it in the bidder's hand,
its plays or its buried cards — counted exactly, drawn uniformly, and refused where it cannot be."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from clihelp import run_cli

from pinochle_cli.cards import Hand, parse_cards
from pinochle_cli.errors import HintError, PlayError
from pinochle_cli.game.state import DealState
from pinochle_cli.hint.facts import Facts, facts_of, make_facts
from pinochle_cli.hint.from_record import facts_at
from pinochle_cli.hint.inference import infer
from pinochle_cli.hint.worlds import World, _chain, _Counter, _draw, _every, _space, consistent, draw_worlds
from pinochle_cli.records import read_record
from pinochle_cli.ruleset import load_ruleset

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
THREE_PLAYED = str(EXAMPLES / "three-handed-played.yaml")
# the recorded deal's widow (Bob, seat 1, bid, took it, buried A♥ A♣ 10♣)
WIDOW = Hand(parse_cards("AC KC 9C"))


def _view(trick: int, seat: int) -> Facts:
    record = read_record(THREE_PLAYED)
    deal = next(d for d in record.deals if d.play)
    place = next(p for p in range(3) if facts_at(record, deal, trick, p).seat == seat)
    return facts_at(record, deal, trick, place)


def _again(seen: Facts, widow: str) -> Facts:
    """``seen`` rebuilt with ``widow`` as the widow given."""
    return make_facts(seen.rules, seen.trump, seen.hand, seat=seen.seat, bidder=seen.bidder, bid=seen.bid,
                      shown=seen.shown, tricks=seen.tricks, leader=seen.leaders[0] if seen.leaders else seen.leader,
                      trick=seen.trick, widow=Hand(parse_cards(widow)))


def _holds_widow(facts: Facts, world: World) -> bool:
    """Independent of the sampler: the bidder's hand now, its plays and the buried cards hold the widow."""
    assert facts.bidder is not None
    held = Counter(world.hands[facts.bidder].cards()) + Counter(facts.played[facts.bidder])
    # the buried cards: the world's, or the bidder's own when it asks
    held += Counter(world.buried.cards()) + Counter(facts.buried.cards())
    return all(held[c] >= n for c, n in Counter(facts.widow.cards()).items())


def test_a_recorded_widow_is_seen_by_every_seat_of_a_game_that_turns_it_up() -> None:
    views = [_view(3, s) for s in range(3)]
    assert all(v.widow == WIDOW for v in views)
    # the bidder's own view: the widow is in its hand, its plays or its buried cards already
    bidder = next(v for v in views if v.seat == v.bidder)
    assert not any(bidder.widow_left)
    for trick in (3, 13, 15):
        own = _view(trick, 1)
        worlds = draw_worlds(own, infer(own), 30, random.Random(trick)).worlds
        assert worlds and all(_holds_widow(own, w) and consistent(own, w) for w in worlds)


@pytest.mark.parametrize("trick", [6, 9, 11, 13])
def test_every_world_keeps_the_widow_with_the_bidder(trick: int) -> None:
    for seat in (0, 2):
        facts = _view(trick, seat)
        worlds = draw_worlds(facts, infer(facts), 60, random.Random(trick)).worlds
        assert worlds and all(_holds_widow(facts, w) and consistent(facts, w) for w in worlds)


@pytest.mark.parametrize(("trick", "seat"), [(6, 2), (9, 2), (10, 0), (11, 0), (13, 0)])
def test_the_widow_s_floors_count_exactly_the_layouts_that_hold_it(trick: int, seat: int) -> None:
    """Exhaustive: every layout listed with the widow's floors is every layout listed without them that holds the
    widow, each standing for the same deals; and the floors do cut layouts here."""
    facts = _view(trick, seat)
    space = _space(facts, infer(facts))
    loose = replace(space, floors=())
    with_floors = Counter({w: w.weight for w in _every(facts, space, _Counter(space, weighted=True))})
    without = [w for w in _every(facts, loose, _Counter(loose, weighted=True))]
    kept = Counter({w: w.weight for w in without if _holds_widow(facts, w)})
    assert with_floors == kept
    assert len(kept) < len(without)


def test_drawn_worlds_come_as_often_as_their_share_of_the_deals_that_hold_the_widow() -> None:
    facts = _view(9, 2)
    space = _space(facts, infer(facts))
    every = [w for w in _every(facts, space, _Counter(space, weighted=True)) if consistent(facts, w)]
    total = sum(w.weight for w in every)
    exact = {(w.hands, w.buried): w.weight / total for w in every}
    counter, rng = _Counter(space, weighted=True), random.Random(5)
    seen: Counter[tuple[tuple[Hand, ...], Hand]] = Counter()
    n = 0
    while n < 3000:
        world = _draw(facts, space, counter, rng)
        if consistent(facts, world):
            seen[world.hands, world.buried] += 1
            n += 1
    assert set(seen) <= set(exact)
    for key, p in exact.items():
        assert abs(seen[key] / n - p) <= 5 * (p * (1 - p) / n) ** 0.5 + 1e-9


def test_the_chain_of_swaps_keeps_the_widow_with_the_bidder() -> None:
    facts = _view(6, 2)
    space = _space(facts, infer(facts))
    start = draw_worlds(facts, infer(facts), 1, random.Random(2)).worlds[0]
    chained = _chain(facts, space, start, random.Random(3), 200, None)
    assert len(chained) == 200 and all(_holds_widow(facts, w) and consistent(facts, w) for w in chained)
    # it moves: more than one layout
    assert len({(w.hands, w.buried) for w in chained}) > 1


def test_a_world_without_the_widow_with_the_bidder_is_inconsistent() -> None:
    facts = _view(13, 0)
    blind = replace(facts, widow=Hand())
    worlds = draw_worlds(blind, infer(blind), 100, random.Random(1)).worlds
    assert any(not _holds_widow(facts, w) for w in worlds)
    assert all(consistent(facts, w) == _holds_widow(facts, w) for w in worlds)


def test_a_widow_not_shown_is_the_bidder_s_alone(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parent.parent / "rulesets" / "three-handed.yaml").read_text(encoding="utf-8")
    hidden = tmp_path / "hidden-widow.yaml"
    hidden.write_text(text.replace("name: three-handed", "name: hidden-widow").replace(
        "  shown: true", "  shown: false").replace("aliases: [three-hand, cutthroat, \"3-handed\"]", "aliases: []"),
        encoding="utf-8")
    rules = load_ruleset(str(hidden))
    assert rules.widow is not None and not rules.widow.shown
    seen = _view(3, 2)
    state = DealState.at_play(rules, seen.trump, leader=seen.leaders[0], bidder=seen.bidder, bid=seen.bid,
                              hands=[None, None, seen.hand + Hand(seen.played[2])], widow=WIDOW)
    for tricks in seen.tricks:
        for card in tricks:
            state.play(card)
    assert not len(facts_of(state, 2).widow)
    with pytest.raises(HintError, match="the widow is not turned up, so only the bidder"):
        make_facts(rules, seen.trump, seen.hand, seat=2, bidder=seen.bidder, tricks=seen.tricks,
                   leader=seen.leaders[0], widow=WIDOW)


@pytest.mark.parametrize(("widow", "says"), [
    ("AC KC", "2 cards, but the widow of three-handed has 3"),
    ("AC AC AC", "3 copies of A♣"),
    ("QS QS 9C", r"took 2 Q♠ with it, but only \d Q♠ can still be"),
])
def test_a_widow_that_cannot_be_is_refused(widow: str, says: str) -> None:
    with pytest.raises(HintError, match=says):
        _again(_view(3, 2), widow)


def test_a_widow_needs_a_game_with_one_and_a_bidder() -> None:
    rules = load_ruleset("single-deck")
    hand = Hand(parse_cards("AS TS KS QS JS 9S AH TH KH QH JH 9H"))
    with pytest.raises(HintError, match="single-deck has no widow"):
        make_facts(rules, hand.cards()[0].suit, hand, bidder=0, widow=Hand(parse_cards("AD TD KD")))



def test_a_widow_needs_the_bidder_who_took_it(tmp_path: Path) -> None:
    """A partnership game a table gave a widow (a copied ruleset, no code): the widow says nothing without the
    bidder, and with it the bidder's partner sees it turned up."""
    text = (Path(__file__).resolve().parent.parent / "rulesets" / "single-deck.yaml").read_text(encoding="utf-8")
    edited = text.replace("name: single-deck", "name: widow-four").replace("aliases: [four-handed, partnership]",
                                                                         "aliases: []")
    edited = edited.replace("hand_size: 12", "hand_size: 11\nwidow: {cards: 4, shown: true}\n"
                            "bury: {when: after-meld, forbidden: [melded], counters: bidder}")
    path = tmp_path / "widow-four.yaml"
    path.write_text(edited, encoding="utf-8")
    rules = load_ruleset(str(path))
    hand = Hand(parse_cards("AS TS KS QS JS 9S AH TH KH QH JH"))
    widow = Hand(parse_cards("AD TD KD QD"))
    with pytest.raises(HintError, match="the bidder takes the widow"):
        make_facts(rules, hand.cards()[0].suit, hand, seat=0, widow=widow)
    facts = make_facts(rules, hand.cards()[0].suit, hand, seat=0, bidder=1, leader=3, trick=parse_cards("9C"),
                       widow=widow)
    worlds = draw_worlds(facts, infer(facts), 30, random.Random(4)).worlds
    assert worlds and all(_holds_widow(facts, w) and consistent(facts, w) for w in worlds)


def test_a_deal_at_play_with_a_widow_its_bidder_does_not_hold_is_refused() -> None:
    rules = load_ruleset("three-handed")
    record = read_record(THREE_PLAYED)
    deal = next(d for d in record.deals if d.play)
    assert deal.hands is not None and deal.trump is not None
    hands = [deal.hands[p] for p in record.table.seating]
    with pytest.raises(PlayError, match=r"the bidder .* took the widow, but"):
        DealState.at_play(rules, deal.trump, leader=deal.leader, bidder=1, bid=deal.bid, hands=hands,
                          buried=Hand(parse_cards("AH AC TC")), widow=Hand(parse_cards("QH QH JD")))


def _cli(*extra: str) -> tuple[int, str]:
    seen = _view(3, 2)
    tricks = "; ".join(" ".join(c.ascii() for c in t) for t in seen.tricks)
    args = ["hint", "-r", "three-handed", "-t", seen.trump.letter, "--hand", " ".join(seen.hand.ascii()), "--seat", "2",
            "--bidder", str(seen.bidder), "--bid", str(seen.bid), "--tricks", tricks, "--leader",
            str(seen.leaders[0]), "--time", "1", "--worlds", "20", *extra]
    for s, cards in seen.shown.items():
        args += ["--meld", f"{s}={' '.join(cards.ascii())}"]
    ran = run_cli(*args)
    return ran.code, ran.out + ran.err


def test_the_hint_command_takes_the_widow_and_says_so() -> None:
    code, out = _cli("--widow", "AC KC 9C")
    assert code == 0, out
    assert "The widow, seat 1's at the meld: A♣ K♣ 9♣." in out
    code, out = _cli("--widow", "AC KC 9C", "--json")
    assert code == 0 and json.loads(out)["widow"] == ["AC", "KC", "9C"]
    code, out = _cli("--json")
    assert code == 0 and "widow" not in json.loads(out)


@pytest.mark.parametrize(("widow", "says"), [
    ("AC KC", "Error: --widow A♣ K♣: 2 cards, but the widow of three-handed has 3"),
    ("AC KC XX", "Error: --widow"),
    ("QS QS 9C", "Error: --widow"),
])
def test_the_hint_command_refuses_a_widow_that_cannot_be(widow: str, says: str) -> None:
    code, out = _cli("--widow", widow)
    assert code == 2 and says in out and "Traceback" not in out


def test_a_dealt_deal_gives_each_seat_the_widow_it_saw() -> None:
    """A deal played from the deal (as a play session plays it): at the first card, each seat's view carries the
    widow turned up, and its worlds keep the widow with the bidder."""
    import numpy as np

    from pinochle_cli.game.deal import deal_cards

    rules = load_ruleset("three-handed")
    hands, rest = deal_cards(rules, np.random.default_rng(3))
    state = DealState(rules, hands=hands, widow=rest)
    state.apply(f"bid {rules.auction.minimum}")  # type: ignore[union-attr]
    while state.stage == "auction":
        state.apply("pass")
    bidder = state.bidder
    assert bidder is not None
    while state.stage != "play":
        kinds, seat = state.turn.kinds, state.turn.seat
        assert seat is not None
        hand = state.hand(seat)
        assert hand is not None
        if kinds == ("trump",):
            state.apply(f"trump {rules.eligible_trumps(hand)[0].letter}")
        elif kinds == ("meld",):
            state.apply(f"meld {' '.join(state.meld_shows(seat).ascii())}")
        else:
            spare = [c for c in hand if c not in state.shown.get(seat, Hand())]
            state.apply(f"bury {' '.join(c.ascii() for c in spare[:rules.widow_size])}")
    assert state.widow == Hand(rest)
    first = state.turn.seat
    assert first is not None
    facts = facts_of(state, first)
    assert facts.widow == Hand(rest)
    state.play(state.legal_plays()[0])
    # the bidder led: a defender's view now
    seen = facts_of(state)
    assert seen.seat != bidder
    worlds = draw_worlds(seen, infer(seen), 30, random.Random(1)).worlds
    assert seen.widow == Hand(rest) and all(_holds_widow(seen, w) for w in worlds)


def test_a_bidder_s_widow_not_in_its_hand_plays_or_buried_cards_is_refused_by_name() -> None:
    own = _view(3, 1)
    assert own.seat == own.bidder and len(own.buried)
    # the widow as the bidder says it took it, with a card it neither holds, played nor buried
    stranger = next(c for c in own.unseen.cards() if c not in own.hand and c not in own.buried)
    with pytest.raises(HintError, match=f"you \\(seat 1\\) took the widow, but {stranger} is not in your hand, "
                                        "your plays or the cards you buried"):
        make_facts(own.rules, own.trump, own.hand, seat=1, bidder=1, bid=own.bid, shown=own.shown,
                   tricks=own.tricks, leader=own.leaders[0], trick=own.trick, buried=own.buried,
                   widow=Hand([stranger, *list(WIDOW)[:2]]))


def test_a_deal_at_play_with_a_widow_and_no_bidder_is_refused() -> None:
    rules = load_ruleset("three-handed")
    with pytest.raises(PlayError, match="was given without the bidder who took it"):
        DealState.at_play(rules, "S", widow=WIDOW)
