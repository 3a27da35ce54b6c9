"""The hint: exact where the other hands are known, every world consistent, enumeration and sampling
agreeing, the inferences of every duty list, determinism."""

from __future__ import annotations

import functools
import random
from collections import Counter
from pathlib import Path

import pytest
from hintcheck import check_world
from sample import sizes

from pinochle_cli.cards import Hand, Suit, parse_cards
from pinochle_cli.errors import HintError
from pinochle_cli.game.tricks import legal_plays, trick_winner
from pinochle_cli.hint.advice import hint_facts as hint
from pinochle_cli.hint.facts import Facts, make_facts
from pinochle_cli.hint.from_record import facts_at
from pinochle_cli.hint.inference import excluded, infer
from pinochle_cli.hint.weigh import objective
from pinochle_cli.hint.worlds import World, _chain, _Counter, _draw, _space, consistent, draw_worlds
from pinochle_cli.records import read_record
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.solver.solve import Position, Solver

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _played_deal():
    record = read_record(str(EXAMPLES / "single-deck-played.yaml"))
    return record, next(d for d in record.deals if d.play)


def _two_handed(seed: int, lead_first: bool):
    """A two-handed play-off: the stock played out in 12 tricks, then seat to move with hands known."""
    rules = load_ruleset("two-handed")
    rng = random.Random(seed)
    cards = rules.deck.cards()
    rng.shuffle(cards)
    hands = [Hand(cards[:12]), Hand(cards[12:24])]
    tricks = [cards[24 + 2 * k: 26 + 2 * k] for k in range(12)]
    leader = 0
    for trick in tricks:
        leader = (leader + trick_winner(rules, trick, Suit.H)) % 2
    trick = []
    if lead_first:
        trick = [hands[leader].cards()[0]]
        hands[leader] = hands[leader].remove(trick[0])
    seat = (leader + len(trick)) % 2
    return rules, hands, tricks, leader, trick, seat


@pytest.mark.parametrize(("seed", "lead_first"), [(1, False), (2, True), (3, False)])
def test_two_handed_play_off_is_exact_and_equals_solve(seed: int, lead_first: bool) -> None:
    rules, hands, tricks, leader, trick, seat = _two_handed(seed, lead_first)
    facts = make_facts(rules, Suit.H, hands[seat], seat=seat, tricks=tricks, leader=0, trick=trick)
    answer = hint(facts, seconds=600, workers=1)
    assert answer.exact and len(answer.worlds) == 1
    assert answer.worlds[0].hands == tuple(hands)
    solved = Solver(rules, Suit.H, us=seat).plays(Position(tuple(hands), leader, tuple(trick)))
    assert [(j.card, j.counters) for j in answer.cards] == [(c, float(v)) for c, v in solved]


@pytest.mark.parametrize("place", [1, 2, 3])
def test_the_last_trick_is_determined_and_equals_solve(place: int) -> None:
    record, deal = _played_deal()
    facts = facts_at(record, deal, 12, place)
    answer = hint(facts, seconds=600, workers=1)
    assert answer.exact and len(answer.worlds) == 1
    hands = answer.worlds[0].hands
    solved = Solver(record.rules, deal.trump, us=facts.seat).plays(Position(hands, facts.leader, facts.trick))
    assert [(j.card, j.counters) for j in answer.cards] == [(c, float(v)) for c, v in solved]
    # the one world is the deal as it was
    assert hands[(facts.leader + len(facts.trick)) % 4] == facts.hand


@pytest.mark.parametrize(("trick", "place"), [(6, 3), (8, 1), (9, 0), (4, 2)])
def test_every_world_is_consistent_with_every_fact(trick: int, place: int) -> None:
    record, deal = _played_deal()
    facts = facts_at(record, deal, trick, place)
    drawn = draw_worlds(facts, infer(facts), 60, random.Random(trick))
    assert drawn.worlds
    for world in drawn.worlds:
        assert check_world(facts, world.hands) == []


def test_the_checker_finds_a_broken_world() -> None:
    record, deal = _played_deal()
    facts = facts_at(record, deal, 6, 3)
    world = draw_worlds(facts, infer(facts), 1, random.Random(1)).worlds[0]
    others = [s for s in range(4) if s != facts.seat]
    a, b = others[0], others[1]
    # swap the cards of two seats: their meld, or a play, no longer fits
    swapped = list(world.hands)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    assert check_world(facts, swapped) or swapped[a] == swapped[b]


@functools.cache
def _position_with_worlds(low: int, high: int):
    record, deal = _played_deal()
    for trick in range(12, 0, -1):
        for place in range(4):
            facts = facts_at(record, deal, trick, place)
            every = draw_worlds(facts, infer(facts), 10_000, random.Random(0))
            if every.exact and low <= len(every.worlds) <= high:
                return facts, every
    raise AssertionError("no position with that many worlds")


@pytest.mark.parametrize("draws", sizes(4000, 1000))
def test_enumeration_and_sampling_agree(draws: int) -> None:
    facts, every = _position_with_worlds(8, 400)
    total = sum(w.weight for w in every.worlds)
    exact = {w.hands: w.weight / total for w in every.worlds}
    inferences = infer(facts)
    space = _space(facts, inferences)
    counter = _Counter(space, weighted=True)
    rng = random.Random(5)
    n = 0
    seen: Counter[tuple[Hand, ...]] = Counter()
    while n < draws:
        world = _draw(facts, space, counter, rng)
        if consistent(facts, world):
            seen[world.hands] += 1
            n += 1
    assert set(seen) <= set(exact)
    for hands, p in exact.items():
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(seen[hands] / n - p) <= 5 * sigma + 1e-9, (p, seen[hands] / n)


@pytest.mark.parametrize("low, high, worlds, bound", [
    pytest.param(20, 60, 800, 0.11, id="21-worlds"),
    pytest.param(60, 400, 6000, 0.08, id="95-worlds", marks=pytest.mark.exhaustive)])
def test_the_chain_of_swaps_draws_the_consistent_deals_uniformly(low: int, high: int, worlds: int,
                                                                bound: float) -> None:
    """The chain that takes over when few draws fit: every world it gives is consistent, and its worlds come as
    often as their share of the deals (a looser bound than for independent draws: its worlds are correlated).
    Independent draws of these sizes are about 0.07 (21 worlds) and 0.045 (95) from the deals' shares; the
    layouts' shares, not weighted by their deals, are 0.17 and 0.245 from them."""
    facts, every = _position_with_worlds(low, high)
    total = sum(w.weight for w in every.worlds)
    exact = {w.hands: w.weight / total for w in every.worlds}
    space = _space(facts, infer(facts))
    start = every.worlds[0]
    chained = _chain(facts, space, World(start.hands, start.buried), random.Random(3), worlds, None)
    assert len(chained) == worlds and all(consistent(facts, w) for w in chained)
    seen = Counter(w.hands for w in chained)
    assert set(seen) <= set(exact)
    distance = sum(abs(seen[h] / worlds - p) for h, p in exact.items()) / 2
    assert distance < bound, distance


def test_the_same_seed_gives_the_same_worlds() -> None:
    record, deal = _played_deal()
    facts = facts_at(record, deal, 5, 1)
    one = draw_worlds(facts, infer(facts), 30, random.Random(7))
    two = draw_worlds(facts, infer(facts), 30, random.Random(7))
    other = draw_worlds(facts, infer(facts), 30, random.Random(8))
    assert one == two
    assert one != other


def _lowest(rules, suit: Suit):
    rank = rules.rank_order[-1]
    return next(c for c in rules.deck.cards() if c.suit == suit and c.rank == rank)


def _opening(rules, trump: Suit, led: Suit, bidder: int | None = None):
    """Me at seat 3 (seat 2 with three players) to play to trick 1: the lowest card of ``led`` led, the next
    seat discarding the lowest club, the third (four players) following with the led card again."""
    low_led, low_club = _lowest(rules, led), _lowest(rules, Suit.C)
    trick = [low_led, low_club] + ([low_led] if rules.players == 4 else [])
    me = len(trick)
    pool = rules.deck.full() - Hand(trick)
    mine = [c for c in pool if c.suit not in (led, Suit.C)][:rules.tricks_per_deal]
    return make_facts(rules, trump, Hand(mine), seat=me, bidder=bidder, leader=0, trick=trick)


def _said(facts) -> list[str]:
    return [i.says for i in infer(facts)]


@pytest.mark.parametrize("name", ["single-deck", "single-deck-small", "double-deck"])
def test_inferences_of_each_bundled_four_handed_game(name: str) -> None:
    rules = load_ruleset(name)
    facts = _opening(rules, Suit.S, Suit.H)
    low = _lowest(rules, Suit.H)
    assert _said(facts) == ["seat 1: no ♥ (did not follow trick 1)", "seat 1: no trump (did not trump trick 1)",
                            f"seat 2: no ♥ above the {low} (did not beat the {low} in trick 1)"]


def test_inferences_of_the_three_handed_game() -> None:
    rules = load_ruleset("three-handed")
    facts = _opening(rules, Suit.S, Suit.H, bidder=0)
    assert _said(facts) == ["seat 1: no ♥ (did not follow trick 1)", "seat 1: no trump (did not trump trick 1)"]


def test_inferences_of_the_house_rules() -> None:
    # beat only on a trump lead: nothing learned from a plain card that does not beat
    rules = load_ruleset("single-deck-small", {"overtake": "trump-lead"})
    assert _said(_opening(rules, Suit.S, Suit.H)) == ["seat 1: no ♥ (did not follow trick 1)",
                                                      "seat 1: no trump (did not trump trick 1)"]
    low = _lowest(rules, Suit.S)
    assert _said(_opening(rules, Suit.S, Suit.S))[-1] == f"seat 2: no trump above the {low} (did not beat the {low} " \
        "in trick 1)"
    # trump only when it would win: a void player who does not trump a plain lead may still hold trump
    rules = load_ruleset("single-deck", {"must-trump": "if-it-wins"})
    said = _said(_opening(rules, Suit.S, Suit.H))
    assert said[1] == "seat 1: no trump (did not trump trick 1)"


def test_inferences_of_an_edited_duty_list(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parent.parent / "rulesets" / "single-deck.yaml").read_text(encoding="utf-8")
    # the house rules patch the duties by name: without them
    text = text.split("\noptions:")[0].replace("name: single-deck", "name: house")
    follow_only = tmp_path / "follow-only.yaml"
    follow_only.write_text(text.replace("duties: [follow, trump, beat]", "duties: [follow]"), encoding="utf-8")
    assert _said(_opening(load_ruleset(str(follow_only)), Suit.S, Suit.H)) == ["seat 1: no ♥ (did not follow trick 1)"]
    none = tmp_path / "none.yaml"
    none.write_text(text.replace("duties: [follow, trump, beat]", "duties: []"), encoding="utf-8")
    assert _said(_opening(load_ruleset(str(none)), Suit.S, Suit.H)) == []


@pytest.mark.parametrize(("name", "options"), [("single-deck", {}), ("single-deck", {"must-trump": "if-it-wins"}),
                                               ("single-deck", {"beat-partner": "no"}), ("double-deck", {}),
                                               ("single-deck-small", {"overtake": "trump-lead"})])
def test_an_inference_is_exactly_the_duty(name: str, options: dict[str, str]) -> None:
    """A card played is legal from a hand exactly when the hand holds none of the cards it excludes."""
    rules = load_ruleset(name, options)
    facts = _opening(rules, Suit.S, Suit.H)
    rng = random.Random(11)
    deck = rules.deck.cards()
    for _ in range(300):
        rng.shuffle(deck)
        size = rng.randrange(1, rules.players)
        prefix, held = deck[:size], Hand(deck[size:size + rng.randrange(1, 9)])
        card = held.cards()[0]
        legal = card in legal_plays(rules, held, prefix, Suit.S, leader_seat=0)
        cut = {c for cards in excluded(facts, prefix, card, 0).values() for c in cards}
        assert legal == (not any(c in held for c in cut)), (prefix, held, card)


def test_a_seat_that_later_plays_what_it_could_not_hold_is_refused() -> None:
    rules = load_ruleset("single-deck")
    facts = make_facts(rules, Suit.S, Hand.parse("AS AS TS KS QS JS 9S AD AD TD"), seat=3, bidder=0,
                       tricks=[parse_cards("AH 9H KH QH"), parse_cards("AC 9C 9H KC")], trick=parse_cards("TH JH QS"))
    with pytest.raises(HintError, match=r"trick 2: seat 2 played 9♥ — but seat 2 played Q♠ in trick 3, so the play "
                                        r"broke a duty: no trump \(did not trump trick 2\)"):
        infer(facts)


def test_the_hint_is_the_same_at_any_workers() -> None:
    record, deal = _played_deal()
    facts = facts_at(record, deal, 7, 2)
    one = hint(facts, worlds=6, seconds=600, workers=1)
    two = hint(facts, worlds=6, seconds=600, workers=2)
    assert one.cards == two.cards and one.worlds == two.worlds


def test_more_consistent_worlds_than_asked_are_a_sample_of_them() -> None:
    facts, every = _position_with_worlds(8, 400)
    some = draw_worlds(facts, infer(facts), 5, random.Random(3))
    assert not some.exact and len(some.worlds) == 5
    assert {w.hands for w in some.worlds} <= {w.hands for w in every.worlds}
    assert all(w.weight == 1 for w in some.worlds)


def test_in_a_bidder_alone_game_the_hint_solves_with_the_bidder() -> None:
    # three-handed: the sides come from the auction; each card's counters are the solver's, with the bidder
    record = read_record(str(EXAMPLES / "three-handed-played.yaml"))
    deal = next(d for d in record.deals if d.play)
    assert deal.play is not None
    for place in range(record.rules.players):
        facts = facts_at(record, deal, len(deal.play) - 1, place)
        assert facts.bidder is not None
        answer = hint(facts, seconds=None, workers=1)
        solver = Solver(facts.rules, facts.trump, us=facts.seat, bidder=facts.bidder)
        total: Counter[object] = Counter()
        for world in answer.worlds:
            for card, value in solver.plays(Position(world.hands, facts.leader, facts.trick)):
                total[card] += world.weight * value
        weight = sum(w.weight for w in answer.worlds)
        assert {j.card: j.counters for j in answer.cards} == pytest.approx({c: v / weight for c, v in total.items()})



THREE_PLAYED = str(EXAMPLES / "three-handed-played.yaml")


def _view_with(buried: str, trick: int = 13, seat: int = 1) -> Facts:
    """Seat ``seat``'s view before trick ``trick`` of the three-handed example (Bob, seat 1, bid and buried
    AH AC TC), rebuilt with ``buried`` as the cards it says it buried."""
    record = read_record(THREE_PLAYED)
    deal = next(d for d in record.deals if d.play)
    place = next(p for p in range(3) if facts_at(record, deal, trick, p).seat == seat)
    seen = facts_at(record, deal, trick, place)
    return make_facts(seen.rules, seen.trump, seen.hand, seat=seen.seat, bidder=seen.bidder, bid=seen.bid,
                      shown=seen.shown, tricks=seen.tricks, leader=seen.leaders[0], trick=seen.trick,
                      buried=Hand(parse_cards(buried)))


def test_the_bidder_knows_its_buried_cards() -> None:
    unknown, known = _view_with(""), _view_with("AH AC TC")
    assert unknown.out_of_play == 3 and known.out_of_play == 0
    assert known.unseen == unknown.unseen - Hand(parse_cards("AH AC TC"))
    worlds = draw_worlds(known, infer(known), 50, random.Random(1)).worlds
    assert worlds and all(not len(w.buried) for w in worlds)
    assert all(not Hand(parse_cards("AH AC TC")).issubset(w.hands[0] + w.hands[2]) for w in worlds)
    assert all(consistent(known, w) for w in worlds)


def test_a_recorded_bidder_sees_its_recorded_buried_cards() -> None:
    record = read_record(THREE_PLAYED)
    deal = next(d for d in record.deals if d.play)
    views = [facts_at(record, deal, 13, p) for p in range(3)]
    bidder = next(v for v in views if v.seat == v.bidder)
    assert bidder.buried == Hand(parse_cards("AH AC TC")) and bidder.out_of_play == 0
    assert all(not len(v.buried) and v.out_of_play == 3 for v in views if v.seat != v.bidder)


def test_for_the_others_the_buried_cards_are_in_nobodys_hand() -> None:
    record = read_record(THREE_PLAYED)
    deal = next(d for d in record.deals if d.play)
    place = next(p for p in range(3) if facts_at(record, deal, 13, p).seat == 0)
    facts = facts_at(record, deal, 13, place)
    assert facts.out_of_play == 3 and not len(facts.buried)
    worlds = draw_worlds(facts, infer(facts), 50, random.Random(1)).worlds
    assert all(len(w.buried) == 3 and len(w.hands[1]) == facts.sizes[1] for w in worlds)


def test_the_buried_counters_are_the_bidders_where_the_ruleset_says() -> None:
    # bury.counters is "bidder" in three-handed: the bidder's counters are the buried 30 more than its play's
    facts = _view_with("AH AC TC")
    answer = hint(facts, seconds=None, workers=1)
    assert facts.rules.bury is not None and facts.rules.bury.counters == "bidder"
    goal_total = facts.rules.counter_total
    for j in answer.cards:
        taken = objective(facts).taken[objective(facts).ours]
        ours = taken + j.counters + 30
        assert j.points == pytest.approx(ours - (goal_total - ours))


@pytest.mark.parametrize(("seat", "buried", "says"), [
    (0, "AH AC TC", "only the bidder buries, and the bidder is seat 1, not seat 0"),
    (1, "AH AC", "2 cards, but the bidder buries 3"),
    (1, "QC AC TC", "too many Q♣: 2 in the hand, 1 buried"),
])
def test_buried_cards_that_cannot_be_are_refused(seat: int, buried: str, says: str) -> None:
    with pytest.raises(HintError, match=says) as caught:
        _view_with(buried, seat=seat)
    assert caught.value.parameter == "buried"


def test_buried_cards_in_a_game_without_a_widow_are_refused() -> None:
    with pytest.raises(HintError, match="nobody buries") as caught:
        make_facts(load_ruleset("single-deck"), Suit.S, Hand(parse_cards("AS AS TS KS QS JS 9S AD AD TD AC KC")),
                   bidder=0, buried=Hand(parse_cards("AH")))
    assert caught.value.parameter == "buried"


@pytest.mark.parametrize(("seat", "trick"), [(1, 6), (0, 11)])
def test_where_the_buried_counters_go_to_the_last_trick_they_are_in_its_worth(tmp_path: Path, seat: int,
                                                                              trick: int) -> None:
    """A three-handed game whose buried counters go to the last trick's winner: each world is solved with the
    last trick worth its bonus and the world's buried counters (known to the bidder, drawn for the others), and
    the points count every counter for someone."""
    text = (ROOT / "rulesets" / "three-handed.yaml").read_text(encoding="utf-8")
    path = tmp_path / "three-last.yaml"
    path.write_text(text.replace("  counters: bidder ", "  counters: last-trick "), encoding="utf-8")
    rules = load_ruleset(str(path))
    seen = _view_with("AH AC TC" if seat == 1 else "", trick=trick, seat=seat)
    facts = make_facts(rules, seen.trump, seen.hand, seat=seen.seat, bidder=seen.bidder, bid=seen.bid,
                       shown=seen.shown, tricks=seen.tricks, leader=seen.leaders[0], trick=seen.trick,
                       buried=seen.buried)
    answer = hint(facts, seconds=None, workers=1, worlds=12)
    total: Counter[object] = Counter()
    differs = False
    for world in answer.worlds:
        worth = rules.last_trick + sum(rules.counter_value(c) for c in world.buried + facts.buried)
        assert worth > rules.last_trick
        pos = Position(world.hands, facts.leader, facts.trick)
        solver = Solver(rules, facts.trump, us=facts.seat, bidder=facts.bidder, last_trick=worth)
        plays = dict(solver.plays(pos))
        plain = dict(Solver(rules, facts.trump, us=facts.seat, bidder=facts.bidder).plays(pos))
        differs |= plays != plain
        for card, value in plays.items():
            total[card] += world.weight * value
    # the worth matters in these worlds: the test would fail with the ruleset's own
    assert differs
    weight = sum(w.weight for w in answer.worlds)
    assert {j.card: j.counters for j in answer.cards} == pytest.approx({c: v / weight for c, v in total.items()})
    if facts.bidder == facts.seat:
        goal = objective(facts)
        for j in answer.cards:
            ours = goal.taken[goal.ours] + j.counters
            assert j.points == pytest.approx(ours - (rules.counter_total - ours))


def test_the_best_card_s_lead_over_every_other_card_with_its_interval() -> None:
    record, deal = _played_deal()
    facts = facts_at(record, deal, 7, 2)
    h = hint(facts, worlds=30, seconds=None)
    others = [j.card for j in h.cards if j.card != h.best]
    assert sorted(m.second for m in h.leads) == sorted(others) and h.leads[0] == h.margin
    points = {j.card: j.points for j in h.cards}
    for m in h.leads:
        # the mean lead is the difference of the cards' mean points; its interval holds the mean
        assert m.mean == pytest.approx(points[h.best] - points[m.second])
        assert m.low <= m.mean <= m.high
        assert h.within_noise(m.second) == (m.low <= 0)
    assert h.within_noise(h.best)
    # the next card leads no card: the leads are in the order of the points
    assert [m.mean for m in h.leads] == sorted(m.mean for m in h.leads)
