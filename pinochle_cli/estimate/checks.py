"""What an estimate is asked, checked, and its seeds: the hand, the game, the suits, the run's sizes and seeds.

A hand of the wrong size raises ``CardError``; a game without an auction or with a stock, a suit the
bidder may not name, a pass policy the game cannot play, or samples, precision, confidence or seed
out of range raise ``SimulationError``. A run is seeded chunk by chunk (``chunk_rng``): the same seed
gives the same deals whatever the number of workers. The seeds: docs/estimate.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

import numpy as np

from ..arrays import IntArray
from ..cards import Card, Hand, Suit, format_cards
from ..errors import Argument, CardError, Message, SimulationError
from ..ruleset import Ruleset

__all__ = [
    "AHEAD_JOBS", "CHUNK", "DEFAULT_CONFIDENCE", "DEFAULT_SAMPLES", "JOB_CHUNKS", "MAX_BIDS", "MAX_SAMPLES",
    "MIN_PRECISION", "PASS_POLICIES", "SAMPLES_LIMIT", "STOP_BELOW", "FixedBury", "check_full_hand",
    "check_pass_policy", "check_rules", "chunk_rng", "default_seed", "estimable_trumps", "new_seed",
]


DEFAULT_SAMPLES = 2000
DEFAULT_CONFIDENCE = 0.75
# deals per chunk: the unit of seeding
CHUNK = 500
# at most this many chunks a job (the unit of parallel work)
JOB_CHUNKS = 4
# and at least this many jobs a worker when there are chunks enough
AHEAD_JOBS = 4
# --precision stops here even if an interval is still wider
MAX_SAMPLES = 200_000
# and asks no narrower half-width: MAX_SAMPLES deals make no interval narrower (9.6e-6, at 0 or 100 %)
MIN_PRECISION = 1e-5
# --samples above this is refused (about two minutes a suit on one core)
SAMPLES_LIMIT = 10_000_000
# the bid list ends at the first bid made less often than this
STOP_BELOW = 0.01
# and has at most this many bids
MAX_BIDS = 1000


# a fixed bury (``Simulator.play_slots``): the bidder's ``full`` ``(B, hand + widow)`` and trump ``(B,)`` to
# (buried, kept)
FixedBury = Callable[[IntArray, IntArray], tuple[IntArray, IntArray]]


# --------------------------------------------------------------------------- checks

def check_full_hand(rules: Ruleset, cards: Hand | Iterable[Card]) -> Hand:
    """The bidder's hand (before the widow): exactly ``rules.hand_size`` cards of the pack, else ``CardError``."""
    hand = rules.deck.check(cards)
    if len(hand) != rules.hand_size:
        before = ", the bidder's hand before the widow" if rules.widow_size else ""
        raise CardError(f"the hand has {len(hand)} cards ({format_cards(hand)}); a {rules.name} hand "
                        f"has exactly {rules.hand_size}{before}")
    return hand


def check_rules(rules: Ruleset) -> None:
    if rules.auction is None:
        how = "trump is turned up from the stock" if rules.trump_source == "turn-up" else "nobody bids"
        raise SimulationError(f"the {rules.name} game has no auction ({how}): there is no bid to estimate")
    if rules.has_stock:
        raise SimulationError(f"the {rules.name} game keeps a stock of {rules.stock_size} cards: estimates "
                              f"need every card dealt")
    if rules.players * rules.hand_size + rules.widow_size != rules.deck.size:
        widow = f" and a widow of {rules.widow_size}" if rules.widow_size else ""
        raise SimulationError(f"{rules.players} hands of {rules.hand_size}{widow} do not use the {rules.deck.size} "
                              f"cards of {rules.deck.name}")


def estimable_trumps(rules: Ruleset, hand: Hand, trump: Suit | None = None) -> list[Suit]:
    """The suits to estimate: every suit the bidder may name, or ``trump`` (``SimulationError`` if not allowed)."""
    check_rules(rules)
    eligible = rules.eligible_trumps(hand)
    if trump is None:
        return eligible
    if trump not in eligible:
        if trump not in rules.suits:
            raise SimulationError(f"trump {trump.letter}: {trump.word} is not a suit of {rules.deck.name}")
        cards = " ".join(f"{r.label}{trump.symbol}" for r in rules.trump_needs)
        raise SimulationError(f"trump {trump.letter}: the bidder may name only a suit in which they hold the "
                              f"{rules.trump_needs_words(spelled=True)}, and this hand has no {cards}"
                              f"{' pair' if len(rules.trump_needs) == 2 else ''}")
    return [trump]


def new_seed() -> int:
    """A fresh seed from the operating system's entropy (reported so that the run can be repeated)."""
    return int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0])


def default_seed(rules: Ruleset, hand: Hand, trump: Suit | None) -> int:
    """The seed of ``estimate`` when none is given: from the hand, the game and its options, and the
    trump asked for (None: any), so a question asked twice gets the same answer."""
    question = "|".join([rules.name, *(f"{k}={v}" for k, v in sorted(rules.chosen.items())),
                         " ".join(sorted(hand.ascii())), trump.letter if trump is not None else "any"])
    return int.from_bytes(hashlib.sha256(question.encode("utf-8")).digest()[:6], "big")


def chunk_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of chunk ``index``: the ``index``-th child of ``SeedSequence(seed)``."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index,))))


PASS_POLICIES = ("heuristic", "advised")


def check_pass_policy(rules: Ruleset, pass_policy: str, *, plain: bool = True) -> None:
    """``SimulationError`` unless ``pass_policy`` is one of ``PASS_POLICIES`` and, when advised, the game has a pass
    and the estimate is ``plain`` (no conditions, no points)."""
    if pass_policy not in PASS_POLICIES:
        raise SimulationError(Message(Argument("pass_policy", repr(pass_policy)),
                                      f": one of {', '.join(PASS_POLICIES)}"))
    if pass_policy != "heuristic" and not plain:
        raise SimulationError(Message(Argument("pass_policy", "advised"), ": the advised pass goes with a plain "
                                      "estimate (no conditions, no points)"))
    if pass_policy != "heuristic" and (not rules.partner_seats(0) or rules.exchange == 0):
        options = "".join(f" with {k}={v}" for k, v in rules.changed_options.items())
        raise SimulationError(Message(Argument("pass_policy", pass_policy), f": the {rules.name} game{options} has "
                                      "no pass (the bidder's partner sends no cards)"))


