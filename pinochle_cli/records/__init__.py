"""Match records (the format: docs/records.md): read, check that every deal could be true, and score.

``read_record(path)`` reads a record file; ``parse_record(text, source, base)`` reads text.
Both check every field of every deal against the ruleset and the deals before it. By default
(``strict=True``) the first problem is raised as a ``RecordError`` naming the file, line, deal
and field (``FILE:LINE: deal 4, counters: add up to 240, expected 250``). With
``strict=False`` the reader is forgiving: it collects every problem it can find in
``MatchRecord.problems`` (each a ``RecordError``), skips a deal it cannot score (its number is
in ``MatchRecord.skipped``) and goes on with the rest, so a hand-written sheet shows all its
mistakes at once. The result, a ``MatchRecord``, carries each scored deal's facts, score and
the standing after it.

The parts: ``table`` (the sides, seats and names), ``auction`` (bids and calls), ``layout``
(the file's fields, declared once; also published as a JSON Schema), ``model`` (the checked
record and its JSON), ``dealcheck`` (one deal read section by section) and ``reader``.
"""

from __future__ import annotations

from ..game.bidding import check_bid, run_auction
from .layout import DEAL_KEYS, TOP_KEYS, record_json_schema, record_schema_json_text
from .model import DealRecord, MatchRecord, problem_json
from .reader import check_record, parse_record, read_record
from .table import Table

__all__ = [
    "DEAL_KEYS", "TOP_KEYS", "DealRecord", "MatchRecord", "Table", "check_bid", "check_record", "parse_record",
    "problem_json", "read_record", "record_json_schema", "record_schema_json_text", "run_auction",
]
