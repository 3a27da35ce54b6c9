"""Mutated ruleset YAML either loads into a usable game or is refused with a located RulesetError.

The bundled rulesets (the three-handed game's widow, bury and sides formed by the auction
among them) are mutated line by line (delete, duplicate, re-indent, rename a key,
replace a value with garbage of another type, truncate). Whatever comes out must either load or
raise a ``PinochleError``: never a bare ``KeyError``/``TypeError``/… that the CLI would show as a
traceback. A ruleset that does load must work in the engine: meld, legal plays, a whole deal.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochle_cli.cards import Suit, parse_cards
from pinochle_cli.errors import PinochleError, RulesetError
from pinochle_cli.game.deal import deal_cards, opening_leader, play_deal, random_strategy
from pinochle_cli.game.tricks import check_play, legal_plays
from pinochle_cli.meld import meld_by_trump
from pinochle_cli.ruleset import Auction, Ruleset, load_ruleset_text

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("two-handed", "single-deck", "single-deck-small", "double-deck", "three-handed")
TEXTS = {name: (ROOT / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8") for name in NAMES}
SOURCE = "mutant.yaml"
LOCATED = re.compile(rf"^{re.escape(SOURCE)}(?::\d+:\d+)?: \S")

GARBAGE = (
    "0", "1", "2", "3", "5", "-1", "-250", "999999999999999999999999", "'9'", "'10'", "9", "10",
    "null", "~", "true", "false", "yes", "[]", "{}", "[1, 2]", "[S, H]", "{a: 1}", "{S: 1}",
    "foo", "''", "A", "S", "X", "1.5", ".nan", "-.inf", "2001-01-01", "!!binary aGk=", "&anchor x",
    "'{'", "[[0, 1]]", "[[0], [0]]", "{from: 1, by: 0}", "\"\\u2665\"", "♥", "A+", "Q?", "K*",
)
_TOKEN = re.compile(r"[^\s\[\]{},:#\"']+|\"[^\"]*\"")
_KEY = re.compile(r"^(\s*-?\s*)([^\s:#][^:#]*?):(\s|$)")


def _replace_token(text: str, line: int, which: int, garbage: str) -> str:
    lines = text.split("\n")
    tokens = list(_TOKEN.finditer(lines[line]))
    if tokens:
        m = tokens[which % len(tokens)]
        lines[line] = lines[line][:m.start()] + garbage + lines[line][m.end():]
    return "\n".join(lines)


@st.composite
def mutants(draw: st.DrawFn) -> str:
    text = TEXTS[draw(st.sampled_from(NAMES))]
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(("delete", "duplicate", "replace", "replace", "replace", "rename",
                                     "indent", "dedent", "truncate")))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "rename":
            m = _KEY.match(lines[i])
            if m:
                new = draw(st.sampled_from(("x", "9", "10", "null", "true", "S", "'", "a b")))
                lines[i] = m.group(1) + m.group(2) + new + lines[i][m.end(2):]
        elif kind == "indent":
            lines[i] = "  " + lines[i]
        elif kind == "dedent":
            lines[i] = lines[i][2:] if lines[i].startswith("  ") else lines[i].lstrip()
        elif kind == "truncate":
            cut = draw(st.integers(0, len(text)))
            lines = text[:cut].split("\n")
        else:
            text = _replace_token(text, i, draw(st.integers(0, 20)), draw(st.sampled_from(GARBAGE)))
            continue
        text = "\n".join(lines)
    return text


def _exercise(rules: Ruleset, seed: int) -> None:
    """Use a loaded ruleset as the engine would: meld (the bidder's with the widow too), legal plays (the
    sides from a bidder when the auction forms them) and a whole random deal."""
    rng = np.random.default_rng(seed)
    hands, rest = deal_cards(rules, rng)
    widow, stock = (rest, []) if rules.widow_size else ([], rest)
    assert len(widow) == rules.widow_size and len(stock) == rules.stock_size
    for hand in hands[:2]:
        meld_by_trump(rules, hand)
    if widow:
        meld_by_trump(rules, hands[0].add(*widow))
    trump = rules.suits[int(rng.integers(len(rules.suits)))]
    phase = ("stock" if rng.integers(2) else "play-off") if rules.has_stock else None
    bidder = int(rng.integers(rules.players)) if rules.sides_by_auction else None
    for n in range(min(rules.players, 3)):
        trick = list(hands[1 % rules.players])[:n] if n < rules.players else []
        hand = hands[0]
        legal = legal_plays(rules, hand, trick, trump, phase=phase, bidder=bidder)
        assert legal or not len(hand)
        check_play(rules, hand, next(iter(hand)), trick, trump, phase=phase, bidder=bidder)
    if rules.turn_up_trump and stock:
        trump = stock[-1].suit
    dealer = int(rng.integers(rules.players))
    leader = opening_leader(rules, dealer, (dealer + 1) % rules.players)
    # where the auction forms the sides, the deal's bidder (here the dealer's left) decides who plays with whom
    seat = (dealer + 1) % rules.players if rules.sides_by_auction else None
    result = play_deal(rules, hands, trump, leader, random_strategy(rng), stock=stock or None, bidder=seat)
    assert sum(result.tricks_won) == rules.tricks_per_deal
    assert sum(len(t) for t in result.tricks) == rules.deck.size - rules.widow_size


def _load_or_refuse(text: str) -> Ruleset | None:
    try:
        return load_ruleset_text(text, SOURCE)
    except RulesetError as exc:
        assert LOCATED.match(str(exc)), f"message not located: {exc}"
        assert "\n" not in str(exc).strip() or str(exc).count("\n") <= 3
        return None


@pytest.mark.parametrize("name", NAMES)
def test_bundled_texts_load_and_play(name: str) -> None:
    rules = load_ruleset_text(TEXTS[name], SOURCE)
    _exercise(rules, 1)


# 150 mutants (was 250): each parses a whole ruleset, checks every option's choices and plays a deal
# (~40 ms); every mutation kind meets every bundled file many times over, and what the fuzzing found
# stays pinned in the regression table below
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants(), st.integers(0, 2**32 - 1))
def test_mutated_ruleset_loads_or_is_refused_with_a_location(text: str, seed: int) -> None:
    try:
        rules = _load_or_refuse(text)
    except PinochleError as exc:  # another kind of refusal is fine, as long as it is ours
        assert not isinstance(exc, RulesetError)
        return
    if rules is not None:
        _exercise(rules, seed)


# --------------------------------------------------------------------------- valid but odd games

RANKS = ("A", "10", "K", "Q", "J", "9")
OUTCOMES = ("minus-bid", "minus-double-bid", "meld", "meld-and-counters", "nothing")
DUTIES = st.one_of(
    st.sampled_from(("follow", "trump", "beat")),
    st.builds(lambda name, when, partner, only: {name: {"when": when, "partner": partner, "only_if_winning": only}},
              st.sampled_from(("follow", "trump", "beat")), st.sampled_from(("always", "trump-led", "plain-led")),
              st.booleans(), st.booleans()),
)


@st.composite
def odd_games(draw: st.DrawFn) -> dict[str, object]:
    """A ruleset document that should validate: any pack, seats, stock, duties, meld table and auction."""
    suits = draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=4, unique=True))
    ranks = draw(st.permutations(RANKS).map(list))[:draw(st.integers(1, 6))]
    copies = draw(st.integers(1, 4))
    size = len(suits) * len(ranks) * copies
    seats = [p for p in range(2, 7) if size % p == 0]
    players = draw(st.sampled_from(seats)) if seats else 2
    stock = draw(st.booleans())
    # no stock: every card dealt, or the rest a widow for the bidder
    widow = not stock and draw(st.booleans())
    hands = [h for h in range(1, size // players + 1) if (players * h == size) != (stock or widow)]
    hand_size = draw(st.sampled_from(hands)) if hands else size // players
    teams = draw(st.lists(st.integers(0, 2), min_size=players, max_size=players))
    partnerships = [[s for s in range(players) if teams[s] == t] for t in sorted(set(teams))]
    bid = draw(st.booleans())
    minimum = draw(st.integers(0, 300))
    steps: list[dict[str, int]] = [{"from": minimum, "by": draw(st.integers(1, 50))}]
    if draw(st.booleans()):
        steps[0]["to"] = minimum + draw(st.integers(0, 100))
        steps.append({"from": steps[0]["to"] + draw(st.integers(1, 30)), "by": draw(st.integers(1, 50))})
    meld = {}
    for i in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 5))
        cards = [draw(st.sampled_from(ranks)) + draw(st.sampled_from(["+", "*", "?", *suits])) for _ in range(n)]
        cards = [c for j, c in enumerate(cards) if cards[:j].count(c) < copies]
        points = draw(st.one_of(st.integers(0, 200), st.lists(st.integers(0, 2000), min_size=1, max_size=copies)))
        meld[f"combo {i}"] = {"class": draw(st.sampled_from(("a", "b", "c"))), "cards": cards, "points": points}
    doc: dict[str, object] = {
        "schema_version": 1, "name": "odd",
        "deck": {"suits": suits, "ranks": ranks, "copies": copies},
        "players": players, "hand_size": hand_size,
        "counters": {r: draw(st.integers(0, 11)) for r in ranks if draw(st.booleans())},
        "last_trick": draw(st.integers(0, 10)),
        "play": {"leader": draw(st.sampled_from(("bidder", "dealer-left"))),
                 "duties": draw(st.lists(DUTIES, max_size=4)), "stock_duties": draw(st.lists(DUTIES, max_size=3))},
        "auction": {"minimum": minimum, "steps": steps, "dealer_stuck": draw(st.booleans())} if bid or not stock
        else None,
        "trump": {"source": "bid" if bid or not stock else "turn-up",
                  "eligible": draw(st.sampled_from(("any", "marriage")))},
        "meld": meld,
        "scoring": {"keep_meld": draw(st.sampled_from(("trick", "counter", "always"))),
                    "made_needs": draw(st.sampled_from(("nothing", "trick", "counter"))),
                    "made": draw(st.sampled_from(OUTCOMES)),
                    "set": {"bidders": draw(st.sampled_from(OUTCOMES)), "defenders": draw(st.sampled_from(OUTCOMES))},
                    "kept_if_only": draw(st.lists(st.sampled_from(sorted(meld)), max_size=2, unique=True))},
        "match": {"target": draw(st.integers(1, 2000))} if draw(st.booleans()) else {"deals": draw(st.integers(1, 9))},
    }
    if draw(st.booleans()):
        doc["partnerships"] = partnerships
        if min(len(team) for team in partnerships) >= 2:
            doc["exchange"] = draw(st.integers(0, hand_size))
    if stock:
        doc["stock"] = {"turn_up_trump": draw(st.booleans())}
    if widow and size > players * hand_size:
        _widow(draw, doc, size - players * hand_size)
    return doc


def _widow(draw: st.DrawFn, doc: dict[str, object], cards: int) -> None:
    """A widow of ``cards`` for the bidder, a bury, and sides the auction forms (or fixed), who melds."""
    when = draw(st.sampled_from(("after-meld", "before-meld")))
    bans = [b for b in draw(st.lists(st.sampled_from(("melded", "trump", "counter")), max_size=3, unique=True))
            if when == "after-meld" or b != "melded"]
    doc["widow"] = {"cards": cards, "shown": draw(st.booleans())}
    doc["bury"] = {"when": when, "forbidden": bans, "counters": draw(st.sampled_from(("bidder", "last-trick")))}
    doc["melders"] = draw(st.sampled_from(("all", "bidder")))
    if draw(st.booleans()):
        doc["sides"] = "bidder-alone"
        doc.pop("partnerships", None)
        doc.pop("exchange", None)


def _yaml(doc: dict[str, object]) -> str:
    # libyaml's emitter when PyYAML has it: the pure one took half of this test's time
    return yaml.dump(doc, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), allow_unicode=True, sort_keys=False)


# 120 games (was 200): each is loaded and played whole; the strategy's corners (no auction, a stock,
# every duty condition, one player alone) each come up dozens of times
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odd_games(), st.integers(0, 2**32 - 1))
def test_odd_but_valid_games_load_or_are_refused_and_then_play(doc: dict[str, object], seed: int) -> None:
    rules = _load_or_refuse(_yaml(doc))
    if rules is not None:
        _exercise(rules, seed)
        if rules.auction is not None:
            rules.auction.ladder(rules.auction.minimum + 500)


# --------------------------------------------------------------------------- regressions found by the fuzzing

def _edit(name: str, old: str, new: str) -> str:
    text = TEXTS[name]
    assert old in text, old
    return text.replace(old, new, 1)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), start=1) if needle in line)


@pytest.mark.parametrize(("name", "old", "new", "needle", "message"), [
    # a step ending below its start, or a last step that ends: next_bid looped for ever
    ("single-deck", "steps: [{from: 250, by: 10}]", "steps: [{from: 250, by: 10, to: 100}]", "steps:",
     "auction.steps[0].to: the step ends at 100, below its start 250"),
    ("single-deck", "steps: [{from: 250, by: 10}]", "steps: [{from: 250, by: 10, to: 500}]", "steps:",
     "auction.steps[0].to: the last step cannot end: there must always be a higher bid"),
    # numbers beyond 64-bit totals: OverflowError in the meld tables and the estimate
    ("single-deck", "counters: {A: 10,", "counters: {A: 1000000000000000000000,", "counters:",
     "counters.A: expected at most 10000, got 1000000000000000000000"),
    ("single-deck", "points: [150, 1500]}", "points: [150, 99999999999999999999]}", "run:",
     "meld.run.points[1]: expected at most 10000, got 99999999999999999999"),
    ("single-deck", "minimum: 250", "minimum: 100000000000", "minimum:",
     "auction.minimum: expected at most 1000000000, got 100000000000"),
    ("single-deck", "last_trick: 10", "last_trick: 10000000000000", "last_trick:",
     "last_trick: expected at most 10000, got 10000000000000"),
    ("single-deck", "target: 1500", "target: 10000000000000", "target:",
     "match.target: expected at most 1000000000, got 10000000000000"),
    ("single-deck", "copies: 2", "copies: 1000000", "copies:", "deck.copies: expected at most 4, got 1000000"),
    # a duty mapping with two names was refused without a line
    ("single-deck", "duties: [follow, trump, beat]", "duties: [follow, {trump: {}, beat: {}}]", "duties:",
     "play.duties[1]: expected at most 1 entry, got 2 ('trump', 'beat')"),
    # the exchange only checked the first partnership: seat 1 would bid with nobody to pass to it
    ("single-deck", "partnerships: [[0, 2], [1, 3]]", "partnerships: [[0, 2, 3], [1]]", "exchange:",
     "exchange: an exchange needs partnerships: every bidder needs a partner, and seat 1 has none"),
    # a stock with nothing left over was explained as "a stock of 0 cards cannot be drawn evenly"
    ("two-handed", "hand_size: 12", "hand_size: 24", "stock:",
     "stock: 2 hands of 24 use all 48 cards: nothing is left for the stock"),
])
def test_nonsense_refused_at_its_line(name: str, old: str, new: str, needle: str, message: str) -> None:
    text = _edit(name, old, new)
    with pytest.raises(RulesetError) as info:
        load_ruleset_text(text, SOURCE)
    got = str(info.value)
    assert got.startswith(f"{SOURCE}:{_line_of(text, needle)}:"), got
    assert got.split(": ", 1)[1] == message


@pytest.mark.parametrize(("steps", "bid", "expected"), [
    (((250, 10, None),), 250, 260),
    (((250, 10, None),), 0, 250),
    (((250, 10, None),), 255, 260),
    (((50, 1, 60), (65, 5, None)), 60, 65),
    (((50, 1, 60), (65, 5, None)), 66, 70),
    (((50, 7, 60), (70, 5, None)), 57, 70),  # 64 is past the step's end
    (((0, 1_000_000_000, None),), 1, 1_000_000_000),  # found without counting up one at a time
])
def test_next_bid_is_the_smallest_valid_bid_above(steps: tuple[tuple[int, int, int | None], ...], bid: int,
                                                  expected: int) -> None:
    auction = Auction(steps[0][0], steps)
    assert auction.next_bid(bid) == expected
    assert auction.is_valid_bid(expected)
    assert not any(auction.is_valid_bid(b) for b in range(bid + 1, min(expected, bid + 10_000)))


def test_next_bid_past_a_last_step_that_ends_is_an_error_not_a_hang() -> None:
    with pytest.raises(RulesetError, match="no valid bid above 300"):
        Auction(250, ((250, 10, 300),)).next_bid(300)


def test_a_hand_of_the_pack_melds_with_one_copy_and_two_suits() -> None:
    text = _edit("single-deck", "suits: [S, H, D, C]", "suits: [S, H]")
    text = text.replace("copies: 2", "copies: 1").replace("hand_size: 12", "hand_size: 3").replace(
        "exchange: 4", "exchange: 2")
    keep = [line for line in text.split("\n") if not re.search(r"around|extra|pinochle:|\[150, 1500\]", line)]
    rules = load_ruleset_text("\n".join(keep), SOURCE)
    assert rules.deck.size == 12 and rules.players == 4
    _exercise(rules, 7)
    result = meld_by_trump(rules, parse_cards("KS QS 9S"))
    assert (result[Suit.S].total, result[Suit.H].total) == (50, 20)
