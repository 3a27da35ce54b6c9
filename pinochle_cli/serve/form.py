"""A deal entered on the page: its fields as the prompted ``record add`` asks them (same defaults), and the
answers checked by the same code, each refusal put beside the field it concerns.

A ``FormField`` is what the page shows: ``name`` is the form's key (``meld:North-South``), ``field`` the
record's field it fills. The side left out of the counters is inferred, as on the command line. The
prompted add asks only for a deal played out; the page also offers, where the ruleset has a rule for
it, a deal that ended otherwise (the ``ending`` field: conceded, no-trump, redeal), checked alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..errors import FormError, RecordError, StaleRecordError
from ..records import MatchRecord
from ..records.entry import DealInput, asked_field, check_nothing_left_out, counters_questions, deal_entries, questions
from ..records.version import Expected
from ..records.writer import Entries, append_deal

__all__ = ["ENDING", "WHOLE_DEAL", "FormField", "add_deal", "deal_input", "endings", "form_fields"]

# the form's field for a deal not played out, and the record's flag each of its choices sets
ENDING = "ending"
# the name a refusal of the whole deal, beside no one field, is given (said at the form's top)
WHOLE_DEAL = "deal"
ENDINGS = {"conceded": "conceded: the bidding side threw the deal in after the meld",
           "no-trump": "no trump: the bidder held no suit they could name",
           "redeal": "redeal: thrown in before the auction"}


@dataclass(frozen=True)
class FormField:
    name: str
    field: str
    label: str
    default: str | None = None
    # the players or suits to choose from (None: typed)
    choices: tuple[str, ...] | None = None
    number: bool = False
    # what each choice shows (default: the choice itself), and the empty choice
    shown: tuple[str, ...] | None = None
    blank: str = ""


def _key(question_field: str, side: str | None) -> str:
    return question_field if side is None else f"{question_field}:{side}"


def form_fields(record: MatchRecord) -> list[FormField]:
    """The fields of the next deal, in the order ``record add`` asks them; the counters of every side but the
    last (inferred)."""
    suits = tuple(s.letter for s in record.rules.suits)
    players = tuple(record.table.seating)
    out = []
    for q in [*questions(record, DealInput()), *counters_questions(record)]:
        choices = players if q.field in ("dealer", "bidder") else suits if q.field == "trump" else None
        number = q.field in ("bid", "meld", "counters")
        out.append(FormField(_key(q.field, q.side), q.field, q.text, q.default, choices, number))
    offered = endings(record)
    if offered:
        out.append(FormField(ENDING, ENDING, "How the deal ended", "", offered,
                             shown=tuple(ENDINGS[e] for e in offered), blank="played out"))
    return out


def endings(record: MatchRecord) -> tuple[str, ...]:
    """The ways a deal may end unplayed that the ruleset has a rule for: conceding and a deal without trump
    (a game with a bidder), a redeal (a game with a redeal condition)."""
    rules = record.rules
    bidder = rules.auction is not None
    offered = {"conceded": bidder and rules.scoring.concede is not None,
               "no-trump": bidder and rules.scoring.no_trump is not None and bool(rules.trump_needs),
               "redeal": bool(rules.redeal_at_least or rules.redeal_at_most)}
    return tuple(e for e in ENDINGS if offered[e])


def _number(fields: list[FormField], form: Mapping[str, str], field: FormField) -> str:
    value = form.get(field.name, "").strip()
    if value and not re.fullmatch(r"\d+", value):
        raise FormError({field.name: f"{value!r}: expected a whole number"})
    return value


def deal_input(record: MatchRecord, form: Mapping[str, str]) -> DealInput:
    """The deal the form gives (empty fields left out: the checker says what is missing)."""
    fields = form_fields(record)
    given = DealInput()
    meld: list[str] = []
    counters: list[str] = []
    for f in fields:
        value = _number(fields, form, f) if f.number else form.get(f.name, "").strip()
        if not value:
            continue
        if f.field == "meld":
            meld.append(f"{f.name.partition(':')[2]}={value}")
        elif f.field == "counters":
            counters.append(f"{f.name.partition(':')[2]}={value}")
        elif f.field == "bid":
            given = replace(given, bid=int(value))
        elif f.field == ENDING:
            given = _ended(given, f, value)
        else:
            named: Any = value
            given = replace(given, **{f.field: named})
    return replace(given, meld=tuple(meld), counters=tuple(counters))


def _ended(given: DealInput, field: FormField, value: str) -> DealInput:
    if value not in (field.choices or ()):
        offered = ", ".join(field.choices or ())
        raise FormError({field.name: f"{value!r}: expected one of {offered}, or empty ({field.blank})"})
    on: Any = True
    return replace(given, **{value.replace("-", "_"): on})


def _where(record: MatchRecord, exc: RecordError) -> str:
    """The form field a refusal concerns: the side's own field where one side is named, else the first of
    its kind; a refusal of no field of the form goes with the whole deal (``deal``)."""
    head = (exc.field or "").split(".")[0]
    field = ENDING if head in ENDINGS else asked_field(exc)
    names = [f.name for f in form_fields(record) if f.field == field]
    for name in names:
        side = name.partition(":")[2]
        if side and side in exc.detail:
            return name
    return names[0] if names else WHOLE_DEAL


def add_deal(path: str, form: Mapping[str, str], expect: Expected | None = None) -> MatchRecord:
    """Append the deal the form gives to the record at ``path`` (locked, checked, atomic); ``FormError`` (file
    unchanged) names the field each problem is beside; ``expect``: the version the form was filled in from and the
    deal's number (``StaleRecordError`` if the record changed since)."""

    def build(current: MatchRecord) -> Entries:
        entries = deal_entries(current, deal_input(current, form))
        check_nothing_left_out(current, entries, len(current.deals) + 1)
        return entries

    try:
        return append_deal(path, build, expect=expect)
    except StaleRecordError:
        raise
    except RecordError as exc:
        from ..records import read_record

        raise FormError({_where(read_record(path, strict=False), exc): exc.detail}) from None
