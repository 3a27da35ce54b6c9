"""The auction so far, read from its calls, and the conditions a convention turns each call into.

``read_auction(rules, calls, dealer, conventions)`` gives each call (``pass`` or a bid, from the
dealer's left, clockwise, a player who passed skipped: a pass is final) to its seat relative to
the estimating player (``me``, ``left``, ``partner``, ``right``), checks it against the ruleset's
auction (a bid off the steps or not above the last, a call after the auction ended, a dealer who
is stuck passing) and lists the conditions each call shows (``AuctionCall.shows``). Any fault raises
``AuctionError`` naming the call and its place (parameter ``auction``, or ``dealer``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import Argument, AuctionError, Message
from ..ruleset import Conventions, Ruleset
from .conditions import Clause, Given, seat_words

__all__ = ["AuctionCall", "AuctionSoFar", "check_turn", "parse_calls", "read_auction", "read_won_auction", "seat_names"]


def seat_names(rules: Ruleset) -> dict[str, int]:
    """The seats by their words relative to the estimating player (``me`` is seat 0, ``left`` seat 1)."""
    from .conditions import seat_of

    return {"me": 0, **{w: seat_of(rules, w) for w in seat_words(rules)}}


@dataclass(frozen=True)
class AuctionCall:
    """One call: who made it, the bid (None: a pass), and the conditions it shows of the caller's hand."""

    who: str
    bid: int | None
    shows: tuple[Given, ...] = ()
    # how far the bid lies above the smallest it could have been
    jump: int = 0

    def __str__(self) -> str:
        call = "pass" if self.bid is None else str(self.bid)
        jumped = f" (a jump of {self.jump})" if self.jump else ""
        shown = "; ".join(str(g) for g in self.shows) if self.shows else "nothing"
        return f"{self.who} {call}{jumped}: shows {shown}"


@dataclass(frozen=True)
class AuctionSoFar:
    """The calls made, the highest bid and its seat (None: no bid yet), and whose call it is now."""

    calls: tuple[AuctionCall, ...]
    high: int | None
    high_seat: str | None
    to_call: str

    @property
    def givens(self) -> tuple[Given, ...]:
        """Every condition the calls showed, in the order made."""
        return tuple(g for c in self.calls for g in c.shows)

    def to_json(self) -> dict[str, object]:
        return {"calls": [{"seat": c.who, "call": "pass" if c.bid is None else c.bid, "jump": c.jump,
                           "shows": [str(g) for g in c.shows]} for c in self.calls],
                "high_bid": self.high, "high_seat": self.high_seat, "to_call": self.to_call}


def check_turn(state: AuctionSoFar, text: str, rules: Ruleset | None = None) -> None:
    """Refuse an auction in which it is not the estimating player's turn to call (``AuctionError``): the player
    passed already (``rules``'s auction says why that ends their calls), or another seat is to call."""
    passed = next((i for i, c in enumerate(state.calls, 1) if c.who == "me" and c.bid is None), None)
    if passed is not None and rules is not None and rules.auction is not None:
        raise AuctionError(Message(_calls(text), f": you passed at call {passed}, and {rules.auction.pass_rule}: "
                                   "you may not call again"))
    if state.to_call != "me":
        raise AuctionError(Message(_calls(text), f": the next call is {state.to_call}'s, not yours: give the calls "
                                   "up to your turn"))


def _calls(text: str) -> Argument:
    """The argument ``auction`` given ``text``, as a message names it."""
    return Argument("auction", f'"{text}"')


def parse_calls(text: str) -> list[int | None]:
    """``"250 pass 300"`` as ``[250, None, 300]`` (``AuctionError`` for a word that is neither)."""
    calls: list[int | None] = []
    for i, word in enumerate(w for w in re.split(r"[\s,]+", text.strip()) if w):
        if word.lower() in ("pass", "p"):
            calls.append(None)
        elif re.fullmatch(r"\d+", word):
            calls.append(int(word))
        else:
            raise AuctionError(Message(_calls(text), f': call {i + 1}, "{word}", is neither pass nor a bid'))
    return calls


def read_auction(rules: Ruleset, calls: str, dealer: str, conventions: Conventions | None) -> AuctionSoFar:
    """The auction ``calls`` (text) with the dealer at ``dealer``, read by ``conventions`` (None: the calls show
    nothing)."""
    state, words = _read(rules, calls, dealer, conventions)
    if state.over():
        raise AuctionError(Message(_calls(calls), f": the auction is over ({state.why_over()}): there is no call "
                                   "to make"))
    high_seat = None if state.high_seat is None else words[state.high_seat]
    return AuctionSoFar(tuple(state.calls), state.high, high_seat, words[state.turn])


def read_won_auction(rules: Ruleset, calls: str, dealer: str, conventions: Conventions | None) -> AuctionSoFar:
    """As ``read_auction``, of an auction that is over with a bid (``to_call``: the seat that won it)."""
    state, words = _read(rules, calls, dealer, conventions)
    if not state.over() or state.high_seat is None:
        raise AuctionError(Message(_calls(calls), f": the auction is not won yet ({words[state.turn]} still to "
                                   "call): give every call up to the last pass"))
    high = words[state.high_seat]
    return AuctionSoFar(tuple(state.calls), state.high, high, high)


def _read(rules: Ruleset, calls: str, dealer: str, conventions: Conventions | None) -> tuple[_State, dict[int, str]]:
    """The auction ``calls`` played from the dealer's left, and each seat's word (``AuctionError`` for a game
    without an auction or a dealer it has no seat for)."""
    if rules.auction is None:
        raise AuctionError(Message(f"the {rules.name} game has no auction: there are no calls to read"),
                           parameter="auction")
    seats = seat_names(rules)
    if dealer not in seats:
        raise AuctionError(Message(Argument("dealer", dealer), f": the {rules.name} game has no such seat (seats: "
                                   f"{', '.join(seats)})"))
    words = {seat: word for word, seat in seats.items()}
    return _played(rules, calls, seats[dealer], words, conventions), words


def _played(rules: Ruleset, calls: str, dealer: int, words: dict[int, str],
            conventions: Conventions | None) -> _State:
    """The auction after the calls of ``calls``."""
    state = _State(rules, dealer, conventions)
    for i, bid in enumerate(parse_calls(calls)):
        state.call(i, bid, words, calls)
    return state


class _State:
    """The auction as it goes: whose turn, who passed, the high bid, the meld each seat's jumps showed."""

    def __init__(self, rules: Ruleset, dealer: int, conventions: Conventions | None) -> None:
        self.rules = rules
        self.dealer = dealer
        self.conventions = conventions
        self.turn = (dealer + 1) % rules.players
        self.passed: set[int] = set()
        self.high: int | None = None
        self.high_seat: int | None = None
        self.shown_meld = [0] * rules.players
        self.calls: list[AuctionCall] = []

    def over(self) -> bool:
        out = len(self.passed)
        return out == self.rules.players or (out == self.rules.players - 1 and self.high is not None)

    def why_over(self) -> str:
        if self.high is None:
            return "everyone passed"
        return f"every other player passed the bid of {self.high}"

    def call(self, i: int, bid: int | None, words: dict[int, str], text: str) -> None:
        auction = self.rules.auction
        assert auction is not None
        where = (_calls(text), f': call {i + 1} ({words[self.turn]}, {"pass" if bid is None else bid})')
        if self.over():
            raise AuctionError(Message(*where, f" comes after the auction ended ({self.why_over()})"))
        stuck = (auction.dealer_stuck and self.high is None and self.turn == self.dealer
                 and len(self.passed) == self.rules.players - 1)
        if bid is None and stuck:
            raise AuctionError(Message(*where, f": every other player passed, so the dealer is stuck at "
                                       f"{auction.minimum} and may not pass"))
        smallest = auction.minimum if self.high is None else auction.next_bid(self.high)
        if bid is not None:
            if not auction.is_valid_bid(bid):
                raise AuctionError(Message(*where, f": {bid} is not a bid of the {self.rules.name} auction (minimum "
                                           f"{auction.minimum}; {auction.describe_steps()})"))
            if bid < smallest:
                last = f"the last bid, {self.high}" if self.high is not None else f"the minimum {auction.minimum}"
                raise AuctionError(Message(*where, f": a bid must be at least {smallest}, above {last}"))
        self.calls.append(self._read(bid, smallest, words[self.turn]))
        if bid is None:
            self.passed.add(self.turn)
        else:
            self.high, self.high_seat = bid, self.turn
        self._next()

    def _read(self, bid: int | None, smallest: int, who: str) -> AuctionCall:
        """The call and what it shows (nothing of the estimating player's own hand, which is known)."""
        c = self.conventions
        jump = 0 if bid is None else bid - smallest
        if c is None or who == "me":
            return AuctionCall(who, bid, (), jump)
        if jump and c.jump_meld:
            self.shown_meld[self.turn] += jump * c.jump_meld
            clauses: Sequence[str] = [f"meld >= {self.shown_meld[self.turn]}"]
        else:
            kind = "pass" if bid is None else "opening" if self.high is None else "raise"
            clauses = c.shows(kind)
        shows = (Given(who, tuple(Clause.parse(t) for t in clauses)),) if clauses else ()
        return AuctionCall(who, bid, shows, jump)

    def _next(self) -> None:
        if self.over():
            return
        seat = (self.turn + 1) % self.rules.players
        while seat in self.passed:
            seat = (seat + 1) % self.rules.players
        self.turn = seat
