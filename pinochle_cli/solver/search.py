"""The compiled double-dummy search: "can our side still take ``need`` counters from here?"

``reach`` answers that question for a position given as the arrays ``solve.py`` builds from the
ruleset (nothing here names a game), and returns a bound that answers it (fail-soft); it sets
``stats[2]`` and stops when it passes the node limit in ``stats[1]``. It raises nothing on
purpose. Given ``gt`` and ``zc`` (None: without), it also keeps generalised entries, bounds that hold for every
position differing only in cards whose rank they did not depend on; the values are the same either way. The
arrays, the table, the bounds, the move ordering and what was measured: docs/solver.md (``pinochle docs solver``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import N_RANKS, N_SUITS, SUIT_MASK
from ..game.kernels import inlined, kernel, legal_given, low_bit, popcount

__all__ = [
    "BUCKET", "COUNTER_LIMIT", "KILLER", "LEAD_PLACE", "PAR_CLASSES", "PAR_LAST_TRICK", "PAR_OURS", "PAR_PLAYERS",
    "PAR_TRUMP", "SEAT_BITS", "STAT_ABORTED", "STAT_GENERATION", "STAT_LIMIT", "STAT_NODES", "TAB_CLASS", "TAB_COUNTER",
    "SUIT_CACHE_BITS", "TAB_STRENGTH", "TAGS", "empty_general_table", "empty_stats", "empty_suit_cache", "reach",
]

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
# the suit keys' cache: 2^bits rows of [holders of a suit's ranks 0-2, of ranks 3-5 | suit << 60, key words]
SUIT_CACHE_BITS = 10
# the holders of half a suit's ranks fill one word (``who`` below 2^16: at most four players)
_WHO_WIDTH = 16
_HALF = N_RANKS // 2
# the fields of a table row's second word: limits << 48 | lower << 32 | left << 24 | generation << 16 | upper (the
# limits: with generalised entries, what the bounds depend on, see ``_limits``)
TT_LIMITS, TT_LOWER, TT_LEFT, TT_GENERATION = 48, 32, 24, 16
# the columns of ``par``, the rows of ``tab`` and the columns of ``stats`` (see the module docstring)
PAR_PLAYERS, PAR_TRUMP, PAR_LAST_TRICK, PAR_CLASSES, PAR_OURS = range(5)
TAB_STRENGTH, TAB_COUNTER, TAB_CLASS = range(3)
STAT_NODES, STAT_LIMIT, STAT_ABORTED, STAT_GENERATION = range(4)
# move ordering: the card's heuristic score above its history score
_ORDER_SHIFT = 40
# move ordering: added to a lead a partner can trump, taken from one an opponent can (outweighs the rest)
_LEAN = 1200
# move ordering: taken from a lead for each card the opponents may answer it with (its fan-out)
_FAN = 200


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
def _held_any(held: Any, players: int) -> int:
    """The cards in some hand, a mask."""
    cards = 0
    for h in range(players):
        cards |= held[h]
    return cards


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


# the bit count, compiled into the search
_popcount = inlined(getattr(popcount, "py_func", popcount))


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
            n += _popcount(legal_given(suit_mask, par[PAR_TRUMP], duties, held[u], s, beat, False))
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


# a frame of the search stack: one node (``ON``: the cards on the trick, a mask)
# with generalised entries (``gt`` given), at a trick boundary: ``REL`` the cards whose rank the node's
# bound depends on, ``PRUNE`` the cards its trick left out as equal to a stronger card of the same hand, ``REQ``
# the cards whose rank the bound handed to the parent depends on, ``LREQ`` and ``UREQ`` those of the bounds the
# probe found (masks of card indices; -1: the exact row's, whose places are ``ELIM``), ``LIMITS`` what the table
# row written for it depends on (``_limits``), ``CS1``, ``CS2`` the count words of its position (``_count_words``)
TL, LEADER, WIN, NEED, REST, LEFT, SLOT, KEY, LOWER, UPPER, COUNT, AT, OURS, BEST, GAIN, SEAT, PTS, ON, LAZY, REL, \
    PRUNE, REQ, LREQ, UREQ, LIMITS, ELIM, CS1, CS2, KILLER = range(29)


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



# ---------------------------------------------------------------- generalised entries (``gt`` given)
# A bound found by a search holds for every position that differs only in the holders of cards whose rank it
# never depended on, each hand keeping its count of such cards per suit and value class (docs/solver.md,
# "Generalised entries"). Per suit those are the cards below the weakest card that mattered. Without them
# ``reach`` is given None for ``gt`` and ``zc``: numba then drops every branch on ``gt is not None`` before
# compiling, so the search without them runs none of this code.

# a suit's places kept exact, 4 bits a suit; all of them
_LIMIT_BITS, _ALL_PLACES = 4, 15


@inlined
def _suit_of(c: int) -> int:
    """The suit of card ``c`` (not negative), without a division's sign fix-up."""
    return int(np.uint64(c) // np.uint64(N_RANKS))


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
    allowed = mine if tl == 0 else legal_given(suit_mask, par[PAR_TRUMP], duties, mine, led, beat, partner_win)
    return _gather(held, who, seat, allowed, f[ON], tl, beat, partner_win, par, side, tab, order, ranked, hist, out,
                   keys, suit_mask, duties, above, fb, gt)


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


def empty_suit_cache() -> np.ndarray:
    """``kept`` for ``reach``: the suit keys' cache, empty (valid while ``zob`` and ``tab`` stay: a solver's life)."""
    return np.full((1 << SUIT_CACHE_BITS, 4), -1, dtype=np.int64)


def empty_general_table(bits: int) -> np.ndarray:
    """``gt`` for ``reach`` with generalised entries: ``2 ** bits`` rows (``[count key, cards key, limits,
    bounds]``), empty (a count key is odd: an empty row never matches)."""
    return np.zeros((1 << bits, 4), dtype=np.int64)


def empty_stats() -> np.ndarray:
    """``stats`` for ``reach`` (``[nodes, node limit, aborted, generation]``, docs/solver.md), all 0."""
    return np.zeros(STAT_GENERATION + 1, dtype=np.int64)
