"""The reasons for the best pass (``reasons.Reason``): its lead over the next played out, the meld it keeps, its
chance of making the bid — words from ``explain.Words`` (the ruleset's combination names) and the advice's
figures. Nothing is raised on purpose."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import format_cards
from ..reasons import Reason, percent
from .explain import Words

if TYPE_CHECKING:
    from .race import Advice

__all__ = ["pass_reasons"]


def pass_reasons(advice: Advice) -> tuple[Reason, ...]:
    """One to three reasons for ``advice.ranked[0]``."""
    q, best = advice.question, advice.ranked[0]
    out: list[Reason] = []
    m = advice.margin
    if m is not None and len(advice.ranked) > 1:
        how = ("played out (the computer's openings, the last tricks solved exactly)" if advice.final is not None
               else "with the computer's play")
        out.append(Reason(f"{how}, it scores {m.mean:+.1f} points a deal against the next best, "
                          f"{format_cards(advice.ranked[1].cards)}", m.mean, "points a deal", m.ci95))
    w = best.words
    if not isinstance(w, Words):
        return tuple(out)
    verb = "keeps" if q.role == "partner" else "keeps back"
    if w.kept:
        out.append(Reason(f"{verb} {', '.join(w.kept)}: {w.kept_meld} meld in the hand that passes",
                          float(w.kept_meld), "meld points"))
    elif w.whole:
        out.append(Reason(f"passes {', '.join(w.whole)} whole; {w.kept_meld} meld stays in the hand that passes",
                          float(w.kept_meld), "meld points"))
    sent = [*w.trumps, *w.tops]
    what = f"sends {format_cards(sent)}: " if sent else ""
    out.append(Reason(f"{what}the bid of {q.bid} is made {percent(best.p_make)} of the time with this pass",
                      best.p_make, "P(make)", best.ci95))
    return tuple(out[:3])
