"""Every recommendation carries one to three reasons, each with its figure, in the table and in JSON; no reason's
text is written for a hand (the same words come back with other hands' figures)."""

from __future__ import annotations

import dataclasses
import functools
import re

import pytest
from clihelp import run_cli, run_cli_json

from pinochle_cli.cards import Hand
from pinochle_cli.cli import pass_cmd
from pinochle_cli.estimate.question import CallWorth, _sacrifice, answer
from pinochle_cli.passing.race import advise
from pinochle_cli.reasons import Reason
from pinochle_cli.ruleset import load_ruleset

RULES = load_ruleset("single-deck")
HAND = "AH 10H KH QH JH AS AD AC KS QS JD 9H"
FAST_PASS = ("--samples", "200", "--workers", "1", "--seed", "1")


def _check(reasons: list[dict[str, object]]) -> None:
    assert 1 <= len(reasons) <= 3
    for r in reasons:
        assert isinstance(r["text"], str) and r["text"] and isinstance(r["figure"], float | int)
        assert isinstance(r["unit"], str)


def test_estimate_reasons_in_json_and_table() -> None:
    doc = run_cli_json("estimate", HAND, "--samples", "200", "--seed", "2", "--workers", "1")
    _check(doc["reasons"])
    assert "the rule: the highest bid made at least 75 %" in doc["reasons"][0]["text"]
    code, out, _ = run_cli("estimate", HAND, "--samples", "200", "--seed", "2", "--workers", "1", "--risk", "0.5")
    assert code == 0 and "Why:\n  - the rule: the highest bid made at least 50 %" in out


def test_auction_reasons_say_which_rule_chose() -> None:
    base = ("estimate", HAND, "--samples", "200", "--seed", "2", "--workers", "1", "--auction", "250", "--dealer",
            "partner")
    for by, words in (("points", "the call with the best expected points"), ("confidence", "the highest bid made")):
        doc = run_cli_json(*base, "--by", by)
        _check(doc["reasons"])
        assert words in doc["reasons"][0]["text"]


def test_a_sacrifice_is_called_one_with_what_it_saves() -> None:
    a = answer(RULES, Hand.parse(HAND), calls="250 350", dealer="left", samples=200, seed=3, workers=1)
    row = a.estimate.suits[0].bids[-1]
    low = dataclasses.replace(row, p_make=0.3)
    fake = dataclasses.replace(a, by="points", best_by_points=CallWorth(row.bid, a.estimate.suits[0].trump, -40.0),
                               passing=CallWorth(None, None, -250.0))
    r = _sacrifice(fake, low)
    assert isinstance(r, Reason) and r.text.startswith("a sacrifice:") and r.figure == 210.0
    assert "saves 210.0 points" in r.text


def test_pass_reasons_in_json_and_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # the final round on 40 deals instead of 300: the same reasons, in a few seconds
    monkeypatch.setattr(pass_cmd, "advise", functools.partial(advise, final_deals=40))
    doc = run_cli_json("pass", "AH 10H KH 9H AS AC AD QS 9S JD 9D 9C", "-t", "H", "--bid", "300", *FAST_PASS)
    _check(doc["reasons"])
    assert doc["final"]["deals"] == 40 and doc["reasons"][0]["ci95"] is not None
    code, out, _ = run_cli("pass", "AH 10H KH 9H AS AC AD QS 9S JD 9D 9C", "-t", "H", "--bid", "300", *FAST_PASS)
    assert code == 0 and "Why:\n  - played out" in out and "Final ranking:" in out


def test_hint_reasons_in_json_and_table() -> None:
    args = ("hint", "-t", "S", "--hand", "AS AS TS KS QS JS 9S AD AD TD AC KC", "--time", "1", "--workers", "1",
            "--worlds", "12")
    doc = run_cli_json(*args)
    _check(doc["reasons"])
    code, out, _ = run_cli(*args)
    assert code == 0 and "Why:" in out


def test_no_reason_is_written_for_a_hand() -> None:
    """Two hands, the same sentences once the figures and cards are taken out."""
    def shape(text: str) -> str:
        return re.sub(r"[+-]?\d+(\.\d+)?|[AKQJ9]|10|[♠♥♦♣]|spades|hearts|diamonds|clubs", "#", text)

    a = run_cli_json("estimate", HAND, "--samples", "200", "--seed", "2", "--workers", "1")
    b = run_cli_json("estimate", "AS 10S KS QS JS AH AD AC KH QH JD 9S", "--samples", "200", "--seed", "2",
                     "--workers", "1")
    assert [shape(r["text"]) for r in a["reasons"]] == [shape(r["text"]) for r in b["reasons"]]


def test_bury_reasons_in_json_and_table() -> None:
    """The bury's reasons: its lead, what it lays away in the ruleset's words (whose the counters are), its P(make);
    the same sentences for another hand once the figures and cards are taken out."""
    args = ("pass", "-r", "three-handed", "--bury", "-t", "S", "--bid", "400", "--samples", "100", "--seed", "2",
            "--workers", "1", "--top", "2")
    doc = run_cli_json(*args[:1], "AS TS KS QS JS 9S AH TH KH 9H AD QD JD 9D AC KC 9C JC", *args[1:])
    _check(doc["reasons"])
    lead, laid, made = doc["reasons"]
    assert lead["unit"] == "points a deal" and lead["ci95"] is not None
    assert "(the bidder's)" in laid["text"] and laid["figure"] == doc["ranked"][0]["words"]["counters_buried"]
    assert made["figure"] == doc["ranked"][0]["p_make"] and "the bid of 400 is made" in made["text"]
    code, out, _ = run_cli(*args[:1], "AS TS KS QS JS 9S AH TH KH 9H AD QD JD 9D AC KC 9C JC", *args[1:])
    assert code == 0 and "Why:\n  - with the computer's play" in out and laid["text"] in out
    other = run_cli_json(*args[:1], "AS TS KS QS JS AH AH TH KH AD QD JD 9D AC KC 9C JC 9H", *args[1:])
    shape = functools.partial(re.sub, r"[+-]?\d+(\.\d+)?|[AKQJ9]|10|[♠♥♦♣]", "#")
    assert [shape(r["text"]) for r in doc["reasons"]][::2] == [shape(r["text"]) for r in other["reasons"]][::2]
