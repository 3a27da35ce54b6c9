"""The meld engine over batches of hands (numpy): a table of every count state per component.

A component's table holds the best value of each count vector of its cards, indexed by the
mixed-radix counts (``Component.strides``); it is the same dynamic programme as ``meld`` solves
for one hand, run over every state at once by array shifts. A batch's totals are then a few
gathers. A component too large to tabulate is solved per hand. The components are read through
``Tabulable`` (what ``meld.components.Component`` offers): this module imports nothing of them.
``total_batch`` and ``totals_batch`` raise ``ValueError`` for counts of the wrong shape or range.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from ..arrays import IntArray
from ..cards import N_CARDS

__all__ = ["Tabulable", "build_table", "total_batch", "totals_batch"]


class Priced(Protocol):
    """An instance of a combination: the values of 0‥max copies of it."""

    @property
    def values(self) -> tuple[int, ...]: ...


class Tabulable(Protocol):
    """A component of a meld table as this module reads it (``meld.components.Component``)."""

    @property
    def instances(self) -> Sequence[Priced]: ...

    @property
    def cards(self) -> tuple[int, ...]: ...

    @property
    def radix(self) -> int: ...

    @property
    def strides(self) -> tuple[int, ...]: ...

    @property
    def needs(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def tabulated(self) -> bool: ...

    @property
    def table(self) -> IntArray: ...

    def value(self, counts: Sequence[int]) -> int: ...


def build_table(comp: Tabulable) -> IntArray:
    """The best value of every count state of ``comp``: instances from the last to the first, each
    adding 0‥max copies of itself to the best of the instances after it."""
    shape = (comp.radix,) * len(comp.cards)
    nxt = np.zeros(shape, dtype=np.int64)
    for inst, need in zip(reversed(comp.instances), reversed(comp.needs), strict=True):
        cur = nxt.copy()
        for n in range(1, len(inst.values)):
            used = [n * k for k in need]
            if any(u >= comp.radix for u in used):
                break
            dst = tuple(slice(u, None) for u in used)
            src = tuple(slice(0, comp.radix - u) for u in used)
            np.maximum(cur[dst], nxt[src] + inst.values[n], out=cur[dst])
        nxt = cur
    return nxt.reshape(-1)


def _columns(counts: npt.ArrayLike, copies: int) -> tuple[IntArray, npt.NDArray[np.int32]]:
    """The counts checked, and transposed to one contiguous int32 row per card (fast gathers)."""
    arr = np.asarray(counts)
    if arr.ndim != 2 or arr.shape[1] != N_CARDS:
        raise ValueError(f"counts must have shape (N, {N_CARDS}), got {arr.shape}")
    cols = np.ascontiguousarray(arr.T, dtype=np.int32)
    if cols.size and (cols.min() < 0 or cols.max() > copies):
        raise ValueError(f"counts must lie in 0..{copies}")
    return arr, cols


def _component_batch(comp: Tabulable, arr: IntArray, cols: npt.NDArray[np.int32]) -> IntArray:
    if not comp.tabulated:
        return np.fromiter((comp.value(row) for row in np.asarray(arr, dtype=np.int64)), dtype=np.int64,
                           count=len(arr))
    idx = cols[comp.cards[0]] * np.int32(comp.strides[0])
    for card, stride in zip(comp.cards[1:], comp.strides[1:], strict=True):
        idx += cols[card] * np.int32(stride)
    out: IntArray = comp.table[idx]
    return out


def total_batch(plan: Sequence[Tabulable], counts: npt.ArrayLike, copies: int) -> IntArray:
    """Exact totals of many hands (``counts`` shape (N, 24)) summed over the components of ``plan``."""
    arr, cols = _columns(counts, copies)
    out = np.zeros(arr.shape[0], dtype=np.int64)
    for comp in plan:
        out += _component_batch(comp, arr, cols)
    return out


def totals_batch(comps: Sequence[Tabulable], per_suit: Sequence[Sequence[int]], counts: npt.ArrayLike,
                 copies: int) -> IntArray:
    """Exact totals of many hands for every trump: shape (N, 4), column ``int(Suit)`` the sum of the
    components ``per_suit`` names (each evaluated once)."""
    arr, cols = _columns(counts, copies)
    values = [_component_batch(comp, arr, cols) for comp in comps]
    out = np.zeros((arr.shape[0], len(per_suit)), dtype=np.int64)
    for suit, ids in enumerate(per_suit):
        for i in ids:
            out[:, suit] += values[i]
    return out
