"""What a deal in progress asks now, and what one action did to it: the events read off a ``DealState``.

``decision(state, seat, names)`` says whose turn it is and what they may do (the legal cards, the least bid, the
suits, how many cards), ``yours`` when it is the user's seat (``seat``). ``Before`` notes what an action can
change; ``happened(before, state, act, ...)`` lists the events it caused: the action itself, the contract once
the auction is over, the widow taken, a trick completed and, while a stock lasts, the user's card drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..cards import Hand
from ..game.actions import Action
from ..game.state import DealState
from ..player.turn import auction_facts
from .events import Acted, Contract, Decision, Drew, Event, TrickDone, WidowTaken

__all__ = ["Before", "decision", "happened", "trick_counters"]


def decision(state: DealState, seat: int, names: tuple[str, ...]) -> Decision:
    """What the deal waits for now (see the module docstring)."""
    turn, rules = state.turn, state.rules
    who = turn.seat
    name = names[who] if who is not None else "the table"
    yours = who == seat
    stage = turn.stage
    base = Decision(who, name, stage, turn.kinds, yours)
    if stage == "auction":
        smallest, stuck = auction_facts(state)
        return replace(base, smallest=smallest, stuck=stuck)
    if stage == "trump":
        hand = state.hand(state.bidder) if state.bidder is not None else None
        suits = rules.eligible_trumps(hand) if hand is not None else list(rules.suits)
        return replace(base, suits=tuple(suits))
    if stage in ("exchange", "bury", "widow"):
        return replace(base, count=rules.exchange if stage == "exchange" else rules.widow_size)
    if stage == "meld":
        shows = state.meld_shows(who) if who is not None and state.hand(who) is not None else None
        return replace(base, meld=shows)
    if stage == "play":
        known = who is not None and state.hand(who) is not None
        cards = tuple(state.legal_plays()) if "play" in turn.kinds and known else ()
        return replace(base, cards=cards, count=1 if "draw" in turn.kinds else 0, trick=state.trick_number,
                       on_trick=state.trick, leader=state.leader)
    return base


@dataclass(frozen=True)
class Before:
    """What the deal was before an action: its stage, the tricks complete, the user's hand."""

    stage: str
    tricks: int
    hand: Hand | None

    @classmethod
    def of(cls, state: DealState, seat: int) -> Before:
        return cls(state.stage, _complete(state), state.hand(seat))


def _complete(state: DealState) -> int:
    return sum(1 for t in state.tricks if t.winner is not None)


def trick_counters(state: DealState, number: int) -> int:
    """The counters in complete trick ``number`` (from 1), the last-trick bonus on the deal's last."""
    rules = state.rules
    trick = state.tricks[number - 1]
    bonus = rules.last_trick if number == rules.tricks_per_deal else 0
    return sum(rules.counter_value(c) for c in trick.cards) + bonus


def happened(before: Before, state: DealState, act: Action, by: str, seat: int, names: tuple[str, ...],
             widow: Hand | None) -> list[Event]:
    """The events ``act`` (done ``by`` you, the computer or the table) caused; ``seat``: the user's; ``widow``: the
    widow's cards when known."""
    assert act.seat is not None
    out: list[Event] = [Acted(act.seat, names[act.seat], act, by, _hidden(before, state, act, by, seat))]
    if before.stage == "auction" and state.stage != "auction":
        bidder = state.bidder
        out.append(Contract(bidder, names[bidder] if bidder is not None else "", state.bid))
    rules = state.rules
    if rules.widow_size and before.stage in ("auction", "widow") and state.stage not in ("auction", "widow") \
            and state.bidder is not None:
        out.append(WidowTaken(state.bidder, names[state.bidder], widow))
    done = _complete(state)
    if done > before.tricks:
        trick = state.tricks[done - 1]
        assert trick.winner is not None
        out.append(TrickDone(done, trick.leader, trick.cards, trick.winner, names[trick.winner],
                             trick_counters(state, done)))
        out += _drawn(before, state, act, seat, names)
    return out


def _hidden(before: Before, state: DealState, act: Action, by: str, seat: int) -> bool:
    """Whether the cards of the computer's ``act`` stay unseen by the user: a pass neither from nor to the user, a
    bury."""
    if by != "computer":
        return False
    if act.kind == "bury":
        return True
    if act.kind == "give":
        partners = state.rules.partner_seats(act.seat) if act.seat is not None else ()
        to = state.bidder if act.seat != state.bidder else (partners[0] if partners else None)
        return seat not in (act.seat, to)
    return False


def _drawn(before: Before, state: DealState, act: Action, seat: int, names: tuple[str, ...]) -> list[Event]:
    """The user's card drawn after a trick while the stock lasted (the others' unseen), when the cards are drawn for
    the players (the stock known)."""
    trick = state.tricks[_complete(state) - 1]
    if trick.phase != "stock" or before.hand is None:
        return []
    now = state.hand(seat)
    if now is None:
        return []
    # the user's hand before the last card of the trick, less the user's card when it was that one
    held = before.hand - Hand([act.card]) if act.seat == seat and act.card is not None else before.hand
    got = now - held
    if not len(got):
        return []
    order = [(trick.winner + k) % state.rules.players for k in range(state.rules.players)] if trick.winner is not None \
        else []
    return [Drew(s, names[s], got.distinct()[0] if s == seat else None) for s in order]
