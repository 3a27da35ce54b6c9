"""``estimate --play double-dummy``: the cost notice and the tables comparing heuristic and perfect play."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .common import fitted, narrow, table, tight_table
from .progress import duration

if TYPE_CHECKING:
    from ..estimate.double_dummy import BidPair, Cost, PerfectPlay, SuitComparison


# fewer timed solves than this: the extrapolation says it is likely short
FEW_TIMED = 10
# a run projected longer than this (wall seconds) is told the --samples that fit in it
PRACTICAL = 600.0


def _per_solve(seconds: float) -> str:
    return f"{1000 * seconds:.1f} ms" if seconds < 1 else f"{seconds:.1f} s"


def _span(cost: Cost) -> str:
    if cost.exact_from == 1:
        return f"Perfect play over all {cost.tricks} tricks"
    return (f"Perfect play from trick {cost.exact_from} of {cost.tricks} ({cost.tricks - cost.exact_from + 1} "
            f"tricks solved per deal)")


def _two_digits(n: int) -> int:
    """``n`` rounded down to two significant digits (187 -> 180)."""
    unit = int(10 ** max(len(str(n)) - 2, 0))
    return n // unit * unit


def _smaller(cost: Cost) -> str:
    """" (--samples N: about 10 min)" when the run is projected past ``PRACTICAL`` and fewer deals fit in it."""
    deals = cost.solves // max(cost.suits, 1)
    longest = max(cost.seconds_left, cost.seconds_left_high or 0.0)
    fit = _two_digits(cost.deals_within(PRACTICAL))
    if longest <= PRACTICAL or not 1 <= fit < deals:
        return ""
    return f" (--samples {fit}: {duration(PRACTICAL)})"


def cost_notice(cost: Cost) -> str:
    """What the run will cost, measured on its first solves (for stderr, before the bulk of the work)."""
    workers = f"{cost.workers} worker{'s' if cost.workers != 1 else ''}"
    left = cost.solves - cost.probed
    more = (f"{duration(cost.seconds_left)} more on {workers}" if left else "nothing more to solve")
    high = cost.seconds_left_high
    # the tail: the high end of the mean's interval, from the spread of the times
    if left and high is not None and duration(high) != duration(cost.seconds_left):
        more += f", up to {duration(high).removeprefix('about ')}"
    # a few deals take far longer than most: a small sample falls short
    if left and cost.probed < FEW_TIMED:
        more += ", likely more (few solves timed)"
    return (f"{_span(cost)}: {cost.solves:,} solves (deals × suits). The first {cost.probed:,} took "
            f"{_per_solve(cost.per_solve)} of CPU each: {more}. Solve times vary widely from deal to deal: "
            f"a rough guide. Ctrl-C stops; fewer --samples or a later --exact-from costs less{_smaller(cost)}.")


def _pct(p: float) -> str:
    return f"{100 * p:.1f} %"


def _points(difference: float) -> str:
    return "0.0" if difference == 0 else f"{100 * difference:+.1f}"


def _bid(bid: int | None) -> str:
    return "none" if bid is None else str(bid)


def _summary(result: PerfectPlay) -> str:
    if narrow():
        # fits 60 columns: the best suit marked beside its symbol, the headers on two lines
        cells = [[s.trump.symbol + (" *" if s.trump == result.best else ""), f"{s.heuristic.counters_mean:.1f}",
                  f"{s.perfect.counters_mean:.1f}", _bid(s.heuristic.recommended_bid), _bid(s.perfect.recommended_bid)]
                 for s in result.suits]
        return tight_table(cells, ["trump", "counters\nheuristic", "counters\nperfect", "bid\nheuristic",
                                   "bid\nperfect"], colalign=("left", "right", "right", "right", "right"),
                           numparse=False)
    rows = [["*" if s.trump == result.best else "", f"{s.trump.symbol} {s.trump.word}",
             f"{s.heuristic.counters_mean:.1f}", f"{s.perfect.counters_mean:.1f}",
             _bid(s.heuristic.recommended_bid), _bid(s.perfect.recommended_bid)] for s in result.suits]
    return table(rows, headers=["best", "trump", "counters: heuristic", "perfect", "bid: heuristic", "perfect"],
                 colalign=("left", "left", "right", "right", "right", "right"), disable_numparse=True)


def _groups(bids: tuple[BidPair, ...]) -> list[list[BidPair]]:
    """Runs of bids made in exactly the same number of deals by both models: one row each."""
    groups: list[list[BidPair]] = []
    for b in bids:
        last = groups[-1][-1] if groups else None
        if last is not None and (last.heuristic.made, last.perfect.made) == (b.heuristic.made, b.perfect.made):
            groups[-1].append(b)
        else:
            groups.append([b])
    return groups


def _suit_table(s: SuitComparison) -> str:
    rows = []
    for group in _groups(s.bids):
        first = group[0]
        label = str(first.bid) if len(group) == 1 else f"{first.bid}–{group[-1].bid}"
        rows.append([label, _pct(first.heuristic.p_make), _pct(first.perfect.p_make), _points(first.difference)])
    return table(rows, headers=["bid", "heuristic", "perfect", "difference"],
                 colalign=("right", "right", "right", "right"), disable_numparse=True)


def show(result: PerfectPlay) -> None:
    """The comparison, after the heuristic estimate's own tables."""
    if not result.suits:
        return
    click.echo("")
    if result.exact_from == 1:
        click.echo(fitted(f"Perfect play (double-dummy: every hand seen, both sides perfect) in every trick, on the "
                          f"same {result.samples} deals:"))
    else:
        click.echo(fitted(f"Perfect play (double-dummy: every hand seen, both sides perfect) from trick "
                          f"{result.exact_from} of {result.tricks}, on the same {result.samples} deals"))
        click.echo(fitted(f"(tricks 1–{result.exact_from - 1} as the heuristic plays them):"))
    click.echo(_summary(result))
    click.echo(fitted("counters: the bidding side's mean; bid: the recommended bid under each play model; "
                      "* best with perfect play"))
    for s in result.suits:
        click.echo("")
        click.echo(fitted(f"Trump {s.trump.symbol} {s.trump.word}: P(make) by play model (difference: perfect minus "
                          "heuristic, in percentage points)"))
        click.echo(_suit_table(s))
