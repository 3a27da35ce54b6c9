"""``pinochle estimate`` in an auction (--given, --auction, --dealer, --as, --by): parse, call, format."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from ..cards import Hand, Suit, format_cards
from ..estimate.checks import check_rules
from ..estimate.conditions import Given
from ..estimate.question import Answer, CallWorth, answer
from ..estimate.seated import SideEstimate
from ..ruleset import Ruleset, load_conventions
from ..workers import workers_for
from .common import emit_json, fitted, heading, narrow, table, tight_table, why_lines, words
from .estimate_view import pct, show_estimate

# without --ladder, the partner's ladder shows the bids made at least this often
SHOWN_FROM = 0.25


@dataclass(frozen=True)
class AuctionOptions:
    """The options of an auction question, as given."""

    given: tuple[str, ...]
    calls: str | None
    dealer: str | None
    conventions: str | None
    view: str
    by: str


def run(rules: Ruleset, hand: Hand, trump: Suit | None, q: AuctionOptions, *, samples: int, seed: int | None,
        workers: int | None, precision: float | None, confidence: float, ladder: bool, play: str, as_json: bool,
        progress: Any) -> None:
    """Check the options together, answer, print."""
    if play != "heuristic":
        raise click.UsageError("--play double-dummy does not combine with --given, --auction, --as or --by")
    if q.calls is None and (q.dealer is not None or q.conventions is not None):
        raise click.UsageError(f"{'--dealer' if q.dealer is not None else '--conventions'} needs --auction")
    if q.calls is not None and q.dealer is None:
        raise click.UsageError("--auction needs --dealer (who dealt: me, left, partner or right)")
    if q.view == "partner" and precision is not None:
        raise click.UsageError("--precision does not combine with --as partner: give the number of deals with "
                               "--samples")
    # a game without an auction has no bid to estimate, as whichever player (said as the plain estimate says it)
    check_rules(rules)
    givens = [Given.parse(text) for text in q.given]
    conventions = load_conventions(q.conventions) if q.conventions is not None else None
    count, notice = workers_for(workers)
    if notice:
        click.echo(f"Note: {words(notice)}.", err=True)
    try:
        result = answer(rules, hand, view=q.view, by=q.by, trump=trump, given=givens, calls=q.calls, dealer=q.dealer,
                        conventions=conventions, samples=samples, seed=seed, workers=count, precision=precision,
                        confidence=confidence, progress=progress)
    finally:
        progress.close()
    if as_json:
        emit_json(result.to_json())
    else:
        _human(result, rules, hand, confidence, ladder)


def _points(p: float | None) -> str:
    return "" if p is None else f"{p:+.1f}"


def _call(c: CallWorth | None, verb: str) -> str:
    if c is None or c.bid is None:
        return "pass"
    return f"{verb} {c.bid}" + ("" if c.trump is None else f" in {c.trump.symbol} {c.trump.word}")


def _human(a: Answer, rules: Ruleset, hand: Hand, confidence: float, ladder: bool) -> None:
    if a.estimate is not None:
        # one recommendation, and its reasons: the auction's, below
        show_estimate(a.estimate, rules, confidence, ladder, advice=False)
    else:
        assert a.side is not None
        _side(a.side, rules, hand, a.smallest, ladder)
    click.echo("")
    for line in _auction_lines(a):
        click.echo(fitted(line))
    why_lines(a.reasons)


def _side(side: SideEstimate, rules: Ruleset, hand: Hand, smallest: int, ladder: bool) -> None:
    click.echo(fitted(f"{heading(rules)}: {format_cards(hand)} (the bidder's partner)"))
    named = ", ".join(f"{'none' if s is None else s.symbol + ' ' + s.word} {pct(p)}" for s, p in side.named.items())
    click.echo(fitted(f"{side.samples} sampled deals, seed {side.seed}; partner bids and names trump: {named}"))
    click.echo("")
    shown = [c for c in side.bids if ladder or (c.bid >= smallest and c.p_make >= SHOWN_FROM)]
    if narrow():
        # fits 60 columns: the headers on two lines, the interval without its spaces
        click.echo(tight_table([[str(c.bid), pct(c.p_make), f"{100 * c.ci95[0]:.1f}–{100 * c.ci95[1]:.1f}",
                                 _points(c.points)] for c in shown],
                               ["partner\nplays at", "P(make)", "95 %\ninterval", "exp.\npoints"],
                               colalign=("right", "right", "right", "right"), numparse=False))
        return
    rows = [[str(c.bid), pct(c.p_make), f"{pct(c.ci95[0])} – {pct(c.ci95[1])}", _points(c.points)] for c in shown]
    click.echo(table(rows, headers=["partner plays at", "P(make)", "95 % interval", "exp. points"],
                     colalign=("right", "right", "right", "right"), disable_numparse=True))


def _auction_lines(a: Answer) -> list[str]:
    out = []
    if a.auction is not None:
        calls = "; ".join(str(c) for c in a.auction.calls) or "no calls yet"
        out.append(f"Auction: {calls}. Your call: pass, or bid {a.smallest} or more.")
    conditions, acceptance = _conditions(a)
    if conditions:
        share = "" if acceptance is None else f" (met by {pct(acceptance)} of the deals drawn)"
        out.append(f"Conditions: {'; '.join(conditions)}{share}")
    out.append("Expected points: our side's score minus theirs, when we play at the bid (made or set)")
    if a.passing is not None and a.auction is not None:
        out.append(f"  pass: {a.auction.high_seat} plays {a.auction.high}: {_points(a.passing.points)}")
    if a.estimate is not None:
        for s in a.estimate.suits:
            first = next((c for c in s.bids if c.bid >= a.smallest), None)
            upto = "no bid" if s.points_bid is None else f"up to {s.points_bid}"
            versus = "passing" if a.passing is not None else "nothing (0)"
            out.append(f"  {s.trump.symbol} {s.trump.word}: {'—' if first is None else first.bid} "
                       f"{_points(None if first is None else first.points)}; worth more than {versus}: {upto}")
    best = a.best_by_points
    worth = "" if best is None else f" ({_points(best.points)}" + (
        f"; pass {_points(a.passing.points)})" if a.passing is not None and best.bid is not None else ")")
    out.append(f"By expected points: {_call(best, 'bid')}{worth}")
    out.append(f"By confidence: {_call(a.best_by_confidence, 'bid up to')} (the highest bid made at least "
               f"{pct(a.confidence)} of the time)")
    out.append(f"Recommended (by {a.by}): "
               f"{_call(a.recommended, 'bid' if a.by == 'points' else 'bid up to')}")
    return out


def _conditions(a: Answer) -> tuple[tuple[str, ...], float | None]:
    if a.estimate is not None:
        return a.estimate.conditions, a.estimate.acceptance
    assert a.side is not None
    return a.conditions, a.side.acceptance
