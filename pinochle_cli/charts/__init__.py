"""Charts in the terminal: a record's running totals toward the target (``totals``), an estimate's P(make)
by bid (``bids``).

Each chart is a list of lines at most ``width`` wide, in symbols (``SYMBOLS``) or, for a terminal
that prints ASCII only, in letters (``LETTERS``). The drawing itself is ``grid``. (The package loads
neither: ``bids`` needs numpy.)
"""

from __future__ import annotations

from .grid import LETTERS, SYMBOLS, Glyphs

__all__ = ["LETTERS", "SYMBOLS", "Glyphs"]
