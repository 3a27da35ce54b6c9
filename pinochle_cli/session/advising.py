"""Advice for the decision at hand, from what the seat has seen, within the table's time: the library's own answers.

``advise(state, seat, seconds=, seed=)`` answers for the seat to move of a ``DealState``:

- a call: ``estimate.question.answer`` on the hand with the auction so far (as ``estimate --auction`` does; the
  dealer stuck with the minimum needs none);
- trump: each suit the hand may name estimated on the same deals (``estimate.simulate.estimate``) at the bid
  won; once the widow has changed the hand, each suit's meld and the computer's rule (``player.bidder``);
- the pass or the return: ``passing.race.advise`` (the race in stages, then its final round once, on the largest
  race run), the bury ``passing.bury.advise_bury`` (with the auction's conditions where they can be met, as
  ``pass --auction`` reads them);
- the meld: all the hand shows (``meld``);
- a card: ``hint.advice.hint`` (while a stock lasts, when the hint does not judge, or when no world that fits
  what the seat saw is drawn in half the time, the computer's card), and in a game with a stock the best
  declaration allowed first.

Every answer gets ``_SHARE`` of the time (the rest: the session's own work around it). The estimates run on this
process alone (a pool of workers costs more to start than a table's time allows) and
grow in stages while the time lasts: a stage is started only when the last one's pace says it ends in time, and
one still running at the end of the time, or whose pace so far says it would end after it, is given up (the one
before it answers). ``DecisionAdvice.summary`` is what the review keeps of an answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from ..cards import Hand, Suit
from ..errors import Argument, ConditionError, HintError, Message, PinochleError, SimulationError
from ..game.actions import Action
from ..game.state import DealState
from ..meld import MeldResult, meld
from ..player.bidder import computer_trump
from ..player.turn import auction_facts, best_declaration
from ..workers import available_cores

if TYPE_CHECKING:
    from ..estimate.question import Answer
    from ..estimate.results import Estimate
    from ..hint.advice import Hint
    from ..passing.bury import BuryAdvice
    from ..passing.race import Advice as PassAdvice

__all__ = ["BID_SAMPLES", "PASS_SAMPLES", "DecisionAdvice", "TrumpOption", "advise", "relative_seat"]

T = TypeVar("T")

# the deals of each stage: the auction's and trump's estimates, the pass's and bury's race
BID_SAMPLES = (500, 2000)
PASS_SAMPLES = (10, 40, 160, 640)
# the share of the time the stages may take (the rest: the answer's words); of that, the pass's race's share (the
# rest: its final round, played once)
_SHARE = 0.9
_RACE_SHARE = 0.3
# the share of the time a card's hint may draw before a first world is found (else: the computer's card)
_DRAW_GIVE_UP = 0.5
# the seconds the last whole final round of a pass took, by game (one not in the time left is not started)
_FINAL_TOOK: dict[str, float] = {}


@dataclass(frozen=True)
class TrumpOption:
    """One suit the bidder may name: its meld now and trump length; P(make) of the bid and the expected score when
    estimated (None: not estimated)."""

    suit: Suit
    meld: int
    length: int
    p_make: float | None = None
    score: float | None = None


@dataclass(frozen=True)
class DecisionAdvice:
    """An answer: ``kind`` (``call``, ``trump``, ``pass``, ``bury``, ``meld``, ``card``, or ``none``), the action
    advised (None: no answer in the time), and what it rests on — the estimate's ``answer`` (a call), the
    ``estimate`` and ``trumps`` (trump), the ``passing`` race (pass, bury), the ``meld``, the ``hint`` (a card);
    ``samples``: the deals estimated; ``note``: what the answer could not do; ``seconds``: its time."""

    kind: str
    seat: int
    best: Action | None
    seconds: float
    took: float = 0.0
    answer: Answer | None = None
    estimate: Estimate | None = None
    trumps: tuple[TrumpOption, ...] = ()
    passing: PassAdvice | BuryAdvice | None = None
    meld: MeldResult | None = None
    hint: Hint | None = None
    declare: Action | None = None
    samples: int = 0
    seed: int = 0
    note: str = ""

    def summary(self) -> dict[str, Any]:
        """What the review keeps of the answer: its kind and the action advised."""
        return {"kind": self.kind, "best": None if self.best is None else self.best.to_json(),
                "declare": None if self.declare is None else self.declare.to_json()}


class _OutOfTime(Exception):
    pass


class _Watch:
    """The ``progress`` of one run: gives it up at ``end``, or as soon as the pace of its current part says the part
    ends after ``end`` (a part: the calls with one ``total``; a pass's race, then its final round)."""

    def __init__(self, end: float, clock: Callable[[], float]) -> None:
        self.end, self.clock = end, clock
        self.total: int | None = None
        self.began = self.last = clock()
        self.first = self.done = 0

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if now > self.end:
            raise _OutOfTime
        if total != self.total:
            self.total, self.began, self.first = total, self.last, self.done
        self.last, self.done = now, done
        if self.first < done < total and \
                self.began + (now - self.began) * (total - self.first) / (done - self.first) > self.end:
            raise _OutOfTime


def _staged(end: float, sizes: Sequence[int], run: Callable[[int, Callable[[int, int], None]], T],
            clock: Callable[[], float] = time.monotonic) -> tuple[T | None, int]:
    """``run(deals, progress)`` for each of ``sizes`` while the time lasts (see the module docstring): the last answer
    and its deals (None, 0: none in the time)."""
    best: T | None = None
    used, pace = 0, None
    for n in sizes:
        began = clock()
        if pace is not None and began + pace * n > end:
            break
        try:
            best, used = run(n, _Watch(end, clock)), n
        except _OutOfTime:
            break
        pace = (clock() - began) / n
    return best, used


def relative_seat(rules: Any, seat: int, other: int) -> str:
    """``other`` as seen from ``seat``: ``me``, ``left``, ``partner`` or ``right`` (the estimator's words)."""
    d = (other - seat) % rules.players
    if d == 0:
        return "me"
    partners = rules.partner_seats(seat)
    if len(partners) == 1 and other == partners[0]:
        return "partner"
    return "left" if d == 1 else "right"


def advise(state: DealState, seat: int, *, seconds: float = 5.0, seed: int = 1) -> DecisionAdvice:
    """The advice for ``seat``, the seat to move (see the module docstring); ``HintError`` when it is not its turn or
    its hand is not known."""
    if state.turn.seat != seat or state.hand(seat) is None:
        raise HintError(Message(Argument("seat", seat), f" is not to act with a hand that is known: {state.turn}"))
    began = time.monotonic()
    try:
        got = _advise(state, seat, seconds, seed, began + _SHARE * seconds)
    except (ConditionError, SimulationError) as exc:
        got = DecisionAdvice("none", seat, None, seconds, note=str(exc))
    return replace(got, took=time.monotonic() - began, seed=seed)


def _advise(state: DealState, seat: int, seconds: float, seed: int, end: float) -> DecisionAdvice:
    stage = state.turn.stage
    kinds = state.turn.kinds
    if stage == "auction":
        got = _call(state, seat, seconds, seed, end)
    elif stage == "trump":
        got = _trump(state, seat, seconds, seed, end)
    elif stage in ("exchange", "bury"):
        got = _exchange(state, seat, seconds, seed, end)
    elif stage == "meld":
        hand, trump = state.hand(seat), state.trump
        assert hand is not None and trump is not None
        got = DecisionAdvice("meld", seat, Action("meld", seat, cards=state.meld_shows(seat)), seconds,
                             meld=meld(state.rules, hand, trump))
    elif stage == "play" and "play" in kinds:
        got = _card(state, seat, seconds, seed)
    else:
        got = DecisionAdvice("none", seat, None, seconds, note=f"nothing to advise: {state.turn}")
    return got


def _call(state: DealState, seat: int, seconds: float, seed: int, end: float) -> DecisionAdvice:
    from ..estimate.question import answer

    rules = state.rules
    assert rules.auction is not None
    smallest, stuck = auction_facts(state)
    if stuck:
        return DecisionAdvice("call", seat, Action.call(rules.auction.minimum, seat), seconds,
                              note="every other player passed: the dealer takes the minimum")
    hand = state.hand(seat)
    assert hand is not None
    calls = " ".join("pass" if b is None else str(b) for _, b in state.calls)
    dealer = relative_seat(rules, seat, state.dealer)

    def run(samples: int, progress: Callable[[int, int], None]) -> Answer:
        return answer(rules, hand, calls=calls, dealer=dealer, samples=samples, seed=seed, workers=1,
                      progress=progress)

    got, used = _staged(end, BID_SAMPLES, run)
    if got is None:
        return DecisionAdvice("call", seat, None, seconds, note="no estimate in the time")
    best = got.recommended
    bid = None if best is None or best.bid is None or best.bid < smallest else smallest
    return DecisionAdvice("call", seat, Action.call(bid, seat), seconds, answer=got, samples=used)


def _trump(state: DealState, seat: int, seconds: float, seed: int, end: float) -> DecisionAdvice:
    from ..estimate.simulate import estimate

    rules, hand, bid = state.rules, state.hand(seat), state.bid
    assert hand is not None
    suits = rules.eligible_trumps(hand)
    lengths = {s: sum(1 for c in hand if c.suit == s) for s in suits}
    melds = {s: meld(rules, hand, s).total for s in suits}
    if len(hand) != rules.hand_size or bid is None:
        pick = computer_trump(rules, hand, None)
        return DecisionAdvice("trump", seat, None if pick is None else Action("trump", seat, suit=pick), seconds,
                              trumps=tuple(TrumpOption(s, melds[s], lengths[s]) for s in suits),
                              note="the widow changed the hand: each suit's meld, and the computer's rule")

    def run(samples: int, progress: Callable[[int, int], None]) -> Estimate:
        return estimate(rules, hand, samples=samples, seed=seed, workers=1, progress=progress)

    got, used = _staged(end, BID_SAMPLES, run)
    if got is None:
        return DecisionAdvice("trump", seat, None, seconds, note="no estimate in the time")
    options: list[TrumpOption] = []
    for s in got.suits:
        chance = next((b.p_make for b in s.bids if b.bid >= bid), 0.0)
        options.append(TrumpOption(s.trump, melds[s.trump], lengths[s.trump], chance, s.score_mean))
    options.sort(key=lambda o: (-(o.p_make or 0.0), -(o.score or 0.0)))
    best = Action("trump", seat, suit=options[0].suit) if options else None
    return DecisionAdvice("trump", seat, best, seconds, estimate=got, trumps=tuple(options), samples=used)


def _exchange(state: DealState, seat: int, seconds: float, seed: int, end: float) -> DecisionAdvice:
    """The pass or the return (``pass``), or the bury."""
    trump, bid = state.trump, state.bid
    hand = state.hand(seat)
    assert hand is not None and trump is not None and bid is not None
    bury = state.turn.stage == "bury"
    got: PassAdvice | BuryAdvice | None
    note = ""
    if bury:
        got, used = _staged(end, PASS_SAMPLES, _bury_run(state, hand, trump, bid, seed))
    else:
        got, used, note = _pass_staged(state, seat, hand, trump, bid, seed, end)
    kind = "bury" if bury else "pass"
    if got is None:
        return DecisionAdvice(kind, seat, None, seconds, note="no answer in the time")
    cards = Hand(got.ranked[0].cards)
    return DecisionAdvice(kind, seat, Action("bury" if bury else "give", seat, cards=cards), seconds, passing=got,
                          samples=used, note=note)


def _pass_staged(state: DealState, seat: int, hand: Hand, trump: Suit, bid: int, seed: int,
                 end: float) -> tuple[PassAdvice | None, int, str]:
    """The pass: the race in stages (``_RACE_SHARE`` of the time left), then once the final round on the largest
    race run — the answer of ``pass --samples N`` — while the time lasts, else the race's ranking (with a note).
    The final round is not started when the last one of this game took longer than the time left."""
    from ..passing.played import FINAL_DEALS

    now = time.monotonic()
    raced, used = _staged(now + _RACE_SHARE * (end - now), PASS_SAMPLES,
                          _pass_run(state, seat, hand, trump, bid, seed, 0))
    if raced is None:
        return None, 0, ""
    name = state.rules.name
    began = time.monotonic()
    final = None
    if began + _FINAL_TOOK.get(name, 0.0) <= end:
        final, _ = _staged(end, (used,), _pass_run(state, seat, hand, trump, bid, seed, FINAL_DEALS))
        if final is not None:
            _FINAL_TOOK[name] = time.monotonic() - began
    if final is None:
        return raced, used, f"the race's ranking: its final round ({FINAL_DEALS} deals played out) did not fit in " \
                            "the time"
    return final, used, ""


def _auction_words(state: DealState, seat: int) -> tuple[str, str]:
    calls = " ".join("pass" if b is None else str(b) for _, b in state.calls)
    return calls, relative_seat(state.rules, seat, state.dealer)


def _pass_run(state: DealState, seat: int, hand: Hand, trump: Suit, bid: int, seed: int,
              final_deals: int) -> Callable[[int, Callable[[int, int], None]], PassAdvice]:
    from ..passing.judge import PassQuestion, auction_givens
    from ..passing.race import advise as advise_pass

    rules = state.rules
    role = "bidder" if seat == state.bidder else "partner"
    received = None
    if role == "bidder":
        partner = rules.partner_seats(seat)[0]
        received = state.given.get(partner)
    calls, dealer = _auction_words(state, seat)
    try:
        given = auction_givens(rules, role, bid, calls, dealer, rules.conventions) if state.calls else ()
    except PinochleError:
        given = ()
    question = PassQuestion(rules, role, hand, trump, bid, received, tuple(given))

    def run(samples: int, progress: Callable[[int, int], None]) -> PassAdvice:
        try:
            return advise_pass(question, samples=samples, top=3, seed=seed, workers=1, progress=progress,
                               final_deals=final_deals)
        except (ConditionError, SimulationError):
            plain = PassQuestion(rules, role, hand, trump, bid, received)
            return advise_pass(plain, samples=samples, top=3, seed=seed, workers=1, progress=progress,
                               final_deals=final_deals)

    return run


def _bury_run(state: DealState, hand: Hand, trump: Suit, bid: int,
              seed: int) -> Callable[[int, Callable[[int, int], None]], BuryAdvice]:
    from ..passing.bury import BuryQuestion, advise_bury

    question = BuryQuestion(state.rules, hand, trump, bid)

    def run(samples: int, progress: Callable[[int, int], None]) -> BuryAdvice:
        return advise_bury(question, samples=samples, top=3, seed=seed, workers=1, progress=progress)

    return run


def _card(state: DealState, seat: int, seconds: float, seed: int) -> DecisionAdvice:
    names = state.to_json().get("names")
    from ..hint.advice import hint
    from ..player.seat import computer_card

    declare = best_declaration(state, seat) if "meld" in state.turn.kinds else None
    # no world drawn in half the time (a rare meld shown, a double deck): the computer's card, in the time
    late = time.monotonic() + _DRAW_GIVE_UP * seconds
    try:
        found = hint(state, seat, seconds=_SHARE * seconds, seed=seed, workers=available_cores(), names=names,
                     give_up=lambda: time.monotonic() > late)
    except HintError as exc:
        card = computer_card(state, seat)
        why = "while the stock lasts the hint does not judge" if state.phase == "stock" else str(exc)
        return DecisionAdvice("card", seat, Action.play(card, seat), seconds, declare=declare,
                              note=f"the computer's card: {why}")
    return DecisionAdvice("card", seat, Action.play(found.best, seat), seconds, hint=found, declare=declare)
