"""What a seat does in a deal, as a value: a call, naming trump, cards given, buried, shown or played.

An ``Action`` is what ``DealState.apply`` takes and what its history keeps. Its notation, one parser and
one formatter (``Action.parse``/``str``), is what a player types at the table:

    bid 250    pass    trump H    widow KH 9H AD    give AS AD 10H QS    bury 9C JC KD
    meld KS QS JD    concede    AH            (a card alone: play it)    draw 9C

``seat`` is who acts (None: the seat whose turn it is, filled in by ``DealState``); JSON: ``to_json`` and
``from_json``, ``{"seat": 1, "kind": "bid", "bid": 250}``. A text that is no action raises ``ActionError``
quoting it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

from ..cards import Card, Hand, Suit, format_cards, parse_card, parse_cards, parse_suit
from ..errors import ActionError, CardError

__all__ = ["KINDS", "Action", "Kind"]

Kind = Literal["bid", "pass", "trump", "widow", "give", "bury", "meld", "concede", "play", "draw"]
KINDS: tuple[Kind, ...] = get_args(Kind)
# the kinds that carry cards, and the one that carries a single card
_CARDS: tuple[Kind, ...] = ("widow", "give", "bury", "meld")
_CARD: tuple[Kind, ...] = ("play", "draw")


@dataclass(frozen=True)
class Action:
    """One thing a seat does: ``kind`` with its ``bid``, ``suit``, ``cards`` or ``card`` (by kind)."""

    kind: Kind
    seat: int | None = None
    bid: int | None = None
    suit: Suit | None = None
    cards: Hand = field(default_factory=Hand)
    card: Card | None = None

    # ------------------------------------------------------------------ building

    @classmethod
    def call(cls, bid: int | None, seat: int | None = None) -> Action:
        """A bid, or a pass (``bid`` None)."""
        return cls("pass", seat) if bid is None else cls("bid", seat, bid=bid)

    @classmethod
    def play(cls, card: Card | str, seat: int | None = None) -> Action:
        return cls("play", seat, card=parse_card(card) if isinstance(card, str) else card)

    def by(self, seat: int) -> Action:
        """The same action, done by ``seat``."""
        return replace(self, seat=seat)

    # ------------------------------------------------------------------ notation

    @classmethod
    def parse(cls, text: str, seat: int | None = None) -> Action:
        """An action from its notation (see the module docstring); ``ActionError`` quoting ``text`` if none."""
        words = text.strip().split(None, 1)
        if not words:
            raise ActionError("an empty action: type a card, bid N, pass, trump SUIT, give CARDS, meld CARDS …")
        head, rest = words[0].lower(), (words[1] if len(words) > 1 else "").strip()
        try:
            return cls._parse(head, rest, seat, text)
        except CardError as exc:
            raise ActionError(f"{text.strip()!r}: {exc}") from None

    @classmethod
    def _parse(cls, head: str, rest: str, seat: int | None, text: str) -> Action:
        if head in ("pass", "concede") and not rest:
            return cls("pass" if head == "pass" else "concede", seat)
        if head == "bid":
            if not re.fullmatch(r"\d{1,7}", rest):
                raise ActionError(f"{text.strip()!r}: a bid is a whole number (bid 250)")
            return cls("bid", seat, bid=int(rest))
        if head == "trump" and rest:
            return cls("trump", seat, suit=parse_suit(rest))
        if head in _CARDS:
            return cls(head, seat, cards=Hand(parse_cards(rest)))
        if head in _CARD and rest:
            return cls(head, seat, card=parse_card(rest))
        if not rest:
            try:
                return cls("play", seat, card=parse_card(head))
            except CardError:
                pass
        raise ActionError(f"{text.strip()!r} is not an action: type a card, bid N, pass, trump SUIT, give CARDS, "
                          "bury CARDS, meld CARDS, concede")

    def __str__(self) -> str:
        if self.kind == "bid":
            return f"bid {self.bid}"
        if self.kind == "trump":
            assert self.suit is not None
            return f"trump {self.suit.letter}"
        if self.kind in _CARDS:
            return f"{self.kind} {format_cards(self.cards)}".rstrip()
        if self.kind in _CARD:
            assert self.card is not None
            return str(self.card) if self.kind == "play" else f"draw {self.card}"
        return self.kind

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        if self.kind == "bid":
            out["bid"] = self.bid
        elif self.kind == "trump":
            assert self.suit is not None
            out["suit"] = self.suit.letter
        elif self.kind in _CARDS:
            out["cards"] = self.cards.ascii()
        elif self.kind in _CARD:
            assert self.card is not None
            out["card"] = self.card.ascii()
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """The action of ``to_json``; ``ActionError`` naming what is wrong."""
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            raise ActionError(f"not an action: {data!r}")
        seat = data.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ActionError(f"an action's seat is a number: {data!r}")
        kind = data["kind"]
        try:
            if kind == "bid":
                bid = data.get("bid")
                if not isinstance(bid, int) or isinstance(bid, bool):
                    raise ActionError(f"a bid is a whole number: {data!r}")
                return cls("bid", seat, bid=bid)
            if kind == "trump":
                return cls("trump", seat, suit=parse_suit(str(data.get("suit"))))
            if kind in _CARDS:
                return cls(kind, seat, cards=Hand(parse_cards(" ".join(data.get("cards") or []))))
            if kind in _CARD:
                return cls(kind, seat, card=parse_card(str(data.get("card"))))
        except CardError as exc:
            raise ActionError(f"{data!r}: {exc}") from None
        return cls(kind, seat)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r}, seat={self.seat!r})"
