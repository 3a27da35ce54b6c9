"""Double-dummy solving: the counters a side takes from a position when everyone plays perfectly.

``Solver(rules, trump, us=seat)`` answers ``value(position)`` (the counters, last-trick bonus
included, that ``us``'s side takes from here on, the cards on the trick included) and
``plays(position)`` (each distinct legal card with the value after it), from the ruleset's play-off
duties, rank order and counters. It raises ``PlayError`` for a ruleset its table cannot key,
``check_position`` (``position.py``, with the positions and limits, exported here too) raises it for
a position that cannot arise, and ``SearchLimitError`` (``SolveAborted``, not a kind of bad input)
ends a search past ``node_limit`` or past the solver's ``time_limit`` (CPU seconds). How it
searches: docs/solver.md.

The compiled search cannot look at a clock, so the time limit is kept by a node limit per
search: the nodes the measured rate (nodes per CPU second, from the searches so far) gives
for the time left, never fewer than ``_MIN_SLICE``. A search that passes it while time is
left (the rate was measured low) is asked again with the new measure: the answers the table
kept from the first try make the second shorter. The answers never depend on the clock; only
whether they come in time does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from ..cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, SUIT_MASK, Card, Suit, as_suit
from ..errors import Message, PlayError, SearchLimitError
from ..game.kernels import compile_rules, legal_in_trick
from ..game.tricks import rank_places, trick_winner
from ..ruleset import Ruleset
from .position import (
    MAX_TIME_LIMIT,
    QUICK_CARDS,
    Position,
    check_position,
    check_time_limit,
    counter_step,
    quick_tricks,
)
from .search import (
    BUCKET,
    COUNTER_LIMIT,
    KILLER,
    LEAD_PLACE,
    PAR_CLASSES,
    PAR_LAST_TRICK,
    PAR_OURS,
    PAR_PLAYERS,
    PAR_TRUMP,
    SEAT_BITS,
    STAT_ABORTED,
    STAT_GENERATION,
    STAT_LIMIT,
    STAT_NODES,
    TAB_CLASS,
    TAB_COUNTER,
    TAB_STRENGTH,
    TAGS,
    empty_general_table,
    empty_stats,
    empty_suit_cache,
    reach,
)

__all__ = ["MAX_TIME_LIMIT", "QUICK_CARDS", "TABLE_BITS", "Position", "SolveAborted", "Solver", "check_position",
           "check_time_limit", "counter_step", "quick_tricks", "table_bits_for"]

# nodes a CPU second assumed until a search measured the rate: low (the rate measured is about
# 2.5 million), so that the first node limit under a time limit ends early rather than late
_ASSUMED_RATE = 500_000
# a search of fewer nodes measures its call's overhead more than the rate: it is not counted
_MEASURED_NODES = 20_000
# the least node limit a search gets under a time limit (a tenth of a second at the measured rate):
# a search that passes its limit just before the time runs out is not retried in ever smaller slices
_MIN_SLICE = 250_000

TABLE_BITS = 21
# the table grows with the position: the default's 2^21 rows were measured on whole single-deck deals (12
# tricks), and the nodes of a search fall about fourfold a trick less, so a table has 2 bits fewer a trick
# less, 2^10 rows at least: a fresh solver of a short ending no longer pays to touch a 32 MB table
_TABLE_FULL_TRICKS, _TABLE_BITS_PER_TRICK, _TABLE_LEAST = 12, 2, 10
# percent of the window: where the questions without a guess start (see Solver._climb)
_CLIMB_FROM = 20
# percent of the window: how far each question then moves on
_CLIMB_JUMP = 5
# fixed: the table keys are the same on every run
_SEED = 20141


def table_bits_for(tricks: int, most: int = TABLE_BITS) -> int:
    """The table's size (rows, a power of two) for a position of ``tricks`` tricks to go, at most ``most``."""
    return min(most, max(_TABLE_LEAST, most - _TABLE_BITS_PER_TRICK * (_TABLE_FULL_TRICKS - tricks)))


def _aligned_table(bits: int) -> np.ndarray:
    """The transposition table: ``2 ** bits`` rows of two words, each bucket of ``BUCKET`` rows in one cache line."""
    # words
    line = BUCKET * 2
    words = np.zeros((1 << bits) * 2 + line, dtype=np.int64)
    skip = (-words.ctypes.data // 8) % line
    return words[skip:skip + (1 << bits) * 2].reshape(-1, 2)


# the search ran past its node limit: the name callers used before the class moved to errors.py
SolveAborted = SearchLimitError


SearchProgress = Callable[[float, int], None]


def _suit(trump: Suit | str) -> Suit:
    suit = as_suit(trump)
    if suit is None:
        raise PlayError("the solver needs a trump suit: none was given")
    return suit


class Solver:
    """Double-dummy values for one ruleset and trump suit, with a transposition table kept across calls.

    Raises ``PlayError`` for a ruleset the search cannot hold or a ``time_limit`` out of range (see
    ``check_time_limit``); every question raises ``SearchLimitError`` once a search passes ``node_limit``
    nodes (0, the default: no limit) or the questions together pass ``time_limit`` seconds of ``clock``
    (CPU time; None, the default: no limit) counted from the solver's making. ``progress(seconds, nodes)``
    is called after each search. ``last_trick``: what the last trick earns besides its cards (default the
    ruleset's bonus; more where buried cards go to the last trick's winner). ``table_bits``: the table has
    ``2 ** table_bits`` rows; None (the default): as many as the largest position asked so far needs
    (``table_bits_for``), a new, empty table each time it grows — a solver kept for many positions, small ones
    first, is better given the whole size (``TABLE_BITS``). ``generalise``: keep generalised entries too, each
    bound found also stored for every position that differs only in cards whose rank it did not depend on
    (fewer nodes, more time a node: off by default; docs/solver.md, "Generalised entries").
    """

    def __init__(self, rules: Ruleset, trump: Suit | str, *, us: int = 0, bidder: int | None = None,
                 last_trick: int | None = None, table_bits: int | None = None,
                 time_limit: float | None = None, clock: Callable[[], float] = time.process_time,
                 progress: SearchProgress | None = None, generalise: bool = False) -> None:
        trump = _suit(trump)
        check_time_limit(time_limit)
        self.rules = rules
        self.trump = trump
        self.last_trick = rules.last_trick if last_trick is None else last_trick
        self.step = counter_step(rules)
        players = rules.players
        strength = rank_places(rules)
        values = [rules.counter_value(c) for c in ALL_CARDS]
        classes = {v: i for i, v in enumerate(sorted(set(values)))}
        self.tab = np.zeros((TAB_CLASS + 1, N_CARDS), dtype=np.int64)
        self.tab[TAB_STRENGTH], self.tab[TAB_COUNTER] = strength, values
        self.tab[TAB_CLASS] = [classes[v] for v in values]
        self.side = np.array([0 if rules.deal_side_of(s, bidder) == rules.deal_side_of(us, bidder) else 1
                              for s in range(players)], dtype=np.int64)
        ours = sum(((1 << SEAT_BITS) - 1) << (s * SEAT_BITS) for s in range(players) if self.side[s] == 0)
        self.par = np.zeros(PAR_OURS + 1, dtype=np.int64)
        self.par[PAR_PLAYERS], self.par[PAR_TRUMP], self.par[PAR_LAST_TRICK] = players, int(trump), self.last_trick
        self.par[PAR_CLASSES], self.par[PAR_OURS] = len(classes), ours
        core = compile_rules(rules, int(trump))
        self.duties, self.above, self.suit_mask = core.duties, core.above, core.suit_mask
        self.order = np.array([[s * N_RANKS + int(rank) for rank in rules.rank_order] for s in range(N_SUITS)],
                              dtype=np.int64)
        self.ranked = np.array([sum(1 << k for k, c in enumerate(self.order[0]) if (m >> c) & 1)
                                for m in range(SUIT_MASK + 1)], dtype=np.int64)
        if 2 * players * len(classes) > TAGS:
            raise PlayError(f"{rules.name}: too many counter values for the solver's table keys")
        if rules.counter_total >= COUNTER_LIMIT:
            raise PlayError(f"{rules.name}: the counters of a deal add up to {rules.counter_total}; the solver's table "
                            f"holds totals below {COUNTER_LIMIT}")
        rng = np.random.default_rng(_SEED)
        keys = rng.integers(-(2**62), 2**62, size=(2, N_SUITS, LEAD_PLACE + 1, TAGS), dtype=np.int64)
        # the tags in use: the table of keys fits the fastest cache
        tags = 2 * players * len(classes)
        # [suit, place, tag, stream]
        self.zob = np.ascontiguousarray(keys[..., :tags].transpose(1, 2, 3, 0)).ravel()
        # the generalised entries' count keys: two words for each leader, then for each suit, hand and value class
        self.zc = (rng.integers(-(2**62), 2**62, size=2 * players * (1 + N_SUITS * len(classes)), dtype=np.int64)
                   if generalise else None)
        # a table of ``table_bits`` (fixed), or sized by the position (``table_bits_for``), as small as it starts
        self.table_bits = table_bits
        self.tt = _aligned_table(_TABLE_LEAST if table_bits is None else table_bits)
        self.generalise = generalise
        self.gt = self._general_table()
        self._scratch(rules)
        self.node_limit = 0
        self.time_limit = time_limit
        self.progress = progress
        self._clock = clock
        self._start = clock()
        # the searches that measure the rate: their nodes and CPU seconds
        self._timed = [0, 0.0]

    def _general_table(self) -> np.ndarray | None:
        """The generalised entries' table, as many rows as the table; None without ``generalise``."""
        return empty_general_table(self.tt.shape[0].bit_length() - 1) if self.generalise else None

    def _scratch(self, rules: Ruleset) -> None:
        """The arrays the search keeps from one call to the next: history, moves, frames, keys and counts."""
        players = rules.players
        self.hist = np.zeros((2 * players, N_CARDS), dtype=np.int64)
        depth = rules.hand_size + 1
        plies = depth * players + 1
        # a row per ply: a lead's moves go behind its killer, which may be a move of its own, so one more than the cards
        self.moves = np.zeros((plies, N_CARDS + 1), dtype=np.int64)
        self.keys = np.zeros(N_CARDS, dtype=np.int64)
        self.who = np.zeros(N_CARDS, dtype=np.int64)
        # a node's fields, then a killer per seat
        self.frames = np.zeros((plies, KILLER + players), dtype=np.int64)
        self.tricks = np.zeros((depth, players), dtype=np.int64)
        self.skey = np.zeros((depth, N_SUITS, 2), dtype=np.int64)
        self.kept = empty_suit_cache()
        self.stats = empty_stats()

    @property
    def nodes(self) -> int:
        """Trick-boundary nodes searched since the solver was made."""
        return int(self.stats[STAT_NODES])

    @property
    def seconds(self) -> float:
        """CPU seconds (of its clock) since the solver was made."""
        return self._clock() - self._start

    def restart(self, time_limit: float | None, *, since: float | None = None) -> None:
        """Count ``time_limit`` (see ``check_time_limit``) from now on (or from ``since``, an earlier reading of its
        clock), keeping the table, the history and the ordering: for a solver kept across many positions."""
        check_time_limit(time_limit)
        self.time_limit = time_limit
        self._start = self._clock() if since is None else since

    def _stopped(self, pos: Position) -> SearchLimitError:
        """The time limit is reached in a search from ``pos``: what stopped, and what would not have."""
        quick, left = quick_tricks(self.rules), pos.tricks_left
        size = f"this position has {left} trick{'s' if left != 1 else ''} left"
        feasible = (f"{quick} tricks left usually solve in under a second" if left > quick
                    else "that many usually solve in under a second")
        return SearchLimitError(Message(f"stopped after {self.time_limit:g} s of CPU: {size}; {feasible}"),
                                parameter="time_limit")

    def _budget(self, pos: Position) -> int:
        """The node limit of the next search: ``node_limit``, or fewer to end about when the time runs out."""
        if self.time_limit is None:
            return self.node_limit
        left = self.time_limit - self.seconds
        if left <= 0:
            raise self._stopped(pos)
        nodes, seconds = self._timed
        rate = nodes / seconds if nodes and seconds > 0 else _ASSUMED_RATE
        budget = max(_MIN_SLICE, int(rate * left))
        return min(budget, self.node_limit) if self.node_limit else budget

    def _measured(self, nodes: int, seconds: float) -> None:
        """A search of ``nodes`` took ``seconds``: counted in the rate unless it was too short to tell."""
        if nodes >= _MEASURED_NODES:
            self._timed[0] += nodes
            self._timed[1] += seconds
        if self.progress is not None:
            self.progress(self.seconds, self.nodes)

    # ------------------------------------------------------------------ questions

    def _arrays(self, pos: Position) -> tuple[np.ndarray, np.ndarray, int, int]:
        hands = np.array([h.counts for h in pos.hands], dtype=np.int64)
        held = np.array([sum(1 << c for c in range(N_CARDS) if row[c]) for row in hands], dtype=np.int64)
        live = hands.sum(axis=0)
        trick = self.tricks[pos.tricks_left]
        for j, card in enumerate(pos.trick):
            trick[j] = card.index
            live[card.index] += 1
        win = trick_winner(self.rules, pos.trick, self.trump) if pos.trick else 0
        rest = int(self.tab[TAB_COUNTER] @ live) + self.last_trick
        return hands, held, win, rest

    def reaches(self, pos: Position, target: int) -> bool:
        """Does our side take at least ``target`` counters from ``pos`` on?"""
        hands, held, win, rest = self._arrays(pos)
        return self._bound(hands, held, pos, win, target, rest) >= target

    def _bound(self, hands: np.ndarray, held: np.ndarray, pos: Position, win: int, target: int, rest: int) -> int:
        """A bound answering "at least ``target``?": ``b >= target`` is a value surely reached, ``b < target``
        one never passed."""
        if target <= 0:
            return 0
        if target > rest:
            return rest
        # sized by the position: a larger one than the table was made for gets a larger, empty table (its entries
        # are a cache: values stay)
        if self.table_bits is None and 1 << table_bits_for(pos.tricks_left) > self.tt.shape[0]:
            self.tt = _aligned_table(table_bits_for(pos.tricks_left))
            self.gt = self._general_table()
        stats = self.stats
        # a search past the node limit the time gave is asked again, with the rate it measured
        while True:
            budget = self._budget(pos)
            stats[STAT_LIMIT] = stats[STAT_NODES] + budget if budget else 0
            timed = self.time_limit is not None or self.progress is not None
            nodes, start = self.nodes, self._clock() if timed else 0.0
            bound = reach(hands, held, self.tricks, len(pos.trick), pos.leader, win, target, rest, pos.tricks_left,
                          self.par, self.duties, self.side, self.tab, self.above, self.suit_mask, self.order,
                          self.ranked, self.zob, self.skey, self.kept, self.tt, self.zc, self.gt, self.hist,
                          self.moves, self.keys, self.frames, self.who, stats)
            if timed:
                self._measured(self.nodes - nodes, self._clock() - start)
            if not stats[STAT_ABORTED]:
                return int(bound)
            stats[STAT_ABORTED] = 0
            if budget == self.node_limit:
                raise SearchLimitError(f"the search passed its limit of {self.node_limit} nodes")
            # the stopped search left its cards played: the caller's arrays as they were
            hands[...], held[...] = self._arrays(pos)[:2]

    def value(self, pos: Position, lower: int = 0, upper: int | None = None, *, near: int | None = None) -> int:
        """Our side's counters from ``pos`` on under perfect play, known to lie in ``lower..upper``.

        ``near``: a value it is likely close to: asked first, then steps doubling away from it,
        before the binary search (a value next to a known one takes one or two questions); without
        it the first questions are the ones the side to move answers cheaply (``_climb``).
        """
        hands, held, win, rest = self._arrays(pos)
        step = self.step
        window = [max(0, lower), rest if upper is None else min(rest, upper)]

        def ask(target: int) -> bool:
            """At least ``target``? The bound the search finds narrows the window beyond the answer."""
            bound = self._bound(hands, held, pos, win, target, rest)
            if bound >= target:
                window[0] = max(window[0], -(-bound // step) * step)
                return True
            window[1] = min(window[1], bound // step * step)
            return False

        # a new generation: the table's older entries give way first
        self.stats[STAT_GENERATION] = (self.stats[STAT_GENERATION] + 1) % 256
        self.narrow(ask, window, ours=bool(self.side[pos.to_play] == 0), near=near)
        return window[0]

    def narrow(self, ask: Callable[[int], bool], window: list[int], *, ours: bool, near: int | None = None) -> None:
        """Narrow ``window`` (a range of multiples of the step) to the value by questions ``ask(v)``: "at least
        ``v``?" (``ask`` narrows ``window`` by each answer). ``ours``: our side is to move. ``near``: see ``value``."""
        step = self.step
        if near is not None and window[0] < window[1]:
            self._gallop(ask, window, min(max(near, window[0]), window[1]))
        elif window[0] < window[1]:
            self._climb(ask, window, ours)
        while window[0] < window[1]:
            lo, hi = window
            ask(lo + ((hi - lo) // step + 1) // 2 * step)

    def _climb(self, ask: Callable[[int], bool], window: list[int], ours: bool) -> None:
        """Narrow ``window`` by the questions the side to move answers cheaply: it proves its answer with one
        good card where the other side must refute each of its cards, and the further the target from the
        value, the easier the proof. So the questions start a fifth of the way into the window from the end the
        side to move is unlikely to fall short of, and move on in short jumps while the answer stays its way."""
        step = self.step
        lo, hi = window
        jump = max(step, (hi - lo) // step * _CLIMB_JUMP // 100 * step)
        start = max((hi - lo) // step * _CLIMB_FROM // 100 * step, step)
        target = lo + start if ours else hi - start + step
        while window[0] < window[1] and ask(target) == ours:
            target = min(window[0] + jump, window[1]) if ours else max(window[1] - jump + step, window[0] + step)

    def _gallop(self, ask: Callable[[int], bool], window: list[int], x: int) -> None:
        """Narrow ``window`` around ``x`` by steps doubling away from it."""
        up = ask(x)
        jump = self.step
        while window[0] < window[1]:
            lo, hi = window
            if ask(min(hi, lo + jump) if up else max(lo, hi - jump)) != up:
                break
            jump *= 2

    def legal(self, pos: Position) -> list[Card]:
        """The distinct cards the player to move may play (the compiled rule, as the search sees it)."""
        _hands, held, win, _rest = self._arrays(pos)
        seat = pos.to_play
        win_seat = (pos.leader + win) % self.rules.players
        partner_win = bool(pos.trick) and win_seat != seat and self.side[win_seat] == self.side[seat]
        allowed = legal_in_trick(self.above, self.suit_mask, int(self.par[PAR_TRUMP]), self.duties, int(held[seat]),
                              self.tricks[pos.tricks_left], len(pos.trick), partner_win)
        return [ALL_CARDS[i] for i in range(N_CARDS) if (allowed >> i) & 1]

    def after(self, pos: Position, card: Card) -> tuple[Position, int]:
        """The position after ``card`` and the counters our side took by it (when it ends a trick)."""
        nxt = pos.play(card)
        if len(nxt.trick) < self.rules.players:
            return nxt, 0
        winner = (pos.leader + trick_winner(self.rules, nxt.trick, self.trump)) % self.rules.players
        points = sum(self.rules.counter_value(c) for c in nxt.trick)
        if not nxt.hands[pos.to_play]:
            points += self.last_trick
        return Position(nxt.hands, winner), (points if self.side[winner] == 0 else 0)

    def value_after(self, pos: Position, card: Card, *, near: int | None = None) -> int:
        """Our side's counters from ``pos`` on when the player to move plays ``card`` and all play perfectly after."""
        nxt, taken = self.after(pos, card)
        if not any(nxt.hands):
            return taken
        return taken + self.value(nxt, near=None if near is None else near - taken)

    def keeps(self, pos: Position, card: Card, value: int) -> bool:
        """Does ``card`` keep ``value`` (our side's value from ``pos``) for the side of the player to move?"""
        nxt, taken = self.after(pos, card)
        ours = self.side[pos.to_play] == 0
        if not any(nxt.hands):
            return taken >= value if ours else taken <= value
        if ours:
            return self.reaches(nxt, value - taken)
        return not self.reaches(nxt, value - taken + self.step)

    def plays(self, pos: Position, *, progress: Callable[[int, int], None] | None = None) -> list[tuple[Card, int]]:
        """Each distinct legal card of the player to move, with our side's value after it;
        ``progress(done, total)`` before the first card and after each. Past the time limit the
        ``SearchLimitError`` names ``pos``."""
        result: list[tuple[Card, int]] = []
        cards = self.legal(pos)
        if progress is not None:
            progress(0, len(cards))
        for card in cards:
            try:
                result.append((card, self.value_after(pos, card, near=result[-1][1] if result else None)))
            except SearchLimitError as exc:
                raise (self._stopped(pos) if exc.parameter == "time_limit" else exc) from None
            if progress is not None:
                progress(len(result), len(cards))
        return result

    def best(self, plays: Sequence[tuple[Card, int]], seat: int) -> int:
        """The best value among ``plays`` for the side of ``seat``."""
        values = [v for _, v in plays]
        return max(values) if self.side[seat] == 0 else min(values)
