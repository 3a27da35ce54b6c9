"""Small statistics for the estimate: the Wilson score interval of a binomial proportion."""

from __future__ import annotations

import math

__all__ = ["TRIALS_LIMIT", "Z95", "samples_for_half_width", "wilson_half_width", "wilson_interval"]

# the two-sided 95 % normal quantile
Z95 = 1.959963984540054
# trials counted exactly in a float: ``samples_for_half_width`` answers at most this
TRIALS_LIMIT = 2**53


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``n`` trials (``(0, 1)`` when n is 0).

    Unlike the normal (Wald) interval it stays inside [0, 1] and is not empty at 0 or n successes.
    Raises ``ValueError`` unless ``0 <= successes <= n``.
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n} trials")
    p = successes / n
    z2 = z * z
    # as a float: 4 n² of a huge integer n does not fit one
    nf = float(n)
    denom = 1.0 + z2 / nf
    centre = (p + z2 / (2 * nf)) / denom
    half = z * math.sqrt(p * (1.0 - p) / nf + z2 / (4 * nf * nf)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def wilson_half_width(successes: int, n: int, z: float = Z95) -> float:
    lo, hi = wilson_interval(successes, n, z)
    return (hi - lo) / 2


def samples_for_half_width(p: float, half_width: float, z: float = Z95, limit: int = TRIALS_LIMIT) -> int:
    """The fewest trials whose interval at a proportion ``p`` is no wider than ``half_width`` each side, or
    ``limit`` when more would be needed (so any positive half-width, however small, is answered).
    Raises ``ValueError`` unless ``0 < half_width``."""
    if not half_width > 0:
        raise ValueError(f"half-width {half_width}: a positive number is needed")
    p = min(max(p, 0.0), 1.0)

    def ok(n: int) -> bool:
        # rounding never makes more successes than trials
        return wilson_half_width(min(n, round(p * n)), n, z) <= half_width

    if not ok(limit):
        return limit
    # a tiny half-width squared is 0.0: the guess stays finite, and within the limit
    guess = z * z * max(p * (1.0 - p), 1e-4) / max(half_width * half_width, 1e-300)
    hi = max(1, math.ceil(min(guess, float(limit))))
    while not ok(hi):
        hi *= 2
    lo = 0
    # ok(hi), not ok(lo) (or lo = 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi
