"""Conditions on the unseen hands (``--given``): reading them, the exact conditioned sampler, refusals."""

from __future__ import annotations

import numpy as np
import pytest

from pinochle_cli.cards import Card, Hand, Suit
from pinochle_cli.errors import ConditionError, RareConditionError
from pinochle_cli.estimate.checks import chunk_rng
from pinochle_cli.estimate.conditioned import ConditionedDeals, ConditionedSimulator, counts_of
from pinochle_cli.estimate.conditions import Clause, Given, seat_of
from pinochle_cli.estimate.games import Simulator, Tally
from pinochle_cli.estimate.simulate import estimate
from pinochle_cli.meld import meld
from pinochle_cli.ruleset import load_ruleset

RULES = load_ruleset("single-deck")
HAND = Hand.parse("AH TH KH QH JH AS KS QS KD QD KC QC")


def hand_of(row: np.ndarray) -> Hand:
    return Hand([Card.from_index(int(i)) for i in row])


@pytest.mark.parametrize("text, shown", [
    ("partner: meld >= 100", "partner: meld >= 100"),
    ("Left:  aces>=2 and hearts <5", "left: aces >= 2 and hearts < 5"),
    ("right: holds as 10h and lacks jd", "right: holds AS TH and lacks JD"),
    ("partner: counters == 80 and nines <= 1 and clubs > 3", "partner: counters == 80 and nines <= 1 and clubs > 3"),
])
def test_parse_and_format_are_paired(text: str, shown: str) -> None:
    given = Given.parse(text)
    assert str(given) == shown
    assert Given.parse(str(given)) == given


@pytest.mark.parametrize("text, words", [
    ("meld >= 100", "start with the seat"),
    ("dealer: meld >= 1", "start with the seat"),
    ("partner: meld", "is not a condition"),
    ("partner: meld => 100", "is not a condition"),
    ("partner: knights >= 1", '"knights" is not counted'),
    ("partner: holds XS", "XS"),
    ("partner: meld >= 1 and", "a condition is missing"),
])
def test_unreadable_conditions(text: str, words: str) -> None:
    with pytest.raises(ConditionError, match=words) as err:
        Given.parse(text)
    assert err.value.parameter == "given"


def test_seats_are_relative_and_from_the_ruleset() -> None:
    assert [seat_of(RULES, w) for w in ("left", "partner", "right")] == [1, 2, 3]
    alone = load_ruleset("two-handed")
    assert seat_of(alone, "left") == seat_of(alone, "right") == 1
    with pytest.raises(ConditionError, match="no such seat"):
        seat_of(alone, "partner")


def direct(clause: Clause, hand: Hand, trump: Suit) -> bool:
    """The clause evaluated on one hand from its cards, apart from the batch code."""
    number = {"meld": lambda: meld(RULES, hand, trump).total,
              "counters": lambda: sum(RULES.counter_value(c) for c in hand),
              "rank": lambda: sum(c.rank == clause.rank for c in hand),
              "suit": lambda: sum(c.suit == clause.suit for c in hand)}
    if clause.kind == "holds":
        return all(hand.count(c) >= clause.cards.count(c) for c in clause.cards)
    if clause.kind == "lacks":
        return all(hand.count(c) == 0 for c in clause.cards)
    value = number[clause.kind]()
    return {">=": value >= clause.number, ">": value > clause.number, "<=": value <= clause.number,
            "<": value < clause.number, "==": value == clause.number}[clause.op]


CONDITIONS = ["partner: meld >= 60", "left: aces >= 2", "right: diamonds >= 4", "partner: counters < 50",
              "left: holds JD QS", "right: lacks AD", "partner: holds TS and meld >= 40", "left: nines == 0",
              "partner: holds AD AD"]


@pytest.mark.parametrize("text", CONDITIONS)
def test_each_condition_against_a_direct_count(text: str) -> None:
    """Every accepted deal meets the condition counted card by card, and the share accepted matches the share
    of uniformly dealt deals that meet it (the sampler is the uniform deal restricted to the condition)."""
    given = Given.parse(text)
    seat = seat_of(RULES, given.who)
    dealer = ConditionedDeals(RULES, HAND, [given])
    deals, _, drawn = dealer.draw(chunk_rng(5, 0), 300, Suit.H)
    assert deals.shape == (300, 3, 12)
    for row in deals[:100]:
        assert sorted(np.concatenate([row.ravel(), np.repeat(np.arange(24), HAND.counts)]).tolist()) == \
            sorted(np.repeat(np.arange(24), RULES.deck.full().counts).tolist())
        assert all(direct(c, hand_of(row[seat - 1]), Suit.H) for c in given.clauses)
    uniform = Simulator(RULES, HAND, [Suit.H]).deal(chunk_rng(6, 0), 4000)
    meets = np.array([all(direct(c, hand_of(row[seat - 1]), Suit.H) for c in given.clauses) for row in uniform])
    met = meets.mean()
    # the same deals as the uniform ones that meet it: the counters each seat holds, on average
    many, _, _ = dealer.draw(chunk_rng(7, 0), 3000, Suit.H)
    points = np.array([RULES.counter_value(Card.from_index(i)) for i in range(24)])
    ours = counts_of(many.reshape(-1, 12)).reshape(3000, 3, 24) @ points
    theirs = counts_of(uniform[meets].reshape(-1, 12)).reshape(-1, 3, 24) @ points
    for s in range(3):
        se = np.sqrt(ours[:, s].var() / 3000 + theirs[:, s].var() / len(theirs))
        assert abs(ours[:, s].mean() - theirs[:, s].mean()) < 4.5 * se + 0.5, (s, ours[:, s].mean(), theirs[:, s].mean())
    placed = sum(len(c.cards) for c in given.clauses if c.kind == "holds")
    share = 300 / drawn
    if placed:
        # named cards are placed, not drawn: the share counts only the other clauses
        assert share >= met
    else:
        assert share == pytest.approx(met, abs=4 * np.sqrt(met * (1 - met) / 4000) + 0.02)


def test_placed_cards_leave_the_rest_uniform() -> None:
    """``holds AS`` with both A♠ unseen: of the uniform deals in which the partner holds an A♠, those in which
    the partner holds both are C(34, 10) / (C(36, 12) - C(34, 12)) = 132/708 — not the 11/35 that placing one
    A♠ and dealing the rest would give (the placement weighs a hand with both twice; the sampler undoes it).
    Checked against the formula and against a direct count over uniform deals."""
    hand = Hand.parse("AH TH KH QH JH KS KS QS KD QD KC QC")
    dealer = ConditionedDeals(RULES, hand, [Given.parse("partner: holds AS")])
    deals, _, _ = dealer.draw(chunk_rng(1, 0), 20000, None)
    ace = Card.parse("AS").index
    both = np.mean(counts_of(deals[:, 1])[:, ace] == 2)
    assert both == pytest.approx(132 / 708, abs=0.012)
    uniform = counts_of(Simulator(RULES, hand, [Suit.H]).deal(chunk_rng(2, 0), 60000)[:, 1])[:, ace]
    assert both == pytest.approx(np.mean(uniform[uniform >= 1] == 2), abs=0.015)


def test_every_unseen_copy_placed_needs_no_correction() -> None:
    dealer = ConditionedDeals(RULES, HAND, [Given.parse("left: holds JD JD")])
    assert dealer.partial == []
    deals, _, drawn = dealer.draw(chunk_rng(1, 0), 500, None)
    assert drawn == 500 and (counts_of(deals[:, 0])[:, Card.parse("JD").index] == 2).all()


def test_holding_a_full_hand_is_fixing_it() -> None:
    """``partner: holds`` all twelve cards: the tally of the deals with the partner's hand fixed and the other
    24 cards dealt to left and right in random order (the conditioned sampler's own recipe)."""
    partner = Hand.parse("AD AD TD TD JD JD 9D 9D AC AC TC TC")
    given = Given.parse("partner: holds " + " ".join(partner.ascii()))
    sim = ConditionedSimulator(RULES, HAND, RULES.suits, [given])
    got = sim.tally([(0, 200), (1, 100)], 9)
    plain = Simulator(RULES, HAND, RULES.suits)
    rest = np.repeat(np.arange(24), np.array(RULES.deck.full().counts) - np.array(HAND.counts)
                     - np.array(partner.counts))
    dealt, leaders = [], []
    for index, n in [(0, 200), (1, 100)]:
        rng = chunk_rng(9, index)
        perm = rng.permuted(np.broadcast_to(rest, (n, 24)), axis=1)
        others = np.empty((n, 3, 12), dtype=np.int64)
        others[:, 0], others[:, 2] = perm[:, :12], perm[:, 12:]
        others[:, 1] = np.repeat(np.arange(24), partner.counts)
        dealt.append(others)
        leaders.append(plain.leaders(rng, n))
    g = plain.play_out(np.concatenate(dealt), np.concatenate(leaders))
    want = Tally.of(g.claim, g.meld, g.points[:, plain.side], 4)
    assert (got.hist, got.meld, got.counters, got.deals) == (want.hist, want.meld, want.counters, want.deals)
    assert got.drawn == 300 * 4


@pytest.mark.parametrize("text", ["partner: aces >= 0", "left: counters <= 250 and clubs >= 0", "right: meld >= 0"])
def test_conditions_every_deal_meets_change_nothing(text: str) -> None:
    plain = estimate(RULES, HAND, samples=700, seed=3, workers=1)
    given = estimate(RULES, HAND, samples=700, seed=3, workers=1, given=[Given.parse(text)])
    assert given.suits == plain.suits
    assert given.acceptance == 1.0
    assert given.conditions == (str(Given.parse(text)),)


def test_serial_equals_parallel() -> None:
    given = [Given.parse("partner: meld >= 40"), Given.parse("left: hearts <= 2")]
    one = estimate(RULES, HAND, samples=1200, seed=8, workers=1, given=given)
    two = estimate(RULES, HAND, samples=1200, seed=8, workers=2, given=given)
    assert one == two
    assert one.acceptance is not None and 0 < one.acceptance < 1


@pytest.mark.parametrize("text, words", [
    ("partner: holds AS AS", "AS is held more often than the unseen cards allow"),
    ("partner: holds AD and lacks AD", "AD both held and lacked"),
    ("left: holds AD AD TD TD JD JD 9D 9D AC AC TC TC 9C", "13 cards held, a hand has 12"),
    ("right: counters > 120", "0 to 120 counters"),
    ("right: hearts >= 8", "0 to 7 hearts"),
    ("partner: aces < 0", "no deal can meet aces < 0"),
])
def test_impossible_conditions_are_refused_at_once(text: str, words: str) -> None:
    with pytest.raises(ConditionError, match=words):
        ConditionedDeals(RULES, HAND, [Given.parse(text)])


def test_two_seats_cannot_hold_the_same_last_card() -> None:
    with pytest.raises(ConditionError, match="AD"):
        ConditionedDeals(RULES, HAND, [Given.parse("left: holds AD"), Given.parse("right: holds AD AD")])


def test_rare_conditions_stop_with_their_share() -> None:
    with pytest.raises(RareConditionError, match=r"fewer than 1 in 50,000|about 1 in") as err:
        estimate(RULES, HAND, samples=2000, seed=1, workers=1, given=[Given.parse("partner: meld >= 300")])
    assert err.value.parameter == "given"


def test_conditioned_deals_tally_alike_from_their_seed() -> None:
    """The conditions act on the deals: the same chunk and seed give the same tally, twice."""
    given = [Given.parse("partner: meld >= 60")]
    sim = ConditionedSimulator(RULES, HAND, [Suit.H, Suit.S], given)
    first = sim.tally([(0, 150)], 2)
    again = ConditionedSimulator(RULES, HAND, [Suit.H, Suit.S], given).tally([(0, 150)], 2)
    assert (first.hist, first.meld, first.drawn) == (again.hist, again.meld, again.drawn)
    assert first.deals == 150
