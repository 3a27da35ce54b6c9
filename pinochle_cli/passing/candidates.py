"""Every distinct pass: the ``k``-card sub-multisets of a hand, equal cards counted once.

``passes(hand, k)`` lists them in a fixed order (by card index), each a sorted tuple of card
indices; ``C(12, 4) = 495`` when no card is doubled, fewer when copies are equal. Raises nothing;
``k`` larger than the hand gives none.
"""

from __future__ import annotations

from ..cards import Hand

__all__ = ["Pass", "passes"]

# a pass: the card indices sent, sorted (a card held twice may appear twice)
Pass = tuple[int, ...]


def passes(hand: Hand, k: int) -> list[Pass]:
    """The distinct ``k``-card passes from ``hand``, in lexicographic order of card indices."""
    held = [(i, n) for i, n in enumerate(hand.counts) if n]
    out: list[Pass] = []

    def go(j: int, chosen: list[int]) -> None:
        if len(chosen) == k:
            out.append(tuple(chosen))
            return
        if j == len(held):
            return
        index, copies = held[j]
        for n in range(min(copies, k - len(chosen)), -1, -1):
            go(j + 1, chosen + [index] * n)

    go(0, [])
    return sorted(out)
