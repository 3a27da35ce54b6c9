"""The tricks of a deal (``Flow``'s play stage): whose card it is, whether the duties allow it, the winner, the
counters, the draws from a stock and the declarations made while it lasts.

The first trick is led as ``rules.play.leader`` says (the bidder, or the dealer's left) unless the deal
says who led. While a stock lasts the tricks are played under ``rules.play.stock_duties``; after each,
the winner draws first, then each other player clockwise — from the stock when its cards are known,
else the seat whose hand is known enters its card (``draw``) and any other hand grows unseen; the
winner may declare one meld combination before leading again (``meld``, checked as
``meld.check_declaration`` checks it). A card is checked by ``game.tricks.check_play`` for a known
hand; for a hand not known, only what is certain is refused: a card with no copy left, a card a duty
forbids given the cards the seat is known to hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import Card, Hand, format_cards
from ..errors import ActionError, IllegalPlayError, PlayError
from ..meld import check_declaration
from .actions import Action
from .seats import Seats, Turn
from .tricks import check_play, legal_plays, trick_winner

if TYPE_CHECKING:
    from ..ruleset import Ruleset

__all__ = ["PlayStage", "Trick", "opening_leader"]


def opening_leader(rules: Ruleset, dealer: int, bidder: int | None = None) -> int:
    """Who leads the first trick under ``rules.play.leader``: the bidder or the dealer's left.
    Raises ``PlayError`` when the bidder leads and ``bidder`` is None."""
    if rules.play.leader == "bidder":
        if bidder is None:
            raise PlayError(f"in {rules.name} the bidder leads: a bidder is needed")
        return bidder
    return (dealer + 1) % rules.players


@dataclass(frozen=True)
class Trick:
    """A trick: its leader, its cards in the order played, and the seat that won it (None while under way)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None = None
    phase: str | None = None


class PlayStage:
    """The tricks of one deal (see the module docstring), over the deal's ``Seats``."""

    def __init__(self, flow: Seats) -> None:
        p = flow.rules.players
        self.flow = flow
        self.tricks: list[Trick] = []
        self.current: list[Card] = []
        self.lead = 0
        self.taken = [0] * p
        self.won = [0] * p
        self.stock: list[Card] | None = None
        self.drawn = 0
        self.draws_due: list[int] = []
        # the cards drawn after each trick (seat, card), in drawing order, where they are known
        self.draw_log: list[list[tuple[int, Card]]] = []
        self.declared: list[list[Hand]] = [[] for _ in range(p)]
        self.declared_points = [0] * p
        # the seat that may declare now (it won the last trick while the stock lasts)
        self.may_declare: int | None = None

    def open(self, leader: int | None) -> None:
        flow = self.flow
        self.lead = leader if leader is not None else opening_leader(flow.rules, flow.dealer, flow.bidder)

    @property
    def phase(self) -> str | None:
        rules = self.flow.rules
        if not rules.has_stock:
            return None
        return "stock" if self.drawn < rules.stock_size else "play-off"

    @property
    def seat(self) -> int:
        return (self.lead + len(self.current)) % self.flow.rules.players

    def all_tricks(self) -> tuple[Trick, ...]:
        under_way = (Trick(self.lead, tuple(self.current), None, self.phase),) if self.current else ()
        return (*self.tricks, *under_way)

    def over(self) -> bool:
        return len(self.tricks) == self.flow.rules.tricks_per_deal and not self.draws_due

    def turn(self) -> Turn:
        if self.draws_due:
            return Turn(self.draws_due[0], ("draw",), "play")
        kinds = ["play"]
        if self.may_declare == self.seat and not self.current:
            kinds.append("meld")
        flow = self.flow
        if not self.tricks and not self.current and flow.rules.scoring.concede is not None and flow.bid is not None:
            kinds.append("concede")
        return Turn(self.seat, tuple(kinds), "play")

    # ------------------------------------------------------------------ a card

    def _hand_now(self, seat: int) -> Hand | None:
        return self.flow.held[seat]

    def legal(self) -> list[Card]:
        flow, seat = self.flow, self.seat
        hand = self._hand_now(seat)
        if hand is not None:
            return legal_plays(flow.rules, hand, self.current, flow.trump, phase=self.phase, leader_seat=self.lead,
                               bidder=flow.bidder)
        out = []
        for card in flow.rules.deck.full().distinct():
            try:
                self._check_unknown(seat, card)
            except PlayError:
                continue
            out.append(card)
        return out

    def check_card(self, act: Action) -> None:
        flow = self.flow
        assert act.seat is not None and act.card is not None
        hand = self._hand_now(act.seat)
        if hand is None:
            self._check_unknown(act.seat, act.card)
            return
        ruling = check_play(flow.rules, hand, act.card, self.current, flow.trump, phase=self.phase,
                            leader_seat=self.lead, bidder=flow.bidder)
        if not ruling.allowed:
            name = flow.names[act.seat]
            if ruling.duty == "not-held":
                detail = f"{name} does not hold {act.card} (holds {format_cards(hand)})"
            else:
                detail = f"{name} may not play {act.card} holding {format_cards(ruling.holding)} — {ruling.summary}"
            raise IllegalPlayError(len(self.tricks) + 1, act.seat, act.card, ruling, name, detail)

    def _check_unknown(self, seat: int, card: Card) -> None:
        """A card of a hand not known: copies left for it, and no duty broken given the cards it is known to hold."""
        flow = self.flow
        flow.possible(Hand([card]), f"trick {len(self.tricks) + 1}: {flow.names[seat]} plays {card}", skip=seat)
        known = flow.known[seat]
        if not self.current or not len(known):
            return
        hand = known + Hand([card]) if card not in known else known
        ruling = check_play(flow.rules, hand, card, self.current, flow.trump, phase=self.phase, leader_seat=self.lead,
                            bidder=flow.bidder)
        if not ruling.allowed:
            name = flow.names[seat]
            detail = (f"{name} may not play {card}: {name} is known to hold {format_cards(ruling.holding)} — "
                      f"{ruling.summary}")
            raise IllegalPlayError(len(self.tricks) + 1, seat, card, ruling, name, detail)

    def do_card(self, act: Action) -> None:
        flow = self.flow
        assert act.seat is not None and act.card is not None
        flow.move(act.seat, Hand([act.card]), 1)
        self.flow.played[act.seat].append(act.card)
        self.current.append(act.card)
        self.may_declare = None
        if len(self.current) == flow.rules.players:
            self._finish()

    def _finish(self) -> None:
        flow, rules = self.flow, self.flow.rules
        cards = tuple(self.current)
        winner = (self.lead + trick_winner(rules, cards, flow.trump)) % rules.players
        phase = self.phase
        self.tricks.append(Trick(self.lead, cards, winner, phase))
        self.taken[winner] += sum(rules.counter_value(c) for c in cards)
        if len(self.tricks) == rules.tricks_per_deal:
            self.taken[winner] += rules.last_trick
        self.won[winner] += 1
        self.current = []
        self.lead = winner
        self.draw_log.append([])
        if phase == "stock":
            self._draw_after(winner)
            self.may_declare = winner

    # ------------------------------------------------------------------ the stock

    def _draw_after(self, winner: int) -> None:
        flow = self.flow
        for k in range(flow.rules.players):
            seat = (winner + k) % flow.rules.players
            if self.stock is not None:
                hand, card = flow.held[seat], self.stock[self.drawn]
                flow.held[seat] = None if hand is None else hand + Hand([card])
                flow.sizes[seat] += 1
                self.draw_log[-1].append((seat, card))
            elif flow.held[seat] is not None:
                self.draws_due.append(seat)
                continue
            else:
                flow.sizes[seat] += 1
            self.drawn += 1

    def check_draw(self, act: Action) -> None:
        assert act.card is not None and act.seat is not None
        self.flow.possible(Hand([act.card]), f"{act}", skip=act.seat)

    def do_draw(self, act: Action) -> None:
        flow = self.flow
        assert act.card is not None and act.seat is not None
        self.draws_due.pop(0)
        self.draw_log[-1].append((act.seat, act.card))
        hand = flow.held[act.seat]
        flow.held[act.seat] = None if hand is None else hand + Hand([act.card])
        flow.sizes[act.seat] += 1
        self.drawn += 1

    # ------------------------------------------------------------------ declarations while the stock lasts

    def _meld_hand(self, seat: int) -> Hand | None:
        return self.flow.held[seat]

    def check_declaration(self, act: Action) -> None:
        flow = self.flow
        assert act.seat is not None and flow.trump is not None
        if act.seat != self.may_declare:
            raise ActionError(f"{act}: only the winner of the last trick declares, before leading again")
        hand = self._meld_hand(act.seat)
        history = [list(h) for h in self.declared[act.seat]]
        verdict = check_declaration(flow.rules, hand if hand is not None else act.cards, flow.trump, list(act.cards),
                                    history)
        if not verdict.valid:
            raise ActionError(f"{act}: {verdict.reason}")

    def declare(self, act: Action) -> None:
        flow = self.flow
        assert act.seat is not None and flow.trump is not None
        hand = self._meld_hand(act.seat)
        history = [list(h) for h in self.declared[act.seat]]
        verdict = check_declaration(flow.rules, hand if hand is not None else act.cards, flow.trump, list(act.cards),
                                    history)
        self.declared[act.seat].append(act.cards)
        self.declared_points[act.seat] += verdict.points
        shown = flow.shown.get(act.seat, Hand())
        flow.shown[act.seat] = shown | act.cards
        if hand is None:
            flow.known[act.seat] = flow.known[act.seat] | act.cards
        self.may_declare = None
