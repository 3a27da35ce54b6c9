"""Where a deal starts when it starts at its first card (``DealState.at_play``): the contract and what was shown,
passed and buried before, with its JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import Hand, Suit, parse_cards, parse_suit
from ..errors import ActionError

__all__ = ["Start"]


@dataclass(frozen=True)
class Start:
    """A deal that starts at its first card: the contract and what was shown and passed before (``at_play``)."""

    trump: Suit
    bidder: int | None = None
    bid: int | None = None
    leader: int | None = None
    shown: Mapping[int, Hand] = field(default_factory=dict)
    given: Mapping[int, Hand] = field(default_factory=dict)
    buried: Hand | None = None

    def to_json(self) -> dict[str, Any]:
        return {"trump": self.trump.letter, "bidder": self.bidder, "bid": self.bid, "leader": self.leader,
                "shown": {str(s): h.ascii() for s, h in self.shown.items()},
                "given": {str(s): h.ascii() for s, h in self.given.items()},
                "buried": None if self.buried is None else self.buried.ascii()}

    @classmethod
    def from_json(cls, data: Any) -> Start:
        if not isinstance(data, dict):
            raise ActionError(f"a deal's start is an object, got {data!r}")

        def hands(key: str) -> dict[int, Hand]:
            return {int(s): Hand(parse_cards(" ".join(c))) for s, c in (data.get(key) or {}).items()}

        buried = data.get("buried")
        return cls(parse_suit(str(data.get("trump"))), data.get("bidder"), data.get("bid"), data.get("leader"),
                   hands("shown"), hands("given"), None if buried is None else Hand(parse_cards(" ".join(buried))))

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``DealState.at_play`` that make this start."""
        return {"trump": self.trump, "bidder": self.bidder, "bid": self.bid, "leader": self.leader,
                "shown": dict(self.shown), "given": dict(self.given), "buried": self.buried}
