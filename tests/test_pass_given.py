"""Pass advice on conditioned deals (--given, --auction): the same deals when every deal meets the conditions, the
ranking moved where a condition must move it, and every refusal."""

from __future__ import annotations

from typing import Any

import pytest
from clihelp import run_cli, run_cli_json

from pinochle_cli.cards import Hand, Suit
from pinochle_cli.errors import ConditionError, PassError
from pinochle_cli.estimate.conditions import Given
from pinochle_cli.passing.judge import Judge, PassQuestion
from pinochle_cli.passing.race import advise
from pinochle_cli.ruleset import load_ruleset

THREE = load_ruleset("single-deck", {"exchange": "3"})
SINGLE = load_ruleset("single-deck")
# two queens of spades: worth sending to a bidder holding both jacks of diamonds (double pinochle)
QUEENS = Hand.parse("QS QS 9H AC 10C KD 9D 9C 10S KS 9S JC")
BIDDER = Hand.parse("AH 10H KH QH JH AH 10H KH QH JH JS 9C 9S AS 9D AC")
RECEIVED = Hand.parse("9S AS 9D AC")
FAST: dict[str, Any] = {"samples": 200, "top": 3, "seed": 3, "workers": 1}


def _ranked(q: PassQuestion, **kw: Any) -> list[dict[str, Any]]:
    ranked: list[dict[str, Any]] = advise(q, **FAST, **kw).to_json()["ranked"]
    return ranked


@pytest.mark.parametrize("q", [
    PassQuestion(THREE, "partner", QUEENS, Suit.H, 300),
    PassQuestion(SINGLE, "bidder", BIDDER, Suit.H, 1700, RECEIVED),
], ids=["partner", "bidder"])
def test_conditions_every_deal_meets_change_nothing(q: PassQuestion) -> None:
    met = (Given.parse("partner: aces >= 0"), Given.parse("left: counters >= 0 and spades <= 12"))
    conditioned = PassQuestion(q.rules, q.role, q.hand, q.trump, q.bid, q.received, met)
    a, b = advise(q, **FAST).to_json(), advise(conditioned, **FAST).to_json()
    assert b.pop("conditions") == [str(g) for g in met] and b.pop("acceptance") == 1.0
    assert a == b


def test_the_conditioned_deals_meet_the_conditions() -> None:
    # as the partner, "partner" is the bidder (seat 0) and "left" the seat after the partner's (seat 3)
    q = PassQuestion(THREE, "partner", QUEENS, Suit.H, 300, None,
                     (Given.parse("partner: holds JD JD"), Given.parse("left: aces == 0")))
    judge = Judge(q)
    cards = judge.deal(0, 500, 1).cards
    jd, aces = Hand.parse("JD").cards()[0].index, [c.index for c in Hand.parse("AH AS AD AC").cards()]
    seats = dict(zip(judge.others, (cards[:, i * 12:(i + 1) * 12] for i in range(3)), strict=True))
    assert ((seats[0] == jd).sum(axis=1) == 2).all()
    assert not any((seats[3] == a).any() for a in aces)
    assert any((seats[1] == a).any() for a in aces)


def test_a_condition_moves_the_ranking_where_it_must() -> None:
    # the race's ranking, which the conditions move (the final round reorders its best few on fresh deals)
    plain = _ranked(PassQuestion(THREE, "partner", QUEENS, Suit.H, 300), final_deals=0)
    assert sorted(plain[0]["pass"]) == ["AC", "QS", "QS"]
    # the bidder holding both jacks of diamonds: both queens of spades go, and the bid is nearly sure
    doubled = _ranked(PassQuestion(THREE, "partner", QUEENS, Suit.H, 300, None, (Given.parse("partner: holds JD JD"),)))
    assert all(j["pass"].count("QS") == 2 for j in doubled)
    assert doubled[0]["p_make"] > 0.9 > 0.5 > plain[0]["p_make"]
    # the bidder holding no jack of diamonds: the pair of queens is worth nothing to them
    lacking = _ranked(PassQuestion(THREE, "partner", QUEENS, Suit.H, 300, None, (Given.parse("partner: lacks JD"),)))
    assert lacking[0]["pass"].count("QS") < 2


@pytest.mark.parametrize(("q", "error", "words"), [
    (PassQuestion(THREE, "partner", QUEENS, Suit.H, 300, None, (Given.parse("partner: holds QS"),)), ConditionError,
     "QS is held more often than the unseen cards allow"),
    (PassQuestion(THREE, "partner", QUEENS, Suit.H, 300, None, (Given.parse("left: holds JD and lacks JD"),)),
     ConditionError, "both held and lacked"),
    (PassQuestion(SINGLE, "bidder", BIDDER, Suit.H, 1700, None, (Given.parse("left: aces >= 1"),)), PassError,
     "need the cards received"),
], ids=["impossible", "contradiction", "bidder-unreceived"])
def test_refusals(q: PassQuestion, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        Judge(q)


CLI = ["QS QS 9H AC 10C KD 9D 9C 10S KS 9S JC", "-t", "H", "--bid", "300", "-o", "exchange=3", "--samples", "200",
       "--seed", "3", "--workers", "1", "--top", "1"]


def test_auction_echoed_as_conditions() -> None:
    data = run_cli_json("pass", *CLI, "--auction", "pass 300 pass pass", "--dealer", "me")
    assert data["conditions"] == ["partner: meld >= 50"] and 0 < data["acceptance"] < 1
    code, out, _ = run_cli("pass", *CLI, "--given", "partner: holds JD JD")
    assert code == 0 and "conditions: partner: holds JD JD (met by 100.0 % of the deals drawn)" in out


@pytest.mark.parametrize(("extra", "words"), [
    (["--given", "partner: holds QS"], "QS is held more often than the unseen cards allow"),
    (["--given", "partner meld >= 10"], "start with the seat and a colon"),
    (["--dealer", "me"], "--dealer needs --auction"),
    (["--conventions", "x.yaml"], "--conventions needs --auction"),
    (["--auction", "pass 300 pass pass"], "--auction needs --dealer"),
    (["--auction", "pass 300 pass", "--dealer", "me"], "the auction is not won yet (me still to call)"),
    (["--auction", "300 pass pass pass", "--dealer", "me"], "won by left at 300"),
    (["--auction", "pass 300 pass pass pass", "--dealer", "me"], "comes after the auction ended"),
    (["--auction", "pass 350 pass pass", "--dealer", "me"], "won by partner at 350"),
])
def test_cli_refusals(extra: list[str], words: str) -> None:
    code, out, err = run_cli("pass", *CLI, *extra)
    assert code == 2 and out == "" and words in err and "Traceback" not in err


def test_cli_bidder_conditions_need_received() -> None:
    code, _, err = run_cli("pass", "AH 10H KH QH JH AH 10H KH QH JH JS 9C 9S AS 9D AC", "-t", "H", "--bid", "1700",
                           "--as", "bidder", "--given", "left: aces >= 1")
    assert code == 2 and "need the cards received" in err


def test_conditioned_advice_is_the_same_at_any_workers() -> None:
    q = PassQuestion(THREE, "partner", QUEENS, Suit.H, 300, None, (Given.parse("partner: lacks JD"),))
    serial = advise(q, **FAST).to_json()
    assert advise(q, **{**FAST, "workers": 2}).to_json() == serial
