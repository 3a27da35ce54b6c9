"""The numpy array types that the batch code (meld tables, the estimator's players) shares."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["BoolArray", "IntArray"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
