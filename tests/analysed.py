"""The examples' double-dummy analyses, found once a process: several modules compare with them."""

from __future__ import annotations

import functools
from typing import NamedTuple

from pinochle_cli.records import DealRecord, MatchRecord, read_record
from pinochle_cli.solver.analyze import DealAnalysis, analyze_deal, playable_deals


class Analysed(NamedTuple):
    record: MatchRecord
    deal: DealRecord
    analysis: DealAnalysis


@functools.cache
def analysed(path: str) -> Analysed:
    """The record at ``path``, its first played deal and that deal's analysis (``analyze_deal``, no time limit)."""
    record = read_record(path)
    deal = playable_deals(record)[0]
    return Analysed(record, deal, analyze_deal(record, deal))
