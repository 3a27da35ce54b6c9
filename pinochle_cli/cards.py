"""Cards, suits, ranks and hands: small immutable values with one parser and one formatter.

Notation: a rank ``A 10 T K Q J 9`` followed by a suit ``S H D C`` or ``♠ ♥ ♦ ♣``, in
any case, with no separator. Lists separate cards with spaces and/or commas. ``Card.ascii``
gives the two-character JSON form (``TH``), ``str(card)`` the table form (``10♥``).

Every card has a small integer index (``suit * 6 + rank``) so that hands can be count vectors
and the simulator can work on integers; that index is the only encoding in the package.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import total_ordering

from .errors import CardError

__all__ = [
    "ALL_CARDS", "N_CARDS", "N_RANKS", "N_SUITS", "SUIT_MASK", "Card", "Deck", "Hand", "Rank", "Suit", "SuitLike",
    "as_suit", "format_cards", "parse_card", "parse_cards", "parse_rank", "parse_suit",
]


class Suit(enum.IntEnum):
    """The four suits, in the order hands are sorted: spades, hearts, diamonds, clubs."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        return self.name

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self.value]

    @property
    def word(self) -> str:
        return ("spades", "hearts", "diamonds", "clubs")[self.value]

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


class Rank(enum.IntEnum):
    """The six ranks, high to low in every bundled game (the ten outranks the king).

    The value is the position in that conventional order; a ruleset's own order of strength
    comes from its deck and is applied by the trick engine, not here.
    """

    A = 0
    T = 1
    K = 2
    Q = 3
    J = 4
    # the nine
    N = 5

    @property
    def letter(self) -> str:
        """ASCII letter: ``T`` for ten, ``9`` for nine."""
        return "9" if self is Rank.N else self.name

    @property
    def label(self) -> str:
        """Table form: ``10`` for ten."""
        return {Rank.T: "10", Rank.N: "9"}.get(self, self.name)

    @property
    def word(self) -> str:
        return ("ace", "ten", "king", "queen", "jack", "nine")[self.value]

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_SUITS = {
    "s": Suit.S, "h": Suit.H, "d": Suit.D, "c": Suit.C,
    "♠": Suit.S, "♥": Suit.H, "♦": Suit.D, "♣": Suit.C,
    "♤": Suit.S, "♡": Suit.H, "♢": Suit.D, "♧": Suit.C,
    "spade": Suit.S, "spades": Suit.S, "heart": Suit.H, "hearts": Suit.H,
    "diamond": Suit.D, "diamonds": Suit.D, "club": Suit.C, "clubs": Suit.C,
}
_RANKS = {"a": Rank.A, "10": Rank.T, "t": Rank.T, "k": Rank.K, "q": Rank.Q, "j": Rank.J, "9": Rank.N}
_CARD_RE = re.compile(r"^(10|[atkqj9])([shdc♠♥♦♣♤♡♢♧])$", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")


def _clean(text: str) -> str:
    return text.replace("\ufe0f", "").strip()


def parse_suit(text: str) -> Suit:
    """Read a suit: ``S``, ``spades``, ``♠`` … in any case; raises ``CardError`` for anything else."""
    key = _clean(str(text)).lower()
    try:
        return _SUITS[key]
    except KeyError:
        raise CardError(f'"{text}" is not a suit (use S, H, D, C, a suit name or ♠ ♥ ♦ ♣)') from None


# what every function taking a suit accepts: a Suit, its letter, symbol or name (None: no trump)
SuitLike = Suit | str | None


def as_suit(suit: SuitLike) -> Suit | None:
    """``suit`` as a ``Suit``: a ``Suit`` as it is, ``"H"``, ``"♥"``, ``"hearts"`` … read by ``parse_suit``; None stays
    None. ``CardError`` quoting anything else."""
    if suit is None or isinstance(suit, Suit):
        return suit
    return parse_suit(suit)


def parse_rank(text: str) -> Rank:
    """Read a rank: ``A 10 T K Q J 9`` in any case; raises ``CardError`` for anything else."""
    key = _clean(str(text)).lower()
    try:
        return _RANKS[key]
    except KeyError:
        raise CardError(f'"{text}" is not a rank (use A, 10, T, K, Q, J or 9)') from None


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One card. Ordered by suit (S H D C) then rank (A 10 K Q J 9): the order hands are shown."""

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        """Position 0‥23 in the card universe: ``suit * 6 + rank``."""
        return int(self.suit) * 6 + int(self.rank)

    @classmethod
    def from_index(cls, index: int) -> Card:
        return ALL_CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """``parse_card``: one card, or a ``CardError`` quoting the text."""
        return parse_card(text)

    def ascii(self) -> str:
        """Two ASCII characters, ``T`` for ten: the JSON form."""
        return self.rank.letter + self.suit.letter

    def __str__(self) -> str:
        return self.rank.label + self.suit.symbol

    def __repr__(self) -> str:
        """``Card.parse('TH')``: Python that gives the card back."""
        return f"Card.parse({self.ascii()!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index


ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in Rank)

# The encoding by name: card ``suit * N_RANKS + rank`` of ``N_CARDS``; in a mask of cards (bit ``c``: card ``c``),
# suit ``s``'s cards are ``SUIT_MASK << (N_RANKS * s)``. Plain ints: compiled code reads them as constants.
N_SUITS = len(Suit)
N_RANKS = len(Rank)
N_CARDS = N_SUITS * N_RANKS
SUIT_MASK = (1 << N_RANKS) - 1


def parse_card(text: str) -> Card:
    """Read one card (``AS``, ``10h``, ``Td``, ``9♣``); ``CardError`` (quoting the token) if it is not one."""
    token = _clean(str(text))
    m = _CARD_RE.match(token)
    if not m:
        raise CardError(f'"{text}" is not a card (a rank A 10 T K Q J 9 and a suit S H D C or ♠ ♥ ♦ ♣)')
    return ALL_CARDS[int(_SUITS[m.group(2).lower()]) * 6 + int(_RANKS[m.group(1).lower()])]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read a list of cards separated by spaces and/or commas, in the order given."""
    if isinstance(text, str):
        tokens = [t for t in _SEPARATORS.split(_clean(text)) if t]
    else:
        tokens = [t for item in text for t in _SEPARATORS.split(_clean(str(item))) if t]
    return [parse_card(t) for t in tokens]


def format_cards(cards: Iterable[Card], *, ascii: bool = False, sep: str = " ") -> str:
    """The one formatter: table form by default, JSON-style ASCII with ``ascii=True``."""
    return sep.join(c.ascii() if ascii else str(c) for c in cards)


class Hand:
    """A multiset of cards (two or four copies of a card are normal), immutable and hashable.

    Stored as a count per card index; iteration yields cards sorted by suit then rank, each
    copy once.
    """

    __slots__ = ("_counts", "_hash")

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        counts = [0] * N_CARDS
        for card in cards:
            counts[card.index] += 1
        self._counts: tuple[int, ...] = tuple(counts)
        self._hash = hash(self._counts)

    @classmethod
    def from_counts(cls, counts: Sequence[int]) -> Hand:
        """The hand of 24 counts by card index; raises ``ValueError`` for any other list."""
        if len(counts) != N_CARDS or any(c < 0 for c in counts):
            raise ValueError(f"a hand's counts are {N_CARDS} non-negative integers")
        hand = cls.__new__(cls)
        hand._counts = tuple(int(c) for c in counts)
        hand._hash = hash(hand._counts)
        return hand

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> Hand:
        """The hand of ``parse_cards(text)``; a ``CardError`` quotes a token that is not a card."""
        return cls(parse_cards(text))

    @property
    def counts(self) -> tuple[int, ...]:
        return self._counts

    def count(self, card: Card) -> int:
        return self._counts[card.index]

    def cards(self) -> list[Card]:
        return list(self)

    def distinct(self) -> list[Card]:
        return [ALL_CARDS[i] for i, n in enumerate(self._counts) if n]

    def of_suit(self, suit: Suit) -> list[Card]:
        return [c for c in self if c.suit is suit]

    def has_suit(self, suit: Suit) -> bool:
        base = int(suit) * 6
        return any(self._counts[base:base + 6])

    def add(self, *cards: Card) -> Hand:
        counts = list(self._counts)
        for c in cards:
            counts[c.index] += 1
        return Hand.from_counts(counts)

    def remove(self, *cards: Card) -> Hand:
        """The hand less these cards; ``KeyError`` if a card is not held."""
        counts = list(self._counts)
        for c in cards:
            if counts[c.index] == 0:
                raise KeyError(c)
            counts[c.index] -= 1
        return Hand.from_counts(counts)

    def issubset(self, other: Hand) -> bool:
        return all(a <= b for a, b in zip(self._counts, other._counts, strict=True))

    def __add__(self, other: Hand) -> Hand:
        return Hand.from_counts([a + b for a, b in zip(self._counts, other._counts, strict=True)])

    def __sub__(self, other: Hand) -> Hand:
        return Hand.from_counts([max(0, a - b) for a, b in zip(self._counts, other._counts, strict=True)])

    def __or__(self, other: Hand) -> Hand:
        """The union of two multisets: of each card, the more copies of the two."""
        return Hand.from_counts([max(a, b) for a, b in zip(self._counts, other._counts, strict=True)])

    def __and__(self, other: Hand) -> Hand:
        """The intersection of two multisets: of each card, the fewer copies of the two."""
        return Hand.from_counts([min(a, b) for a, b in zip(self._counts, other._counts, strict=True)])

    def __iter__(self) -> Iterator[Card]:
        for i, n in enumerate(self._counts):
            for _ in range(n):
                yield ALL_CARDS[i]

    def __len__(self) -> int:
        return sum(self._counts)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and self._counts[card.index] > 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self._counts == other._counts

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return format_cards(self)

    def __repr__(self) -> str:
        """``Hand.parse('AS AS TH')``: Python that gives the hand back (``Hand.parse('')`` when empty)."""
        return f"Hand.parse({format_cards(self, ascii=True)!r})"

    def ascii(self) -> list[str]:
        """The JSON form: sorted, each card as two ASCII characters."""
        return [c.ascii() for c in self]


@dataclass(frozen=True)
class Deck:
    """A pack: which suits and ranks, how many copies of each card. ``ranks`` is high to low."""

    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    copies: int
    name: str = "the pack"

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks) * self.copies

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and card.suit in self.suits and card.rank in self.ranks

    def cards(self) -> list[Card]:
        """Every card of the pack, copies included, in hand order."""
        return [c for c in ALL_CARDS if c in self for _ in range(self.copies)]

    def full(self) -> Hand:
        return Hand(self.cards())

    def check(self, cards: Iterable[Card] | str) -> Hand:
        """The cards (or their notation) as a hand, or ``CardError`` naming a card outside the pack or over its
        copies."""
        hand = Hand.parse(cards) if isinstance(cards, str) else Hand(cards)
        for card in hand.distinct():
            if card not in self:
                raise CardError(f"{card} ({card.ascii()}) is not in {self.name}")
            n = hand.count(card)
            if n > self.copies:
                raise CardError(f"{n} copies of {card} ({card.ascii()}); {self.name} has {self.copies}")
        return hand
