"""A deal being entered at the table: which fields are still missing, and the deal as it would be scored.

The command line asks for the missing fields one at a time; each answer is checked by the same
reader that checks a record (``preview``), and an answer it refuses is asked again with its
message. Nothing here reads a terminal.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import format_cards, parse_cards, parse_suit
from ..errors import Argument, CardError, Message, RecordError, TableNameError, relocated
from ..ruleset import split_key_value
from .brief import next_dealer
from .model import DealRecord, MatchRecord
from .reader import parse_record
from .table import Table
from .writer import Entries, insert_deal

__all__ = ["ASKED", "Question", "answered", "asked_field", "cleared", "counters_questions", "deal_summary",
           "meld_sides", "preview", "questions"]

# fields a question can settle
ASKED = ("dealer", "bidder", "bid", "trump", "widow", "meld", "buried", "counters")


@dataclass(frozen=True)
class Question:
    """One missing field: ``side`` is the side asked about (meld, counters)."""

    field: str
    text: str
    default: str | None = None
    side: str | None = None

    @property
    def number(self) -> bool:
        """The answer is a whole number (the bid)."""
        return self.field == "bid"


def _sides_in(record: MatchRecord, items: tuple[str, ...] | list[str]) -> set[int]:
    sides = set()
    for item in items:
        try:
            sides.add(record.table.resolve(item.partition("=")[0], abbreviations=True)[1])
        except TableNameError:
            # the checker words it
            continue
    return sides


def questions(record: MatchRecord, given: DealInput) -> list[Question]:
    """The fields of ``given`` that are missing and always needed, in the order they are asked; in a game
    with a widow also the widow and (a deal played) the buried cards, which may be left empty ("")."""
    rules = record.rules
    out: list[Question] = []
    if not given.dealer:
        default = next_dealer(record)
        out.append(Question("dealer", f"Dealer ({', '.join(record.table.seating)})", default))
    if given.redeal:
        return out
    if rules.auction is not None and not given.auction:
        if not given.bidder:
            out.append(Question("bidder", "Bidder (who won the auction)"))
        if given.bid is None:
            out.append(Question("bid", f"Bid (at least {rules.auction.minimum})"))
    if rules.trump_source == "bid" and not given.trump and not given.no_trump:
        out.append(Question("trump", f"Trump ({' '.join(s.letter for s in rules.suits)})"))
    played = not (given.no_trump or given.conceded)
    if rules.widow is not None and given.widow is None:
        out.append(Question("widow", f"Widow ({rules.widow_size} cards; empty if not noted)", ""))
    have = _sides_in(record, list(given.meld))
    melding = meld_sides(record, {"no-trump": given.no_trump, "bidder": given.bidder})
    out += [Question("meld", f"{side}'s meld (a number; 0 for none)", side=side)
            for i, side in enumerate(record.sides) if i not in have and i in melding]
    if rules.bury is not None and given.buried is None and played:
        out.append(Question("buried", f"Buried by the bidder ({rules.widow_size} cards; empty if not noted)", ""))
    return out


def counters_questions(record: MatchRecord) -> list[Question]:
    """The counters of every side but the last (whose counters are inferred)."""
    return [Question("counters", f"{side}'s counters", side=side) for side in record.sides[:-1]]


def answered(given: DealInput, question: Question, answer: str) -> DealInput:
    """``given`` with the answer to ``question``."""
    answer = answer.strip()
    if question.field == "bid":
        # asked as a whole number
        return dataclasses.replace(given, bid=int(answer))
    if question.field in ("meld", "counters"):
        items: Any = (*getattr(given, question.field), f"{question.side}={answer}")
        return dataclasses.replace(given, **{question.field: items})
    value: Any = answer
    return dataclasses.replace(given, **{question.field: value})


def cleared(given: DealInput, field: str) -> DealInput:
    """``given`` without ``field`` (to be asked again)."""
    empty: Any = () if field in ("meld", "counters") else None
    return dataclasses.replace(given, **{field: empty})


def asked_field(exc: RecordError) -> str | None:
    """The question that settles a refusal, if one does."""
    head = (exc.field or "").split(".")[0]
    return head if head in ASKED else None


def preview(text: str, path: str, record: MatchRecord, given: DealInput, *, partial: bool = False) -> MatchRecord:
    """The record at ``path`` (its ``text``) with the deal appended, checked; raises the first problem
    (a ``RecordError`` naming ``path``, the deal and field).

    ``partial``: a deal still being asked for (a side's meld may be missing yet).
    """
    number = len(record.deals) + 1
    entries = deal_entries(record, given)
    if not partial:
        check_nothing_left_out(record, entries, number)
    try:
        return parse_record(insert_deal(text, entries, path), path, os.path.dirname(os.path.abspath(path)))
    except RecordError as exc:
        raise relocated(exc, source=path, line=None) from None


def deal_summary(record: MatchRecord, deal: DealRecord) -> str:
    """One deal in a line, as it is scored: who dealt and bid, meld, counters, result and points."""
    sides = record.sides
    parts = [f"Deal {deal.number}:"]
    if deal.dealer:
        parts.append(f"{deal.dealer} dealt;")
    if deal.bidder is not None:
        trump = f" in {deal.trump.word}" if deal.trump is not None else ""
        parts.append(f"{deal.bidder} bid {deal.bid}{trump};")
    elif deal.trump is not None:
        parts.append(f"trump {deal.trump.word};")
    if not deal.redeal:
        parts.append("meld " + ", ".join(f"{s} {m}" for s, m in zip(sides, deal.meld, strict=True)) + ";")
    if deal.counters is not None:
        parts.append("counters " + ", ".join(f"{s} {c}" for s, c in zip(sides, deal.counters, strict=True)) + ";")
    result = f"{deal.score.result}: " if deal.score.result else ""
    points = ", ".join(f"{s} {p:+d}" for s, p in zip(sides, deal.score.points, strict=True))
    return " ".join(parts) + f" {result}{points}."


# --------------------------------------------------------------------------- a deal from options

@dataclass
class DealInput:
    """A deal as given on the command line (names may be abbreviated: ``NS`` for North-South)."""

    dealer: str | None = None
    bidder: str | None = None
    bid: int | None = None
    trump: str | None = None
    auction: str | None = None
    # SIDE=N or PLAYER=N or PLAYER=CARDS
    meld: Sequence[str] = ()
    # SIDE=N or PLAYER=N
    counters: Sequence[str] = ()
    tricks: Sequence[str] = ()
    conceded: bool = False
    no_trump: bool = False
    redeal: bool = False
    notes: str | None = None
    # games with a widow: the cards turned up and those buried ("": asked, not noted)
    widow: str | None = None
    buried: str | None = None


def _pairs(items: Sequence[str], fld: str, deal: int) -> list[tuple[str, str]]:
    out = []
    for item in items:
        split = split_key_value(item)
        if split is None:
            raise RecordError(f"{item!r} is not NAME=VALUE (e.g. NS=60)", deal=deal, field=fld)
        out.append(split)
    return out


def _resolve(table: Table, text: str, fld: str, deal: int) -> tuple[str, int, str | None]:
    try:
        return table.resolve(text, abbreviations=True)
    except TableNameError as exc:
        raise RecordError(str(exc), deal=deal, field=fld) from None


def _player(table: Table, text: str, fld: str, deal: int) -> str:
    _kind, side, who = _resolve(table, text, fld, deal)
    if who is None:
        raise RecordError(f"{text!r} is the team {table.sides[side]}; name a player ({', '.join(table.seating)})",
                          deal=deal, field=fld)
    return who


def _numbers(table: Table, items: Sequence[str], fld: str, deal: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, value in _pairs(items, fld, deal):
        _kind, side, who = _resolve(table, key, fld, deal)
        name = who or table.sides[side]
        if not re.fullmatch(r"\d+", value):
            raise RecordError(f"{key}={value}: expected a whole number", deal=deal, field=fld)
        if name in out:
            raise RecordError(f"{name} given twice", deal=deal, field=fld)
        out[name] = int(value)
    return out


def _sides_given(table: Table, names: Sequence[str]) -> set[int]:
    given = set()
    for name in names:
        _kind, side, _who = table.resolve(name)
        given.add(side)
    return given


def deal_entries(record: MatchRecord, deal: DealInput, *, number: int | None = None) -> Entries:
    """The fields of deal ``number`` (default: the next) of ``record``, names written in full, in the order a
    person reads them.

    The dealer defaults to the player after the previous deal's dealer; the counters of one side
    left out are inferred from the deal's total. A side's meld left out is not filled in (see
    ``meld_left_out``).
    """
    table = record.table
    number = len(record.deals) + 1 if number is None else number
    entries: Entries = []
    dealer = _player(table, deal.dealer, "dealer", number) if deal.dealer else next_dealer(record)
    if dealer is not None:
        entries.append(("dealer", dealer))
    if deal.auction:
        calls: list[Any] = []
        for token in re.split(r"[\s,]+", deal.auction.strip()):
            if token:
                calls.append(int(token) if token.isdigit() else token.lower())
        entries.append(("auction", calls))
    if deal.bidder:
        entries.append(("bidder", _player(table, deal.bidder, "bidder", number)))
    if deal.bid is not None:
        entries.append(("bid", deal.bid))
    if deal.trump:
        try:
            entries.append(("trump", parse_suit(deal.trump).word))
        except CardError as exc:
            raise RecordError(str(exc), deal=number, field="trump") from None
    if deal.widow:
        entries.append(("widow", _card_text(deal.widow, "widow", number)))
    if deal.meld:
        entries.append(("meld", _meld_entries(table, deal.meld, number)))
    if deal.buried:
        entries.append(("buried", _card_text(deal.buried, "buried", number)))
    if deal.counters:
        entries.append(("counters", _counter_entries(record, deal.counters, number)))
    if deal.tricks:
        entries.append(("tricks", _numbers(table, deal.tricks, "tricks", number)))
    for key, on in (("conceded", deal.conceded), ("no-trump", deal.no_trump), ("redeal", deal.redeal)):
        if on:
            entries.append((key, True))
    if deal.notes:
        entries.append(("notes", deal.notes))
    return entries


def _card_text(text: str, fld: str, number: int) -> str:
    """Cards as the record writes them (ASCII, ten as T); an unreadable card names the field."""
    try:
        return format_cards(parse_cards(text), ascii=True)
    except CardError as exc:
        raise RecordError(str(exc), deal=number, field=fld) from None


def _meld_entries(table: Table, items: Sequence[str], number: int) -> dict[str, Any]:
    meld: dict[str, Any] = {}
    for key, value in _pairs(items, "meld", number):
        _kind, side, who = _resolve(table, key, "meld", number)
        name = who or table.sides[side]
        if name in meld:
            raise RecordError(f"{name} given twice", deal=number, field="meld")
        if re.fullmatch(r"\d+", value):
            meld[name] = int(value)
        else:
            if who is None:
                raise RecordError(f"{key}={value}: a team's meld is a number; cards are shown by a player",
                                  deal=number, field="meld")
            try:
                meld[name] = format_cards(parse_cards(value), ascii=True)
            except CardError as exc:
                raise RecordError(f"{key}: {exc}", deal=number, field="meld") from None
    return meld


def _counter_entries(record: MatchRecord, items: Sequence[str], number: int) -> dict[str, int]:
    """Counters by side or player; one side left out is inferred; a total that is off names what was typed."""
    table, total = record.table, record.rules.counter_total
    counters = _numbers(table, items, "counters", number)
    absent = [i for i in range(len(table.sides)) if i not in _sides_given(table, list(counters))]
    typed = " and ".join(items)
    given = sum(counters.values())
    if len(absent) == 1:
        if given > total:
            raise RecordError(f"{typed}: more than the {total} counters in a deal", deal=number, field="counters")
        counters[table.sides[absent[0]]] = total - given
    elif not absent and given != total:
        raise RecordError(f"{typed} add up to {given}; the counters of a deal add up to {total} (give one side "
                          "and the other is inferred)", deal=number, field="counters")
    return counters


# the outcome kinds that score a side's meld (the others: the bid, or nothing)
_MELD_KINDS = ("meld", "meld-and-counters")


def meld_sides(record: MatchRecord, fields: Mapping[str, Any]) -> list[int]:
    """The sides whose meld a deal's ``fields`` leave to be given.

    None in a redeal. In a deal without trump, only the sides the ruleset's outcome for it
    scores meld for (the deal ends before anyone melds: in every bundled game, none). No side
    whose every player's hand is recorded, in a game whose hand at play start is the hand
    melded (the reader computes that meld from the hands).
    """
    rules, table = record.rules, record.table
    if fields.get("redeal"):
        return []
    sides = list(range(len(table.sides)))
    outcome = rules.scoring.no_trump
    if fields.get("no-trump") and outcome is not None:
        bidder = _side_of(table, fields.get("bidder"))
        sides = [s for s in sides if (outcome.bidders if s == bidder else outcome.defenders) in _MELD_KINDS
                 or (bidder is None and outcome.bidders in _MELD_KINDS)]
    bidder = _side_of(table, fields.get("bidder"))
    if rules.melders == "bidder" and bidder is not None:
        sides = [s for s in sides if s == bidder]
    hands = fields.get("hands")
    if isinstance(hands, Mapping) and fields.get("trump") and not rules.has_stock:
        held = {str(who).lower() for who in hands}
        sides = [s for s in sides if not all(p.lower() in held for p in table.members[s])]
    return sides


def _side_of(table: Table, name: Any) -> int | None:
    """The side of a player named (perhaps abbreviated); None when not known."""
    if not isinstance(name, str) or not name:
        return None
    try:
        return table.resolve(name, abbreviations=True)[1]
    except TableNameError:
        return None


def meld_left_out(record: MatchRecord, entries: Entries) -> list[str]:
    """The sides of a deal whose meld is needed (``meld_sides``) but not given: a side with none is given as 0."""
    fields = dict(entries)
    given = _sides_given(record.table, list(fields.get("meld") or {}))
    return [record.table.sides[i] for i in meld_sides(record, fields) if i not in given]


def check_nothing_left_out(record: MatchRecord, entries: Entries, number: int) -> None:
    """Refuse a deal that leaves out what the checker would otherwise take as nothing: a side's meld
    (rather than 0), or the trump of a deal played out in a game whose bidder names trump."""
    missing = meld_left_out(record, entries)
    if missing:
        names = " and ".join(missing)
        example = [part for s in missing for part in (" ", Argument("meld", f"{s}=0", assigned=True))][1:]
        raise RecordError(Message(f"no meld given for {names} (a side with no meld: ", *example, ")"), deal=number,
                          field="meld")
    fields = dict(entries)
    played = ("counters" in fields or "tricks" in fields) and not fields.get("conceded")
    rules = record.rules
    if played and rules.trump_source == "bid" and "trump" not in fields and not fields.get("no-trump"):
        suits = " ".join(s.letter for s in rules.suits)
        raise RecordError(f"not given; the bidder named one of {suits}", deal=number, field="trump")

