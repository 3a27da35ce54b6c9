"""The most meld one hand of a ruleset can show, over every trump, exactly, and a hand that shows it.

Classes are independent and within a class a card counts once per copy held, so a hand shows a choice of
instances (with copies) exactly when it holds, of each card, the most copies any one class of the choice uses: the
maximum is the best choice whose cards fit in a hand, found by a branch and bound over the instances; the rest of
the hand adds nothing. Worked out once per ruleset. Nothing here raises on purpose.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from ..cards import ALL_CARDS, Hand, Suit
from ..ruleset import Ruleset
from .components import priced_groups

__all__ = ["MostMeld", "most_meld"]


@dataclass(frozen=True)
class MostMeld:
    """The most meld one hand of a ruleset can show, over every trump (exact), and a hand that shows it."""

    total: int
    trump: Suit | None
    hand: Hand


@lru_cache(maxsize=32)
def most_meld(rules: Ruleset) -> MostMeld:
    """The exact maximum of ``meld`` over every hand of ``hand_size`` cards of the pack and every trump.

    Classes are independent and within a class a card counts once per copy held, so a hand shows
    a choice of instances (with copies) exactly when it holds, of each card, the most copies any
    one class of the choice uses: the maximum is the best choice whose cards fit in a hand
    (``_most_for``, a branch and bound over the instances); the rest of the hand adds nothing.
    Worked out once per ruleset.
    """
    best = MostMeld(0, None, Hand([]))
    for trump in rules.suits:
        total, counts = _most_for(rules, trump)
        if total > best.total:
            best = MostMeld(total, trump, Hand(ALL_CARDS[c] for c, n in counts.items() for _ in range(n)))
    return best


def _most_for(rules: Ruleset, trump: Suit) -> tuple[int, dict[int, int]]:
    """The best meld total with ``trump`` whose cards fit in one hand, and those cards (counts by index)."""
    insts = [inst for group in priced_groups(rules, trump) for inst in group if max(inst.values) > 0]
    # the richest per card first: good totals early prune the rest
    insts.sort(key=lambda i: -max(i.values) / len(i.cards))
    rest = [0] * (len(insts) + 1)
    for j in range(len(insts) - 1, -1, -1):
        rest[j] = rest[j + 1] + max(insts[j].values)
    used: dict[str, Counter[int]] = {inst.klass: Counter() for inst in insts}
    held: Counter[int] = Counter()
    found: list[tuple[int, dict[int, int]]] = [(0, {})]

    def go(j: int, value: int, size: int) -> None:
        if value > found[0][0]:
            found[0] = (value, dict(held))
        if j == len(insts) or value + rest[j] <= found[0][0]:
            return
        inst, mine = insts[j], used[insts[j].klass]
        for n in range(len(inst.values) - 1, 0, -1):
            after = {c: mine[c] + n * k for c, k in inst.need.items()}
            grow = sum(max(0, v - held[c]) for c, v in after.items())
            if size + grow > rules.hand_size:
                continue
            before = {c: (mine[c], held[c]) for c in after}
            for c, v in after.items():
                mine[c], held[c] = v, max(held[c], v)
            go(j + 1, value + inst.values[n], size + grow)
            for c, (m, h) in before.items():
                mine[c], held[c] = m, h
        go(j + 1, value, size)

    go(0, 0, 0)
    return found[0]
