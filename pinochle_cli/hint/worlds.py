"""Worlds: the other seats' hands now, drawn uniformly among every layout consistent with the facts.

A world gives each other seat (and, in a game whose bidder buries, the buried cards) its cards
now: the unseen cards split by the hand sizes, each seat holding the cards it is known to hold
(shown and not yet played, passed to it) and none its inferences exclude, and the widow seen
kept with the bidder (in its hand or buried). Those layouts are
counted exactly (a count per kind of card and the room left in each hand) and drawn one kind at
a time with each split's share of the count, weighted by the ways its copies can be dealt — so a
draw is uniform over the physical deals. A draw is kept only when ``consistent`` (every recorded
play legal for the hand then held, each shown meld exactly the meld of its hand at meld time):
rejection from a uniform draw is uniform on what is kept. When the layouts are few, every one is
listed and weighted (``exact``; more consistent ones than asked: drawn from the list by weight).
Why this is uniform: docs/hint.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from math import factorial

from ..cards import ALL_CARDS, N_CARDS, Card, Hand
from ..errors import HintError
from ..game.tricks import partner_winning, trick_rules
from ..meld import meld_table
from .chain import swap_chain
from .facts import Facts
from .inference import Inference

__all__ = ["ENUMERATE_LIMIT", "World", "Worlds", "consistent", "draw_worlds", "layouts"]

# layouts listed one by one (then every consistent one is used when they are at most the worlds asked)
ENUMERATE_LIMIT = 1000
# draws per world asked before giving up on finding more consistent ones
_TRIES = 200
# after this many draws, when fewer than this share of them fit, the rest of the worlds come from a chain of swaps
_CHAIN_TRIAL, _CHAIN_BELOW = 200, 0.25


@dataclass(frozen=True)
class World:
    """Every seat's cards now (this seat's own included), the buried cards, and the deals it stands for."""

    hands: tuple[Hand, ...]
    buried: Hand = field(default_factory=Hand)
    weight: int = 1


@dataclass(frozen=True)
class Worlds:
    """``exact``: ``worlds`` are every consistent layout, each weighted by its deals; else a uniform sample."""

    worlds: tuple[World, ...]
    exact: bool
    # layouts before the exact checks (hand sizes, known cards and inferences only)
    layouts: int


@dataclass(frozen=True)
class _Space:
    """The layouts to choose from: per slot (another seat, then the buried cards) its room and excluded kinds."""

    slots: tuple[int, ...]
    room: tuple[int, ...]
    banned: tuple[frozenset[int], ...]
    # (card index, copies still to place)
    kinds: tuple[tuple[int, int], ...]
    known: tuple[Hand, ...]
    # per kind: the copies that must go to the bidder's slots (its hand, the buried cards) — the widow's
    floors: tuple[int, ...] = ()
    # the slots of the bidder's hand and of the buried cards
    bidder_slots: frozenset[int] = frozenset()


def _space(facts: Facts, inferences: Sequence[Inference]) -> _Space:
    seats = [s for s in range(facts.players) if s != facts.seat]
    slots = (*seats, -1) if facts.out_of_play else tuple(seats)
    known = tuple(facts.known.get(s, Hand()) for s in seats) + ((Hand(),) if facts.out_of_play else ())
    room = tuple(facts.sizes[s] - len(k) for s, k in zip(seats, known, strict=False))
    room += (facts.out_of_play,) if facts.out_of_play else ()
    extra = _meld_bans(facts)
    banned = tuple(frozenset(c.index for i in inferences if i.seat == s for c in i.cards) | extra.get(s, frozenset())
                   for s in slots)
    free = facts.unseen
    for k in known:
        free = free - k
    kinds = tuple((i, n) for i, n in enumerate(free.counts) if n)
    floors = tuple(facts.widow_left[i] for i, _ in kinds) if facts.widow_left else ()
    mine = frozenset(j for j, s in enumerate(slots) if s == facts.bidder or s < 0)
    return _Space(tuple(slots), room, banned, kinds, known, floors, mine)


def _meld_bans(facts: Facts) -> dict[int, frozenset[int]]:
    """Per seat that showed meld, the kinds of card that would add meld to what it is known to have held then:
    a hand holding one shows more than it showed (meld only grows with the hand), so none is held. The
    buried cards were held at the meld by the bidder: they get the bidder's bans."""
    if facts.stock_tricks:
        return {}
    table = meld_table(facts.rules)
    bans: dict[int, frozenset[int]] = {}
    for seat, shown in facts.shown.items():
        if seat == facts.seat:
            continue
        held = facts.known.get(seat, Hand()) + Hand(facts.played[seat])
        base = Hand.from_counts([max(a, b) for a, b in zip(held.counts, shown.counts, strict=True)])
        limit = table.total(shown.counts, facts.trump)
        room = facts.rules.deck.copies
        bans[seat] = frozenset(c.index for c in ALL_CARDS if c in facts.rules.deck and base.count(c) < room
                               and table.total(base.add(c).counts, facts.trump) > limit)
        if seat == facts.bidder:
            bans[-1] = bans[seat]
    return bans


def _splits(k: int, allowed: Sequence[int], room: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way of placing ``k`` copies among the slots ``allowed``, no slot past its room."""
    n = len(room)

    def go(j: int, left: int, acc: list[int]) -> Iterator[tuple[int, ...]]:
        if j == n:
            if left == 0:
                yield tuple(acc)
            return
        top = min(left, room[j]) if j in allowed else 0
        for x in range(top, -1, -1):
            acc.append(x)
            yield from go(j + 1, left - x, acc)
            acc.pop()

    yield from go(0, k, [])


def _multinomial(split: Sequence[int]) -> int:
    out = factorial(sum(split))
    for x in split:
        out //= factorial(x)
    return out


class _Counter:
    """Layouts (physical deals when ``weighted``) of the kinds from ``level`` on into the room left."""

    def __init__(self, space: _Space, weighted: bool) -> None:
        self.space = space
        self.weighted = weighted
        self.allowed = [[j for j, b in enumerate(space.banned) if i not in b] for i, _ in space.kinds]
        self.count = lru_cache(maxsize=None)(self._count)
        self.options = lru_cache(maxsize=None)(self._options)

    def _options(self, level: int, room: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Each split of this level's kind with the layouts it leaves (its deals times the rest's)."""
        _, k = self.space.kinds[level]
        floor = self.space.floors[level] if self.space.floors else 0
        out = []
        for split in _splits(k, self.allowed[level], room):
            if floor and sum(split[j] for j in self.space.bidder_slots) < floor:
                continue
            rest = tuple(r - x for r, x in zip(room, split, strict=True))
            ways = self.count(level + 1, rest)
            if ways:
                out.append((split, ways * (_multinomial(split) if self.weighted else 1)))
        return out

    def _count(self, level: int, room: tuple[int, ...]) -> int:
        if level == len(self.space.kinds):
            return 1 if not any(room) else 0
        return sum(w for _, w in self.options(level, room))


def _world(facts: Facts, space: _Space, placed: Sequence[Sequence[int]], weight: int) -> World:
    cards: list[list[Card]] = [list(k) for k in space.known]
    for (index, _), split in zip(space.kinds, placed, strict=True):
        for j, x in enumerate(split):
            cards[j] += [ALL_CARDS[index]] * x
    hands = [facts.hand] * facts.players
    for j, seat in enumerate(space.slots):
        if seat >= 0:
            hands[seat] = Hand(cards[j])
    buried = Hand(cards[-1]) if facts.out_of_play else Hand()
    return World(tuple(hands), buried, weight)


def _draw(facts: Facts, space: _Space, counter: _Counter, rng: random.Random) -> World:
    room = space.room
    placed = []
    for level in range(len(space.kinds)):
        options = counter.options(level, room)
        pick = rng.randrange(sum(w for _, w in options))
        chosen = options[-1][0]
        for split, w in options:
            if pick < w:
                chosen = split
                break
            pick -= w
        placed.append(chosen)
        room = tuple(r - x for r, x in zip(room, chosen, strict=True))
    return _world(facts, space, placed, 1)


def _every(facts: Facts, space: _Space, counter: _Counter) -> Iterator[World]:
    def go(level: int, room: tuple[int, ...], placed: list[tuple[int, ...]], weight: int) -> Iterator[World]:
        if level == len(space.kinds):
            yield _world(facts, space, placed, weight)
            return
        for split, _ in counter.options(level, room):
            rest = tuple(r - x for r, x in zip(room, split, strict=True))
            yield from go(level + 1, rest, [*placed, split], weight * _multinomial(split))

    yield from go(0, space.room, [], 1)


def layouts(facts: Facts, inferences: Sequence[Inference]) -> int:
    """The layouts (distinct splits of the unseen cards) that fit the sizes, known cards and inferences."""
    space = _space(facts, inferences)
    if any(r < 0 for r in space.room):
        return 0
    return _Counter(space, weighted=False).count(0, space.room)


def _meld_ok(facts: Facts, world: World) -> bool:
    """Each shown meld is exactly the meld of its seat's hand at meld time (the bidder's buried cards included)."""
    if facts.stock_tricks:
        return True
    table = meld_table(facts.rules)
    for seat, shown in facts.shown.items():
        held = world.hands[seat] + Hand(facts.played[seat])
        if seat == facts.bidder:
            held = held + world.buried
        if not shown.issubset(held) or table.total(held.counts, facts.trump) != table.total(shown.counts, facts.trump):
            return False
    return True


def _plays_ok(facts: Facts, world: World) -> bool:
    """Every card played after the stock was legal for the hand its player then held."""
    rules = facts.rules
    t = trick_rules(rules, facts.trump, facts.phase)
    counts = [list(h.counts) for h in world.hands]
    tricks = (*zip(facts.tricks, facts.leaders, strict=True), (facts.trick, facts.leader))
    # from the current trick back: each player's hand then is its hand now and the cards it played since
    for k in range(len(tricks) - 1, facts.stock_tricks - 1, -1):
        trick, first = tricks[k]
        for j, card in enumerate(trick):
            counts[(first + j) % facts.players][card.index] += 1
        for j, card in enumerate(trick):
            seat = (first + j) % facts.players
            held = sum(1 << i for i in range(N_CARDS) if counts[seat][i])
            partner = partner_winning(rules, trick[:j], facts.trump, first, facts.bidder)
            if not (t.legal(held, [c.index for c in trick[:j]], partner) >> card.index) & 1:
                return False
            counts[seat][card.index] -= 1
    return True


def consistent(facts: Facts, world: World) -> bool:
    """Does ``world`` fit every fact: the unseen cards, the hand sizes, the known cards, every play's duties
    and every shown meld?"""
    others = [s for s in range(facts.players) if s != facts.seat]
    if world.hands[facts.seat] != facts.hand:
        return False
    if any(len(world.hands[s]) != facts.sizes[s] for s in others) or len(world.buried) != facts.out_of_play:
        return False
    pool = world.buried
    for s in others:
        pool = pool + world.hands[s]
    if pool != facts.unseen or any(not k.issubset(world.hands[s]) for s, k in facts.known.items()):
        return False
    return _widow_ok(facts, world) and _meld_ok(facts, world) and _plays_ok(facts, world)


def _widow_ok(facts: Facts, world: World) -> bool:
    """The widow seen was the bidder's at the meld: each card in its hand now, played by it, or buried."""
    if not len(facts.widow) or facts.bidder is None:
        return True
    # the buried cards: the world's, or the bidder's own when it asks
    under = world.buried + facts.buried
    return facts.widow.issubset(world.hands[facts.bidder] + Hand(facts.played[facts.bidder]) + under)


def draw_worlds(facts: Facts, inferences: Sequence[Inference], wanted: int, rng: random.Random, *,
                until: Callable[[], bool] | None = None, give_up: Callable[[], bool] | None = None) -> Worlds:
    """Up to ``wanted`` worlds: every consistent one (``exact``) when the layouts are few enough, else a
    uniform sample drawn with ``rng`` (drawing stops early once ``until()`` is true and a world is kept);
    ``HintError`` when no layout fits, or when ``give_up()`` is true before any world is kept."""
    space = _space(facts, inferences)
    counter = _Counter(space, weighted=True)
    total = _Counter(space, weighted=False).count(0, space.room) if all(r >= 0 for r in space.room) else 0
    if total == 0:
        raise HintError("no layout of the unseen cards fits the hand sizes, the cards known and the inferences")
    if total <= ENUMERATE_LIMIT:
        every = [w for w in _every(facts, space, counter) if consistent(facts, w)]
        if not every:
            raise HintError(_nothing(total))
        if len(every) <= wanted:
            rng.shuffle(every)
            return Worlds(tuple(every), True, total)
        # more than asked: a uniform sample of them, each drawn by the deals it stands for
        picked = rng.choices(every, weights=[w.weight for w in every], k=wanted)
        return Worlds(tuple(replace(w, weight=1) for w in picked), False, total)
    kept: list[World] = []
    for tries in range(1, wanted * _TRIES + 1):
        world = _draw(facts, space, counter, rng)
        if consistent(facts, world):
            kept.append(world)
            if len(kept) == wanted:
                break
        if kept and until is not None and until():
            break
        if not kept and give_up is not None and give_up():
            raise HintError("no world that fits what the seat has seen was drawn in the time")
        # few draws fit (meld shown rules out most deals): the rest come from a chain of swaps
        if kept and tries >= _CHAIN_TRIAL and len(kept) < _CHAIN_BELOW * tries:
            kept += _chain(facts, space, kept[-1], rng, wanted - len(kept), until)
            break
    if not kept:
        raise HintError(_nothing(total))
    return Worlds(tuple(kept), False, total)


def _chain(facts: Facts, space: _Space, start: World, rng: random.Random, wanted: int,
           until: Callable[[], bool] | None) -> list[World]:
    """Up to ``wanted`` worlds from the chain of swaps that starts at the consistent ``start`` (``chain.py``)."""
    held = [start.buried if seat < 0 else start.hands[seat] for seat in space.slots]
    layouts = swap_chain(facts, space.slots, [list(k.counts) for k in space.known], [list(h.counts) for h in held],
                         space.banned, rng, wanted, until)
    out = []
    for counts in layouts:
        hands = [facts.hand] * facts.players
        buried = Hand()
        for seat, c in zip(space.slots, counts, strict=True):
            if seat < 0:
                buried = Hand.from_counts(c)
            else:
                hands[seat] = Hand.from_counts(c)
        out.append(World(tuple(hands), buried, 1))
    return out


def _nothing(total: int) -> str:
    return (f"none of the {total} layouts of the unseen cards that fit the hand sizes and the inferences gives every "
            "player the meld it showed and a legal card at every play: check the meld shown and the tricks")
