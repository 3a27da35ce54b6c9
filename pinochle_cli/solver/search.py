"""The compiled double-dummy search: "can our side still take ``need`` counters from here?"

``reach`` answers that question for a position given as the arrays ``solve.py`` builds from the
ruleset (nothing here names a game; their layout: ``search_layout``), and returns a bound that answers it
(fail-soft); it sets ``stats[STAT_ABORTED]`` and stops when it passes the node limit in
``stats[STAT_LIMIT]``. It raises nothing on purpose. Here are the search's stack and its nodes, and the
bounds that end a node without a search (the top trumps, the last trick); the table and its keys are in
``keys``, the move ordering in ``ordering``. Given ``gt`` and ``zc`` (None: without), it also keeps
generalised entries (``general``), bounds that hold for every position differing only in cards whose
rank they did not depend on; the values are the same either way. The arrays, the table, the bounds, the
move ordering and what was measured: docs/solver.md (``pinochle docs solver``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import N_SUITS
from ..game.kernels import inlined, kernel, low_bit
from .general import (
    _count_words,
    _duty_marks,
    _general_probe,
    _general_store,
    _last_marks,
    _limit_marks,
    _sure_marks,
    empty_general_table,
)
from .keys import SUIT_CACHE_BITS, _close, _rekey, _suit_key, empty_suit_cache
from .ordering import _behind, _moves
from .search_layout import (
    AT,
    BEST,
    BUCKET,
    COUNT,
    COUNTER_LIMIT,
    ELIM,
    GAIN,
    KEY,
    KILLER,
    LAZY,
    LEAD_PLACE,
    LEADER,
    LEFT,
    LOWER,
    LREQ,
    NEED,
    ON,
    OURS,
    PAR_CLASSES,
    PAR_LAST_TRICK,
    PAR_OURS,
    PAR_PLAYERS,
    PAR_TRUMP,
    PRUNE,
    PTS,
    REL,
    REQ,
    REST,
    SEAT,
    SEAT_BITS,
    SLOT,
    STAT_ABORTED,
    STAT_GENERATION,
    STAT_LIMIT,
    STAT_NODES,
    TAB_CLASS,
    TAB_COUNTER,
    TAB_STRENGTH,
    TAGS,
    TL,
    TT_LIMITS,
    TT_LOWER,
    UPPER,
    UREQ,
    WIN,
    _counters,
    _held_any,
    _holders,
    _popcount,
    _seat,
    _take,
    empty_stats,
)

__all__ = [
    "BUCKET", "COUNTER_LIMIT", "KILLER", "LEAD_PLACE", "PAR_CLASSES", "PAR_LAST_TRICK", "PAR_OURS", "PAR_PLAYERS",
    "PAR_TRUMP", "SEAT_BITS", "STAT_ABORTED", "STAT_GENERATION", "STAT_LIMIT", "STAT_NODES", "TAB_CLASS", "TAB_COUNTER",
    "SUIT_CACHE_BITS", "TAB_STRENGTH", "TAGS", "empty_general_table", "empty_stats", "empty_suit_cache", "reach",
]

@inlined
def _sure(who: Any, par: Any, tab: Any, order: Any) -> int:
    """Counters our side surely takes (> 0) or surely loses (< 0), from the top trumps alone.

    A trick holding a trump is won by its highest trump, so the top trumps still out, as long as
    one side holds every copy of each, go to that side with their counters."""
    trump = par[PAR_TRUMP]
    if trump < 0:
        return 0
    ours = par[PAR_OURS]
    owner = -1
    points = 0
    for r in range(order.shape[1]):
        c = np.uint64(order[trump, r])
        w = who[c]
        if w == 0:
            continue
        holder = 0 if w & ours == w else 1 if w & ours == 0 else -1
        if owner == -1:
            owner = holder
        if holder != owner or holder == -1:
            break
        points += _popcount(w) * tab[TAB_COUNTER, c]
    return points if owner == 0 else -points


@inlined
def _last(held: Any, leader: int, par: Any, side: Any, tab: Any, above: Any) -> int:
    """The counters our side takes from the last trick, everyone holding one card."""
    players = par[PAR_PLAYERS]
    best = low_bit(held[leader])
    win = leader
    points = par[PAR_LAST_TRICK] + tab[TAB_COUNTER, best]
    for j in range(1, players):
        seat = _seat(leader, j, players)
        c = low_bit(held[seat])
        points += tab[TAB_COUNTER, c]
        if (above[best] >> c) & 1:
            best, win = c, seat
    return points if side[win] == 0 else 0


@inlined
def _answer(lower: int, upper: int, need: int) -> int:
    """The bound that answers "at least ``need``?" given ``lower <= value <= upper``, else -1."""
    if lower >= need:
        return int(lower)
    if upper < need:
        return int(upper)
    return -1


@inlined
def _probe(f: Any, fresh: bool, held: Any, who: Any, tricks: Any, par: Any, side: Any, tab: Any, above: Any,
           order: Any, ranked: Any, zob: Any, skey: Any, kept: Any, tt: Any, zc: Any, gt: Any, stats: Any) -> int:
    """At a trick boundary: a bound that answers the node (see ``reach``) from the bounds or the table,
    else -1 (search it); with generalised entries ``f[REQ]``: the cards whose rank that bound depends on."""
    need, rest = f[NEED], f[REST]
    f[REQ] = 0
    if need <= 0:
        return 0
    if need > rest:
        return int(rest)
    stats[STAT_NODES] += 1
    if stats[STAT_LIMIT] > 0 and stats[STAT_NODES] > stats[STAT_LIMIT]:
        stats[STAT_ABORTED] = 1
        return 0
    if f[LEFT] == 1:
        if gt is not None:
            f[REQ] = _last_marks(held, f[LEADER], par, tab, above)
        return _last(held, f[LEADER], par, side, tab, above)
    # the trick just taken (``tricks[left + 1]``) changed the keys of its suits
    if fresh:
        _rekey(skey, f[LEFT] + 1, tricks[f[LEFT] + 1], held, who, par, tab, order, ranked, zob, kept)
    keys = skey[f[LEFT]]
    lead = (LEAD_PLACE * 2 * par[PAR_PLAYERS] * par[PAR_CLASSES] + f[LEADER]) * 2
    k1 = zob[lead] ^ keys[0, 0] ^ keys[1, 0] ^ keys[2, 0] ^ keys[3, 0]
    k2 = (zob[lead + 1] ^ keys[0, 1] ^ keys[1, 1] ^ keys[2, 1] ^ keys[3, 1]) | 1
    # the bucket's first row
    slot = np.uint64(k1 & (tt.shape[0] - BUCKET))
    f[KEY], f[SLOT] = k2, slot
    # the table's bounds (stored tight: an upper bound never above ``rest``); with generalised entries, what each
    # bound depends on (an exact entry: every card out)
    held_any = 0
    if gt is not None:
        held_any = _held_any(held, par[PAR_PLAYERS])
    lower, upper, lreq, ureq = 0, rest, 0, 0
    for i in range(BUCKET):
        if tt[slot + np.uint64(i), 0] == k2:
            bounds = tt[slot + np.uint64(i), 1]
            lower, upper = (bounds >> TT_LOWER) & (COUNTER_LIMIT - 1), bounds & (COUNTER_LIMIT - 1)
            lreq, ureq = -1, -1
            f[ELIM] = (bounds >> TT_LIMITS) & 0xFFFF
            f[SLOT] = slot + np.uint64(i)
    known = _answer(lower, upper, need)
    if known < 0:
        sure = _sure(who, par, tab, order)
        marks = _sure_marks(who, par, order) if gt is not None else 0
        if sure > lower:
            lower, lreq = sure, marks
        if rest + min(sure, 0) < upper:
            upper, ureq = rest + min(sure, 0), marks
        known = _answer(lower, upper, need)
    if gt is not None and known < 0:
        lower, upper, lreq, ureq = _general_probe(f, held_any, who, par, tab, order, ranked, zob, zc, gt, lower,
                                                  upper, lreq, ureq)
        known = _answer(lower, upper, need)
    f[LOWER], f[UPPER], f[LREQ], f[UREQ] = lower, upper, lreq, ureq
    if gt is not None and known >= 0:
        req = lreq if lower >= need else ureq
        f[REQ] = _limit_marks(f[ELIM], held_any, who, order, ranked) if req < 0 else req
    return known


@inlined
def _enter(fr: Any, d: int, held: Any, who: Any, tricks: Any, par: Any, duties: Any, side: Any, tab: Any, above: Any,
           suit_mask: Any, order: Any, ranked: Any, zob: Any, skey: Any, kept: Any, tt: Any, zc: Any, gt: Any,
           hist: Any, moves: Any, keys: Any, stats: Any) -> int:
    """Open node ``d``: -1 when its moves are ready, else its bound from the bounds or the table.

    A lead whose ply has a killer lead (``KILLER``) in hand gets that one move (``LAZY`` 1) and the others only
    when it fails (the node opened again, ``LAZY`` 2): the killer refutes most leads, and gathering and ordering
    a lead's moves (their fan-out) is the dearest work of a node."""
    f = fr[np.uint64(d)]
    players = par[PAR_PLAYERS]
    tl, leader = f[TL], f[LEADER]
    mv = moves[np.uint64(d)]
    again = f[LAZY] == 2
    # with generalised entries: the node of this trick's lead (the root's trick: the root) gathers what it depends on
    fb = fr[np.uint64(max(d - tl, 0))]
    if not again:
        f[SLOT] = -1
        if tl == 0:
            f[REL], f[PRUNE] = 0, 0
            if gt is not None:
                _count_words(fr, d, held, who, tricks, par, tab, zc)
            known = _probe(f, d > 0, held, who, tricks, par, side, tab, above, order, ranked, zob, skey, kept, tt,
                           zc, gt, stats)
            if known >= 0:
                return known
        seat = _seat(leader, tl, players)
        f[SEAT], f[AT] = seat, 0
        f[OURS] = 1 if side[np.uint64(seat)] == 0 else 0
        f[BEST] = -1 if f[OURS] == 1 else f[NEED] + (1 << 40)
        killer = f[np.uint64(KILLER + leader)] - 1
        if tl == 0 and killer >= 0 and (held[np.uint64(seat)] >> killer) & 1:
            mv[0] = killer
            f[COUNT], f[LAZY] = 1, 1
            return -1
    f[LAZY] = 0
    if gt is not None and tl > 0:
        fb[REL] |= _duty_marks(held[np.uint64(f[SEAT])], tricks[np.uint64(f[LEFT]), np.uint64(f[WIN])], tab, order,
                               ranked)
    # after a failed killer the others go behind it (it stays at 0, played), once
    n = _moves(f, fb, held, who, tricks, par, duties, side, tab, above, suit_mask, order, ranked, hist,
               mv[1:] if again else mv, keys, gt)
    f[COUNT] = _behind(mv, n) if again else n
    return -1


@inlined
def _finish(f: Any, result: int, held: Any, who: Any, par: Any, tab: Any, order: Any, ranked: Any, zob: Any, zc: Any,
            gt: Any, tt: Any, stats: Any) -> int:
    """Node ``f`` is done with bound ``result``: into the table (and, given ``gt``, a trick's lead into the
    generalised entries too); the bound."""
    if gt is not None and f[TL] == 0:
        _general_store(f, result, held, who, par, tab, order, ranked, zob, zc, gt, stats)
    return _close(f, result, tt, stats)


@inlined
def _hand_up(fr: Any, d: int, par: Any) -> None:
    """Node ``d``, a trick's lead, is answered: what its bound depends on goes to the lead of the trick before."""
    if fr[np.uint64(d), TL] == 0:
        fr[np.uint64(max(d - par[PAR_PLAYERS], 0)), REL] |= fr[np.uint64(d), REQ]


@inlined
def _play(fr: Any, d: int, held: Any, who: Any, tricks: Any, par: Any, side: Any, tab: Any,
          above: Any, moves: Any) -> int:
    """Play node ``d``'s current move; set up node ``d + 1`` (-1) or, after the last trick, its value 0."""
    players = par[PAR_PLAYERS]
    f = fr[np.uint64(d)]
    g = fr[np.uint64(d + 1)]
    tl, left, seat = f[TL], f[LEFT], f[SEAT]
    trick = tricks[np.uint64(left)]
    c = moves[np.uint64(d), np.uint64(f[AT])]
    trick[np.uint64(tl)] = c
    _take(held, who, seat, c, -1)
    nwin = tl if tl > 0 and (above[np.uint64(trick[np.uint64(f[WIN])])] >> c) & 1 else f[WIN]
    f[GAIN] = 0
    # the counters on the trick now
    points = f[PTS] + tab[TAB_COUNTER, np.uint64(c)]
    if tl + 1 < players:
        g[TL], g[LEADER], g[WIN], g[NEED], g[REST], g[LEFT] = tl + 1, f[LEADER], nwin, f[NEED], f[REST], left
        g[PTS] = points
        g[ON] = f[ON] | (1 << c)
        return -1
    # the last trick's bonus
    points += par[PAR_LAST_TRICK] if left == 1 else 0
    winner = _seat(f[LEADER], nwin, players)
    f[GAIN] = points if side[np.uint64(winner)] == 0 else 0
    if left == 1:
        g[REQ] = 0
        return 0
    g[TL], g[LEADER], g[WIN], g[NEED], g[REST], g[LEFT] = 0, winner, 0, f[NEED] - f[GAIN], f[REST] - points, left - 1
    g[PTS], g[ON] = 0, 0
    return -1


@inlined
def _back(f: Any, d: int, held: Any, who: Any, moves: Any) -> int:
    """Take back node ``d``'s current move; the card."""
    c = moves[np.uint64(d), np.uint64(f[AT])]
    _take(held, who, f[SEAT], c, 1)
    return int(c)


@inlined
def _root(f: Any, hands: Any, held: Any, tricks: Any, tl: int, leader: int, win: int, need: int, rest: int,
          left: int, par: Any, tab: Any, order: Any, ranked: Any, zob: Any, skey: Any, who: Any) -> None:
    """Node 0 (``f``) from ``reach``'s arguments; ``who`` and the suit keys from the hands."""
    f[TL], f[LEADER], f[WIN], f[NEED], f[REST], f[LEFT] = tl, leader, win, need, rest, left
    f[PTS] = _counters(tricks[left], tl, tab)
    f[ON], f[REL], f[PRUNE], f[REQ] = 0, 0, 0, 0
    for j in range(tl):
        f[ON] |= 1 << tricks[left, j]
    _holders(hands, par[PAR_PLAYERS], who)
    for s in range(N_SUITS):
        _suit_key(s, who, _held_any(held, par[PAR_PLAYERS]), par, tab, order, ranked, zob, skey[left])


@kernel
def reach(hands: Any, held: Any, tricks: Any, tl: int, leader: int, win: int, need: int, rest: int,
          left: int, par: Any, duties: Any, side: Any, tab: Any, above: Any, suit_mask: Any, order: Any, ranked: Any,
          zob: Any, skey: Any, kept: Any, tt: Any, zc: Any, gt: Any, hist: Any, moves: Any, keys: Any, fr: Any,
          who: Any, stats: Any) -> int:
    """Does our side take at least ``need`` more counters with best play by both sides? A bound ``b`` that
    answers it: ``b >= need`` (yes) when our side surely takes ``b``, ``b < need`` (no) when it takes at
    most ``b`` (a fail-soft null-window search: the bound is often tighter than ``need``).

    ``left``: tricks to go, the current one included; ``tl`` cards are on it (``tricks[left]``)
    led by ``leader``, ``win`` the position winning it. ``rest``: the counters still to be won,
    meaningful at a trick boundary (``tl == 0``), where the table is used. The search runs on an
    explicit stack (``fr``, one row per card played), not by recursion (numba's cache does not
    keep recursive functions reliably).
    """
    _root(fr[0], hands, held, tricks, tl, leader, win, need, rest, left, par, tab, order, ranked, zob, skey, who)
    d, r, closing = 0, -1, -1
    # node d is new: open it (one call site: everything it calls is compiled in once)
    opening = True
    while True:
        if opening:
            r = _enter(fr, d, held, who, tricks, par, duties, side, tab, above, suit_mask, order, ranked, zob, skey,
                       kept, tt, zc, gt, hist, moves, keys, stats)
            opening = False
        # node d is done with bound ``closing``: into the table (one call site)
        if closing >= 0:
            r = _finish(fr[np.uint64(d)], closing, held, who, par, tab, order, ranked, zob, zc, gt, tt, stats)
            closing = -1
        # node d answered with bound r (a node past the last trick: 0): hand it to its parent
        if r >= 0:
            if d == 0 or stats[STAT_ABORTED] == 1:
                return r
            if gt is not None:
                _hand_up(fr, d, par)
            d -= 1
            f = fr[np.uint64(d)]
            c = _back(f, d, held, who, moves)
            r += f[GAIN]
            if (r >= f[NEED]) == (f[OURS] == 1):
                seat = f[SEAT]
                # a lead's own history row, and the ply's killer lead
                if f[TL] == 0:
                    hist[np.uint64(seat + par[PAR_PLAYERS]), np.uint64(c)] += 1
                    f[np.uint64(KILLER + f[LEADER])] = c + 1
                else:
                    hist[np.uint64(seat), np.uint64(c)] += 1 << f[LEFT]
                closing = r
                continue
            f[BEST] = max(f[BEST], r) if f[OURS] == 1 else min(f[BEST], r)
            f[AT] += 1
        f = fr[np.uint64(d)]
        if f[AT] >= f[COUNT]:
            # a killer lead that failed: the node opened again for the others (``LAZY`` 2); else it is done
            f[LAZY] += 1 if f[LAZY] == 1 else 0
            opening = f[LAZY] == 2
            r = -1
            closing = -1 if opening else f[BEST]
            continue
        r = _play(fr, d, held, who, tricks, par, side, tab, above, moves)
        d += 1
        opening = r < 0

