"""Deals of the unseen cards drawn exactly on conditions (``Given``), and the simulator that plays them.

``ConditionedDeals.draw`` gives deals uniformly distributed over the deals that meet every
condition: the cards a ``holds`` clause names are placed in that seat first, the rest dealt at
random, a deal kept when every conditioned seat, tested one after the other, meets its clauses
and (where fewer copies of a card were placed than are unseen) with a probability that undoes
the placement's weighting (why this is exact: docs/estimate.md). Conditions no deal can meet raise
``ConditionError`` when built; conditions met so rarely that a chunk of deals cannot be found
within ``MAX_DRAWS`` drawn deals raise ``RareConditionError`` (with the share that met them).
A condition on meld (counted in the trump estimated) is tested for every suit on one stream of
drawn deals, each suit keeping the first deals that meet it (``draw_suits``).
In a game with a widow it is dealt too (the first free cards of the shuffle, unconditioned: it is
unseen by every player), so conditions every deal meets draw what ``Simulator.deal_widow`` draws.
``ConditionedSimulator`` is a ``Simulator`` whose chunks are drawn so, seeded alike.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..arrays import BoolArray, IntArray
from ..cards import N_CARDS, Card, Hand, Suit, format_cards
from ..errors import ConditionError, Message, RareConditionError
from ..meld import meld_table
from ..ruleset import Ruleset
from .checks import chunk_rng
from .conditions import OPS, Given, Trump, merged
from .games import Simulator, Tally, chosen
from .points import outcomes

__all__ = ["MAX_DRAWS", "ConditionedDeals", "ConditionedSimulator", "TrumpOf", "counts_of"]

# the trump of each deal ``(m, players-1, hand_size)``, as suit numbers
TrumpOf = Callable[[IntArray], IntArray]
# a chunk whose deals are not found among this many drawn deals stops the estimate (a few seconds of drawing)
MAX_DRAWS = 2_000_000
# deals drawn at once, at most
BATCH = 50_000
# before a run: deals drawn to measure the share that meets the conditions, and the most deals a run may draw
PROBE = 50_000
MAX_TOTAL_DRAWS = 6_000_000


class ConditionedDeals:
    """The unseen cards of ``hand`` dealt to seats 1‥players-1 under ``givens``."""

    def __init__(self, rules: Ruleset, hand: Hand, givens: Sequence[Given]) -> None:
        self.rules = rules
        self.givens = tuple(givens)
        self.by_seat = merged(givens, rules)
        self.needs_trump = any(c.needs_trump for g in givens for c in g.clauses)
        unseen = np.array(rules.deck.full().counts, dtype=np.int64) - np.array(hand.counts, dtype=np.int64)
        self.placed = {seat: self._placed(seat, gs) for seat, gs in self.by_seat.items()}
        left = unseen.copy()
        for cards in self.placed.values():
            left -= np.bincount(cards, minlength=N_CARDS)
        if (left < 0).any():
            short = [Card.from_index(int(i)) for i in np.flatnonzero(left < 0)]
            raise ConditionError(Message(f"no deal can meet the conditions: {format_cards(short, ascii=True)} "
                                         f"{'is' if len(short) == 1 else 'are'} held more often than the unseen "
                                         "cards allow (your hand holds the rest)"), parameter="given")
        self.free = np.repeat(np.arange(N_CARDS), left)
        # cards placed fewer times than there are unseen copies: (seat, card, times placed)
        self.partial = [(seat, int(c), int(m)) for seat, cards in self.placed.items()
                        for c, m in zip(*np.unique(cards, return_counts=True), strict=True) if m < unseen[c]]
        self.copies = rules.deck.copies
        for seat, gs in self.by_seat.items():
            self._check_counts(seat, gs, unseen)

    def _placed(self, seat: int, givens: Sequence[Given]) -> IntArray:
        """The cards ``holds`` clauses place in ``seat`` (each card as often as one clause names it)."""
        need: Counter[Card] = Counter()
        lacks: set[Card] = set()
        for g in givens:
            for c in g.clauses:
                if c.kind == "holds":
                    need |= Counter(c.cards)
                elif c.kind == "lacks":
                    lacks.update(c.cards)
        who = givens[0].who
        if lacks & set(need):
            both = format_cards(sorted(lacks & set(need)), ascii=True)
            raise ConditionError(Message(f"{who}: no deal can meet the conditions: {both} both held and lacked"),
                                 parameter="given")
        if sum(need.values()) > self.rules.hand_size:
            raise ConditionError(Message(f"{who}: no deal can meet the conditions: {sum(need.values())} cards held, "
                                         f"a hand has {self.rules.hand_size}"), parameter="given")
        return np.array(sorted(card.index for card in need.elements()), dtype=np.int64)

    def _check_counts(self, seat: int, givens: Sequence[Given], unseen: IntArray) -> None:
        """Refuse a counting clause (ranks, suits, counters) outside what a hand of the unseen cards can hold."""
        h = self.rules.hand_size
        for g in givens:
            for c in g.clauses:
                if c.kind in ("holds", "lacks", "meld"):
                    continue
                values = sorted(np.repeat(c.weights(self.rules), unseen).tolist())
                low, high = sum(values[:h]), sum(values[len(values) - h:])
                if not _possible(c.op, low, high, c.number):
                    raise ConditionError(Message(f"{g.who}: no deal can meet {c}: a hand of the unseen cards has "
                                                 f"{low} to {high} {c.counted}"), parameter="given")

    def draw(self, rng: np.random.Generator, n: int,
             trump: Suit | TrumpOf | None) -> tuple[IntArray, IntArray, int]:
        """``n`` deals meeting the conditions ``(n, players-1, hand_size)``, their widows ``(n, widow)``, and how
        many were drawn to find them. ``trump``: the suit meld is counted in, or what gives it deal by deal (the
        trump a drawn bidder names)."""
        r = self.rules
        found: list[IntArray] = []
        widows: list[IntArray] = []
        got = drawn = 0
        while got < n:
            if drawn >= MAX_DRAWS:
                raise self._rare(got, drawn, n)
            # the first batch: as many as wanted (conditions every deal meets draw what ``Simulator.deal`` draws)
            rate = got / drawn if drawn else 1.0
            wanted = n - got if rate >= 1 else int(1.2 * (n - got) / max(rate, 1 / MAX_DRAWS)) + 1
            batch = min(BATCH, MAX_DRAWS - drawn, max(n - got, wanted))
            deals, widow = self._deal(rng, batch)
            kept = np.flatnonzero(self._accepted(deals, trump) & self._unweighted(rng, deals))[:n - got]
            # the deals drawn up to the last one kept: the share met is then not lowered by those left over
            drawn += batch if len(kept) < n - got else int(kept[-1]) + 1
            found.append(deals[kept])
            widows.append(widow[kept])
            got += len(kept)
        if not found:
            return (np.empty((0, r.players - 1, r.hand_size), dtype=np.int64),
                    np.empty((0, r.widow_size), dtype=np.int64), drawn)
        return np.concatenate(found), np.concatenate(widows), drawn

    def draw_suits(self, rng: np.random.Generator, n: int,
                   trumps: Sequence[Suit]) -> tuple[list[IntArray], list[IntArray], int]:
        """``n`` deals for each suit of ``trumps`` meeting the conditions with meld counted in that suit, from one
        stream of drawn deals (each suit's the first ``n`` of the stream that meet its conditions), their widows,
        and the deal-suits drawn to find them."""
        found: list[list[IntArray]] = [[] for _ in trumps]
        widows: list[list[IntArray]] = [[] for _ in trumps]
        got = [0] * len(trumps)
        drawn = [0] * len(trumps)
        while min(got) < n:
            if max(drawn) >= MAX_DRAWS:
                i = int(np.argmin(got))
                raise self._rare(got[i], drawn[i], n)
            i = int(np.argmin([g / d if d else 1.0 for g, d in zip(got, drawn, strict=True)]))
            rate = got[i] / drawn[i] if drawn[i] else 1.0
            need = max(n - g for g in got)
            wanted = need if rate >= 1 else int(1.2 * need / max(rate, 1 / MAX_DRAWS)) + 1
            batch = min(BATCH, MAX_DRAWS - max(drawn), max(need, wanted))
            deals, widow = self._deal(rng, batch)
            ok = self._accepted_suits(deals, trumps) & self._unweighted(rng, deals)[:, None]
            for j in range(len(trumps)):
                if got[j] >= n:
                    continue
                kept = np.flatnonzero(ok[:, j])[:n - got[j]]
                drawn[j] += batch if len(kept) < n - got[j] else int(kept[-1]) + 1
                found[j].append(deals[kept])
                widows[j].append(widow[kept])
                got[j] += len(kept)
        return [np.concatenate(f) for f in found], [np.concatenate(w) for w in widows], sum(drawn)

    def _accepted_suits(self, deals: IntArray, trumps: Sequence[Suit]) -> BoolArray:
        """``(m, suits)``: which deals meet every condition with meld counted in each suit (meld of every trump
        counted at once, only for the deals still in)."""
        ok = np.ones((len(deals), len(trumps)), dtype=bool)
        columns = [int(t) for t in trumps]
        for seat, givens in sorted(self.by_seat.items()):
            alive = np.flatnonzero(ok.any(axis=1))
            counts = counts_of(deals[alive, seat - 1])
            melds: IntArray | None = None
            for clause in (c for g in givens for c in g.clauses):
                if clause.kind == "meld":
                    if melds is None:
                        melds = meld_table(self.rules).totals_batch(counts)[:, columns]
                    ok[alive] &= OPS[clause.op](melds, clause.number)
                else:
                    ok[alive] &= clause.test(self.rules, counts, None)[:, None]
        return ok

    def check_share(self, seed: int, needed: int, trumps: Sequence[Suit | TrumpOf | None]) -> float:
        """The share of ``PROBE`` deals (from a generator of their own) that meet the conditions, in the suit that
        meets them least; ``RareConditionError`` when ``needed`` deals (one stream serves every suit) would take
        more than ``MAX_TOTAL_DRAWS`` drawn."""
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(2**32 - 1,))))
        deals = self._deal(rng, PROBE)[0]
        suits = [t for t in trumps if isinstance(t, Suit)]
        fair = self._unweighted(rng, deals)
        if self.needs_trump and len(suits) == len(trumps):
            got = int((self._accepted_suits(deals, suits) & fair[:, None]).sum(axis=0).min())
        else:
            got = min(int((self._accepted(deals, t) & fair).sum()) for t in trumps)
        if needed * PROBE > MAX_TOTAL_DRAWS * max(got, 1):
            raise self._rare(got, PROBE, needed, per="the run")
        return got / PROBE

    def _rare(self, got: int, drawn: int, n: int, per: str = "a chunk") -> RareConditionError:
        share = f"about 1 in {round(drawn / got):,}" if got else f"fewer than 1 in {drawn:,}"
        return RareConditionError(Message(f"the conditions are too rare to estimate: {got} of {drawn:,} deals drawn "
                                          f"met them ({share}), and {per} needs {n:,}: ask for less, or fewer deals "
                                          f"({'; '.join(map(str, self.givens))})"), parameter="given")

    def _unweighted(self, rng: np.random.Generator, deals: IntArray) -> BoolArray:
        """Placing ``m`` of a card's unseen copies weighs a hand holding ``k`` of them ``C(k, m)`` times (any ``m``
        of its ``k`` could have been the ones placed): keeping each deal with probability one over the product of
        those weights makes the deals uniform again. All kept when no card is placed fewer times than unseen
        (nothing drawn from ``rng`` then)."""
        if not self.partial:
            return np.ones(len(deals), dtype=bool)
        weight = np.ones(len(deals), dtype=np.int64)
        for seat, card, m in self.partial:
            held = (deals[:, seat - 1] == card).sum(axis=1)
            weight *= np.array([math.comb(k, m) for k in range(self.copies + 1)], dtype=np.int64)[held]
        keep: BoolArray = rng.random(len(deals)) * weight < 1
        return keep

    def _deal(self, rng: np.random.Generator, m: int) -> tuple[IntArray, IntArray]:
        """``m`` deals: each seat's placed cards, then the free cards in random order (the widow's first);
        and the widows ``(m, widow)``."""
        r = self.rules
        perm = rng.permuted(np.broadcast_to(self.free, (m, len(self.free))), axis=1)
        out = np.empty((m, r.players - 1, r.hand_size), dtype=np.int64)
        at = r.widow_size
        for seat in range(1, r.players):
            placed = self.placed.get(seat, np.empty(0, dtype=np.int64))
            k = len(placed)
            out[:, seat - 1, :k] = placed[None, :]
            out[:, seat - 1, k:] = perm[:, at:at + r.hand_size - k]
            at += r.hand_size - k
        return out, perm[:, :r.widow_size]

    def _accepted(self, deals: IntArray, trump: Suit | TrumpOf | None) -> BoolArray:
        """Which deals meet every condition: seat by seat, testing only the deals still in."""
        alive = np.arange(len(deals))
        per_deal = trump(deals) if callable(trump) and self.needs_trump else None
        for seat, givens in sorted(self.by_seat.items()):
            cards = deals[alive, seat - 1]
            counts = counts_of(cards)
            ok = np.ones(len(alive), dtype=bool)
            suit: Trump = per_deal[alive] if per_deal is not None else None if callable(trump) else trump
            for g in givens:
                ok &= g.test(self.rules, counts, suit)
            alive = alive[ok]
        keep = np.zeros(len(deals), dtype=bool)
        keep[alive] = True
        return keep


def _possible(op: str, low: int, high: int, number: int) -> bool:
    """Whether some value from ``low`` to ``high`` can stand ``op number``."""
    return {">=": high >= number, ">": high > number, "<=": low <= number, "<": low < number,
            "==": low <= number <= high}[op]


def counts_of(cards: IntArray) -> IntArray:
    """``(k, hand_size)`` card indices as ``(k, N_CARDS)`` counts."""
    k = cards.shape[0]
    flat = (np.arange(k)[:, None] * N_CARDS + cards).ravel()
    return np.bincount(flat, minlength=k * N_CARDS).reshape(k, N_CARDS)


class ConditionedSimulator(Simulator):
    """A ``Simulator`` whose deals meet ``givens``: each chunk's deals drawn from the chunk's own generator."""

    def __init__(self, rules: Ruleset, hand: Hand, trumps: Sequence[Suit], givens: Sequence[Given], *,
                 points: bool = False) -> None:
        super().__init__(rules, hand, trumps)
        self.dealer = ConditionedDeals(rules, hand, givens)
        self.points = points
        # the suit named after seeing the widow compares the suits on the same deals: not with a condition on meld
        # (each suit's deals drawn apart)
        self.choosing = self.choosing and not self.dealer.needs_trump

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), self.rules, self.hand, self.trumps, self.dealer.givens, self.points)

    def tally(self, chunks: Sequence[tuple[int, int]], seed: int) -> Tally:
        """As ``Simulator.tally``; a condition on meld (which depends on trump) draws each suit's deals apart."""
        nt = len(self.trumps)
        by_suit: list[list[IntArray]] = [[] for _ in self.trumps]
        widows: list[list[IntArray]] = [[] for _ in self.trumps]
        leaders: list[IntArray] = []
        # deal-suits drawn
        drawn = 0
        for index, n in chunks:
            rng = chunk_rng(seed, index)
            if self.dealer.needs_trump:
                suits, widow, d = self.dealer.draw_suits(rng, n, self.trumps)
                drawn += d
            else:
                deals, one, d = self.dealer.draw(rng, n, None)
                suits, widow, drawn = [deals] * nt, [one] * nt, drawn + d * nt
            for i in range(nt):
                by_suit[i].append(suits[i])
                widows[i].append(widow[i])
            leaders.append(self.leaders(rng, n))
        g = self.play_rows(np.concatenate([a for rows in by_suit for a in rows]),
                           np.tile(np.concatenate(leaders), nt), np.concatenate([a for rows in widows for a in rows]))
        t = self.tally_of(g)
        t.drawn = drawn
        if self.points:
            # the suit chosen after the widow scored as one more group, after the suits'
            t.outcomes = outcomes(self, g, nt) + ([] if g.choice is None else outcomes(self, g.rows(chosen(g)), 1))
        return t


def _rebuild(cls: type[ConditionedSimulator], rules: Ruleset, hand: Hand, trumps: tuple[Suit, ...],
             givens: tuple[Given, ...], points: bool) -> ConditionedSimulator:
    """A simulator from its pickle (workers that are started, not forked)."""
    return cls(rules, hand, trumps, givens, points=points)
