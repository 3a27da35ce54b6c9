"""The deal engine: a whole deal's tricks played out or replayed, with winners and counters.

Seats are numbered clockwise from 0; a trick is led by ``leader`` (the first) or by the winner
of the previous trick, and played in seat order. Counters are ``rules.counter_value`` of every
card a seat wins, and the winner of the last trick adds ``rules.last_trick``.

Stock convention (rulesets with ``stock``): ``stock`` lists the undealt cards from the top
down: ``stock[0]`` is drawn first and ``stock[-1]`` is the bottom card, which is the turned-up
trump card where ``rules.turn_up_trump`` (it must then be of the trump suit) and is drawn
last. While stock cards remain when a trick starts, that trick is played in the ``stock``
phase (``rules.play.stock_duties``); after it the winner draws the next card, then each other
player clockwise from the winner. Once the stock is empty the remaining tricks are the
``play-off`` (``rules.play.duties``). With 2 players and 24 stock cards: 12 stock tricks, then
12 play-off tricks.

Inside, hands are count lists and cards are indices (``suit * 6 + rank``): the play loop does
no object work except at the strategy callback.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..cards import ALL_CARDS, N_CARDS, Card, Hand, Suit, format_cards
from ..errors import CardError, IllegalPlayError, PlayError
from ..ruleset import Ruleset
from .tricks import Ruling, TrickRules, check_play, trick_rules

# replaying a record must not load numpy; only the random deals take a generator
if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DealPlay", "DealState", "IllegalPlayError", "Strategy", "deal_cards", "opening_leader", "play_deal",
    "random_strategy", "replay_deal",
]


@dataclass
class DealPlay:
    """A deal's play: every trick (cards in the order played), who led and won it, and the tally.

    ``counters`` and ``tricks_won`` are per seat; ``counters`` includes the last-trick bonus.
    ``phases`` is each trick's phase (None without a stock); ``draws`` the cards drawn after
    each trick as ``(seat, card)`` in drawing order. ``complete`` is False for a partial replay;
    its counters then count the completed tricks only.
    """

    tricks: list[list[Card]]
    leaders: list[int]
    winners: list[int]
    counters: list[int]
    tricks_won: list[int]
    phases: list[str | None] = field(default_factory=list)
    draws: list[list[tuple[int, Card]]] = field(default_factory=list)
    complete: bool = True

    def side_counters(self, rules: Ruleset) -> list[int]:
        """Counters per partnership (index into ``rules.partnerships``)."""
        return [sum(self.counters[s] for s in team) for team in rules.partnerships]

    def side_tricks(self, rules: Ruleset) -> list[int]:
        """Tricks won per partnership."""
        return [sum(self.tricks_won[s] for s in team) for team in rules.partnerships]


class DealState:
    """What a strategy sees when it must play: valid only during the callback.

    ``seat`` to play, ``trick`` so far (leader first), ``hand``, ``trump``, ``played`` (every
    card played this deal, in order, this trick's included), ``phase``, ``trick_number``
    (1-based), ``leader`` (seat that led this trick). ``counts`` is the hand as 24 counts.
    """

    __slots__ = ("_played", "_trick", "counts", "leader", "phase", "rules", "seat", "trick_number", "trump")

    def __init__(self, rules: Ruleset, trump: Suit, trick_number: int, seat: int, leader: int,
                 phase: str | None, trick: list[int], counts: list[int], played: list[int]) -> None:
        self.rules = rules
        self.trump = trump
        self.trick_number = trick_number
        self.seat = seat
        self.leader = leader
        self.phase = phase
        self._trick = trick
        self.counts = tuple(counts)
        self._played = played

    @property
    def trick(self) -> list[Card]:
        return [ALL_CARDS[i] for i in self._trick]

    @property
    def hand(self) -> Hand:
        return Hand.from_counts(self.counts)

    @property
    def played(self) -> list[Card]:
        return [ALL_CARDS[i] for i in self._played]


Strategy = Callable[[DealState, list[Card]], Card]


def random_strategy(rng: np.random.Generator) -> Strategy:
    """A strategy that plays a uniformly random legal card, drawing from ``rng``."""
    def choose(state: DealState, legal: list[Card]) -> Card:
        return legal[int(rng.integers(len(legal)))] if len(legal) > 1 else legal[0]
    return choose


def deal_cards(rules: Ruleset, rng: np.random.Generator) -> tuple[list[Hand], list[Card]]:
    """A shuffled deal: one hand per seat and the cards left: the stock (top first) or the widow; empty
    when every card is dealt."""
    cards = rules.deck.cards()
    order = rng.permutation(len(cards))
    shuffled = [cards[i] for i in order]
    n = rules.hand_size
    hands = [Hand(shuffled[s * n:(s + 1) * n]) for s in range(rules.players)]
    return hands, shuffled[rules.players * n:]


def opening_leader(rules: Ruleset, dealer: int, bidder: int | None = None) -> int:
    """Who leads the first trick under ``rules.play.leader``: the bidder or the dealer's left.
    Raises ``PlayError`` when the bidder leads and ``bidder`` is None."""
    if rules.play.leader == "bidder":
        if bidder is None:
            raise PlayError(f"in {rules.name} the bidder leads: a bidder is needed")
        return bidder
    return (dealer + 1) % rules.players


# --------------------------------------------------------------------------- the loop

# pick(trick number, phase, position in the trick, seat, the trick so far, the seat's counts, allowed) → card
Pick = Callable[[int, "str | None", int, int, list[int], list[int], list[int]], int]


def _check_setup(rules: Ruleset, hands: Sequence[Hand], trump: Suit, leader: int,
                 stock: Sequence[Card] | None, names: Sequence[str] | None) -> list[Card]:
    if len(hands) != rules.players:
        raise PlayError(f"{len(hands)} hands given; {rules.name} has {rules.players} players")
    if not 0 <= leader < rules.players:
        raise PlayError(f"leader seat {leader} is not a seat 0..{rules.players - 1}")
    if names is not None and len(names) != rules.players:
        raise PlayError(f"{len(names)} names given for {rules.players} players")
    if trump not in rules.suits:
        raise PlayError(f"trump {trump} is not a suit of {rules.deck.name}")
    for seat, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            who = names[seat] if names else f"seat {seat}"
            raise PlayError(f"{who}'s hand has {len(hand)} cards; a hand in {rules.name} has {rules.hand_size}")
    pile = list(stock or ())
    if rules.has_stock:
        if stock is None:
            raise PlayError(f"{rules.name} has a stock: the stock's {rules.stock_size} cards are needed")
        if len(pile) != rules.stock_size:
            raise PlayError(f"the stock has {len(pile)} cards; in {rules.name} it has {rules.stock_size}")
        if rules.turn_up_trump and pile[-1].suit != trump:
            raise PlayError(f"the turned-up card (bottom of the stock) is {pile[-1]}, so trump is "
                            f"{pile[-1].suit}, not {trump}")
    elif pile:
        raise PlayError(f"{rules.name} has no stock, but {len(pile)} stock cards were given")
    everything = [c for h in hands for c in h] + pile
    try:
        rules.deck.check(everything)
    except CardError as exc:
        raise PlayError(f"the hands{' and stock' if pile else ''} together: {exc}") from None
    return pile


def _trick(side: Sequence[int], t: TrickRules, counts: list[list[int]], lead: int, length: int,
           pick: Callable[[int, int, list[int], list[int], list[int]], int]) -> tuple[list[int], int]:
    """One trick's cards (``length`` of them, from ``lead``; ``side``: each seat's) → the card indices and
    the winning position. ``pick(position, seat, trick, hand counts, allowed)`` chooses each card."""
    players = len(side)
    trick: list[int] = []
    win = 0
    for j in range(length):
        seat = (lead + j) % players
        cnt = counts[seat]
        held = sum(1 << i for i in range(N_CARDS) if cnt[i])
        win_seat = (lead + win) % players
        partner = bool(j) and win_seat != seat and side[win_seat] == side[seat]
        allowed = t.legal(held, trick, partner)
        c = pick(j, seat, trick, cnt, [i for i in range(N_CARDS) if (allowed >> i) & 1])
        cnt[c] -= 1
        trick.append(c)
        win = t.winner(trick)
    return trick, win


def _run(rules: Ruleset, hands: Sequence[Hand], trump: Suit, leader: int, pile: list[Card],
         lengths: Sequence[int], pick: Pick, bidder: int | None = None) -> DealPlay:
    players = rules.players
    value = [rules.counter_value(c) for c in ALL_CARDS]
    # who plays with whom in this deal: the partnerships, or the bidder alone against the others
    side = [rules.deal_side_of(s, bidder) for s in range(players)]
    counts = [list(h.counts) for h in hands]
    stock = [c.index for c in pile]
    has_stock = rules.has_stock
    last = rules.tricks_per_deal - 1
    sp = 0
    tricks: list[list[Card]] = []
    leaders: list[int] = []
    winners: list[int] = []
    phases: list[str | None] = []
    draws: list[list[tuple[int, Card]]] = []
    counters = [0] * players
    won = [0] * players
    lead = leader
    complete = True
    for k, length in enumerate(lengths):
        phase: str | None = ("stock" if sp < len(stock) else "play-off") if has_stock else None
        rules_now = trick_rules(rules, trump, phase)
        trick, win = _trick(side, rules_now, counts, lead, length, functools.partial(pick, k, phase))
        tricks.append([ALL_CARDS[i] for i in trick])
        leaders.append(lead)
        phases.append(phase)
        if length < players:
            complete = False
            break
        w = (lead + win) % players
        winners.append(w)
        won[w] += 1
        counters[w] += sum(value[i] for i in trick) + (rules.last_trick if k == last else 0)
        drawn: list[tuple[int, Card]] = []
        if phase == "stock":
            for d in range(players):
                s = (w + d) % players
                counts[s][stock[sp]] += 1
                drawn.append((s, ALL_CARDS[stock[sp]]))
                sp += 1
        draws.append(drawn)
        lead = w
    if len(lengths) < rules.tricks_per_deal:
        complete = False
    return DealPlay(tricks, leaders, winners, counters, won, phases, draws, complete)


def _illegal(card: Card, ruling: Ruling, player: str) -> str:
    """Why ``card`` may not be played, without saying where."""
    if ruling.duty == "not-held":
        return f"{player} played {card}, which is not in their hand"
    return f"{player} played {card} holding {format_cards(ruling.holding)} — {ruling.summary}"


def replay_deal(rules: Ruleset, hands: Sequence[Hand], trump: Suit, leader: int,
                tricks: Sequence[Sequence[Card]], *, stock: Sequence[Card] | None = None,
                names: Sequence[str] | None = None, partial: bool = False, bidder: int | None = None) -> DealPlay:
    """Check a played deal and compute its winners and counters.

    ``hands``: each seat's cards when play starts; ``tricks``: the cards of each trick in the
    order played (its leader first); ``bidder``: the bidder's seat, needed where the auction
    forms the sides (``Ruleset.deal_sides``). Raises ``IllegalPlayError`` at the first card not held or
    not legal (naming ``names[seat]`` when given), ``PlayError`` for impossible input. Fewer
    tricks than a deal (or a last trick not complete) is a ``PlayError`` unless ``partial``.
    """
    pile = _check_setup(rules, hands, trump, leader, stock, names)
    n = rules.tricks_per_deal
    if len(tricks) > n:
        raise PlayError(f"{len(tricks)} tricks given; a deal of {rules.name} has {n}")
    for k, trick in enumerate(tricks):
        if not trick or len(trick) > rules.players:
            raise PlayError(f"trick {k + 1} has {len(trick)} cards; a trick has {rules.players}")
        if len(trick) < rules.players and (not partial or k != len(tricks) - 1):
            raise PlayError(f"trick {k + 1} has {len(trick)} cards; a trick has {rules.players}")
    if len(tricks) < n and not partial:
        raise PlayError(f"{len(tricks)} tricks given; a deal of {rules.name} has {n}")
    who = list(names) if names is not None else [f"seat {s}" for s in range(rules.players)]

    def pick(k: int, phase: str | None, j: int, seat: int, trick: list[int], counts: list[int],
             allowed: list[int]) -> int:
        card = tricks[k][j]
        i = card.index
        if counts[i] and i in allowed:
            return i
        hand = Hand.from_counts(counts)
        ruling = check_play(rules, trump, [ALL_CARDS[x] for x in trick], hand, card, phase=phase,
                            leader_seat=(seat - j) % rules.players, bidder=bidder)
        raise IllegalPlayError(k + 1, seat, card, ruling, who[seat], _illegal(card, ruling, who[seat]))

    return _run(rules, hands, trump, leader, pile, [len(t) for t in tricks], pick, bidder)


def play_deal(rules: Ruleset, hands: Sequence[Hand], trump: Suit, leader: int, choose: Strategy, *,
              stock: Sequence[Card] | None = None, bidder: int | None = None) -> DealPlay:
    """Play a whole deal, asking ``choose(state, legal)`` for each card (``legal``: distinct, hand order).
    ``bidder``: the bidder's seat, needed where the auction forms the sides.

    A strategy that returns a card not in ``legal`` is a ``PlayError``.
    """
    pile = _check_setup(rules, hands, trump, leader, stock, None)
    played: list[int] = []

    def pick(k: int, phase: str | None, j: int, seat: int, trick: list[int], counts: list[int],
             allowed: list[int]) -> int:
        legal = [ALL_CARDS[i] for i in allowed]
        state = DealState(rules, trump, k + 1, seat, (seat - j) % rules.players, phase, trick, counts, played)
        card = choose(state, legal)
        i = card.index
        if i not in allowed:
            raise PlayError(f"trick {k + 1}: the strategy chose {card} for seat {seat}; legal: {format_cards(legal)}")
        played.append(i)
        return i

    return _run(rules, hands, trump, leader, pile, [rules.players] * rules.tricks_per_deal, pick, bidder)
