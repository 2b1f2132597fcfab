"""A run at a glance: the numbers `beggarstats simulate` and `beggarstats summarize` print.

`overview` takes the games frame of `simulate` (or `load`) or a `beggarstats.run.summary.Summary` and
returns the counts, the length statistics and every seat's win rate with its Wilson interval;
the command line only formats them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..run.tables import OUTCOMES
from ._checks import check_frame, check_level
from .frames import check_games
from .intervals import wilson_interval

__all__ = ["Overview", "overview", "seat_shares"]

MEASURES = ("cards", "tricks")


@dataclass(frozen=True)
class Overview:
    """What a run holds, at a glance.

    ``lengths`` maps 'cards' and 'tricks' to ``{"mean", "median", "max"}`` over every game
    (whatever its outcome); ``seats`` is `seat_shares` of the wins per seat.
    """

    games: int
    seed: int | None
    start: int
    rules: str | None       # Rules.name
    players: int | None
    outcomes: dict          # outcome -> games, in the engine's order (win, loop, cutoff)
    lengths: dict
    seats: pd.DataFrame


def seat_shares(wins, *, confidence: float = 0.95) -> pd.DataFrame:
    """Every seat's share of the games with a winner, from the wins per seat.

    Returns one row per seat: ``seat``, ``wins``, ``games`` (games with a winner, the same in
    every row), ``rate`` and the Wilson interval ``low``, ``high`` (NaN when no game has a winner).
    The rates of `seat_win_rates`, without its grouping and tests.
    """
    check_level(confidence)
    wins = np.asarray(wins)
    if wins.ndim != 1 or (wins.size and (wins.min() < 0 or not np.issubdtype(wins.dtype, np.integer))):
        raise ValueError(f"The value for `wins` must be a sequence of win counts >= 0, one per seat, but {wins!r} "
                         f"was passed.")
    decided = int(wins.sum())
    if decided:
        low, high = wilson_interval(wins, np.full(len(wins), decided), confidence=confidence)
        rate = wins / decided
    else:
        low = high = rate = np.full(len(wins), np.nan)
    return pd.DataFrame({"seat": np.arange(len(wins)), "wins": wins, "games": decided, "rate": rate,
                         "low": low, "high": high})


def overview(data, *, confidence: float = 0.95) -> Overview:
    """The counts, lengths and seat win rates of a games frame or a `Summary`.

    Parameters
    ----------
    data : DataFrame or Summary
        One row per game (``players``, ``rules``, ``outcome``, ``winner``, ``cards``, ``tricks``;
        ``attrs`` ``seed`` and ``start`` as `simulate` sets them), or the summary of `summarize`
        (then the lengths come from its exact histograms).
    confidence : float
        Level of the seat rates' Wilson intervals.
    """
    module = sys.modules.get("beggarstats.run.summary")  # no Summary can exist before it is imported
    if module is not None and isinstance(data, module.Summary):
        return _of_summary(data, confidence)
    return _of_frame(data, confidence)


def _of_frame(games: pd.DataFrame, confidence: float) -> Overview:
    check_frame(games, ["players", "rules", "outcome", "winner", "cards", "tricks"])
    check_games(games, one_table=True)  # one table: its players, its seats
    n = len(games)
    attrs = games.attrs
    counts = games["outcome"].value_counts(sort=False)
    lengths = {}
    for col in MEASURES:
        x = games[col].to_numpy()
        lengths[col] = ({"mean": x.mean(), "median": np.median(x), "max": x.max()} if n else
                        {"mean": np.nan, "median": np.nan, "max": np.nan})
    players = int(games["players"].iloc[0]) if n else (attrs.get("rules") or {}).get("players")
    winner = games["winner"].to_numpy(dtype=float, na_value=np.nan)
    wins = np.bincount(winner[~np.isnan(winner)].astype(int), minlength=players or 0)
    return Overview(games=n, seed=attrs.get("seed"), start=attrs.get("start", 0),
                    rules=games["rules"].iloc[0] if n else None, players=players,
                    outcomes={k: int(v) for k, v in counts.items()}, lengths=lengths,
                    seats=seat_shares(wins, confidence=confidence))


def _of_summary(s, confidence: float) -> Overview:
    from .summaries import weighted_quantile

    n = s.n_games
    lengths = {}
    for col in MEASURES:
        x, c = s.frequencies(col, OUTCOMES)
        lengths[col] = ({"mean": np.dot(x.astype(float), c) / c.sum(), "median": weighted_quantile(x, c, 0.5),
                         "max": x[-1]} if n else {"mean": np.nan, "median": np.nan, "max": np.nan})
    return Overview(games=n, seed=s.seed, start=s.ranges[0][0] if s.ranges else 0, rules=s.rules.name,
                    players=s.rules.players, outcomes={k: int(v) for k, v in zip(OUTCOMES, s.outcomes)},
                    lengths=lengths, seats=seat_shares(s.wins[:s.rules.players], confidence=confidence))
