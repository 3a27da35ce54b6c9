"""``pinochle estimate``'s answer in words: the trumps side by side, the advice, and each trump's ladder of bids."""

from __future__ import annotations

import click

from ..cards import Suit, format_cards
from ..estimate.checks import MAX_SAMPLES
from ..estimate.results import BidChance, ChoiceEstimate, Estimate, SuitEstimate
from ..estimate.why import estimate_reasons
from ..meld import meld_by_trump
from ..ruleset import Ruleset
from .common import fitted, heading, narrow, table, tight_table, why_lines

__all__ = ["SAFE_BID", "no_trump_note", "pct", "show_estimate"]


def pct(p: float) -> str:
    """A probability in per cent, one decimal: ``97.5 %``."""
    return f"{100 * p:.1f} %"


def no_trump_note(rules: Ruleset) -> str:
    why = (f"naming a suit takes the {rules.trump_requirement()}" if rules.trump_needs
           else "no suit may be named")
    outcome = rules.scoring.no_trump
    then = f"; the bidding side scores {outcome.bidders.replace('-', ' ')}" if outcome is not None else ""
    return f"No suit may be named as trump with this hand ({why}){then}."


# bids at least this safe at the bottom of the ladder share one row
SAFE_BID = 0.995


def _interval(lo: float, hi: float) -> str:
    return f"{pct(lo)} – {pct(hi)}"


def _bid_groups(s: SuitEstimate | ChoiceEstimate) -> list[tuple[list[BidChance], bool]]:
    """The ladder in rows: (bids, sure). The bottom run at P(make) >= SAFE_BID is one row, and so is
    any run of bids made in exactly the same deals; the recommended bid always has its own row."""
    rec = s.recommended_bid
    bids = list(s.bids)
    groups: list[tuple[list[BidChance], bool]] = []
    i = 0
    while i < len(bids) and bids[i].p_make >= SAFE_BID and bids[i].bid != rec:
        i += 1
    if i >= 2:
        groups.append((bids[:i], True))
    else:
        i = 0
    while i < len(bids):
        j = i + 1
        if bids[i].bid != rec:
            while j < len(bids) and bids[j].made == bids[i].made and bids[j].bid != rec:
                j += 1
        groups.append((bids[i:j], False))
        i = j
    return groups


def _suit_table(s: SuitEstimate | ChoiceEstimate) -> str:
    rows = []
    for group, sure in _bid_groups(s):
        first, last = group[0], group[-1]
        label = str(first.bid) if len(group) == 1 else f"{first.bid}–{last.bid}"
        chance = f"≥ {pct(SAFE_BID)}" if sure else pct(first.p_make)
        lo, hi = min(c.ci95[0] for c in group), max(c.ci95[1] for c in group)
        advice = "← bid up to here" if s.recommended_bid is not None and first.bid == s.recommended_bid else ""
        rows.append([label, chance, _interval(lo, hi), advice])
    return table(rows, headers=["bid", "P(make)", "95 % interval", "advice"],
                 colalign=("right", "right", "right", "left"), disable_numparse=True)


def _recommended(s: SuitEstimate | ChoiceEstimate) -> BidChance | None:
    return next((c for c in s.bids if c.bid == s.recommended_bid), None)


def _summary_table(result: Estimate, in_hand: dict[Suit, int]) -> str:
    if narrow():
        return _narrow_summary(result, in_hand)
    rows = []
    for s in result.suits:
        rec = _recommended(s)
        rows.append(["*" if s.trump == result.best else "", f"{s.trump.symbol} {s.trump.word}", str(in_hand[s.trump]),
                     f"{s.meld_mean:.1f}", f"{s.counters_mean:.1f}", f"{s.score_mean:.1f}",
                     "none" if rec is None else str(rec.bid), "" if rec is None else pct(rec.p_make),
                     "" if rec is None else _interval(*rec.ci95)])
    return table(rows, headers=["best", "trump", "meld in hand", "side's meld", "counters", "score", "bid",
                                "P(make)", "95 % interval"],
                 colalign=("left", "left", "right", "right", "right", "right", "right", "right", "right"),
                 disable_numparse=True)


def _narrow_summary(result: Estimate, in_hand: dict[Suit, int]) -> str:
    """The summary on a narrow terminal (fits 60 columns): the best suit marked beside its symbol, the headers on
    two lines, the interval without its spaces, the score (meld + counters) left out."""
    rows = []
    for s in result.suits:
        rec = _recommended(s)
        rows.append([s.trump.symbol + (" *" if s.trump == result.best else ""), str(in_hand[s.trump]),
                     f"{s.meld_mean:.1f}", f"{s.counters_mean:.1f}", "none" if rec is None else str(rec.bid),
                     "" if rec is None else pct(rec.p_make),
                     "" if rec is None else f"{100 * rec.ci95[0]:.1f}–{100 * rec.ci95[1]:.1f}"])
    return tight_table(rows, ["trump", "meld\nin hand", "side's\nmeld", "counters", "bid", "P(make)", "95 %\ninterval"],
                       colalign=("left", "right", "right", "right", "right", "right", "right"), numparse=False)


def _best_line(best: SuitEstimate | ChoiceEstimate) -> str:
    """The advice in words: the suit (or the suit chosen after the widow), the bid, and how often that bid was
    made."""
    rec = _recommended(best)
    line = (f"Best suit (*): {best.trump.symbol} {best.trump.word}" if isinstance(best, SuitEstimate)
            else "Best suit chosen after seeing the widow")
    if rec is None:
        return line + ": no bid was made often enough"
    return (line + f", bid up to {rec.bid}: made {round(100 * rec.p_make)} times in 100 "
            f"(95 % interval {_interval(*rec.ci95)})")


def show_estimate(result: Estimate, rules: Ruleset, confidence: float, ladder: bool, *, advice: bool = True) -> None:
    """The estimate in words on stdout; ``ladder``: each trump's bids too; ``advice``: the best suit's line and its
    reasons (an auction's answer gives its own recommendation instead)."""
    click.echo(fitted(f"{heading(rules)}: {format_cards(result.hand)}"))
    if not result.suits:
        click.echo(no_trump_note(rules))
        return
    click.echo(fitted(f"{result.samples} sampled deals, seed {result.seed}"
               + ("" if result.pass_policy == "heuristic" else f", {result.pass_policy} pass")
               + ("" if result.precision is None else
                  f", precision ±{result.precision}" + ("" if result.precision_reached else
                                                         f" not reached (stopped at {MAX_SAMPLES})"))))
    click.echo("")
    in_hand = {s: r.total for s, r in meld_by_trump(rules, result.hand).items()}
    click.echo(_summary_table(result, in_hand))
    means = "side's meld, counters" + ("" if narrow() else ", score")
    if result.widow:
        click.echo(fitted(f"meld in hand: before the widow; {means}: means of the bidding side with the widow and "
                          "the bury"))
    else:
        click.echo(fitted(f"meld in hand: before the pass; {means}: means of the bidding side after it"))
    click.echo(fitted(f"bid: the highest made at least {pct(confidence)} of the time"))
    assert result.best is not None
    best = next(s for s in result.suits if s.trump == result.best)
    if advice:
        click.echo(fitted(_best_line(best)))
        if result.after_widow is not None:
            click.echo(fitted(_best_line(result.after_widow)))
        why_lines(estimate_reasons(result))
    if not ladder:
        return
    for s in result.suits:
        click.echo("")
        rec = "none" if s.recommended_bid is None else str(s.recommended_bid)
        click.echo(f"Trump {s.trump.symbol} {s.trump.word}{' (best)' if s is best else ''}: recommended bid {rec}")
        click.echo(_suit_table(s))
    if result.after_widow is not None:
        click.echo("")
        rec = "none" if result.after_widow.recommended_bid is None else str(result.after_widow.recommended_bid)
        click.echo(f"Trump chosen after seeing the widow: recommended bid {rec}")
        click.echo(_suit_table(result.after_widow))
