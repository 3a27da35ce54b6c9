"""A finished deal as a record's deal, written through the records library as ``record add`` writes one.

``deal_entries(record, state)`` gives the fields of a deal that is over: the dealer, the auction, the bidder
and bid, trump, the widow, each hand as play began as far as it is known (a hand nobody saw is known once it
has played every card), the buried cards, the meld (computed by the reader where the hand is recorded, else the
cards shown — or the points declared, in a game with a stock), the stock, and the play when every hand is
known; else the counters and tricks each side took. ``new_record_text`` starts a record for a table;
``append(path, state)`` adds the deal to a record file (``records.writer.append_deal``: locked, checked,
written whole); ``added(text, state)`` does the same to a record kept in memory. Both check that the record
scores the deal as the deal itself does (``SessionError`` otherwise).
"""

from __future__ import annotations

import os
from typing import Any

from ..cards import Hand, format_cards, parse_cards
from ..errors import SessionError
from ..game.state import DealState
from ..meld import meld
from ..records import MatchRecord, parse_record
from ..records.writer import Entries, append_deal, insert_deal, new_record_text, ruleset_spec_for
from ..ruleset import Ruleset
from .settings import team_names

__all__ = ["IN_MEMORY", "added", "append", "deal_entries", "hands_at_play", "record_text"]

# the name a record kept in memory is read under
IN_MEMORY = "<session>"


def record_text(rules: Ruleset, spec: str | None, names: tuple[str, ...], path: str) -> str:
    """The text of a new record for ``rules`` and the table ``names`` (``path``: where it will be)."""
    teams = team_names(rules, names)
    players = [] if teams else list(names)
    options = dict(rules.chosen) if rules.changed_options else {}
    return new_record_text(ruleset_spec_for(spec, rules, path), options, teams=teams, players=players,
                           seating=list(names) if teams else [])


def hands_at_play(state: DealState) -> list[Hand | None]:
    """Each seat's cards as play began (in a game with a stock, as dealt), None where they are not known."""
    rules = state.rules
    if rules.has_stock:
        return [None if h is None else Hand(parse_cards(" ".join(h))) for h in state.to_json()["hands"]]
    out: list[Hand | None] = []
    for seat in range(rules.players):
        now, played = state.hand(seat), Hand(state.played_by(seat))
        if now is not None:
            out.append(now + played)
        elif len(played) == rules.tricks_per_deal:
            out.append(played)
        else:
            out.append(None)
    return out


def deal_entries(record: MatchRecord, state: DealState) -> Entries:
    """The fields of the finished deal ``state`` for ``record`` (see the module docstring)."""
    rules, table = state.rules, record.table
    names = table.seating
    entries: Entries = [("dealer", names[state.dealer])]
    if state.result == "redeal":
        return [*entries, ("redeal", True)]
    if rules.auction is not None:
        entries.append(("auction", [b if b is not None else "pass" for _, b in state.calls]))
        if state.bidder is not None:
            entries += [("bidder", names[state.bidder]), ("bid", state.bid)]
    if state.trump is not None:
        entries.append(("trump", state.trump.word))
    if state.result == "no-trump":
        return [*entries, ("no-trump", True)]
    widow = state.to_json().get("widow") or _widow_taken(state)
    if rules.widow_size and widow:
        entries.append(("widow", " ".join(widow)))
    hands = _agreeing(state, hands_at_play(state))
    played_out = state.result == "played"
    whole = all(h is not None for h in hands) and (not rules.has_stock or bool(state.to_json().get("stock")))
    if any(h is not None for h in hands):
        entries.append(("hands", {names[s]: format_cards(h, ascii=True) for s, h in enumerate(hands) if h is not None}))
    if state.buried is not None and len(state.buried):
        entries.append(("buried", format_cards(state.buried, ascii=True)))
    meld = _meld(state, hands, names)
    if meld:
        entries.append(("meld", meld))
    if played_out and whole:
        if rules.has_stock:
            entries.append(("stock", " ".join(state.to_json()["stock"])))
        entries.append(("play", [" ".join(c.ascii() for c in t.cards) for t in state.tricks]))
    elif played_out:
        entries += _counters(record, state)
    if state.result == "conceded":
        entries.append(("conceded", True))
    return entries


def _agreeing(state: DealState, hands: list[Hand | None]) -> list[Hand | None]:
    """``hands`` less those whose best meld is not the meld their seat showed (a seat followed at a table that did
    not show all of it): the reader would compute the hand's meld, not the one shown."""
    rules = state.rules
    if rules.has_stock or state.trump is None:
        return hands
    known = [h for h in hands if h is not None]
    rest = rules.deck.full() - Hand([c for h in known for c in h])
    out: list[Hand | None] = []
    for seat, hand in enumerate(hands):
        if hand is not None and seat in state.shown:
            extra = state.buried if state.buried is not None else rest if len(known) == rules.players else Hand()
            held = hand + extra if seat == state.bidder else hand
            if meld(rules, held, state.trump).total != meld(rules, state.shown[seat], state.trump).total:
                hand = None
        out.append(hand)
    return out


def _widow_taken(state: DealState) -> list[str] | None:
    """The widow when it was entered as the bidder took it (following a table)."""
    for act in state.history:
        if act.kind == "widow":
            return act.cards.ascii()
    return None


def _meld(state: DealState, hands: list[Hand | None], names: tuple[str, ...]) -> dict[str, Any]:
    """Each melder's meld the reader cannot compute from a recorded hand: the cards shown (0: none), or in a game
    with a stock the points declared."""
    rules = state.rules
    if rules.has_stock:
        facts = state.facts()
        return {names[team[0]]: facts.meld[i] for i, team in enumerate(rules.partnerships)}
    out: dict[str, Any] = {}
    for seat, cards in sorted(state.shown.items()):
        if hands[seat] is None:
            out[names[seat]] = format_cards(cards, ascii=True) if len(cards) else 0
    return out


def _counters(record: MatchRecord, state: DealState) -> Entries:
    """The counters and tricks each side took, by the record's side names."""
    rules, table = state.rules, record.table
    facts = state.facts()
    assert facts.counters is not None
    won = [sum(1 for t in state.tricks if t.winner in team) for team in rules.partnerships]
    counters = {table.sides[table.side_of_partnership(i)]: n for i, n in enumerate(facts.counters)}
    tricks = {table.sides[table.side_of_partnership(i)]: n for i, n in enumerate(won)}
    return [("counters", counters), ("tricks", tricks)]


def _checked(record: MatchRecord, state: DealState) -> MatchRecord:
    """``record`` whose last deal is ``state``'s, scored as the deal scores itself."""
    mine, theirs = state.score(), record.deals[-1].score
    table = record.table
    if mine is not None:
        expected = [0] * len(theirs.points)
        for i, points in enumerate(mine.points):
            expected[table.side_of_partnership(i)] = points
        if list(theirs.points) != expected or theirs.result != mine.result:
            raise SessionError(f"deal {record.deals[-1].number}: the record scores it {theirs.result} "
                               f"{list(theirs.points)}, the session {mine.result} {expected}")
    return record


def append(path: str, state: DealState) -> MatchRecord:
    """Add the finished deal to the record at ``path``; the record with it."""
    return _checked(append_deal(path, lambda current: deal_entries(current, state)), state)


def added(text: str, record: MatchRecord, state: DealState) -> tuple[str, MatchRecord]:
    """The record kept in memory (``text``, read as ``record``) with the finished deal added."""
    new_text = insert_deal(text, deal_entries(record, state), IN_MEMORY)
    return new_text, _checked(parse_record(new_text, IN_MEMORY, os.getcwd()), state)
