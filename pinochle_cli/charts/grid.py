"""A line chart drawn in characters: series of points on a grid, reference lines, labelled axes.

``draw`` returns the chart's lines, each at most ``width`` characters wide, in the glyphs given
(``SYMBOLS`` for a terminal that prints box-drawing characters, ``LETTERS`` for one that prints
ASCII only). Nothing here knows a game: the callers give the numbers and the labels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["LETTERS", "SYMBOLS", "Glyphs", "Rule", "Series", "draw"]


@dataclass(frozen=True)
class Glyphs:
    """The characters of a chart: axes, ticks, the dots joining points, reference lines, two points in one cell."""

    vertical: str
    horizontal: str
    corner: str
    tick: str
    label_tick: str
    dot: str
    rule: str
    both: str
    # the markers of the series, in order (callers may give their own)
    markers: tuple[str, ...]


SYMBOLS = Glyphs("│", "─", "└", "┬", "┤", "·", "┄", "*", ("●", "▲", "■", "◆", "○", "△"))
LETTERS = Glyphs("|", "-", "+", "+", "+", ".", "-", "*", ("A", "B", "C", "D", "E", "F"))


@dataclass(frozen=True)
class Series:
    marker: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Rule:
    """A horizontal line across the chart at ``y`` (a target, a confidence level), labelled on the axis."""

    y: float
    label: str


@dataclass
class _Frame:
    x0: float
    x1: float
    y0: float
    y1: float
    cols: int
    rows: int

    def col(self, x: float) -> int:
        span = self.x1 - self.x0
        return 0 if span <= 0 else round((x - self.x0) / span * (self.cols - 1))

    def row(self, y: float) -> int:
        span = self.y1 - self.y0
        return self.rows - 1 if span <= 0 else round((self.y1 - y) / span * (self.rows - 1))


def _join(grid: list[list[str]], frame: _Frame, a: tuple[float, float], b: tuple[float, float],
          glyphs: Glyphs) -> None:
    """Dots on the cells between two points, one a column (a steep step also fills its column)."""
    ca, cb = frame.col(a[0]), frame.col(b[0])
    ra, rb = frame.row(a[1]), frame.row(b[1])
    steps = max(abs(cb - ca), abs(rb - ra))
    for i in range(1, steps):
        c = ca + round((cb - ca) * i / steps)
        r = ra + round((rb - ra) * i / steps)
        if grid[r][c] in (" ", glyphs.rule):
            grid[r][c] = glyphs.dot


def _plot(series: Sequence[Series], rules: Sequence[Rule], frame: _Frame, glyphs: Glyphs) -> list[list[str]]:
    grid = [[" "] * frame.cols for _ in range(frame.rows)]
    for rule in rules:
        grid[frame.row(rule.y)] = [glyphs.rule] * frame.cols
    for s in series:
        for a, b in zip(s.points, s.points[1:], strict=False):
            _join(grid, frame, a, b, glyphs)
    placed: dict[tuple[int, int], str] = {}
    for s in series:
        for x, y in s.points:
            cell = (frame.row(y), frame.col(x))
            placed[cell] = s.marker if placed.get(cell, s.marker) == s.marker else glyphs.both
    for (r, c), marker in placed.items():
        grid[r][c] = marker
    return grid


def _y_labels(frame: _Frame, rules: Sequence[Rule], fmt: Callable[[float], str],
              extra: Sequence[float]) -> dict[int, str]:
    """A label for the top and bottom rows, each rule and each of ``extra``; the first given to a row keeps it."""
    labels: dict[int, str] = {}
    for rule in rules:
        labels.setdefault(frame.row(rule.y), rule.label)
    for y in (frame.y1, frame.y0, *extra):
        if frame.y0 <= y <= frame.y1:
            labels.setdefault(frame.row(y), fmt(y))
    return labels


def _x_axis(frame: _Frame, ticks: Sequence[tuple[float, str]], glyphs: Glyphs) -> tuple[str, str]:
    """The axis line with a tick at each labelled x, and the labels under it (a label that would touch the
    one before is left out)."""
    axis = [glyphs.horizontal] * frame.cols
    labels = [" "] * frame.cols
    free = 0
    for x, text in ticks:
        c = frame.col(x)
        # centred under its tick, kept inside the chart at either end
        start = max(0, min(c - (len(text) - 1) // 2, frame.cols - len(text)))
        if start < free:
            continue
        axis[c] = glyphs.tick
        labels[start:start + len(text)] = text
        free = start + len(text) + 1
    return "".join(axis), "".join(labels).rstrip()


def draw(series: Sequence[Series], *, width: int, height: int, x_range: tuple[float, float],
         y_range: tuple[float, float], x_ticks: Sequence[tuple[float, str]], y_format: Callable[[float], str],
         rules: Sequence[Rule] = (), y_marks: Sequence[float] = (), x_marks: Sequence[tuple[float, str]] = (),
         glyphs: Glyphs = SYMBOLS) -> list[str]:
    """The chart's lines: ``height`` rows of the plot, the x axis and its labels; with ``x_marks`` a row
    under them with each mark's character at its x (the later of two in one column is shown)."""
    probe = _Frame(*x_range, *y_range, cols=2, rows=height)
    label_width = max(len(t) for t in _y_labels(probe, rules, y_format, y_marks).values())
    frame = _Frame(*x_range, *y_range, cols=max(2, width - label_width - 2), rows=height)
    labels = _y_labels(frame, rules, y_format, y_marks)
    label_width = max(len(t) for t in labels.values())
    grid = _plot(series, rules, frame, glyphs)
    lines = []
    for r, row in enumerate(grid):
        edge = glyphs.label_tick if r in labels else glyphs.vertical
        lines.append(f"{labels.get(r, ''):>{label_width}} {edge}{''.join(row)}".rstrip())
    axis, under = _x_axis(frame, x_ticks, glyphs)
    lines.append(" " * label_width + " " + glyphs.corner + axis)
    lines.append((" " * (label_width + 2) + under).rstrip())
    if x_marks:
        row = [" "] * frame.cols
        for x, mark in x_marks:
            row[frame.col(x)] = mark
        lines.append((" " * (label_width + 2) + "".join(row)).rstrip())
    return lines
