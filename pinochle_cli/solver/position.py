"""What a solver is asked about: a position, whether it can arise, and the limits of a search.

``Position`` is the hands in seat order, the current trick and the seat that led it; ``check_position`` raises
``PlayError`` naming the problem unless the position can arise in a deal of the ruleset. ``counter_step`` is the
grid the counter totals lie on. ``check_time_limit`` raises ``PlayError`` (parameter ``time_limit``) for a time
limit out of ``0 < t <= MAX_TIME_LIMIT``; ``quick_tricks`` is how many tricks left usually solve in under a
second. Nothing here loads numpy or numba: the command line reads positions and limits before it needs a solver
(``solve.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..cards import Card, Hand, Suit, format_cards
from ..errors import Argument, CardError, Message, PlayError
from ..game.tricks import check_play
from ..ruleset import Ruleset

__all__ = ["MAX_TIME_LIMIT", "QUICK_CARDS", "Position", "check_position", "check_time_limit", "counter_step",
           "quick_tricks"]

# the longest time limit (CPU seconds): a day. Nobody waits longer for one answer, and its node
# limit (the measured rate times the time left, about 2.5 million a second) stays far inside 64 bits
MAX_TIME_LIMIT = 86_400.0
# cards in play (all hands and the trick) that usually (in the median) solve in under a second:
# measured with benchmarks/bench_solve.py for issue 22 (2 cores, one used, load 3-5): double-deck
# --tricks 12 (48 cards) median 0.30 s, p95 2.1 s over 50 deals; single-deck whole deals (48 cards)
# median 0.36 s, p95 1.4 s over 50; double-deck --tricks 13 (52 cards) median 0.66 s but p95 5 s
QUICK_CARDS = 48


@dataclass(frozen=True)
class Position:
    """Hands in seat order, the current trick (leader first) and the seat that led it."""

    hands: tuple[Hand, ...]
    leader: int = 0
    trick: tuple[Card, ...] = field(default=())

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the current one included."""
        return len(self.hands[self.to_play])

    def counters_left(self, rules: Ruleset) -> int:
        """The counters still to be won: the cards held and on the trick, and the last-trick bonus."""
        cards = [*(c for h in self.hands for c in h), *self.trick]
        return sum(rules.counter_value(c) for c in cards) + rules.last_trick

    def play(self, card: Card) -> Position:
        """The position after the player to move plays ``card`` (a complete trick is cleared by the caller)."""
        seat = self.to_play
        hands = tuple(h.remove(card) if s == seat else h for s, h in enumerate(self.hands))
        return Position(hands, self.leader, (*self.trick, card))


def counter_step(rules: Ruleset) -> int:
    """The grid of counter totals: the gcd of every counter value and the last-trick bonus."""
    return math.gcd(*rules.counters.values(), rules.last_trick) or 1


def check_position(rules: Ruleset, trump: Suit, pos: Position, bidder: int | None = None) -> None:
    """``PlayError`` naming the problem unless ``pos`` can arise in a deal of ``rules`` whose bidder sits at
    ``bidder`` (needed where the auction forms the sides and a partner's card in the trick matters)."""
    players = rules.players
    if len(pos.hands) != players:
        raise PlayError(f"{len(pos.hands)} hands given; {rules.name} has {players} players")
    if not 0 <= pos.leader < players:
        raise PlayError(f"leader seat {pos.leader} is not a seat 0..{players - 1}")
    if len(pos.trick) >= players:
        raise PlayError(f"the trick {format_cards(pos.trick)} has {len(pos.trick)} cards: with {players} players "
                        "it is complete")
    if trump not in rules.suits:
        raise PlayError(f"trump {trump} is not a suit of {rules.deck.name}")
    played = {(pos.leader + j) % players for j in range(len(pos.trick))}
    size = len(pos.hands[pos.to_play])
    if size == 0:
        raise PlayError("the hands are empty: there is nothing left to play")
    sizes = [len(h) for h in pos.hands]
    if any(n != (size - 1 if seat in played else size) for seat, n in enumerate(sizes)):
        raise PlayError(f"the hands hold {', '.join(map(str, sizes))} cards (seat 0 first): they must be the same "
                        "size, one card fewer for each player who already played to the trick")
    if size > rules.hand_size:
        raise PlayError(f"the hands hold {size} cards; a hand in {rules.name} has {rules.hand_size}")
    try:
        rules.deck.check([c for h in pos.hands for c in h] + list(pos.trick))
    except CardError as exc:
        raise PlayError(f"the hands and the trick together: {exc}") from None
    for j, card in enumerate(pos.trick):
        seat = (pos.leader + j) % players
        ruling = check_play(rules, pos.hands[seat].add(card), card, pos.trick[:j], trump,
                            phase="play-off" if rules.has_stock else None, leader_seat=pos.leader,
                            bidder=bidder)
        if not ruling.allowed:
            raise PlayError(f"the trick: seat {seat} played {card} — {ruling.summary}")


def check_time_limit(seconds: float | None) -> None:
    """``PlayError`` (parameter ``time_limit``) unless ``seconds`` is None or a number above 0 and at most
    ``MAX_TIME_LIMIT``."""
    if seconds is not None and not 0 < seconds <= MAX_TIME_LIMIT:
        raise PlayError(Message(Argument("time_limit", seconds), ": give the CPU seconds as a number above 0 and at "
                                f"most {MAX_TIME_LIMIT:g} (a day)"))


def quick_tricks(rules: Ruleset) -> int:
    """The tricks left that solve in under a second in ``rules`` (from ``QUICK_CARDS``)."""
    return min(rules.hand_size, QUICK_CARDS // rules.players)
