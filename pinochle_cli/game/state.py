"""A deal in progress, held in one place: ``DealState``, from the deal (or the first card) to the score.

A ``DealState`` is its setup — the ruleset, the dealer, the hands as dealt as far as they are known
(``None``: a hand nobody here has seen), the widow or the stock when known — and the history of the
``Action``s done since. Everything else is what that history comes to, worked out by ``game.flow``:
the stage (``auction``, ``widow``, ``trump``, ``exchange``, ``bury``, ``meld``, ``play``, ``done``),
the calls, the bidder and bid, trump, the cards given, buried and shown, the tricks, each hand now,
and whose turn it is to do what (``turn``). ``apply`` checks an action against the ruleset and
raises — the state unchanged — ``AuctionError`` for a call the auction does not allow,
``IllegalPlayError`` for a card a duty forbids (its ``ruling.duty`` names the duty), ``ActionError``
for an action out of turn or at the wrong moment, ``PlayError`` for a card the seat cannot hold;
``undo`` takes the last action back. ``to_json``/``from_json`` round-trip the whole state.

A deal may also start at its first card (``at_play``): the contract given rather than bid, as when a
player asks about a deal already under way. Where a hand is unknown its plays are checked as far as
what is known allows (a card with no copy left, a duty broken by a card it showed).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, Hand, Suit, parse_cards, parse_suit
from ..errors import ActionError, PlayError
from ..meld import shown_cards
from ..ruleset import Ruleset, bundled_path, load_ruleset
from ..scoring import DealFacts, DealScore
from .actions import Action
from .flow import Flow, Start, Trick, Turn
from .outcome import deal_facts, deal_score

__all__ = ["DealState", "Start", "Trick", "Turn"]


def _hand(cards: Hand | Sequence[Card] | str | None) -> Hand | None:
    if cards is None:
        return None
    if isinstance(cards, str):
        return Hand(parse_cards(cards))
    return cards if isinstance(cards, Hand) else Hand(cards)


def _ruleset_name(rules: Ruleset) -> str:
    """A bundled ruleset by its name, another by its file's path."""
    bundled = bundled_path(rules.name)
    if not rules.path or (bundled is not None and str(bundled) == rules.path):
        return rules.name
    return rules.path


@dataclass(frozen=True)
class _Setup:
    rules: Ruleset
    dealer: int
    hands: tuple[Hand | None, ...]
    widow: Hand | None
    stock: tuple[Card, ...] | None
    start: Start | None = None
    names: tuple[str, ...] = field(default=())


class DealState:
    """One deal: its setup and the actions done so far (see the module docstring).

    ``DealState(rules, dealer=0, hands=[...])`` starts at the deal; ``DealState.at_play(...)`` at the first
    card. ``hands[s]``: seat ``s``'s cards as dealt (before the widow and the exchange), None when unknown.
    """

    def __init__(self, rules: Ruleset, *, dealer: int = 0,
                 hands: Sequence[Hand | Sequence[Card] | str | None] | None = None,
                 widow: Hand | Sequence[Card] | str | None = None, stock: Sequence[Card] | str | None = None,
                 names: Sequence[str] = (), start: Start | None = None) -> None:
        dealt = tuple(_hand(h) for h in (hands if hands is not None else [None] * rules.players))
        pile = None if stock is None else tuple(parse_cards(stock) if isinstance(stock, str) else stock)
        self._setup = _Setup(rules, dealer, dealt, _hand(widow), pile, start, tuple(names))
        self._history: list[Action] = []
        self._replay()

    @classmethod
    def at_play(cls, rules: Ruleset, trump: Suit | str, *, leader: int | None = None, bidder: int | None = None,
                bid: int | None = None, hands: Sequence[Hand | Sequence[Card] | str | None] | None = None,
                shown: Mapping[int, Hand | Sequence[Card] | str] | None = None,
                given: Mapping[int, Hand | Sequence[Card] | str] | None = None,
                buried: Hand | Sequence[Card] | str | None = None, dealer: int = 0,
                stock: Sequence[Card] | str | None = None, names: Sequence[str] = (),
                widow: Hand | Sequence[Card] | str | None = None) -> DealState:
        """A deal at its first card: ``trump``, the contract (``bidder``, ``bid``), the first ``leader`` (default:
        as the ruleset says), each seat's ``hands`` as play starts (None: unknown), the meld ``shown`` by each
        seat, the cards each seat ``given`` away in the exchange, the cards the bidder ``buried``, the
        ``stock`` (top card first) in a game with one, the ``widow`` the bidder took (in its hand or buried now)."""
        start = Start(parse_suit(trump) if isinstance(trump, str) else trump, bidder, bid, leader,
                      {s: _hand(c) or Hand() for s, c in (shown or {}).items()},
                      {s: _hand(c) or Hand() for s, c in (given or {}).items()}, _hand(buried))
        return cls(rules, dealer=dealer, hands=hands, widow=widow, stock=stock, names=names, start=start)

    # ------------------------------------------------------------------ what the deal is now

    @property
    def rules(self) -> Ruleset:
        return self._setup.rules

    @property
    def dealer(self) -> int:
        return self._setup.dealer

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action done since the setup, oldest first."""
        return tuple(self._history)

    @property
    def stage(self) -> str:
        """``auction``, ``widow``, ``trump``, ``exchange``, ``bury``, ``meld``, ``play`` or ``done``."""
        return self._flow.stage_name

    @property
    def turn(self) -> Turn:
        """Who acts next and what they may do."""
        return self._flow.turn()

    @property
    def bidder(self) -> int | None:
        return self._flow.bidder

    @property
    def bid(self) -> int | None:
        return self._flow.bid

    @property
    def trump(self) -> Suit | None:
        return self._flow.trump

    @property
    def calls(self) -> tuple[tuple[int, int | None], ...]:
        """The auction's calls: (seat, bid or None for a pass)."""
        return tuple(self._flow.calls)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks played, the one under way last (its ``winner`` None)."""
        return self._flow.all_tricks()

    @property
    def phase(self) -> str | None:
        """The phase of the trick under way (or the next): ``stock`` or ``play-off`` in a game with a stock,
        else None."""
        return self._flow.play.phase

    @property
    def trick_number(self) -> int:
        """The number (from 1) of the trick under way, or of the next one."""
        play = self._flow.play
        return len(play.tricks) + 1

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards on the trick under way, leader first."""
        return tuple(self._flow.current)

    @property
    def leader(self) -> int:
        """Who led (or leads) the trick under way."""
        return self._flow.lead

    @property
    def shown(self) -> dict[int, Hand]:
        """The meld each seat showed (or declared, in a game with a stock)."""
        return dict(self._flow.shown)

    @property
    def given(self) -> dict[int, Hand]:
        """The cards each seat gave away in the exchange."""
        return dict(self._flow.given)

    @property
    def widow(self) -> Hand | None:
        """The widow's cards when known here (given with the deal, or turned up as the bidder took them); None
        when unknown."""
        return self._flow.widow

    @property
    def buried(self) -> Hand | None:
        return self._flow.buried

    @property
    def result(self) -> str | None:
        """How the deal ended before its last trick (``redeal``, ``no-trump``, ``conceded``, ``not-on-board``), or
        ``played`` once every trick is; None while it goes on."""
        return self._flow.ended

    def hand(self, seat: int) -> Hand | None:
        """``seat``'s cards now, None when they are not known."""
        return self._flow.held[seat]

    def meld_shows(self, seat: int) -> Hand:
        """The cards ``seat``'s hand now shows with its best meld (``meld.shown_cards``); ``PlayError`` before trump
        is named or when the hand is not known."""
        hand = self.hand(seat)
        if hand is None or self.trump is None:
            raise PlayError(f"seat {seat}'s meld: " + ("trump is not named yet" if self.trump is None
                                                       else "its hand is not known"))
        return shown_cards(self.rules, hand, self.trump)

    def played_by(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._flow.played[seat])

    def counters(self) -> list[int]:
        """The counters each seat has taken so far (the last-trick bonus once it is won; buried cards aside)."""
        return list(self._flow.taken)

    def facts(self) -> DealFacts:
        """The deal's facts for scoring, as it stands (``scoring.DealFacts``)."""
        return deal_facts(self._flow)

    def score(self) -> DealScore | None:
        """The deal's score once it is over (``scoring.score_deal``), None before."""
        return deal_score(self._flow)

    def legal_plays(self) -> list[Card]:
        """The distinct cards the player to move may play (every card not known to be elsewhere, for a hand not
        known); ``ActionError`` when it is no card's turn."""
        return self._flow.legal_plays()

    # ------------------------------------------------------------------ changing it

    def apply(self, action: Action | str) -> Action:
        """Do ``action`` (or its notation) for the seat whose turn it is, or for the seat it names. Returns the
        action as kept (its seat filled in). Raises as the module docstring says; the state is then unchanged."""
        act = Action.parse(action) if isinstance(action, str) else action
        act = self._flow.check(act)
        self._flow.do(act)
        self._history.append(act)
        return act

    def play(self, card: Card | str) -> Action:
        """Play ``card`` for the seat to move (``IllegalPlayError`` naming the duty when a duty forbids it)."""
        return self.apply(Action.play(card))

    def undo(self) -> Action:
        """Take the last action back (``ActionError`` when there is none); returns it."""
        if not self._history:
            raise ActionError("nothing to undo: no action was done in this deal")
        last = self._history.pop()
        self._replay()
        return last

    def _replay(self) -> None:
        s = self._setup
        self._flow = Flow.begin(s.rules, s.dealer, s.hands, s.widow, s.stock, s.start, s.names)
        for act in self._history:
            self._flow.do(act)

    def copy(self) -> DealState:
        other = DealState.__new__(DealState)
        other._setup, other._history = self._setup, list(self._history)
        other._replay()
        return other

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        s = self._setup
        out: dict[str, Any] = {"ruleset": _ruleset_name(s.rules), "options": dict(s.rules.chosen),
                               "dealer": s.dealer, "hands": [None if h is None else h.ascii() for h in s.hands]}
        if s.names:
            out["names"] = list(s.names)
        if s.widow is not None:
            out["widow"] = s.widow.ascii()
        if s.stock is not None:
            out["stock"] = [c.ascii() for c in s.stock]
        if s.start is not None:
            out["start"] = s.start.to_json()
        out["actions"] = [a.to_json() for a in self._history]
        return out

    @classmethod
    def from_json(cls, data: Any, rules: Ruleset | None = None) -> DealState:
        """The state of ``to_json`` (its ruleset loaded by name and options unless ``rules`` is given), every
        action checked again; ``PlayError`` (or ``ActionError``, ``AuctionError``) naming what is wrong."""
        if not isinstance(data, dict):
            raise ActionError(f"a deal's JSON is an object, got {type(data).__name__}")
        rules = rules or load_ruleset(str(data.get("ruleset") or ""), dict(data.get("options") or {}))
        hands = [None if h is None else Hand(parse_cards(" ".join(h))) for h in data.get("hands") or []]
        names = tuple(str(n) for n in data.get("names") or ())
        widow, stock = data.get("widow"), data.get("stock")
        pile = None if stock is None else parse_cards(" ".join(stock))
        if "start" in data:
            state = cls.at_play(rules, dealer=int(data.get("dealer", 0)), hands=hands or None, names=names,
                                stock=pile, **Start.from_json(data["start"]).arguments())
        else:
            state = cls(rules, dealer=int(data.get("dealer", 0)), hands=hands or None, names=names,
                        widow=None if widow is None else Hand(parse_cards(" ".join(widow))), stock=pile)
        for i, item in enumerate(data.get("actions") or [], start=1):
            try:
                state.apply(Action.from_json(item))
            except PlayError as exc:
                raise ActionError(f"action {i} ({item}): {exc}") from exc
        return state

    def __repr__(self) -> str:
        return f"DealState.from_json({json.dumps(self.to_json(), ensure_ascii=False)})"
