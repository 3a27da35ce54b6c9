"""The forgiving record reader (``strict=False``): every problem collected, bad deals skipped, the rest scored."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_cli.errors import RecordError
from pinochle_cli.records import parse_record, problem_json, read_record

HEAD = """\
ruleset: single-deck
teams:
  North-South: [Ann, Cy]
  East-West: [Bob, Di]
deals:
"""
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# Good deals (one line each) and a mistake for each: (bad line, field, message)
GOOD = [
    "- {dealer: Ann, bidder: Bob, bid: 300, meld: {North-South: 60, East-West: 180}, "
    "counters: {North-South: 80, East-West: 170}}",
    "- {dealer: Bob, bidder: Cy, bid: 250, meld: {North-South: 100, East-West: 40}, "
    "counters: {North-South: 130, East-West: 120}}",
    "- {dealer: Cy, bidder: Di, bid: 260, meld: {East-West: 100}, counters: {North-South: 100, East-West: 150}}",
    "- {dealer: Di, bidder: Ann, bid: 270, meld: {North-South: 40}, conceded: true}",
    "- {dealer: Ann, redeal: true}",
    "- {dealer: Bob, auction: [250, pass, pass, pass], meld: {East-West: 30}, "
    "counters: {North-South: 90, East-West: 160}}",
]
MISTAKES = [
    (("counters: {North-South: 80, East-West: 170}", "counters: {North-South: 80, East-West: 160}"),
     "counters", "add up to 240, expected 250"),
    (("bidder: Cy", "bidder: Zed"), "bidder", "'Zed' is not at the table (Ann, Bob, Cy, Di)"),
    (("bid: 260", "bid: 265"), "bid", "265 is off the steps (from 250: steps of 10; next valid bid 270)"),
    (("conceded: true", "conceded: yes please"), "conceded", "expected true or false, got 'yes please'"),
    (("dealer: Ann, redeal: true", "dealer: Ann, redeal: true, bid: 250"), "bid",
     "a redealt deal was thrown in before the auction: it has no bid"),
    (("auction: [250, pass, pass, pass]", "auction: [250, pass, pass]"), "auction",
     "the auction is not over: Bob and Cy are still bidding"),
]


def text_of(lines: list[str]) -> str:
    return HEAD + "".join(f"  {line}\n" for line in lines)


def broken(i: int) -> str:
    (old, new), _field, _message = MISTAKES[i]
    assert old in GOOD[i]
    return GOOD[i].replace(old, new)


def test_three_mistakes_in_three_deals_give_exactly_three_problems():
    lines = [broken(0), GOOD[1], broken(2), GOOD[3], GOOD[4], broken(5)]
    r = parse_record(text_of(lines), "r.yaml", strict=False)
    assert [(p.deal, p.line, p.field, p.detail) for p in r.problems] == [
        (1, 6, "counters", "add up to 240, expected 250"),
        (3, 8, "bid", "265 is off the steps (from 250: steps of 10; next valid bid 270)"),
        (6, 11, "auction", "the auction is not over: Bob and Cy are still bidding"),
    ]
    assert all(p.source == "r.yaml" for p in r.problems)
    assert r.skipped == (1, 3, 6) and not r.ok
    # the deals between and after the skipped ones are scored, with their own numbers
    assert [d.number for d in r.deals] == [2, 4, 5]
    assert [d.score.result for d in r.deals] == ["set", "conceded", "redeal"]
    clean = parse_record(text_of([GOOD[1], GOOD[3], GOOD[4]]), "r.yaml")
    assert r.standing == clean.standing
    assert [d.score.points for d in r.deals] == [d.score.points for d in clean.deals]


def test_strict_mode_is_unchanged_and_raises_the_first():
    lines = [GOOD[0], broken(1), broken(2)]
    with pytest.raises(RecordError) as info:
        parse_record(text_of(lines), "r.yaml")
    assert str(info.value) == "r.yaml:7: deal 2, bidder: 'Zed' is not at the table (Ann, Bob, Cy, Di)"
    with pytest.raises(RecordError):
        parse_record(text_of(lines), "r.yaml", strict=True)
    assert parse_record(text_of(GOOD), "r.yaml").problems == ()


@pytest.mark.parametrize("i", range(len(MISTAKES)))
def test_each_mistake_is_found_and_only_its_deal_skipped(i):
    lines = list(GOOD)
    lines[i] = broken(i)
    r = parse_record(text_of(lines), "r.yaml", strict=False)
    _change, fld, message = MISTAKES[i]
    assert [(p.deal, p.line, p.field, p.detail) for p in r.problems] == [(i + 1, 6 + i, fld, message)]
    assert r.skipped == (i + 1,)
    assert [d.number for d in r.deals] == [n for n in range(1, len(GOOD) + 1) if n != i + 1]
    # the strict reader stops at the same problem
    with pytest.raises(RecordError) as info:
        parse_record(text_of(lines), "r.yaml")
    assert str(info.value) == str(r.problems[0])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(GOOD) - 1), st.booleans()), min_size=0, max_size=4))
def test_lenient_scores_exactly_what_strict_scores_without_the_bad_deals(plan):
    # at most four deals: no mix of GOOD reaches the 1500 target, so no deal comes after the match is decided
    lines = [broken(i) if bad else GOOD[i] for i, bad in plan]
    r = parse_record(text_of(lines), "r.yaml", strict=False)
    bad_numbers = tuple(n for n, (_i, bad) in enumerate(plan, start=1) if bad)
    assert r.skipped == bad_numbers
    assert tuple(p.deal for p in r.problems) == bad_numbers
    assert tuple(p.line for p in r.problems) == tuple(5 + n for n in bad_numbers)
    clean = parse_record(text_of([GOOD[i] for i, bad in plan if not bad]), "r.yaml")
    assert r.standing == clean.standing
    assert [(d.score, d.standing) for d in r.deals] == [(d.score, d.standing) for d in clean.deals]


def test_no_problems_gives_the_strict_result():
    strict, lenient = (parse_record(text_of(GOOD), "r.yaml", strict=s) for s in (True, False))
    assert lenient == strict and lenient.ok and lenient.skipped == ()


def test_unknown_keys_are_problems_but_do_not_stop_the_deal():
    text = HEAD.replace("deals:\n", "teem: 1\ndeals:\n") + "  - dealer: Ann\n    bidder: Bob\n    bid: 250\n" \
        "    trmp: H\n    counters: {North-South: 80, East-West: 170}\n"
    r = parse_record(text, "r.yaml", strict=False)
    assert [str(p) for p in r.problems] == [
        "r.yaml:5: unknown key 'teem' (a record has ruleset, options, teams, players, seating, deals, title, date, "
        "notes)",
        "r.yaml:10: deal 1: unknown key 'trmp' (a deal has dealer, bidder, bid, auction, trump, meld, counters, "
        "tricks, hands, stock, widow, buried, play, conceded, no-trump, redeal, notes)",
    ]
    assert [d.number for d in r.deals] == [1] and r.skipped == ()
    with pytest.raises(RecordError, match=r"r\.yaml:5: unknown key 'teem'"):
        parse_record(text, "r.yaml")


def test_a_deal_with_an_unknown_key_and_a_mistake_gives_both_and_is_skipped():
    text = text_of(["- {bidder: Bob, bid: 250, cunters: 1}"])
    r = parse_record(text, "r.yaml", strict=False)
    assert [(p.deal, p.field, p.detail[:20]) for p in r.problems] == [
        (1, None, "unknown key 'cunters"), (1, "counters", "missing counters (th")]
    assert r.skipped == (1,)


def test_every_deal_after_the_match_was_decided_is_refused_naming_the_deciding_deal():
    lines = [GOOD[1],
             "- {bidder: Ann, bid: 1500, meld: {North-South: 1500}, counters: {North-South: 250, East-West: 0}}",
             GOOD[0], broken(2)]
    r = parse_record(text_of(lines), "r.yaml", strict=False)
    assert [str(p) for p in r.problems] == [
        "r.yaml:8: deal 3: the match was already decided after deal 2: North-South won 1500 to 160",
        "r.yaml:9: deal 4: the match was already decided after deal 2: North-South won 1500 to 160",
    ]
    assert r.winner == "North-South" and r.skipped == (3, 4) and len(r.deals) == 2


def test_not_a_mapping_and_a_renege_are_problems():
    played = (EXAMPLES / "single-deck-played.yaml").read_text(encoding="utf-8")
    text = played.replace("- [QD, AD, QD, AD]", "- [QD, AD, QD, AC]") + "  - 300\n"
    r = parse_record(text, "p.yaml", strict=False)
    assert [problem_json(p) for p in r.problems] == [
        {"deal": 1, "trick": 1, "line": 20, "field": None,
         "message": "Bob played A♣ holding A♦ 10♦ 9♦ — must follow suit in ♦"},
        {"deal": 2, "trick": None, "line": r.problems[1].line, "field": None,
         "message": "a deal is a mapping of fields, got 300"},
    ]
    assert r.deals == () and r.skipped == (1, 2)


@pytest.mark.parametrize(("text", "message"), [
    ("ruleset: canasta\nteams: {A: [a, b], B: [c, d]}\n", "r.yaml:1: ruleset: no bundled ruleset named 'canasta'"),
    ("ruleset: single-deck\nteams: [NS, EW]\n", "r.yaml:2: teams: expected a mapping of team names to players"),
    ("ruleset: single-deck\nteams: {A: [an, bo], B: [cy, di]}\ndeals: {}\n", "r.yaml:3: deals: expected a list"),
    ("ruleset: [\n", "r.yaml:2:1: not valid YAML"),
])
def test_what_leaves_nothing_to_check_is_raised_in_both_modes(text, message):
    for strict in (True, False):
        with pytest.raises(RecordError) as info:
            parse_record(text, "r.yaml", strict=strict)
        assert str(info.value).startswith(message)


def test_read_record_lenient(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(text_of([GOOD[0], broken(1)]), encoding="utf-8")
    r = read_record(str(path), strict=False)
    assert [str(p) for p in r.problems] == [f"{path}:7: deal 2, bidder: 'Zed' is not at the table (Ann, Bob, Cy, Di)"]
    assert [d.number for d in r.deals] == [1]
    assert r.to_json()["problems"] == [{"deal": 2, "trick": None, "line": 7, "field": "bidder",
                                        "message": "'Zed' is not at the table (Ann, Bob, Cy, Di)"}]

