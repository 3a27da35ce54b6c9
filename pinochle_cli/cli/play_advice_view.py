"""What ``pinochle play`` prints of an advice and of the review: one short block each, at most 80 columns.

The advice's figures are those of the commands that answer the same question alone — ``hint`` (a card),
``estimate --auction`` (a call), ``pass`` (a pass, a bury) — in fewer lines: the action advised, how sure it
is (the margin over the next, the deals or worlds behind it), its reasons (what the play showed; what a pass
keeps and gives), and the first few alternatives.
"""

from __future__ import annotations

import textwrap

from ..cards import format_cards
from ..ruleset import Ruleset
from ..session.advising import DecisionAdvice
from ..session.postmortem import Review
from .common import tight_table
from .hint_cmd import also_within_noise

__all__ = ["advice_lines", "review_lines"]

WIDTH = 80
# the alternatives shown beside the best
SHOWN = 4


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _pct(p: float | None) -> str:
    return "–" if p is None else f"{100 * p:.0f} %"


def advice_lines(a: DecisionAdvice, rules: Ruleset) -> list[str]:
    """The advice's block."""
    if a.best is None and not a.trumps:
        return _wrap(f"Advice: none ({a.note or 'nothing to advise'}).")
    if a.kind == "card":
        out = _card(a)
    elif a.kind == "call":
        out = _call(a)
    elif a.kind == "trump":
        out = _trump(a)
    elif a.kind in ("pass", "bury"):
        out = _pass(a)
    elif a.kind == "meld":
        assert a.meld is not None and a.best is not None
        parts = ", ".join(f"{m.name} {m.points}" for m in a.meld.melds) or "none"
        out = _wrap(f"Advice: meld — show all of it: {format_cards(a.best.cards) or 'nothing'} = {a.meld.total} "
                    f"({parts}).")
    else:
        out = _wrap(f"Advice: {a.best}.")
    if a.declare is not None:
        out += _wrap(f"  First declare {format_cards(a.declare.cards)} (meld {format_cards(a.declare.cards)}).")
    return out


def _card(a: DecisionAdvice) -> list[str]:
    h = a.hint
    assert a.best is not None
    if h is None:
        return _wrap(f"Advice: play {a.best} ({a.note}).")
    m = h.margin
    n = len(h.worlds)
    how = "exact" if h.exact else f"{n} world{'s' * (n != 1)} of {h.drawn}, seed"
    head = f"Advice ({how}{'' if h.exact else ' ' + str(a.seed)}; {h.seconds:.1f} s): play {h.best}"
    if m is None:
        out = _wrap(head + " — the only card you may play.")
    else:
        sure = "better beyond the noise" if m.clear else "not better beyond the noise"
        out = _wrap(f"{head} — leads {m.second} by {m.mean:.1f} points (95 % {m.low:.1f} to {m.high:.1f}): {sure}.")
    also = also_within_noise(h)
    if also:
        out += _wrap("  " + also)
    if h.cut_short:
        out += _wrap(f"  Cut short by the time after {n} worlds.")
    if not h.reliable:
        out += _wrap(f"  Too few worlds ({n}) to rank the cards reliably.")
    ranked = sorted(h.cards, key=lambda j: -j.points)[:SHOWN]
    rows = [[f"{j.card}{' *' if j.card == h.best else ''}", f"{j.points:.1f}", _pct(j.p_make), f"{j.counters:.1f}",
             f"{j.best_in}/{n}"] for j in ranked]
    table = tight_table(rows, ["card", "points", "P(make)", "counters", "best in"],
                        colalign=("left", "right", "right", "right", "right"))
    out += ["  " + line for line in table.splitlines()]
    said = list(dict.fromkeys(i.says for i in h.inferences))
    if said:
        out += _wrap("  The play showed: " + "; ".join(said[:3]) + ("; …" if len(said) > 3 else "") + ".", "    ")
    return out


def _call(a: DecisionAdvice) -> list[str]:
    got = a.answer
    assert a.best is not None
    if got is None:
        return _wrap(f"Advice: {a.best} ({a.note}).")
    out = _wrap(f"Advice ({a.samples} deals, seed {a.seed}): {a.best}.")
    sure = got.best_by_confidence
    if sure is not None and sure.bid is not None and sure.trump is not None:
        out += _wrap(f"  By confidence: bid up to {sure.bid} in {sure.trump.symbol} {sure.trump.word} (made at least "
                     f"{_pct(got.confidence)} of the time).")
    else:
        out += _wrap(f"  By confidence: pass (no bid is made {_pct(got.confidence)} of the time).")
    best = got.best_by_points
    if best is not None:
        what = "pass" if best.bid is None else f"bid {best.bid}" + (
            f" in {best.trump.symbol} {best.trump.word}" if best.trump is not None else "")
        passing = f"; passing {got.passing.points:+.1f}" if got.passing is not None and got.passing.points is not None \
            else ""
        out += _wrap(f"  By expected points: {what} ({(best.points or 0.0):+.1f}{passing}).")
    if got.estimate is not None:
        suits = "  ".join(f"{s.trump.symbol} {s.recommended_bid or '—'}" for s in got.estimate.suits)
        out += _wrap(f"  Each suit's highest bid made {_pct(got.confidence)} of the time: {suits or 'none'}.")
    return out


def _trump(a: DecisionAdvice) -> list[str]:
    head = f"Advice: {a.best}" if a.best is not None else "Advice:"
    if a.estimate is not None:
        out = _wrap(f"{head} ({a.samples} deals, seed {a.estimate.seed}).")
    else:
        out = _wrap(f"{head} ({a.note}).")
    for o in a.trumps[:SHOWN]:
        chance = "" if o.p_make is None else f": makes the bid {_pct(o.p_make)}, scores {o.score:.0f} on average"
        out += _wrap(f"  {o.suit.symbol} {o.suit.word}: meld {o.meld}, {o.length} cards{chance}", "    ")
    return out


def _pass(a: DecisionAdvice) -> list[str]:
    got = a.passing
    assert got is not None and a.best is not None
    noun = a.kind
    verb = "buries" if noun == "bury" else "sends" if a.best.kind == "give" else "returns"
    deals = got.rounds[-1][1] if got.rounds else 0
    out = _wrap(f"Advice ({got.candidates} {noun}{'es' if noun == 'pass' else 's'}, the best on {deals} deals, "
                f"seed {got.seed}): {a.best}.")
    for i, j in enumerate(got.ranked[:3], 1):
        out += _wrap(f"  {i}. {format_cards(j.cards)}: makes it {_pct(j.p_make)}, {j.points_mean:.1f} points a deal; "
                     f"{j.words.text(verb)}", "     ")
    m = got.margin
    if m is not None and len(got.ranked) > 1:
        verdict = "within the noise" if m.noise else "better beyond the noise"
        out += _wrap(f"  The best leads the next by {m.mean:+.1f} points a deal (95 % {m.ci95[0]:+.1f} to "
                     f"{m.ci95[1]:+.1f}): {verdict}.")
    if a.note:
        out += _wrap(f"  Note: {a.note}.", "    ")
    return out


def review_lines(r: Review, rules: Ruleset, seat: int) -> list[str]:
    """The review's block: the contract under perfect play, then the decisions, the costly first."""
    out = ["Review of your decisions (double-dummy: every hand seen, perfect play after):"]
    if r.perfect is not None and r.first_trick == 1 and r.bid is not None:
        total = r.perfect + r.meld
        made = "makeable" if r.makeable else "not makeable"
        out += _wrap(f"  The contract: {r.perfect} counters + {r.meld} meld = {total} with perfect play: the bid of "
                     f"{r.bid} was {made}.")
    elif r.perfect is not None:
        out += _wrap(f"  Solved from trick {r.first_trick} on (the time ran out before).")
    if not r.rows:
        return [*out, "  No decision of yours to judge."]
    rows = [[_when(j.kind, j.trick), str(j.played), "–" if j.advised is None else str(j.advised), j.best or "–",
             "–" if j.cost is None else f"{j.cost} {'pts' if j.unit == 'points' else 'ctr'}"] for j in r.rows]
    table = tight_table(rows, ["when", "you", "advice", "best", "cost"],
                        colalign=("left", "left", "left", "left", "right"))
    out += ["  " + line[:WIDTH - 2] for line in table.splitlines()]
    costly = sum(1 for j in r.rows if j.cost)
    # each note once, beside the first decision it is about
    notes: dict[str, str] = {}
    for j in r.rows:
        if j.cost is None and j.note and j.note not in notes:
            notes[j.note] = f"{_when(j.kind, j.trick)} {j.played}"
    tail = (f"  {r.judged} decisions: {costly} cost something, {r.fine} cards cost nothing"
            + (f", {r.more} more not shown" if r.more else "") + ".")
    out += _wrap(tail)
    out += [line for note, row in list(notes.items())[:2] for line in _wrap(f"  – {row}: {note}.", "    ")]
    out += _wrap("  cost: pts of the deal's score (yours less theirs'), ctr: counters a card gave up.")
    return out


def _when(kind: str, trick: int) -> str:
    return f"trick {trick}" if kind == "card" else kind
