"""The meld engine of a ruleset: the largest meld a hand shows for a trump, and the combinations that make it.

Within a class a card counts at most once; classes are independent, so the best total is the sum of each class's
best, and within a class the instances that share a card form independent components (``meld.components``), each
solved exactly. ``meld_table(rules)`` is the (cached) engine: ``result`` of one hand, ``total``/``totals`` of a
count vector, ``total_batch``/``totals_batch`` of many hands (numpy, ``meld.tables``, loaded only then).
``check_cards`` raises ``CardError`` for cards the pack lacks or (``limit``) too many for a hand; ``MeldTable.plan``
for a suit not in the pack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..cards import Card, Hand, Suit, as_suit, format_cards
from ..errors import CardError, MeldError
from ..ruleset import Ruleset
from .components import Component, component_for, priced_groups

# one hand's meld needs no numpy: only batches of hands load it (``meld.tables``)
if TYPE_CHECKING:
    import numpy.typing as npt

    from ..arrays import IntArray

__all__ = [
    "MeldItem", "MeldResult", "MeldTable", "as_trump", "best_trump", "check_cards", "meld", "meld_by_trump",
    "meld_table", "multiple_name", "nameable_trumps", "shown_cards",
]


# --------------------------------------------------------------------------- results

@dataclass(frozen=True)
class MeldItem:
    """One declaration: ``copies`` copies of one combination instance shown together."""

    name: str
    klass: str
    cards: tuple[Card, ...]
    points: int
    copies: int

    @property
    def title(self) -> str:
        """``run``, ``double run``, ``triple run`` …: the name a table shows."""
        return multiple_name(self.name, self.copies)


@dataclass(frozen=True)
class MeldResult:
    trump: Suit | None
    melds: tuple[MeldItem, ...]
    total: int

    def only(self, names: Iterable[str]) -> bool:
        """True when there is meld and every item of it is one of ``names`` (e.g. only dix)."""
        allowed = set(names)
        return bool(self.melds) and all(m.name in allowed for m in self.melds)


def multiple_name(name: str, copies: int) -> str:
    prefix = {1: "", 2: "double ", 3: "triple ", 4: "quadruple "}.get(copies, f"{copies}× ")
    return prefix + name


# --------------------------------------------------------------------------- hands

def check_cards(rules: Ruleset, cards: Hand | Iterable[Card] | str, *, limit: bool = False) -> Hand:
    """The cards (or their notation) as a hand of ``rules``'s pack; with ``limit``, no larger than a player holds
    at the meld (a dealt hand; the bidder's with the widow). Raises ``CardError`` for a card the pack lacks, more
    copies than it holds, or (``limit``) too many cards."""
    hand = rules.deck.check(cards)
    if limit and len(hand) > rules.largest_hand:
        raise CardError(f"{len(hand)} cards given ({format_cards(hand)}); a {rules.name} hand holds at most "
                        f"{rules.hand_sizes_words}")
    return hand


# --------------------------------------------------------------------------- the table

class MeldTable:
    """The meld engine of one ruleset: components per trump, built on first use."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.suits: tuple[Suit, ...] = tuple(rules.suits)
        self._plans: dict[Suit, list[Component]] = {}
        self._all: tuple[list[Component], list[list[int]]] | None = None

    def plan(self, trump: Suit) -> list[Component]:
        """The components summed for ``trump``; raises ``CardError`` for a suit not in the pack."""
        plan = self._plans.get(trump)
        if plan is None:
            if trump not in self.suits:
                raise CardError(f"{trump.word} ({trump.letter}) is not a suit of {self.rules.deck.name}")
            plan = [component_for(group, self.rules.deck.copies) for group in priced_groups(self.rules, trump)]
            self._plans[trump] = plan
        return plan

    def _unique(self) -> tuple[list[Component], list[list[int]]]:
        """Distinct components over all trumps, and for each suit (by int) the ones it sums."""
        if self._all is None:
            comps: list[Component] = []
            where: dict[int, int] = {}
            per_suit: list[list[int]] = [[] for _ in Suit]
            for suit in self.suits:
                for comp in self.plan(suit):
                    key = id(comp.solved)
                    if key not in where:
                        where[key] = len(comps)
                        comps.append(comp)
                    per_suit[int(suit)].append(where[key])
            self._all = (comps, per_suit)
        return self._all

    def total(self, counts: Sequence[int], trump: Suit) -> int:
        """The exact meld total of a count vector (24 counts by card index) for one trump."""
        return sum(comp.value(counts) for comp in self.plan(trump))

    def totals(self, counts: Sequence[int]) -> list[int]:
        """Totals for every trump, indexed by ``int(Suit)`` (0 for a suit not in the pack)."""
        comps, per_suit = self._unique()
        vals = [comp.value(counts) for comp in comps]
        return [sum(vals[i] for i in ids) for ids in per_suit]

    def total_batch(self, counts: npt.ArrayLike, trump: Suit) -> IntArray:
        """Exact totals of many hands: ``counts`` shape (N, 24), each count within the pack."""
        # numpy: batches only
        from .tables import total_batch

        return total_batch(self.plan(trump), counts, self.rules.deck.copies)

    def totals_batch(self, counts: npt.ArrayLike) -> IntArray:
        """Exact totals of many hands for every trump at once: shape (N, 4), column ``int(Suit)``
        (0 for a suit not in the pack). Components common to several trumps are evaluated once."""
        # numpy: batches only
        from .tables import totals_batch

        comps, per_suit = self._unique()
        return totals_batch(comps, per_suit, counts, self.rules.deck.copies)

    def result(self, hand: Hand, trump: Suit) -> MeldResult:
        """The best declaration of ``hand`` (already checked) with its items."""
        counts = hand.counts
        items: list[tuple[int, MeldItem]] = []
        for comp in self.plan(trump):
            for inst, n in comp.best(counts):
                for size in _split(inst.points, n):
                    cards = tuple(sorted(inst.cards * size))
                    items.append((inst.combo, MeldItem(inst.name, inst.klass, cards, _group_value(inst.points, size),
                                                       size)))
        items.sort(key=lambda t: (t[0], t[1].cards, -t[1].copies))
        melds = tuple(m for _, m in items)
        return MeldResult(trump, melds, sum(m.points for m in melds))


def _group_value(points: tuple[int, ...], size: int) -> int:
    return points[size - 1]


@lru_cache(maxsize=1024)
def _split(points: tuple[int, ...], copies: int) -> tuple[int, ...]:
    """Group sizes (largest first) that price ``copies`` copies best; fewer groups on a tie."""
    best: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
    for k in range(1, copies + 1):
        options = []
        for g in range(1, min(k, len(points)) + 1):
            val, groups, parts = best[k - g]
            options.append((val + points[g - 1], -(groups + 1), tuple(sorted((*parts, g), reverse=True))))
        v, ng, parts = max(options)
        best.append((v, -ng, parts))
    return best[copies][2]


@lru_cache(maxsize=32)
def meld_table(rules: Ruleset) -> MeldTable:
    """The (cached) engine of a ruleset."""
    return MeldTable(rules)


def as_trump(trump: Suit | str) -> Suit:
    """A trump given as a ``Suit`` or its letter, symbol or name (``MeldError`` without one)."""
    suit = as_suit(trump)
    if suit is None:
        raise MeldError("meld is counted with a trump suit: none was given")
    return suit


def meld(rules: Ruleset, hand: Hand | Iterable[Card] | str, trump: Suit | str) -> MeldResult:
    """The largest meld ``hand`` (a ``Hand``, cards, or their notation) can show with ``trump`` (a ``Suit``, or
    ``"H"``, ``"♥"``, ``"hearts"``), and the combinations that make it up."""
    return meld_table(rules).result(check_cards(rules, hand), as_trump(trump))


def shown_cards(rules: Ruleset, hand: Hand, trump: Suit | str) -> Hand:
    """The cards ``hand`` shows with its best meld: of each card, the most copies one class of meld uses."""
    need: Counter[tuple[str, Card]] = Counter()
    for item in meld(rules, hand, as_trump(trump)).melds:
        for card in item.cards:
            need[(item.klass, card)] += 1
    most: dict[Card, int] = {}
    for (_, card), n in need.items():
        most[card] = max(most.get(card, 0), n)
    return Hand([c for c, n in most.items() for _ in range(n)])


def meld_by_trump(rules: Ruleset, hand: Hand | Iterable[Card]) -> dict[Suit, MeldResult]:
    """``meld`` for every suit of the pack as trump."""
    checked = check_cards(rules, hand)
    table = meld_table(rules)
    return {s: table.result(checked, s) for s in rules.suits}


def best_trump(rules: Ruleset, hand: Hand | Iterable[Card]) -> Suit:
    """The suit whose meld with ``hand`` is largest (of a tie, the first in the pack's order),
    whether or not the bidder may name it (``nameable_trumps``)."""
    results = meld_by_trump(rules, hand)
    return max(results, key=lambda s: (results[s].total, -rules.suits.index(s)))


def nameable_trumps(rules: Ruleset, hand: Hand | Iterable[Card]) -> list[Suit]:
    """The suits that may be trump with ``hand``, in the pack's order: where the bidder names trump,
    those the ruleset lets them name (e.g. only a suit held with K and Q); otherwise every suit."""
    checked = check_cards(rules, hand)
    return rules.eligible_trumps(checked) if rules.trump_source == "bid" else list(rules.suits)
