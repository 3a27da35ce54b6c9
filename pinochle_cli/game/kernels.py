"""The compiled engine's ground: numba's decorators, the cache they share, and the rules of a trick compiled.

``jit``, ``kernel`` and ``inlined`` compile a function with numba when it is installed (plain Python
otherwise, with the same answers). Every compiled function keeps its machine code in one cache folder
named by a digest of the sources it is compiled from (``machine_code.engine_dir``): stale machine code
is never loaded, and nothing is stamped by hand.

The rules of a trick are not written here: ``winner``, ``duty_outcome``, ``legal_given`` and
``legal_in_trick`` are ``game.trick_rules``' own functions compiled (``compiled_copy``). ``CoreRules``
holds a ruleset with one trump as the arrays they read. Nothing is raised on purpose. How to keep
compiled calls cheap: docs/estimate.md, "Inside the estimator".
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ..ruleset import Ruleset
from . import trick_rules
from .machine_code import engine_dir
from .trick_rules import above_masks, encode, strengths, suit_masks

__all__ = [
    "HAVE_NUMBA", "CoreRules", "compile_rules", "compiled_copy", "duty_outcome", "inlined", "jit", "kernel",
    "legal_given", "legal_in_trick", "low_bit", "lowest_card", "popcount", "winner",
]

F = TypeVar("F", bound=Callable[..., Any])

try:
    from numba import config as _numba_config
    from numba import njit as _njit

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - numba is a dependency; this keeps the package usable without it
    HAVE_NUMBA = False


_JIT: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy"}
_KERNEL: dict[str, Any] = {**_JIT, "_nrt": False}


@contextlib.contextmanager
def _caching_in_engine_dir() -> Iterator[None]:
    """numba picks a function's cache folder when it is decorated: point it at ``engine_dir`` meanwhile."""
    config: Any = _numba_config
    old = config.CACHE_DIR
    config.CACHE_DIR = str(engine_dir())
    try:
        yield
    finally:
        config.CACHE_DIR = old


# --------------------------------------------------------------------------- the decorators

def _compile(fn: F, options: dict[str, Any]) -> F:
    if not HAVE_NUMBA:
        return fn  # pragma: no cover
    with _caching_in_engine_dir():
        return cast(F, _njit(**options)(fn))


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (no Python objects, cached on disk); unchanged without numba."""
    return _compile(fn, _JIT)


def kernel(fn: F) -> F:
    """``jit`` for a function that allocates nothing: compiled without reference counting.

    A compiled call that passes arrays otherwise counts references to each of them (about 12 ns a
    call, more than the work of most helpers here); without it the call costs what its body does.
    """
    return _compile(fn, _KERNEL)


def inlined(fn: F) -> F:
    """``kernel`` compiled into each compiled caller (numba's ``inline="always"``): no call at all.

    A call between compiled functions is not inlined by numba: it passes every array argument
    as a structure of seven or more words, which costs more than a small helper's body. Use this
    for small helpers on a hot path (each caller compiles its own copy: mind the compile time).
    """
    return _compile(fn, {"inline": "always", **_KERNEL})


def compiled_copy(fn: F, decorate: Callable[[F], F], **callees: Any) -> F:
    """``fn`` compiled by ``decorate``, the functions it calls by name replaced by ``callees`` (their compiled
    copies): how a plain-Python definition (``game.trick_rules``) serves compiled code without being rewritten."""
    if not HAVE_NUMBA:
        return fn  # pragma: no cover
    scope = {**fn.__globals__, **callees}
    copy = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__, copy.__doc__, copy.__module__ = fn.__qualname__, fn.__doc__, fn.__module__
    return decorate(cast(F, copy))


# --------------------------------------------------------------------------- the rules of a trick, compiled

winner = compiled_copy(trick_rules.winner, inlined)
duty_outcome = compiled_copy(trick_rules.duty_outcome, inlined)
legal_given = compiled_copy(trick_rules.legal_given, inlined, duty_outcome=duty_outcome)
legal_in_trick = compiled_copy(trick_rules.legal_in_trick, kernel, winner=winner, legal_given=legal_given)


class CoreRules(NamedTuple):
    """One ruleset with one trump as the arrays the compiled rules read (``game.trick_rules``)."""

    trump: int
    strength: npt.NDArray[np.int64]
    above: npt.NDArray[np.uint32]
    suit_mask: npt.NDArray[np.uint32]
    duties: npt.NDArray[np.int64]


def compile_rules(rules: Ruleset, trump: int) -> CoreRules:
    """The arrays of ``rules``'s play-off duties with ``trump`` (a suit's number, -1 for none)."""
    strength = strengths(rules.rank_order, (c.index for c in rules.deck.full()))
    return CoreRules(trump, np.array(strength, dtype=np.int64), np.array(above_masks(strength, trump), dtype=np.uint32),
                     np.array(suit_masks(), dtype=np.uint32), np.array(encode(rules.play.duties), dtype=np.int64))


# --------------------------------------------------------------------------- masks

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
