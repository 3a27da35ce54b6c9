"""An exhaustive minimax over ``tricks``: the reference the compiled search is checked against.

``minimax(rules, trump, position)`` gives the counters seat 0's side takes from ``position`` on with perfect
play, as ``solve.Solver.value`` does, by trying every legal card of every player: no pruning, no table, no card
equivalence, nothing shared with the search but the trick rules of ``tricks``. Its work grows as the product of
the legal cards at every play, so it is for positions of a few tricks (three of four players take seconds).
``random_endgame`` draws such positions. Tests and ``benchmarks/bench_solve.py --check`` compare the two; the
command line does not use it. Raises what ``tricks`` raises for a position the rules do not allow.
"""

from __future__ import annotations

import numpy as np

from ..cards import Card, Hand, Suit
from ..game.tricks import legal_plays, trick_winner
from ..ruleset import Ruleset
from .solve import Position

__all__ = ["minimax", "random_endgame", "value_after"]


def _phase(rules: Ruleset) -> str | None:
    return "play-off" if rules.has_stock else None


def minimax(rules: Ruleset, trump: Suit, pos: Position, bidder: int | None = None) -> int:
    """Counters seat 0's side takes from ``pos`` on with both sides perfect (``bidder``: the bidder's seat, where
    the auction forms the sides)."""
    seat = pos.to_play
    legal = legal_plays(rules, pos.hands[seat], pos.trick, trump, phase=_phase(rules), leader_seat=pos.leader,
                        bidder=bidder)
    values = [value_after(rules, trump, pos, card, bidder) for card in legal]
    ours = rules.deal_side_of(seat, bidder) == rules.deal_side_of(0, bidder)
    return max(values) if ours else min(values)


def value_after(rules: Ruleset, trump: Suit, pos: Position, card: Card, bidder: int | None = None) -> int:
    """``minimax`` of the position after ``card`` is played from ``pos``, the counters of a trick it completes
    included."""
    seat = pos.to_play
    hands = tuple(h.remove(card) if s == seat else h for s, h in enumerate(pos.hands))
    trick = (*pos.trick, card)
    if len(trick) < rules.players:
        return minimax(rules, trump, Position(hands, pos.leader, trick), bidder)
    winner = (pos.leader + trick_winner(rules, trick, trump)) % rules.players
    points = sum(rules.counter_value(c) for c in trick)
    last = not any(hands)
    if last:
        points += rules.last_trick
    taken = points if rules.deal_side_of(winner, bidder) == rules.deal_side_of(0, bidder) else 0
    return taken if last else taken + minimax(rules, trump, Position(hands, winner), bidder)


def random_endgame(rules: Ruleset, rng: np.random.Generator, tricks: int, *,
                   mid_trick: bool = True, bidder: int | None = None) -> tuple[Suit, Position]:
    """A random position with ``tricks`` tricks to go (possibly some cards already on the trick; ``bidder``: the
    bidder's seat, where the auction forms the sides, for the duties of the cards played)."""
    cards = rules.deck.cards()
    order = rng.permutation(len(cards))
    trump = rules.suits[int(rng.integers(len(rules.suits)))]
    players = rules.players
    leader = int(rng.integers(players))
    hands = [Hand([cards[i] for i in order[s * tricks:(s + 1) * tricks]]) for s in range(players)]
    pos = Position(tuple(hands), leader)
    if mid_trick:
        for _ in range(int(rng.integers(players))):
            seat = pos.to_play
            legal = legal_plays(rules, pos.hands[seat], pos.trick, trump, phase=_phase(rules), leader_seat=leader,
                                bidder=bidder)
            pos = pos.play(legal[int(rng.integers(len(legal)))])
    return trump, pos
