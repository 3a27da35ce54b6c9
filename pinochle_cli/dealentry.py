"""A deal being entered at the table: which fields are still missing, and the deal as it would be scored.

The command line asks for the missing fields one at a time; each answer is checked by the same
reader that checks a record (``preview``), and an answer it refuses is asked again with its
message. Nothing here reads a terminal.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any

from .errors import RecordError, TableNameError
from .recordfile import DealInput, check_nothing_left_out, deal_entries, insert_deal
from .records import DealRecord, MatchRecord, parse_record
from .summary import next_dealer

__all__ = ["ASKED", "Question", "answered", "asked_field", "cleared", "counters_questions", "deal_summary", "preview",
           "questions"]

ASKED = ("dealer", "bidder", "bid", "trump", "meld", "counters")  # fields a question can settle


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
            continue  # the checker words it
    return sides


def questions(record: MatchRecord, given: DealInput) -> list[Question]:
    """The fields of ``given`` that are missing and always needed, in the order they are asked."""
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
    have = _sides_in(record, list(given.meld))
    out += [Question("meld", f"{side}'s meld (a number; 0 for none)", side=side)
            for i, side in enumerate(record.sides) if i not in have]
    return out


def counters_questions(record: MatchRecord) -> list[Question]:
    """The counters of every side but the last (whose counters are inferred)."""
    return [Question("counters", f"{side}'s counters", side=side) for side in record.sides[:-1]]


def answered(given: DealInput, question: Question, answer: str) -> DealInput:
    """``given`` with the answer to ``question``."""
    answer = answer.strip()
    if question.field == "bid":
        return dataclasses.replace(given, bid=int(answer))  # asked as a whole number
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
    """The record at ``path`` (its ``text``) with the deal appended, checked; raises the first problem.

    ``partial``: a deal still being asked for (a side's meld may be missing yet).
    """
    number = len(record.deals) + 1
    entries = deal_entries(record, given)
    if not partial:
        check_nothing_left_out(record, entries, number)
    try:
        return parse_record(insert_deal(text, entries, path), path, os.path.dirname(os.path.abspath(path)))
    except RecordError as exc:
        raise RecordError(exc.detail, source=path, deal=exc.deal, trick=exc.trick, field=exc.field) from None


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
