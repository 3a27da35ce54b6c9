"""The pass advice's time bound: the final round deals no more once its pace says the advice would end later,
and says so (a fake clock: no timing in the test)."""

from __future__ import annotations

import itertools

from pinochle_cli.cards import Hand, Suit
from pinochle_cli.cli.pass_view import final_line
from pinochle_cli.passing.judge import PassQuestion
from pinochle_cli.passing.race import advise
from pinochle_cli.ruleset import load_ruleset

Q = PassQuestion(load_ruleset("single-deck"), "partner", Hand.parse("AH 10H KH 9H AS AC AD QS 9S JD 9D 9C"), Suit.H,
                 300)


def test_the_final_round_stops_when_its_pace_would_pass_the_bound() -> None:
    # every reading of the clock 5 s later: after its first round of 100 deals the final round is past 9 s
    slow = advise(Q, samples=200, seed=1, workers=1, seconds=9.0, clock=itertools.count(0, 5).__next__)
    assert slow.final is not None and slow.final.cut
    assert (slow.final.deals, slow.final.planned) == (100, 200)
    assert slow.to_json()["final"]["cut_by_time"] == {"planned_deals": 200, "seconds": 9.0}
    assert "100 of 200 deals, cut to answer within 9 s" in final_line(slow)
    # no bound, or time enough: every deal, the same answer for the seed, and nothing said of a cut
    free = advise(Q, samples=200, seed=1, workers=1, seconds=None)
    roomy = advise(Q, samples=200, seed=1, workers=1, seconds=1e6)
    assert free.final is not None and not free.final.cut and free.final.deals == 200
    assert free.to_json() == roomy.to_json() and "cut_by_time" not in free.to_json()["final"]
    assert "cut to answer" not in final_line(free)
