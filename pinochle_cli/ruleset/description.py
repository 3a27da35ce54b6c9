"""The ruleset's description: one declaration gives the validator and the JSON Schema.

``RULESET_SCHEMA`` checks a located YAML document field by field (each error names its line)
and builds the model's values; ``ruleset_json_schema()`` publishes the same description.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

from ..cards import Deck, parse_rank, parse_suit
from ..errors import SchemaError
from ..schema import Bool, Field, Int, MapOf, Nullable, Obj, Pattern, Seq, Str, Union, Whatever, fail, json_text
from ..yamlsource import Node
from .conventions import CONVENTIONS
from .parts import (
    Auction,
    Bury,
    CardPattern,
    Combination,
    Match,
    OptionSpec,
    Outcome,
    PlayRules,
    Scoring,
    Stock,
    Widow,
    _duties,
)
from .vocabulary import (
    BothReach,
    BuriedCounters,
    BuryBan,
    BuryWhen,
    DutyName,
    DutyWhen,
    KeepMeld,
    Leader,
    MadeNeeds,
    Melders,
    OutcomeKind,
    Sides,
    Tie,
    TrumpEligible,
    TrumpSource,
    words,
)

__all__ = [
    "CARD_PATTERN", "COMBINATION", "DUTY", "DUTY_NAMES", "DUTY_OPTIONS", "MAX_CARD_POINTS", "MAX_CHOICES",
    "MAX_COMBINATIONS", "MAX_COMBINATION_CARDS", "MAX_COPIES", "MAX_OPTIONS", "MAX_PLAYERS", "MAX_POINTS", "MELD",
    "OPTION", "OPTIONS", "OUTCOME", "OUTCOME_VALUES", "POINTS", "RANK", "RANK_RE", "RULESET_SCHEMA", "SUIT",
    "SUIT_RE", "TABLE_LIMIT", "ruleset_json_schema", "ruleset_schema_json_text",
]

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
# any bid, target or number of deals
MAX_POINTS = 10**9
# a combination's points (any number of copies), a counter's, the last trick's
MAX_CARD_POINTS = 10_000
# copies of each card in the pack
MAX_COPIES = 4
MAX_PLAYERS = 8
# entries of the meld table
MAX_COMBINATIONS = 64
# cards of one combination
MAX_COMBINATION_CARDS = 12
MAX_OPTIONS = 16
# choices of one option
MAX_CHOICES = 32
# cells of the table that prices one group of combinations (``meld``); larger: refused
TABLE_LIMIT = 1 << 18
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

def _plain(value: Any) -> Any:
    """A patch value as plain data (the loader keeps a patch's values as parsed nodes)."""
    return value.to_python() if isinstance(value, Node) else value


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
    """The deck, the hands, the widow, the stock and the seats fit together."""
    size = doc["deck"].size
    players, hand_size = doc["players"], doc["hand_size"]
    stock, widow = doc.get("stock"), doc.get("widow")
    dealt = players * hand_size + (widow.cards if widow is not None else 0)
    hands = f"{players} hands of {hand_size}" + (f" and a widow of {widow.cards}" if widow is not None else "")
    if dealt > size:
        raise _fail_at(node, path, "widow" if widow is not None else "hand_size", key=widow is not None,
                       message=f"{hands} need {dealt} cards; the deck has {size}")
    rest = size - dealt
    if stock is None and rest:
        raise _fail_at(node, path, "hand_size",
                       message=f"{hands} leave {rest} cards undealt and there is no stock"
                               + ("" if widow is not None else " or widow"))
    if stock is not None and widow is not None:
        raise _fail_at(node, path, "widow", key=True, message="a game with a stock has no widow: give one of them")
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


def _check_widow(doc: dict[str, Any], node: Node, path: str) -> None:
    """The widow goes to a bidder, who buries as many cards; a bury needs a widow, and a card it may not
    bury must still be known when it buries."""
    widow: Widow | None = doc.get("widow")
    bury: Bury | None = doc.get("bury")
    if widow is not None and doc.get("auction") is None:
        raise _fail_at(node, path, "widow", key=True, message="the bidder takes the widow: a widow needs an auction")
    if widow is not None and bury is None:
        raise _fail_at(node, path, "widow", key=True,
                       message=f"the bidder takes the widow's {widow.cards} cards and must lay away as many to "
                               "play a dealt hand: give bury (e.g. bury: {forbidden: [melded]})")
    if bury is not None and widow is None:
        raise _fail_at(node, path, "bury", key=True, message="nothing to bury: the bidder buries what the widow "
                       "added, and there is no widow")
    if bury is not None and bury.when == "before-meld" and "melded" in bury.forbidden:
        items, _ = _at(node, path, "bury", "forbidden")
        item = items.items[bury.forbidden.index("melded")] if items.kind == "seq" else items
        raise fail(item, f"bury.forbidden[{bury.forbidden.index('melded')}]",
                   "a bury before the meld cannot spare the cards shown in meld: none are shown yet "
                   "(bury: {when: after-meld})")


def _check_sides(doc: dict[str, Any], node: Node, path: str) -> None:
    """Sides formed by the auction, and a meld by the bidder alone, need a bidder; the players then
    score alone, so no fixed partnership may join two of them."""
    for key, alone in (("sides", doc.get("sides") == "bidder-alone"), ("melders", doc.get("melders") == "bidder")):
        if alone and doc.get("auction") is None:
            raise _fail_at(node, path, key, message=f"{doc[key]} needs a bidder: give an auction")
    if doc.get("sides") == "bidder-alone" and any(len(team) > 1 for team in doc.get("partnerships") or ()):
        raise _fail_at(node, path, "partnerships", key=True,
                       message="the bidder plays alone and every player scores alone (sides: bidder-alone): "
                               "each partnership is one seat ([[0], [1], [2]]), or leave partnerships out")


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
    _check_widow(doc, node, path)
    _check_sides(doc, node, path)
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
    "widow": Field(Obj({
        "cards": Field(Int(1), required=True, doc="cards dealt aside, face down"),
        "shown": Field(Bool(), doc="turned face up for every player before the bidder takes it (default true)"),
    }, "the widow", build=lambda **w: Widow(**w)),
        doc="cards dealt aside that the bidder takes after the auction (the kitty); omitted: none"),
    "bury": Field(Obj({
        "when": Field(Str(words(BuryWhen)), doc="after-meld (default): the bidder buries once the meld is shown"),
        "forbidden": Field(Seq(Str(words(BuryBan)), unique=True, frozen=True),
                           doc="cards the bidder may not bury: melded (shown in meld), trump, counter (a card "
                               "that counts)"),
        "counters": Field(Str(words(BuriedCounters)),
                          doc="whose the buried counters are: bidder (default), or last-trick (its winner's)"),
    }, "the bury", build=lambda **b: Bury(**b)),
        doc="the bidder, holding the widow, lays away as many cards face down; needs a widow"),
    "sides": Field(Str(words(Sides)),
                   doc="partnerships (default): the fixed partnerships play and score together; bidder-alone: the "
                       "bidder plays alone against the others, partners for the deal, and each player scores alone"),
    "melders": Field(Str(words(Melders)), doc="who melds: all (default), or only the bidder"),
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
        "both_reach": Field(Str(words(BothReach)),
                            doc="two or more sides reach the target on one deal: bidders — the bidding side wins if "
                                "it is among them, else the higher total; higher — the higher total wins"),
        "tie": Field(Str(words(Tie)), doc="equal highest totals when a winner is due"),
    }, "the match", build=lambda **d: Match(**d)), required=True),
    "conventions": Field(CONVENTIONS, doc="bidding conventions: what each call of the auction shows of the "
                                          "caller's hand (estimate --auction)"),
    "options": Field(OPTIONS),
}, "a ruleset", post=_check_ruleset)


@cache
def ruleset_json_schema() -> dict[str, Any]:
    """The JSON Schema of the format, generated from the same description as the loader."""
    schema = RULESET_SCHEMA.to_json()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://pinochle-cli.invalid/ruleset.schema.json",
        "title": "pinochle_cli ruleset",
        **schema,
    }


def ruleset_schema_json_text() -> str:
    """The JSON Schema of the format as the text ``rulesets schema`` prints."""
    return json_text(ruleset_json_schema())
