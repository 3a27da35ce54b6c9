"""Mutated match records are scored or refused with a ``PinochleError``, never a traceback.

The example records are mutated line by line (delete, duplicate, re-indent, rename a key, a value
replaced by garbage of another type, truncation) and read with ``parse_record`` both strictly
and forgivingly (``strict=False`` collects problems instead of raising the first).
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochle_cli.cards import Hand, format_cards
from pinochle_cli.errors import PinochleError, RecordError
from pinochle_cli.meld import most_meld
from pinochle_cli.records import parse_record, read_record
from pinochle_cli.ruleset import Ruleset, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES}
BASE = str(ROOT / "examples")
SOURCE = "mutant-record.yaml"

GARBAGE = (
    "0", "1", "-1", "-250", "5", "250", "251", "999999999999999999999999", "'9'", "'10'", "9", "10", "null", "~",
    "true", "false", "yes", "[]", "{}", "[1, 2]", "[pass, pass]", "{a: 1}", "{Ann: 1}", "foo", "''", "Ann", "Bob",
    "Pat", "North-South", "NS", "AS", "AS AS AS", "10H", "ZZ", "S", "spades", "X", "1.5", ".nan", "-.inf",
    "2001-01-01", "!!binary aGk=", "&anchor x", "*anchor", "pass", "two-handed", "double-deck", "no-such-game",
    "../rulesets/two-handed.yaml", "/", "[AS, KS, QS]", "[[AS]]", "{Ann: AS KS}", "'{'", "♥", "-0",
)
_TOKEN = re.compile(r"[^\s\[\]{},:#\"']+")
_KEY = re.compile(r"^(\s*-?\s*)([^\s:#][^:#]*?):(\s|$)")


@st.composite
def mutants(draw: st.DrawFn) -> str:
    text = TEXTS[draw(st.sampled_from(sorted(TEXTS)))]
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(("delete", "duplicate", "swap", "replace", "replace", "replace", "replace",
                                     "rename", "indent", "dedent", "truncate")))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "rename":
            m = _KEY.match(lines[i])
            if m:
                new = draw(st.sampled_from(("x", "9", "null", "true", "Ann", "'", "a b")))
                lines[i] = m.group(1) + m.group(2) + new + lines[i][m.end(2):]
        elif kind == "indent":
            lines[i] = "  " + lines[i]
        elif kind == "dedent":
            lines[i] = lines[i][2:] if lines[i].startswith("  ") else lines[i].lstrip()
        elif kind == "truncate":
            lines = text[:draw(st.integers(0, len(text)))].split("\n")
        else:
            tokens = list(_TOKEN.finditer(lines[i]))
            if tokens:
                m = tokens[draw(st.integers(0, len(tokens) - 1))]
                lines[i] = lines[i][:m.start()] + draw(st.sampled_from(GARBAGE)) + lines[i][m.end():]
        text = "\n".join(lines)
    return text


def _one_line(exc: PinochleError) -> None:
    message = str(exc)
    assert message.strip(), "an empty message"
    assert "Traceback" not in message


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_examples_score(name: str) -> None:
    record = parse_record(TEXTS[name], SOURCE, BASE)
    assert not record.problems
    assert read_record(str(ROOT / "examples" / name)).to_json() == record.to_json()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants(), st.booleans())
def test_mutated_record_is_scored_or_refused(text: str, strict: bool) -> None:
    try:
        record = parse_record(text, SOURCE, BASE, strict=strict)
    except PinochleError as exc:
        _one_line(exc)
        return
    record.to_json()
    for problem in record.problems:
        assert isinstance(problem, RecordError)
        _one_line(problem)


# --------------------------------------------------------------------------- counters against tricks

GAMES = ("single-deck", "single-deck-small", "double-deck", "two-handed")


def _record_text(game: str, counters: tuple[int, int], tricks: tuple[int, int]) -> str:
    """A one-deal record of ``game`` with these counters and tricks per side (every other field valid)."""
    rules = load_ruleset(game)
    if rules.players == 2:
        table, sides = "players: [Pat, Sam]", ("Pat", "Sam")
        bidding = ""
    else:
        table, sides = "teams: {NS: [Ann, Cy], EW: [Bob, Di]}", ("NS", "EW")
        bidding = f"    bidder: Bob\n    bid: {rules.auction.minimum if rules.auction else 0}\n"
    return (f"ruleset: {game}\n{table}\ndeals:\n  - dealer: {sides[0] if rules.players == 2 else 'Ann'}\n"
            f"{bidding}    trump: hearts\n    meld: {{{sides[0]}: 0, {sides[1]}: 0}}\n"
            f"    counters: {{{sides[0]}: {counters[0]}, {sides[1]}: {counters[1]}}}\n"
            f"    tricks: {{{sides[0]}: {tricks[0]}, {sides[1]}: {tricks[1]}}}\n")


def _most(rules: Ruleset, tricks: int) -> int:
    """The most counters ``tricks`` tricks can hold: their cards the highest counters, and the last trick."""
    values = sorted((rules.counter_value(c) for c in rules.deck.cards()), reverse=True)
    return sum(values[:tricks * rules.players]) + (rules.last_trick if tricks else 0)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.randoms(use_true_random=False))
def test_counters_of_tricks_dealt_at_random_are_taken(game: str, rng: random.Random) -> None:
    """Cards laid out in tricks at random, the tricks shared out at random: the counters they hold are taken."""
    rules = load_ruleset(game)
    cards = rules.deck.cards()
    rng.shuffle(cards)
    n, per = rules.tricks_per_deal, rules.players
    ours = rng.randint(0, n)
    mine = rng.sample(range(n), ours)
    last = n - 1
    counters = [0, 0]
    for trick in range(n):
        side = 0 if trick in mine else 1
        counters[side] += sum(rules.counter_value(c) for c in cards[trick * per:(trick + 1) * per])
        counters[side] += rules.last_trick if trick == last else 0
    record = parse_record(_record_text(game, (counters[0], counters[1]), (ours, n - ours)), SOURCE, BASE)
    assert record.deals[0].counters == tuple(counters)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.data())
def test_counters_no_tricks_could_hold_are_refused(game: str, data: st.DataObject) -> None:
    """Counters more than a side's tricks can hold (or less than the other side's cannot absorb) are refused,
    naming the range."""
    rules = load_ruleset(game)
    n, total = rules.tricks_per_deal, rules.counter_total
    ours = data.draw(st.integers(0, n))
    mine = data.draw(st.integers(0, total))
    low, high = total - _most(rules, n - ours), _most(rules, ours)
    text = _record_text(game, (mine, total - mine), (ours, n - ours))
    try:
        parse_record(text, SOURCE, BASE)
    except RecordError as exc:
        _one_line(exc)
        return
    assert max(low, 0) <= mine <= high, f"{mine} counters in {ours} tricks taken ({game}: {low}…{high})"


# --------------------------------------------------------------------------- meld against hands

def _meld_record(game: str, meld: str) -> str:
    """A one-deal record of ``game`` whose meld is ``meld`` (flow YAML entries) and the other side's 0."""
    rules = load_ruleset(game)
    if rules.players == 2:
        table, other, counters, bidding = "players: [Ann, Sam]", "Sam", "{Ann: 0, Sam: 0}", ""
    else:
        table, other, counters = "teams: {NS: [Ann, Cy], EW: [Bob, Di]}", "EW", "{NS: 0, EW: 0}"
        bidding = f"    bidder: Bob\n    bid: {rules.auction.minimum if rules.auction else 0}\n"
    half = rules.counter_total // 2
    counters = counters.replace(": 0,", f": {half},").replace(": 0}", f": {rules.counter_total - half}}}")
    return (f"ruleset: {game}\n{table}\ndeals:\n  - dealer: Ann\n{bidding}    trump: hearts\n"
            f"    meld: {{{meld}, {other}: 0}}\n    counters: {counters}\n")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.randoms(use_true_random=False), st.integers(0, 30))
def test_meld_shown_is_at_most_a_hand(game: str, rng: random.Random, size: int) -> None:
    """Cards shown for meld: a hand's worth (at most hand_size cards) is taken and scores at most the most one
    hand can show; more cards than a hand holds are refused."""
    rules = load_ruleset(game)
    shown = rng.sample(rules.deck.cards(), min(size, rules.deck.size))
    text = _meld_record(game, f"Ann: {format_cards(shown, ascii=True) or '[]'}")
    try:
        record = parse_record(text, SOURCE, BASE)
    except RecordError as exc:
        _one_line(exc)
        assert len(shown) > rules.hand_size or not shown or "meld" not in (exc.field or ""), str(exc)
        return
    assert len(shown) <= rules.hand_size, f"{len(shown)} cards shown by one player were taken ({game})"
    assert record.deals[0].meld[0] <= most_meld(rules).total


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.booleans(), st.one_of(st.integers(0, 5000), st.integers(0, 10 ** 40)))
def test_meld_numbers_no_hand_could_show_are_refused(game: str, by_player: bool, points: int) -> None:
    """A meld number more than the hands it is given for can show is refused."""
    rules = load_ruleset(game)
    points -= points % math.gcd(*(c.value(1) for c in rules.meld))
    team = rules.players > 2 and not by_player
    text = _meld_record(game, f"{'NS' if team else 'Ann'}: {points}")
    hands = 2 if team else 1
    try:
        parse_record(text, SOURCE, BASE)
    except RecordError as exc:
        _one_line(exc)
        return
    assert points <= hands * most_meld(rules).total, f"meld {points} taken for {hands} hand(s) ({game})"


# --------------------------------------------------------------------------- games with a widow

WIDOW_GAMES = ("three-handed", str(ROOT / "examples" / "rulesets" / "three-handed-double.yaml"),
               str(ROOT / "examples" / "rulesets" / "four-handed-kitty.yaml"))


def _widow_record(game: str, counters: list[int], tricks: list[int], buried: str | None) -> str:
    """A one-deal record of ``game`` (Bob the bidder, no meld) with these counters and tricks per side."""
    rules = load_ruleset(game)
    sides: tuple[str, ...]
    if rules.players == 3:
        table, sides = "players: [Ann, Bob, Cy]", ("Ann", "Bob", "Cy")
    else:
        table, sides = "teams: {NS: [Ann, Cy], EW: [Bob, Di]}", ("NS", "EW")
    assert rules.auction is not None

    def by_side(values: list[int]) -> str:
        return "{" + ", ".join(f"{s}: {v}" for s, v in zip(sides, values, strict=True)) + "}"

    return (f"ruleset: {game}\n{table}\ndeals:\n  - dealer: Ann\n    bidder: Bob\n    bid: {rules.auction.minimum}\n"
            f"    trump: hearts\n    meld: {by_side([0] * len(sides))}\n"
            + (f"    buried: {buried}\n" if buried is not None else "")
            + f"    counters: {by_side(counters)}\n    tricks: {by_side(tricks)}\n")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(WIDOW_GAMES), st.randoms(use_true_random=False), st.booleans())
def test_counters_of_tricks_and_a_bury_dealt_at_random_are_taken(game: str, rng: random.Random, named: bool) -> None:
    """A widow game: cards buried and the rest laid out in tricks at random, the tricks shared out at random among
    the sides; the counters they hold, the buried ones the bidder's, are taken (the buried cards named or not)."""
    rules = load_ruleset(game)
    cards = rules.deck.cards()
    rng.shuffle(cards)
    assert rules.bury is not None
    # the bury takes no card the ruleset forbids (the record's trump is hearts)
    banned = {"trump": lambda c: c.suit.letter == "H", "counter": rules.counter_value}
    buryable = [c for c in cards if not any(banned[b](c) for b in rules.bury.forbidden if b in banned)]
    aside = buryable[:rules.widow_size]
    for c in aside:
        cards.remove(c)
    n, per, sides = rules.tricks_per_deal, rules.players, len(rules.partnerships)
    counters, tricks = [0] * sides, [0] * sides
    # Bob, the bidder, sits at seat 1: side 1
    counters[1] = sum(rules.counter_value(c) for c in aside)
    for trick in range(n):
        side = rng.randrange(sides)
        tricks[side] += 1
        counters[side] += sum(rules.counter_value(c) for c in cards[trick * per:(trick + 1) * per])
        counters[side] += rules.last_trick if trick == n - 1 else 0
    text = _widow_record(game, counters, tricks, format_cards(aside, ascii=True) if named else None)
    record = parse_record(text, SOURCE, BASE)
    assert record.deals[0].counters == tuple(counters)


PLAYED_THREE = TEXTS["three-handed-played.yaml"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from(("widow", "buried")), st.integers(0, 4))
def test_a_widow_or_bury_at_random_is_taken_only_when_the_hands_allow_it(rng: random.Random, key: str,
                                                                        size: int) -> None:
    """The played three-handed deal with its widow or buried cards replaced at random: every hand is recorded, so
    the buried cards are exactly the rest of the pack and the widow lies in the bidder's hand or among them;
    anything else is refused with one line naming the deal and field."""
    rules = load_ruleset("three-handed")
    cards = rng.sample(rules.deck.cards(), size)
    text = re.sub(rf"^    {key}: .*$", f"    {key}: {format_cards(cards, ascii=True) or '[]'}", PLAYED_THREE, flags=re.M)
    try:
        record = parse_record(text, SOURCE, BASE)
    except RecordError as exc:
        _one_line(exc)
        assert exc.deal == 1 and exc.field in (key, "trump"), str(exc)
        return
    deal = record.deals[0]
    assert deal.hands is not None and deal.buried is not None
    assert len(cards) == 3
    bob = deal.hands["Bob"] + Hand(deal.buried)
    rest = Hand(rules.deck.cards()) - Hand(c for h in deal.hands.values() for c in h)
    if key == "buried":
        assert Hand(cards) == rest
    else:
        assert Hand(cards).issubset(bob)
