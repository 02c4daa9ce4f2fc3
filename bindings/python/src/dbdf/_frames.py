"""Frames in Python: a pandas.DataFrame when pandas is installed, a dict of 1-D ndarrays otherwise."""

from __future__ import annotations

import importlib

import numpy as np


def pandas_module():
    """The pandas module, or None when it is not installed."""
    try:
        return importlib.import_module("pandas")
    except ImportError:
        return None


def frame_result(columns: dict[str, np.ndarray]):
    pandas = pandas_module()
    if pandas is None:
        return columns
    return pandas.DataFrame(columns, copy=False)


def is_frame(obj) -> bool:
    if isinstance(obj, dict):
        return True
    pandas = pandas_module()
    return pandas is not None and isinstance(obj, pandas.DataFrame)


def frame_columns(obj) -> dict[str, np.ndarray]:
    """{label: 1-D ndarray} from a dict of columns or a DataFrame; every column has the same length."""
    items = obj.items()
    columns = {}
    for label, values in items:
        if not isinstance(label, str):
            raise TypeError(f"frame column labels must be str, not {type(label).__name__} ({label!r})")
        array = values.to_numpy() if hasattr(values, "to_numpy") else np.asarray(values)
        if array.ndim != 1:
            raise ValueError(f"frame column {label!r} is {array.ndim}-dimensional; columns are 1-D")
        columns[label] = array
    lengths = {array.shape[0] for array in columns.values()}
    if len(lengths) > 1:
        raise ValueError(f"frame columns have different lengths: {sorted(lengths)}")
    return columns
