"""Generalised table entries (``gt`` given to ``reach``): bounds kept for every position alike in what they depend on.

A bound found by a search holds for every position that differs only in the holders of cards whose rank it never
depended on, each hand keeping its count of such cards per suit and value class. Per suit those are the cards
below the weakest card that mattered: the ``*_marks`` helpers collect those cards (the comparisons of a trick, a
follower's duty, the sure trumps, the last trick), ``_limits`` turns them into the places kept exact per suit,
and an entry in ``gt`` is keyed by the count words of the position (``_count_words``, ``_coarse``) and the key of
the places kept (``_part_key``). ``_general_probe`` narrows a node's bounds by the entries that hold for it,
``_general_store`` records a searched node's bound. Without them ``reach`` is given None for ``gt`` and ``zc``:
numba then drops every branch on ``gt is not None`` before compiling, so the search without them runs none of
this code. Each is compiled into ``reach`` (``inlined``); nothing here raises on purpose. The design, and what
they are worth: docs/solver.md, "Generalised entries".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import N_RANKS, N_SUITS, SUIT_MASK
from ..game.kernels import inlined, low_bit
from .keys import _suit_words, _victim
from .search_layout import (
    BUCKET,
    COUNTER_LIMIT,
    CS1,
    CS2,
    ELIM,
    LEAD_PLACE,
    LEADER,
    LEFT,
    LIMITS,
    LREQ,
    NEED,
    PAR_CLASSES,
    PAR_OURS,
    PAR_PLAYERS,
    PAR_TRUMP,
    PRUNE,
    REL,
    REQ,
    REST,
    SEAT_SHIFT,
    STAT_GENERATION,
    TAB_CLASS,
    TAB_STRENGTH,
    TT_GENERATION,
    TT_LEFT,
    TT_LOWER,
    UREQ,
    _held_any,
    _popcount,
    _seat,
    _suit_of,
)

__all__ = ["empty_general_table"]

# a suit's places kept exact, 4 bits a suit; all of them
_LIMIT_BITS, _ALL_PLACES = 4, 15


@inlined
def _compared(a: int, b: int, tab: Any) -> int:
    """Cards ``a`` and ``b`` were compared by rank: the stronger (``b`` when equal) as a mask, or 0 when their
    suits differ (a trick is then decided by the suit alone)."""
    if _suit_of(a) != _suit_of(b):
        return 0
    return 1 << a if tab[TAB_STRENGTH, np.uint64(a)] < tab[TAB_STRENGTH, np.uint64(b)] else 1 << b


@inlined
def _duty_marks(mine: int, w: int, tab: Any, order: Any, ranked: Any) -> int:
    """The cards whose rank decides which cards of ``mine`` beat ``w`` (the card winning the trick), as a mask:
    ``w`` when a card of its suit in ``mine`` is not stronger, else the weakest of those stronger (none: no such
    card). A duty to beat the trick compares each of them with ``w``; keeping the stronger of each pair exact keeps
    every comparison. The card a follower plays to the trick is one of those: the comparison that decides whether
    it takes the trick is kept with them."""
    s = _suit_of(w)
    cards = ranked[(mine >> (N_RANKS * s)) & SUIT_MASK]
    if cards == 0:
        return 0
    kw = tab[TAB_STRENGTH, np.uint64(w)]
    if cards >> kw != 0:
        return 1 << w
    # the weakest of them: the highest bit
    while cards & (cards - 1) != 0:
        cards &= cards - 1
    return int(1 << order[np.uint64(s), np.uint64(low_bit(cards))])


@inlined
def _last_marks(held: Any, leader: int, par: Any, tab: Any, above: Any) -> int:
    """The cards whose rank decided the last trick (everyone holding one card), as a mask."""
    players = par[PAR_PLAYERS]
    best = low_bit(held[leader])
    marks = 0
    for j in range(1, players):
        c = low_bit(held[_seat(leader, j, players)])
        marks |= _compared(c, best, tab)
        if (above[best] >> c) & 1:
            best = c
    return marks


@inlined
def _sure_marks(who: Any, par: Any, order: Any) -> int:
    """The trump where the sure-trump bound's run of one side's top trumps ends (or its weakest), as a mask: the
    bound depends on the holders of it and of every stronger trump."""
    trump = par[PAR_TRUMP]
    if trump < 0:
        return 0
    ours = par[PAR_OURS]
    owner = -1
    last = -1
    for r in range(order.shape[1]):
        c = order[trump, r]
        w = who[np.uint64(c)]
        if w == 0:
            continue
        last = c
        holder = 0 if w & ours == w else 1 if w & ours == 0 else -1
        if owner == -1:
            owner = holder
        if holder != owner or holder == -1:
            break
    return 0 if last < 0 else 1 << last


@inlined
def _count_words(fr: Any, d: int, held: Any, who: Any, tricks: Any, par: Any, tab: Any, zc: Any) -> None:
    """``CS1``, ``CS2`` of boundary node ``d``: per suit, how many cards of each value class each hand holds, as a
    sum of a random word per copy (``zc``), so that equal counts give equal words whatever the ranks; from the
    node of the trick before (less that trick's cards) when there is one."""
    f = fr[np.uint64(d)]
    players, classes = par[PAR_PLAYERS], par[PAR_CLASSES]
    if d >= players:
        g = fr[np.uint64(d - players)]
        c1, c2 = g[CS1], g[CS2]
        trick = tricks[np.uint64(f[LEFT] + 1)]
        for j in range(players):
            c = trick[np.uint64(j)]
            i = _count_index(c, _seat(g[LEADER], j, players), players, classes, tab)
            c1 -= zc[i]
            c2 -= zc[i + np.uint64(1)]
    else:
        c1, c2 = 0, 0
        m = _held_any(held, players)
        while m != 0:
            c = low_bit(m)
            m &= m - 1
            w = who[np.uint64(c)]
            while w != 0:
                i = _count_index(c, low_bit(w) >> SEAT_SHIFT, players, classes, tab)
                c1 += zc[i]
                c2 += zc[i + np.uint64(1)]
                w &= w - 1
    f[CS1], f[CS2] = c1, c2


@inlined
def _count_index(c: int, seat: int, players: int, classes: int, tab: Any) -> Any:
    """Where in ``zc`` the words of a copy of card ``c`` in the hand of ``seat`` are."""
    return np.uint64(2 * players + ((_suit_of(c) * players + seat) * classes + tab[TAB_CLASS, np.uint64(c)]) * 2)


@inlined
def _coarse(f: Any, zc: Any) -> tuple[int, int]:
    """The two words keying a boundary node's leader and counts (``_count_words``)."""
    return f[CS1] + zc[np.uint64(2 * f[LEADER])], (f[CS2] + zc[np.uint64(2 * f[LEADER] + 1)]) | 1


@inlined
def _part_key(limits: int, held_any: int, who: Any, par: Any, tab: Any, order: Any, ranked: Any,
              zob: Any) -> tuple[int, int]:
    """A word keying the first places of each suit (``limits``, ``_limits``) as the table keys them, and the card
    of the last of them in each suit (a mask)."""
    key = 0
    marks = 0
    for s in range(N_SUITS):
        k1, _k2, weakest = _suit_words(s, _limit(limits, s), who, held_any, par, tab, order, ranked, zob)
        key ^= k1
        marks |= 0 if weakest < 0 else 1 << weakest
    return key, marks


@inlined
def _limit(limits: int, s: int) -> int:
    """How many places of suit ``s`` ``limits`` keep (4 bits a suit; 15: all)."""
    t = (limits >> (_LIMIT_BITS * s)) & _ALL_PLACES
    return LEAD_PLACE if t == _ALL_PLACES else int(t)


@inlined
def _wider(a: int, b: int) -> int:
    """Per suit the more places of two ``_limits``."""
    out = 0
    for s in range(N_SUITS):
        out |= max((a >> (_LIMIT_BITS * s)) & _ALL_PLACES, (b >> (_LIMIT_BITS * s)) & _ALL_PLACES) << (_LIMIT_BITS * s)
    return out


@inlined
def _limit_marks(limits: int, held_any: int, who: Any, order: Any, ranked: Any) -> int:
    """The card of the last place in each suit that ``limits`` keep (a mask)."""
    marks = 0
    for s in range(N_SUITS):
        places = _limit(limits, s)
        m = ranked[(held_any >> (N_RANKS * s)) & SUIT_MASK]
        while m != 0 and places > 0:
            c = order[np.uint64(s), np.uint64(low_bit(m))]
            m &= m - 1
            places -= _popcount(who[np.uint64(c)])
            marks = (marks & ~(SUIT_MASK << (N_RANKS * s))) | (1 << c)
    return marks


@inlined
def _limits(req: int, prune: int, held_any: int, who: Any, order: Any, ranked: Any) -> tuple[int, int]:
    """The places of each suit (its cards still out, strongest first, a place a copy) a bound depending on the
    ranks of ``req`` keeps exact, 4 bits a suit (15: all): down to the last copy of the weakest card of ``req``,
    then on through the copies of cards of ``prune`` (left out of the search as equal to the card above them, which
    the limit must not part from them); and the card of the last place kept in each suit (a mask: what a bound
    found from it depends on)."""
    limits = 0
    marks = 0
    for s in range(N_SUITS):
        m = ranked[(held_any >> (N_RANKS * s)) & SUIT_MASK]
        t, places, weakest, rest = 0, 0, -1, m
        while rest != 0:
            c = order[np.uint64(s), np.uint64(low_bit(rest))]
            rest &= rest - 1
            before = places
            places += _popcount(who[np.uint64(c)])
            if (req >> c) & 1 or (t == before and t > 0 and (prune >> c) & 1):
                t, weakest = places, c
        limits |= min(t, _ALL_PLACES) << (_LIMIT_BITS * s)
        marks |= 0 if weakest < 0 else 1 << weakest
    return limits, marks


@inlined
def _general_probe(f: Any, held_any: int, who: Any, par: Any, tab: Any, order: Any, ranked: Any, zob: Any,
                   zc: Any, gt: Any, lower: int, upper: int, lreq: int, ureq: int) -> tuple[int, int, int, int]:
    """``lower``, ``upper`` and what each depends on (``lreq``, ``ureq``, masks) narrowed by the generalised
    entries that hold for the position of boundary node ``f``."""
    c1, c2 = _coarse(f, zc)
    slot = np.uint64(c1 & (gt.shape[0] - BUCKET))
    for i in range(BUCKET):
        row = slot + np.uint64(i)
        if gt[row, 0] == c2:
            key, marks = _part_key(gt[row, 2], held_any, who, par, tab, order, ranked, zob)
            if key == gt[row, 1]:
                low, up = gt[row, 3] >> TT_LOWER, gt[row, 3] & (COUNTER_LIMIT - 1)
                if low > lower:
                    lower, lreq = low, marks
                if up < upper:
                    upper, ureq = up, marks
    return lower, upper, lreq, ureq


@inlined
def _general_store(f: Any, result: int, held: Any, who: Any, par: Any, tab: Any, order: Any, ranked: Any,
                   zob: Any, zc: Any, gt: Any, stats: Any) -> None:
    """Record searched boundary node ``f``'s bound as a generalised entry; ``f[REQ]``: the cards it depends on,
    ``f[LIMITS]``: the places the exact row's bounds depend on."""
    held_any = _held_any(held, par[PAR_PLAYERS])
    limits, marks = _limits(f[REL], f[PRUNE], held_any, who, order, ranked)
    f[REQ] = marks
    # the exact row keeps the probe's bounds beside this one: what all of them depend on
    found = marks | max(f[LREQ], 0) | max(f[UREQ], 0)
    f[LIMITS] = _wider(_limits(found, 0, held_any, who, order, ranked)[0], f[ELIM] if min(f[LREQ], f[UREQ]) < 0 else 0)
    c1, c2 = _coarse(f, zc)
    key, _marks = _part_key(limits, held_any, who, par, tab, order, ranked, zob)
    lower, upper = (result, f[REST]) if result >= f[NEED] else (0, result)
    slot = np.uint64(c1 & (gt.shape[0] - BUCKET))
    generation = stats[STAT_GENERATION]
    row = slot + np.uint64(BUCKET)
    for i in range(BUCKET):
        at = slot + np.uint64(i)
        if gt[at, 0] == c2 and gt[at, 1] == key and gt[at, 2] == limits:
            row = at
    if row == slot + np.uint64(BUCKET):
        row = _victim(gt[:, 2:], slot, generation)
    else:
        lower = max(lower, gt[row, 3] >> TT_LOWER)
        upper = min(upper, gt[row, 3] & (COUNTER_LIMIT - 1))
    gt[row, 0], gt[row, 1], gt[row, 2] = c2, key, limits
    gt[row, 3] = (lower << TT_LOWER) | (f[LEFT] << TT_LEFT) | (generation << TT_GENERATION) | upper


def empty_general_table(bits: int) -> np.ndarray:
    """``gt`` for ``reach`` with generalised entries: ``2 ** bits`` rows (``[count key, cards key, limits,
    bounds]``), empty (a count key is odd: an empty row never matches)."""
    return np.zeros((1 << bits, 4), dtype=np.int64)
