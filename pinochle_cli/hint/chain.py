"""A chain of card swaps over the layouts that fit a seat's facts, for when independent draws rarely fit.

``swap_chain(facts, slots, counts, banned, rng, wanted, until)`` starts from a layout that fits (``counts``: per
slot — another seat, or ``-1`` for the buried cards — its cards now as 24 counts by card index, the cards it is
known to hold in ``known`` apart) and gives up to ``wanted`` layouts. Each step picks two slots with unseen cards
and one unseen card in each, every copy alike, and swaps them; the swap is kept only when neither card is
``banned`` from its new slot and both slots still fit (their seat's shown meld is exactly its meld at meld time,
and every card it played after the stock was legal for the hand it then held). The proposal is symmetric over
the physical deals, so the chain's stationary law is uniform over the deals that fit (docs/hint.md); a layout is
given every ``SWAPS`` steps, and drawing stops when ``until()`` is true.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..cards import N_CARDS
from ..game.tricks import partner_winning, trick_rules
from ..meld import meld_table
from .facts import Facts

__all__ = ["SWAPS", "swap_chain"]

# the swaps tried between two layouts the chain gives
SWAPS = 24

Counts = list[int]


class _Fit:
    """Does one seat's hand (its counts now) fit its shown meld and its plays? Built once for the facts."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.table = meld_table(facts.rules)
        self.rules = trick_rules(facts.rules, facts.trump, facts.phase)
        # while a stock lasts the hands changed after the meld: the meld says nothing of them now
        self.shown = {} if facts.stock_tricks else {
            s: (list(h.counts), self.table.total(h.counts, facts.trump)) for s, h in facts.shown.items()}
        self.played = {s: [0] * N_CARDS for s in range(facts.players)}
        for s in range(facts.players):
            for c in facts.played[s]:
                self.played[s][c.index] += 1
        self.plays = self._plays()

    def _plays(self) -> dict[int, list[tuple[int, list[int], bool]]]:
        """Per seat, its plays after the stock, the latest first: (card, the trick's cards before it, whether its
        partner was winning the trick then)."""
        f = self.facts
        out: dict[int, list[tuple[int, list[int], bool]]] = {s: [] for s in range(f.players)}
        tricks = (*zip(f.tricks, f.leaders, strict=True), (f.trick, f.leader))
        for k in range(len(tricks) - 1, f.stock_tricks - 1, -1):
            trick, first = tricks[k]
            for j, card in enumerate(trick):
                partner = partner_winning(f.rules, trick[:j], f.trump, first, f.bidder)
                out[(first + j) % f.players].append((card.index, [c.index for c in trick[:j]], partner))
        return out

    def meld(self, seat: int, hand: Counts, buried: Counts | None) -> bool:
        if seat not in self.shown:
            return True
        shown, total = self.shown[seat]
        held = [a + b for a, b in zip(hand, self.played[seat], strict=True)]
        if buried is not None:
            held = [a + b for a, b in zip(held, buried, strict=True)]
        return all(h >= s for h, s in zip(held, shown, strict=True)) and self.table.total(held,
                                                                                         self.facts.trump) == total

    def widow(self, bidder: Counts, buried: Counts | None) -> bool:
        """The widow seen is among the bidder's cards at the meld: its hand now, its plays, the buried cards."""
        f = self.facts
        if not len(f.widow) or f.bidder is None:
            return True
        # the buried cards: the layout's, or the bidder's own when it asks
        under = [a + b for a, b in zip(buried if buried is not None else [0] * N_CARDS, f.buried.counts, strict=True)]
        return all(w <= h + p + b for w, h, p, b in zip(f.widow.counts, bidder, self.played[f.bidder], under,
                                                        strict=True))

    def plays_ok(self, seat: int, hand: Counts) -> bool:
        held = list(hand)
        for card, before, partner in self.plays[seat]:
            held[card] += 1
            mask = sum(1 << i for i in range(N_CARDS) if held[i])
            if not (self.rules.legal(mask, before, partner) >> card) & 1:
                return False
        return True


def swap_chain(facts: Facts, slots: Sequence[int], known: Sequence[Counts], counts: Sequence[Counts],
               banned: Sequence[frozenset[int]], rng: random.Random, wanted: int,
               until: Callable[[], bool] | None) -> list[list[Counts]]:
    """Up to ``wanted`` layouts (per slot, its counts) from the chain that starts at ``counts`` (module docstring)."""
    fit = _Fit(facts)
    now = [list(c) for c in counts]
    free = [[i for i in range(N_CARDS) for _ in range(now[j][i] - known[j][i])] for j in range(len(slots))]
    movable = [j for j in range(len(slots)) if free[j]]
    buried_at = slots.index(-1) if -1 in slots else None

    def fits(j: int) -> bool:
        seat = slots[j]
        if seat < 0:
            # the buried cards were the bidder's at the meld
            if facts.bidder is None:
                return True
            bidder = now[slots.index(facts.bidder)] if facts.bidder in slots else list(facts.hand.counts)
            return fit.meld(facts.bidder, bidder, now[j]) and fit.widow(bidder, now[j])
        mine = now[buried_at] if buried_at is not None and seat == facts.bidder else None
        return (fit.meld(seat, now[j], mine) and fit.plays_ok(seat, now[j])
                and (seat != facts.bidder or fit.widow(now[j], mine)))

    out: list[list[Counts]] = []
    while len(out) < wanted and len(movable) > 1 and not (until is not None and until()):
        for _ in range(SWAPS):
            a, b = rng.sample(movable, 2)
            i, k = rng.randrange(len(free[a])), rng.randrange(len(free[b]))
            x, y = free[a][i], free[b][k]
            if x == y or y in banned[a] or x in banned[b]:
                continue
            now[a][x], now[a][y], now[b][y], now[b][x] = now[a][x] - 1, now[a][y] + 1, now[b][y] - 1, now[b][x] + 1
            if fits(a) and fits(b):
                free[a][i], free[b][k] = y, x
            else:
                now[a][x], now[a][y], now[b][y], now[b][x] = (now[a][x] + 1, now[a][y] - 1, now[b][y] + 1,
                                                              now[b][x] - 1)
        out.append([list(c) for c in now])
    return out
