"""The long checks' samples: the default run checks a first part, the long step (``-m exhaustive``) the whole.

``sizes(whole, first)`` parametrizes a test's sample size: ``first`` in ``python -m pytest``, ``whole`` in
``python -m pytest -m exhaustive`` (the same draws from the same seed: the first part is the whole's beginning).
"""

from __future__ import annotations

import pytest


def sizes(whole: int, first: int) -> list[object]:
    """``first`` (the default run) and ``whole`` (marked ``exhaustive``), as ``pytest.param`` values."""
    assert 0 < first < whole
    return [pytest.param(first, id=f"first-{first}"),
            pytest.param(whole, id=f"all-{whole}", marks=pytest.mark.exhaustive)]
