"""The search's table: the keys of a position, the rows that keep its bounds, and the suit keys' cache.

A position at a trick boundary is keyed by its leader and, per suit, its cards still out renumbered strongest
first, each place keyed by its holder and value class (``zob``, random words): positions that differ only in
cards already played share a key. ``_suit_key`` computes a suit's two words, ``_suit_key_kept`` through the cache
``kept`` (``empty_suit_cache``: a suit's key depends only on who holds each of its cards), ``_rekey`` after a
trick (only the suits it touched). The table ``tt`` holds ``BUCKET`` rows a cache line, each
``[check word, bounds]`` (``layout.TT_*``); ``_close`` records a node's bound, replacing the row least worth
keeping (``_victim``: the fewest tricks left, or one of an earlier generation). Each is compiled into ``reach``
(``inlined``); nothing here raises on purpose. How the keys merge positions: docs/solver.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import N_RANKS, N_SUITS, SUIT_MASK
from ..game.kernels import inlined, low_bit
from .search_layout import (
    BUCKET,
    KEY,
    LEAD_PLACE,
    LEFT,
    LIMITS,
    LOWER,
    NEED,
    PAR_CLASSES,
    PAR_PLAYERS,
    SEAT_BITS,
    SEAT_SHIFT,
    SLOT,
    STAT_GENERATION,
    TAB_CLASS,
    TT_GENERATION,
    TT_LEFT,
    TT_LIMITS,
    TT_LOWER,
    UPPER,
    _held_any,
)

__all__ = ["SUIT_CACHE_BITS", "empty_suit_cache"]

# the suit keys' cache: 2^bits rows of [holders of a suit's ranks 0-2, of ranks 3-5 | suit << 60, key words]
SUIT_CACHE_BITS = 10
# the holders of half a suit's ranks fill one word (``who`` below 2^16: at most four players)
_WHO_WIDTH = 16
_HALF = N_RANKS // 2


@inlined
def _suit_key(s: int, who: Any, held_any: int, par: Any, tab: Any, order: Any, ranked: Any, zob: Any,
              out: Any) -> None:
    """The table key of suit ``s`` (its cards still out, renumbered; ``held_any``: the cards in some hand) into
    ``out[s]``."""
    out[s, 0], out[s, 1], _weakest = _suit_words(s, LEAD_PLACE, who, held_any, par, tab, order, ranked, zob)


@inlined
def _suit_words(s: int, limit: int, who: Any, held_any: int, par: Any, tab: Any, order: Any, ranked: Any,
                zob: Any) -> tuple[int, int, int]:
    """The two key words of the first ``limit`` places of suit ``s`` (its cards still out, strongest first, a place
    a copy; all: ``LEAD_PLACE``), and the card of the last of them (-1: none). Stopping between two copies of a card
    held in two hands (they tie) changes the words: those places are not the same as places that do not tie."""
    k1 = 0
    k2 = 0
    weakest = -1
    classes = par[PAR_CLASSES]
    # zob[suit, place, tag, stream] flat: the words of one place
    step = 4 * par[PAR_PLAYERS] * classes
    at = s * (LEAD_PLACE + 1) * step
    m = ranked[(held_any >> (N_RANKS * s)) & SUIT_MASK]
    while m != 0 and limit > 0:
        weakest = order[s, low_bit(m)]
        c = np.uint64(weakest)
        m &= m - 1
        w = who[c]
        tag = tab[TAB_CLASS, c]
        # the first holder's bits (a card in some hand)
        first = (low_bit(w) >> SEAT_SHIFT) * SEAT_BITS
        # copies in two hands tie
        ties = classes if w & ~(((1 << SEAT_BITS) - 1) << first) != 0 else 0
        while w != 0 and limit > 0:
            i = np.uint64(at + ((low_bit(w) >> SEAT_SHIFT) * 2 * classes + tag) * 2)
            k1 ^= zob[i]
            k2 ^= zob[i + np.uint64(1)]
            w &= w - 1
            at += step
            limit -= 1
            # the next copy ties with this one?
            tag = tab[TAB_CLASS, c] + ties
        if w != 0 and ties != 0:
            k1 = ~k1
    return k1, k2, weakest


@inlined
def _suit_key_kept(s: int, who: Any, held_any: int, par: Any, tab: Any, order: Any, ranked: Any, zob: Any,
                   out: Any, kept: Any) -> None:
    """``_suit_key`` through the cache ``kept`` (``empty_suit_cache``): a suit's key depends only on who holds
    each of its cards, which the row's first two words record in full (not with more than four players)."""
    narrow = par[PAR_PLAYERS] * SEAT_BITS <= _WHO_WIDTH
    first = np.uint64(s * N_RANKS)
    low, high = 0, s << 60
    for r in range(_HALF):
        low |= who[first + np.uint64(r)] << (_WHO_WIDTH * r)
        high |= who[first + np.uint64(r + _HALF)] << (_WHO_WIDTH * r)
    mixed = np.uint64(low) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(high) * np.uint64(0xC2B2AE3D27D4EB4F)
    row = mixed >> np.uint64(64 - SUIT_CACHE_BITS)
    if narrow and kept[row, 0] == low and kept[row, 1] == high:
        out[s, 0], out[s, 1] = kept[row, 2], kept[row, 3]
        return
    # one call site: the key's code is compiled in once
    _suit_key(s, who, held_any, par, tab, order, ranked, zob, out)
    if narrow:
        kept[row, 0], kept[row, 1], kept[row, 2], kept[row, 3] = low, high, out[s, 0], out[s, 1]


@inlined
def _rekey(skey: Any, left: int, trick: Any, held: Any, who: Any, par: Any, tab: Any, order: Any, ranked: Any,
           zob: Any, kept: Any) -> None:
    """The suit keys after the trick ``trick`` (just taken out of play): ``skey[left - 1]`` from
    ``skey[left]``, only the suits of the trick's cards computed anew."""
    held_any = _held_any(held, par[PAR_PLAYERS])
    done = 0
    for j in range(par[PAR_PLAYERS]):
        # unsigned: a multiply, no sign fix-up
        done |= 1 << int(np.uint64(trick[j]) // np.uint64(N_RANKS))
    # the suits the trick did not touch keep their keys
    for s in range(N_SUITS):
        if (done >> s) & 1 == 0:
            skey[left - 1, s, 0] = skey[left, s, 0]
            skey[left - 1, s, 1] = skey[left, s, 1]
        else:
            _suit_key_kept(s, who, held_any, par, tab, order, ranked, zob, skey[left - 1], kept)


@inlined
def _worth(data: int, generation: int) -> int:
    """What a table row is worth keeping: its tricks left, -1 when it is from an earlier generation."""
    return (data >> TT_LEFT) & 0xFF if (data >> TT_GENERATION) & 0xFF == generation else -1


@inlined
def _victim(tt: Any, first: Any, generation: int) -> Any:
    """The row of the bucket starting at row ``first`` least worth keeping (``_worth``; an empty row: none left)."""
    row = first
    for i in range(1, BUCKET):
        if _worth(tt[first + np.uint64(i), 1], generation) < _worth(tt[row, 1], generation):
            row = first + np.uint64(i)
    return row


@inlined
def _close(f: Any, result: int, tt: Any, stats: Any) -> int:
    """Record a boundary node's bound in the table; the bound."""
    if f[SLOT] >= 0:
        if result >= f[NEED]:
            f[LOWER] = max(f[LOWER], result)
        else:
            f[UPPER] = min(f[UPPER], result)
        slot = np.uint64(f[SLOT])
        generation = stats[STAT_GENERATION]
        # a new entry (the probe found none: ``slot`` is the bucket's first row)
        if tt[slot, 0] != f[KEY]:
            slot = _victim(tt, slot, generation)
        data = (f[LIMITS] << TT_LIMITS) | (f[LOWER] << TT_LOWER) | (f[LEFT] << TT_LEFT) | (generation << TT_GENERATION)
        data |= f[UPPER]
        tt[slot, 0], tt[slot, 1] = f[KEY], data
    return result


def empty_suit_cache() -> np.ndarray:
    """``kept`` for ``reach``: the suit keys' cache, empty (valid while ``zob`` and ``tab`` stay: a solver's life)."""
    return np.full((1 << SUIT_CACHE_BITS, 4), -1, dtype=np.int64)
