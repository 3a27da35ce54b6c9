"""One chunk of an estimate's games: ``Simulator`` deals the unseen cards, exchanges, melds, plays and tallies.

``Simulator`` deals the cards the bidder (seat 0) cannot see, scores every suit the bidder may name on
the same deals (the computer player of ``player/`` at every seat), and tallies per suit one integer a
deal (the score the bidding side can claim, -1 when it can claim nothing), so one histogram gives
P(make) for every bid (``Tally``). ``TallyRunner`` runs chunks here or on worker processes. The model:
docs/estimate.md.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..arrays import IntArray
from ..cards import N_CARDS, N_RANKS, N_SUITS, Hand, Suit
from ..meld import MeldTable, meld_table
from ..player.exchange import choose_bury, exchange_deals
from ..player.play import count_cards, play_relabelled
from ..player.tables import BuryTables, ExchangeTables, PlayerTables, canonical_order
from ..ruleset import Ruleset
from ..workers import KeptRunner, kept
from .checks import FixedBury, check_pass_policy, check_rules, chunk_rng

__all__ = ["ChunkJob", "GameBatch", "Simulator", "Tally", "TallyRunner", "chosen"]


# --------------------------------------------------------------------------- one chunk

@dataclass
class GameBatch:
    """Every game of one chunk (``B = deals × suits`` rows, grouped by suit): for tests and tallies."""

    # (B,) real suit
    trump: IntArray
    # (B,) the seat leading the first trick
    leader: IntArray
    # (B, players, N_CARDS) counts after the exchange, real card indices
    hands: IntArray
    # (B,) bidding side's meld
    meld: IntArray
    # (B,) meld made only of kept_if_only combinations
    meld_kept_anyway: npt.NDArray[np.bool_]
    # (B, sides) counters won, last trick included
    points: IntArray
    # (B, sides)
    tricks: IntArray
    # (B,) highest bid made (kept meld + counters), -1 when the make condition fails
    claim: IntArray
    # (B, widow) the widow's cards and (B, widow) those the bidder buried (real indices; no columns: no widow)
    widow: IntArray | None = None
    buried: IntArray | None = None
    # (deals,) the suit (a position in ``Simulator.trumps``) the bidder names after seeing the widow, or None
    choice: IntArray | None = None
    # (B,) the bidder's own meld (what ``Simulator.choose_suits`` weighs)
    own: IntArray | None = None

    def rows(self, at: IntArray) -> GameBatch:
        """The games at rows ``at`` (the choice left out)."""
        def pick(a: IntArray | None) -> IntArray | None:
            return None if a is None else a[at]

        return GameBatch(self.trump[at], self.leader[at], self.hands[at], self.meld[at], self.meld_kept_anyway[at],
                         self.points[at], self.tricks[at], self.claim[at], pick(self.widow), pick(self.buried), None,
                         pick(self.own))


@dataclass
class Tally:
    """Integer sums over deals, per suit (same order as ``Simulator.trumps``): order-independent.

    A claim histogram holds only the claims seen (a ``Counter``), so its size and cost do not
    depend on how many points a meld is worth.
    """

    deals: int
    # hist[s][v] = deals whose claim is v (v = -1: the make condition failed)
    hist: list[Counter[int]]
    meld: list[int]
    counters: list[int]
    # deal-suits drawn to find ``deals × suits`` that met the conditions (0: none given)
    drawn: int = 0
    # per suit, the games counted by what scores them (``points.outcomes``; empty: points not asked for)
    outcomes: list[Counter[tuple[int, ...]]] = dataclasses.field(default_factory=list)

    @classmethod
    def empty(cls, suits: int) -> Tally:
        return cls(0, [Counter() for _ in range(suits)], [0] * suits, [0] * suits)

    @classmethod
    def of(cls, claim: IntArray, meld: IntArray, counters: IntArray, suits: int) -> Tally:
        """The tally of ``B = deals × suits`` games grouped by suit (``GameBatch`` rows): claims, meld, counters."""
        n = len(claim) // suits
        t = cls(n, [], [], [])
        for i in range(suits):
            rows = slice(i * n, (i + 1) * n)
            claims, counts = np.unique(claim[rows], return_counts=True)
            t.hist.append(Counter(dict(zip(claims.tolist(), counts.tolist(), strict=True))))
            t.meld.append(int(meld[rows].sum()))
            t.counters.append(int(counters[rows].sum()))
        return t

    def add(self, other: Tally) -> None:
        self.deals += other.deals
        self.drawn += other.drawn
        if other.outcomes and not self.outcomes:
            self.outcomes = [Counter() for _ in other.outcomes]
        for mine, theirs in zip(self.outcomes, other.outcomes, strict=False):
            mine.update(theirs)
        for i, h in enumerate(other.hist):
            self.hist[i].update(h)
            self.meld[i] += other.meld[i]
            self.counters[i] += other.counters[i]

    def made(self, suit: int, bid: int) -> int:
        """Deals in which the bidding side makes ``bid`` with suit number ``suit``."""
        return sum(n for claim, n in self.hist[suit].items() if claim >= bid)

    def top(self, suit: int) -> int:
        """The highest claim seen (-1: none)."""
        return max(self.hist[suit], default=-1)


class Simulator:
    """Everything one process needs to simulate deals for one hand and ruleset."""

    def __init__(self, rules: Ruleset, hand: Hand, trumps: Sequence[Suit], pass_policy: str = "heuristic") -> None:
        check_rules(rules)
        check_pass_policy(rules, pass_policy)
        self.rules = rules
        self.hand = hand
        self.trumps = tuple(trumps)
        self.play = PlayerTables.build(rules)
        self.exchange = ExchangeTables.build(rules)
        self.meld_table: MeldTable = meld_table(rules)
        sides = rules.deal_sides(0)
        self.side = rules.deal_side_of(0, 0)
        # the seats whose meld the bidding side scores
        self.side_seats = (0,) if rules.melders == "bidder" else sides[self.side]
        partners = tuple(s for s in sides[self.side] if s != 0)
        self.partner = partners[0] if partners and rules.exchange else None
        self.widow = rules.widow_size
        self.bury = BuryTables.build(rules) if self.widow else None
        # the realistic policy, a suit named after seeing the widow: only when there is a choice
        self.choosing = self.widow > 0 and len(self.trumps) > 1
        # a trump held is worth about one trick's share of the counters, in choosing the suit
        self.trump_worth = rules.counter_total / max(1, rules.tricks_per_deal)
        keep = rules.scoring.keep_meld
        need = rules.scoring.made_needs
        implied = keep == "always" or need == keep or (keep == "trick" and need == "counter")
        self.only_table: MeldTable | None = None
        if rules.scoring.kept_if_only and not implied:
            names = set(rules.scoring.kept_if_only)
            only = dataclasses.replace(rules, meld=tuple(c for c in rules.meld if c.name in names))
            # keep alive: the meld cache holds it weakly
            self._only_rules = only
            self.only_table = meld_table(only)
        full = np.array(rules.deck.full().counts, dtype=np.int64)
        rest = full - np.array(hand.counts, dtype=np.int64)
        self.unseen = np.repeat(np.arange(N_CARDS), rest)
        self.hand_cards = np.repeat(np.arange(N_CARDS), np.array(hand.counts))
        self.order_rows = np.array([canonical_order(t) for t in range(N_SUITS)], dtype=np.int64)
        self.pass_policy = pass_policy
        # the advised pass and return (passing/policy.py), in numpy before the play
        self.advised: Any = None
        if pass_policy == "advised":
            from ..passing.policy import AdvisedPolicy

            self.advised = AdvisedPolicy(rules)

    def __reduce__(self) -> tuple[type[Simulator], tuple[Ruleset, Hand, tuple[Suit, ...], str]]:
        """Pickled as what builds it (for workers that are started, not forked)."""
        return Simulator, (self.rules, self.hand, self.trumps, self.pass_policy)

    def exchange_cards(self, slots: IntArray, trump: IntArray, partner: int, k: int) -> None:
        """The partner passes ``k`` cards and the bidder returns ``k``, in ``slots`` (the advised pass when the
        simulator has one)."""
        if self.advised is not None:
            self.advised.exchange(slots, trump, partner, k)
            return
        slots[:, 0], slots[:, partner] = exchange_deals(self.exchange, slots[:, 0], slots[:, partner], trump, k)

    def count(self, slots: IntArray) -> IntArray:
        """``(B, players, hand_size)`` card indices as ``(B, players, N_CARDS)`` counts."""
        return count_cards(np.ascontiguousarray(slots, dtype=np.int64))

    def play_tricks(self, hands: IntArray, trump: IntArray, leader: IntArray,
                    last_bonus: IntArray | None = None) -> tuple[IntArray, IntArray]:
        """Every trick of the batch (real card indices, trump per row): ``(points, tricks)`` per side (the play
        relabels trump as suit 0). ``last_bonus``: points more for the last trick's winner."""
        return play_relabelled(self.play, hands, self.order_rows, trump, leader, self.side, last_bonus)

    def bury_cards(self, full: IntArray, trump: IntArray) -> tuple[IntArray, IntArray]:
        """The bidder's bury (``player.exchange.choose_bury``) of ``full`` ``(B, hand + widow)``: (buried, kept)."""
        assert self.bury is not None
        return choose_bury(self.bury, full, trump)

    def deal(self, rng: np.random.Generator, n: int) -> IntArray:
        """``n`` deals of the unseen cards to seats 1‥players-1: ``(n, players-1, hand_size)`` card indices (in a
        game with a widow, the hands of ``deal_widow``)."""
        r = self.rules
        if self.widow:
            return self.deal_widow(rng, n)[0]
        perm = rng.permuted(np.broadcast_to(self.unseen, (n, len(self.unseen))), axis=1)
        return perm.reshape(n, r.players - 1, r.hand_size)

    def deal_widow(self, rng: np.random.Generator, n: int) -> tuple[IntArray, IntArray]:
        """``n`` deals of the unseen cards in a game with a widow: seats 1‥players-1 ``(n, players-1, hand_size)``
        and the widow ``(n, widow)``, card indices (the widow first in one shuffle of the unseen cards)."""
        r = self.rules
        perm = rng.permuted(np.broadcast_to(self.unseen, (n, len(self.unseen))), axis=1)
        return perm[:, self.widow:].reshape(n, r.players - 1, r.hand_size), perm[:, :self.widow]

    def deal_chunk(self, index: int, n: int, seed: int) -> tuple[IntArray, IntArray, IntArray]:
        """Chunk ``index``: its ``n`` deals (``deal``, or ``deal_widow``), the seat leading the first trick of each
        (``leaders``), and the widow ``(n, widow)`` (no columns: no widow)."""
        rng = chunk_rng(seed, index)
        if self.widow:
            others, widow = self.deal_widow(rng, n)
        else:
            others, widow = self.deal(rng, n), np.zeros((n, 0), dtype=np.int64)
        return others, self.leaders(rng, n), widow

    def leaders(self, rng: np.random.Generator, n: int) -> IntArray:
        """The seat leading the first trick of ``n`` deals (drawn from ``rng`` after the deals)."""
        r = self.rules
        # leader "dealer-left": the dealer is unknown, so every seat is equally likely to lead
        leader: IntArray = (np.zeros(n, dtype=np.int64) if r.play.leader == "bidder"
                            else rng.integers(0, r.players, n))
        return leader

    def games(self, index: int, n: int, seed: int) -> GameBatch:
        """Chunk ``index`` of ``n`` deals, every suit of ``self.trumps`` played on each."""
        return self.play_out(*self.deal_chunk(index, n, seed))

    def play_out(self, others: IntArray, leader: IntArray, widow: IntArray | None = None) -> GameBatch:
        """The deals ``others`` (``deal``) with first leaders ``leader`` and widows ``widow`` ``(n, widow)``, every
        suit of ``self.trumps`` played on each."""
        nt = len(self.trumps)
        return self.play_rows(np.tile(others, (nt, 1, 1)), np.tile(leader, nt),
                              None if widow is None else np.tile(widow, (nt, 1)))

    def play_rows(self, others: IntArray, leaders: IntArray, widow: IntArray | None = None) -> GameBatch:
        """Like ``play_out``, but with a deal for every game: ``others``, ``leaders`` and ``widow`` have
        ``deals × suits`` rows, grouped by suit (the conditioned sampler's deals may differ from suit to suit).
        With ``choosing``, the suit named after seeing the widow too (every suit's rows then hold the same deals)."""
        r = self.rules
        nt = len(self.trumps)
        b = others.shape[0]
        n = b // nt
        trump = np.repeat(np.array([int(t) for t in self.trumps], dtype=np.int64), n)
        slots = np.empty((b, r.players, r.hand_size), dtype=np.int64)
        slots[:, 0] = self.hand_cards[None, :]
        slots[:, 1:] = others
        g = self.play_slots(slots, trump, leaders, widow=widow)
        if self.choosing:
            assert g.own is not None
            g.choice = self.choose_suits(g.hands, g.own, n)
        return g

    def play_slots(self, slots: IntArray, trump: IntArray, leaders: IntArray,
                   exchange: Callable[[IntArray, IntArray], None] | None = None, *,
                   widow: IntArray | None = None, bury: FixedBury | None = None) -> GameBatch:
        """Whole deals ``slots`` ``(B, players, hand_size)`` (seat 0 the bidder, before the widow and the
        exchange), each with its own trump and first leader, and the widows ``(B, widow)`` in a game with one: the
        widow taken and the bury, the exchange, meld, play and claims. ``exchange(slots, trump)`` replaces the
        heuristic pass and return (it changes ``slots`` in place): the hook that judges one fixed pass on the
        deals ``estimate`` plays; ``bury(full, trump)`` (buried, kept) likewise replaces ``bury_cards``."""
        r = self.rules
        taken = buried = None
        if self.widow:
            assert widow is not None
            taken, buried = self.take_widow(slots, trump, widow, bury)
        if exchange is not None:
            exchange(slots, trump)
        elif self.partner is not None and r.exchange:
            self.exchange_cards(slots, trump, self.partner, r.exchange)
        hands = self.count(slots)
        meld, only, own = self.side_meld(hands, taken, trump)
        bonus = self.bury.counter[buried].sum(axis=1) if self.bury is not None and buried is not None else None
        to_last = bonus is not None and r.bury is not None and r.bury.counters == "last-trick"
        points, tricks = self.play_tricks(hands, trump, leaders, bonus if to_last else None)
        if bonus is not None and not to_last:
            points[:, self.side] += bonus
        claim = self.claims(meld, only, points[:, self.side], tricks[:, self.side] > 0)
        return GameBatch(trump, leaders, hands, meld, only, points, tricks, claim, widow, buried, None, own)

    def take_widow(self, slots: IntArray, trump: IntArray, widow: IntArray,
                   bury: FixedBury | None = None) -> tuple[IntArray, IntArray]:
        """The bidder (``slots[:, 0]``) takes the widow ``(B, widow)`` and buries (``bury_cards``, or ``bury``): the
        cards kept into ``slots[:, 0]``. Returns the bidder's hand with the widow as counts ``(B, 24)`` and the
        buried cards ``(B, widow)``."""
        full = np.concatenate([slots[:, 0], widow], axis=1)
        buried, kept = (self.bury_cards if bury is None else bury)(np.ascontiguousarray(full), trump)
        slots[:, 0] = kept
        return self.count(full[:, None, :])[:, 0], buried

    def side_meld(self, hands: IntArray, taken: IntArray | None,
                  trump: IntArray) -> tuple[IntArray, npt.NDArray[np.bool_], IntArray]:
        """The bidding side's meld ``(B,)`` (its melders' hands; the bidder's with the widow when it melds before
        the bury), whether it is made only of ``kept_if_only`` combinations, and the bidder's own meld."""
        b = hands.shape[0]
        meld = np.zeros(b, dtype=np.int64)
        own = np.zeros(b, dtype=np.int64)
        only = np.ones(b, dtype=bool)
        before = self.bury is not None and self.bury.before_meld
        bidder = hands[:, 0] if taken is None or before else taken
        for t in np.unique(trump).tolist():
            rows = _rows(trump, t)
            for seat in self.side_seats:
                counts = bidder[rows] if seat == 0 else hands[rows, seat]
                total = self.meld_table.total_batch(counts, Suit(t))
                meld[rows] += total
                if seat == 0:
                    own[rows] = total
                if self.only_table is not None:
                    only[rows] &= self.only_table.total_batch(counts, Suit(t)) == total
        if self.only_table is None:
            only[:] = False
        return meld, only, own

    def choose_suits(self, hands: IntArray, own: IntArray, n: int) -> IntArray:
        """The suit the bidder names after seeing the widow, per deal (a position in ``self.trumps``): the most
        of its own meld plus ``trump_worth`` for each trump it then plays with (ties: the earlier suit)."""
        nt = len(self.trumps)
        value = own.reshape(nt, n).astype(np.float64)
        for i, t in enumerate(self.trumps):
            held = hands[i * n:(i + 1) * n, 0, int(t) * N_RANKS:(int(t) + 1) * N_RANKS].sum(axis=1)
            value[i] += self.trump_worth * held
        out: IntArray = np.argmax(value, axis=0)
        return out

    def claims(self, meld: IntArray, only: npt.NDArray[np.bool_], won: IntArray,
               took_trick: npt.NDArray[np.bool_]) -> IntArray:
        """The highest bid each game makes: kept meld + counters ``won`` when the make condition holds, else -1."""
        s = self.rules.scoring
        ones = np.ones(len(won), dtype=bool)
        took = {"trick": took_trick, "counter": won >= s.counter_minimum, "always": ones, "nothing": ones}
        keeps = took[s.keep_meld] | only
        claim: IntArray = np.where(took[s.made_needs], np.where(keeps, meld, 0) + won, -1)
        return claim

    def tally(self, chunks: Sequence[tuple[int, int]], seed: int) -> Tally:
        """The tally of ``chunks`` (``(index, deals)`` each), played as one batch, each chunk dealt from its own
        generator."""
        dealt = [self.deal_chunk(index, n, seed) for index, n in chunks]
        g = self.play_out(*(np.concatenate([d[i] for d in dealt]) for i in range(3)))
        return self.tally_of(g)

    def tally_of(self, g: GameBatch) -> Tally:
        """The tally of games ``g`` grouped by suit; with the suit chosen after the widow, one more group of rows
        after the suits' (each deal's game in the suit chosen, ``chosen``)."""
        claim, meld, won = g.claim, g.meld, g.points[:, self.side]
        if g.choice is None:
            return Tally.of(claim, meld, won, len(self.trumps))
        pick = chosen(g)
        return Tally.of(np.concatenate([claim, claim[pick]]), np.concatenate([meld, meld[pick]]),
                        np.concatenate([won, won[pick]]), len(self.trumps) + 1)


def chosen(g: GameBatch) -> IntArray:
    """The rows of ``g`` (grouped by suit, the same deals in each) played in the suit chosen after the widow."""
    assert g.choice is not None
    n = len(g.choice)
    out: IntArray = g.choice * n + np.arange(n)
    return out


def _rows(trump: IntArray, t: int) -> slice | IntArray:
    """The rows whose trump is ``t``: a slice when they run together (a view, as the suits of ``play_out`` do)."""
    at = np.flatnonzero(trump == t)
    if at[-1] - at[0] + 1 == len(at):
        return slice(int(at[0]), int(at[-1]) + 1)
    return at


# --------------------------------------------------------------------------- workers

# chunks (index, deals), seed
ChunkJob = tuple[tuple[tuple[int, int], ...], int]


def _work(job: ChunkJob) -> Tally:
    return _run_job(kept(Simulator), job)


def _run_job(sim: Simulator, job: ChunkJob) -> Tally:
    chunks, seed = job
    return sim.tally(chunks, seed)


class TallyRunner(KeptRunner[ChunkJob, Tally]):
    """Runs chunks in this process or in a pool; results come back in chunk order."""

    def __init__(self, sim: Simulator, workers: int) -> None:
        super().__init__(sim, workers, _run_job, _work)
        self.sim = sim


