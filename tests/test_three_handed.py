"""Three at the table: the widow, the bury and sides formed by the auction as ruleset data, the bundled
three-handed game's meld and legal plays, and the example widow games."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clihelp import run_cli

from pinochle_cli.cards import Hand, Suit, parse_cards
from pinochle_cli.errors import PlayError, RulesetError
from pinochle_cli.game.tricks import check_play, legal_plays
from pinochle_cli.ruleset import load_ruleset, load_ruleset_text
from pinochle_cli.ruleset.rules import Bury, Widow

ROOT = Path(__file__).resolve().parent.parent
THREE = (ROOT / "rulesets" / "three-handed.yaml").read_text(encoding="utf-8")
SINGLE = (ROOT / "rulesets" / "single-deck.yaml").read_text(encoding="utf-8")
HAND15 = "AH TH KH QH JH KH QS JD 9H AS AD AC 9S 9C JS"
WIDOW = "TS TD TC"


def error_of(text: str) -> tuple[int, str]:
    """The line and the message after the location of the error that loading ``text`` raises."""
    with pytest.raises(RulesetError) as err:
        load_ruleset_text(text, "house.yaml")
    m = re.match(r"house\.yaml:(\d+):\d+: (.*)$", str(err.value), re.DOTALL)
    assert m, str(err.value)
    return int(m.group(1)), m.group(2)


def line_of(text: str, needle: str) -> int:
    """The first line that starts (after its indentation) with ``needle``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.lstrip().startswith(needle.strip()))


def edit(text: str, *changes: tuple[str, str]) -> str:
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


# --------------------------------------------------------------------------- the format

def test_the_old_rulesets_have_no_widow_no_bury_and_fixed_sides() -> None:
    for name in ("two-handed", "single-deck", "single-deck-small", "double-deck"):
        rules = load_ruleset(name)
        assert (rules.widow, rules.bury, rules.sides, rules.melders) == (None, None, "partnerships", "all")
        assert rules.widow_size == 0 and rules.largest_hand == rules.hand_size
        assert rules.deal_sides(None) == rules.partnerships


def test_the_three_handed_data() -> None:
    rules = load_ruleset("three-handed")
    assert rules.widow == Widow(3, shown=True)
    assert rules.bury == Bury("after-meld", ("melded",), "bidder")
    assert (rules.sides, rules.melders, rules.partnerships) == ("bidder-alone", "all", ((0,), (1,), (2,)))
    assert (rules.widow_size, rules.largest_hand, rules.tricks_per_deal, rules.counter_total) == (3, 18, 15, 250)
    assert rules.deal_sides(1) == ((1,), (0, 2))
    assert [rules.deal_side_of(s, 2) for s in range(3)] == [1, 1, 0]
    assert (rules.match.target, rules.match.both_reach, rules.match.tie) == (1500, "bidders", "another-deal")
    assert load_ruleset("three-handed", {"meld": "bidder"}).melders == "bidder"
    assert load_ruleset("cutthroat", {"target": "1000"}).match.target == 1000


def test_the_deal_without_a_widow_is_refused_as_the_issue_says_and_loads_with_one() -> None:
    three = edit(SINGLE, ("players: 4", "players: 3"), ("partnerships: [[0, 2], [1, 3]]", "partnerships: [[0], [1], [2]]"),
                 ("hand_size: 12", "hand_size: 15"), ("exchange: 4 ", "exchange: 0 "))
    three = re.sub(r"  exchange:\n(    .*\n)+", "", three)
    line, message = error_of(three)
    assert (line, message) == (line_of(three, "hand_size"), "hand_size: 3 hands of 15 leave 3 cards undealt and "
                                                           "there is no stock or widow")
    rules = load_ruleset_text(edit(three, ("hand_size: 15\n", "hand_size: 15\nwidow: {cards: 3}\nbury: {}\n")))
    assert rules.widow_size == 3 and rules.bury == Bury() and rules.sides == "partnerships"


@pytest.mark.parametrize(("old", "new", "needle", "message"), [
    ("  cards: 3\n", "  cards: 3\n  face: up\n", "face:", "widow.face: unknown key 'face' (expected one of: cards, shown)"),
    ("  cards: 3\n", "  cards: 0\n", "  cards: 0", "widow.cards: expected an integer of at least 1, got 0"),
    ("  cards: 3\n", "", "shown:", "widow.cards: missing (required)"),  # at the mapping, where it starts
    ("  shown: true ", "  shown: maybe ", "shown:", "widow.shown: expected true or false"),
    ("  cards: 3\n", "  cards: 4\n", "widow:", "widow: 3 hands of 15 and a widow of 4 need 49 cards; the deck has 48"),
    ("  cards: 3\n", "  cards: 2\n", "hand_size",
     "hand_size: 3 hands of 15 and a widow of 2 leave 1 cards undealt and there is no stock"),
    ("hand_size: 15\n", "hand_size: 15\nstock: {}\n", "widow:", "widow: a game with a stock has no widow"),
    ("  when: after-meld", "  when: later", "when:", "bury.when: expected one of 'after-meld', 'before-meld', got 'later'"),
    ("  when: after-meld", "  when: before-meld", "forbidden:",
     "bury.forbidden[0]: a bury before the meld cannot spare the cards shown in meld"),
    ("forbidden: [melded]", "forbidden: [melded, aces]", "forbidden:",
     "bury.forbidden[1]: expected one of 'melded', 'trump', 'counter', got 'aces'"),
    ("forbidden: [melded]", "forbidden: [melded, melded]", "forbidden:", "bury.forbidden[1]: 'melded' is listed twice"),
    ("  counters: bidder ", "  counters: defenders ", "  counters: defenders",
     "bury.counters: expected one of 'bidder', 'last-trick', got 'defenders'"),
    ("  counters: bidder ", "  counters: bidder\n  cards: 9 ", "  cards: 9",
     "bury.cards: unknown key 'cards' (expected one of: when, forbidden, counters)"),
    ("sides: bidder-alone", "sides: alone", "sides:", "sides: expected one of 'partnerships', 'bidder-alone', got 'alone'"),
    ("melders: all", "melders: nobody", "melders:", "melders: expected one of 'all', 'bidder', got 'nobody'"),
    ("hand_size: 15\n", "hand_size: 15\npartnerships: [[0, 1], [2]]\n", "partnerships:",
     "partnerships: the bidder plays alone and every player scores alone (sides: bidder-alone)"),
    ("      bidder: {melders: bidder}", "      bidder: {melders: some}", "bidder: {melders: some}",
     "melders: expected one of 'all', 'bidder', got 'some'"),
])
def test_each_key_is_refused_at_its_line(old: str, new: str, needle: str, message: str) -> None:
    text = edit(THREE, (old, new))
    line, said = error_of(text)
    assert said.startswith(message), said
    assert line == line_of(text, needle)


@pytest.mark.parametrize(("drop", "needle", "message"), [
    ("", "widow:", "widow: the bidder takes the widow: a widow needs an auction"),
    ("widow", "bury:", "bury: nothing to bury"),
    ("bury", "widow:", "widow: the bidder takes the widow's 3 cards and must lay away as many"),
])
def test_a_widow_needs_an_auction_and_a_bury_and_a_bury_a_widow(drop: str, needle: str, message: str) -> None:
    if drop == "":
        text = re.sub(r"auction:\n(  .*\n)+", "auction: null\n", THREE)
    else:
        # without the widow, 3 hands of 16 take the whole pack
        text = re.sub(rf"{drop}:.*\n(  .*\n)+", "", THREE)
        text = text.replace("hand_size: 15", "hand_size: 16") if drop == "widow" else text
    line, said = error_of(text)
    assert said.startswith(message), said
    assert line == line_of(text, needle)


@pytest.mark.parametrize(("key", "value"), [("sides", "bidder-alone"), ("melders", "bidder")])
def test_sides_by_the_auction_and_a_bidder_who_alone_melds_need_an_auction(key: str, value: str) -> None:
    text = (ROOT / "rulesets" / "two-handed.yaml").read_text(encoding="utf-8") + f"{key}: {value}\n"
    line, said = error_of(text)
    assert said == f"{key}: {value} needs a bidder: give an auction"
    assert line == line_of(text, f"{key}:")


def test_the_json_schema_describes_the_new_keys() -> None:
    schema = json.loads((ROOT / "rulesets" / "ruleset.schema.json").read_text(encoding="utf-8"))
    props = schema["properties"]
    assert props["widow"]["required"] == ["cards"]
    assert props["bury"]["properties"]["forbidden"]["items"]["enum"] == ["melded", "trump", "counter"]
    assert props["sides"]["enum"] == ["partnerships", "bidder-alone"]
    assert props["melders"]["enum"] == ["all", "bidder"]


# --------------------------------------------------------------------------- the examples

@pytest.mark.parametrize(("name", "widow", "hand", "largest", "sides"), [
    ("three-handed-double", 5, 25, 30, "bidder-alone"),
    ("four-handed-kitty", 4, 11, 15, "partnerships"),
])
def test_the_example_widow_games_load(name: str, widow: int, hand: int, largest: int, sides: str) -> None:
    rules = load_ruleset(str(ROOT / "examples" / "rulesets" / f"{name}.yaml"))
    assert (rules.widow_size, rules.hand_size, rules.largest_hand, rules.sides) == (widow, hand, largest, sides)
    assert rules.players * rules.hand_size + rules.widow_size == rules.deck.size


# --------------------------------------------------------------------------- meld

def test_meld_of_a_dealt_hand_and_of_the_bidders_hand_with_the_widow() -> None:
    code, out, err = run_cli("meld", "-r", "three-handed", HAND15, "-t", "H", "--json")
    assert (code, err, json.loads(out)["total"]) == (0, "", 340)
    code, out, err = run_cli("meld", "-r", "three-handed", f"{HAND15} {WIDOW}", "-t", "H", "--json")
    assert (code, err, json.loads(out)["total"]) == (0, "", 340)
    # the widow's three tens and the hand's ace of spades: no tens around in this table, so the same
    code, out, err = run_cli("meld", "-r", "three-handed", f"{HAND15} 9D KS QS", "-t", "S", "--json")
    assert code == 0 and json.loads(out)["total"] == 20 + 40 + 10 + 100 + 40


def test_meld_refuses_more_cards_than_the_bidder_holds() -> None:
    code, out, err = run_cli("meld", "-r", "three-handed", f"{HAND15} {WIDOW} 9D")
    assert code == 2 and out == ""
    assert err.endswith("a three-handed hand holds at most 15 (18 for the bidder with the widow)\n")
    code, _, err = run_cli("meld", "AS AS AH AH AD AD AC AC KS KS KH KH KD")
    assert code == 2 and err.endswith("a single-deck hand holds at most 12\n")


# --------------------------------------------------------------------------- legal

BEAT_NOT_PARTNER = THREE.replace("duties: [follow, trump, beat]", "duties: [follow, trump, {beat: {partner: false}}]")


@pytest.mark.parametrize(("bidder", "legal"), [
    # the 2nd player (the 10♠) is the other opponent: the partner; it need not be beaten
    (0, ["AS", "KS"]),
    # the 2nd player is the bidder: an opponent, to be beaten
    (1, ["AS"]),
    # the third player, to play, is the bidder: everyone else is an opponent
    (2, ["AS"]),
])
def test_the_partner_in_a_three_card_trick_is_the_bidders_other_opponent(bidder: int, legal: list[str]) -> None:
    rules = load_ruleset_text(BEAT_NOT_PARTNER, "house.yaml")
    hand = Hand(parse_cards("AS KS 9D"))
    got = legal_plays(rules, hand, parse_cards("QS TS"), Suit.D, bidder=bidder)
    assert [c.ascii() for c in got] == legal


def test_the_library_asks_for_the_bidder_when_the_auction_forms_the_sides() -> None:
    rules = load_ruleset("three-handed")
    with pytest.raises(PlayError, match=r"bidder plays alone.*bidder not given") as info:
        legal_plays(rules, Hand(parse_cards("AS")), parse_cards("QS"), Suit.D)
    assert info.value.parameter == "bidder"
    with pytest.raises(PlayError, match=r"bidder 3, not a seat 0\.\.2"):
        check_play(rules, Hand(parse_cards("AS")), parse_cards("AS")[0], parse_cards("QS"), Suit.D, bidder=3)


@pytest.mark.parametrize(("args", "code", "out"), [
    (["--trick", "KS"], 0,
     "three-handed, trump ♦ diamonds, the bidder leads\nlegal    A♠\nwinning  K♠ (played by the leader, the bidder, "
     "an opponent)\n"),
    (["--trick", "KS TS"], 0,
     "three-handed, trump ♦ diamonds, the bidder leads\nlegal    A♠\nwinning  10♠ (played by the 2nd player, your "
     "partner)\n"),
    (["--trick", "KS TS", "--bidder", "2"], 0,
     "three-handed, trump ♦ diamonds, the bidder plays 2nd\nlegal    A♠\nwinning  10♠ (played by the 2nd player, the "
     "bidder, an opponent)\n"),
    (["--trick", "KS TS", "--bidder", "3", "--play", "9D"], 1,
     "three-handed, trump ♦ diamonds, you are the bidder\nlegal    A♠\nwinning  10♠ (played by the 2nd player, an "
     "opponent)\nplay     9♦: not allowed — you hold ♠ and must follow suit\n"),
])
def test_legal_in_a_three_player_trick(args: list[str], code: int, out: str) -> None:
    assert run_cli("legal", "-r", "three-handed", "--hand", "AS 9D KH", "-t", "D", *args) == (code, out, "")


def test_legal_json_names_the_bidder_and_bad_bidders_are_refused() -> None:
    code, out, err = run_cli("legal", "-r", "three-handed", "--hand", "AS 9D", "--trick", "KS", "-t", "D",
                             "--bidder", "3", "--json")
    assert code == 0 and err == "" and json.loads(out) == {"legal": ["AS"], "winning": "KS", "bidder": 3}
    assert run_cli("legal", "-r", "three-handed", "--hand", "AS", "-t", "D", "--bidder", "4")[1:] == (
        "", "Error: --bidder 4: the players of a trick are counted from 1 (the leader) to 3\n")
    assert run_cli("legal", "--hand", "AS", "-t", "D", "--bidder", "2")[1:] == (
        "", "Error: --bidder does not apply: in single-deck the partnerships are fixed\n")
    assert run_cli("legal", "-r", "three-handed", "--hand", "AS", "--trick", "KS QS TS", "-t", "D")[0] == 2
