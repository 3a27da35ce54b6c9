"""Why a recommendation: one to three reasons in the player's words, each resting on a figure of the same run.

A ``Reason`` is a sentence and the number it rests on (with its 95 % interval where the run gives one).
The sentences are put together from the ruleset's own words (combination names, the pass rule) and the
engines' numbers by the functions that make them (``estimate.question``, ``passing.race``,
``hint.advice``); none is written for a particular hand. Nothing is raised on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Reason", "percent", "signed"]


@dataclass(frozen=True)
class Reason:
    """``text``: the reason in words; ``figure``: the number it rests on, in ``unit``; ``ci95``: its interval."""

    text: str
    figure: float
    unit: str
    ci95: tuple[float, float] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "figure": round(self.figure, 4), "unit": self.unit,
                "ci95": None if self.ci95 is None else [round(self.ci95[0], 4), round(self.ci95[1], 4)]}


def percent(p: float) -> str:
    return f"{100 * p:.0f} %"


def signed(x: float) -> str:
    return f"{x:+.1f}"
