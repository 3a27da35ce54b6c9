"""``pinochle play --json``: each event of a session as one JSON object on a line of its own (JSON Lines).

Every object has ``event`` (``deal_started``, ``decision``, ``acted``, ``trick``, ``drew``, ``contract``, ``widow``,
``refused``, ``undone``, ``advice``, ``shown``, ``scored``, ``deal_ended``, ``review``, ``match_ended``, ``kept``,
``help``). Cards are two ASCII characters (``TH``), seats numbers from 0. A decision lists what is allowed: the
legal ``cards``, the least bid (``bids.smallest``), the ``suits`` that may be named, the ``count`` of cards to
give or bury. The advice of a card is ``hint --json``'s document, of a call ``estimate --auction --json``'s, of a
pass or bury ``pass --json``'s. The page docs/play.md describes each member.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card, Hand
from ..game.actions import Action
from ..session.advising import DecisionAdvice
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
from ..session.postmortem import Review

__all__ = ["event_json"]


def _cards(cards: Sequence[Card] | Hand | None) -> list[str] | None:
    return None if cards is None else [c.ascii() for c in cards]


def _standing(s: MatchStanding) -> dict[str, Any]:
    return {"sides": list(s.sides), "totals": dict(zip(s.sides, s.totals, strict=True)), "status": s.status,
            "winner": s.winner, "deals": s.deals}


def _action(act: Action, hidden: bool = False) -> dict[str, Any]:
    out = act.to_json()
    if hidden and "cards" in out:
        out["cards"] = None
    out["text"] = str(act) if not hidden else act.kind
    return out


def event_json(event: Event) -> dict[str, Any]:
    """The JSON object of one event (see the module docstring)."""
    kind, body = _body(event)
    return {"event": kind, **body}


def _body(event: Event) -> tuple[str, dict[str, Any]]:  # long: one branch a kind of event, each a few lines
    if isinstance(event, DealStarted):
        return "deal_started", {"deal": event.number, "ruleset": event.ruleset, "dealer": event.dealer,
                                "seat": event.seat, "names": list(event.names), "hand": _cards(event.hand),
                                "mode": "follow" if event.follow else "practice", "seed": event.seed,
                                "trump": None if event.trump is None else event.trump.letter,
                                "turned_up": None if event.turned is None else event.turned.ascii()}
    if isinstance(event, Decision):
        return "decision", _decision(event)
    if isinstance(event, Acted):
        return "acted", {"seat": event.seat, "name": event.name, "by": event.by,
                         "action": _action(event.action, event.hidden)}
    if isinstance(event, TrickDone):
        return "trick", {"trick": event.number, "leader": event.leader, "cards": _cards(event.cards),
                         "winner": event.winner, "name": event.name, "counters": event.counters}
    if isinstance(event, Drew):
        return "drew", {"seat": event.seat, "card": None if event.card is None else event.card.ascii()}
    if isinstance(event, Contract):
        return "contract", {"bidder": event.bidder, "bid": event.bid}
    if isinstance(event, WidowTaken):
        return "widow", {"bidder": event.bidder, "cards": _cards(event.cards)}
    if isinstance(event, Refused):
        return "refused", {"input": event.text, "error": event.message, "duty": event.duty}
    if isinstance(event, Undone):
        return "undone", {"actions": [_action(a) for a in event.actions]}
    if isinstance(event, Advised):
        return "advice", advice_json(event.advice)
    if isinstance(event, Shown):
        return "shown", _shown(event)
    if isinstance(event, Scored):
        return "scored", {"meld": dict(zip(event.sides, event.meld, strict=True)),
                          "counters": dict(zip(event.sides, event.counters, strict=True)),
                          "standing": _standing(event.standing), "under_way": event.under_way}
    if isinstance(event, DealEnded):
        return "deal_ended", {"deal": event.number, "result": event.result, "ended": event.how,
                              "points": dict(zip(event.sides, event.score.points, strict=True)),
                              "record": event.record, "standing": _standing(event.standing)}
    if isinstance(event, Reviewed):
        return "review", review_json(event.review)
    if isinstance(event, MatchEnded):
        return "match_ended", {"standing": _standing(event.standing)}
    if isinstance(event, Kept):
        return "kept", {"journal": event.journal, "deal": event.deal}
    assert isinstance(event, Helped)
    return "help", {"commands": [{"command": c, "does": what} for c, what in event.commands]}


def _decision(d: Decision) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": d.seat, "name": d.name or None, "stage": d.stage, "kinds": list(d.kinds),
                           "yours": d.yours}
    if d.next_deal is not None:
        out["next_deal"] = d.next_deal
    if d.stage == "auction":
        out["bids"] = {"smallest": d.smallest, "stuck": d.stuck, "pass": not d.stuck}
    if d.suits:
        out["suits"] = [s.letter for s in d.suits]
    if d.count:
        out["count"] = d.count
    if d.meld is not None:
        out["meld"] = _cards(d.meld)
    if d.stage == "play":
        out.update({"trick": d.trick, "leader": d.leader, "on_trick": _cards(d.on_trick), "cards": _cards(d.cards)})
    return out


def _shown(e: Shown) -> dict[str, Any]:
    return {"deal": e.number, "seat": e.seat, "hand": _cards(e.hand), "dealer": e.dealer,
            "calls": [{"seat": s, "call": "pass" if b is None else b} for s, b in e.calls],
            "bidder": e.bidder, "bid": e.bid, "trump": None if e.trump is None else e.trump.letter,
            "meld": {str(s): _cards(c) for s, c in sorted(e.shown.items())},
            "tricks": [{"leader": leader, "cards": _cards(cards), "winner": winner}
                       for leader, cards, winner in e.tricks],
            "counters": list(e.counters), "buried": _cards(e.buried)}


def advice_json(a: DecisionAdvice) -> dict[str, Any]:
    """An advice: what it advises and what it rests on, in the document of the command answering it alone."""
    out: dict[str, Any] = {"kind": a.kind, "seat": a.seat, "best": None if a.best is None else _action(a.best),
                           "seconds": round(a.took, 3), "seed": a.seed, "samples": a.samples, "note": a.note or None}
    if a.hint is not None:
        # the document of hint --json, as that command writes it
        from .hint_cmd import _json as hint_json

        out["hint"] = hint_json(a.hint, False)
    if a.answer is not None:
        out["estimate"] = a.answer.to_json()
    elif a.estimate is not None:
        out["estimate"] = a.estimate.to_json()
    if a.passing is not None:
        out["pass"] = a.passing.to_json()
    if a.trumps:
        out["trumps"] = [{"suit": o.suit.letter, "meld": o.meld, "cards": o.length, "p_make": o.p_make,
                          "score": None if o.score is None else round(o.score, 3)} for o in a.trumps]
    if a.meld is not None:
        out["meld"] = {"total": a.meld.total, "melds": [{"name": m.name, "points": m.points} for m in a.meld.melds]}
    if a.declare is not None:
        out["declare"] = _action(a.declare)
    return out


def review_json(r: Review) -> dict[str, Any]:
    return {"perfect": r.perfect, "meld": r.meld, "bid": r.bid, "bidder": r.bidder, "makeable": r.makeable,
            "analysed_from_trick": r.first_trick, "judged": r.judged, "fine": r.fine, "more": r.more,
            "seconds": round(r.seconds, 3),
            "decisions": [{"kind": j.kind, "action": j.index + 1, "trick": j.trick or None, "played": _action(j.played),
                           "advised": None if j.advised is None else _action(j.advised), "best": j.best,
                           "cost": j.cost, "unit": j.unit, "note": j.note or None} for j in r.rows]}
