"""A session's settings, the names at its table, and the deals it deals: everything fixed when it starts.

``Settings`` is what the session was started with (the ruleset and its options, the user's seat, the seed,
practice or follow, the user's hand when following, the record, the time for advice and the computer); it
goes to JSON and back for the journal. ``default_names`` seats a table where no record names one;
``team_names`` names its partnerships. ``deal_seed`` draws each deal's seed from the session's (a stable digest,
the same on every platform) and ``deal_hands`` deals from it: the same seed, the same deals.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any

from ..cards import Card, Hand, parse_cards
from ..errors import Argument, CardError, Message, SessionError
from ..ruleset import Ruleset

__all__ = ["Settings", "deal_hands", "deal_seed", "default_names", "team_names"]

# the compass seats of a four-handed table, clockwise; fewer players take the first
_FOUR = ("South", "West", "North", "East")
_NAMES = {2: ("South", "North"), 3: ("South", "West", "East"), 4: _FOUR}


@dataclass(frozen=True)
class Settings:
    """How a session was started. ``ruleset``: a bundled name or a path (None: the record's game, else the default);
    ``options``: the ruleset's choices;
    ``seat``: the user's; ``follow``: every seat is entered by the user (else the computer plays the others);
    ``hand``: the user's cards as dealt, when following; ``dealer``: the first deal's dealer (None: the seat on
    the user's right, or the record's next); ``record``: the record each deal is written to (None: none);
    ``seconds``: the time of one answer of the advice or the computer; ``review``: judge the user's decisions
    when a deal ends."""

    ruleset: str | None = None
    options: tuple[tuple[str, str], ...] = ()
    seat: int = 0
    seed: int = 0
    follow: bool = False
    hand: str | None = None
    dealer: int | None = None
    record: str | None = None
    seconds: float = 5.0
    review: bool = True

    def check(self, rules: Ruleset) -> None:
        """``SessionError`` for a seat or dealer the game does not have, or a time that is no time."""
        for name, value in (("seat", self.seat), ("dealer", self.dealer)):
            if value is not None and not 0 <= value < rules.players:
                raise SessionError(Message(Argument(name, value), f" is not a seat of {rules.name} "
                                           f"(0..{rules.players - 1})"))
        if not self.seconds > 0:
            raise SessionError(Message(Argument("time", self.seconds), ": give seconds above 0"))
        if self.follow and self.hand is None:
            raise SessionError(Message("following a deal needs your cards as dealt: ", Argument("hand")))
        if not self.follow and self.hand is not None:
            raise SessionError(Message(Argument("hand"), " is your hand at a real table: it goes with following a "
                                       "deal (in practice the program deals)"))
        if self.hand is not None:
            self._check_hand(rules, self.hand)

    @staticmethod
    def _check_hand(rules: Ruleset, text: str) -> None:
        """The user's hand as dealt: cards of the pack, as many as a hand holds."""
        try:
            cards = rules.deck.check(parse_cards(text))
        except CardError as exc:
            raise SessionError(Message(Argument("hand", f'"{text}"'), f": {exc}")) from None
        if len(cards) != rules.hand_size:
            raise SessionError(Message(Argument("hand", f'"{text}"'), f": {len(cards)} cards; a hand in "
                                       f"{rules.name} has {rules.hand_size}"))

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["options"] = dict(self.options)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        if not isinstance(data, dict):
            raise SessionError(f"the session's settings are an object, got {type(data).__name__}")
        try:
            fields = dict(data)
            fields["options"] = tuple((str(k), str(v)) for k, v in dict(fields.get("options") or {}).items())
            return cls(**fields)
        except TypeError as exc:
            raise SessionError(f"the session's settings cannot be read: {exc}") from None


def default_names(rules: Ruleset) -> tuple[str, ...]:
    """The names of a table no record names: compass seats, clockwise from seat 0 (``seat N`` beyond four)."""
    return _NAMES.get(rules.players, tuple(f"seat {s}" for s in range(rules.players)))


def team_names(rules: Ruleset, names: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    """Each partnership's name and players (``North-South``: its players' names the other way round), for a new
    record; empty in a game without partnerships."""
    if all(len(team) == 1 for team in rules.partnerships):
        return []
    return [("-".join(names[s] for s in reversed(team)), [names[s] for s in team]) for team in rules.partnerships]


def deal_seed(seed: int, number: int) -> int:
    """The seed of deal ``number`` of a session started from ``seed``."""
    digest = hashlib.sha256(f"deal|{seed}|{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def deal_hands(rules: Ruleset, seed: int) -> tuple[list[Hand], list[Card]]:
    """A shuffled deal from ``seed`` (``game.deal.deal_cards``): each seat's hand, and the cards left (the stock, top
    first, or the widow)."""
    import numpy as np

    from ..game.deal import deal_cards

    return deal_cards(rules, np.random.default_rng(seed))
