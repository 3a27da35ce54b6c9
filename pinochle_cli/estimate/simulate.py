"""Monte Carlo bid estimates: sample deals, exchange, meld, play, tally — in numpy batches.

``Simulator`` deals the cards the bidder (seat 0) cannot see, scores every suit the bidder may
name on the same deals, and tallies per suit one integer a deal (the score the bidding side can
claim, -1 when it can claim nothing), so one histogram gives P(make) for every bid. The same
seed gives the same tallies whatever the number of workers. A hand of the wrong size raises
``CardError``; a game without an auction or with a stock, a suit the bidder may not name, or
samples, precision, confidence or seed out of range raise ``SimulationError``. The model, its
seeds and its engines: docs/estimate.md.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..arrays import IntArray
from ..cards import N_CARDS, N_RANKS, N_SUITS, Card, Hand, Suit, as_suit, format_cards
from ..errors import CardError, SimulationError
from ..meld import MeldTable, meld_table
from ..player.exchange import choose_bury, exchange_deals
from ..player.play import count_cards, play_relabelled
from ..player.tables import BuryTables, ExchangeTables, PlayerTables, canonical_order
from ..ruleset import Ruleset
from ..workers import KeptRunner, kept, workers_for
from .conditions import Given
from .interval import samples_for_half_width, wilson_interval

__all__ = [
    "CHUNK", "DEFAULT_CONFIDENCE", "DEFAULT_SAMPLES", "MAX_SAMPLES", "MIN_PRECISION", "PASS_POLICIES", "SAMPLES_LIMIT",
    "BidChance", "ChoiceEstimate", "Estimate", "FixedBury", "GameBatch", "check_pass_policy",
    "Simulator", "SuitEstimate", "Tally", "best_suit", "check_full_hand", "chunk_rng", "default_seed",
    "TallyRunner", "estimable_trumps", "estimate", "new_seed", "next_start", "summarise", "summarise_choice",
    "tally_jobs",
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


def _check_rules(rules: Ruleset) -> None:
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
    _check_rules(rules)
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
        raise SimulationError(f"pass_policy {pass_policy!r}: one of {', '.join(PASS_POLICIES)}",
                              parameter="pass_policy")
    if pass_policy != "heuristic" and not plain:
        raise SimulationError("pass_policy advised: the advised pass goes with a plain estimate (no conditions, "
                              "no points)", parameter="pass_policy")
    if pass_policy != "heuristic" and (not rules.partner_seats(0) or rules.exchange == 0):
        options = "".join(f" with {k}={v}" for k, v in rules.changed_options.items())
        raise SimulationError(f"pass_policy {pass_policy}: the {rules.name} game{options} has no pass (the bidder's "
                              f"partner sends no cards)", parameter="pass_policy")


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
        _check_rules(rules)
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
Job = tuple[tuple[tuple[int, int], ...], int]


def _work(job: Job) -> Tally:
    return _run_job(kept(Simulator), job)


def _run_job(sim: Simulator, job: Job) -> Tally:
    chunks, seed = job
    return sim.tally(chunks, seed)


class TallyRunner(KeptRunner[Job, Tally]):
    """Runs chunks in this process or in a pool; results come back in chunk order."""

    def __init__(self, sim: Simulator, workers: int) -> None:
        super().__init__(sim, workers, _run_job, _work)
        self.sim = sim


# --------------------------------------------------------------------------- the estimate

@dataclass(frozen=True)
class BidChance:
    bid: int
    made: int
    p_make: float
    ci95: tuple[float, float]
    # the mean of our side's score minus the other side's when we play at this bid (None: not asked for)
    points: float | None = None


@dataclass(frozen=True)
class SuitEstimate:
    trump: Suit
    meld_mean: float
    counters_mean: float
    bids: tuple[BidChance, ...]
    recommended_bid: int | None
    # the highest bid worth more expected points than passing (``question``; None: not asked for, or none)
    points_bid: int | None = None

    @property
    def score_mean(self) -> float:
        """Meld plus counters: what the bidding side scores when it makes the bid."""
        return self.meld_mean + self.counters_mean


@dataclass(frozen=True)
class ChoiceEstimate:
    """The bidder naming the suit after seeing the widow (``Simulator.choose_suits``), deal by deal."""

    meld_mean: float
    counters_mean: float
    bids: tuple[BidChance, ...]
    recommended_bid: int | None

    @property
    def score_mean(self) -> float:
        return self.meld_mean + self.counters_mean

    def to_json(self) -> dict[str, Any]:
        return {"meld_mean": round(self.meld_mean, 4), "counters_mean": round(self.counters_mean, 4),
                "score_mean": round(self.score_mean, 4), "bids": _bids_json(self.bids),
                "recommended_bid": self.recommended_bid}


def _bids_json(bids: Sequence[BidChance]) -> list[dict[str, Any]]:
    return [_bid_json(c) for c in bids]


def _bid_json(c: BidChance) -> dict[str, Any]:
    out = {"bid": c.bid, "p_make": round(c.p_make, 4), "ci95": [round(c.ci95[0], 4), round(c.ci95[1], 4)]}
    if c.points is not None:
        out["expected_points"] = round(c.points, 2)
    return out


@dataclass(frozen=True)
class Estimate:
    ruleset: str
    hand: Hand
    samples: int
    seed: int
    confidence: float
    precision: float | None
    precision_reached: bool | None
    suits: tuple[SuitEstimate, ...]
    best: Suit | None
    # the conditions the deals met (``Given`` as text), and the share of drawn deals that met them
    conditions: tuple[str, ...] = ()
    acceptance: float | None = None
    # the widow's size (0: none) and, with a widow and more than one suit, the suit named after seeing it
    widow: int = 0
    after_widow: ChoiceEstimate | None = None
    # how the partner passes and the bidder returns (PASS_POLICIES)
    pass_policy: str = "heuristic"

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document (docs/json.md) (plus ``confidence``, ``precision``, ``precision_reached``;
        ``after_widow`` in a game with a widow; ``conditions`` and ``acceptance`` when conditions were given;
        ``pass`` when it is not the heuristic)."""
        doc = {
            "ruleset": self.ruleset,
            "hand": self.hand.ascii(),
            "samples": self.samples,
            "seed": self.seed,
            "confidence": self.confidence,
            "precision": self.precision,
            "precision_reached": self.precision_reached,
            "suits": [{
                "trump": s.trump.letter,
                "meld_mean": round(s.meld_mean, 4),
                "counters_mean": round(s.counters_mean, 4),
                "score_mean": round(s.score_mean, 4),
                "bids": _bids_json(s.bids),
                "recommended_bid": s.recommended_bid,
                **({} if s.points_bid is None else {"points_bid": s.points_bid}),
            } for s in self.suits],
            "best": self.best.letter if self.best is not None else None,
        }
        if self.widow:
            doc["after_widow"] = None if self.after_widow is None else self.after_widow.to_json()
        if self.conditions:
            doc["conditions"] = list(self.conditions)
            doc["acceptance"] = None if self.acceptance is None else round(self.acceptance, 6)
        if self.pass_policy != "heuristic":
            doc["pass"] = self.pass_policy
        return doc


def _bids(rules: Ruleset, tally: Tally, suit: int) -> list[BidChance]:
    """The ladder of bids from the minimum to the first one made less often than ``STOP_BELOW`` (or
    above every claim), at most ``MAX_BIDS`` of them."""
    assert rules.auction is not None
    n = tally.deals
    out: list[BidChance] = []
    bid = rules.auction.minimum
    top = tally.top(suit)
    while len(out) < MAX_BIDS:
        made = tally.made(suit, bid)
        p = made / n
        out.append(BidChance(bid, made, p, wilson_interval(made, n)))
        if p < STOP_BELOW or bid > top:
            break
        bid = rules.auction.next_bid(bid)
    return out


def summarise(rules: Ruleset, trumps: Sequence[Suit], tally: Tally, confidence: float) -> list[SuitEstimate]:
    out = []
    for i, t in enumerate(trumps):
        c = summarise_choice(rules, tally, i, confidence)
        out.append(SuitEstimate(t, c.meld_mean, c.counters_mean, c.bids, c.recommended_bid))
    return out


def summarise_choice(rules: Ruleset, tally: Tally, index: int, confidence: float) -> ChoiceEstimate:
    """Group ``index`` of ``tally`` (a suit, or the suit chosen after the widow) summarised."""
    bids = _bids(rules, tally, index)
    ok = [c.bid for c in bids if c.p_make >= confidence]
    if tally.outcomes:
        from .points import expected

        bids = [dataclasses.replace(c, points=expected(rules, tally.outcomes[index], tally.deals, c.bid))
                for c in bids]
    return ChoiceEstimate(tally.meld[index] / tally.deals, tally.counters[index] / tally.deals, tuple(bids),
                          max(ok) if ok else None)


def best_suit(suits: Sequence[SuitEstimate]) -> Suit | None:
    if not suits:
        return None
    return max(suits, key=lambda s: (s.recommended_bid is not None, s.recommended_bid or 0, s.score_mean)).trump


def tally_jobs(seed: int, first: int, deals: int, workers: int) -> list[Job]:
    """Chunks for deals ``first`` … ``first + deals - 1`` (``first`` a multiple of CHUNK), grouped in jobs.

    A job takes up to ``JOB_CHUNKS`` chunks (fewer calls, fewer round trips to the workers), while every worker
    still gets ``AHEAD_JOBS`` jobs or more to share out the work evenly.
    """
    chunks = []
    start = first
    while start < first + deals:
        chunks.append((start // CHUNK, min(CHUNK, first + deals - start)))
        start += CHUNK
    per_job = max(1, min(JOB_CHUNKS, len(chunks) // (AHEAD_JOBS * workers)))
    return [(tuple(chunks[i:i + per_job]), seed) for i in range(0, len(chunks), per_job)]


def _more_needed(suits: Sequence[SuitEstimate | ChoiceEstimate], precision: float, samples: int) -> int:
    """Total samples the widest reported interval asks for (at least one more chunk)."""
    worst = 0
    for s in suits:
        for c in s.bids:
            if (c.ci95[1] - c.ci95[0]) / 2 > precision:
                worst = max(worst, samples_for_half_width(c.p_make, precision, limit=MAX_SAMPLES))
    if worst == 0:
        return samples
    return max(worst, samples + 1)


def estimate(rules: Ruleset, cards: Hand | Iterable[Card], *, trump: Suit | str | None = None,
             samples: int = DEFAULT_SAMPLES, seed: int | None = None, workers: int | None = None,
             precision: float | None = None, confidence: float = DEFAULT_CONFIDENCE,
             progress: Callable[[int, int], None] | None = None, given: Sequence[Given] = (),
             points: bool = False, pass_policy: str = "heuristic") -> Estimate:
    """Estimate bid safety for the bidder holding ``cards``; see the module docstring for the model.

    ``samples`` deals (more, up to ``MAX_SAMPLES``, with ``precision``: until every reported
    interval's half-width is at most that). ``seed`` None: ``default_seed``, so the same question
    gets the same answer (reported; ``new_seed`` draws a fresh one).
    ``workers`` None: every core (never more than the cores available). ``progress(done, total)`` is
    called after each chunk. ``given``: conditions the unseen hands meet (``conditioned``); ``points``: each bid's
    expected points too (``points``); ``pass_policy`` "advised": the pass and return by ``passing.policy`` (with
    neither ``given`` nor ``points``). Raises ``SimulationError`` for samples, precision, confidence or seed out
    of range, and as ``check_full_hand``, ``estimable_trumps`` and ``check_pass_policy`` do.
    """
    trump = as_suit(trump)
    hand = check_full_hand(rules, cards)
    trumps = estimable_trumps(rules, hand, trump)
    _check_run(samples, precision, confidence)
    check_pass_policy(rules, pass_policy, plain=not (given or points))
    if seed is None:
        seed = default_seed(rules, hand, trump)
    if seed < 0:
        raise SimulationError(f"seed {seed}: seeds are non-negative integers", parameter="seed")
    conditions = tuple(str(g) for g in given)
    if not trumps:
        return Estimate(rules.name, hand, 0, seed, confidence, precision, None, (), None, conditions,
                        widow=rules.widow_size, pass_policy=pass_policy)
    sim = _simulator(rules, hand, trumps, given, points, (seed, samples), pass_policy)
    runner = TallyRunner(sim, workers_for(workers)[0])
    tally = Tally.empty(len(trumps) + sim.choosing)
    choice: ChoiceEstimate | None = None
    target = samples
    reached: bool | None = None
    try:
        while True:
            deals = target - tally.deals
            jobs = tally_jobs(seed, next_start(tally.deals), deals, runner.workers)
            for part in runner.run(jobs):
                tally.add(part)
                if progress is not None:
                    progress(tally.deals, target)
            suits = summarise(rules, trumps, tally, confidence)
            choice = summarise_choice(rules, tally, len(trumps), confidence) if sim.choosing else None
            if precision is None:
                break
            wanted = _more_needed([*suits, *([choice] if choice else [])], precision, tally.deals)
            reached = wanted <= tally.deals
            if reached or tally.deals >= MAX_SAMPLES:
                break
            target = min(MAX_SAMPLES, CHUNK * math.ceil(wanted / CHUNK))
    # Ctrl-C between chunks too: end the workers now
    except BaseException:
        runner.close(interrupted=True)
        raise
    runner.close()
    acceptance = tally.deals * len(trumps) / tally.drawn if tally.drawn else None
    return Estimate(rules.name, hand, tally.deals, seed, confidence, precision, reached, tuple(suits), best_suit(suits),
                    conditions, acceptance, rules.widow_size, choice, pass_policy)


def _simulator(rules: Ruleset, hand: Hand, trumps: Sequence[Suit], given: Sequence[Given],
               points: bool, run: tuple[int, int], pass_policy: str = "heuristic") -> Simulator:
    """The simulator of the question: deals drawn on the conditions when there are any (refused at once when no
    deal can meet them), each game's score counted when points are asked for (the same deals either way).
    ``run``: the seed and the samples asked for."""
    if not given and not points:
        return Simulator(rules, hand, trumps, pass_policy)
    from .conditioned import ConditionedSimulator

    sim = ConditionedSimulator(rules, hand, trumps, given, points=points)
    if given:
        # a condition almost no deal meets is refused now, with its share, rather than drawn for minutes
        sim.dealer.check_share(*run, trumps)
    return sim


def _check_run(samples: int, precision: float | None, confidence: float) -> None:
    """``SimulationError`` for samples, precision or confidence out of range."""
    if not 1 <= samples <= SAMPLES_LIMIT:
        raise SimulationError(f"samples {samples}: give between 1 and {SAMPLES_LIMIT:,} deals", parameter="samples")
    if precision is not None and not MIN_PRECISION <= precision < 0.5:
        raise SimulationError(f"precision {precision}: a half-width from {MIN_PRECISION} up to 0.5 is needed "
                              f"({MAX_SAMPLES:,} deals, where it stops, make no interval narrower)",
                              parameter="precision")
    if not 0 <= confidence <= 1:
        raise SimulationError(f"confidence {confidence}: a probability between 0 and 1 is needed",
                              parameter="confidence")


def next_start(deals: int) -> int:
    """Where the next chunks start: after the last full or partial chunk run so far."""
    return CHUNK * math.ceil(deals / CHUNK)
