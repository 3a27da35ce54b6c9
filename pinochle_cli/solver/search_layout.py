"""The arrays the compiled search shares with ``solve.py``, by name, and the primitives on a position's arrays.

``reach`` (``search.py``) takes a position as arrays that ``solve.py`` builds from the ruleset; each column, row
and field is named here once: ``par`` (``PAR_*``: the game's numbers), ``tab`` (``TAB_*``: per card its strength,
counters and value class), ``stats`` (``STAT_*``), a table row's second word (``TT_*``), a frame of the search's
stack (``TL`` … ``KILLER``, one row a node). The primitives read and change the position: ``who[card]`` (holder
bits, ``SEAT_BITS`` a seat, one bit a copy), ``held[seat]`` (a hand as a mask of cards), a card out of and back
into a hand, the seat some places after the leader, the counters on a trick; and the trick's rule
(``game.trick_rules``) and bit count (``game.kernels``), compiled into the search. Each is compiled into its
callers (``inlined``); nothing here raises on purpose. The arrays and what was measured: docs/solver.md
(``pinochle docs solver``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import N_RANKS
from ..game.kernels import inlined, legal_given, popcount

__all__ = [
    "BUCKET", "COUNTER_LIMIT", "KILLER", "LEAD_PLACE", "PAR_CLASSES", "PAR_LAST_TRICK", "PAR_OURS", "PAR_PLAYERS",
    "PAR_TRUMP", "SEAT_BITS", "STAT_ABORTED", "STAT_GENERATION", "STAT_LIMIT", "STAT_NODES", "TAB_CLASS",
    "TAB_COUNTER", "TAB_STRENGTH", "TAGS", "empty_stats",
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
# the fields of a table row's second word: limits << 48 | lower << 32 | left << 24 | generation << 16 | upper (the
# limits: with generalised entries, what the bounds depend on, see ``general._limits``)
TT_LIMITS, TT_LOWER, TT_LEFT, TT_GENERATION = 48, 32, 24, 16
# the columns of ``par``, the rows of ``tab`` and the columns of ``stats``
PAR_PLAYERS, PAR_TRUMP, PAR_LAST_TRICK, PAR_CLASSES, PAR_OURS = range(5)
TAB_STRENGTH, TAB_COUNTER, TAB_CLASS = range(3)
STAT_NODES, STAT_LIMIT, STAT_ABORTED, STAT_GENERATION = range(4)
# a frame of the search stack: one node (``ON``: the cards on the trick, a mask)
# with generalised entries (``gt`` given), at a trick boundary: ``REL`` the cards whose rank the node's
# bound depends on, ``PRUNE`` the cards its trick left out as equal to a stronger card of the same hand, ``REQ``
# the cards whose rank the bound handed to the parent depends on, ``LREQ`` and ``UREQ`` those of the bounds the
# probe found (masks of card indices; -1: the exact row's, whose places are ``ELIM``), ``LIMITS`` what the table
# row written for it depends on (``general._limits``), ``CS1``, ``CS2`` the count words of its position
# (``general._count_words``); ``KILLER`` + seat: the ply's killer lead of that leader, plus one (0: none)
TL, LEADER, WIN, NEED, REST, LEFT, SLOT, KEY, LOWER, UPPER, COUNT, AT, OURS, BEST, GAIN, SEAT, PTS, ON, LAZY, REL, \
    PRUNE, REQ, LREQ, UREQ, LIMITS, ELIM, CS1, CS2, KILLER = range(29)

# the duties' rule (game.trick_rules, compiled inline by game.kernels) and the bit count, compiled into the search
_legal_given = legal_given
_popcount = inlined(getattr(popcount, "py_func", popcount))


@inlined
def _holders(hands: Any, players: int, who: Any) -> None:
    """``who[card]`` from ``hands``: bit ``seat * SEAT_BITS + k`` set when ``seat`` holds more than ``k`` copies."""
    for c in range(who.shape[0]):
        w = 0
        for h in range(players):
            w |= ((1 << hands[h, c]) - 1) << (h * SEAT_BITS)
        who[c] = w


@inlined
def _held_any(held: Any, players: int) -> int:
    """The cards in some hand, a mask."""
    cards = 0
    for h in range(players):
        cards |= held[h]
    return cards


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


@inlined
def _seat(leader: int, k: int, players: int) -> int:
    """The seat ``k`` places after ``leader`` (``k < players``), without a division."""
    seat = leader + k
    return seat - players if seat >= players else seat


@inlined
def _suit_of(c: int) -> int:
    """The suit of card ``c`` (not negative), without a division's sign fix-up."""
    return int(np.uint64(c) // np.uint64(N_RANKS))


@inlined
def _counters(trick: Any, k: int, tab: Any) -> int:
    """The counters of the first ``k`` cards of ``trick``."""
    points = 0
    for j in range(k):
        # an index known not negative: no fix-up
        points += tab[TAB_COUNTER, np.uint64(trick[np.uint64(j)])]
    return points


def empty_stats() -> np.ndarray:
    """``stats`` for ``reach`` (``[nodes, node limit, aborted, generation]``), all 0."""
    return np.zeros(STAT_GENERATION + 1, dtype=np.int64)
