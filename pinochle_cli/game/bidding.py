"""The auction: one bid checked against the ruleset's ladder, an auction in progress, and a whole auction's calls.

A call is a bid (a number, on the ladder, above the high bid) or ``pass``, from the dealer's left and
clockwise, skipping the players who passed: a pass is final. When every other player passes before
anyone bids, the dealer is stuck at the minimum where the ruleset says so (``dealer_stuck``); otherwise
everyone passing is a redeal. ``Bidding`` keeps an auction in progress (``DealState`` and the record
reader both use it); ``run_auction`` checks a whole one. Refusals are ``AuctionError`` naming the call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import AuctionError
from ..ruleset import Auction, Ruleset

__all__ = ["PASS", "Bidding", "check_bid", "run_auction", "spoken_list"]

PASS = "pass"


def spoken_list(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def check_bid(auction: Auction, bid: int) -> None:
    """Refuse a bid below the minimum or off the ladder's steps (``AuctionError``)."""
    if bid < auction.minimum:
        raise AuctionError(f"{bid} is below the minimum bid {auction.minimum}")
    if not auction.is_valid_bid(bid):
        raise AuctionError(f"{bid} is off the steps ({auction.describe_steps()}; next valid bid "
                           f"{auction.next_bid(bid)})")


class Bidding:
    """An auction in progress: who has passed, the high bid and who made it; ``done`` (bidder, bid) once over."""

    def __init__(self, rules: Ruleset, auction: Auction, dealer_seat: int, names: Sequence[str]) -> None:
        self.auction, self.n, self.dealer, self.who = auction, rules.players, dealer_seat, list(names)
        self.passed: set[int] = set()
        self.high: int | None = None
        self.high_seat = 0
        self.seat = dealer_seat
        self.done: tuple[int, int] | None = None

    def next_seat(self) -> int:
        s = (self.seat + 1) % self.n
        while s in self.passed:
            s = (s + 1) % self.n
        return s

    def call(self, i: int, call: str) -> None:
        if self.done is not None:
            raise AuctionError(f"call {i} ({call}): the auction was over after call {i - 1} "
                               f"({self.who[self.done[0]]} at {self.done[1]})")
        seat = self.seat = self.next_seat()
        others_passed = len(self.passed) == self.n - 1 and seat not in self.passed
        stuck = self.auction.dealer_stuck and self.high is None and others_passed and seat == self.dealer
        text = call.strip().lower()
        if text == PASS:
            self.pass_(i, seat, stuck)
        else:
            self.bid(i, seat, call, text, stuck)
        remaining = [s for s in range(self.n) if s not in self.passed]
        if self.done is None and self.high is not None and remaining == [self.high_seat]:
            self.done = (self.high_seat, self.high)

    def pass_(self, i: int, seat: int, stuck: bool) -> None:
        if stuck:
            self.done = (seat, self.auction.minimum)
            return
        self.passed.add(seat)
        if len(self.passed) == self.n:
            raise AuctionError(f"call {i}: everyone passed, and this ruleset does not make the dealer take "
                               "the minimum (record the deal as redeal: true)")

    def bid(self, i: int, seat: int, call: str, text: str, stuck: bool) -> None:
        who = self.who[seat]
        if not re.fullmatch(r"\d+", text):
            raise AuctionError(f"call {i} ({who}): {call!r} is neither a bid nor pass")
        bid = int(text)
        try:
            check_bid(self.auction, bid)
        except AuctionError as exc:
            raise AuctionError(f"call {i} ({who}): {exc}") from None
        if stuck and bid != self.auction.minimum:
            raise AuctionError(f"call {i} ({who}): after the others passed the dealer is stuck at "
                               f"{self.auction.minimum}, got {bid}")
        if self.high is not None and bid <= self.high:
            raise AuctionError(f"call {i} ({who}): {bid} does not raise {self.who[self.high_seat]}'s {self.high} "
                               f"(at least {self.auction.next_bid(self.high)})")
        self.high, self.high_seat = bid, seat

    def result(self) -> tuple[int, int]:
        if (self.done is None and self.high is None and self.auction.dealer_stuck
                and len(self.passed) == self.n - 1 and self.dealer not in self.passed):
            # the others passed: the dealer need not call
            return self.dealer, self.auction.minimum
        if self.done is None:
            still = [self.who[s] for s in range(self.n) if s not in self.passed]
            raise AuctionError(f"the auction is not over: {spoken_list(still)} "
                               f"{'is' if len(still) == 1 else 'are'} still bidding")
        return self.done


def run_auction(rules: Ruleset, dealer_seat: int, calls: Sequence[str],
                names: Sequence[str] | None = None) -> tuple[int, int]:
    """Check an auction's calls (numbers as text and ``pass``) → (bidder seat, bid).

    Calls start at the dealer's left and go clockwise, skipping players who passed (a pass is
    final). Raises ``AuctionError`` with a message naming the call at fault.
    """
    if rules.auction is None:
        raise AuctionError("this ruleset has no auction")
    who = list(names) if names is not None else [f"seat {s}" for s in range(rules.players)]
    state = Bidding(rules, rules.auction, dealer_seat, who)
    for i, call in enumerate(calls, start=1):
        state.call(i, call)
    return state.result()
