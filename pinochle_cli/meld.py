"""The exact meld of a hand, driven only by the ruleset's meld table; two-handed declarations.

Within a class a card counts at most once; classes are independent, so the best total is the
sum of each class's best, and within a class the instances that share a card form independent
components (``Component``). One hand's component is solved by a dynamic programme over its
instances, memoised on (instance, counts left); batches of hands use a table of every count state
(``meldtables``, numpy, loaded only then). Too many cards for the ruleset's hand raise
``CardError``; a two-handed declaration that could not have scored raises ``MeldError``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from .cards import ALL_CARDS, Card, Hand, Suit, as_suit, format_cards
from .errors import CardError, MeldError

# TABLE_LIMIT: larger components are searched per hand
from .ruleset import TABLE_LIMIT, Combination, Ruleset

# one hand's meld needs no numpy: only batches of hands load it (``meldtables``)
if TYPE_CHECKING:
    import numpy.typing as npt

    from .arrays import IntArray

__all__ = [
    "Declaration", "MeldItem", "MeldResult", "MeldTable", "MostMeld", "TABLE_LIMIT", "best_trump", "check_cards",
    "check_declaration", "meld", "meld_by_trump", "meld_table", "most_meld", "multiple_name", "nameable_trumps",
    "shown_cards",
]




# --------------------------------------------------------------------------- results

@dataclass(frozen=True)
class MeldItem:
    """One declaration: ``copies`` copies of one combination instance shown together."""

    name: str
    klass: str
    cards: tuple[Card, ...]
    points: int
    copies: int

    @property
    def title(self) -> str:
        """``run``, ``double run``, ``triple run`` …: the name a table shows."""
        return multiple_name(self.name, self.copies)


@dataclass(frozen=True)
class MeldResult:
    trump: Suit | None
    melds: tuple[MeldItem, ...]
    total: int

    def only(self, names: Iterable[str]) -> bool:
        """True when there is meld and every item of it is one of ``names`` (e.g. only dix)."""
        allowed = set(names)
        return bool(self.melds) and all(m.name in allowed for m in self.melds)


def multiple_name(name: str, copies: int) -> str:
    prefix = {1: "", 2: "double ", 3: "triple ", 4: "quadruple "}.get(copies, f"{copies}× ")
    return prefix + name


# --------------------------------------------------------------------------- hands

def check_cards(rules: Ruleset, cards: Hand | Iterable[Card], *, limit: bool = False) -> Hand:
    """The cards as a hand of ``rules``'s pack; with ``limit``, no larger than a player holds at the meld (a
    dealt hand; the bidder's with the widow). Raises ``CardError`` for a card the pack lacks, more copies than
    it holds, or (``limit``) too many cards."""
    hand = rules.deck.check(cards)
    if limit and len(hand) > rules.largest_hand:
        raise CardError(f"{len(hand)} cards given ({format_cards(hand)}); a {rules.name} hand holds at most "
                        f"{rules.hand_sizes_words}")
    return hand


# --------------------------------------------------------------------------- instances and components

@dataclass(frozen=True)
class _Instance:
    """One concrete card set of a combination for a trump, with its prices for 0‥max copies."""

    # position in rules.meld
    combo: int
    name: str
    klass: str
    # sorted, with repeats
    cards: tuple[Card, ...]
    points: tuple[int, ...]
    # value of n copies, n = 0 … max_copies
    values: tuple[int, ...]

    @property
    def need(self) -> Counter[int]:
        return Counter(c.index for c in self.cards)


def _groups(rules: Ruleset, trump: Suit) -> list[list[_Instance]]:
    """The meld table's instances for ``trump``, those of one class sharing a card in one group
    (``Ruleset.meld_groups``), with their prices for 0‥max copies."""
    out = []
    for group in rules.meld_groups(trump):
        insts = []
        for i, cards in group:
            combo = rules.meld[i]
            most = min(rules.deck.copies // n for n in Counter(cards).values())
            insts.append(_Instance(i, combo.name, combo.klass, cards, combo.points,
                                   tuple(combo.value(n) for n in range(most + 1))))
        out.append(insts)
    return out


class Solved:
    """What a component's cards and prices determine, shared by every component with the same ones:
    the best (value, copies per instance) of each count state met so far, and the table of every
    state for batches (``meldtables``, built with numpy on first use)."""

    def __init__(self) -> None:
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[int, tuple[int, ...]]] = {}
        self.table: IntArray | None = None


class Component:
    """The exact best of one component for any count vector of its cards.

    One hand: a dynamic programme over the instances, memoised on (instance, counts left) — kept
    between hands when the component is small enough to tabulate (``tabulated``), so that it never
    outgrows the table. Batches of hands: table lookups (``meldtables``); an untabulated component
    is solved per hand.
    """

    def __init__(self, instances: tuple[_Instance, ...], copies: int) -> None:
        self.instances = instances
        self.cards: tuple[int, ...] = tuple(sorted({c for inst in instances for c in inst.need}))
        self.radix = copies + 1
        self.size = self.radix ** len(self.cards)
        self.strides: tuple[int, ...] = tuple(self.radix ** (len(self.cards) - 1 - k) for k in range(len(self.cards)))
        self.needs = tuple(tuple(inst.need.get(c, 0) for c in self.cards) for inst in instances)
        self.tabulated = self.size * (len(instances) + 1) <= TABLE_LIMIT
        self.solved = Solved()

    @property
    def table(self) -> IntArray:
        """The best value of every count state (mixed radix, ``strides``): tabulated components only."""
        if self.solved.table is None:
            # numpy: batches only
            from .meldtables import build_table

            self.solved.table = build_table(self)
        return self.solved.table

    def state(self, counts: Sequence[int]) -> tuple[int, ...]:
        return tuple(min(int(counts[c]), self.radix - 1) for c in self.cards)

    def value(self, counts: Sequence[int]) -> int:
        return self._search(self.state(counts))[0]

    def best(self, counts: Sequence[int]) -> list[tuple[_Instance, int]]:
        """An optimal choice: (instance, copies) pairs with copies > 0; of the instances in table
        order, each takes the most copies an optimum allows."""
        choice = self._search(self.state(counts))[1]
        return [(inst, n) for inst, n in zip(self.instances, choice, strict=True) if n]

    def _search(self, state: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        """Exact depth-first search over the instances, memoised on (instance, counts left)."""
        memo = self.solved.memo if self.tabulated else {}

        def go(j: int, left: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
            if j == len(self.instances):
                return 0, ()
            key = (j, left)
            if key in memo:
                return memo[key]
            inst, need = self.instances[j], self.needs[j]
            best: tuple[int, tuple[int, ...]] = (-1, ())
            for n in range(len(inst.values) - 1, -1, -1):
                rest = tuple(s - n * k for s, k in zip(left, need, strict=True))
                if min(rest, default=0) < 0:
                    continue
                val, choice = go(j + 1, rest)
                if inst.values[n] + val > best[0]:
                    best = (inst.values[n] + val, (n, *choice))
            memo[key] = best
            return best

        return go(0, state)


_COMPONENTS: dict[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], Component] = {}


def _component(instances: list[_Instance], copies: int) -> Component:
    """Components are shared by every trump and ruleset with the same cards and prices."""
    key = (((copies,), ()), *(((*(c.index for c in i.cards),), i.values) for i in instances))
    comp = _COMPONENTS.get(key)
    if comp is None:
        comp = _COMPONENTS[key] = Component(tuple(instances), copies)
    # same cards and prices, other names: share what is solved
    elif comp.instances != tuple(instances):
        twin = Component.__new__(Component)
        twin.__dict__.update(comp.__dict__)
        twin.instances = tuple(instances)
        comp = twin
    return comp


# --------------------------------------------------------------------------- the table

class MeldTable:
    """The meld engine of one ruleset: components per trump, built on first use."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.suits: tuple[Suit, ...] = tuple(rules.suits)
        self._plans: dict[Suit, list[Component]] = {}
        self._all: tuple[list[Component], list[list[int]]] | None = None

    def plan(self, trump: Suit) -> list[Component]:
        """The components summed for ``trump``; raises ``CardError`` for a suit not in the pack."""
        plan = self._plans.get(trump)
        if plan is None:
            if trump not in self.suits:
                raise CardError(f"{trump.word} ({trump.letter}) is not a suit of {self.rules.deck.name}")
            plan = [_component(group, self.rules.deck.copies) for group in _groups(self.rules, trump)]
            self._plans[trump] = plan
        return plan

    def _unique(self) -> tuple[list[Component], list[list[int]]]:
        """Distinct components over all trumps, and for each suit (by int) the ones it sums."""
        if self._all is None:
            comps: list[Component] = []
            where: dict[int, int] = {}
            per_suit: list[list[int]] = [[] for _ in Suit]
            for suit in self.suits:
                for comp in self.plan(suit):
                    key = id(comp.solved)
                    if key not in where:
                        where[key] = len(comps)
                        comps.append(comp)
                    per_suit[int(suit)].append(where[key])
            self._all = (comps, per_suit)
        return self._all

    def total(self, counts: Sequence[int], trump: Suit) -> int:
        """The exact meld total of a count vector (24 counts by card index) for one trump."""
        return sum(comp.value(counts) for comp in self.plan(trump))

    def totals(self, counts: Sequence[int]) -> list[int]:
        """Totals for every trump, indexed by ``int(Suit)`` (0 for a suit not in the pack)."""
        comps, per_suit = self._unique()
        vals = [comp.value(counts) for comp in comps]
        return [sum(vals[i] for i in ids) for ids in per_suit]

    def total_batch(self, counts: npt.ArrayLike, trump: Suit) -> IntArray:
        """Exact totals of many hands: ``counts`` shape (N, 24), each count within the pack."""
        # numpy: batches only
        from .meldtables import total_batch

        return total_batch(self.plan(trump), counts, self.rules.deck.copies)

    def totals_batch(self, counts: npt.ArrayLike) -> IntArray:
        """Exact totals of many hands for every trump at once: shape (N, 4), column ``int(Suit)``
        (0 for a suit not in the pack). Components common to several trumps are evaluated once."""
        # numpy: batches only
        from .meldtables import totals_batch

        comps, per_suit = self._unique()
        return totals_batch(comps, per_suit, counts, self.rules.deck.copies)

    def result(self, hand: Hand, trump: Suit) -> MeldResult:
        """The best declaration of ``hand`` (already checked) with its items."""
        counts = hand.counts
        items: list[tuple[int, MeldItem]] = []
        for comp in self.plan(trump):
            for inst, n in comp.best(counts):
                for size in _split(inst.points, n):
                    cards = tuple(sorted(inst.cards * size))
                    items.append((inst.combo, MeldItem(inst.name, inst.klass, cards, _group_value(inst.points, size),
                                                       size)))
        items.sort(key=lambda t: (t[0], t[1].cards, -t[1].copies))
        melds = tuple(m for _, m in items)
        return MeldResult(trump, melds, sum(m.points for m in melds))


def _group_value(points: tuple[int, ...], size: int) -> int:
    return points[size - 1]


@lru_cache(maxsize=1024)
def _split(points: tuple[int, ...], copies: int) -> tuple[int, ...]:
    """Group sizes (largest first) that price ``copies`` copies best; fewer groups on a tie."""
    best: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
    for k in range(1, copies + 1):
        options = []
        for g in range(1, min(k, len(points)) + 1):
            val, groups, parts = best[k - g]
            options.append((val + points[g - 1], -(groups + 1), tuple(sorted((*parts, g), reverse=True))))
        v, ng, parts = max(options)
        best.append((v, -ng, parts))
    return best[copies][2]


@lru_cache(maxsize=32)
def meld_table(rules: Ruleset) -> MeldTable:
    """The (cached) engine of a ruleset."""
    return MeldTable(rules)


def _trump(trump: Suit | str) -> Suit:
    """A trump given as a ``Suit`` or its letter, symbol or name (``MeldError`` without one)."""
    suit = as_suit(trump)
    if suit is None:
        raise MeldError("meld is counted with a trump suit: none was given")
    return suit


def meld(rules: Ruleset, hand: Hand | Iterable[Card], trump: Suit | str) -> MeldResult:
    """The largest meld ``hand`` can show with ``trump`` (a ``Suit``, or ``"H"``, ``"♥"``, ``"hearts"``), and the
    combinations that make it up."""
    return meld_table(rules).result(check_cards(rules, hand), _trump(trump))


def meld_by_trump(rules: Ruleset, hand: Hand | Iterable[Card]) -> dict[Suit, MeldResult]:
    """``meld`` for every suit of the pack as trump."""
    checked = check_cards(rules, hand)
    table = meld_table(rules)
    return {s: table.result(checked, s) for s in rules.suits}


def best_trump(rules: Ruleset, hand: Hand | Iterable[Card]) -> Suit:
    """The suit whose meld with ``hand`` is largest (of a tie, the first in the pack's order),
    whether or not the bidder may name it (``nameable_trumps``)."""
    results = meld_by_trump(rules, hand)
    return max(results, key=lambda s: (results[s].total, -rules.suits.index(s)))


def nameable_trumps(rules: Ruleset, hand: Hand | Iterable[Card]) -> list[Suit]:
    """The suits that may be trump with ``hand``, in the pack's order: where the bidder names trump,
    those the ruleset lets them name (e.g. only a suit held with K and Q); otherwise every suit."""
    checked = check_cards(rules, hand)
    return rules.eligible_trumps(checked) if rules.trump_source == "bid" else list(rules.suits)


# --------------------------------------------------------------------------- the most one hand can show

@dataclass(frozen=True)
class MostMeld:
    """The most meld one hand of a ruleset can show, over every trump (exact), and a hand that shows it."""

    total: int
    trump: Suit | None
    hand: Hand


@lru_cache(maxsize=32)
def most_meld(rules: Ruleset) -> MostMeld:
    """The exact maximum of ``meld`` over every hand of ``hand_size`` cards of the pack and every trump.

    Classes are independent and within a class a card counts once per copy held, so a hand shows
    a choice of instances (with copies) exactly when it holds, of each card, the most copies any
    one class of the choice uses: the maximum is the best choice whose cards fit in a hand
    (``_most_for``, a branch and bound over the instances); the rest of the hand adds nothing.
    Worked out once per ruleset.
    """
    best = MostMeld(0, None, Hand([]))
    for trump in rules.suits:
        total, counts = _most_for(rules, trump)
        if total > best.total:
            best = MostMeld(total, trump, Hand(ALL_CARDS[c] for c, n in counts.items() for _ in range(n)))
    return best


def _most_for(rules: Ruleset, trump: Suit) -> tuple[int, dict[int, int]]:
    """The best meld total with ``trump`` whose cards fit in one hand, and those cards (counts by index)."""
    insts = [inst for group in _groups(rules, trump) for inst in group if max(inst.values) > 0]
    # the richest per card first: good totals early prune the rest
    insts.sort(key=lambda i: -max(i.values) / len(i.cards))
    rest = [0] * (len(insts) + 1)
    for j in range(len(insts) - 1, -1, -1):
        rest[j] = rest[j + 1] + max(insts[j].values)
    used: dict[str, Counter[int]] = {inst.klass: Counter() for inst in insts}
    held: Counter[int] = Counter()
    found: list[tuple[int, dict[int, int]]] = [(0, {})]

    def go(j: int, value: int, size: int) -> None:
        if value > found[0][0]:
            found[0] = (value, dict(held))
        if j == len(insts) or value + rest[j] <= found[0][0]:
            return
        inst, mine = insts[j], used[insts[j].klass]
        for n in range(len(inst.values) - 1, 0, -1):
            after = {c: mine[c] + n * k for c, k in inst.need.items()}
            grow = sum(max(0, v - held[c]) for c, v in after.items())
            if size + grow > rules.hand_size:
                continue
            before = {c: (mine[c], held[c]) for c in after}
            for c, v in after.items():
                mine[c], held[c] = v, max(held[c], v)
            go(j + 1, value + inst.values[n], size + grow)
            for c, (m, h) in before.items():
                mine[c], held[c] = m, h
        go(j + 1, value, size)

    go(0, 0, 0)
    return found[0]


# --------------------------------------------------------------------------- declarations

@dataclass(frozen=True)
class Declaration:
    valid: bool
    name: str | None
    points: int
    reason: str
    cards: tuple[Card, ...]
    copies: int = 0


@dataclass(frozen=True)
class _Scored:
    # 1-based, oldest first
    number: int
    combo: Combination
    instance: tuple[Card, ...]
    copies: int
    cards: tuple[Card, ...]


def _matches(rules: Ruleset, trump: Suit, cards: Sequence[Card]) -> tuple[list[tuple[Combination, tuple[Card, ...],
                                                                                     int]], list[str]]:
    """Ways ``cards`` is k copies of one instance: (combination, instance, k); and unpriced multiples."""
    want = Counter(cards)
    found, unpriced = [], []
    for combo in rules.meld:
        for inst in combo.instances(trump, rules.suits):
            need = Counter(inst)
            k, rem = divmod(len(cards), len(inst))
            if rem or k == 0 or Counter({c: n * k for c, n in need.items()}) != want:
                continue
            if k <= len(combo.points):
                found.append((combo, inst, k))
            else:
                unpriced.append(f"{k} × {combo.name} is {k} declarations, not one (the table prices at most "
                                f"{len(combo.points)} declared together)")
    return found, unpriced


def _card_word(card: Card) -> str:
    return str(card)


def _judge(rules: Ruleset, combo: Combination, inst: tuple[Card, ...], k: int, history: list[_Scored],
           available: Counter[Card] | None) -> str | None:
    """Why declaring k copies of ``inst`` now is refused, or None. ``available``: the hand (None: unknown)."""
    cards = inst * k
    need = Counter(cards)
    if available is not None:
        for card in sorted(need):
            if available[card] == 0:
                return f"{_card_word(card)} is not in your hand"
            if available[card] < need[card]:
                return (f"only {available[card]} {_card_word(card)} in your hand; this declaration needs "
                        f"{need[card]}")
    if k >= 2:
        for old in history:
            if old.combo.name == combo.name and old.instance == inst and old.copies == 1:
                what = multiple_name(combo.name, k)
                every = "both copies" if k == 2 else f"all {k} copies"
                return (f"a {what} needs {every} declared before any single {combo.name} was scored "
                        f"(declaration {old.number} scored one); now each copy scores only as another single "
                        f"{combo.name} ({combo.value(1)})")
    same_class = [old for old in history if old.combo.klass == combo.klass]
    used: Counter[Card] = Counter()
    for old in same_class:
        used.update(old.cards)
    for card in sorted(need):
        if available is not None:
            fresh = available[card] - min(used[card], available[card])
        else:
            fresh = rules.deck.copies - used[card]
        if fresh < need[card]:
            where = "; ".join(f"{multiple_name(old.combo.name, old.copies)}, declaration {old.number}"
                              for old in same_class if card in old.cards)
            return f"{_card_word(card)} already scored in the {combo.klass} class ({where})"
    return None


def check_declaration(rules: Ruleset, hand: Hand, trump: Suit | str, declare: Sequence[Card],
                      declared: Sequence[Sequence[Card]] = ()) -> Declaration:
    """Whether declaring ``declare`` now is allowed, and what it scores (two-handed meld).

    ``declared``: the combinations scored earlier, oldest first, each one declaration. The hand
    is every card the player holds (melded cards on the table included); a card of an earlier
    declaration that is still held is taken to be the copy that scored. An earlier declaration
    that could not have scored is bad input (``MeldError``).
    """
    trump = _trump(trump)
    held = Counter(check_cards(rules, hand))
    rules.deck.check(declare)
    history: list[_Scored] = []
    for number, cards in enumerate(declared, start=1):
        rules.deck.check(cards)
        text = format_cards(sorted(cards))
        found, unpriced = _matches(rules, trump, cards)
        if not found:
            why = unpriced[0] if unpriced else f"not a combination of the {rules.name} meld table"
            raise MeldError(f"earlier declaration {number} ({text or 'no cards'}): {why}")
        reasons = []
        for combo, inst, k in sorted(found, key=lambda f: -f[0].value(f[2])):
            reason = _judge(rules, combo, inst, k, history, None)
            if reason is None:
                history.append(_Scored(number, combo, inst, k, tuple(sorted(cards))))
                break
            reasons.append(reason)
        else:
            raise MeldError(f"earlier declaration {number} ({text}) could not have scored: {reasons[0]}")
    cards = tuple(sorted(declare))
    found, unpriced = _matches(rules, trump, cards)
    if not found:
        why = unpriced[0] if unpriced else f"not a combination of the {rules.name} meld table"
        return Declaration(False, None, 0, f"{format_cards(cards) or 'no cards'}: {why}", cards)
    refusals = []
    for combo, inst, k in sorted(found, key=lambda f: -f[0].value(f[2])):
        reason = _judge(rules, combo, inst, k, history, held)
        if reason is None:
            pts = combo.value(k)
            return Declaration(True, combo.name, pts, f"allowed: {multiple_name(combo.name, k)} scores {pts}",
                               cards, k)
        refusals.append((combo, k, reason))
    combo, k, reason = refusals[0]
    return Declaration(False, combo.name, 0, reason, cards, k)


def shown_cards(rules: Ruleset, hand: Hand, trump: Suit | str) -> Hand:
    """The cards ``hand`` shows with its best meld: of each card, the most copies one class of meld uses."""
    need: Counter[tuple[str, Card]] = Counter()
    for item in meld(rules, hand, _trump(trump)).melds:
        for card in item.cards:
            need[(item.klass, card)] += 1
    most: dict[Card, int] = {}
    for (_, card), n in need.items():
        most[card] = max(most.get(card, 0), n)
    return Hand([c for c, n in most.items() for _ in range(n)])
