"""Statistics on simulated matches (`simulate_matches`): tidy frames in, tidy frames out.

The seat figures reuse `beggarstats.analysis.seats`: a matches frame has the ``players`` and
``winner`` columns it needs (drawn and unfinished matches count as ``no_winner``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .intervals import mean_interval, wilson_interval
from .seats import first_player_advantage, seat_win_rates

__all__ = ["match_summary", "match_seat_rates", "first_leader_edge", "leader_round_rates"]

BY = ("players", "rules", "format")


def _by(data: pd.DataFrame, by) -> list[str]:
    by = [by] if isinstance(by, str) else list(by or ())
    missing = [c for c in ["players", *by] if c not in data.columns]
    if missing:
        raise ValueError(f"`data` has no column {missing[0]!r} (columns: {list(data.columns)}).")
    return list(dict.fromkeys(["players", *by]))


def match_summary(data: pd.DataFrame, *, by=BY, confidence: float = 0.95) -> pd.DataFrame:
    """How matches ended and how long they lasted, one row per group.

    Returns ``by`` columns, ``matches``, ``won``, ``drawn``, ``unfinished`` (counts of matches),
    ``rounds_mean`` with ``rounds_low``/``rounds_high`` (t interval), ``rounds_median``,
    ``rounds_p90``, ``rounds_max`` (dealt rounds, replays included), ``unfinished_rounds`` (mean per
    match), ``rounds_without_winner`` (their total), ``cards_mean`` with ``cards_low``/``cards_high`` (cards played per match, all rounds).
    """
    cols = _by(data, by)
    rows = []
    for key, sub in data.groupby(cols, sort=True, observed=True):
        key = dict(zip(cols, key if isinstance(key, tuple) else (key,)))
        rounds = sub["rounds"].to_numpy(float)
        cards = sub["cards"].to_numpy(float)
        outcome = sub["outcome"].astype(str)
        r_lo, r_hi = mean_interval(rounds, confidence=confidence)
        c_lo, c_hi = mean_interval(cards, confidence=confidence)
        rows.append(dict(
            key, matches=len(sub), won=int((outcome == "win").sum()), drawn=int((outcome == "draw").sum()),
            unfinished=int((outcome == "unfinished").sum()),
            rounds_mean=rounds.mean(), rounds_low=r_lo, rounds_high=r_hi, rounds_median=float(np.median(rounds)),
            rounds_p90=float(np.quantile(rounds, 0.9)), rounds_max=int(rounds.max()),
            unfinished_rounds=float(sub["unfinished_rounds"].mean()),
            rounds_without_winner=int(sub["unfinished_rounds"].sum()),
            cards_mean=cards.mean(), cards_low=c_lo, cards_high=c_hi,
        ))
    return pd.DataFrame(rows)


def match_seat_rates(data: pd.DataFrame, *, by=BY, confidence: float = 0.95) -> pd.DataFrame:
    """Match-win rate of every physical seat among matches with a winner, with a Wilson interval
    and a binomial test against 1/n (`analysis.seat_win_rates` on the matches frame)."""
    return seat_win_rates(data, by=_by(data, by), confidence=confidence)


def first_leader_edge(data: pd.DataFrame, *, by=BY, confidence: float = 0.95) -> pd.DataFrame:
    """Does seat 0 — left of the first dealer, so it leads round 0 — keep an edge over a whole
    match? Its match-win rate minus 1/n with the interval (`analysis.first_player_advantage`)."""
    return first_player_advantage(data, by=_by(data, by), confidence=confidence)


def leader_round_rates(rounds: pd.DataFrame, *, by=("players",), confidence: float = 0.95) -> pd.DataFrame:
    """How often the leader of a round wins it (rounds frame of ``simulate_matches(...,
    return_rounds=True)``; rounds without a winner left out): the single-game first-player edge the
    rotation spreads round the table. Returns ``by`` columns, ``rounds``, ``leader_wins``, ``rate``,
    ``low``, ``high``, ``expected`` (1/n)."""
    cols = [by] if isinstance(by, str) else list(by)
    if "players" not in rounds.columns:
        players = rounds.attrs.get("rules", {}).get("players")
        if players is None:
            raise ValueError("`rounds` needs a `players` column or the attrs of simulate_matches.")
        rounds = rounds.assign(players=players)
    decided = rounds[rounds["winner"].notna()]
    rows = []
    for key, sub in decided.groupby(cols, sort=True, observed=True):
        key = dict(zip(cols, key if isinstance(key, tuple) else (key,)))
        k = int((sub["winner"].astype(int) == sub["leader"].astype(int)).sum())
        n = len(sub)
        low, high = wilson_interval(k, n, confidence=confidence)
        rows.append(dict(key, rounds=n, leader_wins=k, rate=k / n, low=low, high=high,
                         expected=1 / int(sub["players"].iloc[0])))
    return pd.DataFrame(rows)
