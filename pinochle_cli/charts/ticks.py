"""Where an axis gets its labels: every ``step``, the step the smallest round number that leaves room."""

from __future__ import annotations

__all__ = ["step_for"]


def step_for(span: float, room: int, label: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... whose labels (``label`` characters and a space each) fit
    in ``room`` columns over ``span``."""
    step, scale = 1, 1
    while True:
        for mult in (1, 2, 5):
            step = mult * scale
            if (span / step + 1) * (label + 1) <= room:
                return step
        scale *= 10
