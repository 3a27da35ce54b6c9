"""Reading a deal's play: counters and tricks per side, given or replayed from the recorded tricks.

``PlaySection.read_play`` reads ``counters``, ``tricks`` and ``play``: a deal that ended after the meld has none;
a recorded play is replayed by the trick engine (every hand, the trump and the leader needed) and the counters and
tricks given must match it; the counters must be totals a side can take and add up to the pack's, the tricks add up
and hold the counters (``trick_counters``: every total a side with so many tricks can hold, exact as a matter of
cards). Raises the ``RecordError`` it finds (``FieldReader.err``). The trick engine is imported only for a deal with
play.
"""

from __future__ import annotations

import math
from functools import cache

from ..cards import Card, Hand, Suit, parse_cards
from ..errors import CardError, IllegalPlayError, PinochleError
from ..game.bidding import spoken_list
from ..ruleset import Ruleset
from ..scoring import DealFacts, not_on_board
from ..yamlsource import Node
from . import widowcheck
from .dealfields import FieldReader
from .layout import TRICK, by_side, shaped

__all__ = ["PlaySection", "trick_counters"]


@cache
def _counter_totals(rules: Ruleset) -> frozenset[int]:
    """Every counter total one side can take: a sum of captured cards' values, with or without the last trick
    (worked out once per ruleset: a long record asks for every deal)."""
    sums = {0}
    for v in sorted(rules.counter_value(c) for c in rules.deck.cards() if rules.counter_value(c)):
        sums |= {s + v for s in sums}
    return frozenset(sums | {s + rules.last_trick for s in sums})


@cache
def _sums_by_count(rules: Ruleset) -> tuple[frozenset[int], ...]:
    """For c = 0 … the number of counter cards in the pack: every total of exactly c of them (once per ruleset)."""
    values = [rules.counter_value(c) for c in rules.deck.cards() if rules.counter_value(c)]
    sums: list[set[int]] = [{0}] + [set() for _ in values]
    for v in values:
        for c in range(len(values), 0, -1):
            sums[c] |= {s + v for s in sums[c - 1]}
    return tuple(frozenset(s) for s in sums)


@cache
def trick_counters(rules: Ruleset, tricks: int) -> frozenset[int]:
    """Every counter total a side that took ``tricks`` tricks can hold: the counter cards among its
    tricks' cards (at most ``tricks`` × players of them, and at least what the other tricks' cards
    cannot hold), and the last trick's points if it took a trick, as it must if it took them all.

    Exact as a matter of cards (which cards could lie in which tricks); the rules of play may
    forbid some of these totals in a real deal.
    """
    sums, per = _sums_by_count(rules), rules.players
    n, pack = rules.tricks_per_deal, len(_sums_by_count(rules)) - 1
    bonuses = ({0} if tricks < n else set()) | ({rules.last_trick} if tricks > 0 else set())
    # the widow's cards (buried) may hold counter cards that are in no trick
    fewest, most = max(0, pack - rules.widow_size - (n - tricks) * per), min(pack, tricks * per)
    return frozenset(s + b for c in range(fewest, most + 1) for s in sums[c] for b in bonuses)


def _counter_step(rules: Ruleset) -> int:
    values = [v for v in rules.counters.values() if v] + ([rules.last_trick] if rules.last_trick else [])
    return math.gcd(*values) if values else 1


class PlaySection(FieldReader):
    """The counters, tricks and play of a deal (``read_play``)."""

    def by_side(self, key: str) -> list[int | None] | None:
        """Numbers by team or player → per side (None for a side not given)."""
        node = self.get(key)
        if node is None:
            return None
        table = self.table
        layout = by_side(table.teams)
        shaped(layout, node, key, deal=self.number, kind_only=True)
        out: list[int | None] = [None] * self.sides
        by_side_given: set[int] = set()
        by_player: dict[int, list[str]] = {}
        for name, (key_node, value) in node.entries.items():
            kind, side, who = self.named(name, key_node, key)
            number: int = shaped(layout.value, value, f"{key}.{name}", deal=self.number)
            if kind == "side":
                by_side_given.add(side)
            else:
                by_player.setdefault(side, []).append(who or "")
            if side in by_side_given and side in by_player:
                raise self.err(value, f"given for {table.sides[side]} and for {spoken_list(by_player[side])}: give "
                               "one or the other", key)
            out[side] = (out[side] or 0) + number
        return out

    def read_play(self, bidder_side: int | None) -> None:
        """Counters and tricks per side: given, or replayed from the play and checked against it."""
        rules, d = self.rules, self.d
        early = d.conceded or d.no_trump or (bidder_side is not None and not_on_board(
            rules, DealFacts(meld=d.meld, bidder_side=bidder_side, bid=d.bid)))
        counters, tricks = self.by_side("counters"), self.by_side("tricks")
        play_node = self.get("play")
        if early:
            why = ("conceded" if d.conceded else "no-trump" if d.no_trump else
                   f"not on board: meld {d.meld[bidder_side or 0]} + {rules.counter_total} is below the bid {d.bid}")
            for key, given in (("counters", counters), ("tricks", tricks)):
                if given is not None and any(v for v in given if v):
                    raise self.err(self.get(key), f"the deal ended after the meld ({why}): no cards were played", key)
            if play_node is not None:
                raise self.err(play_node, f"the deal ended after the meld ({why}): no cards were played", "play")
            return
        if play_node is not None:
            counters, tricks = self.replayed(play_node, counters, tricks)
        self.check_counters(counters)
        if tricks is not None:
            self.check_tricks(tricks)

    def replayed(self, play_node: Node, counters: list[int | None] | None,
                 tricks: list[int | None] | None) -> tuple[list[int | None], list[int | None]]:
        """The play's counters and tricks, which those given must match."""
        computed_c, computed_t = self.replay(play_node)
        for key, given, computed, unit in (("counters", counters, computed_c, ""), ("tricks", tricks, computed_t,
                                                                                     " tricks")):
            for side in range(self.sides):
                if given is not None and given[side] is not None and given[side] != computed[side]:
                    raise self.err(self.get(key), f"{self.table.sides[side]} took {given[side]}{unit}, but the play "
                                   f"gives {computed[side]}", key)
        self.d.played = True
        return list[int | None](computed_c), list[int | None](computed_t)

    def check_counters(self, counters: list[int | None] | None) -> None:
        rules, table = self.rules, self.table
        node = self.get("counters")
        if counters is None:
            raise self.err(None, f"missing counters (the counter points each {'team' if table.teams else 'player'} "
                           f"took, {rules.counter_total} in all)", "counters")
        absent = [table.sides[s] for s in range(self.sides) if counters[s] is None]
        if absent:
            raise self.err(node, f"no counters for {spoken_list(absent)} (they add up to {rules.counter_total})",
                           "counters")
        values = [int(v or 0) for v in counters]
        step = _counter_step(rules)
        for side, v in enumerate(values):
            if v % step:
                raise self.err(node, f"{table.sides[side]}: {v} is not a multiple of {step}", "counters")
            if v not in _counter_totals(rules):
                counts = ", ".join(f"{r.label} {p}" for r, p in rules.counters.items() if p)
                raise self.err(node, f"{table.sides[side]}: {v} cannot be taken (cards count {counts}; "
                               f"the last trick {rules.last_trick})", "counters")
        if sum(values) != rules.counter_total:
            raise self.err(node, f"add up to {sum(values)}, expected {rules.counter_total}", "counters")
        self.d.counters = tuple(values)

    def check_tricks(self, tricks: list[int | None]) -> None:
        """Tricks per side (one side may be left out): they add up, and agree with the counters."""
        rules, table, node = self.rules, self.table, self.get("tricks")
        counters = self.d.counters or ()
        n_tricks = rules.tricks_per_deal
        known = [t for t in tricks if t is not None]
        if sum(known) > n_tricks:
            raise self.err(node, f"add up to {sum(known)}, a deal has {n_tricks}", "tricks")
        if len(known) == self.sides and sum(known) != n_tricks:
            raise self.err(node, f"add up to {sum(known)}, expected {n_tricks}", "tricks")
        if len(known) == self.sides - 1:
            tricks = [t if t is not None else n_tricks - sum(known) for t in tricks]
        # the buried counters a side took in no trick (None: buried, not known)
        aside = [self.buried_of(side) for side in range(self.sides)]
        for side, t in enumerate(tricks):
            if t == 0 and aside[side] is not None and counters[side] > (aside[side] or 0):
                raise self.err(node, f"{table.sides[side]} took no trick but {counters[side]} counters", "tricks")
            away = sum(a or 0 for other, a in enumerate(aside) if other != side)
            if t == n_tricks and None not in aside and counters[side] != rules.counter_total - away:
                raise self.err(node, f"{table.sides[side]} took every trick but only {counters[side]} counters",
                               "tricks")
        for side, t in enumerate(tricks):
            if t is not None and aside[side] is not None:
                self.check_trick_counters(side, t, counters[side] - (aside[side] or 0))
        self.d.tricks = tuple(tricks)

    def check_trick_counters(self, side: int, tricks: int, counters: int) -> None:
        """The counters a side took are a total its tricks can hold (``trick_counters``)."""
        can = trick_counters(self.rules, tricks)
        if counters in can:
            return
        low, high = min(can), max(can)
        took = "1 trick, which holds" if tricks == 1 else f"{tricks} tricks, which hold"
        not_one = f" ({counters} is not a total they can hold)" if low <= counters <= high else ""
        raise self.err(self.get("counters"), f"{self.table.sides[side]} took {took} between {low} and {high} "
                       f"counters; got {counters}{not_one}", "counters")

    def replay_setup(self, play_node: Node) -> tuple[list[Hand], Suit, int]:
        """What replaying the play needs: every hand, the trump, the stock (games with one), the leader."""
        rules, table, d = self.rules, self.table, self.d
        if d.hands is None or len(d.hands) != rules.players:
            missing = [p for p in table.seating if d.hands is None or p not in d.hands]
            raise self.err(play_node, "replaying the play needs every player's hand: add hands for "
                           f"{spoken_list(missing)}", "play")
        if d.trump is None:
            raise self.err(play_node, "replaying the play needs the trump suit: add trump:", "play")
        if rules.has_stock and d.stock is None:
            raise self.err(play_node, "this game draws from a stock: add stock: (its cards, top first)", "play")
        self.shape("play", play_node, kind_only=True)
        if rules.play.leader == "bidder":
            if d.bidder is None:
                raise self.err(play_node, "the bidder leads: add bidder:", "play")
            leader = table.seat_of(d.bidder)
        else:
            if d.dealer is None:
                raise self.err(play_node, "the dealer's left leads: add dealer:", "play")
            leader = (table.seat_of(d.dealer) + 1) % rules.players
        return [d.hands[p] for p in table.seating], d.trump, leader

    def trick(self, node: Node, trick: int) -> list[Card]:
        """One trick's cards in the order played (each in the pack; held or not is the replay's question)."""
        tokens = shaped(TRICK, node, "play", deal=self.number, trick=trick)
        try:
            cards = parse_cards(tokens)
        except CardError as exc:
            raise self.err(node, str(exc), trick=trick) from None
        for card in cards:
            if card not in self.rules.deck:
                raise self.err(node, f"{card} ({card.ascii()}) is not in {self.rules.deck.name}", trick=trick)
        return cards

    def replay(self, play_node: Node) -> tuple[list[int], list[int]]:
        """Replay the recorded tricks → counters and tricks per side."""
        rules, table = self.rules, self.table
        hands, trump, leader = self.replay_setup(play_node)
        tricks = [self.trick(n, i) for i, n in enumerate(play_node.items, start=1)]
        if len(tricks) != rules.tricks_per_deal:
            raise self.err(play_node, f"{len(tricks)} tricks recorded, a deal has {rules.tricks_per_deal}", "play")
        # the trick engine, imported when a deal has play: (score of a sheet needs none)
        from ..game.deal import replay_deal

        bidder = table.seat_of(self.d.bidder) if self.d.bidder is not None else None
        try:
            result = replay_deal(rules, hands, trump, leader, tricks, stock=self.d.stock, names=list(table.seating),
                                 bidder=bidder)
        except IllegalPlayError as exc:
            at = play_node.items[exc.trick - 1] if 0 < exc.trick <= len(play_node.items) else play_node
            raise self.err(at, exc.detail, trick=exc.trick) from None
        except PinochleError as exc:
            raise self.err(play_node, str(exc), "play") from None
        self.d.play, self.d.leader = tuple(tuple(t) for t in tricks), leader
        counters = [0] * self.sides
        won = [0] * self.sides
        for index, (c, t) in enumerate(zip(result.side_counters(rules), result.side_tricks(rules), strict=True)):
            side = table.side_of_partnership(index)
            counters[side] += c
            won[side] += t
        if self.d.buried is not None and rules.bury is not None:
            # the buried counters: the bidder's, or the last trick's winner's
            seat = bidder if rules.bury.counters == "bidder" else result.winners[-1]
            if seat is not None:
                counters[table.side_of_seat(seat)] += widowcheck.buried_counters(rules, self.d.buried)
        return counters, won
