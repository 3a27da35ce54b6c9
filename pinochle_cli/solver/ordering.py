"""The search's move ordering: a node's moves, equivalent cards once, the most promising first.

``_moves`` gives the cards a node's seat may play (its duties, by the rule of ``game.trick_rules``) to ``_gather``,
which drops a card equivalent to the one above it (both in this hand, nothing out between, equal counters) and
orders the rest by a heuristic score above the history score (``hist``): at a lead, cashing a suit's top card still
out or leading to a partner's, leads a partner can trump before those an opponent can (``_ruff_lean``), fewer
answers the opponents may give first (``_fan_out``); a follower keeps the trick for the side cheaply or gives little
away. ``_behind`` puts a lead's other moves behind its killer lead, tried first. Each is compiled into ``reach``
(``inlined``); nothing here raises on purpose. What each heuristic was worth: docs/solver.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import N_RANKS, N_SUITS, SUIT_MASK
from ..game.kernels import inlined, low_bit
from .search_layout import (
    LEADER,
    LEFT,
    ON,
    PAR_OURS,
    PAR_PLAYERS,
    PAR_TRUMP,
    PRUNE,
    SEAT,
    SEAT_BITS,
    TAB_CLASS,
    TAB_COUNTER,
    TAB_STRENGTH,
    TL,
    WIN,
    _legal_given,
    _popcount,
    _seat,
)

__all__: list[str] = []

# the card's heuristic score above its history score
_ORDER_SHIFT = 40
# added to a lead a partner can trump, taken from one an opponent can (outweighs the rest)
_LEAN = 1200
# taken from a lead for each card the opponents may answer it with (its fan-out)
_FAN = 200


@inlined
def _score(c: int, top: bool, mate: bool, tl: int, beat: int, partner_win: bool, tab: Any) -> int:
    """A card's merit for ordering: a lead of the suit's top card still out (``top``) cashes it, counters
    first, as does a low lead when the top card is a partner's (``mate``); other leads go low; a follower
    keeps the trick for the side cheaply (``beat``: the cards that take it) or gives little away."""
    # an index known not negative: no fix-up
    u = np.uint64(c)
    if tl == 0:
        if top or mate:
            return int(2000 + 100 * tab[TAB_CLASS, u] + (0 if top else tab[TAB_STRENGTH, u]))
        return int(1000 - 100 * tab[TAB_CLASS, u] + tab[TAB_STRENGTH, u])
    takes = (beat >> c) & 1
    if takes == 1 or partner_win:
        return int(2000 + 100 * tab[TAB_CLASS, u] + (tab[TAB_STRENGTH, u] if takes == 1 else 0))
    return int(1000 - 100 * tab[TAB_CLASS, u] + tab[TAB_STRENGTH, u])


@inlined
def _ruff_suits(held: Any, seat: int, par: Any, side: Any) -> int:
    """The plain suits a lead by ``seat`` could see trumped: bit ``s`` when an opponent can (void in ``s``,
    holding trumps), bit ``N_SUITS + s`` when a partner can."""
    trump = par[PAR_TRUMP]
    if trump < 0:
        return 0
    suits = 0
    for h in range(par[PAR_PLAYERS]):
        u = np.uint64(h)
        # void in trumps: void in no suit a trump would be played to (the trump suit itself included)
        if h == seat or (held[u] >> (N_RANKS * trump)) & SUIT_MASK == 0:
            continue
        shift = 0 if side[u] != side[np.uint64(seat)] else N_SUITS
        for s in range(N_SUITS):
            if (held[u] >> (N_RANKS * s)) & SUIT_MASK == 0:
                suits |= 1 << (shift + s)
    return suits


@inlined
def _ruff_lean(suits: int, s: int) -> int:
    """A lead of suit ``s`` given ``_ruff_suits``: ``-_LEAN`` when an opponent can trump it, ``+_LEAN`` when only a
    partner can, else 0."""
    if (suits >> s) & 1:
        return -_LEAN
    return _LEAN if (suits >> (N_SUITS + s)) & 1 else 0


@inlined
def _fan_out(c: int, s: int, seat: int, held: Any, par: Any, side: Any, suit_mask: Any, duties: Any,
             above: Any) -> int:
    """The cards the opponents of ``seat`` may play, by the ruleset's duties, to its lead of ``c`` (suit ``s``),
    added over the opponents, each as if ``c`` were still winning: every one is a reply that a proof
    the lead is good must answer, so leads that leave fewer go first."""
    n = 0
    beat = int(above[np.uint64(c)])
    for h in range(par[PAR_PLAYERS]):
        u = np.uint64(h)
        if side[u] != side[np.uint64(seat)]:
            n += _popcount(_legal_given(suit_mask, par[PAR_TRUMP], duties, held[u], s, beat, False))
    return n


@inlined
def _mates_only(who: Any, c: int, seat: int, par: Any, side: Any) -> bool:
    """Every copy of ``c`` outside the hand of ``seat`` is held by a partner of ``seat`` (at a lead: no card is on
    the trick)."""
    everyone = (1 << (par[PAR_PLAYERS] * SEAT_BITS)) - 1
    theirs = everyone & ~par[PAR_OURS] if side[np.uint64(seat)] == 0 else par[PAR_OURS]
    return bool(who[np.uint64(c)] & theirs == 0)


@inlined
def _insert(out: Any, keys: Any, n: int, c: int, key: int) -> None:
    """Card ``c`` with sort key ``key`` into the ``n`` moves of ``out`` (``keys`` theirs), highest key first."""
    at = np.uint64(n)
    while at > 0 and keys[at - np.uint64(1)] < key:
        out[at] = out[at - np.uint64(1)]
        keys[at] = keys[at - np.uint64(1)]
        at -= np.uint64(1)
    out[at] = c
    keys[at] = key


@inlined
def _gather(held: Any, who: Any, seat: int, allowed: int, on: int, tl: int, beat: int, partner_win: bool,
            par: Any, side: Any, tab: Any, order: Any, ranked: Any, hist: Any, out: Any, keys: Any, suit_mask: Any,
            duties: Any, above: Any, fb: Any, gt: Any) -> int:
    """The moves of ``allowed`` (a mask) minus equivalent cards, most promising first, into ``out`` (``beat``,
    ``partner_win``: a follower's cards that take the trick, and whether a partner is winning it; ``on``: the
    cards on the trick, a mask; ``suit_mask``, ``duties``, ``above``: the rules, for a lead's fan-out; given
    ``gt``, the cards left out go into ``fb[PRUNE]``).

    Per suit the masks are taken in order of strength (``ranked``): a card is the suit's top card
    still out when no card held elsewhere (``elsewhere``: other hands, the trick) is stronger."""
    # a single card: nothing to order
    if allowed & (allowed - 1) == 0:
        out[0] = low_bit(allowed)
        return 1
    players = par[PAR_PLAYERS]
    elsewhere = on
    for h in range(players):
        if h != seat:
            elsewhere |= held[np.uint64(h)]
    mine = held[np.uint64(seat)]
    n = 0
    # the history row: a lead's own
    row = np.uint64(seat + (players if tl == 0 else 0))
    ruffs = _ruff_suits(held, seat, par, side) if tl == 0 else 0
    # the suits of the allowed cards, lowest first: a loop over these alone
    rest = allowed
    while rest != 0:
        s = int(np.uint64(low_bit(rest)) // np.uint64(N_RANKS))
        rest &= ~(SUIT_MASK << (N_RANKS * s))
        a = ranked[(allowed >> (N_RANKS * s)) & SUIT_MASK]
        away = ranked[(elsewhere >> (N_RANKS * s)) & SUIT_MASK]
        out_ = away | ranked[(mine >> (N_RANKS * s)) & SUIT_MASK]
        prev, prev_value = -1, -1
        lean = _ruff_lean(ruffs, s)
        # a lead below a partner's top card: the strongest card held elsewhere is held by partners alone
        mate = tl == 0 and away != 0 and _mates_only(who, order[np.uint64(s), np.uint64(low_bit(away))], seat, par,
                                                     side)
        while a != 0:
            r = low_bit(a)
            a &= a - 1
            c = order[np.uint64(s), np.uint64(r)]
            value = tab[TAB_COUNTER, np.uint64(c)]
            stronger = (1 << r) - 1
            # one move with the previous card: both wholly in this hand, nothing out between, equal values
            if not (prev >= 0 and (away >> prev) & 1 == 0 and (away >> r) & 1 == 0
                    and out_ & stronger & -(2 << prev) == 0 and value == prev_value):
                top = away & stronger == 0
                score = _score(c, top, mate, tl, beat, partner_win, tab) + lean
                score -= _FAN * _fan_out(c, s, seat, held, par, side, suit_mask, duties, above) if tl == 0 else 0
                _insert(out, keys, n, c, (score << _ORDER_SHIFT) + hist[row, np.uint64(c)])
                n += 1
            elif gt is not None:
                fb[PRUNE] |= 1 << c
            prev, prev_value = r, value
    return n


@inlined
def _behind(moves: Any, n: int) -> int:
    """The killer lead at ``moves[0]`` (searched), the lead's ``n`` moves gathered behind it: its copy among
    them taken out (a killer that is not its run's first card stays a move of its own); the moves' count."""
    for i in range(1, n + 1):
        if moves[np.uint64(i)] == moves[0]:
            for j in range(i, n):
                moves[np.uint64(j)] = moves[np.uint64(j + 1)]
            return n
    return n + 1


@inlined
def _moves(f: Any, fb: Any, held: Any, who: Any, tricks: Any, par: Any, duties: Any, side: Any, tab: Any, above: Any,
           suit_mask: Any, order: Any, ranked: Any, hist: Any, out: Any, keys: Any, gt: Any) -> int:
    """The moves of the node ``f`` (its seat set), ordered, into ``out``; their count (``fb``: the node of the
    trick's lead, see ``_gather``)."""
    seat, tl, win = f[SEAT], f[TL], f[WIN]
    players = par[PAR_PLAYERS]
    trick = tricks[np.uint64(f[LEFT])]
    win_seat = _seat(f[LEADER], win, players)
    partner_win = tl > 0 and win_seat != seat and side[np.uint64(win_seat)] == side[np.uint64(seat)]
    mine = held[np.uint64(seat)]
    # the cards that would take the trick
    beat = 0 if tl == 0 else int(above[np.uint64(trick[np.uint64(win)])])
    # unsigned: no fix-up for a negative card
    led = int(np.uint64(trick[0]) // np.uint64(N_RANKS))
    allowed = mine if tl == 0 else _legal_given(suit_mask, par[PAR_TRUMP], duties, mine, led, beat, partner_win)
    return _gather(held, who, seat, allowed, f[ON], tl, beat, partner_win, par, side, tab, order, ranked, hist, out,
                   keys, suit_mask, duties, above, fb, gt)

