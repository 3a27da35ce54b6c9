"""Records of the three-handed game, one rule of RULES.md's section at a time, every number worked by hand:
the widow and the buried cards, each player keeping their own meld, not on board, the throw-in, the dealer
stuck, the bidder alone melding, several players past the target on one deal, the replay of a played deal,
and the command line's new options and refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clihelp import run_cli, run_cli_json

from pinochle_cli.cards import Suit, parse_cards
from pinochle_cli.errors import PlayError, RecordError
from pinochle_cli.game.deal import replay_deal
from pinochle_cli.records import MatchRecord, parse_record, read_record
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.scoring import match_standing

ROOT = Path(__file__).resolve().parent.parent
PLAYED = (ROOT / "examples" / "three-handed-played.yaml").read_text(encoding="utf-8")
THREE = (ROOT / "rulesets" / "three-handed.yaml").read_text(encoding="utf-8")
HEAD = "ruleset: three-handed\nplayers: [Ann, Bob, Cy]\n"


def record(*deals: str, head: str = HEAD, base: str | None = None) -> MatchRecord:
    """A record of these deals (each the flow mapping of one deal's fields)."""
    return parse_record(head + "deals:\n" + "".join(f"  - {{{d}}}\n" for d in deals), "r.yaml", base)


def refused(*deals: str, head: str = HEAD) -> str:
    with pytest.raises(RecordError) as info:
        record(*deals, head=head)
    return str(info.value)


def points(rec: MatchRecord, deal: int = 1) -> tuple[str | None, tuple[int, ...]]:
    d = rec.deals[deal - 1]
    return d.score.result, d.score.points


def played(old: str = "", new: str = "") -> str:
    """The played example, one text changed."""
    assert old in PLAYED
    return PLAYED.replace(old, new, 1)


def played_refused(text: str) -> str:
    with pytest.raises(RecordError) as info:
        parse_record(text, "p.yaml")
    return str(info.value)


DEAL = "dealer: Ann, bidder: Bob, bid: 300, trump: hearts"


# --------------------------------------------------------------------------- scoring, each player alone

def test_the_bidder_makes_and_each_opponent_scores_their_own_meld_and_counters() -> None:
    # Bob 200 + 100 = 300 reaches 300; Ann 40 + 90; Cy 0 + 60
    rec = record(f"{DEAL}, meld: {{Ann: 40, Bob: 200, Cy: 0}}, counters: {{Ann: 90, Bob: 100, Cy: 60}}")
    assert points(rec) == ("made", (130, 300, 60))
    assert rec.standing.totals == (130, 300, 60)


def test_a_player_who_took_no_trick_loses_only_their_own_meld() -> None:
    # Cy took no trick: the 40 melded is lost; Ann keeps her 60; Bob 250 + 150 = 400 makes 300
    rec = record(f"{DEAL}, meld: {{Ann: 60, Bob: 250, Cy: 40}}, counters: {{Ann: 100, Bob: 150, Cy: 0}}, "
                 "tricks: {Cy: 0}")
    assert points(rec) == ("made", (160, 400, 0))
    assert rec.to_json()["deals"][0]["kept_meld"] == {"Ann": True, "Bob": True, "Cy": False}
    # without tricks the record cannot say whether Cy keeps the 40
    assert refused(f"{DEAL}, meld: {{Ann: 60, Bob: 250, Cy: 40}}, counters: {{Ann: 100, Bob: 150, Cy: 0}}") == (
        "r.yaml:4: deal 1, tricks: Cy took no counters; add tricks: to say whether they took a trick "
        "(the score depends on it)")


def test_the_bidder_who_is_set_loses_the_bid_and_nothing_else() -> None:
    # Bob 190 + 100 = 290 is short of 300: -300; Ann 20 + 90, Cy 30 + 60
    rec = record(f"{DEAL}, meld: {{Ann: 20, Bob: 190, Cy: 30}}, counters: {{Ann: 90, Bob: 100, Cy: 60}}")
    assert points(rec) == ("set", (110, -300, 90))


def test_not_on_board_ends_the_deal_after_the_meld() -> None:
    # Bob's 40 + 250 = 290 is below 300: Bob -300, each opponent their meld
    rec = record(f"{DEAL}, meld: {{Ann: 60, Bob: 40, Cy: 30}}")
    assert points(rec) == ("not-on-board", (60, -300, 30))
    assert refused(f"{DEAL}, meld: {{Ann: 60, Bob: 40, Cy: 30}}, counters: {{Ann: 100, Bob: 100, Cy: 50}}") == (
        "r.yaml:4: deal 1, counters: the deal ended after the meld (not on board: meld 40 + 250 is below the bid "
        "300): no cards were played")


def test_a_throw_in_loses_the_bid_and_gives_each_opponent_their_meld() -> None:
    rec = record("dealer: Cy, bidder: Ann, bid: 350, trump: clubs, meld: {Ann: 150, Bob: 60, Cy: 100}, "
                 "conceded: true")
    assert points(rec) == ("conceded", (-350, 60, 100))


def test_the_dealer_is_stuck_when_the_first_two_pass() -> None:
    # Bob deals: Cy and Ann pass, Bob takes 250; 90 + 170 = 260 makes it
    rec = record("dealer: Bob, auction: [pass, pass], trump: spades, meld: {Ann: 20, Bob: 90, Cy: 60}, "
                 "counters: {Ann: 0, Bob: 170, Cy: 80}, tricks: {Ann: 0}")
    deal = rec.deals[0]
    assert (deal.bidder, deal.bid) == ("Bob", 250)
    assert points(rec) == ("made", (0, 260, 140))
    assert "the dealer is stuck at 250" in refused("dealer: Bob, auction: [pass, pass, 300], trump: spades, "
                                                   "meld: {Ann: 0, Bob: 0, Cy: 0}")


def test_only_the_bidder_melds_with_the_meld_option() -> None:
    head = HEAD + "options: {meld: bidder}\n"
    # Bob 200 + 120 = 320 makes 300; the opponents score their counters only
    rec = record(f"{DEAL}, meld: {{Bob: 200}}, counters: {{Ann: 70, Bob: 120, Cy: 60}}", head=head)
    assert points(rec) == ("made", (70, 320, 60))
    assert refused(f"{DEAL}, meld: {{Ann: 40, Bob: 200}}, counters: {{Ann: 70, Bob: 120, Cy: 60}}", head=head) == (
        "r.yaml:5: deal 1, meld.Ann: Ann melds 40, but in this game only the bidder (Bob) melds")


# --------------------------------------------------------------------------- the widow and the buried cards

def test_the_buried_counters_count_for_the_bidder() -> None:
    # Bob buries A♠ 10♠ 9♣ (20) and takes 80 in tricks: 100 with 200 meld makes 300
    rec = record(f"{DEAL}, widow: AS TS 9C, meld: {{Ann: 40, Bob: 200, Cy: 0}}, buried: AS TS 9C, "
                 "counters: {Ann: 90, Bob: 100, Cy: 60}")
    assert points(rec) == ("made", (130, 300, 60))
    assert rec.deals[0].buried == tuple(parse_cards("AS TS 9C"))


def test_a_bidder_whose_counters_are_all_buried_took_no_trick_and_loses_the_meld() -> None:
    deal = "dealer: Ann, bidder: Bob, bid: 250, trump: hearts, meld: {Ann: 40, Bob: 300, Cy: 0}, buried: AS TS 9C"
    # 20 counters, all buried, no trick: Bob's 300 meld is not kept and 20 is short of 250
    rec = record(f"{deal}, counters: {{Ann: 130, Bob: 20, Cy: 100}}, tricks: {{Bob: 0}}")
    assert points(rec) == ("set", (170, -250, 100))
    # the buried cards are not a trick: whether Bob took one decides the deal
    assert refused(f"{deal}, counters: {{Ann: 130, Bob: 20, Cy: 100}}") == (
        "r.yaml:4: deal 1, tricks: Bob's 20 counters may all be in the buried cards; add tricks: to say whether "
        "they took a trick (the score depends on it)")
    # a trick taken: 300 + 20 makes 250
    assert points(record(f"{deal}, counters: {{Ann: 130, Bob: 20, Cy: 100}}, tricks: {{Bob: 1}}")) == (
        "made", (170, 320, 100))
    assert "Ann took no trick but 130 counters" in refused(
        f"{deal}, counters: {{Ann: 130, Bob: 20, Cy: 100}}, tricks: {{Ann: 0}}")


@pytest.mark.parametrize(("fields", "message"), [
    ("widow: AS TS", "widow: 2 cards, the widow has 3"),
    ("buried: AS TS 9C KC", "buried: 4 cards, the bidder buries 3"),
    ("widow: AS TS ZZ", 'widow: "ZZ" is not a card'),
])
def test_widow_and_buried_sizes_come_from_the_ruleset(fields: str, message: str) -> None:
    said = refused(f"{DEAL}, {fields}, meld: {{Ann: 40, Bob: 200, Cy: 0}}, counters: {{Ann: 90, Bob: 100, Cy: 60}}")
    assert said.startswith(f"r.yaml:4: deal 1, {message}"), said


def test_a_game_without_a_widow_has_no_widow_field() -> None:
    head = "ruleset: single-deck\nteams: {NS: [Ann, Cy], EW: [Bob, Di]}\n"
    deal = "dealer: Ann, bidder: Bob, bid: 250, trump: hearts, meld: {NS: 0, EW: 200}, counters: {NS: 100, EW: 150}"
    assert refused(f"{deal}, widow: AS TS 9C", head=head) == "r.yaml:4: deal 1, widow: the single-deck game has no widow"
    assert refused(f"{deal}, buried: AS", head=head) == (
        "r.yaml:4: deal 1, buried: the single-deck game has no widow to bury from")


def test_a_buried_card_shown_in_meld_is_refused() -> None:
    # Bob's hand at play start lacks A♣ (buried); showing it in meld and burying it is against the rules
    text = played("    trump: diamonds\n", "    trump: diamonds\n    meld: {Bob: AD TD KD QD JD 9D KC QC QS QH QC AC}\n")
    assert played_refused(text) == ("p.yaml:19: deal 1, buried: Bob buried A♣ (AC), shown in meld: a card shown "
                                    "in meld may not be buried")
    # with every hand recorded the buried cards need not be written: the same refusal, at the deal
    unwritten = text.replace("    buried: AH AC TC\n", "")
    assert played_refused(unwritten) == ("p.yaml:10: deal 1, buried: Bob buried A♣ (AC), shown in meld: a card "
                                         "shown in meld may not be buried")
    # the same cards without the buried one are the 280 the hand scores
    rec = parse_record(played("    trump: diamonds\n",
                              "    trump: diamonds\n    meld: {Bob: AD TD KD QD JD 9D KC QC QS QH QC}\n"), "p.yaml")
    assert rec.deals[0].meld == (110, 280, 0)


def test_a_buried_card_the_bidder_did_not_hold_is_refused() -> None:
    # Ann and Bob hold both queens of spades when play starts
    assert played_refused(played("buried: AH AC TC", "buried: AH AC QS")) == (
        "p.yaml:18: deal 1, buried: Bob did not hold Q♠ (QS) to bury: Ann and Bob hold it at play start and the "
        "pack has 2 (the bidder buries from their hand and the widow)")


def test_the_widow_goes_to_the_bidder() -> None:
    # both 9♥ are in Ann's hand
    assert played_refused(played("widow: AC KC 9C", "widow: AC KC 9H")) == (
        "p.yaml:17: deal 1, widow: 9♥ (9H) of the widow is in Ann's hand; the pack has 2 and the widow goes to the "
        "bidder")
    # with only Bob's hand recorded: a widow card neither in it nor buried
    bob = "QS 9S QH JH AD TD KD QD JD 9D KC QC QC 9C 9C"
    deal = (f"dealer: Ann, bidder: Bob, bid: 350, trump: diamonds, hands: {{Bob: {bob}}}, widow: AC KC AS, "
            "buried: AH AC TC, meld: {Ann: 110, Cy: 0}, counters: {Ann: 70, Bob: 90, Cy: 90}")
    assert refused(deal) == ("r.yaml:4: deal 1, widow: A♠ (AS) of the widow is neither in Bob's hand nor buried: the "
                             "bidder takes the widow")


def test_a_forbidden_trump_is_not_buried_in_the_kitty_game() -> None:
    head = f"ruleset: {ROOT / 'examples' / 'rulesets' / 'four-handed-kitty.yaml'}\nteams: {{NS: [Ann, Cy], EW: [Bob, Di]}}\n"
    deal = "dealer: Ann, bidder: Bob, bid: 300, trump: spades, meld: {NS: 40, EW: 200}, counters: {NS: 100, EW: 150}"
    # EW 200 + 150 makes 300; NS 40 + 100
    assert points(record(f"{deal}, widow: AS TS KD 9C, buried: AD TD KD 9C", head=head)) == ("made", (140, 350))
    assert refused(f"{deal}, buried: AS TD KD 9C", head=head) == (
        "r.yaml:4: deal 1, buried: Bob buried A♠ (AS): a trump may not be buried")


def test_the_three_handed_double_pack_game_keeps_score() -> None:
    head = f"ruleset: {ROOT / 'examples' / 'rulesets' / 'three-handed-double.yaml'}\nplayers: [Ann, Bob, Cy]\n"
    # Ann deals, both pass: Ann takes 500; 100 + 100 is short: -500; Bob 40 + 150, Cy 330 + 250
    rec = record("dealer: Ann, auction: [pass, pass], trump: hearts, widow: AS TS KD KC AH, "
                 "meld: {Ann: 100, Bob: 40, Cy: 330}, buried: AS TS KD KC AC, counters: {Ann: 100, Bob: 150, Cy: 250}",
                 head=head)
    assert points(rec) == ("set", (-500, 190, 580))


# --------------------------------------------------------------------------- the match

@pytest.mark.parametrize(("totals", "bidder", "status", "winner"), [
    # Ann (the bidder) and Bob both past 1500: the bidder wins, though Bob has more
    ((1510, 1520, 1140), 0, "won", 0),
    # Cy bid and was set; Ann and Bob past 1500: the higher total
    ((1520, 1510, 900), 2, "won", 0),
    # an exact tie of the two past it, the bidder not among them: another deal
    ((1510, 1510, 900), 2, "in-progress", None),
    # one past it: that player, bidder or not
    ((1200, 1510, 900), 0, "won", 1),
])
def test_several_past_the_target_on_one_deal(totals: tuple[int, ...], bidder: int, status: str,
                                             winner: int | None) -> None:
    standing = match_standing(load_ruleset("three-handed"), totals, 9, bidder)
    assert (standing.status, standing.winner) == (status, winner)


def test_an_exact_tie_past_the_target_plays_another_deal() -> None:
    # 1400 / 1450 / 1000; Cy bids 300 and is set: Ann +110 and Bob +60 both reach 1510
    first = "dealer: Ann, bidder: Ann, bid: 250, trump: spades, meld: {Ann: 1250, Bob: 1350, Cy: 1000}, " \
            "counters: {Ann: 150, Bob: 100, Cy: 0}, tricks: {Cy: 1}"
    tie = "dealer: Bob, bidder: Cy, bid: 300, trump: hearts, meld: {Ann: 20, Bob: 0, Cy: 150}, " \
          "counters: {Ann: 90, Bob: 60, Cy: 100}"
    rec = record(first, tie)
    assert rec.deals[0].standing.totals == (1400, 1450, 1000)
    assert (rec.standing.totals, rec.standing.status) == ((1510, 1510, 700), "in-progress")
    more = "dealer: Cy, bidder: Bob, bid: 250, trump: clubs, meld: {Ann: 0, Bob: 100, Cy: 0}, " \
           "counters: {Ann: 80, Bob: 150, Cy: 20}"
    rec = record(first, tie, more)
    assert (rec.standing.status, rec.winner, rec.standing.totals) == ("won", "Bob", (1590, 1760, 720))


def test_the_example_night_ends_with_the_bidder_winning_below_another() -> None:
    rec = read_record(str(ROOT / "examples" / "three-handed-night.yaml"))
    assert [d.score.result for d in rec.deals] == ["made", "set", "conceded", "not-on-board", "made", "made", "made",
                                                   "made", "made", "made", "made"]
    assert (rec.standing.totals, rec.winner) == ((1510, 1520, 1140), "Ann")
    code, out, err = run_cli("score", str(ROOT / "examples" / "three-handed-night.yaml"), "--brief")
    assert (code, err) == (0, "")
    assert " ".join(out.split("\n\n")[-1].split()) == ("Ann won: 1,510 to Bob 1,520 and Cy 1,140, the bidder went out (Bob "
                                                       "also reached 1,500 on that deal), after 11 deals.")


# --------------------------------------------------------------------------- the replay

def test_the_played_deal_is_replayed_and_the_buried_counters_are_the_bidders() -> None:
    rec = parse_record(PLAYED, "p.yaml")
    deal = rec.deals[0]
    # worked trick by trick: Ann 20+20+10+0+10+0 and the last trick 10; Bob 10+30+20 and 30 buried;
    # Cy 10+10+10+20+10+30
    assert deal.played and deal.counters == (70, 90, 90) and deal.tricks == (6, 3, 6)
    # meld: Ann K♥Q♥ 20, K♦Q♦ 40, 9♦ 10, Q♠J♦ 40; Bob run 150, 9♦ 10, K♣Q♣ 20, Q♠J♦ 40, queens around 60
    assert deal.meld == (110, 280, 0)
    assert points(rec) == ("made", (180, 370, 90))


def test_buried_counters_to_the_last_trick_are_data(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text(THREE.replace("counters: bidder ", "counters: last-trick ")
                                         .replace("name: three-handed", "name: house-three"), encoding="utf-8")
    text = PLAYED.replace("ruleset: three-handed", "ruleset: house.yaml")
    rec = parse_record(text, str(tmp_path / "p.yaml"), str(tmp_path))
    # Ann took the last trick and the 30 buried: 100; Bob 280 + 60 = 340 is short of 350
    assert rec.deals[0].counters == (100, 60, 90)
    assert points(rec) == ("set", (210, -350, 90))


def test_an_illegal_card_in_a_three_card_trick_is_refused() -> None:
    # trick 7: Bob leads Q♦ (trump), Cy is void, Ann holds 10♦ and K♦ and must beat
    said = played_refused(played("  - [QD, KS, TD]", "  - [QD, KS, JD]"))
    assert re.match(r"p\.yaml:\d+: deal 1, trick 7: Ann played J♦ holding .*beat", said), said


def test_replay_needs_the_bidder_where_the_auction_forms_the_sides() -> None:
    rec = parse_record(PLAYED, "p.yaml")
    deal = rec.deals[0]
    assert deal.hands is not None and deal.play is not None
    hands = [deal.hands[p] for p in rec.table.seating]
    with pytest.raises(PlayError, match="bidder not given"):
        replay_deal(rec.rules, hands, Suit.D, 1, deal.play)
    assert replay_deal(rec.rules, hands, Suit.D, 1, deal.play, bidder=1).counters == [70, 60, 90]


# --------------------------------------------------------------------------- the command line

@pytest.fixture
def night(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert run_cli("record", "new", "n.yaml", "-r", "three-handed", "--player", "Ann", "--player", "Bob",
                   "--player", "Cy")[0] == 0
    return tmp_path / "n.yaml"


def test_record_add_infers_the_last_players_counters_and_prints_every_total(night: Path) -> None:
    code, out, err = run_cli("record", "add", "n.yaml", "--dealer", "Ann", "--bidder", "Ann", "--bid", "250", "-t", "H",
                             "--meld", "Ann=120", "--meld", "Bob=40", "--meld", "Cy=0", "--counters", "Ann=150",
                             "--counters", "Bob=60", "--widow", "as 10h kd", "--buried", "9c 9d jc")
    # Cy's counters: 250 - 150 - 60 = 40; Ann 120 + 150 = 270 makes 250
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == ("After 1 deal: Ann 270 (1230 to go), Bob 100 (1400 to go), Cy 40 (1460 to go). "
                                    "Next dealer: Bob.")
    text = night.read_text(encoding="utf-8")
    assert "    widow: AS TH KD\n    meld: {Ann: 120, Bob: 40, Cy: 0}\n    buried: 9C 9D JC\n" in text
    assert "counters: {Ann: 150, Bob: 60, Cy: 40}" in text
    doc = run_cli_json("score", "n.yaml")
    assert doc["sides"] == ["Ann", "Bob", "Cy"] and doc["totals"] == {"Ann": 270, "Bob": 100, "Cy": 40}
    assert sorted(doc["deals"][0]["widow"]) == ["AS", "KD", "TH"] and sorted(doc["deals"][0]["buried"]) == [
        "9C", "9D", "JC"]
    stats = run_cli_json("stats", "n.yaml")
    assert json.dumps(stats).count("Cy") >= 1


@pytest.mark.parametrize(("args", "message"), [
    (["--widow", "AS TS"], "deal 1, widow: 2 cards, the widow has 3"),
    (["--buried", "AS XX 9C"], 'deal 1, buried: "XX" is not a card'),
    (["--buried", "AS AS AS"], "deal 1, buried:"),
])
def test_record_add_refuses_a_bad_widow_or_bury(night: Path, args: list[str], message: str) -> None:
    before = night.read_bytes()
    code, out, err = run_cli("record", "add", "n.yaml", "--bidder", "Ann", "--bid", "250", "-t", "H", "--meld",
                             "Ann=120", "--meld", "Bob=40", "--meld", "Cy=0", "--counters", "Ann=150",
                             "--counters", "Bob=60", *args)
    assert code == 2 and out == "" and err.startswith(f"Error: n.yaml: {message}"), err
    assert night.read_bytes() == before


def test_record_add_refuses_a_widow_in_a_game_without_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run_cli("record", "new", "s.yaml", "--team", "NS=Ann,Cy", "--team", "EW=Bob,Di")
    code, _, err = run_cli("record", "add", "s.yaml", "--bidder", "Ann", "--bid", "250", "-t", "H", "--meld", "NS=120",
                           "--meld", "EW=40", "--counters", "NS=150", "--widow", "AS TS 9C")
    assert (code, err) == (2, "Error: s.yaml: deal 1, widow: the single-deck game has no widow\n")


def test_the_prompt_asks_for_the_widow_and_the_buried_cards(night: Path) -> None:
    answers = "\n".join(["Ann", "Ann", "250", "H", "AS TS TD", "120", "40", "0", "", "150", "60", "y"]) + "\n"
    code, out, err = run_cli("record", "add", "n.yaml", "--prompt", input=answers)
    assert code == 0, (out, err)
    assert "Widow (3 cards; empty if not noted): " in out and "Buried by the bidder (3 cards; empty if not noted): " in out
    assert "Cy's counters: 40 (the rest of 250)" in out
    text = night.read_text(encoding="utf-8")
    assert "widow: AS TS TD" in text and "buried" not in text


def test_the_prompt_asks_only_the_bidders_meld_where_only_the_bidder_melds(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run_cli("record", "new", "m.yaml", "-r", "three-handed", "-o", "meld=bidder", "--player", "Ann", "--player", "Bob",
            "--player", "Cy")
    code, out, err = run_cli("record", "add", "m.yaml", "--bidder", "Bob", "--bid", "300", "-t", "H", "--meld",
                             "Bob=200", "--counters", "Ann=70", "--counters", "Bob=120")
    assert code == 0, err
    assert out.splitlines()[-1].startswith("After 1 deal: Ann 70 (1430 to go), Bob 320 (1180 to go), Cy 60")


def test_solve_with_three_hands_and_the_bidder() -> None:
    hands = ["--hand", "AS 9H KD", "--hand", "TS AH QD", "--hand", "KS TH AD"]
    # seat 0 alone: A♠ takes 10♠ and K♠ (30) wherever it is played; nothing else
    assert run_cli_json("solve", "-r", "three-handed", "-t", "S", *hands, "--bidder", "0")["value"] == 30
    # seat 0 with seat 2 against the bidder at seat 1
    assert run_cli_json("solve", "-r", "three-handed", "-t", "S", *hands, "--bidder", "1")["value"] == 60
    code, out, _ = run_cli("solve", "-r", "three-handed", "-t", "S", *hands, "--bidder", "1")
    assert code == 0
    assert "seat 1  them (bidder)" in out and "us (seats 0, 2)" in out


@pytest.mark.parametrize(("args", "message"), [
    (["-r", "three-handed"], "Error: --bidder SEAT is needed: in three-handed the bidder plays alone against the "
                             "others, so who is whose partner depends on the bidder's seat\n"),
    (["-r", "three-handed", "--bidder", "3"], "Error: --bidder 3 is not a seat 0..2\n"),
    (["-r", "three-handed", "--bidder", "-1"], "Error: --bidder -1 is not a seat 0..2\n"),
])
def test_solve_refuses_a_missing_or_bad_bidder(args: list[str], message: str) -> None:
    hands = ["--hand", "AS", "--hand", "TS", "--hand", "KS"]
    assert run_cli("solve", "-t", "S", *hands, *args) == (2, "", message)


def test_solve_refuses_a_bidder_where_the_partnerships_are_fixed() -> None:
    hands = ["--hand", "AS", "--hand", "TS", "--hand", "KS", "--hand", "QS"]
    assert run_cli("solve", "-t", "S", *hands, "--bidder", "1") == (
        2, "", "Error: --bidder does not apply: in single-deck the partnerships are fixed\n")


def test_analyze_counts_the_buried_cards_for_the_bidder() -> None:
    from pinochle_cli.solver.analyze import analyze_deal

    rec = parse_record(PLAYED, "p.yaml")
    # only the last tricks within the limit; what Bob took in play includes the 30 buried
    result = analyze_deal(rec, rec.deals[0], time_limit=0.5)
    assert result.taken == 90


def test_undo_redo_edit_and_show_of_a_three_player_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "n.yaml").write_text((ROOT / "examples" / "three-handed-night.yaml").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    code, out, _ = run_cli("record", "undo", "n.yaml")
    assert code == 0 and out.splitlines()[-1] == ("After 10 deals: Ann 1100 (400 to go), Bob 1140 (360 to go), "
                                                  "Cy 1100 (400 to go). Next dealer: Bob.")
    assert run_cli("record", "redo", "n.yaml")[1].splitlines()[-1].startswith("Ann won: 1,510 to Bob 1,520 and Cy 1,140, the bidder went out")
    # the widow changed; a bury of two cards is refused, the file unchanged
    code, out, _ = run_cli("record", "edit", "n.yaml", "1", "--widow", "KH 9H AS")
    assert code == 0 and "widow: KH 9H AS" in (tmp_path / "n.yaml").read_text(encoding="utf-8")
    before = (tmp_path / "n.yaml").read_bytes()
    code, _, err = run_cli("record", "edit", "n.yaml", "1", "--buried", "AD TC")
    assert (code, err) == (2, "Error: n.yaml: deal 1, buried: 2 cards, the bidder buries 3\n")
    assert (tmp_path / "n.yaml").read_bytes() == before
    code, out, _ = run_cli("record", "show", "n.yaml", "1")
    assert code == 0 and out.splitlines()[-1] == ("Deal 1: Ann dealt; Bob bid 300 in hearts; meld Ann 60, Bob 250, "
                                                  "Cy 20; counters Ann 80, Bob 110, Cy 60; made: Ann +140, Bob +360, "
                                                  "Cy +80.")


@pytest.mark.parametrize(("bidder", "sides"), [("0", "us (bidder)"), ("2", "them (bidder)")])
def test_solve_checks_a_two_card_trick_with_the_bidder(bidder: str, sides: str) -> None:
    # the third player's duties are checked against the two cards on the trick, whose sides follow the bidder
    args = ["-r", "three-handed", "-t", "S", "--hand", "KS", "--hand", "JS", "--hand", "9S AH",
            "--trick", "AS QS", "--bidder", bidder]
    code, out, err = run_cli("solve", *args)
    assert code == 0, err
    assert sides in out and "take 40 of the 40 counters left" in out
    # seat 1 played K♥ holding J♠
    code, _, err = run_cli("solve", *args[:-4], "--trick", "AS KH", "--bidder", bidder)
    assert code == 2 and "seat 1 played K♥" in err and "must follow suit" in err


def test_analyze_gives_the_buried_counters_to_the_last_tricks_winner_where_the_ruleset_says(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    game = (root / "rulesets" / "three-handed.yaml").read_text(encoding="utf-8")
    game = re.sub(r"\n  counters: bidder[^\n]*", "\n  counters: last-trick", game).replace(
        "name: three-handed", "name: three-handed-last", 1)
    (tmp_path / "last.yaml").write_text(game, encoding="utf-8")
    played = (root / "examples" / "three-handed-played.yaml").read_text(encoding="utf-8")
    (tmp_path / "played.yaml").write_text(played.replace("ruleset: three-handed", "ruleset: last.yaml", 1),
                                          encoding="utf-8")
    deal = run_cli_json("analyze", str(tmp_path / "played.yaml"), "--time-limit", "1")["deals"][0]
    # Bob takes 60 in tricks; the 30 buried (A♥ A♣ 10♣) go with the last trick to Ann: 160 + 30 for Ann and Cy
    assert deal["taken"] == 60
    assert deal["cards"][-1]["trick"] == 15 and deal["cards"][-1]["kept"] == 190


def test_score_json_gives_each_deals_widow_and_bury_known_or_null() -> None:
    """The widow and the bury as recorded, the bury worked out from every hand, null where neither tells."""
    deals = run_cli_json("score", str(ROOT / "examples" / "three-handed-night.yaml"))["deals"]
    assert sorted(deals[0]["widow"]) == ["9H", "AD", "KH"] and sorted(deals[0]["buried"]) == ["AD", "KC", "TC"]
    assert deals[1]["buried"] is None and len(deals[1]["widow"]) == 3
    played = run_cli_json("score", str(ROOT / "examples" / "three-handed-played.yaml"))["deals"][0]
    assert played["buried"] is not None and len(played["buried"]) == 3
    # a game without a widow has neither key
    single = run_cli_json("score", str(ROOT / "examples" / "single-deck-played.yaml"))["deals"][0]
    assert "widow" not in single and "buried" not in single
