"""What ``pinochle pass`` shows of an advice, a pass's or a bury's: the ranked table, the rounds of the race, the
margin of the best; and the run that asks it, with the workers' notice and the progress line."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import click

from ..cards import format_cards
from ..passing.bury import BuryAdvice
from ..passing.race import Advice, Difference, Judged, Raced
from ..workers import workers_for
from .common import emit_json, narrow, table, tight_table, words
from .progress import Progress

__all__ = ["conditions_line", "final_line", "margin_line", "pct", "ranking_table", "rounds_line", "rows", "run_advice"]

A = TypeVar("A", Advice, BuryAdvice)


def run_advice(ask: Callable[[int, Progress], A], workers: int | None, as_json: bool,
               human: Callable[[A], None]) -> None:
    """``ask(workers, progress)`` with the workers' notice and a progress line, then the answer as JSON or
    ``human``."""
    count, notice = workers_for(workers)
    if notice:
        click.echo(f"Note: {words(notice)}.", err=True)
    progress = Progress("games")
    try:
        advice = ask(count, progress)
    finally:
        progress.close()
    if as_json:
        emit_json(advice.to_json())
    else:
        human(advice)


def pct(p: float) -> str:
    return f"{100 * p:.1f} %"


def _points(d: Difference) -> str:
    """A difference of P(make) in percentage points, signed."""
    return f"{100 * d.mean:+.1f}"


def rows(advice: Advice | BuryAdvice) -> list[list[str]]:
    rows = []
    for i, j in enumerate(advice.ranked, 1):
        rows.append(_row(str(i), j))
    if advice.heuristic_rank is None or advice.heuristic_rank > len(advice.ranked):
        rows.append(_row("h", advice.heuristic))
    return rows


def _row(label: str, j: Judged) -> list[str]:
    return [label, format_cards(j.cards) + (" (h)" if j.heuristic else ""), f"{j.points_mean:.1f}",
            pct(j.p_make), f"{pct(j.ci95[0])} – {pct(j.ci95[1])}", _points(j.change), f"{j.meld_mean:.1f}",
            f"{j.counters_mean:.1f}"]


def rounds_line(advice: Advice | BuryAdvice) -> str:
    parts = []
    for n, deals in advice.rounds:
        parts.append(f"{'all' if n == advice.candidates else f'the best {n}'} on {deals}")
    return ", ".join(parts)


def margin_line(advice: Advice | BuryAdvice, noun: str = "pass") -> str:
    best = advice.ranked[0]
    line = (f"Best {noun}: {format_cards(best.cards)}, makes {advice.question.bid} {round(100 * best.p_make)} times "
            f"in 100")
    m, p = advice.margin, advice.p_make_margin
    if m is None or p is None or len(advice.ranked) < 2:
        return line + f" (the only {noun})."
    line += (f"; ahead of the next ({format_cards(advice.ranked[1].cards)}) by {m.mean:+.1f} points a deal "
             f"(95 % interval {m.ci95[0]:+.1f} – {m.ci95[1]:+.1f}; P(make) {_points(p)}, "
             f"{100 * p.ci95[0]:+.1f} – {100 * p.ci95[1]:+.1f})")
    return line + (": these two are within the noise." if m.noise else ".")


def final_line(advice: Advice) -> str:
    """How the final round ranked the best of the race."""
    f = advice.final
    assert f is not None
    moved = "the same best pass as the heuristic players' first" if not f.changed else (
        f"the heuristic players had it {f.race_rank[0]}")
    cut = (f"; {f.deals} of {f.planned} deals, cut to answer within {f.seconds:g} s (so the deals depend on the "
           "machine's pace)") if f.cut and f.seconds is not None else ""
    return (f"Final ranking: the best {len(f.order)} played out on {f.deals} more deals (the computer's openings, "
            f"the last {f.solved_tricks} tricks solved exactly{cut}): {moved}.")


def conditions_line(advice: Raced, given: Sequence[object]) -> str | None:
    """``conditions: left: meld >= 50 (met by 33.7 % of the deals drawn)``, None without conditions."""
    if not given:
        return None
    share = "" if advice.acceptance is None else f" (met by {pct(advice.acceptance)} of the deals drawn)"
    return f"conditions: {'; '.join(str(g) for g in given)}{share}"


def ranking_table(advice: Advice | BuryAdvice, noun: str) -> str:
    """The ranked candidates (each named a ``noun``), the heuristic's below when it is not among them; on a narrow
    terminal without the meld and counters, the headers on two lines (fits 60 columns)."""
    if narrow():
        shown = [[r[0], r[1], r[2], r[3], r[4].replace(" % – ", "–").replace(" %", ""), r[5]] for r in rows(advice)]
        return tight_table(shown, ["rank", noun, "points", f"P(make\n{advice.question.bid})", "95 %\ninterval",
                                  "change"], colalign=("left", "left", "right", "right", "right", "right"),
                           numparse=False)
    return table(rows(advice), headers=["rank", noun, "points", f"P(make {advice.question.bid})", "95 % interval",
                                        "change", "meld", "counters"],
                 colalign=("left", "left", "right", "right", "right", "right", "right", "right"), disable_numparse=True)
