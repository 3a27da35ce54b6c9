"""What the solver's benchmarks share: the fixed set of positions and the machine's line.

``positions(rules, deals, tricks)`` is the fixed set (seed 2026) every solver benchmark solves: ``deals`` random
deals of ``tricks`` cards a hand, a random trump, seat 0 to lead, the same on every machine and in every revision
whose ``Ruleset.deck.cards()`` and ``suits`` are the same. ``machine()`` is the line a benchmark starts with: the
cores (the house rules ask for them with every figure) and, where the system tells it, the load.
"""

from __future__ import annotations

import os

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
