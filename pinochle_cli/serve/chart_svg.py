"""The running totals as an SVG drawing (server-rendered: no script draws it): a line per side or player from
0 through each deal toward the target, the target dashed across."""

from __future__ import annotations

from html import escape

from ..records import MatchRecord

__all__ = ["COLOURS", "totals_svg"]

# one colour per side or player, told apart also by the dash of the line
COLOURS = ("#1f6fd1", "#d1431f", "#2b9a3e", "#8a3fd1", "#b8860b", "#555555")
DASHES = ("", "6 3", "2 3", "8 2 2 2", "4 4", "1 2")
W, H, LEFT, RIGHT, TOP, BOTTOM = 600, 300, 52, 12, 14, 30


def _scale(lo: float, hi: float, a: float, b: float) -> tuple[float, float]:
    k = (b - a) / (hi - lo) if hi != lo else 0.0
    return k, a - k * lo


def totals_svg(record: MatchRecord) -> str:
    """The drawing, ``<svg>`` to put in the page (scales to its box; text in the page's font)."""
    n = len(record.deals)
    runs = [[0, *(d.standing.totals[i] for d in record.deals)] for i in range(len(record.sides))]
    target = record.rules.match.target
    every = [v for run in runs for v in run] + ([target] if target is not None else [])
    lo, hi = min(0, *every), max(1, *every)
    kx, cx = _scale(0, max(n, 1), LEFT, W - RIGHT)
    ky, cy = _scale(lo, hi, H - BOTTOM, TOP)
    parts = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" aria-label="running totals">',
             f'<line x1="{LEFT}" y1="{cy:.1f}" x2="{W - RIGHT}" y2="{cy:.1f}" class="zero"/>']
    for value in sorted({lo, hi, 0, *([target] if target is not None else [])}):
        y = ky * value + cy
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{value}</text>')
    if target is not None:
        y = ky * target + cy
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}" class="target"/>')
    step = max(1, -(-n // 12))
    for x in range(0, n + 1, step):
        parts.append(f'<text x="{kx * x + cx:.1f}" y="{H - 10}" text-anchor="middle">{x}</text>')
    for i, (name, run) in enumerate(zip(record.sides, runs, strict=True)):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        points = " ".join(f"{kx * x + cx:.1f},{ky * v + cy:.1f}" for x, v in enumerate(run))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="3"'
                     + (f' stroke-dasharray="{dash}"' if dash else "") + f'><title>{escape(name)}</title></polyline>')
        x, v = len(run) - 1, run[-1]
        parts.append(f'<circle cx="{kx * x + cx:.1f}" cy="{ky * v + cy:.1f}" r="5" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)
