"""Reading one deal of a record: where problems go, the deal as read so far, and the field readers every section uses.

``FieldReader`` holds the deal being read (``Deal``) with its ruleset, table and node, and reads one field at a
time: its node, its shape by the record layout, a player at the table, a team or player named, cards of the pack.
Each raises the ``RecordError`` it finds, located at the field's line, with the deal and field; ``Problems``
keeps the problems a forgiving reader goes on after. The sections that read a deal are built on it: the meld
(``dealmeld``), the play and counters (``dealplay``) and the rest (``dealcheck``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card, Hand, Suit, parse_cards
from ..errors import CardError, RecordError, TableNameError
from ..ruleset import Ruleset
from ..scoring import DealFacts, DealScore, Standing
from ..yamlsource import Node
from . import widowcheck
from .layout import CARDS, DEAL, field_of, located, shaped
from .model import DealRecord
from .table import Named, Table

__all__ = ["Deal", "FieldReader", "Problems"]


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


class FieldReader:
    """One deal of a record and the readers of its fields (the sections subclass it)."""

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

    def raise_problem(self, problem: widowcheck.Problem | None) -> None:
        if problem is not None:
            field, message = problem
            raise self.err(self.get(field), message, field)

    def buried_of(self, side: int | None) -> int | None:
        """The counters in the buried cards that count for ``side`` by the rules (0 for a side they do not
        count for); None when they count for it but are not known."""
        rules, d = self.rules, self.d
        if rules.bury is None or rules.bury.counters != "bidder" or d.bidder is None \
                or side != self.table.side_of(d.bidder):
            return 0
        return None if d.buried is None else widowcheck.buried_counters(rules, d.buried)
