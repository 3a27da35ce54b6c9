"""The ruleset's model: the frozen ``Ruleset`` the engine reads, and its parts (``parts.py``, exported here too).

Built only by the loader (``load_ruleset``) from a validated document; never mutated. Its methods answer what the
engines ask of a game (the sides of a deal, the hand sizes, the meld groups of a trump, the trumps a hand may name,
whether a hand may be redealt); ``deal_sides`` raises ``PlayError`` where the sides depend on a bidder not given,
``side_of`` ``ValueError`` for a seat of no side.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ..cards import Card, Deck, Hand, Rank, Suit
from ..errors import Message, PlayError
from .conventions import Conventions
from .parts import (
    Auction,
    Bury,
    CardPattern,
    Combination,
    Duty,
    Match,
    OptionSpec,
    Outcome,
    PlayRules,
    Scoring,
    Stock,
    Widow,
)
from .vocabulary import (
    Melders,
    Sides,
    TrumpEligible,
    TrumpSource,
)

__all__ = [
    "Auction", "Bury", "CardPattern", "Combination", "Duty", "Match", "OptionSpec", "Outcome", "PlayRules",
    "Ruleset", "SCHEMA_VERSION", "Scoring", "Stock", "Widow",
]

SCHEMA_VERSION = 1

@dataclass(frozen=True)
class Ruleset:
    """A validated game definition. Build with ``load_ruleset``; never mutate.

    The fields are the schema's keys (``RULESET_SCHEMA``, which builds their values), except
    ``trump_*`` and ``redeal_*`` (the keys of ``trump`` and ``redeal``) and the three the loader
    adds: ``options``, ``chosen`` and ``path``.
    """

    name: str
    deck: Deck
    players: int
    hand_size: int
    counters: Mapping[Rank, int]
    last_trick: int
    play: PlayRules
    trump_source: TrumpSource
    meld: tuple[Combination, ...]
    scoring: Scoring
    match: Match
    schema_version: int = SCHEMA_VERSION
    aliases: tuple[str, ...] = ()
    description: str = ""
    # where the rules come from
    source: str = ""
    # none given: every player alone
    partnerships: tuple[tuple[int, ...], ...] = ()
    stock: Stock | None = None
    redeal_at_least: Mapping[Rank, int] = field(default_factory=dict)
    redeal_at_most: Mapping[Rank, int] = field(default_factory=dict)
    auction: Auction | None = None
    trump_eligible: TrumpEligible = "any"
    # ranks the bidder must hold in a suit to name it (marriage: K, Q)
    trump_needs: tuple[Rank, ...] = ()
    exchange: int = 0
    widow: Widow | None = None
    bury: Bury | None = None
    sides: Sides = "partnerships"
    melders: Melders = "all"
    # what each call of an auction shows (estimate --auction); None: nothing is read from the calls
    conventions: Conventions | None = None
    options: tuple[OptionSpec, ...] = ()
    chosen: Mapping[str, str] = field(default_factory=dict)
    path: str = ""

    def __post_init__(self) -> None:
        seats = tuple(tuple(team) for team in self.partnerships) or tuple((s,) for s in range(self.players))
        needs = self.trump_needs or ((Rank.K, Rank.Q) if self.trump_eligible == "marriage" else ())
        for name, value in (("partnerships", seats), ("trump_needs", needs),
                            ("deck", replace(self.deck, name=f"the {self.name} pack"))):
            object.__setattr__(self, name, value)
        # equal rulesets hash alike: the hash is of fields that hold the whole game (the mappings
        # left out are compared by ==); kept, so caches keyed by a ruleset stay cheap
        key = (self.name, self.path, self.deck, self.partnerships, self.hand_size, self.stock, self.last_trick,
               self.play, self.auction, self.trump_needs, self.exchange, self.widow, self.bury, self.sides,
               self.melders, self.meld, self.scoring, self.match, tuple(sorted(self.chosen.items())))
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return int(self.__dict__["_hash"])

    # str hashes differ between processes: hash again
    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__post_init__()

    @property
    def stock_size(self) -> int:
        """The cards left after the deal (0: no stock)."""
        return self.deck.size - self.players * self.hand_size if self.stock is not None else 0

    @property
    def widow_size(self) -> int:
        """The cards dealt aside for the bidder (0: no widow)."""
        return self.widow.cards if self.widow is not None else 0

    @property
    def largest_hand(self) -> int:
        """The most cards a player holds at once: a dealt hand, and the bidder's with the widow."""
        return self.hand_size + self.widow_size

    @property
    def hand_sizes_words(self) -> str:
        """The hands a player may hold at the meld, in words: "12", or "15 (18 for the bidder with the widow)"."""
        widow = f" ({self.largest_hand} for the bidder with the widow)" if self.widow_size else ""
        return f"{self.hand_size}{widow}"

    @property
    def sides_by_auction(self) -> bool:
        """True when the auction forms the sides of each deal: the bidder alone against the others."""
        return self.sides == "bidder-alone"

    def deal_sides(self, bidder: int | None = None) -> tuple[tuple[int, ...], ...]:
        """The seats playing together in a deal whose bidder sits at ``bidder``: the partnerships, or
        (when the auction forms the sides) the bidder alone and everyone else. ``PlayError`` when the
        sides depend on a bidder that is not given, or not a seat."""
        if not self.sides_by_auction:
            return self.partnerships
        if bidder is None or not 0 <= bidder < self.players:
            given = "not given" if bidder is None else f"{bidder}, not a seat 0..{self.players - 1}"
            raise PlayError(Message(f"in {self.name} the bidder plays alone against the others: who is whose "
                                    f"partner depends on the bidder's seat (bidder {given})"), parameter="bidder")
        return (bidder,), tuple(s for s in range(self.players) if s != bidder)

    def deal_side_of(self, seat: int, bidder: int | None = None) -> int:
        """The index into ``deal_sides(bidder)`` of the side ``seat`` plays on in the deal."""
        return next(i for i, team in enumerate(self.deal_sides(bidder)) if seat in team)

    @property
    def has_stock(self) -> bool:
        return self.stock_size > 0

    @property
    def turn_up_trump(self) -> bool:
        return self.stock is not None and self.stock.turn_up_trump

    @cached_property
    def meld_classes(self) -> tuple[str, ...]:
        """The meld table's classes, in the order they first appear."""
        return tuple(dict.fromkeys(c.klass for c in self.meld))

    @property
    def suits(self) -> tuple[Suit, ...]:
        return self.deck.suits

    @property
    def rank_order(self) -> tuple[Rank, ...]:
        """Ranks high to low, for trick strength."""
        return self.deck.ranks

    def meld_groups(self, trump: Suit) -> list[list[tuple[int, tuple[Card, ...]]]]:
        """The meld table's card sets for ``trump`` — (position in ``meld``, the cards, sorted) for every
        set the pack holds — the sets of one class that share a card joined into one group (union-find),
        in table order. The meld engine prices each group from one table."""
        sets = [(i, cards) for i, combo in enumerate(self.meld) for cards in combo.instances(trump, self.suits)
                if max(Counter(cards).values()) <= self.deck.copies]
        parent = list(range(len(sets)))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        owner: dict[tuple[str, int], int] = {}
        for i, (combo, cards) in enumerate(sets):
            for card in dict.fromkeys(cards):
                j = owner.setdefault((self.meld[combo].klass, card.index), i)
                parent[find(i)] = find(j)
        groups: dict[int, list[tuple[int, tuple[Card, ...]]]] = {}
        for i, one in enumerate(sets):
            groups.setdefault(find(i), []).append(one)
        return list(groups.values())

    def counter_value(self, card: Card) -> int:
        return self.counters.get(card.rank, 0)

    @cached_property
    def counter_total(self) -> int:
        """Counter points in a whole deal, last trick included (worked out once: a long record asks per deal)."""
        return sum(self.counter_value(c) for c in self.deck.cards()) + self.last_trick

    @property
    def tricks_per_deal(self) -> int:
        return (self.deck.size - self.widow_size) // self.players

    def side_of(self, seat: int) -> int:
        for i, team in enumerate(self.partnerships):
            if seat in team:
                return i
        raise ValueError(f"no seat {seat}")

    def partner_seats(self, seat: int) -> tuple[int, ...]:
        return tuple(s for s in self.partnerships[self.side_of(seat)] if s != seat)

    def may_redeal(self, hand: Hand) -> bool:
        """True when ``hand``, as dealt, meets the ruleset's redeal condition (e.g. five nines, no
        aces); a hand of another size than a dealt one never does."""
        if len(hand) != self.hand_size or not (self.redeal_at_least or self.redeal_at_most):
            return False
        by_rank = {r: 0 for r in Rank}
        for c in hand:
            by_rank[c.rank] += 1
        return (all(by_rank[r] >= n for r, n in self.redeal_at_least.items())
                and all(by_rank[r] <= n for r, n in self.redeal_at_most.items()))

    def eligible_trumps(self, hand: Hand) -> list[Suit]:
        """The suits the bidder may name holding ``hand`` (before any exchange)."""
        return [s for s in self.suits if all(hand.count(Card(r, s)) for r in self.trump_needs)]

    def trump_needs_words(self, *, spelled: bool = False) -> str:
        """The ranks naming a suit takes: "K and Q" (``spelled``: "king and queen"); "" for none."""
        ranks = [r.word if spelled else r.label for r in self.trump_needs]
        return ", ".join(ranks[:-1]) + " and " + ranks[-1] if len(ranks) > 1 else "".join(ranks)

    def trump_requirement(self) -> str:
        """What naming a suit takes, in words ("K and Q of the suit"), or "" when any suit may be named."""
        return f"{self.trump_needs_words()} of the suit" if self.trump_needs else ""

    @property
    def changed_options(self) -> dict[str, str]:
        """The options chosen away from their defaults, by name."""
        defaults = {o.name: o.default.lower() for o in self.options}
        return {k: v for k, v in self.chosen.items() if v.lower() != defaults.get(k)}

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "players": self.players,
            "deck_size": self.deck.size,
            "hand_size": self.hand_size,
            "minimum_bid": self.auction.minimum if self.auction else None,
            "target": self.match.target,
            "deals": self.match.deals,
            "description": self.description,
        }


