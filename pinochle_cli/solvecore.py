"""The compiled double-dummy search: "can our side still take ``need`` counters from here?"

Everything the search knows about the game comes in as arrays built by ``solve.py`` from the
ruleset (nothing here names a game):

- ``hands[seat, card]``: copies held (cards are indices ``suit * 6 + rank``); ``live[card]``:
  copies still in play (in a hand or on the trick being played);
- ``tricks[left, j]``: the cards of the trick played with ``left`` tricks to go, leader first;
- ``par``: ``[players, trump (-1: none), last-trick bonus]``; ``side[seat]``: 0 for our side;
- ``duties[k] = [kind, when, partner, only_if_winning]`` in order (kind 0 follow, 1 trump,
  2 beat; when 0 always, 1 trump led, 2 plain led; partner 0 when the duty lapses while the
  partner is winning);
- ``tab[0, card]``: strength (0 = highest), ``tab[1, card]``: counter value, ``tab[2, card]``:
  the value's class (equal values, equal class); ``order[suit, k]``: the suit's cards strongest
  first (-1 pads);
- ``zob[stream, suit, place, tag]``: random keys; ``tt[slot] = [key1, key2, lower, upper]``: the
  transposition table of values from a trick boundary on; ``hist[seat, card]``: history scores
  for move ordering; ``moves[ply, :]``: scratch; ``stats = [nodes, node limit (0: none), aborted]``.

The table key renumbers ranks among the cards still out: per suit, the sequence of cards left
(strongest first) as (holder, same rank as the previous card?, value class), so positions that
differ only by cards already played share one entry. Two cards of one hand are one move when no
card outside that hand lies between them (inclusive) and their counter values are equal.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba has wheels for the supported platforms
    def njit(*args: Any, **kwargs: Any) -> Any:
        if args and callable(args[0]):
            return args[0]
        return lambda func: func

__all__ = ["LEAD_PLACE", "TAGS", "legal_mask", "reach"]

LEAD_PLACE = 24  # zob[:, 0, LEAD_PLACE, seat] keys the leader
TAGS = 64  # seat * 2 * classes + repeat * classes + value class, below 64


@njit(cache=True)
def beats(tab: Any, trump: int, card: int, winning: int) -> bool:
    suit = card // 6
    if suit == winning // 6:
        return bool(tab[0, card] < tab[0, winning])
    return suit == trump


@njit(cache=True)
def legal_mask(hands: Any, seat: int, trick: Any, tl: int, win: int, leader: int, par: Any, duties: Any,
               side: Any, tab: Any, mask: Any) -> None:
    """``mask[card]`` = 1 for each card ``seat`` may play to ``trick[:tl]`` (``win``: winning position)."""
    for c in range(24):
        mask[c] = 1 if hands[seat, c] > 0 else 0
    if tl == 0:
        return
    players, trump = par[0], par[1]
    led = trick[0] // 6
    winning = trick[win]
    trump_led = led == trump
    win_seat = (leader + win) % players
    partner_wins = win_seat != seat and side[win_seat] == side[seat]
    holds_led = False
    for c in range(led * 6, led * 6 + 6):
        if hands[seat, c] > 0:
            holds_led = True
    for d in range(duties.shape[0]):
        kind, when, partner, only_if_winning = duties[d, 0], duties[d, 1], duties[d, 2], duties[d, 3]
        if (when == 1 and not trump_led) or (when == 2 and trump_led) or (partner == 0 and partner_wins):
            continue
        if kind == 1 and (trump < 0 or holds_led):
            continue
        allowed = kept = 0
        some_wins = False
        for c in range(24):
            if mask[c] == 0:
                continue
            allowed += 1
            wins = beats(tab, trump, c, winning)
            keep = c // 6 == led if kind == 0 else (c // 6 == trump if kind == 1 else wins)
            if keep:
                kept += 1
                some_wins = some_wins or wins
        if kept == 0 or kept == allowed or (kind == 1 and only_if_winning == 1 and not some_wins):
            continue
        for c in range(24):
            if mask[c] == 1:
                keep = c // 6 == led if kind == 0 else (c // 6 == trump if kind == 1 else beats(tab, trump, c, winning))
                if not keep:
                    mask[c] = 0


@njit(cache=True)
def _key(hands: Any, live: Any, leader: int, players: int, tab: Any, order: Any, zob: Any) -> tuple[int, int]:
    k1 = zob[0, 0, LEAD_PLACE, leader]
    k2 = zob[1, 0, LEAD_PLACE, leader]
    classes = 1 + tab[2].max()
    for s in range(order.shape[0]):
        place = 0
        for r in range(order.shape[1]):
            c = order[s, r]
            if c < 0:
                break
            if live[c] == 0:
                continue
            repeat = 0
            for h in range(players):
                for _ in range(hands[h, c]):
                    tag = (h * 2 + repeat) * classes + tab[2, c]
                    k1 ^= zob[0, s, place, tag]
                    k2 ^= zob[1, s, place, tag]
                    place += 1
                    repeat = 1
    return k1, k2


@njit(cache=True)
def _gather(hands: Any, live: Any, seat: int, mask: Any, tab: Any, order: Any, hist: Any, out: Any) -> int:
    """The distinct moves of ``mask`` minus equivalent cards, best history first, into ``out``."""
    n = 0
    for s in range(order.shape[0]):
        prev = -1
        clear = False
        for r in range(order.shape[1]):
            c = order[s, r]
            if c < 0:
                break
            if live[c] == 0:
                continue
            other = live[c] - hands[seat, c]
            if mask[c] == 0:
                clear = False
                continue
            if not (prev >= 0 and clear and other == 0 and tab[1, c] == tab[1, prev]):
                j = n
                while j > 0 and hist[seat, out[j - 1]] < hist[seat, c]:
                    out[j] = out[j - 1]
                    j -= 1
                out[j] = c
                n += 1
            prev = c
            clear = other == 0
    return n


@njit(cache=True)
def _settle(live: Any, trick: Any, left: int, par: Any, tab: Any, delta: int) -> int:
    """Take a complete trick's cards out of play (``delta`` -1) or back (+1); its counters."""
    points = par[2] if left == 1 else 0
    for j in range(par[0]):
        points += tab[1, trick[j]]
        live[trick[j]] += delta
    return points


# a frame of the search stack: one node
TL, LEADER, WIN, NEED, REST, LEFT, SLOT, K1, K2, LOWER, UPPER, COUNT, AT, OURS = range(14)


@njit(cache=True)
def _enter(fr: Any, d: int, hands: Any, live: Any, tricks: Any, par: Any, duties: Any, side: Any, tab: Any,
           order: Any, zob: Any, tt: Any, hist: Any, moves: Any, masks: Any, stats: Any) -> int:
    """Open node ``d``: -1 when its moves are ready, else its result (0/1) from the bounds or the table."""
    f = fr[d]
    players = par[0]
    f[SLOT] = -1
    if f[TL] == 0:
        need, rest = f[NEED], f[REST]
        if need <= 0:
            return 1
        if need > rest:
            return 0
        stats[0] += 1
        if stats[1] > 0 and stats[0] > stats[1]:
            stats[2] = 1
            return 0
        k1, k2 = _key(hands, live, f[LEADER], players, tab, order, zob)
        slot = k1 & (tt.shape[0] - 1)
        f[K1], f[K2], f[SLOT] = k1, k2, slot
        f[LOWER], f[UPPER] = 0, rest
        if tt[slot, 0] == k1 and tt[slot, 1] == k2:
            f[LOWER], f[UPPER] = tt[slot, 2], tt[slot, 3]
            if f[LOWER] >= need:
                return 1
            if f[UPPER] < need:
                return 0
    seat = (f[LEADER] + f[TL]) % players
    f[OURS] = 1 if side[seat] == 0 else 0
    legal_mask(hands, seat, tricks[f[LEFT]], f[TL], f[WIN], f[LEADER], par, duties, side, tab, masks[d])
    f[COUNT] = _gather(hands, live, seat, masks[d], tab, order, hist, moves[d])
    f[AT] = 0
    return -1


@njit(cache=True)
def _close(f: Any, result: int, tt: Any) -> int:
    """Record a boundary node's answer in the table; the answer."""
    if f[SLOT] >= 0:
        if result == 1:
            f[LOWER] = max(f[LOWER], f[NEED])
        else:
            f[UPPER] = min(f[UPPER], f[NEED] - 1)
        slot = f[SLOT]
        tt[slot, 0], tt[slot, 1], tt[slot, 2], tt[slot, 3] = f[K1], f[K2], f[LOWER], f[UPPER]
    return result


@njit(cache=True)
def reach(hands: Any, live: Any, tricks: Any, tl: int, leader: int, win: int, need: int, rest: int, left: int,
          par: Any, duties: Any, side: Any, tab: Any, order: Any, zob: Any, tt: Any, hist: Any, moves: Any,
          masks: Any, fr: Any, stats: Any) -> bool:
    """Does our side take at least ``need`` more counters with best play by both sides?

    ``left``: tricks to go, the current one included; ``tl`` cards are on it (``tricks[left]``)
    led by ``leader``, ``win`` the position winning it. ``rest``: the counters still to be won,
    meaningful at a trick boundary (``tl == 0``), where the table is used. The search runs on an
    explicit stack (``fr``, one row per card played), not by recursion.
    """
    players = par[0]
    f = fr[0]
    f[TL], f[LEADER], f[WIN], f[NEED], f[REST], f[LEFT] = tl, leader, win, need, rest, left
    d = 0
    r = _enter(fr, 0, hands, live, tricks, par, duties, side, tab, order, zob, tt, hist, moves, masks, stats)
    while True:
        if r >= 0:  # node d answered r (a node past the last trick: the deal's end): hand it to its parent
            if d == 0 or stats[2] == 1:
                return r == 1 and stats[2] == 0
            d -= 1
            f = fr[d]
            seat = (f[LEADER] + f[TL]) % players
            c = moves[d, f[AT]]
            hands[seat, c] += 1
            if f[TL] + 1 == players:
                _settle(live, tricks[f[LEFT]], f[LEFT], par, tab, 1)
            if r == f[OURS]:
                hist[seat, c] += f[LEFT] * f[LEFT]
                r = _close(f, r, tt)
                continue
            f[AT] += 1
        f = fr[d]
        if f[AT] >= f[COUNT]:
            r = _close(f, 1 - f[OURS], tt)
            continue
        r = _play(fr, d, hands, live, tricks, par, side, tab, moves)
        d += 1
        if r < 0:
            r = _enter(fr, d, hands, live, tricks, par, duties, side, tab, order, zob, tt, hist, moves, masks,
                       stats)


@njit(cache=True)
def _play(fr: Any, d: int, hands: Any, live: Any, tricks: Any, par: Any, side: Any, tab: Any, moves: Any) -> int:
    """Play node ``d``'s current move; set up node ``d + 1`` (-1) or, after the last trick, the result."""
    players = par[0]
    f = fr[d]
    g = fr[d + 1]
    tl, left = f[TL], f[LEFT]
    seat = (f[LEADER] + tl) % players
    trick = tricks[left]
    c = trick[tl] = moves[d, f[AT]]
    hands[seat, c] -= 1
    nwin = tl if tl > 0 and beats(tab, par[1], c, trick[f[WIN]]) else f[WIN]
    if tl + 1 < players:
        g[TL], g[LEADER], g[WIN], g[NEED], g[REST], g[LEFT] = tl + 1, f[LEADER], nwin, f[NEED], f[REST], left
        return -1
    points = _settle(live, trick, left, par, tab, -1)
    winner = (f[LEADER] + nwin) % players
    still = f[NEED] - points if side[winner] == 0 else f[NEED]
    if left == 1:
        return 1 if still <= 0 else 0
    g[TL], g[LEADER], g[WIN], g[NEED], g[REST], g[LEFT] = 0, winner, 0, still, f[REST] - points, left - 1
    return -1


def empty_stats() -> np.ndarray:
    return np.zeros(3, dtype=np.int64)
