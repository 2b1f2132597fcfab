"""Input checks and column conversions shared by the analysis modules.

Every error names the parameter and what is allowed, as seaborn does. Nullable columns may come as
pandas masked dtypes or pyarrow-backed (`pd.ArrowDtype`); `numeric` turns either into float64 with
NaN for missing values, so the statistics below never meet ``pd.NA``.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..game.checks import check_level  # shared with run/ (compare's intervals)

__all__ = ["check_frame", "check_choice", "check_level", "check_by", "numeric", "group_items", "check_outcomes", "OUTCOMES"]

OUTCOMES = ("win", "loop", "cutoff")


def check_frame(data, columns: Iterable[str], *, name: str = "data") -> pd.DataFrame:
    """Refuse anything but a DataFrame holding ``columns``."""
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"`{name}` must be a pandas DataFrame, but a {type(data).__name__} was passed.")
    missing = [c for c in columns if c not in data.columns]
    if missing:
        raise ValueError(
            f"`{name}` lacks the column(s) {missing}; it has {list(data.columns)}."
        )
    return data


def check_choice(name: str, value, allowed) -> None:
    if value not in allowed:
        raise ValueError(f"The value for `{name}` must be one of {list(allowed)}, but {value!r} was passed.")


def check_by(data: pd.DataFrame, by) -> list[str]:
    """Grouping columns: None, one name or a sequence of names, each a column of ``data``."""
    if by is None:
        return []
    cols = [by] if isinstance(by, str) else list(by)
    missing = [c for c in cols if c not in data.columns]
    if missing:
        raise ValueError(f"The value for `by` names column(s) {missing} that `data` lacks; it has {list(data.columns)}.")
    return cols


def numeric(series: pd.Series) -> np.ndarray:
    """float64 values of a (possibly nullable or Arrow-backed) column, NaN where missing."""
    return pd.to_numeric(series.astype("Float64"), errors="raise").to_numpy(dtype=float, na_value=np.nan)


def group_items(data: pd.DataFrame, by: list[str]):
    """(key dict, sub-frame) pairs in sorted key order; one pair with an empty key when ``by`` is empty."""
    if not by:
        yield {}, data
        return
    for key, sub in data.groupby(by, observed=True, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        yield dict(zip(by, key)), sub


def check_outcomes(outcomes) -> tuple[str, ...]:
    outcomes = (outcomes,) if isinstance(outcomes, str) else tuple(outcomes)
    for o in outcomes:
        check_choice("outcomes", o, OUTCOMES)
    if not outcomes:
        raise ValueError(f"The value for `outcomes` must name at least one of {list(OUTCOMES)}.")
    return outcomes
