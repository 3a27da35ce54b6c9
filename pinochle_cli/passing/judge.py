"""One pass question, and its candidates played on common sampled deals.

A ``PassQuestion`` is who passes (``role``: the partner sends, the bidder returns), the cards that
player sees, the trump and the bid. ``Judge.deal(index, n, seed)`` deals chunk ``index`` of the
unseen cards (the same deals for every candidate; in a game where naming trump takes cards, the
bidder's hand holds them); ``Judge.play(cands, dealt)`` plays each candidate on each deal by
``Simulator.play_slots`` with that pass fixed (the partner's pass followed by the heuristic return;
the bidder's return after the pass received), exactly as ``estimate`` plays a deal. ``PassQuestion.check``
raises ``PassError`` for a game without a pass and cards of the wrong size.
``Judging`` is what a race plays (this judge and the bury's), ``outcome_of`` its games as outcomes.
With conditions (``PassQuestion.given``, seats relative to the player asking; ``auction_givens`` reads a
won auction into them) the deals come from ``ConditionedDeals``, exact, and ``ConditionError`` refuses
conditions no deal meets.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..arrays import IntArray
from ..cards import N_CARDS, Card, Hand, Suit, format_cards
from ..errors import Argument, Message, PassError, SimulationError
from ..estimate.auction import read_won_auction
from ..estimate.checks import chunk_rng
from ..estimate.conditioned import ConditionedDeals
from ..estimate.conditions import Clause, Given, seat_of, seat_words
from ..estimate.games import GameBatch, Simulator
from ..player.exchange import choose_pass, choose_return
from ..ruleset import MAX_POINTS, Conventions, Ruleset
from .candidates import Pass

__all__ = ["ROLES", "Dealt", "Judge", "Judging", "PassQuestion", "RaceOutcome", "auction_givens", "check_scorable_bid",
           "outcome_of", "question_seed"]

ROLES = ("partner", "bidder")
# redeals a chunk may take to give the bidder the cards that name trump, before the question is refused
MAX_REDEALS = 200


@dataclass(frozen=True)
class PassQuestion:
    """Who passes, what they hold, the contract. ``hand``: the partner's dealt hand, or the bidder's after
    receiving the pass; ``received``: the cards the bidder received, when known (part of ``hand``)."""

    rules: Ruleset
    role: str
    hand: Hand
    trump: Suit
    bid: int
    received: Hand | None = None
    # conditions on the other hands, seats relative to ``hand``'s player (the partner's or the bidder's)
    given: tuple[Given, ...] = ()

    @property
    def size(self) -> int:
        """Cards in a pass."""
        return self.rules.exchange

    @property
    def partner(self) -> int:
        return self.rules.partner_seats(0)[0]

    def check(self) -> None:
        """``PassError`` (or ``SimulationError``, as ``estimate`` refuses the game) unless the question can be
        asked."""
        r = self.rules
        if not r.partner_seats(0) or r.exchange == 0:
            raise PassError(f"the {r.name} game{self._options()} has no pass: the bidder's partner sends "
                            f"no cards, so there is nothing to advise")
        if self.role not in ROLES:
            raise PassError(Message(Argument("role", repr(self.role)), f": one of {', '.join(ROLES)}"))
        if self.received is not None and len(self.received) != r.exchange:
            raise PassError(Message(Argument("received"), f" {len(self.received)} cards "
                                    f"({format_cards(self.received)}); the pass is {r.exchange} cards in {r.name}"))
        want = r.hand_size if self.role == "partner" else r.hand_size + r.exchange
        if len(self.hand) != want:
            whose = "the partner's hand" if self.role == "partner" else "the bidder's hand with the pass received"
            raise PassError(Message(f"the hand has {len(self.hand)} cards ({format_cards(self.hand)}); {whose} has "
                                    f"exactly {want} in {r.name}"), parameter="hand")
        check_scorable_bid(r, self.bid)
        if self.role == "partner":
            held = [Card(rank, self.trump) for rank in r.trump_needs
                    if self.hand.count(Card(rank, self.trump)) == r.deck.copies]
            if held:
                raise PassError(Message(Argument("trump", self.trump.letter), ": the bidder may name only a suit in "
                                        f"which they hold the {r.trump_needs_words(spelled=True)}, and this hand "
                                        f"holds every {format_cards(held)}"))
        if self.role == "bidder" and self.given and self.received is None:
            raise PassError(Message("conditions on the hands as dealt need the cards received (the bidder's hand "
                                    "before the pass)"), parameter="given")
        if self.role == "bidder" and self.received is not None:
            dealt = self.hand - self.received
            if self.trump not in r.eligible_trumps(dealt):
                raise PassError(Message(Argument("trump", self.trump.letter), ": the bidder may name only a suit in "
                                        f"which they hold the {r.trump_needs_words(spelled=True)} before the pass, "
                                        f"and {format_cards(dealt)} does not"))

    def _options(self) -> str:
        changed = self.rules.changed_options
        return "".join(f" with {k}={v}" for k, v in changed.items())


def check_scorable_bid(rules: Ruleset, bid: int) -> None:
    """``PassError`` unless ``bid`` is a bid of the game's auction that a deal can score."""
    assert rules.auction is not None
    if bid > MAX_POINTS:
        raise PassError(Message(Argument("bid", bid), f": more than any {rules.name} deal can score (at most "
                                f"{MAX_POINTS:,} points are counted)"))
    if not rules.auction.is_valid_bid(bid):
        raise PassError(Message(Argument("bid", bid), f": not a bid of {rules.name} (at least "
                                f"{rules.auction.minimum}, on its steps)"))


def auction_givens(rules: Ruleset, role: str, bid: int, calls: str, dealer: str,
                   conventions: Conventions | None) -> tuple[Given, ...]:
    """The conditions a won auction shows (seats relative to the player asking), checked to end with the bidder's
    ``bid``: the partner's as the partner, ``me`` as the bidder (``PassError``, ``AuctionError``)."""
    state = read_won_auction(rules, calls, dealer, conventions)
    winner = "partner" if role == "partner" else "me"
    if state.high != bid or state.high_seat != winner:
        raise PassError(Message(Argument("auction", f'"{calls}"'), f": won by {state.high_seat} at {state.high}, "
                                f"and the question is a bid of {bid} by {winner}"))
    return state.givens


def question_seed(q: PassQuestion) -> int:
    """The seed when none is given: from the question itself, so that it gets the same answer every time."""
    r = q.rules
    text = "|".join([r.name, *(f"{k}={v}" for k, v in sorted(r.chosen.items())), q.role,
                     " ".join(sorted(q.hand.ascii())), q.trump.letter, str(q.bid),
                     " ".join(sorted(q.received.ascii())) if q.received is not None else "-",
                     *(str(g) for g in q.given)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:6], "big")


@dataclass
class Dealt:
    """A chunk of deals: ``cards`` ``(n, unseen)`` the unseen cards in the order dealt, ``leader`` ``(n,)``."""

    cards: IntArray
    leader: IntArray


@dataclass
class RaceOutcome:
    """Per candidate (rows) and deal (columns): did the side make the bid, its meld, its counters, and what the
    contract scores it (meld kept + counters when made, minus the bid when set)."""

    made: np.ndarray
    meld: IntArray
    counters: IntArray
    points: IntArray


class Judging:
    """What a race plays (``race.race``): chunks of common deals, and candidates played on them."""

    sim: Simulator

    def deal(self, index: int, n: int, seed: int) -> Dealt:
        raise NotImplementedError

    def play(self, cands: Sequence[Pass], dealt: Dealt) -> RaceOutcome:
        raise NotImplementedError

    def acceptance(self, seed: int, needed: int) -> float | None:
        """The share of drawn deals that meet the conditions (None: none given)."""
        return None


def outcome_of(g: GameBatch, side: int, bid: int, m: int, n: int) -> RaceOutcome:
    """The ``m × n`` games ``g`` (candidate by candidate) as outcomes of a contract of ``bid``."""
    made = g.claim >= bid
    points = np.where(made, g.claim, -bid)
    return RaceOutcome(made.reshape(m, n), g.meld.reshape(m, n), g.points[:, side].reshape(m, n), points.reshape(m, n))


class Judge(Judging):
    """The simulator of one question (picklable as the question)."""

    def __init__(self, q: PassQuestion) -> None:
        q.check()
        self.q = q
        r = q.rules
        self.sim = Simulator(r, q.hand, [q.trump])
        self.others = [s for s in range(r.players) if s != (q.partner if q.role == "partner" else 0)]
        self.hand_cards = np.repeat(np.arange(len(q.hand.counts)), np.array(q.hand.counts))
        self.dealer = self._conditioned() if q.given else None

    def __reduce__(self) -> tuple[type[Judge], tuple[PassQuestion]]:
        return Judge, (self.q,)

    def deal(self, index: int, n: int, seed: int) -> Dealt:
        """Chunk ``index``: ``n`` deals of the unseen cards from its own generator (``chunk_rng``)."""
        r = self.q.rules
        rng = chunk_rng(seed, index)
        if self.dealer is not None:
            cards = self._conditioned_cards(rng, n)
            leader = np.zeros(n, dtype=np.int64) if r.play.leader == "bidder" else rng.integers(0, r.players, n)
            return Dealt(cards, leader)
        unseen = self.sim.unseen
        cards = rng.permuted(np.broadcast_to(unseen, (n, len(unseen))), axis=1)
        if self.q.role == "partner" and r.trump_needs:
            cards = self._bidder_can_name(rng, cards)
        leader = np.zeros(n, dtype=np.int64) if r.play.leader == "bidder" else rng.integers(0, r.players, n)
        return Dealt(cards, leader)

    def _conditioned(self) -> ConditionedDeals:
        """The exact conditioned sampler of the hands around the player asking (as the bidder: the partner holding
        the cards received). Its seats are renamed so that it deals in the order ``deal`` lays the unseen cards
        out: conditions every deal meets then draw the very deals ``deal`` draws."""
        q, r = self.q, self.q.rules
        seen = q.hand if q.received is None else q.hand - q.received
        # errors quote the seats as given
        ConditionedDeals(r, seen, q.given)
        words = {seat_of(r, w): w for w in seat_words(r)}
        slot = {a: words[j + 1] for j, a in enumerate(self._layout())}
        here = q.partner if q.role == "partner" else 0
        givens = [Given(slot[(here + seat_of(r, g.who)) % r.players], g.clauses) for g in q.given]
        if q.received is not None:
            givens.append(Given(slot[q.partner], (Clause("holds", cards=tuple(sorted(q.received))),)))
        elif r.trump_needs:
            # the bidder holds what naming trump takes (as ``_bidder_can_name`` redeals for)
            needs = tuple(Card(rank, q.trump) for rank in r.trump_needs)
            givens.append(Given(slot[0], (Clause("holds", cards=needs),)))
        dealer = ConditionedDeals(r, seen, givens)
        dealer.givens = q.given
        if q.received is not None:
            # the cards received are known to be the partner's: placed, not weighed as a condition
            got = np.bincount([c.index for c in q.received], minlength=N_CARDS)
            dealer.partial = [(s, c, m) for s, c, m in dealer.partial if not (s == 1 and m == got[c])]
        return dealer

    def _layout(self) -> list[int]:
        """The seats in the order ``deal`` lays the unseen cards out (as the bidder: the partner's first)."""
        if self.q.role == "partner":
            return self.others
        return [self.q.partner, *(s for s in self.others if s != self.q.partner)]

    def acceptance(self, seed: int, needed: int) -> float | None:
        """The share of drawn deals that meet the conditions (None without conditions); ``RareConditionError`` when
        ``needed`` deals would take too many drawn."""
        if self.dealer is None:
            return None
        return self.dealer.check_share(seed, needed, [self.q.trump])

    def _conditioned_cards(self, rng: np.random.Generator, n: int) -> IntArray:
        """``n`` conditioned deals laid out as ``deal`` lays the unseen cards out."""
        assert self.dealer is not None
        deals, _, _ = self.dealer.draw(rng, n, self.q.trump)
        if self.q.role == "partner":
            return deals.reshape(n, -1)
        # the partner's hand less the cards received (placed first)
        return np.concatenate([deals[:, 0, self.q.size:], deals[:, 1:].reshape(n, -1)], axis=1)

    def _bidder_can_name(self, rng: np.random.Generator, cards: IntArray) -> IntArray:
        """Deals redrawn until the bidder (the first ``hand_size`` cards) holds what naming trump takes."""
        r, t = self.q.rules, int(self.q.trump)
        needs = [Card(rank, self.q.trump).index for rank in r.trump_needs]
        h = r.hand_size
        for _ in range(MAX_REDEALS):
            ok = np.ones(len(cards), dtype=bool)
            for c in needs:
                ok &= (cards[:, :h] == c).any(axis=1)
            if ok.all():
                return cards
            bad = np.flatnonzero(~ok)
            cards[bad] = rng.permuted(cards[bad], axis=1)
        raise SimulationError(Message(Argument("trump", Suit(t).letter), ": the bidder can hardly hold the "
                                      f"{r.trump_needs_words(spelled=True)} beside this hand, as naming trump "
                                      "needs"))

    def play(self, cands: Sequence[Pass], dealt: Dealt) -> RaceOutcome:
        """Every candidate on every deal of ``dealt``: ``(len(cands), n)`` outcomes."""
        n, m = len(dealt.leader), len(cands)
        slots = self.slots(cands, dealt.cards)
        trump = np.full(n * m, int(self.q.trump), dtype=np.int64)
        exchange = self._fixed_pass(cands, n) if self.q.role == "partner" else _nothing
        g = self.sim.play_slots(slots, trump, np.tile(dealt.leader, m), exchange)
        return outcome_of(g, self.sim.side, self.q.bid, m, n)

    def slots(self, cands: Sequence[Pass], cards: IntArray) -> IntArray:
        """``(len(cands) × n, players, hand_size)`` whole deals, candidate by candidate: before the pass (the
        partner's role) or after the bidder's return (the bidder's)."""
        r, q = self.q.rules, self.q
        n, h, m = len(cards), r.hand_size, len(cands)
        slots = np.empty((m, n, r.players, h), dtype=np.int64)
        if q.role == "partner":
            slots[:, :, q.partner] = self.hand_cards
            for i, seat in enumerate(self.others):
                slots[:, :, seat] = cards[None, :, i * h:(i + 1) * h]
            return slots.reshape(m * n, r.players, h)
        k = q.size
        rest = h - k
        for j, cand in enumerate(cands):
            slots[j, :, 0] = _without(self.hand_cards, cand)
            slots[j, :, q.partner, :rest] = cards[:, :rest]
            slots[j, :, q.partner, rest:] = np.array(cand, dtype=np.int64)
        opponents = [s for s in self.others if s != q.partner]
        for i, seat in enumerate(opponents):
            slots[:, :, seat] = cards[None, :, rest + i * h:rest + (i + 1) * h]
        return slots.reshape(m * n, r.players, h)

    def _fixed_pass(self, cands: Sequence[Pass], n: int) -> Callable[[IntArray, IntArray], None]:
        """The exchange with the partner's pass fixed: candidate ``j`` on rows ``j·n …``; the bidder returns as
        ``estimate``'s bidder does."""
        q = self.q
        k, p = q.size, q.partner
        sent = np.repeat(np.array(cands, dtype=np.int64).reshape(len(cands), k), n, axis=0)
        kept = np.repeat(np.array([_without(self.hand_cards, c) for c in cands], dtype=np.int64), n, axis=0)
        ex = self.sim.exchange

        def exchange(slots: IntArray, trump: IntArray) -> None:
            back, keep = choose_return(ex, np.concatenate([slots[:, 0], sent], axis=1), trump, k)
            slots[:, 0] = keep
            slots[:, p] = np.concatenate([kept, back], axis=1)

        return exchange

    def heuristic(self) -> Pass:
        """The pass ``estimate``'s fixed heuristic makes with this hand: the partner's pass, or the bidder's
        return."""
        q = self.q
        cards = self.hand_cards[None, :]
        trump = np.array([int(q.trump)], dtype=np.int64)
        chosen = choose_pass if q.role == "partner" else choose_return
        sent, _ = chosen(self.sim.exchange, cards, trump, q.size)
        return tuple(sorted(int(c) for c in sent[0]))


def _nothing(slots: IntArray, trump: IntArray) -> None:
    """The bidder's return is already made in the deals."""


def _without(cards: IntArray, gone: Pass) -> IntArray:
    """``cards`` less one copy of each card of ``gone``, in their order."""
    out = list(int(c) for c in cards)
    for c in gone:
        out.remove(c)
    return np.array(out, dtype=np.int64)
