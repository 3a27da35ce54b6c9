"""The bury advice: which cards of the hand and the widow the bidder lays away, judged as the passes are.

A ``BuryQuestion`` is the bidder's hand with the widow taken, the trump and the bid; ``check``
raises ``PassError`` for a game without a widow, a hand or widow of the wrong size and a bid the
game does not know. ``buries`` lists every distinct bury the ruleset's ``bury.forbidden`` allows
(and, when fewer cards than the widow's may go, every one that buries them all with the fewest
forbidden ones, as ``player.exchange`` forces it). ``BuryJudge`` plays a fixed bury on common deals of
the other hands exactly as ``estimate`` plays the deal after its own bury; ``advise_bury`` races the
buries (``race.race``) against the heuristic's (``player.exchange.choose_bury``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..arrays import IntArray
from ..cards import Card, Hand, Suit, format_cards
from ..errors import Argument, Message, PassError
from ..estimate.checks import FixedBury, chunk_rng
from ..estimate.conditioned import ConditionedDeals
from ..estimate.conditions import Given
from ..estimate.games import Simulator
from ..meld import shown_cards
from ..player.exchange import choose_bury
from ..reasons import Reason, percent
from ..ruleset import Ruleset
from .burywords import BuryWords, bury_words
from .candidates import Pass, passes
from .explain import counted
from .judge import Dealt, Judging, RaceOutcome, check_scorable_bid, outcome_of
from .race import (
    DEFAULT_SAMPLES,
    DEFAULT_TOP,
    Judged,
    Raced,
    check_run,
    judged_of,
    race,
    race_members,
)

__all__ = ["BuryAdvice", "BuryJudge", "BuryQuestion", "advise_bury", "allowed", "buries", "bury_reasons", "bury_seed"]


@dataclass(frozen=True)
class BuryQuestion:
    """The bidder's ``hand`` with the widow taken (``widow``: its cards, when known, part of ``hand``), the trump
    named and the bid; ``given``: conditions on the other hands (seats relative to the bidder)."""

    rules: Ruleset
    hand: Hand
    trump: Suit
    bid: int
    widow: Hand | None = None
    given: tuple[Given, ...] = ()

    @property
    def size(self) -> int:
        """Cards buried."""
        return self.rules.widow_size

    def check(self) -> None:
        """``PassError`` unless the question can be asked (``SimulationError`` as ``estimate`` refuses the game)."""
        r = self.rules
        if r.widow is None or r.bury is None:
            options = "".join(f" with {k}={v}" for k, v in r.changed_options.items())
            raise PassError(f"the {r.name} game{options} has no widow: the bidder buries no cards, so there is no "
                            f"bury to advise")
        if self.widow is not None and len(self.widow) != r.widow_size:
            raise PassError(Message(Argument("widow", format_cards(self.widow)),
                                    f": {counted(len(self.widow), 'card')}; the widow is {r.widow_size} cards in "
                                    f"{r.name}"))
        if len(self.hand) != r.largest_hand:
            raise PassError(self._size_words(), parameter="hand")
        check_scorable_bid(r, self.bid)
        if self.trump not in r.eligible_trumps(self.hand):
            raise PassError(Message(Argument("trump", self.trump.letter), ": the bidder may name only a suit in which "
                                    f"they hold the {r.trump_needs_words(spelled=True)}, and "
                                    f"{format_cards(self.hand)} does not"))

    def _size_words(self) -> Message:
        r = self.rules
        if self.widow is not None:
            dealt = self.hand - self.widow
            return Message(f"the hand has {len(dealt)} cards ({format_cards(dealt)}); the bidder's hand as dealt has "
                           f"exactly {r.hand_size} in {r.name}, {r.largest_hand} with the widow")
        return Message(f"the hand has {len(self.hand)} cards ({format_cards(self.hand)}); the bidder's hand with the "
                       f"widow taken has exactly {r.largest_hand} in {r.name} (or {r.hand_size} as dealt, with the "
                       "widow given)")


def allowed(rules: Ruleset, hand: Hand, trump: Suit) -> Hand:
    """The cards of ``hand`` that ``bury.forbidden`` lets the bidder bury with ``trump`` named: not a copy shown in
    the meld engine's best declaration (after the meld), not a trump, not a counter, as the ruleset says."""
    bury = rules.bury
    assert bury is not None
    free = hand
    if "melded" in bury.forbidden and bury.when == "after-meld":
        free = hand - shown_cards(rules, hand, trump)
    return Hand([c for c in free if not ("trump" in bury.forbidden and c.suit == trump)
                 and not ("counter" in bury.forbidden and rules.counter_value(c))])


def buries(rules: Ruleset, hand: Hand, trump: Suit) -> tuple[list[Pass], bool]:
    """Every distinct bury of ``hand`` (sorted card indices, in ``passes`` order), and whether it is forced: fewer
    cards than the widow's may go, so each bury is every allowed card and some of the forbidden ones."""
    k = rules.widow_size
    free = allowed(rules, hand, trump)
    if len(free) >= k:
        return passes(free, k), False
    base = tuple(c.index for c in free)
    return sorted(tuple(sorted(base + rest)) for rest in passes(hand - free, k - len(free))), True


def bury_seed(q: BuryQuestion) -> int:
    """The seed when none is given: from the question itself, so that it gets the same answer every time."""
    r = q.rules
    text = "|".join(["bury", r.name, *(f"{k}={v}" for k, v in sorted(r.chosen.items())),
                     " ".join(sorted(q.hand.ascii())), q.trump.letter, str(q.bid),
                     " ".join(sorted(q.widow.ascii())) if q.widow is not None else "-", *(str(g) for g in q.given)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:6], "big")


class BuryJudge(Judging):
    """The simulator of one bury question (picklable as the question): the other hands dealt from the cards the
    bidder does not hold (the widow is the bidder's), each bury played on each deal."""

    def __init__(self, q: BuryQuestion) -> None:
        q.check()
        self.q = q
        r = q.rules
        self.sim = Simulator(r, q.hand, [q.trump])
        self.hand_cards = np.repeat(np.arange(len(q.hand.counts)), np.array(q.hand.counts))
        self.dealer = self._conditioned() if q.given else None

    def __reduce__(self) -> tuple[type[BuryJudge], tuple[BuryQuestion]]:
        return BuryJudge, (self.q,)

    def _conditioned(self) -> ConditionedDeals:
        """The exact conditioned sampler of the other hands: the widow is seen, so nothing is dealt aside."""
        r = self.q.rules
        return ConditionedDeals(replace(r, widow=None, bury=None), self.q.hand, self.q.given)

    def deal(self, index: int, n: int, seed: int) -> Dealt:
        """Chunk ``index``: ``n`` deals of the unseen cards to seats 1‥players-1 from its own generator."""
        r = self.q.rules
        rng = chunk_rng(seed, index)
        if self.dealer is not None:
            cards = self.dealer.draw(rng, n, self.q.trump)[0].reshape(n, -1)
        else:
            unseen = self.sim.unseen
            cards = rng.permuted(np.broadcast_to(unseen, (n, len(unseen))), axis=1)
        leader = np.zeros(n, dtype=np.int64) if r.play.leader == "bidder" else rng.integers(0, r.players, n)
        return Dealt(cards, leader)

    def acceptance(self, seed: int, needed: int) -> float | None:
        if self.dealer is None:
            return None
        return self.dealer.check_share(seed, needed, [self.q.trump])

    def play(self, cands: Sequence[Pass], dealt: Dealt) -> RaceOutcome:
        """Every bury on every deal of ``dealt``: ``(len(cands), n)`` outcomes."""
        r = self.q.rules
        n, m, h = len(dealt.leader), len(cands), r.hand_size
        slots = np.empty((m, n, r.players, h), dtype=np.int64)
        slots[:, :, 0] = self.hand_cards[:h]
        slots[:, :, 1:] = dealt.cards.reshape(n, r.players - 1, h)[None]
        widow = np.broadcast_to(self.hand_cards[h:], (m * n, r.widow_size))
        trump = np.full(m * n, int(self.q.trump), dtype=np.int64)
        g = self.sim.play_slots(slots.reshape(m * n, r.players, h), trump, np.tile(dealt.leader, m), widow=widow,
                                bury=self.fixed(cands, n))
        return outcome_of(g, self.sim.side, self.q.bid, m, n)

    def fixed(self, cands: Sequence[Pass], n: int) -> FixedBury:
        """The bury hook: candidate ``j`` buried on rows ``j·n …``, the rest of the hand kept."""
        buried = np.repeat(np.array(cands, dtype=np.int64).reshape(len(cands), -1), n, axis=0)
        kept = np.repeat(np.array([_without(self.hand_cards, c) for c in cands], dtype=np.int64), n, axis=0)

        def bury(full: IntArray, trump: IntArray) -> tuple[IntArray, IntArray]:
            return buried, kept

        return bury

    def heuristic(self) -> Pass:
        """The bury ``estimate``'s heuristic makes with this hand: its cards in ``estimate``'s order, the hand as
        dealt and then the widow, when the widow is given (its ties go to the earlier card)."""
        q = self.q
        assert self.sim.bury is not None
        first = q.hand if q.widow is None else q.hand - q.widow
        cards = [c.index for c in first] + ([] if q.widow is None else [c.index for c in q.widow])
        out, _ = choose_bury(self.sim.bury, np.array([cards], dtype=np.int64), np.array([int(q.trump)]))
        return tuple(sorted(int(c) for c in out[0]))


def _without(cards: IntArray, gone: Pass) -> list[int]:
    out = [int(c) for c in cards]
    for c in gone:
        out.remove(c)
    return out


@dataclass(frozen=True)
class BuryAdvice(Raced):
    question: BuryQuestion = field(kw_only=True)
    # whether each bury buries forbidden cards because too few others may go
    forced: bool = field(kw_only=True)

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """Why the best bury: one to three reasons, each with its figure (``bury_reasons``)."""
        return bury_reasons(self)

    def to_json(self) -> dict[str, Any]:
        q = self.question
        doc: dict[str, Any] = {
            "ruleset": q.rules.name, "role": "bidder", "bury": True, "hand": q.hand.ascii(),
            "widow": q.widow.ascii() if q.widow is not None else None, "trump": q.trump.letter, "bid": q.bid,
            "seed": self.seed, "candidates": self.candidates, "forced": self.forced}
        return {**doc, **race_members(self, "bury", q.given), "reasons": [r.to_json() for r in self.reasons]}


def bury_reasons(advice: BuryAdvice) -> tuple[Reason, ...]:
    """One to three reasons for ``advice.ranked[0]``: its lead over the next bury, what it lays away (or the meld
    it breaks, where the meld follows the bury), and its P(make); words from ``BuryWords`` and the ruleset's."""
    q, best = advice.question, advice.ranked[0]
    out: list[Reason] = []
    m = advice.margin
    if m is not None and len(advice.ranked) > 1:
        out.append(Reason(f"with the computer's play, it scores {m.mean:+.1f} points a deal against the next best, "
                          f"{format_cards(advice.ranked[1].cards)}", m.mean, "points a deal", m.ci95))
    w = best.words
    if isinstance(w, BuryWords):
        out.append(_laid_away(w))
    out.append(Reason(f"the bid of {q.bid} is made {percent(best.p_make)} of the time with this bury", best.p_make,
                      "P(make)", best.ci95))
    return tuple(out[:3])


def _laid_away(w: BuryWords) -> Reason:
    """What the bury lays away: the meld it breaks where the meld follows the bury, else its counters and trumps."""
    if w.broken and not w.after_meld:
        return Reason(f"breaks {', '.join(w.broken)}: the kept cards meld {w.meld}", float(w.meld), "meld points")
    counters = f"{w.counters} in counters ({w.whose})" if w.counters else "no counter"
    trumps = f"{counted(len(w.trumps), 'trump')} ({format_cards(w.trumps)})" if w.trumps else "no trump"
    return Reason(f"buries {counters} and {trumps}; {counted(w.trumps_kept, 'trump')} stay in the hand",
                  float(w.counters),
                  "counter points buried")


def advise_bury(q: BuryQuestion, *, samples: int = DEFAULT_SAMPLES, top: int = DEFAULT_TOP, seed: int | None = None,
                workers: int | None = None, progress: Callable[[int, int], None] | None = None) -> BuryAdvice:
    """The ranked buries for ``q``, raced as the passes are (``race``); ``progress(done, total)`` counts games.
    Raises as ``BuryQuestion.check`` does, and ``SimulationError`` for samples, top or seed out of range."""
    check_run(samples, top, seed)
    judge = BuryJudge(q)
    seed = bury_seed(q) if seed is None else seed
    cands, forced = buries(q.rules, q.hand, q.trump)
    offered = len(cands)
    mine = judge.heuristic()
    # a heuristic bury the rules do not allow is still the reference, played but never offered
    if mine not in cands:
        cands.append(mine)
    run = race(judge, cands, cands.index(mine), seed, samples=samples, top=top, workers=workers, progress=progress,
               offered=offered)

    def judged(cards: Pass, o: RaceOutcome, ref: RaceOutcome, heuristic: bool) -> Judged:
        out = [Card.from_index(c) for c in cards]
        return judged_of(out, o, ref, heuristic, bury_words(q.rules, q.hand, out, q.trump))

    return BuryAdvice(seed, offered, tuple(run.plan), *run.ranking(top, judged), run.acceptance, question=q,
                      forced=forced)
