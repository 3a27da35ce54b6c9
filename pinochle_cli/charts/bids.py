"""An estimate's P(make) against the bid, one series per trump suit, the confidence level across, and
under the axis each suit's recommended bid (the highest made at least that often)."""

from __future__ import annotations

import textwrap

from ..estimate.results import Estimate
from .grid import SYMBOLS, Glyphs, Rule, Series, draw
from .ticks import step_for

__all__ = ["HEIGHT", "bids_chart"]

HEIGHT = 12


def _pct(p: float) -> str:
    return f"{100 * p:.0f} %"


def bids_chart(result: Estimate, width: int, glyphs: Glyphs = SYMBOLS) -> list[str]:
    """The legend, then the chart (x: the bid, y: P(make)); no suit to name: one line saying so."""
    suits = [s for s in result.suits if s.bids]
    if not suits:
        return ["No suit to name: nothing to chart."]
    markers = [s.trump.symbol if glyphs is SYMBOLS else s.trump.letter for s in suits]
    low = min(c.bid for s in suits for c in s.bids)
    high = max(c.bid for s in suits for c in s.bids)
    series = [Series(m, tuple((c.bid, c.p_make) for c in s.bids)) for m, s in zip(markers, suits, strict=True)]
    # the best suit's mark is drawn last: it shows where two suits recommend the same bid
    ordered = sorted(zip(markers, suits, strict=True), key=lambda ms: ms[1].trump == result.best)
    marks = [(s.recommended_bid, m) for m, s in ordered if s.recommended_bid is not None]
    bid_step = suits[0].bids[1].bid - suits[0].bids[0].bid if len(suits[0].bids) > 1 else 10
    step = bid_step * step_for((high - low) / bid_step, width - 8, len(str(high)))
    first = low + (-low) % step
    legend = "  ".join(f"{m} {s.trump.word}" + (" (best)" if s.trump == result.best else "")
                       for m, s in zip(markers, suits, strict=True))
    lines = draw(series, width=width, height=HEIGHT, x_range=(low, high), y_range=(0.0, 1.0),
                 x_ticks=[(x, str(x)) for x in range(first, high + 1, step)], y_format=_pct,
                 rules=[Rule(result.confidence, _pct(result.confidence))], y_marks=(0.5,), x_marks=marks,
                 glyphs=glyphs)
    key = (f"P(make) by bid: {legend}; {glyphs.rule * 2} {_pct(result.confidence)}; under the bids: each suit's "
           "recommended bid (the highest made that often)")
    return [*textwrap.wrap(key, width, break_on_hyphens=False), "", *lines]
