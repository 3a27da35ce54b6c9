"""Conditions on the hands the estimating player cannot see: ``partner: meld >= 100 and aces >= 2``.

``Given.parse``/``str`` read and write one seat's conditions (``WHO: CLAUSE and CLAUSE …``);
``Clause`` is one test on a hand (meld in the trump estimated, cards held or lacked, a rank's
or a suit's count, counter points) and ``Clause.test`` evaluates it on a batch of hands as
``(N, 24)`` counts. Seats are relative to the estimating player (``seat_of``). Text that cannot
be read, or a seat the game does not have, raises ``ConditionError`` (parameter ``given``).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..arrays import BoolArray, IntArray
from ..cards import N_RANKS, Card, Rank, Suit, format_cards, parse_cards
from ..errors import CardError, ConditionError, Message
from ..meld import meld_table
from ..ruleset import Ruleset

__all__ = ["KINDS", "OPS", "SEATS", "Clause", "Given", "seat_of", "seat_words"]

OPS: dict[str, Callable[[IntArray, int], BoolArray]] = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "==": operator.eq}
SEATS = ("partner", "left", "right")
# a clause counts one of these; "rank" and "suit" name theirs in the plural (aces, hearts)
KINDS = ("meld", "holds", "lacks", "rank", "suit", "counters")
# the trump a meld clause is tested in: one suit, a suit per hand (int array), or none (no meld clause)
Trump = Suit | IntArray | None
_RANK_PLURALS = {f"{r.word}s": r for r in Rank}
_SUIT_PLURALS = {s.word: s for s in Suit}
_COUNT_RE = re.compile(r"^([a-z]+)\s*(>=|<=|==|>|<)\s*(-?\d+)$")
_CARDS_RE = re.compile(r"^(holds|lacks)\s+(.+)$")


@dataclass(frozen=True)
class Clause:
    """One test on a hand: ``meld``/``counters``/``rank``/``suit`` ``op`` ``number``, or ``holds``/``lacks``
    ``cards``."""

    kind: str
    op: str = ">="
    number: int = 0
    cards: tuple[Card, ...] = ()
    rank: Rank | None = None
    suit: Suit | None = None

    @classmethod
    def parse(cls, text: str) -> Clause:
        words = " ".join(text.split()).lower()
        cards = _CARDS_RE.match(words)
        if cards:
            try:
                named = tuple(parse_cards(cards.group(2)))
            except CardError as exc:
                raise ConditionError(Message(f'"{text}": {exc}'), parameter="given") from None
            return cls(cards.group(1), cards=tuple(sorted(named)))
        count = _COUNT_RE.match(words)
        if not count:
            raise ConditionError(Message(f'"{text}" is not a condition: give "meld OP N", "holds CARDS", '
                                         '"lacks CARDS", "aces OP N" (any rank), "hearts OP N" (any suit) or '
                                         f'"counters OP N", OP one of {" ".join(OPS)}'), parameter="given")
        what, op, number = count.group(1), count.group(2), int(count.group(3))
        if what in ("meld", "counters"):
            return cls(what, op, number)
        if what in _RANK_PLURALS:
            return cls("rank", op, number, rank=_RANK_PLURALS[what])
        if what in _SUIT_PLURALS:
            return cls("suit", op, number, suit=_SUIT_PLURALS[what])
        raise ConditionError(Message(f'"{text}": "{what}" is not counted: meld, counters, a rank '
                                     f'({", ".join(_RANK_PLURALS)}) or a suit ({", ".join(_SUIT_PLURALS)})'),
                             parameter="given")

    def __str__(self) -> str:
        if self.kind in ("holds", "lacks"):
            return f"{self.kind} {format_cards(self.cards, ascii=True)}"
        return f"{self.counted} {self.op} {self.number}"

    @property
    def counted(self) -> str:
        """What a counting clause counts, as written: ``meld``, ``aces``, ``hearts``, ``counters``."""
        if self.rank is not None:
            return f"{self.rank.word}s"
        if self.suit is not None:
            return self.suit.word
        return self.kind

    @property
    def needs_trump(self) -> bool:
        return self.kind == "meld"

    def count(self, rules: Ruleset, counts: IntArray, trump: Trump) -> IntArray:
        """The counted quantity of each hand in ``counts`` ``(N, 24)`` (meld: in ``trump``, one suit or one a hand)."""
        if self.kind != "meld":
            weighed: IntArray = counts @ self.weights(rules)
            return weighed
        assert trump is not None
        table = meld_table(rules)
        if isinstance(trump, Suit):
            total: IntArray = table.total_batch(counts, trump)
            return total
        total = np.zeros(len(counts), dtype=np.int64)
        for t in np.unique(trump).tolist():
            rows = trump == t
            total[rows] = table.total_batch(counts[rows], Suit(t))
        return total

    def weights(self, rules: Ruleset) -> IntArray:
        """Per card index, what one copy adds to a counting clause other than meld."""
        w = np.zeros(N_RANKS * 4, dtype=np.int64)
        for card in rules.deck.cards():
            if self.kind == "counters":
                w[card.index] = rules.counter_value(card)
            elif card.rank == self.rank or card.suit == self.suit:
                w[card.index] = 1
        return w

    def test(self, rules: Ruleset, counts: IntArray, trump: Trump) -> BoolArray:
        """Which hands in ``counts`` ``(N, 24)`` meet the clause (``trump``: the suit estimated, for meld)."""
        if self.kind in ("holds", "lacks"):
            need = np.zeros(counts.shape[1], dtype=np.int64)
            for card in self.cards:
                need[card.index] += 1
            if self.kind == "holds":
                ok: BoolArray = np.all(counts >= need, axis=1)
                return ok
            lacked: BoolArray = np.all(counts[:, need > 0] == 0, axis=1)
            return lacked
        met: BoolArray = OPS[self.op](self.count(rules, counts, trump), self.number)
        return met


@dataclass(frozen=True)
class Given:
    """The conditions on one seat's hand: ``who`` (``partner``, ``left``, ``right``) and clauses all met."""

    who: str
    clauses: tuple[Clause, ...]

    @classmethod
    def parse(cls, text: str) -> Given:
        who, colon, rest = text.partition(":")
        who = who.strip().lower()
        if not colon or who not in SEATS:
            raise ConditionError(Message(f'"{text}": start with the seat and a colon, one of '
                                         f'{", ".join(s + ":" for s in SEATS)}'), parameter="given")
        parts = [p for p in re.split(r"\band\b", rest, flags=re.IGNORECASE)]
        if any(not p.strip() for p in parts):
            raise ConditionError(Message(f'"{text}": a condition is missing (clauses are joined with "and")'),
                                 parameter="given")
        return cls(who, tuple(Clause.parse(p) for p in parts))

    def __str__(self) -> str:
        return f"{self.who}: " + " and ".join(str(c) for c in self.clauses)

    def test(self, rules: Ruleset, counts: IntArray, trump: Trump) -> BoolArray:
        ok = np.ones(len(counts), dtype=bool)
        for clause in self.clauses:
            ok &= clause.test(rules, counts, trump)
        return ok


def seat_words(rules: Ruleset) -> tuple[str, ...]:
    """The relative seats this game has: ``partner`` only where the estimating player has exactly one."""
    return SEATS if len(rules.partner_seats(0)) == 1 else SEATS[1:]


def seat_of(rules: Ruleset, who: str) -> int:
    """The seat number of ``who`` relative to seat 0 (play goes to the left: seat 1 is on the left)."""
    if who not in seat_words(rules):
        raise ConditionError(Message(f"{who}: the {rules.name} game has no such seat (seats: "
                                     f"{', '.join(seat_words(rules))})"),
                             parameter="given")
    if who == "partner":
        return rules.partner_seats(0)[0]
    return 1 if who == "left" else rules.players - 1


def merged(givens: Sequence[Given], rules: Ruleset) -> dict[int, list[Given]]:
    """The conditions by seat number."""
    out: dict[int, list[Given]] = {}
    for g in givens:
        out.setdefault(seat_of(rules, g.who), []).append(g)
    return out
