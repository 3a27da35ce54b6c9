"""Rulesets: YAML files validated into a frozen ``Ruleset`` that the engine reads.

Everything the game does comes from here: the deck, seats, counters, trick duties, the meld
table, the auction, trump eligibility, the exchange, deal scoring, the match and options.
No code anywhere asks which ruleset it holds. Options are named choices whose values are
patches (dotted path → value) on the document; the patched document is validated again.
"""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import Any, cast

from .cards import ALL_CARDS, Card, Deck, Hand, Rank, Suit, parse_rank, parse_suit
from .errors import OptionError, RulesetError, SchemaError, YamlError
from .schema import Bool, Field, Int, MapOf, Nullable, Obj, Pattern, Seq, Str, Union, Whatever, fail, json_text
from .vocabulary import (
    BothReach,
    DutyName,
    DutyWhen,
    KeepMeld,
    Leader,
    MadeNeeds,
    OutcomeKind,
    PatternMode,
    Tie,
    TrumpEligible,
    TrumpSource,
    words,
)
from .yamlsource import Node, load_node, load_text

__all__ = [
    "SCHEMA_VERSION", "Auction", "CardPattern", "Combination", "Duty", "Match", "OptionSpec",
    "Outcome", "PlayRules", "Ruleset", "Scoring", "bundled_names", "bundled_path", "json_schema",
    "load_ruleset", "parse_options", "split_key_value", "DEFAULT_RULESET",
]

SCHEMA_VERSION = 1
DEFAULT_RULESET = "single-deck"
ENV_RULESET = "PINOCHLE_RULESET"

# --------------------------------------------------------------------------- the schema

RANK_RE = r"A|10|T|K|Q|J|9"
SUIT_RE = r"S|H|D|C|♠|♥|♦|♣"
RANK = Pattern(RANK_RE, "a rank (A, 10, K, Q, J, 9)", convert=parse_rank)
SUIT = Pattern(SUIT_RE, "a suit (S, H, D, C)", convert=parse_suit)
CARD_PATTERN = Pattern(
    f"(?:{RANK_RE})(?:[+*?]|{SUIT_RE})",
    "a card pattern: a rank then a suit, + (trump), * (a suit that is not trump) or ? (any suit)",
    convert=lambda text: CardPattern.parse(text))
# Upper bounds that keep every total inside the engine's 64-bit integers, every table small and
# every command quick (tests/test_fuzz_limits.py runs every command on rulesets at these limits).
MAX_POINTS = 10**9  # any bid, target or number of deals
MAX_CARD_POINTS = 10_000  # a combination's points (any number of copies), a counter's, the last trick's
MAX_COPIES = 4  # copies of each card in the pack
MAX_PLAYERS = 8
MAX_COMBINATIONS = 64  # entries of the meld table
MAX_COMBINATION_CARDS = 12  # cards of one combination
MAX_OPTIONS = 16
MAX_CHOICES = 32  # choices of one option
TABLE_LIMIT = 1 << 18  # cells of the table that prices one group of combinations (``meld``); larger: refused
OUTCOME_VALUES = words(OutcomeKind)
DUTY_NAMES = words(DutyName)

DUTY_OPTIONS = Obj({
    "when": Field(Str(words(DutyWhen)),
                  doc="when the duty applies: always, only on a trump lead, or only on a plain lead"),
    "partner": Field(Bool(), doc="false: the duty lapses while the player's partner is winning the trick"),
    "only_if_winning": Field(Bool(), doc="trump duty only: applies only when some trump held would win"),
}, "duty conditions")
DUTY = Union(Str(DUTY_NAMES), MapOf(DUTY_OPTIONS, Str(DUTY_NAMES), min_items=1, max_items=1,
                                   description="a duty with conditions, e.g. {beat: {when: trump-led}}"),
             description="a duty (follow, trump, beat) or a one-key mapping of a duty to conditions")
OUTCOME = Obj({
    "bidders": Field(Str(OUTCOME_VALUES), required=True),
    "defenders": Field(Str(OUTCOME_VALUES), required=True),
}, "what each side scores", build=lambda **d: Outcome(**d))
POINTS = Union(Int(0, MAX_CARD_POINTS), Seq(Int(0, MAX_CARD_POINTS), min_items=1, max_items=MAX_COPIES, frozen=True),
               description="an integer or a list of integers")

COMBINATION = Obj({
    "class": Field(Str(), required=True, doc="a card counts at most once within a class"),
    "cards": Field(Seq(CARD_PATTERN, min_items=1, max_items=MAX_COMBINATION_CARDS, frozen=True), required=True,
                   doc="A+ a trump ace, K* a king of one non-trump suit, Q? any one suit, QS the queen of spades"),
    "points": Field(POINTS, required=True,
                    doc="points for 1, 2, 3 … copies declared together; more copies combine these"),
    "label": Field(Str(), doc="a longer name for tables"),
}, "a meld combination")
MELD = MapOf(COMBINATION, min_items=1, max_items=MAX_COMBINATIONS,
             named=lambda name, c: Combination(name, c["class"], c["cards"], c["points"], c.get("label", "")))

OPTION = Obj({
    "description": Field(Str()),
    "default": Field(Str(numbers=True), required=True),
    "choices": Field(MapOf(Nullable(MapOf(Whatever())), min_items=1, max_items=MAX_CHOICES), required=True,
                     doc="choice → patch: dotted path → value, applied to this document "
                         "(in a list, the item named so or counted from 0: play.duties.beat)"),
}, "an option")
OPTIONS = MapOf(OPTION, max_items=MAX_OPTIONS, named=lambda name, o: OptionSpec(
    name, o.get("description", ""), o["default"], tuple(o["choices"]),
    {choice: {path: _plain(value) for path, value in (patch or {}).items()} for choice, patch in o["choices"].items()}))


def _at(node: Node, path: str, *keys: str, key: bool = False) -> tuple[Node, str]:
    """The node at a path below ``node`` (its key's node with ``key=True``: where a mapping's line is)."""
    n, p = node, path
    for k in keys:
        pair = n.entries.get(k) if n.kind == "map" else None
        if pair is None:
            break
        n, p = (pair[0] if key and k == keys[-1] else pair[1]), f"{p}.{k}" if p else k
    return n, p


def _fail_at(node: Node, path: str, *keys: str, message: str, key: bool = False) -> SchemaError:
    return fail(*_at(node, path, *keys, key=key), message)


def _check_deal(doc: dict[str, Any], node: Node, path: str) -> None:
    """The deck, the hands, the stock and the seats fit together."""
    size = doc["deck"].size
    players, hand_size = doc["players"], doc["hand_size"]
    stock = doc.get("stock")
    if players * hand_size > size:
        raise _fail_at(node, path, "hand_size",
                       message=f"{players} hands of {hand_size} need {players * hand_size} cards; the deck has {size}")
    rest = size - players * hand_size
    if stock is None and rest:
        raise _fail_at(node, path, "hand_size",
                       message=f"{players} hands of {hand_size} leave {rest} cards undealt and there is no stock")
    if stock is not None and rest == 0:
        raise _fail_at(node, path, "stock", key=True, message=f"{players} hands of {hand_size} use all {size} "
                       "cards: nothing is left for the stock")
    if stock is not None and rest % players:
        raise _fail_at(node, path, "stock", key=True,
                       message=f"a stock of {rest} cards cannot be drawn evenly by {players} players")
    seats = doc.get("partnerships") or [[s] for s in range(players)]
    if sorted(s for team in seats for s in team) != list(range(players)):
        raise _fail_at(node, path, "partnerships", key=True,
                       message=f"each seat 0..{players - 1} must be in exactly one partnership, got {seats}")


def _check_exchange(doc: dict[str, Any], node: Node, path: str) -> None:
    """The cards passed fit in a hand, and there is a partner to pass them."""
    exchange, hand_size = doc.get("exchange", 0), doc["hand_size"]
    if exchange > hand_size:
        raise _fail_at(node, path, "exchange", message=f"cannot pass {exchange} cards from a hand of {hand_size}")
    seats = doc.get("partnerships") or [[s] for s in range(doc["players"])]
    if exchange and min(len(team) for team in seats) < 2:
        alone = next(team for team in seats if len(team) < 2)
        raise _fail_at(node, path, "exchange", message="an exchange needs partnerships: every bidder needs a "
                       f"partner, and seat {alone[0]} has none")


def _check_ranks(doc: dict[str, Any], node: Node, path: str) -> None:
    """Every rank and card named by the counters and the meld table is in the deck."""
    deck: Deck = doc["deck"]
    counters_node = node.get("counters")
    for key, (kn, _) in counters_node.entries.items() if counters_node else []:
        if parse_rank(key) not in deck.ranks:
            raise fail(kn, f"counters.{key}", f"rank {key} is not in the deck")
    for combo in doc["meld"]:
        cards_node, _ = _at(node, path, "meld", combo.name, "cards")
        for i, cp in enumerate(combo.pattern):
            if cp.rank not in deck.ranks or (cp.suit is not None and cp.suit not in deck.suits):
                cn = cards_node.items[i] if cards_node.kind == "seq" else cards_node
                raise fail(cn, f"meld.{combo.name}.cards[{i}]", f"{cn.raw} is not in the deck")
        copies_needed = max(combo.pattern.count(cp) for cp in combo.pattern)
        if copies_needed > deck.copies:
            raise _fail_at(node, path, "meld", combo.name, "cards", key=True,
                           message=f"needs {copies_needed} copies of one card; the deck has {deck.copies}")


def _check_auction(auction: Auction, node: Node, path: str) -> None:
    """The steps start at the minimum, rise, and never end."""
    steps = auction.steps
    if steps[0][0] != auction.minimum:
        raise _fail_at(node, path, "auction", "steps", key=True,
                       message=f"the first step must start at the minimum bid {auction.minimum}")
    if any(b[0] <= (a[2] if a[2] is not None else a[0]) for a, b in itertools.pairwise(steps)):
        raise _fail_at(node, path, "auction", "steps", key=True,
                       message="steps must start at increasing bids, each after the previous step's end")
    steps_node, _ = _at(node, path, "auction", "steps")
    for i, (start, _by, end) in enumerate(steps):
        item = steps_node.items[i] if steps_node.kind == "seq" else steps_node
        if end is not None and end < start:
            raise fail(item.get("to") or item, f"auction.steps[{i}].to",
                       f"the step ends at {end}, below its start {start}")
    if steps[-1][2] is not None:
        item = steps_node.items[-1] if steps_node.kind == "seq" else steps_node
        raise fail(item.get("to") or item, f"auction.steps[{len(steps) - 1}].to",
                   "the last step cannot end: there must always be a higher bid")


def _check_ruleset(doc: dict[str, Any], node: Node, path: str) -> None:
    """Relations between fields, reported at the line of the field at fault."""
    _check_deal(doc, node, path)
    _check_ranks(doc, node, path)
    auction: Auction | None = doc.get("auction")
    if auction is not None:
        _check_auction(auction, node, path)
    elif doc["trump_source"] == "bid":
        raise _fail_at(node, path, "trump", "source", message="trump named by the bidder needs an auction")
    if doc["trump_source"] == "turn-up" and doc.get("stock") is None:
        raise _fail_at(node, path, "trump", "source", message="a turned-up trump needs a stock")
    _check_exchange(doc, node, path)
    scoring: Scoring = doc["scoring"]
    names = {combo.name for combo in doc["meld"]}
    for i, name in enumerate(scoring.kept_if_only):
        if name not in names:
            n, p = _at(node, path, "scoring", "kept_if_only")
            raise fail(n.items[i] if n.kind == "seq" else n, f"scoring.kept_if_only[{i}]",
                       f"{name!r} is not a combination of the meld table")
    match: Match = doc["match"]
    if (match.target is None) == (match.deals is None):
        raise _fail_at(node, path, "match", key=True,
                       message="give exactly one of target (points) and deals (a number of deals)")
    for sub in ("at_least", "at_most"):
        n, p = _at(node, path, "redeal", sub)
        for r in n.entries if doc.get(f"redeal_{sub}") else ():
            if parse_rank(r) not in doc["deck"].ranks:
                raise fail(n, f"{p}.{r}", f"rank {r} is not in the deck")


RULESET_SCHEMA = Obj({
    "schema_version": Field(Int(1), required=True, doc="the ruleset format's version; this program reads 1"),
    "name": Field(Str(), required=True),
    "aliases": Field(Seq(Str(), frozen=True)),
    "description": Field(Str()),
    "source": Field(Str(), doc="where the rules come from"),
    "deck": Field(Obj({
        "suits": Field(Seq(SUIT, min_items=1, unique=True, frozen=True), required=True),
        "ranks": Field(Seq(RANK, min_items=1, unique=True, frozen=True), required=True, doc="high to low"),
        "copies": Field(Int(1, MAX_COPIES), required=True),
    }, "the deck", build=lambda **d: Deck(**d)), required=True),
    "players": Field(Int(2, MAX_PLAYERS), required=True),
    "partnerships": Field(Seq(Seq(Int(0), min_items=1), min_items=2),
                          doc="seats of each side, clockwise from 0; omitted: every player alone"),
    "hand_size": Field(Int(1), required=True),
    "stock": Field(Nullable(Obj({
        "turn_up_trump": Field(Bool(), doc="the stock's bottom card is turned up for trump and drawn last"),
    }, "the stock", build=lambda **d: Stock(**d))),
        doc="cards left after the deal; drawn after each trick (winner first)"),
    "counters": Field(MapOf(Int(0, MAX_CARD_POINTS), RANK, typed_keys=True), required=True,
                      doc="points per rank captured in tricks"),
    "last_trick": Field(Int(0, MAX_CARD_POINTS), required=True, doc="bonus for winning the last trick"),
    "play": Field(Obj({
        "leader": Field(Str(words(Leader)), required=True,
                        doc="who leads the first trick"),
        "duties": Field(Seq(DUTY), required=True, doc="applied in order, each narrowing the legal cards"),
        "stock_duties": Field(Seq(DUTY), doc="duties while the stock lasts"),
    }, "the trick rules", build=lambda leader, duties, stock_duties=(): PlayRules(
        leader, _duties(duties), _duties(stock_duties))), required=True),
    "redeal": Field(Nullable(Obj({
        "at_least": Field(MapOf(Int(0), RANK, typed_keys=True)),
        "at_most": Field(MapOf(Int(0), RANK, typed_keys=True)),
    }, "a redeal condition")), doc="a hand that may call a redeal", prefix="redeal_"),
    "auction": Field(Nullable(Obj({
        "minimum": Field(Int(0, MAX_POINTS), required=True),
        "steps": Field(Seq(Obj({
            "from": Field(Int(0, MAX_POINTS), required=True),
            "by": Field(Int(1, MAX_POINTS), required=True),
            "to": Field(Int(0, MAX_POINTS), doc="the last bid of this step (inclusive); omitted: up to the next step"),
        }, "a step", build=lambda **s: (s["from"], s["by"], s.get("to"))), min_items=1, frozen=True), required=True,
            doc="valid bids: from, from+by, from+2by … up to 'to' or the next step"),
        "dealer_stuck": Field(Bool(), doc="if all others pass the dealer takes the minimum"),
    }, "the auction", build=lambda **a: Auction(**a))), doc="null: no bidding"),
    "trump": Field(Obj({
        "source": Field(Str(words(TrumpSource)), required=True),
        "eligible": Field(Str(words(TrumpEligible)), doc="marriage: a suit of which the bidder holds K and Q"),
        "needs": Field(Seq(RANK, min_items=1, unique=True, frozen=True),
                       doc="ranks the bidder must hold in a suit to name it (eligible: marriage is [K, Q])"),
    }, "trump"), required=True, prefix="trump_"),
    "exchange": Field(Int(0), doc="cards the partner passes to the bidder, and back"),
    "meld": Field(MELD, required=True),
    "scoring": Field(Obj({
        "keep_meld": Field(Str(words(KeepMeld)), required=True,
                           doc="a side keeps its meld only if it took a trick / a counter point"),
        "kept_if_only": Field(Seq(Str(), frozen=True), doc="meld made only of these combinations is kept regardless"),
        "made_needs": Field(Str(words(MadeNeeds)), doc="besides reaching the bid"),
        "counter_minimum": Field(Int(1, MAX_POINTS), doc="counter points a 'counter' condition needs (default 1)"),
        "made": Field(Str(OUTCOME_VALUES), doc="what the bidders score when they make it"),
        "set": Field(OUTCOME, doc="bidders short of the bid"),
        "not_on_board": Field(Nullable(OUTCOME), doc="the bid cannot be reached even with every counter"),
        "concede": Field(Nullable(OUTCOME), doc="the bidders throw the deal in after the meld"),
        "no_trump": Field(Nullable(OUTCOME), doc="the bidder holds no suit they may name"),
    }, "deal scoring", build=lambda **d: Scoring(**d)), required=True),
    "match": Field(Obj({
        "target": Field(Nullable(Int(1, MAX_POINTS))),
        "deals": Field(Nullable(Int(1, MAX_POINTS))),
        "both_reach": Field(Str(words(BothReach)), doc="both sides reach the target on one deal"),
        "tie": Field(Str(words(Tie)), doc="equal totals when a winner is due"),
    }, "the match", build=lambda **d: Match(**d)), required=True),
    "options": Field(OPTIONS),
}, "a ruleset", post=_check_ruleset)


@cache
def json_schema() -> dict[str, Any]:
    """The JSON Schema of the format, generated from the same description as the loader."""
    schema = RULESET_SCHEMA.to_json()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://pinochle-cli.invalid/ruleset.schema.json",
        "title": "pinochle_cli ruleset",
        **schema,
    }


# --------------------------------------------------------------------------- the model

def _duties(items: Sequence[str | dict[str, dict[str, Any]]]) -> tuple[Duty, ...]:
    """Duties as the schema gives them: a name, or a one-key mapping of a name to its conditions."""
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(Duty(cast(DutyName, item)))  # one of DUTY_NAMES: the schema checked it
        else:
            (name, conditions), = item.items()
            out.append(Duty(cast(DutyName, name), **conditions))
    return tuple(out)


_PATTERN_MODES: dict[str, PatternMode] = {"+": "trump", "*": "plain", "?": "any"}


@dataclass(frozen=True)
class CardPattern:
    """A card of a combination relative to trump: a fixed suit, trump, a plain suit or any suit."""

    rank: Rank
    suit: Suit | None  # fixed suit, else None
    mode: PatternMode

    @classmethod
    def parse(cls, text: str) -> CardPattern:
        return _card_pattern(text)

    @classmethod
    def _parse(cls, text: str) -> CardPattern:
        text = text.replace("\ufe0f", "").strip()
        head, tail = text[:-1], text[-1]
        rank = parse_rank(head)
        mode = _PATTERN_MODES.get(tail)
        if mode:
            return cls(rank, None, mode)
        return cls(rank, parse_suit(tail), "fixed")

    def __str__(self) -> str:
        if self.mode == "fixed":
            assert self.suit is not None
            return f"{self.rank.label}{self.suit.symbol}"
        return self.rank.label + {"trump": "+", "plain": "*", "any": "?"}[self.mode]


@lru_cache(maxsize=1024)
def _card_pattern(text: str) -> CardPattern:  # the same few patterns are read for every option's choice
    return CardPattern._parse(text)


@dataclass(frozen=True)
class Combination:
    """A meld table entry: its card pattern relative to trump, its class and its prices."""

    name: str
    klass: str
    pattern: tuple[CardPattern, ...]
    points: tuple[int, ...]  # value of 1, 2, … copies declared together
    label: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.points, int):  # one number: the price of one copy
            object.__setattr__(self, "points", (self.points,))

    def value(self, copies: int) -> int:
        """Points for ``copies`` copies: the best split into groups the table prices."""
        return _multiple_value(self.points, copies)

    def instances(self, trump: Suit | None, suits: Sequence[Suit]) -> list[tuple[Card, ...]]:
        """The concrete card sets for this trump: one per suit a ``*``/``?`` may stand for."""
        modes = {p.mode for p in self.pattern}
        if "trump" in modes and trump is None:
            return []
        if "plain" in modes:
            choices: list[Suit | None] = [s for s in suits if s != trump]
        elif "any" in modes:
            choices = list(suits)
        else:
            choices = [None]
        out = []
        for var in choices:
            cards = []
            for p in self.pattern:
                suit = {"fixed": p.suit, "trump": trump, "plain": var, "any": var}[p.mode]
                assert suit is not None
                cards.append(ALL_CARDS[int(suit) * 6 + int(p.rank)])
            out.append(tuple(sorted(cards)))
        return out


@lru_cache(maxsize=4096)
def _multiple_value(points: tuple[int, ...], copies: int) -> int:
    best = [0] * (copies + 1)
    for k in range(1, copies + 1):
        best[k] = max(best[k - j] + points[j - 1] for j in range(1, min(k, len(points)) + 1))
    return best[copies]


@dataclass(frozen=True)
class Duty:
    """One duty of the trick rules (follow, trump, beat) and when it applies."""

    name: DutyName
    when: DutyWhen = "always"
    partner: bool = True  # applies while the partner is winning
    only_if_winning: bool = False

    def describe(self) -> str:
        text = {"follow": "follow suit", "trump": "trump when void in the suit led",
                "beat": "beat the winning card if able"}[self.name]
        if self.name == "trump" and self.only_if_winning:
            text += ", only when a trump would win"
        if self.when != "always":
            text += f" (only on a {self.when.replace('-led', '')} lead)"
        if not self.partner:
            text += " (not while the partner is winning)"
        return text


@dataclass(frozen=True)
class PlayRules:
    """Who leads the first trick, and the duties that narrow the legal cards (while the stock lasts, and after)."""

    leader: Leader
    duties: tuple[Duty, ...]
    stock_duties: tuple[Duty, ...] = ()


@dataclass(frozen=True)
class Auction:
    """The bidding: the minimum bid and the steps valid bids follow."""

    minimum: int
    steps: tuple[tuple[int, int, int | None], ...]  # (from, by, to or None)
    dealer_stuck: bool = True

    def is_valid_bid(self, bid: int) -> bool:
        """A bid at or above the minimum that lies on a step."""
        if bid < self.minimum:
            return False
        start, by, end = [s for s in self.steps if s[0] <= bid][-1]
        if end is not None and bid > end:
            return False
        return (bid - start) % by == 0

    def next_bid(self, bid: int) -> int:
        """The smallest valid bid above ``bid`` (``RulesetError`` if the steps end below it)."""
        low = max(bid + 1, self.minimum)
        for i, (start, by, end) in enumerate(self.steps):
            nxt = self.steps[i + 1][0] if i + 1 < len(self.steps) else None
            b = start if low <= start else start + -(-(low - start) // by) * by
            if (end is None or b <= end) and (nxt is None or b < nxt):
                return b
        raise RulesetError(f"no valid bid above {bid}: the auction's last step ends at {self.steps[-1][2]}")

    def ladder(self, upto: int) -> list[int]:
        bids, b = [], self.minimum
        while b <= upto:
            bids.append(b)
            b = self.next_bid(b)
        return bids

    def describe_steps(self) -> str:
        parts = []
        for i, (start, by, last) in enumerate(self.steps):
            end = self.steps[i + 1][0] if i + 1 < len(self.steps) else None
            rng = f"from {start}" + (f" to {last}" if last is not None else f" below {end}" if end is not None else "")
            parts.append(f"{rng}: steps of {by}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Outcome:
    """What each side scores at one end of a deal."""

    bidders: OutcomeKind
    defenders: OutcomeKind


@dataclass(frozen=True)
class Scoring:
    """How a deal is scored: when meld is kept, what making the bid takes, and the outcomes."""

    keep_meld: KeepMeld
    kept_if_only: tuple[str, ...] = ()
    made_needs: MadeNeeds = "nothing"
    made: OutcomeKind = "meld-and-counters"
    counter_minimum: int = 1
    set: Outcome = Outcome("minus-bid", "meld-and-counters")
    not_on_board: Outcome | None = None
    concede: Outcome | None = None
    no_trump: Outcome | None = None


@dataclass(frozen=True)
class Match:
    """When the match ends (a target or a number of deals) and how ties are settled."""

    target: int | None = None
    deals: int | None = None
    both_reach: BothReach = "bidders"
    tie: Tie = "draw"


@dataclass(frozen=True)
class Stock:
    """The cards left after the deal, drawn after each trick."""

    turn_up_trump: bool = False


@dataclass(frozen=True)
class OptionSpec:
    """A named choice of the ruleset: each choice patches the document."""

    name: str
    description: str
    default: str
    choices: tuple[str, ...]
    patches: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, compare=False)  # choice → patch


@dataclass(frozen=True)
class Ruleset:
    """A validated game definition. Build with ``load_ruleset``; never mutate.

    The fields are the schema's keys (``RULESET_SCHEMA``, which builds their values), except
    ``trump_*`` and ``redeal_*`` (the keys of ``trump`` and ``redeal``) and the three the loader
    adds: ``options``, ``chosen`` and ``path``.
    """

    name: str
    deck: Deck
    players: int
    hand_size: int
    counters: Mapping[Rank, int]
    last_trick: int
    play: PlayRules
    trump_source: TrumpSource
    meld: tuple[Combination, ...]
    scoring: Scoring
    match: Match
    schema_version: int = SCHEMA_VERSION
    aliases: tuple[str, ...] = ()
    description: str = ""
    source: str = ""  # where the rules come from
    partnerships: tuple[tuple[int, ...], ...] = ()  # none given: every player alone
    stock: Stock | None = None
    redeal_at_least: Mapping[Rank, int] = field(default_factory=dict)
    redeal_at_most: Mapping[Rank, int] = field(default_factory=dict)
    auction: Auction | None = None
    trump_eligible: TrumpEligible = "any"
    trump_needs: tuple[Rank, ...] = ()  # ranks the bidder must hold in a suit to name it (marriage: K, Q)
    exchange: int = 0
    options: tuple[OptionSpec, ...] = ()
    chosen: Mapping[str, str] = field(default_factory=dict)
    path: str = ""

    def __post_init__(self) -> None:
        seats = tuple(tuple(team) for team in self.partnerships) or tuple((s,) for s in range(self.players))
        needs = self.trump_needs or ((Rank.K, Rank.Q) if self.trump_eligible == "marriage" else ())
        for name, value in (("partnerships", seats), ("trump_needs", needs),
                            ("deck", replace(self.deck, name=f"the {self.name} pack"))):
            object.__setattr__(self, name, value)
        # equal rulesets hash alike: the hash is of fields that hold the whole game (the mappings
        # left out are compared by ==); kept, so caches keyed by a ruleset stay cheap
        key = (self.name, self.path, self.deck, self.partnerships, self.hand_size, self.stock, self.last_trick,
               self.play, self.auction, self.trump_needs, self.exchange, self.meld, self.scoring, self.match,
               tuple(sorted(self.chosen.items())))
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return int(self.__dict__["_hash"])

    def __getstate__(self) -> dict[str, Any]:  # str hashes differ between processes: hash again
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__post_init__()

    @property
    def stock_size(self) -> int:
        """The cards left after the deal (0: no stock)."""
        return self.deck.size - self.players * self.hand_size if self.stock is not None else 0

    @property
    def has_stock(self) -> bool:
        return self.stock_size > 0

    @property
    def turn_up_trump(self) -> bool:
        return self.stock is not None and self.stock.turn_up_trump

    @cached_property
    def meld_classes(self) -> tuple[str, ...]:
        """The meld table's classes, in the order they first appear."""
        return tuple(dict.fromkeys(c.klass for c in self.meld))

    @property
    def suits(self) -> tuple[Suit, ...]:
        return self.deck.suits

    @property
    def rank_order(self) -> tuple[Rank, ...]:
        """Ranks high to low, for trick strength."""
        return self.deck.ranks

    def meld_groups(self, trump: Suit) -> list[list[tuple[int, tuple[Card, ...]]]]:
        """The meld table's card sets for ``trump`` — (position in ``meld``, the cards, sorted) for every
        set the pack holds — the sets of one class that share a card joined into one group (union-find),
        in table order. The meld engine prices each group from one table."""
        sets = [(i, cards) for i, combo in enumerate(self.meld) for cards in combo.instances(trump, self.suits)
                if max(Counter(cards).values()) <= self.deck.copies]
        parent = list(range(len(sets)))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        owner: dict[tuple[str, int], int] = {}
        for i, (combo, cards) in enumerate(sets):
            for card in dict.fromkeys(cards):
                j = owner.setdefault((self.meld[combo].klass, card.index), i)
                parent[find(i)] = find(j)
        groups: dict[int, list[tuple[int, tuple[Card, ...]]]] = {}
        for i, one in enumerate(sets):
            groups.setdefault(find(i), []).append(one)
        return list(groups.values())

    def counter_value(self, card: Card) -> int:
        return self.counters.get(card.rank, 0)

    @cached_property
    def counter_total(self) -> int:
        """Counter points in a whole deal, last trick included (worked out once: a long record asks per deal)."""
        return sum(self.counter_value(c) for c in self.deck.cards()) + self.last_trick

    @property
    def tricks_per_deal(self) -> int:
        return self.deck.size // self.players

    def side_of(self, seat: int) -> int:
        for i, team in enumerate(self.partnerships):
            if seat in team:
                return i
        raise ValueError(f"no seat {seat}")

    def partner_seats(self, seat: int) -> tuple[int, ...]:
        return tuple(s for s in self.partnerships[self.side_of(seat)] if s != seat)

    def may_redeal(self, hand: Hand) -> bool:
        """True when the hand meets the ruleset's redeal condition (e.g. five nines, no aces)."""
        if not self.redeal_at_least and not self.redeal_at_most:
            return False
        by_rank = {r: 0 for r in Rank}
        for c in hand:
            by_rank[c.rank] += 1
        return (all(by_rank[r] >= n for r, n in self.redeal_at_least.items())
                and all(by_rank[r] <= n for r, n in self.redeal_at_most.items()))

    def eligible_trumps(self, hand: Hand) -> list[Suit]:
        """The suits the bidder may name holding ``hand`` (before any exchange)."""
        return [s for s in self.suits if all(hand.count(Card(r, s)) for r in self.trump_needs)]

    def trump_needs_words(self, *, spelled: bool = False) -> str:
        """The ranks naming a suit takes: "K and Q" (``spelled``: "king and queen"); "" for none."""
        ranks = [r.word if spelled else r.label for r in self.trump_needs]
        return ", ".join(ranks[:-1]) + " and " + ranks[-1] if len(ranks) > 1 else "".join(ranks)

    def trump_requirement(self) -> str:
        """What naming a suit takes, in words ("K and Q of the suit"), or "" when any suit may be named."""
        return f"{self.trump_needs_words()} of the suit" if self.trump_needs else ""

    @property
    def changed_options(self) -> dict[str, str]:
        """The options chosen away from their defaults, by name."""
        defaults = {o.name: o.default.lower() for o in self.options}
        return {k: v for k, v in self.chosen.items() if v.lower() != defaults.get(k)}

    @property
    def label(self) -> str:
        """The game and the options in force, for a header line: ``single-deck (-o target=1000)``."""
        changed = self.changed_options
        return self.name + (" (" + " ".join(f"-o {k}={v}" for k, v in changed.items()) + ")" if changed else "")

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "players": self.players,
            "deck_size": self.deck.size,
            "hand_size": self.hand_size,
            "minimum_bid": self.auction.minimum if self.auction else None,
            "target": self.match.target,
            "deals": self.match.deals,
            "description": self.description,
        }


# --------------------------------------------------------------------------- loading

def _rulesets_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "rulesets", here.parent / "rulesets"):
        if candidate.is_dir():
            return candidate
    return here / "rulesets"


def bundled_names() -> list[str]:
    order = ["two-handed", "single-deck", "single-deck-small", "double-deck"]
    found = sorted(p.stem for p in _rulesets_dir().glob("*.yaml"))
    return [n for n in order if n in found] + [n for n in found if n not in order]


_ALIASES_LINE = r"^aliases:.*$"  # compiled when first used: a name of a file needs no aliases


def _file_aliases(path: Path) -> list[str]:
    """A ruleset file's ``aliases``, from its top-level ``aliases: [...]`` line when it has exactly one
    (so that a name is found without parsing every file), else from the whole file parsed."""
    try:
        lines = re.findall(_ALIASES_LINE, path.read_text(encoding="utf-8"), re.MULTILINE)
    except (OSError, UnicodeError):
        return []
    aliases = _line_aliases(lines[0], str(path)) if len(lines) == 1 else None
    if aliases is None:
        try:
            aliases = load_node(str(path)).get("aliases")
        except YamlError:
            return []
    return [a.raw for a in aliases.items] if aliases is not None and aliases.kind == "seq" else []


def _line_aliases(line: str, source: str) -> Node | None:
    """The list on one ``aliases:`` line; None when the line alone is not one (a block list, …)."""
    try:
        aliases = load_text(line, source).get("aliases")
    except YamlError:
        return None
    return aliases if aliases is not None and aliases.kind == "seq" else None


@cache
def _alias_map() -> dict[str, str]:
    """Every bundled alias (lower case) → its ruleset's name; the first file (``bundled_names``) wins."""
    out: dict[str, str] = {}
    for name in bundled_names():
        for alias in _file_aliases(_rulesets_dir() / f"{name}.yaml"):
            out.setdefault(alias.lower(), name)
    return out


def bundled_path(name: str) -> Path | None:
    """The bundled file of a name (its file name without ``.yaml``) or alias, in any case; names first."""
    key = name.strip().lower()
    real = {n.lower(): n for n in bundled_names()}.get(key) or _alias_map().get(key)
    return _rulesets_dir() / f"{real}.yaml" if real else None


def _shown(text: str, limit: int = 120) -> str:
    """A user's path or name for a message: shortened when absurdly long."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def _resolve(spec: str | os.PathLike[str] | None, base: str | None = None) -> str:
    origin = ""
    if spec is None or str(spec) == "":
        spec = os.environ.get(ENV_RULESET) or DEFAULT_RULESET
        origin = f"${ENV_RULESET}: " if os.environ.get(ENV_RULESET) else ""
    text = str(spec)
    looks_like_path = os.path.sep in text or text.endswith((".yaml", ".yml"))
    bundled = None if looks_like_path else bundled_path(text)
    if bundled is not None:
        return str(bundled)
    candidate = Path(text) if base is None or os.path.isabs(text) else Path(base) / text
    try:
        exists = candidate.exists()
    except OSError as exc:  # a name too long for the file system, …
        raise RulesetError(f"{origin}{_shown(str(candidate))}: cannot read: {exc.strerror or exc}") from None
    if exists:
        return str(candidate)
    if looks_like_path:
        raise RulesetError(f"{origin}{_shown(str(candidate))}: no such ruleset file")
    names = ", ".join(bundled_names())
    raise RulesetError(f"{origin}no bundled ruleset named {_shown(text)!r} and no such file (bundled: {names})")


def split_key_value(text: str) -> tuple[str, str] | None:
    """``KEY=VALUE`` → (key, value), each stripped and not empty; None when ``text`` is not that."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        return None
    return key.strip(), value.strip()


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` strings from ``-o`` into a mapping; malformed or repeated keys are an ``OptionError``."""
    out: dict[str, str] = {}
    first: dict[str, str] = {}
    for pair in pairs:
        split = split_key_value(pair)
        if split is None:
            raise OptionError(f"option {pair!r} is not KEY=VALUE")
        key, value = split
        if key.lower() in first:
            raise OptionError(f"option {key!r} is given twice ({first[key.lower()]!r} and {pair!r}): give it once")
        first[key.lower()] = pair
        out[key] = value
    return out


def _item_index(seq: Node, key: str) -> int | None:
    """The list item a patch path names: by position from 0, or the item that is ``key`` or a mapping of it."""
    if key.isdigit():
        return int(key) if int(key) < len(seq.items) else None
    for i, item in enumerate(seq.items):
        if (item.kind == "scalar" and item.raw == key) or (item.kind == "map" and list(item.entries) == [key]):
            return i
    return None


def _patch(root: Node, dotted: str, value: Node, where: Node, option: str) -> None:
    """Set the value at a dotted path; in a list a key names an item (``play.duties.beat``) or counts from 0.
    The nodes on the path are copied first (``root`` already is one): the document itself is not changed."""
    keys = dotted.split(".")
    node = root
    for i, key in enumerate(keys):
        last = i == len(keys) - 1
        if node.kind == "seq":
            index = _item_index(node, key)
            if index is None:
                raise fail(where, f"options.{option}", f"patch path {dotted!r}: {'.'.join(keys[:i])} has no "
                                                      f"item {key!r} (items are named or counted from 0)")
            node.items[index] = value if last else _shallow(node.items[index])
            node = node.items[index]
            continue
        if node.kind != "map":
            raise fail(where, f"options.{option}", f"patch path {dotted!r}: {'.'.join(keys[:i])} is not a mapping")
        key_node = node.entries[key][0] if key in node.entries else where
        if last:
            node.entries[key] = (key_node, value)
        else:
            child = node.get(key)
            if child is None or (child.kind == "scalar" and child.value is None):
                child, key_node = Node("map", where.source, where.line, where.column), where
            node.entries[key] = (key_node, _shallow(child))
            node = node.entries[key][1]


def _shallow(node: Node) -> Node:
    return Node(node.kind, node.source, node.line, node.column, node.value, node.raw, list(node.items),
                dict(node.entries))


def _apply_choices(root: Node, chosen: Mapping[str, str]) -> Node:
    """The document with the chosen patches applied, without its options (so checking every choice
    costs the choices times the rest of the document, not times the options too)."""
    patched = Node(root.kind, root.source, root.line, root.column,
                   entries={k: entry for k, entry in root.entries.items() if k != "options"})
    options_node = root.get("options")
    for name, choice in chosen.items():
        option_node = options_node.get(name) if options_node else None
        choices_node = option_node.get("choices") if option_node else None
        patch = choices_node.get(choice) if choices_node else None
        for dotted, (_, value) in patch.entries.items() if patch is not None else ():
            _patch(patched, dotted, value, value, name)
    return patched


def _select(name: str, options: Sequence[OptionSpec], given: Mapping[str, str], source: str) -> dict[str, str]:
    by_name = {o.name: o for o in options}
    for key, value in given.items():
        match = {k.lower(): k for k in by_name}.get(key.lower())
        if match is None:
            valid = ", ".join(by_name) or "none"
            raise OptionError(f"{name} has no option {key!r} (its options: {valid})")
        choices = by_name[match].choices
        if str(value) not in choices:
            lowered = {c.lower(): c for c in choices}
            if str(value).lower() not in lowered:
                raise OptionError(f"option {match}={value!r} is not a choice (choices: {', '.join(choices)})")
    chosen: dict[str, str] = {}
    given_l = {k.lower(): str(v) for k, v in given.items()}
    for option in options:
        value = given_l.get(option.name.lower(), option.default)
        lowered = {c.lower(): c for c in option.choices}
        if value.lower() not in lowered:
            raise RulesetError(f"default {value!r} is not one of its choices", source=source,
                               path=f"options.{option.name}.default")
        chosen[option.name] = lowered[value.lower()]
    return chosen


def _plain(value: Any) -> Any:
    """A patch value as plain data (the loader keeps a patch's values as parsed nodes)."""
    return value.to_python() if isinstance(value, Node) else value


def _check_version(root: Node) -> None:
    if root.kind != "map":
        raise RulesetError(f"a ruleset is a mapping, got {root.describe()}", source=root.source,
                           line=root.line, column=root.column)
    version = root.get("schema_version")
    if version is None:
        raise RulesetError(f"missing (required, and checked first; this program reads {SCHEMA_VERSION})",
                           source=root.source, line=root.line, column=root.column, path="schema_version")
    if version.kind != "scalar" or version.value != SCHEMA_VERSION or isinstance(version.value, bool):
        raise fail(version, "schema_version",
                   f"unsupported version {version.describe()} (this program reads {SCHEMA_VERSION})")


def load_from_node(root: Node, options: Mapping[str, str] | None = None, *, path: str = "",
                   bundled: bool = False) -> Ruleset:
    """Validate a parsed document, apply the chosen options, and build the ``Ruleset``.

    Every choice of every option must give a valid game, and no meld table may be too large to
    price; ``bundled``: a file shipped with the program, whose every choice and meld table the tests
    check (tests/test_ruleset.py), so that only the game chosen is validated at start-up.
    """
    _check_version(root)
    doc = RULESET_SCHEMA.check(root, "")
    specs: tuple[OptionSpec, ...] = doc.get("options", ())
    chosen = _select(doc["name"], specs, options or {}, root.source)
    defaults = {o.name: {c.lower(): c for c in o.choices}.get(o.default.lower(), o.default) for o in specs}
    for spec in specs if not bundled else ():  # each choice, the other options at their defaults
        for choice in spec.choices:
            if choice != chosen.get(spec.name):
                RULESET_SCHEMA.check(_apply_choices(root, {**defaults, spec.name: choice}), "")
    patched = _apply_choices(root, chosen)
    rules = Ruleset(**RULESET_SCHEMA.check(patched, ""), options=specs, chosen=chosen, path=path or root.source)
    if not bundled:
        _check_meld_groups(rules, patched)
    return rules


def _check_meld_groups(rules: Ruleset, root: Node) -> None:
    """Combinations of one class that share cards are priced together from one table per group: a
    group of too many cards would take too long, and is refused."""
    cells, klass, trump, cards = 0, "", rules.suits[0], 0  # the largest group over every trump, the first of ties
    for suit in rules.suits:
        for group in rules.meld_groups(suit):
            distinct = len({card for _, group_cards in group for card in group_cards})
            size = (rules.deck.copies + 1) ** distinct * (len(group) + 1)
            if size > cells:
                cells, klass, trump, cards = size, rules.meld[group[0][0]].klass, suit, distinct
    if cells > TABLE_LIMIT:
        node = root.get("meld") or root
        raise fail(node, "meld", f"the combinations of class {klass!r} share cards so widely that with "
                                 f"{trump.word} as trump they form one group of {cards} different cards, too "
                                 f"many to price quickly ({cells:,} table cells, at most {TABLE_LIMIT:,}): "
                                 f"give them fewer cards in common, or split the class")


def load_ruleset(spec: str | os.PathLike[str] | None = None, options: Mapping[str, str] | None = None,
                 *, base: str | None = None) -> Ruleset:
    """Load a bundled ruleset by name (or alias, any case) or a YAML file by path.

    ``spec`` None: ``$PINOCHLE_RULESET`` or ``single-deck``. ``options``: choices by option name.
    ``base``: folder that relative paths are read from (a record's folder).
    """
    path = _resolve(spec, base)
    return _load_cached(path, tuple(sorted((options or {}).items())), _mtime(path))


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


@lru_cache(maxsize=64)
def _load_cached(path: str, options: tuple[tuple[str, str], ...], _mtime: float) -> Ruleset:
    try:
        root = load_node(path)
    except YamlError as exc:
        raise RulesetError(str(exc)) from None
    return load_from_node(root, dict(options), path=path, bundled=Path(path).parent == _rulesets_dir())


def load_ruleset_text(text: str, source: str = "<ruleset>", options: Mapping[str, str] | None = None) -> Ruleset:
    """Load a ruleset from YAML text (tests, embedded house rules)."""
    try:
        root = load_text(text, source)
    except YamlError as exc:
        raise RulesetError(str(exc)) from None
    return load_from_node(root, options, path=source)


def schema_json_text() -> str:
    return json_text(json_schema())
