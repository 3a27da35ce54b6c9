"""The parts of a ruleset: card patterns and meld combinations, play duties, the auction, scoring, the match, the
stock, widow and bury, and the options a table may choose.

Each is a frozen value built by the loader from a validated document (``description.py`` names the builder of each
key); the few methods answer questions of the part alone (a combination's value for some copies and its card sets
for a trump, an auction's valid bids and their steps in words). ``CardPattern.parse`` raises ``CardError`` for a
rank or suit it cannot read, ``Auction.next_bid`` ``RulesetError`` past the auction's last step; nothing else
raises on purpose. ``Ruleset`` (``rules.py``) holds them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, cast

from ..cards import ALL_CARDS, Card, Rank, Suit, parse_rank, parse_suit
from ..errors import RulesetError
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
    OutcomeKind,
    PatternMode,
    Tie,
)

__all__ = [
    "Auction", "Bury", "CardPattern", "Combination", "Duty", "Match", "OptionSpec", "Outcome", "PlayRules", "Scoring",
    "Stock", "Widow",
]

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
    # the rule every auction keeps, in the rulebook's words and in a refusal's
    pass_rule = "a pass is final for the deal"

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
