"""The numpy array types that the batch code (meld tables, the estimator, the compiled player) shares."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["BoolArray", "F32Array", "IntArray", "U32Array"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
F32Array = npt.NDArray[np.float32]
U32Array = npt.NDArray[np.uint32]
