"""What ``pinochle play`` prints of a session's events, in words: short lines, at most 80 columns.

Each event of ``session.events`` has its lines (``lines``); the user sees only what their seat sees (the
computer's exchange and bury between other seats is told without its cards). The advice and the review have
their own module (``play_advice_view``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ..cards import Card, Hand, format_cards
from ..game.actions import Action
from ..meld import meld
from ..ruleset import Ruleset
from ..session.events import (
    Acted,
    Advised,
    Contract,
    DealEnded,
    DealStarted,
    Decision,
    Drew,
    Event,
    Helped,
    Kept,
    MatchEnded,
    MatchStanding,
    Refused,
    Reviewed,
    Scored,
    Shown,
    TrickDone,
    Undone,
    WidowTaken,
)
from .common import game_label, table
from .play_advice_view import advice_lines, review_lines

__all__ = ["WIDTH", "decision_lines", "lines"]

WIDTH = 80


def wrap(text: str, indent: str = "") -> list[str]:
    """``text`` in lines of at most ``WIDTH`` columns (the next ones indented by ``indent``)."""
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _cards(cards: Sequence[Card] | Hand) -> str:
    return format_cards(cards) or "nothing"


def _you(name: str, seat: int | None, mine: int) -> str:
    return "you" if seat == mine else name


def lines(event: Event, rules: Ruleset, seat: int, follow: bool, names: Sequence[str]) -> list[str]:
    """The lines of one event (``seat``: the user's; ``follow``: every seat entered by the user; ``names``: the
    seats')."""
    if isinstance(event, DealStarted):
        return _started(event, rules)
    if isinstance(event, Decision):
        return decision_lines(event, rules, seat, follow, names)
    if isinstance(event, Acted):
        return _acted(event, rules, seat)
    if isinstance(event, TrickDone):
        return _trick(event, seat, rules, names)
    if isinstance(event, Drew):
        return [] if event.card is None else [f"You draw {event.card}."]
    if isinstance(event, Contract):
        if event.bidder is None:
            return ["Everyone passed: the deal is thrown in."]
        return [f"{_you(event.name, event.bidder, seat).capitalize()} won the auction at {event.bid}."]
    if isinstance(event, WidowTaken):
        shown = _cards(event.cards) if event.cards is not None else "not seen"
        return [f"The widow: {shown}; {_you(event.name, event.bidder, seat)} take{'s' * (event.bidder != seat)} it."]
    if isinstance(event, Refused):
        return wrap(f"Refused: {event.message}", "  ")
    if isinstance(event, Undone):
        return _undone(event, seat)
    if isinstance(event, Advised):
        return advice_lines(event.advice, rules)
    if isinstance(event, Shown):
        return _shown(event, rules)
    if isinstance(event, Scored):
        return _scored(event, rules)
    if isinstance(event, DealEnded):
        return _ended(event)
    if isinstance(event, Reviewed):
        return review_lines(event.review, rules, seat)
    if isinstance(event, MatchEnded):
        return [_match_over(event.standing)]
    if isinstance(event, Kept):
        return _kept(event)
    if isinstance(event, Helped):
        return table([[c, what] for c, what in event.commands], ["command", "what it does"]).splitlines()
    return []


def _started(e: DealStarted, rules: Ruleset) -> list[str]:
    me = e.names[e.seat]
    partners = rules.partner_seats(e.seat)
    partner = f", partner {e.names[partners[0]]}" if len(partners) == 1 else ""
    mode = "following a table" if e.follow else f"seed {e.seed}"
    out = [f"{game_label(rules)}, deal {e.number} ({mode}): you are {me} (seat {e.seat}){partner}; "
           f"dealer {e.names[e.dealer]}."]
    if e.follow:
        seats = ", ".join(f"{s} {n}" for s, n in enumerate(e.names))
        out.append(f"Seats: {seats}. Enter what each seat does in turn (help lists the commands).")
    if e.trump is not None:
        turned = f" (the {e.turned} turned up)" if e.turned is not None else ""
        out.append(f"Trump: {e.trump.symbol} {e.trump.word}{turned}.")
    if e.hand is not None:
        out.append(f"Your hand: {_cards(e.hand)}")
    return [line for text in out for line in wrap(text, "  ")]


def _bids(d: Decision) -> str:
    if d.stuck:
        return f"the others passed: you take {d.smallest} (bid {d.smallest})"
    return f"bid {d.smallest} or more, or pass"


def decision_lines(d: Decision, rules: Ruleset, seat: int, follow: bool, names: Sequence[str]) -> list[str]:
    """What the table waits for, in words (in practice only the user's own decisions are asked)."""
    if d.next_deal is not None:
        return [f"next (or Enter) deals deal {d.next_deal}; quit stops."]
    who = "Your" if d.yours else f"{d.name}'s"
    if d.stage == "auction":
        text = f"{who} call: {_bids(d)}."
    elif d.stage == "trump":
        text = f"{who} trump: trump {' / '.join(s.letter for s in d.suits) or 'SUIT'}."
    elif d.stage == "exchange":
        text = f"{who} pass: give {d.count} cards" + (" (following: the cards given)." if follow else ".")
    elif d.stage == "bury":
        text = f"{who} bury: bury {d.count} cards."
    elif d.stage == "widow":
        text = f"The widow turned up: widow {d.count} cards."
    elif d.stage == "meld":
        if d.meld is not None:
            text = f"{who} meld: {_cards(d.meld)} (meld shows it)."
        else:
            text = f"{who} meld: meld {d.seat} CARDS (meld {d.seat} alone: none)."
    elif d.stage == "play":
        return _card_lines(d, seat, names)
    else:
        text = f"{who} turn: {' or '.join(d.kinds)}."
    return wrap(text, "  ")


def _card_lines(d: Decision, seat: int, names: Sequence[str]) -> list[str]:
    if "draw" in d.kinds:
        return [f"{'Your' if d.yours else d.name + chr(39) + 's'} draw from the stock: draw CARD."]
    lead = d.leader if d.leader is not None else 0
    played = ", ".join(f"{'you' if (lead + j) % len(names) == seat else names[(lead + j) % len(names)]} {card}"
                       for j, card in enumerate(d.on_trick))
    who = "your card" if d.yours else f"{d.name}'s card"
    extra = " (or meld CARDS first)" if "meld" in d.kinds else ""
    text = f"Trick {d.trick}: {played} — {who}{extra}." if played else f"Trick {d.trick}: {who} to lead{extra}."
    out = wrap(text, "  ")
    if d.yours and d.cards:
        out += wrap(f"  legal: {_cards(d.cards)}", "    ")
    return out


def _acted(e: Acted, rules: Ruleset, seat: int) -> list[str]:
    act, who = e.action, _you(e.name, e.seat, seat)
    by_you = e.seat == seat
    if act.kind == "play" or (act.kind == "draw" and by_you):
        return []
    verb = _verb(act, by_you)
    if act.kind == "give":
        return [_gave(e, act, seat, rules.exchange)]
    if act.kind == "bury":
        shown = f" {len(act.cards) or rules.widow_size} cards" if e.hidden or not len(act.cards) else \
            f" {_cards(act.cards)}"
        return [f"{who.capitalize()} {verb}{shown}."]
    if act.kind == "meld":
        return _meld_lines(e, rules, who, verb)
    if act.kind == "trump":
        assert act.suit is not None
        return [f"{who.capitalize()} {verb} trump {act.suit.symbol} {act.suit.word}."]
    if act.kind == "bid":
        return [f"{who.capitalize()} {verb} {act.bid}."]
    return [f"{who.capitalize()} {verb}."]


def _verb(act: Action, you: bool) -> str:
    plain = {"bid": "bid", "pass": "pass", "trump": "name", "bury": "bury", "meld": "show", "concede": "concede",
             "widow": "take the widow", "draw": "draw", "give": "pass"}[act.kind]
    if you:
        return plain
    return {"pass": "passes", "give": "passes", "bury": "buries", "widow": "takes the widow"}.get(act.kind,
                                                                                                  plain + "s")


def _gave(e: Acted, act: Action, seat: int, count: int) -> str:
    """A pass: its cards only where the user sees them (theirs, or passed to them)."""
    who = _you(e.name, e.seat, seat)
    cards = f"{count} cards" if e.hidden or not len(act.cards) else _cards(act.cards)
    return f"{who.capitalize()} {_verb(act, e.seat == seat)} {cards}."


def _meld_lines(e: Acted, rules: Ruleset, who: str, verb: str) -> list[str]:
    act = e.action
    if not len(act.cards):
        return [f"{who.capitalize()} {verb} no meld."]
    if rules.has_stock:
        verb = "declare" if e.action.seat == e.seat and who == "you" else "declares"
    return wrap(f"{who.capitalize()} {verb} {_cards(act.cards)}.", "  ")


def _trick(e: TrickDone, seat: int, rules: Ruleset, names: Sequence[str]) -> list[str]:
    played = ", ".join(f"{'you' if (e.leader + j) % rules.players == seat else names[(e.leader + j) % rules.players]}"
                       f" {card}" for j, card in enumerate(e.cards))
    winner = "you win" if e.winner == seat else f"{e.name} wins"
    return wrap(f"Trick {e.number}: {played} — {winner}" + (f" ({e.counters})." if e.counters else "."), "  ")


def _undone(e: Undone, seat: int) -> list[str]:
    said = "; ".join(f"{'you' if a.seat == seat else n}: {a}" for a, n in zip(e.actions, e.names, strict=True))
    return wrap(f"Taken back: {said}.", "  ")


def _shown(e: Shown, rules: Ruleset) -> list[str]:
    out = [f"Deal {e.number}, dealer {e.names[e.dealer]}; you are {e.names[e.seat]}."]
    if e.calls:
        calls = ", ".join(f"{e.names[s]} {'pass' if b is None else b}" for s, b in e.calls)
        out.append(f"Auction: {calls}.")
    if e.bidder is not None:
        out.append(f"Contract: {e.names[e.bidder]} at {e.bid}" + (f", trump {e.trump.symbol} {e.trump.word}."
                                                                   if e.trump is not None else "."))
    for s, shown in sorted(e.shown.items()):
        points = meld(rules, shown, e.trump).total if e.trump is not None and not rules.has_stock else None
        out.append(f"Meld {e.names[s]}: {_cards(shown)}" + (f" ({points})" if points is not None else ""))
    if e.buried is not None and len(e.buried):
        out.append(f"Buried: {_cards(e.buried)}")
    for k, (leader, played, winner) in enumerate(e.tricks, start=1):
        won = f" — {e.names[winner]}" if winner is not None else " (under way)"
        out.append(f"Trick {k}: {e.names[leader]} led {'  '.join(str(c) for c in played)}{won}")
    taken = ", ".join(f"{n} {c}" for n, c in zip(e.names, e.counters, strict=True) if c)
    if taken:
        out.append(f"Counters taken: {taken}.")
    if e.hand is not None:
        out.append(f"Your hand: {_cards(e.hand)}")
    return [line for text in out for line in wrap(text, "  ")]


def _standing_text(s: MatchStanding, target: int | None) -> str:
    totals = ", ".join(f"{n} {t}" for n, t in zip(s.sides, s.totals, strict=True))
    goal = f" (to {target})" if target else ""
    return f"Match after {s.deals} deal{'s' * (s.deals != 1)}: {totals}{goal}."


def _scored(e: Scored, rules: Ruleset) -> list[str]:
    meld_text = ", ".join(f"{n} {m}" for n, m in zip(e.sides, e.meld, strict=True))
    counters = ", ".join(f"{n} {c}" for n, c in zip(e.sides, e.counters, strict=True))
    deal = wrap(f"This deal so far: meld {meld_text}; counters {counters}.", "  ") if e.under_way else []
    return [*deal, *wrap(_standing_text(e.standing, rules.match.target), "  ")]


def _ended(e: DealEnded) -> list[str]:
    points = ", ".join(f"{n} {p:+d}" for n, p in zip(e.sides, e.score.points, strict=True))
    how = e.result or "played"
    out = [f"Deal {e.number} over ({how}): {points}."]
    out.append(_standing_text(e.standing, None))
    if e.record is not None:
        out.append(f"Written to {e.record}.")
    return [line for text in out for line in wrap(text, "  ")]


def _match_over(s: MatchStanding) -> str:
    if s.winner is None:
        return f"The match is over: a draw ({', '.join(str(t) for t in s.totals)})."
    return f"The match is over: {s.winner} win{'s' * (' ' not in s.winner)}."


def _kept(e: Kept) -> list[str]:
    what = f"Deal {e.deal} is kept" if e.deal is not None else "The match is kept"
    return wrap(f"{what} in {e.journal}: pinochle play --resume continues it.", "  ")
