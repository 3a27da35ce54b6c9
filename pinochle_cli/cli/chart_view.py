"""``--chart``: the glyphs the output stream can print, and the width a chart may take."""

from __future__ import annotations

import sys

from ..charts import LETTERS, SYMBOLS, Glyphs
from .score_cmd import terminal_width

__all__ = ["MAX_CHART_WIDTH", "chart_glyphs", "chart_width"]

# a chart is no wider than this, however wide the terminal
MAX_CHART_WIDTH = 100
_NEEDED = "│─└┬┤·┄●▲■◆○△♠♥♦♣"


def chart_glyphs() -> Glyphs:
    """Symbols where stdout can encode them, letters elsewhere."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        _NEEDED.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return LETTERS
    return SYMBOLS


def chart_width() -> int:
    return min(MAX_CHART_WIDTH, terminal_width())
