"""The ruleset's model: the frozen ``Ruleset`` the engine reads, and its parts.

Built only by the loader (``load_ruleset``) from a validated document; never mutated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any, cast

from ..cards import ALL_CARDS, Card, Deck, Hand, Rank, Suit, parse_rank, parse_suit
from ..errors import PlayError, RulesetError
from .conventions import Conventions
from .vocabulary import (
    BothReach,
    BuriedCounters,
    BuryBan,
    BuryWhen,
    DutyName,
    DutyWhen,
    KeepMeld,
    Leader,
    MadeNeeds,
    Melders,
    OutcomeKind,
    PatternMode,
    Sides,
    Tie,
    TrumpEligible,
    TrumpSource,
)

__all__ = [
    "Auction", "Bury", "CardPattern", "Combination", "Duty", "Match", "OptionSpec", "Outcome", "PlayRules",
    "Ruleset", "SCHEMA_VERSION", "Scoring", "Stock", "Widow",
]

SCHEMA_VERSION = 1

# --------------------------------------------------------------------------- the model

def _duties(items: Sequence[str | dict[str, dict[str, Any]]]) -> tuple[Duty, ...]:
    """Duties as the schema gives them: a name, or a one-key mapping of a name to its conditions."""
    out = []
    for item in items:
        if isinstance(item, str):
            # one of DUTY_NAMES: the schema checked it
            out.append(Duty(cast(DutyName, item)))
        else:
            (name, conditions), = item.items()
            out.append(Duty(cast(DutyName, name), **conditions))
    return tuple(out)


_PATTERN_MODES: dict[str, PatternMode] = {"+": "trump", "*": "plain", "?": "any"}


@dataclass(frozen=True)
class CardPattern:
    """A card of a combination relative to trump: a fixed suit, trump, a plain suit or any suit."""

    rank: Rank
    # fixed suit, else None
    suit: Suit | None
    mode: PatternMode

    @classmethod
    def parse(cls, text: str) -> CardPattern:
        return _card_pattern(text)

    @classmethod
    def _parse(cls, text: str) -> CardPattern:
        text = text.replace("\ufe0f", "").strip()
        head, tail = text[:-1], text[-1]
        rank = parse_rank(head)
        mode = _PATTERN_MODES.get(tail)
        if mode:
            return cls(rank, None, mode)
        return cls(rank, parse_suit(tail), "fixed")

    def __str__(self) -> str:
        if self.mode == "fixed":
            assert self.suit is not None
            return f"{self.rank.label}{self.suit.symbol}"
        return self.rank.label + {"trump": "+", "plain": "*", "any": "?"}[self.mode]


@lru_cache(maxsize=1024)
# the same few patterns are read for every option's choice
def _card_pattern(text: str) -> CardPattern:
    return CardPattern._parse(text)


@dataclass(frozen=True)
class Combination:
    """A meld table entry: its card pattern relative to trump, its class and its prices."""

    name: str
    klass: str
    pattern: tuple[CardPattern, ...]
    # value of 1, 2, … copies declared together
    points: tuple[int, ...]
    label: str = ""

    def __post_init__(self) -> None:
        # one number: the price of one copy
        if isinstance(self.points, int):
            object.__setattr__(self, "points", (self.points,))

    def value(self, copies: int) -> int:
        """Points for ``copies`` copies: the best split into groups the table prices."""
        return _multiple_value(self.points, copies)

    def instances(self, trump: Suit | None, suits: Sequence[Suit]) -> list[tuple[Card, ...]]:
        """The concrete card sets for this trump: one per suit a ``*``/``?`` may stand for."""
        modes = {p.mode for p in self.pattern}
        if "trump" in modes and trump is None:
            return []
        if "plain" in modes:
            choices: list[Suit | None] = [s for s in suits if s != trump]
        elif "any" in modes:
            choices = list(suits)
        else:
            choices = [None]
        out = []
        for var in choices:
            cards = []
            for p in self.pattern:
                suit = {"fixed": p.suit, "trump": trump, "plain": var, "any": var}[p.mode]
                assert suit is not None
                cards.append(ALL_CARDS[int(suit) * 6 + int(p.rank)])
            out.append(tuple(sorted(cards)))
        return out


@lru_cache(maxsize=4096)
def _multiple_value(points: tuple[int, ...], copies: int) -> int:
    best = [0] * (copies + 1)
    for k in range(1, copies + 1):
        best[k] = max(best[k - j] + points[j - 1] for j in range(1, min(k, len(points)) + 1))
    return best[copies]


@dataclass(frozen=True)
class Duty:
    """One duty of the trick rules (follow, trump, beat) and when it applies."""

    name: DutyName
    when: DutyWhen = "always"
    # applies while the partner is winning
    partner: bool = True
    only_if_winning: bool = False

    def describe(self) -> str:
        text = {"follow": "follow suit", "trump": "trump when void in the suit led",
                "beat": "beat the winning card if able"}[self.name]
        if self.name == "trump" and self.only_if_winning:
            text += ", only when a trump would win"
        if self.when != "always":
            text += f" (only on a {self.when.replace('-led', '')} lead)"
        if not self.partner:
            text += " (not while the partner is winning)"
        return text


@dataclass(frozen=True)
class PlayRules:
    """Who leads the first trick, and the duties that narrow the legal cards (while the stock lasts, and after)."""

    leader: Leader
    duties: tuple[Duty, ...]
    stock_duties: tuple[Duty, ...] = ()


@dataclass(frozen=True)
class Auction:
    """The bidding: the minimum bid and the steps valid bids follow."""

    minimum: int
    # (from, by, to or None)
    steps: tuple[tuple[int, int, int | None], ...]
    dealer_stuck: bool = True

    def is_valid_bid(self, bid: int) -> bool:
        """A bid at or above the minimum that lies on a step."""
        if bid < self.minimum:
            return False
        start, by, end = [s for s in self.steps if s[0] <= bid][-1]
        if end is not None and bid > end:
            return False
        return (bid - start) % by == 0

    def next_bid(self, bid: int) -> int:
        """The smallest valid bid above ``bid`` (``RulesetError`` if the steps end below it)."""
        low = max(bid + 1, self.minimum)
        for i, (start, by, end) in enumerate(self.steps):
            nxt = self.steps[i + 1][0] if i + 1 < len(self.steps) else None
            b = start if low <= start else start + -(-(low - start) // by) * by
            if (end is None or b <= end) and (nxt is None or b < nxt):
                return b
        raise RulesetError(f"no valid bid above {bid}: the auction's last step ends at {self.steps[-1][2]}")

    def ladder(self, upto: int) -> list[int]:
        bids, b = [], self.minimum
        while b <= upto:
            bids.append(b)
            b = self.next_bid(b)
        return bids

    def describe_steps(self) -> str:
        parts = []
        for i, (start, by, last) in enumerate(self.steps):
            end = self.steps[i + 1][0] if i + 1 < len(self.steps) else None
            rng = f"from {start}" + (f" to {last}" if last is not None else f" below {end}" if end is not None else "")
            parts.append(f"{rng}: steps of {by}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Outcome:
    """What each side scores at one end of a deal."""

    bidders: OutcomeKind
    defenders: OutcomeKind


@dataclass(frozen=True)
class Scoring:
    """How a deal is scored: when meld is kept, what making the bid takes, and the outcomes."""

    keep_meld: KeepMeld
    kept_if_only: tuple[str, ...] = ()
    made_needs: MadeNeeds = "nothing"
    made: OutcomeKind = "meld-and-counters"
    counter_minimum: int = 1
    set: Outcome = Outcome("minus-bid", "meld-and-counters")
    not_on_board: Outcome | None = None
    concede: Outcome | None = None
    no_trump: Outcome | None = None


@dataclass(frozen=True)
class Match:
    """When the match ends (a target or a number of deals) and how ties are settled."""

    target: int | None = None
    deals: int | None = None
    both_reach: BothReach = "bidders"
    tie: Tie = "draw"


@dataclass(frozen=True)
class Stock:
    """The cards left after the deal, drawn after each trick."""

    turn_up_trump: bool = False


@dataclass(frozen=True)
class Widow:
    """Cards dealt aside, face down, that the bidder takes after the auction (the kitty)."""

    cards: int
    # turned face up for every player to see before the bidder takes them
    shown: bool = True


@dataclass(frozen=True)
class Bury:
    """The bidder, holding the widow, lays away as many cards face down, back to a dealt hand."""

    when: BuryWhen = "after-meld"
    # what may not be buried
    forbidden: tuple[BuryBan, ...] = ()
    # whose the buried counters are at the end of the deal
    counters: BuriedCounters = "bidder"


@dataclass(frozen=True)
class OptionSpec:
    """A named choice of the ruleset: each choice patches the document."""

    name: str
    description: str
    default: str
    choices: tuple[str, ...]
    # choice → patch
    patches: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, compare=False)


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
            raise PlayError(f"in {self.name} the bidder plays alone against the others: who is whose partner "
                            f"depends on the bidder's seat (bidder {given})", parameter="bidder")
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


