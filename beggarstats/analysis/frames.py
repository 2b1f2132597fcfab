"""What a games frame or a per-seat frame must be before a statistic is computed from it.

`check_games` is called first by every analysis function that takes the frames of `simulate`
(one row per game, or one row per game and seat with ``per_seat=True``) and refuses, with a
sentence naming the column and the first bad row, what would otherwise come back as a wrong
number: negative or missing lengths (which were dropped silently or gave thresholds of -1098),
outcomes or seats that do not exist, ids that are not game ids, a per-seat ``won`` that is not a
flag, and - where the function reports one table (`overview`) - rows of several tables mixed. A
`Summary` passed to a function that has no twin for it is a TypeError saying where its answer is.

Only the columns present are checked (each function checks for those it needs); nullable loop
figures may be missing, the lengths ``cards`` and ``tricks`` never.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

__all__ = ["check_games", "COUNT_COLUMNS"]

OUTCOMES = ("win", "loop", "cutoff")
MATCH_OUTCOMES = ("win", "draw", "unfinished")  # the frames of simulate_matches go through seat_win_rates
#: Whole, non-negative numbers that are never missing (lengths, ids, the dealt hand).
COUNT_COLUMNS = ("game", "players", "seat", "cards", "tricks", "hand_size", "jacks", "queens", "kings", "aces",
                 "jokers", "tribute_total", "min_cards")
#: Whole, non-negative numbers that may be missing (the loop figures, a seat's place).
NULLABLE_COUNTS = ("loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards", "out_cards", "place")


def _values(data: pd.DataFrame, column: str, name: str) -> np.ndarray:
    col = data[column]
    if col.dtype == object:  # numbers and None (a frame built by hand): numbers if every value is one
        try:
            col = pd.to_numeric(col)
        except (TypeError, ValueError):
            pass
    if not (pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype)):
        raise ValueError(f"The column `{column}` of `{name}` must hold numbers, but its dtype is {col.dtype}.")
    return col.to_numpy(dtype=float, na_value=np.nan)


def _first(mask: np.ndarray, data: pd.DataFrame) -> str:
    i = int(np.flatnonzero(mask)[0])
    return f"row {data.index[i]!r}" + (f" (game {data['game'].iloc[i]})" if "game" in data.columns else "")


def check_games(data, *, name: str = "data", one_table: bool = False) -> pd.DataFrame:
    """Refuse a frame that is not the games (or per-seat) frame of `simulate`; returns it.

    Parameters
    ----------
    data : DataFrame
        One row per game, or per game and seat.
    name : str
        The parameter, as errors name it.
    one_table : bool
        Also refuse rows of more than one table (several ``players`` or ``rules`` values), for
        functions that report a single table.

    Raises
    ------
    TypeError
        ``data`` is not a DataFrame (a `Summary`: the error says which functions answer one).
    ValueError
        A column of the wrong kind, a negative, missing or fractional count, an unknown outcome,
        a seat or winner outside the table, or several tables where one is reported.
    """
    module = sys.modules.get("beggarstats.run.summary")
    if module is not None and isinstance(data, module.Summary):
        raise TypeError(f"`{name}` is a Summary, but this function takes the frame of `simulate`; a Summary is "
                        f"answered by the functions of beggarstats.analysis.summaries (and by overview, "
                        f"seat_win_rates, length_summary, kaplan_meier, length_distribution, tail_rate).")
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"`{name}` must be a pandas DataFrame, but a {type(data).__name__} was passed.")
    for column in COUNT_COLUMNS + NULLABLE_COUNTS:
        if column not in data.columns:
            continue
        x = _values(data, column, name)
        nan = np.isnan(x)
        if column in COUNT_COLUMNS and nan.any():
            raise ValueError(f"The column `{column}` of `{name}` has missing values ({int(nan.sum()):,}, the first at "
                             f"{_first(nan, data)}); every game has one: drop or fix those rows first.")
        low = -1 if column == "min_cards" else 0  # -1: never at a trick boundary (a game that ended first)
        bad = ~nan & ((x < low) | (x != np.floor(x)))
        if bad.any():
            raise ValueError(f"The column `{column}` of `{name}` must hold whole numbers >= {low}, but "
                             f"{_first(bad, data)} holds {x[bad][0]:g}.")
    players = data["players"].to_numpy(dtype=float) if "players" in data.columns else None
    if players is not None and ((players < 2) | (players > 6)).any():
        bad = (players < 2) | (players > 6)
        raise ValueError(f"The column `players` of `{name}` must be 2 to 6, but {_first(bad, data)} holds "
                         f"{players[bad][0]:g}.")
    for column in ("seat", "winner"):
        if column in data.columns and players is not None:
            x = _values(data, column, name)
            bad = ~np.isnan(x) & ((x < 0) | (x >= players))
            if bad.any():
                raise ValueError(f"The column `{column}` of `{name}` must be a seat 0 .. players - 1, but "
                                 f"{_first(bad, data)} holds {x[bad][0]:g} at a table of {players[bad][0]:g}.")
    if "outcome" in data.columns:
        outcome = data["outcome"].astype("object")
        allowed = OUTCOMES + MATCH_OUTCOMES[1:] if "format" in data.columns else OUTCOMES
        bad = ~outcome.isin(allowed).to_numpy()
        if bad.any():
            raise ValueError(f"The column `outcome` of `{name}` must hold only {list(allowed)}, but "
                             f"{_first(bad, data)} holds {outcome[bad].iloc[0]!r}.")
    if "won" in data.columns and not pd.api.types.is_bool_dtype(data["won"].dtype):
        raise ValueError(f"The column `won` of `{name}` must be True/False (bool), but its dtype is "
                         f"{data['won'].dtype}.")
    if one_table:
        for column in ("players", "rules"):
            if column in data.columns and data[column].nunique(dropna=False) > 1:
                values = sorted(map(str, pd.unique(data[column])))
                raise ValueError(f"`{name}` mixes tables ({column} {', '.join(values[:5])}), but this function reports "
                                 f"one: pass the rows of one table (data[data['{column}'] == ...]).")
    return data
