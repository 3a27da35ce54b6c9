"""Components of a meld table: what one hand's meld is solved on, for one trump.

``priced_groups(rules, trump)`` gives the meld table's instances (``Instance``: one card set of a combination with
its prices for 0‥max copies), those of one class that share a card in one group; ``component_for`` makes each
group a ``Component``, shared by every trump and ruleset with the same cards and prices. A component answers the
exact best value (and an optimal choice) for any count vector of its cards by a dynamic programme memoised on
(instance, counts left); a small one (``tabulated``) also has the table of every count state, built with numpy
by ``meld.batches`` on first use. Nothing here raises on purpose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import Card, Suit

# TABLE_LIMIT: larger components are searched per hand
from ..ruleset import TABLE_LIMIT, Ruleset

# one hand's meld needs no numpy: only a component's table loads it (``meld.batches``)
if TYPE_CHECKING:
    from ..arrays import IntArray

__all__ = ["Component", "Instance", "Solved", "component_for", "priced_groups"]


@dataclass(frozen=True)
class Instance:
    """One concrete card set of a combination for a trump, with its prices for 0‥max copies."""

    # position in rules.meld
    combo: int
    name: str
    klass: str
    # sorted, with repeats
    cards: tuple[Card, ...]
    points: tuple[int, ...]
    # value of n copies, n = 0 … max_copies
    values: tuple[int, ...]

    @property
    def need(self) -> Counter[int]:
        return Counter(c.index for c in self.cards)


def priced_groups(rules: Ruleset, trump: Suit) -> list[list[Instance]]:
    """The meld table's instances for ``trump``, those of one class sharing a card in one group
    (``Ruleset.meld_groups``), with their prices for 0‥max copies."""
    out = []
    for group in rules.meld_groups(trump):
        insts = []
        for i, cards in group:
            combo = rules.meld[i]
            most = min(rules.deck.copies // n for n in Counter(cards).values())
            insts.append(Instance(i, combo.name, combo.klass, cards, combo.points,
                                   tuple(combo.value(n) for n in range(most + 1))))
        out.append(insts)
    return out


class Solved:
    """What a component's cards and prices determine, shared by every component with the same ones:
    the best (value, copies per instance) of each count state met so far, and the table of every
    state for batches (``meld.batches``, built with numpy on first use)."""

    def __init__(self) -> None:
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[int, tuple[int, ...]]] = {}
        self.table: IntArray | None = None


class Component:
    """The exact best of one component for any count vector of its cards.

    One hand: a dynamic programme over the instances, memoised on (instance, counts left) — kept
    between hands when the component is small enough to tabulate (``tabulated``), so that it never
    outgrows the table. Batches of hands: table lookups (``meld.batches``); an untabulated component
    is solved per hand.
    """

    def __init__(self, instances: tuple[Instance, ...], copies: int) -> None:
        self.instances = instances
        self.cards: tuple[int, ...] = tuple(sorted({c for inst in instances for c in inst.need}))
        self.radix = copies + 1
        self.size = self.radix ** len(self.cards)
        self.strides: tuple[int, ...] = tuple(self.radix ** (len(self.cards) - 1 - k) for k in range(len(self.cards)))
        self.needs = tuple(tuple(inst.need.get(c, 0) for c in self.cards) for inst in instances)
        self.tabulated = self.size * (len(instances) + 1) <= TABLE_LIMIT
        self.solved = Solved()

    @property
    def table(self) -> IntArray:
        """The best value of every count state (mixed radix, ``strides``): tabulated components only."""
        if self.solved.table is None:
            # numpy: batches only
            from .batches import build_table

            self.solved.table = build_table(self)
        return self.solved.table

    def state(self, counts: Sequence[int]) -> tuple[int, ...]:
        return tuple(min(int(counts[c]), self.radix - 1) for c in self.cards)

    def value(self, counts: Sequence[int]) -> int:
        return self._search(self.state(counts))[0]

    def best(self, counts: Sequence[int]) -> list[tuple[Instance, int]]:
        """An optimal choice: (instance, copies) pairs with copies > 0; of the instances in table
        order, each takes the most copies an optimum allows."""
        choice = self._search(self.state(counts))[1]
        return [(inst, n) for inst, n in zip(self.instances, choice, strict=True) if n]

    def _search(self, state: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        """Exact depth-first search over the instances, memoised on (instance, counts left)."""
        memo = self.solved.memo if self.tabulated else {}

        def go(j: int, left: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
            if j == len(self.instances):
                return 0, ()
            key = (j, left)
            if key in memo:
                return memo[key]
            inst, need = self.instances[j], self.needs[j]
            best: tuple[int, tuple[int, ...]] = (-1, ())
            for n in range(len(inst.values) - 1, -1, -1):
                rest = tuple(s - n * k for s, k in zip(left, need, strict=True))
                if min(rest, default=0) < 0:
                    continue
                val, choice = go(j + 1, rest)
                if inst.values[n] + val > best[0]:
                    best = (inst.values[n] + val, (n, *choice))
            memo[key] = best
            return best

        return go(0, state)


_COMPONENTS: dict[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], Component] = {}


def component_for(instances: list[Instance], copies: int) -> Component:
    """Components are shared by every trump and ruleset with the same cards and prices."""
    key = (((copies,), ()), *(((*(c.index for c in i.cards),), i.values) for i in instances))
    comp = _COMPONENTS.get(key)
    if comp is None:
        comp = _COMPONENTS[key] = Component(tuple(instances), copies)
    # same cards and prices, other names: share what is solved
    elif comp.instances != tuple(instances):
        twin = Component.__new__(Component)
        twin.__dict__.update(comp.__dict__)
        twin.instances = tuple(instances)
        comp = twin
    return comp
