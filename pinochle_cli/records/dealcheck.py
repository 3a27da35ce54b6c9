"""Reading one deal of a record, section by section: flags, auction, trump, hands, stock,
meld, play and counters, score. Each section checks its fields against the layout, the
ruleset, the table and the sections before it, and raises the first problem it finds.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from ..cards import Card, Hand, Suit, format_cards, parse_cards, parse_suit
from ..errors import (
    AuctionError,
    CardError,
    IllegalPlayError,
    MissingFactError,
    PinochleError,
    RecordError,
    ScoringError,
    TableNameError,
)
from ..game.bidding import PASS, check_bid, run_auction, spoken_list
from ..ruleset import Ruleset
from ..scoring import DealFacts, DealScore, Standing, meld_only_from_number, not_on_board, score_deal
from ..yamlsource import Node
from . import bury
from .layout import CARDS, DEAL, MELD_VALUE, TRICK, by_side, field_of, located, shaped
from .model import DealRecord
from .table import Named, Table

if TYPE_CHECKING:
    from ..meld import MeldResult

__all__ = ["Deal", "DealReader", "Problems", "trick_counters"]


class Problems:
    """Where problems go: raised at once (strict) or kept in file order (forgiving)."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.found: list[RecordError] = []

    def report(self, problem: RecordError) -> None:
        if self.strict:
            raise problem
        self.found.append(problem)


@dataclass
class Deal:
    """A deal being read: its fields in one place until the standing is known."""

    number: int
    line: int
    dealer: str | None = None
    bidder: str | None = None
    bid: int | None = None
    trump: Suit | None = None
    auction: tuple[str, ...] | None = None
    meld: tuple[int, ...] = ()
    counters: tuple[int, ...] | None = None
    tricks: tuple[int | None, ...] | None = None
    conceded: bool = False
    no_trump: bool = False
    redeal: bool = False
    hands: dict[str, Hand] | None = None
    # top first
    stock: list[Card] | None = None
    played: bool = False
    play: tuple[tuple[Card, ...], ...] | None = None
    leader: int | None = None
    widow: Hand | None = None
    buried: Hand | None = None

    def record(self, facts: DealFacts, score: DealScore, standing: Standing) -> DealRecord:
        return DealRecord(self.number, self.line, self.dealer, self.bidder, self.bid, self.trump, self.auction,
                          self.meld, self.counters, self.tricks, self.conceded, self.no_trump, self.redeal,
                          self.hands, self.played, facts, score, standing, self.play, self.leader,
                          None if self.stock is None else tuple(self.stock),
                          None if self.widow is None else tuple(self.widow),
                          None if self.buried is None else tuple(self.buried))


@cache
def _counter_totals(rules: Ruleset) -> frozenset[int]:
    """Every counter total one side can take: a sum of captured cards' values, with or without the last trick
    (worked out once per ruleset: a long record asks for every deal)."""
    sums = {0}
    for v in sorted(rules.counter_value(c) for c in rules.deck.cards() if rules.counter_value(c)):
        sums |= {s + v for s in sums}
    return frozenset(sums | {s + rules.last_trick for s in sums})


@cache
def _sums_by_count(rules: Ruleset) -> tuple[frozenset[int], ...]:
    """For c = 0 … the number of counter cards in the pack: every total of exactly c of them (once per ruleset)."""
    values = [rules.counter_value(c) for c in rules.deck.cards() if rules.counter_value(c)]
    sums: list[set[int]] = [{0}] + [set() for _ in values]
    for v in values:
        for c in range(len(values), 0, -1):
            sums[c] |= {s + v for s in sums[c - 1]}
    return tuple(frozenset(s) for s in sums)


@cache
def trick_counters(rules: Ruleset, tricks: int) -> frozenset[int]:
    """Every counter total a side that took ``tricks`` tricks can hold: the counter cards among its
    tricks' cards (at most ``tricks`` × players of them, and at least what the other tricks' cards
    cannot hold), and the last trick's points if it took a trick, as it must if it took them all.

    Exact as a matter of cards (which cards could lie in which tricks); the rules of play may
    forbid some of these totals in a real deal.
    """
    sums, per = _sums_by_count(rules), rules.players
    n, pack = rules.tricks_per_deal, len(_sums_by_count(rules)) - 1
    bonuses = ({0} if tricks < n else set()) | ({rules.last_trick} if tricks > 0 else set())
    # the widow's cards (buried) may hold counter cards that are in no trick
    fewest, most = max(0, pack - rules.widow_size - (n - tricks) * per), min(pack, tricks * per)
    return frozenset(s + b for c in range(fewest, most + 1) for s in sums[c] for b in bonuses)


def _counter_step(rules: Ruleset) -> int:
    values = [v for v in rules.counters.values() if v] + ([rules.last_trick] if rules.last_trick else [])
    return math.gcd(*values) if values else 1


@cache
def _meld_step(rules: Ruleset) -> int:
    """The step of every possible meld total: the gcd of the meld table's values (10 in single-deck)."""
    values = [c.value(k) for c in rules.meld for k in range(1, rules.deck.copies + 1)]
    return math.gcd(*values) if values else 1


@cache
def _surely_shown(rules: Ruleset) -> int:
    """A meld total some hand surely shows: one combination's copies that fit in a hand (a cheap lower
    bound on ``most_meld``, so that a sheet of ordinary numbers needs no meld engine)."""
    best = 0
    for combo in rules.meld:
        repeats = Counter((p.mode, p.rank, p.suit) for p in combo.pattern).values()
        most = min(rules.deck.copies // n for n in repeats) if repeats else 0
        fits = [k for k in range(1, most + 1) if k * len(combo.pattern) <= rules.hand_size]
        best = max([best] + [combo.value(k) for k in fits])
    return best


def _most_meld(rules: Ruleset) -> int:
    """The most meld one hand can show in ``rules`` (exact, worked out once per ruleset)."""
    from ..meld import most_meld

    return most_meld(rules).total


@cache
def _with_widow(rules: Ruleset) -> Ruleset:
    """``rules`` with the hand the bidder melds from in a game with a widow: a dealt hand and the widow."""
    return replace(rules, hand_size=rules.largest_hand) if rules.widow_size else rules


# a side's meld, piece by piece: (points, all of the kinds kept on their own; None: not known)
MeldParts = list[list[tuple[int, bool | None]]]


def _meld(rules: Ruleset, cards: Hand, trump: Suit) -> MeldResult:
    """The meld of cards shown or held (the meld engine is imported when a deal has cards: a sheet of
    numbers needs none, and starts faster)."""
    from ..meld import meld

    return meld(rules, cards, trump)


class DealReader:
    """One deal of a record, read section by section (``read``)."""

    def __init__(self, rules: Ruleset, table: Table, node: Node, number: int, problems: Problems) -> None:
        self.rules, self.table, self.node, self.number, self.problems = rules, table, node, number, problems
        self.d = Deal(number, node.line)
        self.sides = len(table.sides)
        # meld given by player
        self.given_player: dict[str, tuple[int, Node]] = {}
        # meld given by side
        self.given_side: dict[int, tuple[int, Node]] = {}
        # the cards each player showed for meld
        self.shown: dict[str, Hand] = {}

    # ----------------------------------------------------------------- helpers

    def err(self, at: Node | None, message: str, field: str | None = None, trick: int | None = None) -> RecordError:
        return located(at or self.node, message, deal=self.number, field=field, trick=trick)

    def get(self, key: str) -> Node | None:
        """The field's node, or None where it is absent or written as null."""
        value = self.node.get(key)
        return None if value is None or (value.kind == "scalar" and value.value is None) else value

    def shape(self, key: str, node: Node, field: str | None = None, *, kind_only: bool = False) -> Any:
        return shaped(field_of(DEAL, key), node, field or key, deal=self.number, kind_only=kind_only)

    def flag(self, key: str) -> bool:
        value = self.get(key)
        return False if value is None else bool(self.shape(key, value))

    def player(self, key: str) -> str | None:
        value = self.get(key)
        if value is None:
            return None
        name: str = self.shape(key, value)
        found = self.table.player(name)
        if found is None:
            raise self.err(value, f"{name!r} is not at the table ({', '.join(self.table.seating)})", key)
        return found

    def named(self, key: str, key_node: Node, field: str) -> Named:
        try:
            return self.table.resolve(key)
        except TableNameError as exc:
            raise self.err(key_node, str(exc), field) from None

    def card_list(self, node: Node, field: str) -> list[Card]:
        tokens = shaped(CARDS, node, field, deal=self.number)
        try:
            cards = parse_cards(tokens)
            self.rules.deck.check(cards)
        except CardError as exc:
            raise self.err(node, str(exc), field) from None
        return cards

    def cards(self, node: Node, field: str) -> Hand:
        return Hand(self.card_list(node, field))

    # ----------------------------------------------------------------- sections

    def read(self) -> tuple[Deal, DealFacts, DealScore]:
        """The deal checked and scored; raises its first problem. Unknown keys go to the problems
        (raised when strict); the rest of the deal is still read."""
        shaped(DEAL, self.node, "", deal=self.number, kind_only=True)
        for _, key_node, message in DEAL.unknown(self.node):
            self.problems.report(located(key_node, message, deal=self.number))
        self.read_flags()
        self.read_auction()
        self.read_trump()
        self.read_hands()
        self.read_stock()
        self.read_widow()
        self.check_ending()
        meld_only = self.read_meld()
        d = self.d
        if d.redeal:
            facts = DealFacts(meld=(0,) * self.sides, redeal=True)
            return d, facts, score_deal(self.rules, facts)
        bidder_side = self.table.side_of(d.bidder) if d.bidder is not None else None
        self.read_play(bidder_side)
        took = None if d.tricks is None else tuple(None if t is None else t > 0 for t in d.tricks)
        buried = self.buried_of(bidder_side) if bidder_side is not None else 0
        facts = DealFacts(meld=d.meld, counters=d.counters, bidder_side=bidder_side, bid=d.bid, took_trick=took,
                          meld_only=meld_only, conceded=d.conceded, no_trump=d.no_trump, buried=buried)
        return d, facts, self.score(facts)

    def read_flags(self) -> None:
        """redeal, conceded, no-trump (at most one) and the dealer."""
        d = self.d
        d.redeal, d.conceded, d.no_trump = self.flag("redeal"), self.flag("conceded"), self.flag("no-trump")
        flags = [k for k, v in (("redeal", d.redeal), ("conceded", d.conceded), ("no-trump", d.no_trump)) if v]
        if len(flags) > 1:
            raise self.err(self.get(flags[1]), "a deal is at most one of redeal, conceded and no-trump, got "
                           f"{' and '.join(flags)}", flags[1])
        d.dealer = self.player("dealer")
        if d.redeal:
            for key in ("bidder", "bid", "auction", "trump", "meld", "counters", "tricks", "play", "stock", "widow",
                        "buried"):
                if self.get(key) is not None:
                    raise self.err(self.get(key), "a redealt deal was thrown in before the auction: it has no "
                                   + key, key)

    def read_auction(self) -> None:
        """The bidder and bid, and the calls that decided them."""
        rules, d = self.rules, self.d
        if rules.auction is None:
            for key in ("auction", "bidder", "bid"):
                if self.get(key) is not None:
                    raise self.err(self.get(key), f"the {rules.name} game has no auction: no {key}", key)
            for key, what in (("conceded", "concede"), ("no-trump", "be left without trump")):
                if self.flag(key):
                    raise self.err(self.get(key), f"the {rules.name} game has no auction and no bidder to {what}",
                                   key)
            return
        if d.redeal:
            return
        d.bidder = self.player("bidder")
        bid_node = self.get("bid")
        if bid_node is not None:
            d.bid = self.shape("bid", bid_node)
            try:
                check_bid(rules.auction, d.bid)
            except AuctionError as exc:
                raise self.err(bid_node, str(exc), "bid") from None
        auction_node = self.get("auction")
        if auction_node is not None:
            self.read_calls(auction_node, bid_node)
        if d.bidder is None:
            raise self.err(None, "missing bidder (who won the auction)", "bidder")
        if d.bid is None:
            raise self.err(None, "missing bid (the contract)", "bid")

    def read_calls(self, node: Node, bid_node: Node | None) -> None:
        d, table = self.d, self.table
        if d.dealer is None:
            raise self.err(node, "an auction starts at the dealer's left: add dealer:", "auction")
        calls = self.shape("auction", node)
        if isinstance(calls, str):
            calls = [c for c in re.split(r"[\s,]+", calls) if c]
        try:
            seat, won = run_auction(self.rules, table.seat_of(d.dealer), calls, table.seating)
        except AuctionError as exc:
            raise self.err(node, str(exc), "auction") from None
        d.auction = tuple(c.lower() if c.lower() == PASS else c for c in calls)
        winner = table.seating[seat]
        if d.bidder is not None and d.bidder != winner:
            raise self.err(self.get("bidder"), f"{d.bidder!r}, but the auction ends with {winner} at {won}", "bidder")
        if d.bid is not None and d.bid != won:
            raise self.err(bid_node, f"{d.bid}, but the auction ends with {winner} at {won}", "bid")
        d.bidder, d.bid = winner, won

    def read_trump(self) -> None:
        node = self.get("trump")
        if node is None:
            return
        try:
            trump = parse_suit(self.shape("trump", node))
        except CardError as exc:
            raise self.err(node, str(exc), "trump") from None
        if trump not in self.rules.suits:
            raise self.err(node, f"{trump.word} is not a suit of {self.rules.deck.name}", "trump")
        if self.d.no_trump:
            raise self.err(node, "a deal with no-trump: true has no trump suit", "trump")
        self.d.trump = trump

    def read_hands(self) -> None:
        """Each player's hand at play start; none shares a card, and the bidder could name the trump."""
        node = self.get("hands")
        if node is None:
            return
        rules, table = self.rules, self.table
        self.shape("hands", node, kind_only=True)
        hands: dict[str, Hand] = {}
        for key, (key_node, value) in node.entries.items():
            who = table.player(key)
            if who is None:
                raise self.err(key_node, f"{key!r} is not a player at the table ({', '.join(table.seating)})",
                               "hands")
            hand = self.cards(value, f"hands.{who}")
            if len(hand) != rules.hand_size:
                raise self.err(value, f"{who} holds {len(hand)} cards, a hand has {rules.hand_size}", f"hands.{who}")
            hands[who] = hand
        try:
            rules.deck.check(card for hand in hands.values() for card in hand)
        except CardError as exc:
            raise self.err(node, f"the hands share cards: {exc}", "hands") from None
        self.d.hands = hands
        bidder = self.d.bidder
        # with a widow, the bidder named trump holding the widow too (checked with it: read_widow)
        if bidder is not None and bidder in hands and rules.exchange == 0 and rules.widow is None:
            self.check_trump_named(hands[bidder])

    def read_widow(self) -> None:
        """Games with a widow: the widow and the buried cards (each as many as the widow), held by the
        bidder (``bury``); the buried cards are the rest of the pack when every hand is recorded."""
        rules, d = self.rules, self.d
        for key in ("widow", "buried"):
            node = self.get(key)
            if node is None:
                continue
            if rules.widow is None:
                raise self.err(node, f"the {rules.name} game has no widow" + (" to bury from" if key == "buried"
                                                                              else ""), key)
            cards = self.cards(node, key)
            if len(cards) != rules.widow_size:
                what = "the widow has" if key == "widow" else "the bidder buries"
                raise self.err(node, f"{len(cards)} card{'s' if len(cards) != 1 else ''}, {what} "
                               f"{rules.widow_size}", key)
            setattr(d, key, cards)
        hands = d.hands or {}
        if d.buried is not None:
            self.raise_problem(bury.buried_problem(rules, d.bidder, hands, d.buried, d.trump))
        elif rules.widow is not None and not (d.conceded or d.redeal):
            d.buried = bury.inferred_buried(rules, hands)
        if d.widow is not None:
            self.raise_problem(bury.widow_problem(rules, d.bidder, hands, d.widow, d.buried))
        if rules.widow is not None and d.bidder in hands and d.buried is not None:
            self.check_trump_named(hands[d.bidder] + d.buried)

    def raise_problem(self, problem: bury.Problem | None) -> None:
        if problem is not None:
            field, message = problem
            raise self.err(self.get(field), message, field)

    def check_buried_meld(self) -> None:
        """The bidder's meld shown as cards and the buried cards: no card both where the ruleset forbids it."""
        d = self.d
        if d.buried is None or d.bidder is None or d.bidder not in self.shown:
            return
        hand = (d.hands or {}).get(d.bidder)
        self.raise_problem(bury.shown_problem(self.rules, d.bidder, hand, self.shown[d.bidder], d.buried))

    def buried_of(self, side: int | None) -> int | None:
        """The counters in the buried cards that count for ``side`` by the rules (0 for a side they do not
        count for); None when they count for it but are not known."""
        rules, d = self.rules, self.d
        if rules.bury is None or rules.bury.counters != "bidder" or d.bidder is None \
                or side != self.table.side_of(d.bidder):
            return 0
        return None if d.buried is None else bury.buried_counters(rules, d.buried)

    def check_trump_named(self, hand: Hand) -> None:
        """Naming trump takes the ranks the ruleset says (``trump.needs``)."""
        d, rules = self.d, self.rules
        eligible = rules.eligible_trumps(hand)
        needs = rules.trump_needs_words()
        if d.trump is not None and d.trump not in eligible:
            holding = format_cards(hand.of_suit(d.trump)) or "no " + d.trump.word
            raise self.err(self.get("trump"), f"{d.bidder} cannot name {d.trump.word}: holding {holding}, "
                           f"trump must be a suit of which the bidder holds {needs}", "trump")
        if d.no_trump and eligible:
            raise self.err(self.get("no-trump"), f"{d.bidder} holds {needs} of "
                           f"{spoken_list([s.word for s in eligible])} and could name trump", "no-trump")

    def read_stock(self) -> None:
        """Games with a stock: its cards when play starts, top first (checked with or without play)."""
        node = self.get("stock")
        if node is None:
            return
        rules = self.rules
        if not rules.has_stock:
            raise self.err(node, f"the {rules.name} game has no stock", "stock")
        stock = self.card_list(node, "stock")
        if len(stock) != rules.stock_size:
            raise self.err(node, f"{len(stock)} card{'s' if len(stock) != 1 else ''}, the stock has "
                           f"{rules.stock_size}", "stock")
        held = [card for hand in (self.d.hands or {}).values() for card in hand]
        try:
            rules.deck.check(held + stock)
        except CardError as exc:
            raise self.err(node, f"the stock shares cards with the hands: {exc}", "stock") from None
        self.d.stock = stock

    def check_ending(self) -> None:
        """A deal without trump or conceded needs a rule for it."""
        rules, d = self.rules, self.d
        if d.no_trump and (rules.scoring.no_trump is None or not rules.trump_needs):
            why = "the bidder may name any suit" if not rules.trump_needs else "it has no rule for it"
            raise self.err(self.get("no-trump"), f"the {rules.name} game has no deal without trump ({why})",
                           "no-trump")
        if d.conceded and rules.scoring.concede is None:
            raise self.err(self.get("conceded"), f"the {rules.name} game has no rule for conceding", "conceded")

    def read_meld(self) -> tuple[bool | None, ...]:
        """The meld per side, given or computed from the hands → whether each is all of kept-alone kinds."""
        parts: MeldParts = [[] for _ in range(self.sides)]
        node = self.get("meld")
        if node is not None:
            self.shape("meld", node, kind_only=True)
            for key, (key_node, value) in node.entries.items():
                self.read_meld_entry(key, key_node, value, parts)
            self.check_shown_together(node)
            self.check_buried_meld()
            for side, (_pts, value) in self.given_side.items():
                doubled = [p for p in self.table.members[side] if p in self.given_player]
                if doubled and self.table.teams:
                    raise self.err(value, f"meld given for {self.table.sides[side]} and for {spoken_list(doubled)}: "
                                   "give one or the other", "meld")
        self.check_melders()
        if self.d.hands is not None and self.d.trump is not None and not self.rules.has_stock:
            self.meld_from_hands(self.d.hands, self.d.trump, parts)
        self.d.meld = tuple(sum(p for p, _ in side_parts) for side_parts in parts)
        return tuple(self.meld_only(side, side_parts) for side, side_parts in enumerate(parts))

    def check_shown_together(self, node: Node) -> None:
        """The cards all players showed for meld fit in the pack together (each player's own are
        checked against the pack, and against their hand where it is given, as they are read)."""
        copies = self.rules.deck.copies
        total = Hand(card for hand in self.shown.values() for card in hand)
        for card in total.distinct():
            if total.count(card) > copies:
                who = ", ".join(f"{p} {hand.count(card)}" for p, hand in self.shown.items() if card in hand)
                raise self.err(node, f"{card} ({card.ascii()}) is shown {total.count(card)} times ({who}); "
                                     f"{self.rules.deck.name} has {copies}", "meld")

    def meld_only(self, side: int, parts: list[tuple[int, bool | None]]) -> bool | None:
        flags = [o for p, o in parts if p > 0]
        if not flags or any(o is False for o in flags):
            return False
        if all(o is True for o in flags):
            return True
        return meld_only_from_number(self.rules, self.d.meld[side])

    def read_meld_entry(self, key: str, key_node: Node, value: Node, parts: MeldParts) -> None:
        """One side's or player's meld: a number, or the cards a player showed."""
        rules = self.rules
        _kind, side, who = self.named(key, key_node, "meld")
        given = shaped(MELD_VALUE, value, f"meld.{key}", deal=self.number)
        only: bool | None
        if isinstance(given, int):
            pts, only = given, meld_only_from_number(rules, given)
            step = _meld_step(rules)
            if pts % step:
                raise self.err(value, f"{pts} is not a meld total (not a multiple of {step})", f"meld.{key}")
            self.check_meld_number(pts, side, who, value, key)
        else:
            if who is None:
                raise self.err(value, "a team's meld is a number; cards are shown by a player", f"meld.{key}")
            if self.d.trump is None:
                raise self.err(value, "meld given as cards needs the trump suit: add trump:", f"meld.{who}")
            shown = self.shown[who] = self.cards(value, f"meld.{who}")
            most = rules.largest_hand if who == self.d.bidder else rules.hand_size
            if len(shown) > most:
                raise self.err(value, f"{who} showed {len(shown)} cards; a {rules.name} hand holds "
                               f"{rules.hand_sizes_words if who == self.d.bidder else most}", f"meld.{who}")
            result = _meld(rules, shown, self.d.trump)
            pts, only = result.total, result.only(rules.scoring.kept_if_only) and result.total > 0
            hands, buried = self.d.hands, self.d.buried
            if hands is not None and who in hands:
                held = hands[who] + buried if who == self.d.bidder and buried is not None else hands[who]
                if not shown.issubset(held):
                    raise self.err(value, f"{who} showed {format_cards(shown - held)} not in their hand",
                                   f"meld.{who}")
        if who is not None:
            self.given_player[who] = (pts, value)
        else:
            self.given_side[side] = (pts, value)
        parts[side].append((pts, only))

    def check_meld_number(self, pts: int, side: int, who: str | None, value: Node, key: str) -> None:
        """A meld given as a number is no more than the hands it is given for can show: a player's one hand,
        a team's hands each the most one hand can show (``most_meld``)."""
        rules, bidder = self.rules, self.d.bidder
        hands = 1 if who is not None else len(self.table.members[side])
        # the bidder of a game with a widow melds from more cards
        big = _with_widow(rules) if bidder is not None and bidder in (
            (who,) if who is not None else self.table.members[side]) else rules
        if pts <= (hands - 1) * _surely_shown(rules) + _surely_shown(big) \
                or pts <= (hands - 1) * _most_meld(rules) + _most_meld(big):
            return
        whose = f"{who}'s hand" if who is not None else f"{self.table.sides[side]}'s {hands} hands"
        widow = f"; {_most_meld(big)} with the widow" if big is not rules else ""
        raise self.err(value, f"{pts} is more meld than {whose} can show (a {rules.name} hand of {rules.hand_size} "
                       f"cards shows at most {_most_meld(rules)}{widow})", f"meld.{key}")

    def meld_from_hands(self, hands: dict[str, Hand], trump: Suit, parts: MeldParts) -> None:
        """Games without a stock: the hand at play start is the hand melded; the meld given must agree."""
        rules, table = self.rules, self.table
        computed: dict[str, tuple[int, bool]] = {}
        for who, hand in hands.items():
            if not self.melds(who):
                continue
            if who == self.d.bidder:
                hand = bury.meld_hand(rules, hand, self.d.buried)
            result = _meld(rules, hand, trump)
            computed[who] = (result.total, result.only(rules.scoring.kept_if_only) and result.total > 0)
        for who, (pts, value) in self.given_player.items():
            if who in computed and computed[who][0] != pts:
                raise self.err(value, f"{who}'s meld is {pts}, but the hand recorded scores {computed[who][0]}",
                               f"meld.{who}")
        for side, (pts, value) in self.given_side.items():
            team = table.members[side]
            if all(p in computed for p in team):
                total = sum(computed[p][0] for p in team)
                if total != pts:
                    raise self.err(value, f"{table.sides[side]}'s meld is {pts}, but the hands recorded score "
                                   f"{total}", f"meld.{table.sides[side]}")
        for side in range(self.sides):
            if side in self.given_side:
                continue
            for p in table.members[side]:
                if p in computed and p not in self.given_player:
                    parts[side].append(computed[p])

    def melds(self, who: str) -> bool:
        """Whether ``who`` melds in this deal: everyone, or (``melders: bidder``) only the bidder."""
        return self.rules.melders == "all" or who == self.d.bidder

    def check_melders(self) -> None:
        """Where only the bidder melds, every other player's meld is 0."""
        if self.rules.melders == "all" or self.d.bidder is None:
            return
        for who, (pts, value) in self.given_player.items():
            if pts and not self.melds(who):
                raise self.err(value, f"{who} melds {pts}, but in this game only the bidder ({self.d.bidder}) "
                               "melds", f"meld.{who}")

    def by_side(self, key: str) -> list[int | None] | None:
        """Numbers by team or player → per side (None for a side not given)."""
        node = self.get(key)
        if node is None:
            return None
        table = self.table
        layout = by_side(table.teams)
        shaped(layout, node, key, deal=self.number, kind_only=True)
        out: list[int | None] = [None] * self.sides
        by_side_given: set[int] = set()
        by_player: dict[int, list[str]] = {}
        for name, (key_node, value) in node.entries.items():
            kind, side, who = self.named(name, key_node, key)
            number: int = shaped(layout.value, value, f"{key}.{name}", deal=self.number)
            if kind == "side":
                by_side_given.add(side)
            else:
                by_player.setdefault(side, []).append(who or "")
            if side in by_side_given and side in by_player:
                raise self.err(value, f"given for {table.sides[side]} and for {spoken_list(by_player[side])}: give "
                               "one or the other", key)
            out[side] = (out[side] or 0) + number
        return out

    def read_play(self, bidder_side: int | None) -> None:
        """Counters and tricks per side: given, or replayed from the play and checked against it."""
        rules, d = self.rules, self.d
        early = d.conceded or d.no_trump or (bidder_side is not None and not_on_board(
            rules, DealFacts(meld=d.meld, bidder_side=bidder_side, bid=d.bid)))
        counters, tricks = self.by_side("counters"), self.by_side("tricks")
        play_node = self.get("play")
        if early:
            why = ("conceded" if d.conceded else "no-trump" if d.no_trump else
                   f"not on board: meld {d.meld[bidder_side or 0]} + {rules.counter_total} is below the bid {d.bid}")
            for key, given in (("counters", counters), ("tricks", tricks)):
                if given is not None and any(v for v in given if v):
                    raise self.err(self.get(key), f"the deal ended after the meld ({why}): no cards were played", key)
            if play_node is not None:
                raise self.err(play_node, f"the deal ended after the meld ({why}): no cards were played", "play")
            return
        if play_node is not None:
            counters, tricks = self.replayed(play_node, counters, tricks)
        self.check_counters(counters)
        if tricks is not None:
            self.check_tricks(tricks)

    def replayed(self, play_node: Node, counters: list[int | None] | None,
                 tricks: list[int | None] | None) -> tuple[list[int | None], list[int | None]]:
        """The play's counters and tricks, which those given must match."""
        computed_c, computed_t = self.replay(play_node)
        for key, given, computed, unit in (("counters", counters, computed_c, ""), ("tricks", tricks, computed_t,
                                                                                     " tricks")):
            for side in range(self.sides):
                if given is not None and given[side] is not None and given[side] != computed[side]:
                    raise self.err(self.get(key), f"{self.table.sides[side]} took {given[side]}{unit}, but the play "
                                   f"gives {computed[side]}", key)
        self.d.played = True
        return list[int | None](computed_c), list[int | None](computed_t)

    def check_counters(self, counters: list[int | None] | None) -> None:
        rules, table = self.rules, self.table
        node = self.get("counters")
        if counters is None:
            raise self.err(None, f"missing counters (the counter points each {'team' if table.teams else 'player'} "
                           f"took, {rules.counter_total} in all)", "counters")
        absent = [table.sides[s] for s in range(self.sides) if counters[s] is None]
        if absent:
            raise self.err(node, f"no counters for {spoken_list(absent)} (they add up to {rules.counter_total})",
                           "counters")
        values = [int(v or 0) for v in counters]
        step = _counter_step(rules)
        for side, v in enumerate(values):
            if v % step:
                raise self.err(node, f"{table.sides[side]}: {v} is not a multiple of {step}", "counters")
            if v not in _counter_totals(rules):
                counts = ", ".join(f"{r.label} {p}" for r, p in rules.counters.items() if p)
                raise self.err(node, f"{table.sides[side]}: {v} cannot be taken (cards count {counts}; "
                               f"the last trick {rules.last_trick})", "counters")
        if sum(values) != rules.counter_total:
            raise self.err(node, f"add up to {sum(values)}, expected {rules.counter_total}", "counters")
        self.d.counters = tuple(values)

    def check_tricks(self, tricks: list[int | None]) -> None:
        """Tricks per side (one side may be left out): they add up, and agree with the counters."""
        rules, table, node = self.rules, self.table, self.get("tricks")
        counters = self.d.counters or ()
        n_tricks = rules.tricks_per_deal
        known = [t for t in tricks if t is not None]
        if sum(known) > n_tricks:
            raise self.err(node, f"add up to {sum(known)}, a deal has {n_tricks}", "tricks")
        if len(known) == self.sides and sum(known) != n_tricks:
            raise self.err(node, f"add up to {sum(known)}, expected {n_tricks}", "tricks")
        if len(known) == self.sides - 1:
            tricks = [t if t is not None else n_tricks - sum(known) for t in tricks]
        # the buried counters a side took in no trick (None: buried, not known)
        aside = [self.buried_of(side) for side in range(self.sides)]
        for side, t in enumerate(tricks):
            if t == 0 and aside[side] is not None and counters[side] > (aside[side] or 0):
                raise self.err(node, f"{table.sides[side]} took no trick but {counters[side]} counters", "tricks")
            away = sum(a or 0 for other, a in enumerate(aside) if other != side)
            if t == n_tricks and None not in aside and counters[side] != rules.counter_total - away:
                raise self.err(node, f"{table.sides[side]} took every trick but only {counters[side]} counters",
                               "tricks")
        for side, t in enumerate(tricks):
            if t is not None and aside[side] is not None:
                self.check_trick_counters(side, t, counters[side] - (aside[side] or 0))
        self.d.tricks = tuple(tricks)

    def check_trick_counters(self, side: int, tricks: int, counters: int) -> None:
        """The counters a side took are a total its tricks can hold (``trick_counters``)."""
        can = trick_counters(self.rules, tricks)
        if counters in can:
            return
        low, high = min(can), max(can)
        took = "1 trick, which holds" if tricks == 1 else f"{tricks} tricks, which hold"
        not_one = f" ({counters} is not a total they can hold)" if low <= counters <= high else ""
        raise self.err(self.get("counters"), f"{self.table.sides[side]} took {took} between {low} and {high} "
                       f"counters; got {counters}{not_one}", "counters")

    def replay_setup(self, play_node: Node) -> tuple[list[Hand], Suit, int]:
        """What replaying the play needs: every hand, the trump, the stock (games with one), the leader."""
        rules, table, d = self.rules, self.table, self.d
        if d.hands is None or len(d.hands) != rules.players:
            missing = [p for p in table.seating if d.hands is None or p not in d.hands]
            raise self.err(play_node, "replaying the play needs every player's hand: add hands for "
                           f"{spoken_list(missing)}", "play")
        if d.trump is None:
            raise self.err(play_node, "replaying the play needs the trump suit: add trump:", "play")
        if rules.has_stock and d.stock is None:
            raise self.err(play_node, "this game draws from a stock: add stock: (its cards, top first)", "play")
        self.shape("play", play_node, kind_only=True)
        if rules.play.leader == "bidder":
            if d.bidder is None:
                raise self.err(play_node, "the bidder leads: add bidder:", "play")
            leader = table.seat_of(d.bidder)
        else:
            if d.dealer is None:
                raise self.err(play_node, "the dealer's left leads: add dealer:", "play")
            leader = (table.seat_of(d.dealer) + 1) % rules.players
        return [d.hands[p] for p in table.seating], d.trump, leader

    def trick(self, node: Node, trick: int) -> list[Card]:
        """One trick's cards in the order played (each in the pack; held or not is the replay's question)."""
        tokens = shaped(TRICK, node, "play", deal=self.number, trick=trick)
        try:
            cards = parse_cards(tokens)
        except CardError as exc:
            raise self.err(node, str(exc), trick=trick) from None
        for card in cards:
            if card not in self.rules.deck:
                raise self.err(node, f"{card} ({card.ascii()}) is not in {self.rules.deck.name}", trick=trick)
        return cards

    def replay(self, play_node: Node) -> tuple[list[int], list[int]]:
        """Replay the recorded tricks → counters and tricks per side."""
        rules, table = self.rules, self.table
        hands, trump, leader = self.replay_setup(play_node)
        tricks = [self.trick(n, i) for i, n in enumerate(play_node.items, start=1)]
        if len(tricks) != rules.tricks_per_deal:
            raise self.err(play_node, f"{len(tricks)} tricks recorded, a deal has {rules.tricks_per_deal}", "play")
        # the trick engine, imported when a deal has play: (score of a sheet needs none)
        from ..game.deal import replay_deal

        bidder = table.seat_of(self.d.bidder) if self.d.bidder is not None else None
        try:
            result = replay_deal(rules, hands, trump, leader, tricks, stock=self.d.stock, names=list(table.seating),
                                 bidder=bidder)
        except IllegalPlayError as exc:
            at = play_node.items[exc.trick - 1] if 0 < exc.trick <= len(play_node.items) else play_node
            raise self.err(at, exc.detail, trick=exc.trick) from None
        except PinochleError as exc:
            raise self.err(play_node, str(exc), "play") from None
        self.d.play, self.d.leader = tuple(tuple(t) for t in tricks), leader
        counters = [0] * self.sides
        won = [0] * self.sides
        for index, (c, t) in enumerate(zip(result.side_counters(rules), result.side_tricks(rules), strict=True)):
            side = table.side_of_partnership(index)
            counters[side] += c
            won[side] += t
        if self.d.buried is not None and rules.bury is not None:
            # the buried counters: the bidder's, or the last trick's winner's
            seat = bidder if rules.bury.counters == "bidder" else result.winners[-1]
            if seat is not None:
                counters[table.side_of_seat(seat)] += bury.buried_counters(rules, self.d.buried)
        return counters, won

    def score(self, facts: DealFacts) -> DealScore:
        """The deal's score; a fact the score depends on but the record lacks is asked for by name."""
        try:
            return score_deal(self.rules, facts)
        except MissingFactError as exc:
            name = self.table.sides[exc.side]
            taken = facts.counters[exc.side] if facts.counters is not None else 0
            if exc.fact == "tricks" and taken:
                message = (f"{name}'s {taken} counters may all be in the buried cards; add tricks: to say whether "
                           "they took a trick (the score depends on it)")
            elif exc.fact == "tricks":
                message = (f"{name} took no counters; add tricks: to say whether they took a trick "
                           "(the score depends on it)")
            else:
                message = (f"{name} keep their meld of {facts.meld[exc.side]} only if it is all "
                           f"{', '.join(self.rules.scoring.kept_if_only)}; give that meld as the cards shown "
                           "(by player) to say which")
            at = {"tricks": self.get("counters"), "meld": self.get("meld")}[exc.fact]
            raise self.err(at, message, exc.field) from None
        except ScoringError as exc:
            raise self.err(None, str(exc), exc.field) from None
