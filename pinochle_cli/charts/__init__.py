"""Charts in the terminal: a record's running totals toward the target, an estimate's P(make) by bid.

Each chart is a list of lines at most ``width`` wide, in symbols (``SYMBOLS``) or, for a terminal
that prints ASCII only, in letters (``LETTERS``). The drawing itself is ``grid``.
"""

from __future__ import annotations

from .bids import bids_chart
from .grid import LETTERS, SYMBOLS, Glyphs
from .totals import totals_chart

__all__ = ["LETTERS", "SYMBOLS", "Glyphs", "bids_chart", "totals_chart"]
