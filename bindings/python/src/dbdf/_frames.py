"""Frames in Python: a pandas.DataFrame when pandas is installed, a dict of 1-D ndarrays otherwise."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np


def pandas_module() -> ModuleType | None:
    """The pandas module, or None when it is not installed."""
    try:
        return importlib.import_module("pandas")
    except ImportError:
        return None


def frame_result(columns: dict[str, np.ndarray[Any, Any]]) -> Any:
    pandas = pandas_module()
    if pandas is None:
        return columns
    return pandas.DataFrame(columns, copy=False)


def is_frame(obj: object) -> bool:
    if isinstance(obj, dict):
        return True
    pandas = pandas_module()
    return pandas is not None and isinstance(obj, pandas.DataFrame)


def frame_columns(obj: Any) -> list[tuple[str, np.ndarray[Any, Any]]]:
    """(label, 1-D ndarray) pairs from a dict of columns or a DataFrame, in column order; every column has the
    same length. A list, not a dict: a DataFrame may repeat a label, which the writer must see to refuse it."""
    columns: list[tuple[str, np.ndarray[Any, Any]]] = []
    for label, values in obj.items():
        if not isinstance(label, str):
            raise TypeError(f"frame column labels must be str, not {type(label).__name__} ({label!r})")
        array = values.to_numpy() if hasattr(values, "to_numpy") else np.asarray(values)
        if array.ndim != 1:
            raise ValueError(f"frame column {label!r} is {array.ndim}-dimensional; columns are 1-D")
        columns.append((label, array))
    lengths = {array.shape[0] for _, array in columns}
    if len(lengths) > 1:
        raise ValueError(f"frame columns have different lengths: {sorted(lengths)}")
    return columns
