"""The reasons for the hint's card (``reasons.Reason``): its lead over the next card over the same worlds, the
chance of making the bid with it, what our side takes from here on — the judging's own figures. Nothing is
raised on purpose."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..reasons import Reason, percent

if TYPE_CHECKING:
    from .advice import Hint

__all__ = ["card_reasons"]


def card_reasons(h: Hint) -> tuple[Reason, ...]:
    """One to three reasons for ``h.best``."""
    best = next(j for j in h.cards if j.card == h.best)
    n = len(h.worlds)
    out: list[Reason] = []
    m = h.margin
    if m is None:
        out.append(Reason(f"{h.best} is the only card you may play", 1.0, "legal cards"))
    else:
        out.append(Reason(f"{h.best} scores {m.mean:+.1f} points for our side against {m.second}, the next best, over "
                          f"the same {n} worlds", m.mean, "points", (m.low, m.high)))
    if best.p_make is not None:
        # the same chance whatever is played is no reason for this card: it says the counters decide
        same = len(h.cards) > 1 and all(j.p_make == best.p_make for j in h.cards)
        text = (f"the bid is made {percent(best.p_make)} of the time whatever you play, so the counters decide"
                if same else f"with {h.best} the bid is made {percent(best.p_make)} of the time")
        out.append(Reason(text, best.p_make, "P(make)"))
    out.append(Reason(f"our side takes {best.counters:.1f} in counters from here on", best.counters, "counters"))
    return tuple(out[:3])
