"""A house ruleset can never hang the program: whatever ``rulesets check`` accepts, every command
finishes in under 10 seconds.

The generators aim at the limits: many players, big hands, many copies, huge point values,
many combinations sharing cards in one class, options with many choices — on both sides of
each bound. A ruleset the loader refuses must say so in one ``Error:`` line; one it accepts is
run through ``rulesets check``, ``meld``, ``legal`` and ``estimate`` (default samples), each timed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pinochle_cli.cards import format_cards
from pinochle_cli.cli import cli
from pinochle_cli.errors import PinochleError
from pinochle_cli.estimate.checks import MAX_BIDS
from pinochle_cli.estimate.games import Tally
from pinochle_cli.estimate.results import _bids
from pinochle_cli.game.deal import deal_cards
from pinochle_cli.ruleset import (
    MAX_CARD_POINTS,
    MAX_CHOICES,
    MAX_COMBINATION_CARDS,
    MAX_COMBINATIONS,
    MAX_COPIES,
    MAX_PLAYERS,
    Auction,
    load_ruleset,
    load_ruleset_text,
)

SECONDS = 10
RANKS = ["A", "10", "K", "Q", "J", "9"]
SUITS = ["S", "H", "D", "C"]


LIMITS = {"copies": MAX_COPIES, "players": MAX_PLAYERS, "cards": MAX_COMBINATION_CARDS, "points": MAX_CARD_POINTS,
          "combinations": MAX_COMBINATIONS, "choices": MAX_CHOICES}


@st.composite
def at_limit(draw: st.DrawFn, name: str, over: str, low: int = 1) -> int:
    """A value that favours the limit itself; one past it for the one bound this ruleset exceeds."""
    limit = LIMITS[name]
    return limit + 1 if name == over else draw(st.one_of(st.integers(low, limit), st.just(limit)))


@st.composite
def combinations(draw: st.DrawFn, ranks: list[str], over: str) -> dict[str, Any]:
    size = draw(st.one_of(st.integers(1, 3), st.integers(1, 5), at_limit("cards", over)))
    cards = [draw(st.sampled_from(ranks)) + draw(st.sampled_from(["+", "*", "?", *SUITS])) for _ in range(size)]
    points = draw(st.one_of(at_limit("points", over, 0), st.lists(at_limit("points", over, 0), min_size=1,
                                                                   max_size=MAX_COPIES)))
    return {"class": draw(st.sampled_from(["one", "two", "three", "four", "five", "six"])), "cards": cards,
            "points": points}


@st.composite
def rulesets(draw: st.DrawFn) -> dict[str, Any]:
    over = draw(st.sampled_from(["none"] * len(LIMITS) + list(LIMITS)))
    ranks = [r for r in RANKS if draw(st.booleans())] or ["A"]
    copies = draw(at_limit("copies", over))
    players = draw(at_limit("players", over, 2))
    deck = len(SUITS) * len(ranks) * copies
    hand = draw(st.one_of(st.integers(1, max(1, deck // players)), st.just(max(1, deck // players))))
    rest = deck - players * hand
    combos = draw(st.one_of(st.integers(1, 8), at_limit("combinations", over)))
    doc: dict[str, Any] = {
        "schema_version": 1, "name": "house", "deck": {"suits": SUITS, "ranks": ranks, "copies": copies},
        "players": players, "hand_size": hand,
        "counters": {ranks[0]: draw(at_limit("points", over, 0))}, "last_trick": draw(at_limit("points", over, 0)),
        "play": {"leader": "bidder", "duties": ["follow", "trump", "beat"]},
        "auction": {"minimum": 10, "steps": [{"from": 10, "by": draw(st.sampled_from([1, 10]))}]},
        "trump": {"source": "bid"},
        "meld": {f"m{i}": draw(combinations(ranks, over)) for i in range(combos)},
        "scoring": {"keep_meld": "always", "made": "meld-and-counters",
                    "set": {"bidders": "minus-bid", "defenders": "meld-and-counters"}},
        "match": {"target": 1000},
    }
    if rest and draw(st.booleans()):
        # the rest a widow for the bidder, who buries as many and may play alone
        doc["widow"] = {"cards": rest}
        doc["bury"] = {"forbidden": draw(st.lists(st.sampled_from(["melded", "trump", "counter"]), unique=True)),
                       "counters": draw(st.sampled_from(["bidder", "last-trick"]))}
        if draw(st.booleans()):
            doc["sides"] = "bidder-alone"
    elif rest:
        doc["stock"] = None if rest % players else {"turn_up_trump": False}
    if players % 2 == 0 and doc.get("sides") != "bidder-alone" and draw(st.booleans()):
        doc["partnerships"] = [list(range(0, players, 2)), list(range(1, players, 2))]
    choices = draw(st.one_of(st.just(0), st.integers(1, 4), at_limit("choices", over)))
    if choices:
        doc["options"] = {"bonus": {"default": "c0", "choices": {f"c{i}": {"last_trick": i} for i in range(choices)}}}
    return doc


def _dump(doc: dict[str, Any], *, sort_keys: bool = False) -> str:
    """YAML text of a document, by libyaml's emitter when PyYAML has it (the pure one is slow on 5,000 choices)."""
    return yaml.dump(doc, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=sort_keys)


def at_the_limits(players: int, hand: int, copies: int = MAX_COPIES, ranks: tuple[str, ...] = tuple(RANKS)) -> dict[str, Any]:
    """An accepted ruleset at every bound: the most players or cards, the most combinations (each
    group of shared cards as large as the loader takes), the highest points, the most choices."""
    runs = {f"run {s}": {"class": f"run {s}", "cards": [r + s for r in ranks[:5]], "points": [MAX_CARD_POINTS] * 4}
            for s in SUITS}
    singles = {f"single {r}{s}": {"class": f"single {r}{s}", "cards": [r + s], "points": MAX_CARD_POINTS}
               for r in ranks for s in SUITS}
    meld = dict(list({**runs, **singles}.items())[:MAX_COMBINATIONS])
    return {
        "schema_version": 1, "name": "limits", "deck": {"suits": SUITS, "ranks": list(ranks), "copies": copies},
        "players": players, "hand_size": hand, "counters": dict.fromkeys(ranks, MAX_CARD_POINTS),
        "last_trick": MAX_CARD_POINTS, "play": {"leader": "bidder", "duties": ["follow", "trump", "beat"]},
        "auction": {"minimum": 10, "steps": [{"from": 10, "by": 1}]}, "trump": {"source": "bid"}, "meld": meld,
        "scoring": {"keep_meld": "always", "made": "meld-and-counters",
                    "set": {"bidders": "minus-bid", "defenders": "meld-and-counters"}},
        "match": {"target": 1000},
        "options": {"bonus": {"default": "c0", "choices": {f"c{i}": {"last_trick": i} for i in range(MAX_CHOICES)}}},
    }


# the command's own CPU time (one worker, in this process): other load on the machine does not count
def timed(*args: str) -> tuple[float, Any]:
    start = time.process_time()
    result = CliRunner().invoke(cli, list(args), env={"PINOCHLE_RULESET": "", "COLUMNS": "100"})
    took = time.process_time() - start
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), f"{args[0]}: a traceback: {exc!r}"
    assert result.exit_code in (0, 1, 2), (args, result.output)
    if result.exit_code == 2:
        assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    return took, result


# 8 random accepted rulesets (was 12), each run through four commands, beside the four examples at
# the limits below, which are the cases this test is about
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(doc=rulesets())
@example(doc=at_the_limits(MAX_PLAYERS, 12))
@example(doc=at_the_limits(2, 48))
@example(doc={**at_the_limits(MAX_PLAYERS, 12), "partnerships": [[0, 2, 4, 6], [1, 3, 5, 7]], "exchange": 12})
@example(doc=at_the_limits(MAX_PLAYERS, 1, copies=1, ranks=("A", "K")))
@example(doc={**at_the_limits(3, 30), "widow": {"cards": 6}, "bury": {"forbidden": ["melded"]}, "sides": "bidder-alone"})
@example(doc={**at_the_limits(MAX_PLAYERS, 11), "widow": {"cards": 8}, "bury": {"counters": "last-trick"}})
def test_every_command_is_quick_on_any_accepted_ruleset(tmp_path_factory: pytest.TempPathFactory,
                                                        doc: dict[str, Any]) -> None:
    path = tmp_path_factory.mktemp("house") / "house.yaml"
    path.write_text(_dump(doc), encoding="utf-8")
    took, checked = timed("rulesets", "check", str(path))
    assert took < SECONDS, f"rulesets check took {took:.1f} s"
    try:
        rules = load_ruleset(str(path))
    except PinochleError:
        assert checked.exit_code == 2  # refused, and said so
        return
    hands, _ = deal_cards(rules, np.random.default_rng(1))
    hand = format_cards(hands[0], ascii=True)
    for args in (["meld", hand, "-t", "S"], ["legal", "--hand", hand, "-t", "S"],
                 ["estimate", hand, "--seed", "1", "--workers", "1"]):
        took, _result = timed(*args, "-r", str(path))
        assert took < SECONDS, f"{args[0]} took {took:.1f} s on {path.read_text()}"


# ------------------------------------------------------------------ the reported cases, one by one

BASE = (Path(__file__).resolve().parent.parent / "rulesets" / "single-deck.yaml").read_text(encoding="utf-8")


def edited(**changes: Any) -> str:
    doc = yaml.safe_load(BASE)
    doc.update(changes)
    doc.pop("options", None)
    return _dump(doc)


@pytest.mark.parametrize(("changes", "message"), [
    ({"meld": {"huge": {"class": "x", "cards": ["A+"], "points": 10**9}}},
     f"meld.huge.points: expected at most {MAX_CARD_POINTS}, got 1000000000"),
    ({"players": 384, "hand_size": 1}, f"players: expected at most {MAX_PLAYERS}, got 384"),
    ({"deck": {"suits": SUITS, "ranks": RANKS, "copies": 16}, "players": 2, "hand_size": 192},
     f"deck.copies: expected at most {MAX_COPIES}, got 16"),
    ({"meld": {f"pair {a}{b}": {"class": "pairs", "cards": [a, b], "points": 10}
               for i, a in enumerate([r + s for r in RANKS for s in SUITS])
               for b in [r + s for r in RANKS for s in SUITS][i + 1:i + 13]}},
     "meld: expected at most 64 entries"),
    ({"meld": {f"pair {i}": {"class": "pairs", "cards": [a, b], "points": 10}
               for i, (a, b) in enumerate(zip([r + s for r in RANKS for s in SUITS],
                                              [r + s for r in RANKS for s in SUITS][1:], strict=False))}},
     "the combinations of class 'pairs' share cards so widely that with spades as trump they form one group of "
     "24 different cards"),
])
def test_a_ruleset_beyond_the_limits_is_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(PinochleError) as info:
        load_ruleset_text(edited(**changes), "house.yaml")
    assert message in str(info.value)


def test_an_option_with_thousands_of_choices_is_refused() -> None:
    doc = yaml.safe_load(BASE)
    doc["options"] = {"bonus": {"default": "c0", "choices": {f"c{i}": {"last_trick": i} for i in range(5000)}}}
    with pytest.raises(PinochleError, match=f"options.bonus.choices: expected at most {MAX_CHOICES} entries, "
                                            r"got 5000 \('c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', …\)"):
        load_ruleset_text(_dump(doc), "house.yaml")


def test_checking_every_choice_grows_linearly_with_the_choices() -> None:
    """Each choice is checked without the options' own text: 4 × the choices, about 4 × the time."""
    def load_time(choices: int) -> float:
        doc = yaml.safe_load(BASE)
        doc["options"] = {f"o{k}": {"default": "c0", "choices": {f"c{i}": {"last_trick": i} for i in range(choices)}}
                          for k in range(4)}
        text = _dump(doc, sort_keys=True)
        start = time.process_time()
        load_ruleset_text(text, "house.yaml")
        return time.process_time() - start

    assert load_time(MAX_CHOICES) < 12 * load_time(MAX_CHOICES // 4) + 0.05


def test_the_bid_ladder_does_not_grow_with_the_points() -> None:
    tally = Tally.empty(1)
    tally.deals = 10
    tally.hist[0][10**9] = 10  # every deal claims a billion
    bids = _bids(type("R", (), {"auction": Auction(10, ((10, 1, None),))})(), tally, 0)  # type: ignore[arg-type]
    assert len(bids) == MAX_BIDS and bids[-1].p_make == 1.0
