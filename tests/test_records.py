"""Reading and checking match records: every field, every refusal with its exact message."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pinochle_cli.cards import Suit
from pinochle_cli.errors import AuctionError, RecordError
from pinochle_cli.records import parse_record, read_record, run_auction
from pinochle_cli.ruleset import load_ruleset

HEAD = """\
ruleset: single-deck
teams:
  North-South: [Ann, Cy]
  East-West: [Bob, Di]
deals:
"""


def record(deals: str, head: str = HEAD):
    return parse_record(head + textwrap.indent(textwrap.dedent(deals), "  "), "r.yaml")


def refused(deals: str, head: str = HEAD) -> str:
    with pytest.raises(RecordError) as info:
        record(deals, head)
    return str(info.value)


def test_the_records_md_example():
    r = record("""\
        - dealer: Ann
          bidder: Bob
          bid: 300
          trump: hearts
          meld: {North-South: 60, East-West: 180}
          counters: {North-South: 80, East-West: 170}
        - dealer: Bob
          bidder: Cy
          bid: 250
          trump: spades
          meld: {North-South: 100, East-West: 40}
          conceded: true
        """)
    assert r.sides == ("North-South", "East-West")
    assert r.table.seating == ("Ann", "Bob", "Cy", "Di")
    assert [d.score.result for d in r.deals] == ["made", "conceded"]
    assert [d.standing.totals for d in r.deals] == [(140, 350), (-110, 390)]
    assert r.deals[0].trump is Suit.H and r.deals[1].counters is None
    assert r.standing.status == "in-progress" and r.winner is None


def test_empty_and_missing_deals():
    assert record("", HEAD.replace("deals:\n", "deals: []\n")).deals == ()
    assert record("", HEAD.replace("deals:\n", "")).deals == ()
    assert record("").standing.totals == (0, 0)


def test_players_meld_adds_up_by_team_and_cards_are_scored():
    r = record("""\
        - bidder: Ann
          bid: 250
          trump: H
          meld: {Ann: 100, Cy: AH 10H KH QH JH, Bob: 20}
          counters: {Ann: 100, Cy: 60, East-West: 90}
        """)
    assert r.deals[0].meld == (250, 20)
    assert r.deals[0].counters == (160, 90)
    assert r.deals[0].score.points == (410, 110)


def test_ints_options_and_relative_ruleset_path(tmp_path):
    rules_text = Path(load_ruleset("single-deck-small").path).read_text(encoding="utf-8")
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "mine.yaml").write_text(rules_text, encoding="utf-8")
    path = tmp_path / "r.yaml"
    path.write_text("ruleset: house/mine.yaml\noptions: {target: 75}\nteams: {A: [an, cy], B: [bo, di]}\n"
                    "deals:\n  - {bidder: an, bid: 75, trump: S, meld: {A: 70}, counters: {A: 10, B: 15}}\n",
                    encoding="utf-8")
    r = read_record(str(path))
    assert r.rules.match.target == 75 and r.winner == "A"


def test_seating_and_two_handed_players():
    r = parse_record("ruleset: two-handed\nplayers: [Pat, Sam]\ndeals:\n"
                     "  - {meld: {Pat: 40}, counters: {Pat: 200, Sam: 50}}\n", "t.yaml")
    assert r.sides == ("Pat", "Sam") and r.deals[0].score.points == (240, 50)
    assert r.deals[0].score.result is None
    r = record("", HEAD + "")
    assert r.table.seating == ("Ann", "Bob", "Cy", "Di")
    r = parse_record(HEAD.replace("deals:\n", "seating: [Bob, Ann, Di, Cy]\n"), "s.yaml")
    assert r.table.seating == ("Bob", "Ann", "Di", "Cy")


# (deals, exact message): each refusal
REFUSALS = [
    ("counters do not add up",
     "- {bidder: Bob, bid: 300, meld: {North-South: 60, East-West: 180}, counters: {North-South: 80, East-West: 160}}",
     "r.yaml:6: deal 1, counters: add up to 240, expected 250"),
    ("counters missing",
     "- {bidder: Bob, bid: 250, meld: {North-South: 60}}",
     "r.yaml:6: deal 1, counters: missing counters (the counter points each team took, 250 in all)"),
    ("counters for one side only",
     "- {bidder: Bob, bid: 250, counters: {North-South: 80}}",
     "r.yaml:6: deal 1, counters: no counters for East-West (they add up to 250)"),
    ("counters off the units",
     "- {bidder: Bob, bid: 250, counters: {North-South: 85, East-West: 165}}",
     "r.yaml:6: deal 1, counters: North-South: 85 is not a multiple of 10"),
    ("bid below the minimum",
     "- {bidder: Bob, bid: 240, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, bid: 240 is below the minimum bid 250"),
    ("bid off the steps",
     "- {bidder: Bob, bid: 255, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, bid: 255 is off the steps (from 250: steps of 10; next valid bid 260)"),
    ("bidder not at the table",
     "- {bidder: Zed, bid: 250, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, bidder: 'Zed' is not at the table (Ann, Bob, Cy, Di)"),
    ("meld key not at the table",
     "- {bidder: Bob, bid: 250, meld: {Zed: 20}, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, meld: 'Zed' is not at the table (North-South, East-West, Ann, Bob, Cy, Di)"),
    ("unknown key",
     "- dealer: Ann\n  bidder: Bob\n  bid: 250\n  trmp: H\n",
     "r.yaml:9: deal 1: unknown key 'trmp' (a deal has dealer, bidder, bid, auction, trump, meld, counters, tricks, "
     "hands, stock, widow, buried, play, conceded, no-trump, redeal, notes)"),
    ("auction ends elsewhere",
     "- {dealer: Ann, auction: [250, 260, pass, pass, pass], bidder: Bob, bid: 250, "
     "counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, bidder: 'Bob', but the auction ends with Cy at 260"),
    ("auction bid ends elsewhere",
     "- {dealer: Ann, auction: [250, 260, pass, pass, pass], bid: 250, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, bid: 250, but the auction ends with Cy at 260"),
    ("auction does not raise",
     "- {dealer: Ann, auction: [250, 250], counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, auction: call 2 (Cy): 250 does not raise Bob's 250 (at least 260)"),
    ("auction off the steps",
     "- {dealer: Ann, auction: [250, 265], counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, auction: call 2 (Cy): 265 is off the steps (from 250: steps of 10; next valid bid 270)"),
    ("auction not over",
     "- {dealer: Ann, auction: [250, 260, pass], counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, auction: the auction is not over: Ann, Bob and Cy are still bidding"),
    ("auction goes on after the end",
     "- {dealer: Ann, auction: [250, pass, pass, pass, 260], counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, auction: call 5 (260): the auction was over after call 4 (Bob at 250)"),
    ("stuck dealer bids more",
     "- {dealer: Ann, auction: [pass, pass, pass, 260], counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, auction: call 4 (Ann): after the others passed the dealer is stuck at 250, got 260"),
    ("auction without a dealer",
     "- {auction: [250, pass, pass, pass], counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, auction: an auction starts at the dealer's left: add dealer:"),
    ("trump not a suit",
     "- {bidder: Bob, bid: 250, trump: stars, counters: {North-South: 80, East-West: 170}}",
     'r.yaml:6: deal 1, trump: "stars" is not a suit (use S, H, D, C, a suit name or ♠ ♥ ♦ ♣)'),
    ("counters on a conceded deal",
     "- {bidder: Bob, bid: 250, conceded: true, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, counters: the deal ended after the meld (conceded): no cards were played"),
    ("counters on a deal not on board",
     "- {bidder: Bob, bid: 350, meld: {East-West: 50}, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, counters: the deal ended after the meld (not on board: meld 50 + 250 is below the bid 350): "
     "no cards were played"),
    ("no trump in a game where any suit may be named",
     "- {bidder: Bob, bid: 250, no-trump: true}",
     "r.yaml:6: deal 1, no-trump: the single-deck game has no deal without trump (the bidder may name any suit)"),
    ("two flags",
     "- {bidder: Bob, bid: 250, conceded: true, redeal: true}",
     "r.yaml:6: deal 1, conceded: a deal is at most one of redeal, conceded and no-trump, got redeal and conceded"),
    ("a redeal with a bid",
     "- {redeal: true, bid: 250}",
     "r.yaml:6: deal 1, bid: a redealt deal was thrown in before the auction: it has no bid"),
    ("team and its player both given",
     "- {bidder: Bob, bid: 250, meld: {North-South: 60, Ann: 20}, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, meld: meld given for North-South and for Ann: give one or the other"),
    ("team meld as cards",
     "- {bidder: Bob, bid: 250, trump: H, meld: {North-South: KH QH}, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, meld.North-South: a team's meld is a number; cards are shown by a player"),
    ("meld cards without trump",
     "- {bidder: Bob, bid: 250, meld: {Ann: KH QH}, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, meld.Ann: meld given as cards needs the trump suit: add trump:"),
    ("bad card in meld",
     "- {bidder: Bob, bid: 250, trump: H, meld: {Ann: KH QX}, counters: {North-South: 80, East-West: 170}}",
     'r.yaml:6: deal 1, meld.Ann: "QX" is not a card (a rank A 10 T K Q J 9 and a suit S H D C or ♠ ♥ ♦ ♣)'),
    ("the trick question",
     "- {bidder: Bob, bid: 250, meld: {North-South: 60, East-West: 180}, counters: {North-South: 0, East-West: 250}}",
     "r.yaml:6: deal 1, tricks: North-South took no counters; add tricks: to say whether they took a trick "
     "(the score depends on it)"),
    ("tricks contradict counters",
     "- {bidder: Bob, bid: 250, counters: {North-South: 10, East-West: 240}, tricks: {North-South: 0}}",
     "r.yaml:6: deal 1, tricks: North-South took no trick but 10 counters"),
    ("tricks do not add up",
     "- {bidder: Bob, bid: 250, counters: {North-South: 10, East-West: 240}, tricks: {North-South: 5, Bob: 5, Di: 1}}",
     "r.yaml:6: deal 1, tricks: add up to 11, expected 12"),
    ("bid missing",
     "- {bidder: Bob, counters: {North-South: 80, East-West: 170}}",
     "r.yaml:6: deal 1, bid: missing bid (the contract)"),
    ("not a mapping", "- 300", "r.yaml:6: deal 1: a deal is a mapping of fields, got 300"),
]


@pytest.mark.parametrize(("label", "deals", "message"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals(label, deals, message):
    assert refused(deals) == message


def test_deal_after_the_match_was_decided():
    deals = """\
        - {bidder: Ann, bid: 1500, meld: {North-South: 1500}, counters: {North-South: 250, East-West: 0}}
        - {bidder: Bob, bid: 250, counters: {North-South: 80, East-West: 170}}
        """
    assert refused(deals) == "r.yaml:7: deal 2: the match was already decided after deal 1: North-South won 1750 to 0"


TOP_REFUSALS = [
    ("unknown top key", "ruleset: single-deck\nteem: {}\n", "r.yaml:2: unknown key 'teem' (a record has ruleset, "
     "options, teams, players, seating, deals, title, date, notes)"),
    ("no ruleset", "teams: {}\n", "r.yaml:1: ruleset: missing ruleset (a bundled name such as single-deck, or a path)"),
    ("players in a partnership game", "ruleset: single-deck\nplayers: [a, b, c, d]\n",
     "r.yaml:2: players: the single-deck game plays in partnerships: give teams (a name and its players for each team)"),
    ("teams in two-handed", "ruleset: two-handed\nteams: {A: [a], B: [b]}\n",
     "r.yaml:2: teams: the two-handed game has no partnerships: give players"),
    ("three teams", "ruleset: single-deck\nteams: {A: [a, b], B: [c, d], C: [e, f]}\n",
     "r.yaml:2: teams: 3 teams given, the single-deck game has 2"),
    ("a name twice", "ruleset: single-deck\nteams: {A: [a, b], B: [a, d]}\n",
     "r.yaml:2: teams: the name 'a' is used twice"),
    ("seating splits partners", "ruleset: single-deck\nteams: {A: [an, bo], B: [cy, di]}\nseating: [an, bo, cy, di]\n",
     "r.yaml:3: seating: an and bo (A) sit at seats [0, 1]; partners sit at seats [0, 2] or [1, 3]"),
    ("seating stranger", "ruleset: single-deck\nteams: {A: [an, bo], B: [cy, di]}\nseating: [an, cy, bo, z]\n",
     "r.yaml:3: seating: 'z' is not at the table (an, bo, cy, di)"),
    ("bad option", "ruleset: single-deck-small\noptions: {target: 99}\nteams: {A: [a, b], B: [c, d]}\n",
     "r.yaml:2: options: option target='99' is not a choice (choices: 150, 75, 4-deals, 8-deals)"),
    ("unknown ruleset", "ruleset: canasta\nteams: {A: [a, b], B: [c, d]}\n",
     "r.yaml:1: ruleset: no bundled ruleset named 'canasta' and no such file (bundled: two-handed, single-deck, "
     "single-deck-small, double-deck, three-handed)"),
    ("not YAML", "ruleset: [\n", None),
]


@pytest.mark.parametrize(("label", "text", "message"), TOP_REFUSALS, ids=[r[0] for r in TOP_REFUSALS])
def test_top_refusals(label, text, message):
    with pytest.raises(RecordError) as info:
        parse_record(text, "r.yaml")
    if message is None:
        assert str(info.value).startswith("r.yaml:2:1: not valid YAML")
    else:
        assert str(info.value) == message


# --------------------------------------------------------------------------- the auction

AUCTIONS = [
    ([250, "pass", "pass", "pass"], (1, 250)),
    (["pass", "pass", "pass"], (0, 250)),  # the dealer is stuck
    (["pass", "pass", "pass", "pass"], (0, 250)),  # the dealer's pass takes the minimum
    (["pass", "pass", "pass", 250], (0, 250)),
    ([250, 260, "pass", 270, "pass", "pass"], (0, 270)),
    (["pass", 250, 260, 270, "pass", "pass"], (0, 270)),  # Bob's pass is final: Cy then Di then Ann
]


@pytest.mark.parametrize(("calls", "expected"), AUCTIONS)
def test_auctions(calls, expected):
    assert run_auction(load_ruleset("single-deck"), 0, [str(c) for c in calls]) == expected


def test_double_deck_steps():
    dd = load_ruleset("double-deck")
    assert run_auction(dd, 0, ["50", "51", "pass", "60", "pass", "65", "pass"]) == (2, 65)
    with pytest.raises(AuctionError, match="62 is off the steps"):
        run_auction(dd, 0, ["50", "51", "pass", "60", "pass", "62"])


# --------------------------------------------------------------------------- the small game's options

SMALL = """\
ruleset: single-deck-small
options: {marriage-required: "yes", target: 4-deals}
teams: {A: [Eve, Gus], B: [Fay, Hal]}
deals:
"""


def test_dix_only_meld_given_as_cards_is_kept_and_a_number_may_need_them():
    r = record("- {bidder: Hal, bid: 30, trump: C, meld: {B: 24, Gus: 9C 9C}, counters: {A: 0, B: 25}}\n", SMALL)
    assert r.deals[0].score.points == (2, 49)
    assert record("- {bidder: Hal, bid: 30, trump: C, meld: {B: 24, A: 1}, counters: {A: 0, B: 25}}\n",
                  SMALL).deals[0].score.points == (1, 49)
    assert refused("- {bidder: Hal, bid: 30, trump: C, meld: {B: 24, A: 2}, counters: {A: 0, B: 25}}\n", SMALL) == (
        "r.yaml:5: deal 1, meld: A keep their meld of 2 only if it is all dix; give that meld as the cards shown "
        "(by player) to say which")
    # a marriage is not dix: lost
    assert record("- {bidder: Hal, bid: 30, trump: C, meld: {B: 24, Gus: KH QH}, counters: {A: 0, B: 25}}\n",
                  SMALL).deals[0].score.points == (0, 49)


# --------------------------------------------------------------------------- hands and play

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PLAYED = (EXAMPLES / "single-deck-played.yaml").read_text(encoding="utf-8")


def test_played_deal_replays_clean():
    r = parse_record(PLAYED, "p.yaml")
    d = r.deals[0]
    assert d.played and d.counters == (90, 160) and d.tricks == (5, 7)
    assert d.meld == (180, 0) and d.score.points == (270, 160)


def test_renege_is_named_by_deal_trick_player_and_rule():
    # Di keeps her A♦ for trick 3 and plays the 9♦ under the Q♦ led in trick 1
    text = PLAYED.replace("- [QD, AD, QD, AD]", "- [QD, 9D, QD, AD]").replace(
        "- [10D, KD, 9D, 10D]", "- [10D, KD, AD, 10D]")
    with pytest.raises(RecordError) as info:
        parse_record(text, "p.yaml")
    assert str(info.value) == "p.yaml:20: deal 1, trick 1: Di played 9♦ holding A♦ — must beat the Q♦ led"
    assert info.value.trick == 1 and info.value.deal == 1


def test_revoke_and_card_not_held():
    text = PLAYED.replace("- [QD, AD, QD, AD]", "- [QD, AD, QD, AC]")
    with pytest.raises(RecordError) as info:
        parse_record(text, "p.yaml")
    assert str(info.value) == "p.yaml:20: deal 1, trick 1: Bob played A♣ holding A♦ 10♦ 9♦ — must follow suit in ♦"
    text = PLAYED.replace("- [QD, AD, QD, AD]", "- [QD, AD, QD, KH]")
    with pytest.raises(RecordError) as info:
        parse_record(text, "p.yaml")
    assert str(info.value) == "p.yaml:20: deal 1, trick 1: Bob played K♥, which is not in their hand"


def test_given_counters_must_agree_with_the_play():
    text = PLAYED.replace("meld: {North-South: 180}", "meld: {North-South: 180}\n    counters: {North-South: 100, "
                          "East-West: 150}")
    with pytest.raises(RecordError, match="counters: North-South took 100, but the play gives 90"):
        parse_record(text, "p.yaml")


def test_meld_contradicted_by_hands():
    text = PLAYED.replace("meld: {North-South: 180}", "meld: {North-South: 200}")
    with pytest.raises(RecordError) as info:
        parse_record(text, "p.yaml")
    assert str(info.value) == "p.yaml:18: deal 1, meld.North-South: North-South's meld is 200, but the hands recorded score 180"
    text = PLAYED.replace("meld: {North-South: 180}", "meld: {Cy: 120}")
    with pytest.raises(RecordError, match=r"meld\.Cy: Cy's meld is 120, but the hand recorded scores 130"):
        parse_record(text, "p.yaml")


def test_hands_sharing_cards_and_wrong_size():
    text = PLAYED.replace("Ann: KS JS 9S AH AH", "Ann: KS JS 9S AD AH")
    with pytest.raises(RecordError, match="hands: the hands share cards: 3 copies of A♦"):
        parse_record(text, "p.yaml")
    text = PLAYED.replace("Ann: KS JS 9S AH AH", "Ann: KS JS 9S AH")
    with pytest.raises(RecordError, match=r"hands\.Ann: Ann holds 11 cards, a hand has 12"):
        parse_record(text, "p.yaml")


def test_play_needs_every_hand_and_all_tricks():
    text = PLAYED.replace("      Di:  JS KH 9H AD JD 9D AC 10C 10C KC JC 9C\n", "")
    with pytest.raises(RecordError, match="play: replaying the play needs every player's hand: add hands for Di"):
        parse_record(text, "p.yaml")
    text = PLAYED.replace("      - [QH, 10S, JH, 10C]\n", "")
    with pytest.raises(RecordError, match="play: 11 tricks recorded, a deal has 12"):
        parse_record(text, "p.yaml")


DD_HEAD = """\
ruleset: double-deck
teams: {A: [Kim, Lou], B: [Max, Ned]}
deals:
"""
KIM = "AS AS KS QS JS AH TH KH JH AD TD KD QD JD AC TC KC QC JC JC"  # K+Q in spades, diamonds, clubs


def test_trump_must_be_eligible_when_the_hand_is_known():
    deal = f"- {{bidder: Kim, bid: 50, trump: H, hands: {{Kim: {KIM}}}, counters: {{A: 30, B: 20}}}}\n"
    assert refused(deal, DD_HEAD) == ("r.yaml:4: deal 1, trump: Kim cannot name hearts: holding A♥ 10♥ K♥ J♥, "
                                      "trump must be a suit of which the bidder holds K and Q")
    assert record(deal.replace("trump: H", "trump: S"), DD_HEAD).deals[0].score.result == "made"
    no_trump = f"- {{bidder: Kim, bid: 50, no-trump: true, hands: {{Kim: {KIM}}}}}\n"
    assert refused(no_trump, DD_HEAD) == ("r.yaml:4: deal 1, no-trump: Kim holds K and Q of spades, diamonds and "
                                          "clubs and could name trump")


def test_two_handed_played_deal_with_its_stock():
    import numpy as np

    from pinochle_cli.cards import format_cards
    from pinochle_cli.game.deal import deal_cards, play_deal, random_strategy

    rules = load_ruleset("two-handed")
    hands, stock = deal_cards(rules, np.random.default_rng(11))
    trump = stock[-1].suit
    played = play_deal(rules, hands, trump, 1, random_strategy(np.random.default_rng(3)), stock=stock)
    tricks = "".join(f"      - [{', '.join(c.ascii() for c in t)}]\n" for t in played.tricks)
    text = ("ruleset: two-handed\nplayers: [Pat, Sam]\ndeals:\n  - dealer: Pat\n"
            f"    trump: {trump.letter}\n    meld: {{Pat: 40}}\n"
            f"    hands: {{Pat: {format_cards(hands[0], ascii=True)}, Sam: {format_cards(hands[1], ascii=True)}}}\n"
            f"    stock: {format_cards(stock, ascii=True)}\n    play:\n{tricks}")
    deal = parse_record(text, "t.yaml").deals[0]
    assert deal.played and deal.counters == tuple(played.counters) and sum(deal.counters) == 250
    assert deal.score.points == (deal.counters[0] + (40 if played.tricks_won[0] else 0), deal.counters[1])
    with pytest.raises(RecordError, match="play: this game draws from a stock: add stock:"):
        parse_record(text.replace(f"    stock: {format_cards(stock, ascii=True)}\n", ""), "t.yaml")
