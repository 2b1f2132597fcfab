"""The per-game lists a Summary keeps (games beyond the cap, loops, the longest): dicts of int64
columns, one entry per game, merged and cut the one way (`run.summary`, `run.summary_chunks` and `run.summary_gpu`)."""

from __future__ import annotations

import numpy as np

__all__ = ["GAME_COLUMNS", "LOOP_COLUMNS", "records", "concat", "top"]

#: Columns of the per-game lists (all int64; -1 = no winner).
GAME_COLUMNS = ("game", "outcome", "winner", "cards", "tricks")
LOOP_COLUMNS = GAME_COLUMNS + ("loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards")


def records(columns, n=0) -> dict:
    """An empty list (or ``n`` zero rows) of ``columns``."""
    return {c: np.zeros(n, np.int64) for c in columns}


def concat(a: dict, b: dict) -> dict:
    """Two lists as one, sorted by game id."""
    out = {c: np.concatenate([a[c], b[c]]) for c in a}
    order = np.argsort(out["game"], kind="stable")
    return {c: v[order] for c, v in out.items()}


def top(rec: dict, k: int) -> dict:
    """The ``k`` records with the most cards, ties broken by the lower game id; sorted that way."""
    order = np.lexsort((rec["game"], -rec["cards"]))[:k]
    return {c: v[order] for c, v in rec.items()}
