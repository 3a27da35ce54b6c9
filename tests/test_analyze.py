"""The post-mortem of a recorded deal: each card's verdict against an exhaustive search, and the time limit."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pytest
from analysed import analysed
from clihelp import run_cli

from pinochle_cli.cards import Card
from pinochle_cli.errors import PlayError
from pinochle_cli.game.deal import deal_cards, play_deal, random_strategy, replay_deal
from pinochle_cli.records import DealRecord, MatchRecord, parse_record, read_record
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.solver.analyze import DealAnalysis, analyze_deal, playable_deals
from pinochle_cli.solver.reference import minimax, value_after
from pinochle_cli.solver.solve import Position

ROOT = Path(__file__).resolve().parent.parent
PLAYED = str(ROOT / "examples" / "single-deck-played.yaml")
NIGHT = str(ROOT / "examples" / "single-deck-night.yaml")


class CardClock:
    """A clock that reads the cards judged so far (as ``progress``): the time limit stops after a known card."""

    def __init__(self) -> None:
        self.cards = 0

    def progress(self, done: int, total: int) -> None:
        self.cards = done

    def __call__(self) -> float:
        return float(self.cards)


def by_cards(record: MatchRecord, deal: DealRecord, cards: int) -> DealAnalysis:
    """``deal`` analysed with a time limit of ``cards`` cards judged."""
    clock = CardClock()
    return analyze_deal(record, deal, time_limit=cards, clock=clock, progress=clock.progress)


def test_a_time_limit_leaves_the_first_tricks_not_analysed() -> None:
    record = read_record(PLAYED)
    deal = playable_deals(record)[0]
    # 9 cards judged (tricks 12, 11 and one card of 10), so trick 11 is the first whole one
    result = by_cards(record, deal, 9)
    assert (result.first_trick, result.stopped, result.makeable) == (11, "time limit", None)
    assert [v.trick for v in result.verdicts] == [11] * 4 + [12] * 4


def _expected(record: MatchRecord, deal: DealRecord, first: int) -> list[tuple[int, Card, int, int]]:
    """(trick, card, best, after) of every card from trick ``first`` on, by the exhaustive minimax."""
    rules = record.rules
    assert deal.trump is not None and deal.hands is not None and deal.play is not None and deal.leader is not None
    us = record.table.seat_of(deal.bidder) if deal.bidder else 0
    assert rules.side_of(us) == rules.side_of(0)  # the reference counts for seat 0's side
    hands = [deal.hands[p] for p in record.table.seating]
    played = replay_deal(rules, hands, deal.trump, deal.leader, deal.play, stock=deal.stock)
    taken, expected = 0, []
    last = len(played.tricks) - 1
    for k, trick in enumerate(played.tricks):
        pos = Position(tuple(hands), played.leaders[k])
        for card in trick:
            if k + 1 >= first:
                best = taken + minimax(rules, deal.trump, pos)
                after = taken + value_after(rules, deal.trump, pos, card)
                if rules.side_of(pos.to_play) != rules.side_of(0):
                    best, after = rules.counter_total - best, rules.counter_total - after
                expected.append((k + 1, card, best, after))
            hands[pos.to_play] = hands[pos.to_play].remove(card)
            pos = pos.play(card)
        for seat, card in played.draws[k]:
            hands[seat] = hands[seat].add(card)
        if rules.side_of(played.winners[k]) == rules.side_of(0):
            taken += sum(rules.counter_value(c) for c in trick) + (rules.last_trick if k == last else 0)
    return expected


def _check(record: MatchRecord, deal: DealRecord, ticks: int, first: int, stopped: str, compared: int) -> None:
    """Judged from trick ``first`` on; the verdicts from trick ``compared`` on as the exhaustive search says."""
    result = by_cards(record, deal, ticks)
    assert (result.first_trick, result.stopped) == (first, stopped)
    assert result.verdicts[0].trick == first
    got = [(v.trick, v.card, v.best, v.after) for v in result.verdicts if v.trick >= compared]
    assert got == _expected(record, deal, compared)
    for v in result.verdicts:
        assert v.cost >= 0 and (v.better is None) == (v.cost == 0)


def test_each_verdict_agrees_with_the_exhaustive_search() -> None:
    record = read_record(PLAYED)
    _check(record, playable_deals(record)[0], 10, 11, "time limit", 11)


def test_the_tricks_played_with_the_stock_are_not_analysed() -> None:
    rules = load_ruleset("two-handed")
    rng = np.random.default_rng(3)
    hands, stock = deal_cards(rules, rng)
    play = play_deal(rules, hands, stock[-1].suit, 1, random_strategy(rng), stock=stock)

    def cards(cs: Iterable[Card]) -> str:
        return ", ".join(c.ascii().replace("T", "10") for c in cs)
    text = "\n".join([
        "ruleset: two-handed", "players: [Pat, Sam]", "deals:", "  - dealer: Pat",
        f"    trump: {stock[-1].suit.letter}", "    meld: {Pat: 0, Sam: 0}",
        f"    hands: {{Pat: [{cards(hands[0])}], Sam: [{cards(hands[1])}]}}", f"    stock: [{cards(stock)}]",
        "    play:", *(f"      - [{cards(t)}]" for t in play.tricks)])
    record = parse_record(text)
    _check(record, record.deals[0], 200, 13, "stock", 23)  # time for the whole play-off, no trick of the stock
    # the sixth card (the lead of trick 22) needs no search: it is judged within the limit of five
    _check(record, record.deals[0], 5, 22, "time limit", 22)


@pytest.mark.parametrize(("args", "message"), [
    ([NIGHT], f"{NIGHT}: no deal has a recorded play (hands: and play:) to analyse"),
    ([PLAYED, "--deal", "5"], f"{PLAYED}: there is no deal 5 (the record has 1 deal)"),
    ([NIGHT, "--deal", "1"], f"{NIGHT}: deal 1 has no recorded play (hands: and play:) to analyse"),
])
def test_analyze_refuses(args: list[str], message: str) -> None:
    assert run_cli("analyze", *args) == (2, "", f"Error: {message}\n")


def test_analyze_json_within_a_small_time_limit() -> None:
    code, out, err = run_cli("analyze", PLAYED, "--json", "--time-limit", "0.5")
    assert (code, err) == (0, "")
    deal = json.loads(out)["deals"][0]
    assert (deal["number"], deal["side"], deal["bid"], deal["meld"], deal["taken"]) == (1, "North-South", 260, 180, 90)
    assert all(c["trick"] >= deal["analysed_from_trick"] for c in deal["cards"])
    assert [p["player"] for p in deal["players"]] == ["Ann", "Bob", "Cy", "Di"]


def test_the_example_gets_its_verdict_within_the_default_limit() -> None:
    """About 1.5 CPU seconds of search: the default 30 s never cuts it, and every run says the same."""
    first = run_cli("analyze", PLAYED, "--json")
    assert first == run_cli("analyze", PLAYED, "--json")
    deal = json.loads(first.out)["deals"][0]
    assert (deal["analysed_from_trick"], deal["not_analysed"], deal["perfect"], deal["makeable"]) == (1, None, 70, False)
    code, out, _ = run_cli("analyze", PLAYED)
    assert code == 0
    assert "Perfect play: North-South take 70 counters + 180 meld = 250: the bid of 260 was not makeable." in out


def test_a_deal_within_its_time_is_searched_as_without_a_limit() -> None:
    """Under a time limit it does not run out of, the search is the search without one: the same nodes."""
    record, deal, free = analysed(PLAYED)
    timed = analyze_deal(record, deal, time_limit=30)
    assert (timed.first_trick, timed.stopped, timed.makeable) == (1, None, False)
    assert (timed.nodes, timed.verdicts) == (free.nodes, free.verdicts)


def test_a_tiny_time_limit_is_a_clean_answer() -> None:
    code, out, err = run_cli("analyze", PLAYED, "--time-limit", "0.001")
    assert (code, err) == (0, "")
    assert "not analysed (the time limit of 0.001 s)" in out.splitlines()[1]


@pytest.mark.parametrize("value", ["inf", "nan", "1e308", "1e15", "86400.5", "0", "-1"])
def test_a_time_limit_out_of_range_is_one_line(value: str) -> None:
    shown = {"0": "0.0", "-1": "-1.0", "1e308": "1e+308", "1e15": "1000000000000000.0"}.get(value, value)
    assert run_cli("analyze", PLAYED, "--time-limit", value) == (
        2, "", f"Error: Invalid value for '--time-limit': {shown} is not in the range 0<x<=86400.\n")


@pytest.mark.parametrize("value", [math.inf, math.nan, 1e308, 0.0, -1.0])
def test_the_library_refuses_a_time_limit_out_of_range(value: float) -> None:
    record = read_record(PLAYED)
    with pytest.raises(PlayError, match=r"time_limit .*: give the CPU seconds as a number above 0 and at most 86400"):
        analyze_deal(record, playable_deals(record)[0], time_limit=value)
