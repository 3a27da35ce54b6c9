"""What the solver's benchmarks share: the fixed set of positions and the machine's line.

``positions(rules, deals, tricks)`` is the fixed set (seed 2026) every solver benchmark solves: ``deals`` random
deals of ``tricks`` cards a hand, a random trump, seat 0 to lead, the same on every machine and in every revision
whose ``Ruleset.deck.cards()`` and ``suits`` are the same. ``machine()`` is the line a benchmark starts with: the
cores (the house rules ask for them with every figure) and, where the system tells it, the load.
``judged_hint`` and ``print_judged`` are the hint benchmarks' comparison of two ways of asking the same
positions, each answer judged by a long run.
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

from pinochle_cli.cards import Hand, Suit
from pinochle_cli.ruleset import Ruleset
from pinochle_cli.solver.solve import Position


def positions(rules: Ruleset, deals: int, tricks: int) -> list[tuple[Suit, Position]]:
    """The fixed set: (trump, position) of ``deals`` deals of ``tricks`` cards a hand."""
    rng = np.random.default_rng(2026)
    cards = rules.deck.cards()
    out = []
    for _ in range(deals):
        order = rng.permutation(len(cards))
        trump = rules.suits[int(rng.integers(len(rules.suits)))]
        hands = tuple(Hand([cards[i] for i in order[s * tricks:(s + 1) * tricks]]) for s in range(rules.players))
        out.append((trump, Position(hands, 0)))
    return out


def machine(used: str = "one used") -> str:
    """``cores: 2 (one used)  load: 1.3``: the start of a benchmark's first line."""
    load = f"  load: {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return f"cores: {os.cpu_count()} ({used}){load}"


# one answer judged: its wall seconds, whether its card is the long run's, the points it loses by the long run's
Judged = tuple[float, bool, float]


def judged_hint(facts: Any, long: Any, seconds: float, seed: int, cores: int) -> Judged:
    """The hint for ``facts`` at ``seconds``, timed and judged by the long run ``long`` (a ``Hint``)."""
    from pinochle_cli.hint.advice import hint_facts

    points = {j.card: j.points for j in long.cards}
    start = time.monotonic()
    answer = hint_facts(facts, seconds=seconds, seed=seed, workers=cores)
    return time.monotonic() - start, answer.best == long.best, points[long.best] - points[answer.best]


def print_judged(head: str, rows: dict[str, list[Judged]], long_run: str, old: str, new: str) -> None:
    """A line per way of asking (``head``, then its seconds, its share of the long run's card, ``long_run``
    naming that run, and its points lost), then the paired difference of the points lost ``old`` − ``new`` with
    its 95 % interval."""
    for label, got in rows.items():
        s, same, lost = (np.array(x, dtype=float) for x in zip(*got, strict=True))
        print(f"{head} {label:6s} {len(got)} hints  seconds: median {np.median(s):.2f}  max {s.max():.2f}  same card "
              f"as {long_run}: {100 * same.mean():.0f}%  points lost: {lost.mean():.2f}", flush=True)
    diff = np.array([a[2] - b[2] for a, b in zip(rows[old], rows[new], strict=True)])
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("inf")
    print(f"    points lost, {old} - {new}: {diff.mean():+.2f} (95 % {diff.mean() - half:+.2f} to "
          f"{diff.mean() + half:+.2f})", flush=True)
