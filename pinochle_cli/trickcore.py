"""Compiled trick primitives: a ruleset and a trump as plain arrays, and functions over bitmask hands.

The core that the compiled card player (``estimate/compiled``) and the solver build on, compiled
with numba when it is installed (``cache=True``) and plain Python otherwise, with the same
answers. Cards are the package's indices ``suit * 6 + rank`` in the real suits; a set of
distinct cards is a ``uint32`` bitmask; a hand with copies is *levels* (``levels[k]``: the cards
held more than ``k`` times). ``compile_rules(rules, trump)`` gives the ``CoreRules`` arrays;
``legal_mask`` follows the rules of ``tricks.narrow`` (tested against it), ``winner_pos`` gives
the card winning a trick. Nothing is raised on purpose. The representation and how to
keep compiled calls cheap: docs/estimate.md, "Inside the estimator".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from .cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, SUIT_MASK, Suit
from .ruleset import Duty, Ruleset

__all__ = [
    "ALWAYS", "BEAT", "FOLLOW", "HAVE_NUMBA", "PLAIN_LED", "TRUMP", "TRUMP_LED", "CoreRules", "compile_rules",
    "encode_duties", "hand_add", "hand_count", "hand_remove", "hand_size", "inlined", "jit", "kernel", "legal_cards",
    "legal_given", "legal_mask", "levels_from_counts", "levels_to_counts", "low_bit", "lowest_card",
    "partner_winning_compiled",
    "popcount", "suit_masks", "trick_points", "winner_of", "winner_pos",
]

FOLLOW, TRUMP, BEAT = 0, 1, 2
ALWAYS, TRUMP_LED, PLAIN_LED = 0, 1, 2
_KINDS = {"follow": FOLLOW, "trump": TRUMP, "beat": BEAT}
_WHENS = {"always": ALWAYS, "trump-led": TRUMP_LED, "plain-led": PLAIN_LED}

F = TypeVar("F", bound=Callable[..., Any])

try:
    from numba import njit as _njit

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - numba is a dependency; this keeps the package usable without it
    HAVE_NUMBA = False


_JIT: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy"}
_KERNEL: dict[str, Any] = {**_JIT, "_nrt": False}


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (no Python objects, cached on disk); unchanged without numba."""
    if not HAVE_NUMBA:
        return fn  # pragma: no cover
    return cast(F, _njit(**_JIT)(fn))


def kernel(fn: F) -> F:
    """``jit`` for a function that allocates nothing: compiled without reference counting.

    A compiled call that passes arrays otherwise counts references to each of them (about 12 ns a
    call, more than the work of most helpers here); without it the call costs what its body does.
    """
    if not HAVE_NUMBA:
        return fn  # pragma: no cover
    return cast(F, _njit(**_KERNEL)(fn))


def inlined(fn: F) -> F:
    """``kernel`` compiled into each compiled caller (numba's ``inline="always"``): no call at all.

    A call between compiled functions is not inlined by numba: it passes every array argument
    as a structure of seven or more words, which costs more than a small helper's body. Use this
    for small helpers on a hot path (each caller compiles its own copy: mind the compile time).
    """
    if not HAVE_NUMBA:
        return fn  # pragma: no cover
    return cast(F, _njit(inline="always", **_KERNEL)(fn))


class CoreRules(NamedTuple):
    """One ruleset with one trump, as arrays (see the module docstring)."""

    players: int
    copies: int
    trump: int
    strength: npt.NDArray[np.int64]
    suit_mask: npt.NDArray[np.uint32]
    above: npt.NDArray[np.uint32]
    counter: npt.NDArray[np.int64]
    side: npt.NDArray[np.int64]
    duties: npt.NDArray[np.int64]
    stock_duties: npt.NDArray[np.int64]
    last_trick: int


def encode_duties(duties: tuple[Duty, ...]) -> npt.NDArray[np.int64]:
    """Duties as ``(n, 4)`` rows ``(kind, when, partner, only_if_winning)``."""
    rows = [(_KINDS[d.name], _WHENS[d.when], int(d.partner), int(d.only_if_winning)) for d in duties]
    return np.array(rows, dtype=np.int64).reshape(-1, 4)


def compile_rules(rules: Ruleset, trump: Suit | int | None) -> CoreRules:
    """The arrays of ``rules`` with ``trump`` (a suit, its number, or None/-1 for no trump)."""
    t = -1 if trump is None else int(trump)
    n = len(rules.rank_order)
    pos = {rank: i for i, rank in enumerate(rules.rank_order)}
    strength = np.array([n - pos[c.rank] if c.rank in pos and c in rules.deck else 0 for c in ALL_CARDS],
                        dtype=np.int64)
    suit = np.arange(N_CARDS) // N_RANKS
    above = np.zeros(N_CARDS, dtype=np.uint32)
    for w in range(N_CARDS):
        beats = ((suit == suit[w]) & (strength > strength[w])) | ((suit == t) & (suit[w] != t))
        above[w] = np.uint32(sum(1 << c for c in range(N_CARDS) if beats[c] and strength[c] > 0))
    suit_mask = suit_masks()
    counter = np.array([rules.counter_value(c) if c in rules.deck else 0 for c in ALL_CARDS], dtype=np.int64)
    side = np.array([rules.side_of(s) for s in range(rules.players)], dtype=np.int64)
    return CoreRules(rules.players, rules.deck.copies, t, strength, suit_mask, above, counter, side,
                     encode_duties(rules.play.duties), encode_duties(rules.play.stock_duties), rules.last_trick)


def suit_masks() -> npt.NDArray[np.uint32]:
    """``suit_mask[s]``: the cards of suit ``s`` as a mask (a new array)."""
    return np.array([SUIT_MASK << (N_RANKS * s) for s in range(N_SUITS)], dtype=np.uint32)


# --------------------------------------------------------------------------- hands

# the shift to the top byte of a 32-bit word
_TOP_BYTE = 24


@kernel
def popcount(x: int) -> int:
    """Bits set in a 32-bit mask."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return int(((x * 0x01010101) & 0xFFFFFFFF) >> _TOP_BYTE)


# (1 << i) % 37 is distinct for i < 36
_MOD37 = np.full(37, -1, dtype=np.int64)
for _i in range(36):
    _MOD37[(1 << _i) % 37] = _i


@kernel
def lowest_card(mask: int) -> int:
    """The lowest card of a non-empty mask (its lowest set bit), without a loop: iterate a mask's cards
    with ``c = lowest_card(m); m &= m - 1``."""
    return int(_MOD37[(mask & -mask) % 37])


def _low_bit() -> Callable[[int], int]:
    """The lowest card of a non-empty mask: one instruction (count trailing zeros) in compiled code, numba's
    intrinsic; else (numba without it, or ``NUMBA_DISABLE_JIT``) ``lowest_card``."""
    if HAVE_NUMBA:
        from numba.core import config

        if not getattr(config, "DISABLE_JIT", False):
            try:
                from numba.cpython.unsafe.numbers import trailing_zeros

                return cast(Callable[[int], int], trailing_zeros)
            except ImportError:  # pragma: no cover - an internal of numba's that might move
                pass
    return lowest_card


# the low-bit helper of compiled code (the intrinsic cannot be called from Python: use ``lowest_card`` there)
low_bit = _low_bit()


@jit
def levels_from_counts(counts: npt.NDArray[np.int64], copies: int) -> npt.NDArray[np.uint32]:
    """The levels of a hand given as 24 counts."""
    levels = np.zeros(copies, dtype=np.uint32)
    for c in range(N_CARDS):
        for k in range(counts[c]):
            levels[k] |= np.uint32(1 << c)
    return levels


@jit
def levels_to_counts(levels: npt.NDArray[np.uint32]) -> npt.NDArray[np.int64]:
    counts = np.zeros(N_CARDS, dtype=np.int64)
    for k in range(levels.shape[0]):
        for c in range(N_CARDS):
            counts[c] += (levels[k] >> c) & 1
    return counts


@kernel
def hand_count(levels: npt.NDArray[np.uint32], c: int) -> int:
    n = 0
    for k in range(levels.shape[0]):
        n += (levels[k] >> c) & 1
    return n


@kernel
def hand_size(levels: npt.NDArray[np.uint32]) -> int:
    n = 0
    for k in range(levels.shape[0]):
        n += popcount(levels[k])
    return n


@kernel
def hand_add(levels: npt.NDArray[np.uint32], c: int) -> None:
    """One more copy of card ``c`` (in place); the hand must hold fewer than ``copies``."""
    k = hand_count(levels, c)
    levels[k] |= np.uint32(1 << c)


@kernel
def hand_remove(levels: npt.NDArray[np.uint32], c: int) -> None:
    """One copy of card ``c`` fewer (in place); the hand must hold it."""
    k = hand_count(levels, c)
    levels[k - 1] &= np.uint32(~(1 << c) & 0xFFFFFFFF)


# --------------------------------------------------------------------------- tricks

@kernel
def winner_of(above: npt.NDArray[np.uint32], trick: npt.NDArray[np.int64], n: int) -> int:
    """``winner_pos`` over the ``above`` array itself (for loops that unpacked ``CoreRules``)."""
    best = 0
    for i in range(1, n):
        if (above[trick[best]] >> trick[i]) & 1:
            best = i
    return best


@kernel
def winner_pos(core: CoreRules, trick: npt.NDArray[np.int64], n: int) -> int:
    """Position (0 = leader) of the card winning the first ``n`` cards of ``trick`` (n ≥ 1)."""
    return winner_of(core.above, trick, n)


@kernel
def trick_points(core: CoreRules, trick: npt.NDArray[np.int64], n: int) -> int:
    """Counter points in the first ``n`` cards of ``trick`` (the last-trick bonus is not included)."""
    total = 0
    for i in range(n):
        total += core.counter[trick[i]]
    return total


@kernel
def partner_winning_compiled(core: CoreRules, leader_seat: int, trick: npt.NDArray[np.int64], n: int) -> bool:
    """Is the partner of the next player (seat ``(leader_seat + n) % players``) winning the trick?"""
    if n == 0:
        return False
    seat = (leader_seat + n) % core.players
    win_seat = (leader_seat + winner_pos(core, trick, n)) % core.players
    return bool(win_seat != seat and core.side[win_seat] == core.side[seat])


@kernel
def legal_mask(core: CoreRules, duties: npt.NDArray[np.int64], held: int, trick: npt.NDArray[np.int64], n: int,
               partner_win: bool) -> int:
    """The cards of ``held`` (distinct cards, a mask) the next player of the trick may play, as a mask."""
    return legal_cards(core.above, core.suit_mask, core.trump, duties, held, trick, n, partner_win)


@kernel
def legal_cards(above: npt.NDArray[np.uint32], suit_mask: npt.NDArray[np.uint32], trump: int,
                duties: npt.NDArray[np.int64], held: int, trick: npt.NDArray[np.int64], n: int,
                partner_win: bool) -> int:
    """``legal_mask`` over the arrays themselves: in a hot loop, unpack ``CoreRules`` once and call this
    (reading a field of a tuple of arrays inside compiled code costs reference counting each time)."""
    if n == 0 or held == 0:
        return held
    return legal_given(suit_mask, trump, duties, held, trick[0] // N_RANKS,
                       int(above[trick[winner_of(above, trick, n)]]), partner_win)


@kernel
def legal_given(suit_mask: npt.NDArray[np.uint32], trump: int, duties: npt.NDArray[np.int64], held: int, led: int,
                beat_mask: int, partner_win: bool) -> int:
    """``legal_cards`` of a trick under way (``held`` not empty) given the suit led and the cards that would take
    the trick (``above`` of the winning card): for a player who keeps track of both as the trick goes."""
    led_mask = int(suit_mask[led])
    trump_mask = int(suit_mask[trump]) if trump >= 0 else 0
    trump_led = led == trump
    allowed = held
    for i in range(duties.shape[0]):
        kind, when = duties[i, 0], duties[i, 1]
        if (when == TRUMP_LED and not trump_led) or (when == PLAIN_LED and trump_led):
            continue
        if duties[i, 2] == 0 and partner_win:
            continue
        if kind == FOLLOW:
            narrowed = allowed & led_mask
        elif kind == TRUMP:
            if trump < 0 or held & led_mask:
                continue
            narrowed = allowed & trump_mask
            if duties[i, 3] and not narrowed & beat_mask:
                continue
        else:
            narrowed = allowed & beat_mask
        if narrowed:
            allowed = narrowed
    return allowed
