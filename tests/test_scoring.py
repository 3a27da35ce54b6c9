"""Deal and match scoring: one test per scoring rule of the games (docs/games/NAME.md), driven by the rulesets' data."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_cli.errors import MissingFactError, ScoringError
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.scoring import DealFacts, match_standing, meld_only_from_number, not_on_board, score_deal, score_match

SD = load_ruleset("single-deck")
SMALL = load_ruleset("single-deck-small")
DD = load_ruleset("double-deck")
TWO = load_ruleset("two-handed")


def facts(meld, counters=None, bidder=0, bid=None, took=None, only=None, **flags):
    return DealFacts(meld=tuple(meld), counters=None if counters is None else tuple(counters), bidder_side=bidder,
                     bid=bid, took_trick=None if took is None else tuple(took),
                     meld_only=None if only is None else tuple(only), **flags)


# (ruleset, facts, result, points): every deal rule
DEALS = [
    # single-deck: made scores meld + counters, defenders meld + counters
    ("single-deck made", SD, facts((60, 180), (80, 170), bidder=1, bid=300), "made", (140, 350)),
    ("single-deck made exactly", SD, facts((100, 0), (150, 100), bid=250), "made", (250, 100)),
    ("single-deck set loses the bid and nothing else", SD, facts((40, 190), (150, 100), bidder=1, bid=300),
     "set", (190, -300)),
    ("single-deck defenders without a trick lose their meld", SD,
     facts((200, 60), (250, 0), bid=300, took=(True, False)), "made", (450, 0)),
    ("single-deck defenders with a trick but no counters keep meld", SD,
     facts((200, 60), (250, 0), bid=300, took=(True, True)), "made", (450, 60)),
    ("single-deck bidders without a trick are set even if meld reaches", SD,
     facts((300, 20), (0, 250), bid=300, took=(False, True)), "set", (-300, 270)),
    ("single-deck bidders with a trick of no counters and meld reaching", SD,
     facts((300, 20), (0, 250), bid=300, took=(True, True)), "made", (300, 270)),
    ("single-deck not on board", SD, facts((40, 90), None, bid=300), "not-on-board", (-300, 90)),
    ("single-deck not on board even if conceded", SD, facts((40, 90), None, bid=300, conceded=True),
     "not-on-board", (-300, 90)),
    ("single-deck on board by exactly the bid", SD, facts((50, 90), (250, 0), bid=300, took=(True, False)),
     "made", (300, 0)),
    ("single-deck concession", SD, facts((100, 40), None, bidder=0, bid=250, conceded=True), "conceded", (-250, 40)),
    ("single-deck redeal scores nothing", SD, facts((0, 0), None, bidder=None, redeal=True), "redeal", (0, 0)),
    # single-deck-small: a counter point keeps meld and is needed to make the bid; dix-only kept
    ("small made", SMALL, facts((15, 6), (14, 11), bid=27), "made", (29, 17)),
    ("small bidders with meld reaching but no counter are set", SMALL, facts((30, 8), (0, 25), bid=26),
     "set", (-26, 33)),
    ("small defenders without a counter lose meld", SMALL, facts((24, 8), (25, 0), bid=30), "made", (49, 0)),
    ("small defenders without a counter keep a dix-only meld", SMALL,
     facts((24, 2), (25, 0), bid=30, only=(False, True)), "made", (49, 2)),
    ("small a trick without counters does not keep meld", SMALL,
     facts((24, 8), (25, 0), bid=30, took=(True, True)), "made", (49, 0)),
    ("small not on board", SMALL, facts((12, 5), None, bid=40), "not-on-board", (-40, 5)),
    ("small concession", SMALL, facts((12, 5), None, bid=30, conceded=True), "conceded", (-30, 5)),
    ("small no trump: defenders score nothing", load_ruleset(
        "single-deck-small", {"marriage-required": "yes"}), facts((12, 5), None, bid=30, no_trump=True),
     "no-trump", (-30, 0)),
    # double-deck: meld always kept; no not-on-board rule (the deal is played)
    ("double-deck set", DD, facts((10, 30), (26, 24), bidder=1, bid=70), "set", (36, -70)),
    ("double-deck meld kept without counters", DD, facts((40, 30), (50, 0), bid=60), "made", (90, 30)),
    ("double-deck out of reach is still played", DD, facts((5, 30), (50, 0), bid=100), "set", (-100, 30)),
    ("double-deck no trump", DD, facts((10, 30), None, bid=55, no_trump=True), "no-trump", (-55, 0)),
    # two-handed: no auction, each player meld + counters, meld forfeited without a trick
    ("two-handed both score", TWO, facts((150, 60), (130, 120), bidder=None), None, (280, 180)),
    ("two-handed forfeit", TWO, facts((40, 240), (250, 0), bidder=None, took=(True, False)), None, (290, 0)),
]


@pytest.mark.parametrize(("label", "rules", "deal", "result", "points"), DEALS, ids=[d[0] for d in DEALS])
def test_deal_rules(label, rules, deal, result, points):
    score = score_deal(rules, deal)
    assert (score.result, score.points) == (result, points)


def test_minus_double_bid_and_meld_outcomes_come_from_data(edited_ruleset):
    house = edited_ruleset("single-deck", ("set: {bidders: minus-bid, defenders: meld-and-counters}",
                                           "set: {bidders: minus-double-bid, defenders: meld}")).rules()
    assert score_deal(house, facts((40, 190), (150, 100), bidder=1, bid=300)).points == (40, -600)


def test_keep_meld_always_from_data(edited_ruleset):
    house = edited_ruleset("single-deck", ("keep_meld: trick", "keep_meld: always")).rules()
    # no tricks known and no counters: it does not matter under 'always'
    assert score_deal(house, facts((200, 60), (250, 0), bid=300)).points == (450, 60)


def test_unknown_trick_that_matters_is_asked_for():
    with pytest.raises(MissingFactError) as info:
        score_deal(SD, facts((200, 60), (250, 0), bid=300))
    assert (info.value.fact, info.value.side, info.value.field) == ("tricks", 1, "tricks")


def test_unknown_trick_that_does_not_matter_is_not_asked_for():
    assert score_deal(SD, facts((200, 0), (250, 0), bid=300)).points == (450, 0)
    # bidders without counters are set whether or not they took a trick when meld < bid
    assert score_deal(SD, facts((100, 20), (0, 250), bid=300)).points == (-300, 270)


def test_unknown_dix_only_that_matters_is_asked_for():
    with pytest.raises(MissingFactError) as info:
        score_deal(SMALL, facts((24, 2), (25, 0), bid=30, only=(False, None)))
    assert (info.value.fact, info.value.side, info.value.field) == ("meld", 1, "meld")


@pytest.mark.parametrize(("points", "expected"), [(0, False), (1, True), (2, None), (3, False), (4, False)])
def test_dix_only_from_a_number(points, expected):
    # dix 1 each: 1 can only be dix; 2 is dix twice or a marriage; 3 cannot be dix alone (two nines of trump)
    assert meld_only_from_number(SMALL, points) is expected


def test_dix_only_means_nothing_without_kept_if_only():
    assert meld_only_from_number(SD, 10) is False


def test_not_on_board_is_data():
    assert not_on_board(SD, facts((40, 0), bid=300))
    assert not not_on_board(SD, facts((50, 0), bid=300))
    assert not not_on_board(DD, facts((0, 0), bid=100))  # double-deck has no such rule


def test_double_deck_has_no_concession_unless_a_house_rule_adds_it(edited_ruleset):
    with pytest.raises(ScoringError, match="no rule for conceding a deal"):
        score_deal(DD, facts((10, 30), None, bid=55, conceded=True))
    house = edited_ruleset("double-deck", (
        "  no_trump: {bidders: minus-bid, defenders: nothing}",
        "  no_trump: {bidders: minus-bid, defenders: nothing}\n  concede: {bidders: minus-bid, defenders: meld}")).rules()
    assert score_deal(house, facts((10, 30), None, bid=55, conceded=True)).points == (-55, 30)


def test_ruleset_without_a_rule_refuses(edited_ruleset):
    # (double-deck has no concession rule as bundled: see the test above)
    house = edited_ruleset("single-deck", ("  concede: {bidders: minus-bid, defenders: meld}", "  concede: null")).rules()
    with pytest.raises(ScoringError, match="no rule for conceding a deal"):
        score_deal(house, facts((10, 10), None, bid=house.auction.minimum, conceded=True))


# --------------------------------------------------------------------------- the match

STANDINGS = [
    # (rules, totals, deals counted, bidder side, status, winner)
    ("nobody there yet", SD, (1490, 1400), 5, 0, "in-progress", None),
    ("one team reaches", SD, (1500, 1400), 5, 1, "won", 0),
    ("both reach: the bidders win though lower", SD, (1510, 1600), 5, 0, "won", 0),
    ("both reach: the bidders win", SD, (1510, 1600), 5, 1, "won", 1),
    ("double-deck both reach: bidders", DD, (520, 510), 6, 1, "won", 1),
    ("two-handed both reach: higher wins", TWO, (1000, 1010), 4, None, "won", 1),
    ("two-handed exact tie plays on", TWO, (1010, 1010), 4, None, "in-progress", None),
    ("negative scores are fine", SD, (-500, 300), 3, 0, "in-progress", None),
]


@pytest.mark.parametrize(("label", "rules", "totals", "deals", "bidder", "status", "winner"), STANDINGS,
                         ids=[s[0] for s in STANDINGS])
def test_standing(label, rules, totals, deals, bidder, status, winner):
    s = match_standing(rules, totals, deals, bidder)
    assert (s.status, s.winner) == (status, winner)


def test_fixed_number_of_deals():
    four = load_ruleset("single-deck-small", {"target": "4-deals"})
    assert match_standing(four, (500, 10), 3, 0).status == "in-progress"  # no points target
    assert (match_standing(four, (23, 45), 4, 0).status, match_standing(four, (23, 45), 4, 0).winner) == ("won", 1)
    draw = match_standing(four, (30, 30), 4, 0)
    assert (draw.status, draw.winner) == ("draw", None)
    eight = load_ruleset("single-deck-small", {"target": "8-deals"})
    assert match_standing(eight, (23, 45), 4, 0).status == "in-progress"


def test_target_option_changes_the_target():
    short = load_ruleset("single-deck-small", {"target": "75"})
    assert match_standing(short, (75, 0), 1, 1).status == "won"
    assert match_standing(SMALL, (75, 0), 1, 1).status == "in-progress"


def test_score_match_running_totals_and_refuses_a_deal_after_the_end():
    four = load_ruleset("single-deck-small", {"target": "4-deals"})
    deals = [facts((15, 6), (14, 11), bid=27), facts((12, 5), None, bidder=0, bid=40),
             facts((0, 0), None, bidder=None, redeal=True),  # a redeal does not count as one of the 4
             facts((1, 24), (0, 25), bidder=1, bid=30, only=(True, False)),
             facts((8, 30), (25, 0), bidder=1, bid=26)]
    out = score_match(four, deals)
    assert [s.totals for _, s in out] == [(29, 17), (-11, 22), (-11, 22), (-10, 71), (23, 45)]
    assert [s.status for _, s in out] == ["in-progress"] * 4 + ["won"]
    with pytest.raises(ScoringError, match="already decided after deal 5") as info:
        score_match(four, [*deals, facts((0, 0), (10, 15), bid=25)])
    assert info.value.deal == 6


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([SD, SMALL, DD]), st.data())
def test_played_deal_properties(rules, data):
    """Made: bidders score at least the bid; set: exactly minus the bid; defenders never negative."""
    total = rules.counter_total
    bid = data.draw(st.sampled_from(rules.auction.ladder(rules.auction.minimum + total)))
    mine = data.draw(st.integers(0, total))
    meld = (data.draw(st.integers(0, 2 * total)), data.draw(st.integers(0, 2 * total)))
    took = (data.draw(st.booleans()) or mine > 0, data.draw(st.booleans()) or mine < total)
    deal = facts(meld, (mine, total - mine), bid=bid, took=took)
    score = score_deal(rules, deal)
    if score.result == "made":
        assert score.points[0] >= bid
    elif score.result == "set":
        assert score.points[0] == -bid
    else:
        assert score.result == "not-on-board"
        assert meld[0] + total < bid
    assert score.points[1] >= 0
