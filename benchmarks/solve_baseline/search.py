"""A frozen copy of pinochle_cli/solver/search.py as it was before issue 24 (the benchmark's baseline).

The compiled double-dummy search: "can our side still take ``need`` counters from here?"

``reach`` answers that question for a position given as the arrays ``solve.py`` builds from the
ruleset (nothing here names a game), and returns a bound that answers it (fail-soft); it sets
``stats[2]`` and stops when it passes the node limit in ``stats[1]``. It raises nothing on
purpose. The arrays, the table, the bounds, the move ordering and what was measured:
docs/solver.md (``pinochle docs solver``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pinochle_cli.trickcore import inlined, kernel, legal_given, low_bit, popcount

from pinochle_cli.cards import N_RANKS, N_SUITS, SUIT_MASK

__all__ = [
    "BUCKET", "COUNTER_LIMIT", "KILLER", "LEAD_PLACE", "PAR_CLASSES", "PAR_LAST_TRICK", "PAR_OURS", "PAR_PLAYERS",
    "PAR_TRUMP", "SEAT_BITS", "STAT_ABORTED", "STAT_GENERATION", "STAT_LIMIT", "STAT_NODES", "TAB_CLASS", "TAB_COUNTER",
    "TAB_STRENGTH", "TAGS", "empty_stats", "reach",
]

# numba keys its cache on this file alone: the digest of trickcore.py (compiled in)
# makes an edit there change this file too, so the machine code is built anew (tests/test_compiled_stamp.py).
COMPILED_WITH = "4cadfb99f768c2f4"

# table rows that share a cache line: a position may sit in any of them
BUCKET = 4
# a table entry's bounds have 16 bits: counters still to win stay below this
COUNTER_LIMIT = 1 << 16
# (seat * 2 + repeat) * classes + value class, below 64
TAGS = 64
SEAT_SHIFT = 2
# bits of each seat in ``who[card]``: at least the copies of a card
SEAT_BITS = 1 << SEAT_SHIFT
# zob[0, LEAD_PLACE, seat, :] keys the leader
LEAD_PLACE = N_RANKS * SEAT_BITS
# the fields of a table row's second word: lower << 32 | left << 24 | generation << 16 | upper
TT_LOWER, TT_LEFT, TT_GENERATION = 32, 24, 16
# the columns of ``par``, the rows of ``tab`` and the columns of ``stats`` (see the module docstring)
PAR_PLAYERS, PAR_TRUMP, PAR_LAST_TRICK, PAR_CLASSES, PAR_OURS = range(5)
TAB_STRENGTH, TAB_COUNTER, TAB_CLASS = range(3)
STAT_NODES, STAT_LIMIT, STAT_ABORTED, STAT_GENERATION = range(4)
# move ordering: the card's heuristic score above its history score
_ORDER_SHIFT = 40
# move ordering: added to a lead a partner can trump, taken from one an opponent can (outweighs the rest)
_LEAN = 1200


@inlined
def _holders(hands: Any, players: int, who: Any) -> None:
    """``who[card]`` from ``hands``: bit ``seat * SEAT_BITS + k`` set when ``seat`` holds more than ``k`` copies."""
    for c in range(who.shape[0]):
        w = 0
        for h in range(players):
            w |= ((1 << hands[h, c]) - 1) << (h * SEAT_BITS)
        who[c] = w


@inlined
def _suit_key(s: int, who: Any, held_any: int, par: Any, tab: Any, order: Any, ranked: Any, zob: Any,
              out: Any) -> None:
    """The table key of suit ``s`` (its cards still out, renumbered; ``held_any``: the cards in some hand) into
    ``out[s]``."""
    k1 = 0
    k2 = 0
    classes = par[PAR_CLASSES]
    # zob[suit, place, tag, stream] flat: the words of one place
    step = 4 * par[PAR_PLAYERS] * classes
    at = s * (LEAD_PLACE + 1) * step
    m = ranked[(held_any >> (N_RANKS * s)) & SUIT_MASK]
    while m != 0:
        c = np.uint64(order[s, low_bit(m)])
        m &= m - 1
        w = who[c]
        tag = tab[TAB_CLASS, c]
        # the first holder's bits (a card in some hand)
        first = (low_bit(w) >> SEAT_SHIFT) * SEAT_BITS
        # copies in two hands tie
        ties = classes if w & ~(((1 << SEAT_BITS) - 1) << first) != 0 else 0
        while w != 0:
            i = np.uint64(at + ((low_bit(w) >> SEAT_SHIFT) * 2 * classes + tag) * 2)
            k1 ^= zob[i]
            k2 ^= zob[i + np.uint64(1)]
            w &= w - 1
            at += step
            # the next copy ties with this one?
            tag = tab[TAB_CLASS, c] + ties
    out[s, 0] = k1
    out[s, 1] = k2


@inlined
def _held_any(held: Any, players: int) -> int:
    """The cards in some hand, a mask."""
    cards = 0
    for h in range(players):
        cards |= held[h]
    return cards


@inlined
def _rekey(skey: Any, left: int, trick: Any, held: Any, who: Any, par: Any, tab: Any, order: Any, ranked: Any,
           zob: Any) -> None:
    """The suit keys after the trick ``trick`` (just taken out of play): ``skey[left - 1]`` from
    ``skey[left]``, only the suits of the trick's cards computed anew."""
    for s in range(N_SUITS):
        skey[left - 1, s, 0] = skey[left, s, 0]
        skey[left - 1, s, 1] = skey[left, s, 1]
    held_any = _held_any(held, par[PAR_PLAYERS])
    done = 0
    for j in range(par[PAR_PLAYERS]):
        # unsigned: a multiply, no sign fix-up
        suit = int(np.uint64(trick[j]) // np.uint64(N_RANKS))
        if (done >> suit) & 1 == 0:
            done |= 1 << suit
            _suit_key(suit, who, held_any, par, tab, order, ranked, zob, skey[left - 1])


# trickcore's rule, compiled into the search
_legal_given = inlined(getattr(legal_given, "py_func", legal_given))


@inlined
def _seat(leader: int, k: int, players: int) -> int:
    """The seat ``k`` places after ``leader`` (``k < players``), without a division."""
    seat = leader + k
    return seat - players if seat >= players else seat


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
def _ruff_lean(held: Any, s: int, seat: int, par: Any, side: Any) -> int:
    """A lead of plain suit ``s`` by ``seat``: ``-_LEAN`` when an opponent can trump it (void in ``s``, holding
    trumps), ``+_LEAN`` when only a partner can, else 0."""
    trump = par[PAR_TRUMP]
    if trump < 0 or s == trump:
        return 0
    lean = 0
    for h in range(par[PAR_PLAYERS]):
        u = np.uint64(h)
        if h == seat or (held[u] >> (N_RANKS * s)) & SUIT_MASK != 0 or (held[u] >> (N_RANKS * trump)) & SUIT_MASK == 0:
            continue
        if side[u] != side[np.uint64(seat)]:
            return -_LEAN
        lean = _LEAN
    return lean


@inlined
def _mates_only(who: Any, c: int, seat: int, par: Any, side: Any) -> bool:
    """Every copy of ``c`` outside the hand of ``seat`` is held by a partner of ``seat`` (at a lead: no card is on
    the trick)."""
    everyone = (1 << (par[PAR_PLAYERS] * SEAT_BITS)) - 1
    theirs = everyone & ~par[PAR_OURS] if side[np.uint64(seat)] == 0 else par[PAR_OURS]
    return bool(who[np.uint64(c)] & theirs == 0)


@inlined
def _gather(held: Any, who: Any, seat: int, allowed: int, trick: Any, tl: int, beat: int, partner_win: bool,
            par: Any, side: Any, tab: Any, order: Any, ranked: Any, hist: Any, out: Any, keys: Any) -> int:
    """The moves of ``allowed`` (a mask) minus equivalent cards, most promising first, into ``out`` (``beat``,
    ``partner_win``: a follower's cards that take the trick, and whether a partner is winning it).

    Per suit the masks are taken in order of strength (``ranked``): a card is the suit's top card
    still out when no card held elsewhere (``elsewhere``: other hands, the trick) is stronger."""
    # a single card: nothing to order
    if allowed & (allowed - 1) == 0:
        out[0] = low_bit(allowed)
        return 1
    players = par[PAR_PLAYERS]
    elsewhere = 0
    for j in range(tl):
        elsewhere |= 1 << trick[np.uint64(j)]
    for h in range(players):
        if h != seat:
            elsewhere |= held[np.uint64(h)]
    mine = held[np.uint64(seat)]
    n = 0
    # the history row: a lead's own
    row = np.uint64(seat + (players if tl == 0 else 0))
    # the suits of the allowed cards, lowest first: a loop over these alone
    rest = allowed
    while rest != 0:
        s = int(np.uint64(low_bit(rest)) // np.uint64(N_RANKS))
        rest &= ~(SUIT_MASK << (N_RANKS * s))
        a = ranked[(allowed >> (N_RANKS * s)) & SUIT_MASK]
        away = ranked[(elsewhere >> (N_RANKS * s)) & SUIT_MASK]
        out_ = away | ranked[(mine >> (N_RANKS * s)) & SUIT_MASK]
        prev, prev_value = -1, -1
        lean = _ruff_lean(held, s, seat, par, side) if tl == 0 else 0
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
                key = (score << _ORDER_SHIFT) + hist[row, np.uint64(c)]
                # insertion sort, by key
                at = np.uint64(n)
                while at > 0 and keys[at - np.uint64(1)] < key:
                    out[at] = out[at - np.uint64(1)]
                    keys[at] = keys[at - np.uint64(1)]
                    at -= np.uint64(1)
                out[at] = c
                keys[at] = key
                n += 1
            prev, prev_value = r, value
    return n


@inlined
def _counters(trick: Any, k: int, tab: Any) -> int:
    """The counters of the first ``k`` cards of ``trick``."""
    points = 0
    for j in range(k):
        # an index known not negative: no fix-up
        points += tab[TAB_COUNTER, np.uint64(trick[np.uint64(j)])]
    return points


@inlined
def _take(held: Any, who: Any, seat: int, c: int, delta: int) -> None:
    """One copy of card ``c`` out of (``delta`` -1) or back into (+1) the hand of ``seat``: its holder bits in
    ``who`` (``mine``, the low bits set, one per copy) one fewer or one more."""
    # indices known not negative: no fix-up
    u = np.uint64(c)
    shift = seat * SEAT_BITS
    w = who[u]
    mine = (w >> shift) & ((1 << SEAT_BITS) - 1)
    now = mine >> 1 if delta < 0 else 2 * mine + 1
    who[u] = w ^ ((mine ^ now) << shift)
    h = np.uint64(seat)
    if now == 0:
        held[h] &= ~(1 << c)
    else:
        held[h] |= 1 << c


# a frame of the search stack: one node
TL, LEADER, WIN, NEED, REST, LEFT, SLOT, KEY, LOWER, UPPER, COUNT, AT, OURS, BEST, GAIN, SEAT, PTS, KILLER = range(18)


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
        points += popcount(w) * tab[TAB_COUNTER, c]
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
           order: Any, ranked: Any, zob: Any, skey: Any, tt: Any, stats: Any) -> int:
    """At a trick boundary: a bound that answers the node (see ``reach``) from the bounds or the table,
    else -1 (search it)."""
    need, rest = f[NEED], f[REST]
    if need <= 0:
        return 0
    if need > rest:
        return int(rest)
    stats[STAT_NODES] += 1
    if stats[STAT_LIMIT] > 0 and stats[STAT_NODES] > stats[STAT_LIMIT]:
        stats[STAT_ABORTED] = 1
        return 0
    if f[LEFT] == 1:
        return _last(held, f[LEADER], par, side, tab, above)
    # the trick just taken (``tricks[left + 1]``) changed the keys of its suits
    if fresh:
        _rekey(skey, f[LEFT] + 1, tricks[f[LEFT] + 1], held, who, par, tab, order, ranked, zob)
    keys = skey[f[LEFT]]
    lead = (LEAD_PLACE * 2 * par[PAR_PLAYERS] * par[PAR_CLASSES] + f[LEADER]) * 2
    k1 = zob[lead] ^ keys[0, 0] ^ keys[1, 0] ^ keys[2, 0] ^ keys[3, 0]
    k2 = (zob[lead + 1] ^ keys[0, 1] ^ keys[1, 1] ^ keys[2, 1] ^ keys[3, 1]) | 1
    # the bucket's first row
    slot = np.uint64(k1 & (tt.shape[0] - BUCKET))
    f[KEY], f[SLOT] = k2, slot
    # the table's bounds (stored tight: an upper bound never above ``rest``)
    lower, upper = 0, rest
    for i in range(BUCKET):
        if tt[slot + np.uint64(i), 0] == k2:
            bounds = tt[slot + np.uint64(i), 1]
            lower, upper = bounds >> TT_LOWER, bounds & (COUNTER_LIMIT - 1)
            f[SLOT] = slot + np.uint64(i)
    known = _answer(lower, upper, need)
    if known < 0:
        sure = _sure(who, par, tab, order)
        lower, upper = max(sure, lower), min(upper, rest + min(sure, 0))
        known = _answer(lower, upper, need)
    f[LOWER], f[UPPER] = lower, upper
    return known


@inlined
def _enter(fr: Any, d: int, held: Any, who: Any, tricks: Any, par: Any, duties: Any, side: Any, tab: Any, above: Any,
           suit_mask: Any, order: Any, ranked: Any, zob: Any, skey: Any, tt: Any, hist: Any, moves: Any, keys: Any,
           stats: Any) -> int:
    """Open node ``d``: -1 when its moves are ready, else its bound from the bounds or the table."""
    f = fr[np.uint64(d)]
    players = par[PAR_PLAYERS]
    f[SLOT] = -1
    tl, leader, win = f[TL], f[LEADER], f[WIN]
    if tl == 0:
        known = _probe(f, d > 0, held, who, tricks, par, side, tab, above, order, ranked, zob, skey, tt, stats)
        if known >= 0:
            return known
    seat = _seat(leader, tl, players)
    f[SEAT] = seat
    f[OURS] = 1 if side[np.uint64(seat)] == 0 else 0
    f[BEST] = -1 if f[OURS] == 1 else f[NEED] + (1 << 40)
    trick = tricks[np.uint64(f[LEFT])]
    win_seat = _seat(leader, win, players)
    partner_win = tl > 0 and win_seat != seat and side[np.uint64(win_seat)] == side[np.uint64(seat)]
    mine = held[np.uint64(seat)]
    # the cards that would take the trick
    beat = 0 if tl == 0 else int(above[np.uint64(trick[np.uint64(win)])])
    # unsigned: no fix-up for a negative card
    led = int(np.uint64(trick[0]) // np.uint64(N_RANKS))
    allowed = mine if tl == 0 else _legal_given(suit_mask, par[PAR_TRUMP], duties, mine, led, beat, partner_win)
    f[COUNT] = _gather(held, who, seat, allowed, trick, tl, beat, partner_win, par, side, tab, order, ranked, hist,
                       moves[np.uint64(d)], keys)
    if tl == 0:
        _killer_first(moves[np.uint64(d)], f[COUNT], f[np.uint64(KILLER + leader)] - 1)
    f[AT] = 0
    return -1


@inlined
def _killer_first(moves: Any, count: int, killer: int) -> None:
    """Move ``killer`` (the last lead that refuted a node of this ply) to the front of ``moves``, if there."""
    for i in range(count):
        if moves[i] == killer:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = killer
            return


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
        data = (f[LOWER] << TT_LOWER) | (f[LEFT] << TT_LEFT) | (generation << TT_GENERATION) | f[UPPER]
        tt[slot, 0], tt[slot, 1] = f[KEY], data
    return result


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
        return -1
    # the last trick's bonus
    points += par[PAR_LAST_TRICK] if left == 1 else 0
    winner = _seat(f[LEADER], nwin, players)
    f[GAIN] = points if side[np.uint64(winner)] == 0 else 0
    if left == 1:
        return 0
    g[TL], g[LEADER], g[WIN], g[NEED], g[REST], g[LEFT] = 0, winner, 0, f[NEED] - f[GAIN], f[REST] - points, left - 1
    g[PTS] = 0
    return -1


@inlined
def _back(f: Any, d: int, held: Any, who: Any, moves: Any) -> int:
    """Take back node ``d``'s current move; the card."""
    c = moves[np.uint64(d), np.uint64(f[AT])]
    _take(held, who, f[SEAT], c, 1)
    return int(c)


@kernel
def reach(hands: Any, held: Any, tricks: Any, tl: int, leader: int, win: int, need: int, rest: int,
          left: int, par: Any, duties: Any, side: Any, tab: Any, above: Any, suit_mask: Any, order: Any, ranked: Any,
          zob: Any, skey: Any, tt: Any, hist: Any, moves: Any, keys: Any, fr: Any, who: Any, stats: Any) -> int:
    """Does our side take at least ``need`` more counters with best play by both sides? A bound ``b`` that
    answers it: ``b >= need`` (yes) when our side surely takes ``b``, ``b < need`` (no) when it takes at
    most ``b`` (a fail-soft null-window search: the bound is often tighter than ``need``).

    ``left``: tricks to go, the current one included; ``tl`` cards are on it (``tricks[left]``)
    led by ``leader``, ``win`` the position winning it. ``rest``: the counters still to be won,
    meaningful at a trick boundary (``tl == 0``), where the table is used. The search runs on an
    explicit stack (``fr``, one row per card played), not by recursion (numba's cache does not
    keep recursive functions reliably).
    """
    f = fr[0]
    f[TL], f[LEADER], f[WIN], f[NEED], f[REST], f[LEFT] = tl, leader, win, need, rest, left
    f[PTS] = _counters(tricks[left], tl, tab)
    d = 0
    _holders(hands, par[PAR_PLAYERS], who)
    for s in range(N_SUITS):
        _suit_key(s, who, _held_any(held, par[PAR_PLAYERS]), par, tab, order, ranked, zob, skey[left])
    r = -1
    # node d is new: open it (one call site: everything it calls is compiled in once)
    opening = True
    while True:
        if opening:
            r = _enter(fr, d, held, who, tricks, par, duties, side, tab, above, suit_mask, order, ranked, zob, skey, tt,
                       hist, moves, keys, stats)
            opening = False
        # node d answered with bound r (a node past the last trick: 0): hand it to its parent
        if r >= 0:
            if d == 0 or stats[STAT_ABORTED] == 1:
                return r
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
                r = _close(f, r, tt, stats)
                continue
            f[BEST] = max(f[BEST], r) if f[OURS] == 1 else min(f[BEST], r)
            f[AT] += 1
        f = fr[np.uint64(d)]
        if f[AT] >= f[COUNT]:
            r = _close(f, f[BEST], tt, stats)
            continue
        r = _play(fr, d, held, who, tricks, par, side, tab, above, moves)
        d += 1
        opening = r < 0


def empty_stats() -> np.ndarray:
    """``stats`` for ``reach`` (``[nodes, node limit, aborted, generation]``, docs/solver.md), all 0."""
    return np.zeros(STAT_GENERATION + 1, dtype=np.int64)
