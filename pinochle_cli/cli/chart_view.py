"""Drawing on the terminal (``--chart``, the QR code of ``serve``): the glyphs stdout can print, and the width a
chart may take."""

from __future__ import annotations

import sys

from ..charts import LETTERS, SYMBOLS, Glyphs
from .common import terminal_width

__all__ = ["MAX_CHART_WIDTH", "chart_glyphs", "chart_width", "prints"]

# a chart is no wider than this, however wide the terminal
MAX_CHART_WIDTH = 100
_NEEDED = "│─└┬┤·┄●▲■◆○△♠♥♦♣"


def prints(text: str) -> bool:
    """Whether stdout can encode every character of ``text``."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def chart_glyphs() -> Glyphs:
    """Symbols where stdout can encode them, letters elsewhere."""
    return SYMBOLS if prints(_NEEDED) else LETTERS


def chart_width() -> int:
    return min(MAX_CHART_WIDTH, terminal_width())
