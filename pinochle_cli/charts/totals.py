"""A record's running totals, deal by deal, from 0 toward the target: one series per side or player."""

from __future__ import annotations

import textwrap

from ..records import MatchRecord
from .grid import SYMBOLS, Glyphs, Rule, Series, draw
from .ticks import step_for

__all__ = ["HEIGHT", "markers_for", "totals_chart"]

HEIGHT = 12


def markers_for(names: tuple[str, ...], glyphs: Glyphs) -> tuple[str, ...]:
    """Each side's marker: the glyphs' shapes; in letters, each name's first letter when they differ."""
    if glyphs is SYMBOLS:
        return glyphs.markers[:len(names)]
    first = tuple(n[:1].upper() for n in names)
    return first if len(set(first)) == len(first) and all(f.isascii() and f.isalpha() for f in first) \
        else glyphs.markers[:len(names)]


def totals_chart(record: MatchRecord, width: int, glyphs: Glyphs = SYMBOLS) -> list[str]:
    """The legend, then the chart (x: deals played, y: each side's total); no deals: one line saying so."""
    if not record.deals:
        return ["No deals yet: nothing to chart."]
    names = record.sides
    markers = markers_for(names, glyphs)
    runs = [[0, *(d.standing.totals[i] for d in record.deals)] for i in range(len(names))]
    target = record.rules.match.target
    every = [v for run in runs for v in run]
    low, high = min(0, *every), max(every + ([target] if target is not None else []))
    n = len(record.deals)
    rules = [] if target is None else [Rule(target, str(target))]
    step = step_for(n, width - len(str(high)) - 4, len(str(n)))
    series = [Series(m, tuple(enumerate(run))) for m, run in zip(markers, runs, strict=True)]
    legend = "  ".join(f"{m} {name}" for m, name in zip(markers, names, strict=True))
    if target is not None:
        legend += f"  {glyphs.rule * 2} the target, {target}"
    lines = draw(series, width=width, height=HEIGHT, x_range=(0, n), y_range=(low, high),
                 x_ticks=[(x, str(x)) for x in range(0, n + 1, step)], y_format=lambda y: str(round(y)),
                 rules=rules, y_marks=(0,), glyphs=glyphs)
    return [*textwrap.wrap(legend, width, break_on_hyphens=False), "", *lines, "deals played".center(width).rstrip()]
