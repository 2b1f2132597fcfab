"""Comebacks: how often the winner had once been nearly out of cards.

Definition. ``min_cards`` is the fewest cards a seat held at any trick boundary, the deal and the
final boundary included. Every loser ends on 0 cards at the boundary where they go out, so the
literal "seat with the smallest ``min_cards``" is always a loser and cannot measure comebacks.
We therefore look from the winner's side: a decided game is a **comeback** when its winner's
``min_cards`` was at most ``fraction`` x their dealt ``hand_size`` (default a quarter), or at most
``cards`` cards when that is given instead. Games without a winner are left out and counted.

Like with like. A quarter of a hand is rarely a whole number of cards (26 / 4 = 6.5, 13 / 4 =
3.25), so "at most 25%" means at most 6 of 26 cards (23%) with two players but at most 2 of 11
(18%) with five. With ``interpolate=True`` the threshold is exactly ``fraction`` x hand: a winner
whose low point was the whole number k <= t = fraction x hand counts 1, one whose low point was
k + 1 with k < t < k + 1 counts t - k, so the share is the one at ``t`` interpolated linearly
between the whole-card thresholds around it, the same share of the hand at every table size.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_by, check_frame, check_level, group_items, numeric
from .frames import check_games
from .intervals import wilson_interval

__all__ = ["comebacks"]


def comebacks(data: pd.DataFrame, *, fraction: float | None = 0.25, cards: int | None = None,
              by=("players", "rules"), confidence: float = 0.95, interpolate: bool = False) -> pd.DataFrame:
    """Share of decided games won by a player who had been down to few cards, with a Wilson interval.

    Parameters
    ----------
    data : DataFrame
        Per-seat rows: ``game``, ``players``, ``won``, ``min_cards``, ``hand_size``.
    fraction : float or None
        Threshold as a share of the winner's dealt hand (0 to 1); ignored when ``cards`` is given.
    cards : int or None
        Threshold in cards (0 = the winner had an empty hand at some trick boundary).
    by : str, sequence of str or None
        Grouping columns; ``players`` is always one of them.
    interpolate : bool
        Count at exactly ``fraction`` x hand, interpolating between whole cards (see the module
        docstring); the interval is then the t interval of the mean of those weights
        (`scipy.stats.ttest_1samp`), not Wilson's. Ignored with ``cards``.

    Returns
    -------
    DataFrame: ``by`` columns, ``games`` (decided), ``no_winner``, ``comebacks``, ``rate``, ``low``,
    ``high``, ``threshold`` (e.g. '<= 25% of hand' or '<= 3 cards'), ``median_low_point`` (the
    winners' median ``min_cards``).
    """
    check_games(data)  # a frame of simulate's (analysis/frames.py)
    check_frame(data, ["game", "players", "won", "min_cards", "hand_size"])
    check_level(confidence)
    if cards is not None:
        if not isinstance(cards, (int, np.integer)) or isinstance(cards, bool) or cards < 0:
            raise ValueError(f"The value for `cards` must be a whole number >= 0 or None, but {cards!r} was passed.")
        label = f"<= {cards} cards"
    elif fraction is None or isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0 <= fraction <= 1:
        raise ValueError(f"The value for `fraction` must be a number from 0 to 1 (or give `cards`), but {fraction!r} was passed.")
    else:
        label = f"<= {100 * fraction:g}% of hand"
    cols = ["players"] + [c for c in check_by(data, by) if c != "players"]
    rows = []
    for key, sub in group_items(data, cols):
        won = sub["won"].astype("boolean").fillna(False).to_numpy(dtype=bool)
        all_games = sub["game"].nunique()
        winners = sub[won]
        low_point = numeric(winners["min_cards"])
        limit = cards if cards is not None else fraction * numeric(winners["hand_size"])
        games = len(winners)
        if interpolate and cards is None:
            whole = np.floor(limit)
            weight = (low_point <= whole) + (limit - whole) * (low_point == whole + 1)
            hits = float(weight.sum())
            if games > 1 and weight.std() > 0:
                ci = stats.ttest_1samp(weight, 0.0).confidence_interval(confidence)
                low, high = max(float(ci.low), 0.0), min(float(ci.high), 1.0)
            else:
                low = high = hits / games if games else np.nan
        else:
            hits = int(np.sum(low_point <= limit))
            low, high = wilson_interval(hits, games, confidence=confidence)
        rows.append(dict(key, games=games, no_winner=all_games - winners["game"].nunique(), comebacks=hits,
                         rate=hits / games if games else np.nan, low=low, high=high,
                         threshold=label + (", interpolated" if interpolate and cards is None else ""),
                         median_low_point=float(np.median(low_point)) if games else np.nan))
    return pd.DataFrame(rows)
