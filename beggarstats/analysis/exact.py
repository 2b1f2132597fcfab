"""Exact quantities of a census (`beggarstats.census`): every deal once, so no sampling interval.

`exact_row` reads one census into the atlas's columns; `exact_loop_share` gives the exact share of
looping deals per deck and table size (for the small-deck loop figure where a census exists).
Every column of these tables is a count or a ratio of counts over all deals; ``design`` is
``"census"`` on every row, so that a table mixing them with sampled estimates says which is which.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["exact_row", "exact_table", "exact_loop_share", "ATLAS_COLUMNS"]

ATLAS_COLUMNS = ("players", "deck", "numbers", "jacks", "queens", "kings", "aces", "end", "deals", "loops",
                 "cycles", "loop_share", "seat0_share", "seat1_share", "seat2_share", "seat3_share", "mean_cards",
                 "sd_cards", "max_cards", "longest_rank", "design")


def _check(summary):
    if not getattr(summary, "exact", False):
        raise ValueError("The value for `summary` must be a census (summary.exact) for an exact table, but a sample "
                         "was passed: its values are estimates; use beggarstats.analysis.summaries for those.")


def exact_row(summary, *, cycles: int | None = None) -> dict:
    """One census as the atlas's row: deals, loops (and distinct ``cycles`` if given, from
    `run.cycles.loop_cycles`), the exact win share of each seat (of deals with a winner; NaN for
    seats the table does not have), the mean, standard deviation (population: over all finished
    deals) and maximum length in cards of the finished deals, and the rank of the longest deal."""
    _check(summary)
    r = summary.rules
    x, c = summary.frequencies("cards", ("win",))
    n_win = int(c.sum())
    mean = float((x * c).sum() / n_win) if n_win else np.nan
    sd = float(np.sqrt(((x - mean) ** 2 * c).sum() / n_win)) if n_win else np.nan
    decided = int(summary.wins.sum())
    shares = [summary.wins[s] / decided if decided and s < r.players else np.nan for s in range(4)]
    row = {"players": r.players, "deck": r.deck.label(), **dict(zip(("numbers", "jacks", "queens", "kings", "aces"),
                                                                   r.deck.counts)),
           "end": r.end, "deals": summary.n_games, "loops": int(summary.outcomes[1]),
           "cycles": np.nan if cycles is None else int(cycles),
           "loop_share": summary.outcomes[1] / summary.n_games if summary.n_games else np.nan,
           **{f"seat{s}_share": v for s, v in enumerate(shares)},
           "mean_cards": mean, "sd_cards": sd, "max_cards": int(x.max()) if x.size else -1,
           "longest_rank": int(summary.longest["game"][0]) if summary.longest["game"].size else -1,
           "design": "census"}
    return row


def exact_table(summaries, cycles=None) -> pd.DataFrame:
    """`exact_row` of each census, one row each (``cycles``: the distinct cycles of each, or None)."""
    cycles = [None] * len(summaries) if cycles is None else cycles
    return pd.DataFrame([exact_row(s, cycles=k) for s, k in zip(summaries, cycles)], columns=list(ATLAS_COLUMNS))


def exact_loop_share(summaries) -> pd.DataFrame:
    """The exact share of looping deals of each census: ``players``, ``deck``, ``n_cards``, ``deals``,
    ``loops``, ``loop_share`` and ``design`` 'census' (no interval: every deal was played)."""
    rows = []
    for s in summaries:
        _check(s)
        rows.append({"players": s.rules.players, "deck": s.rules.deck.label(), "n_cards": s.rules.n_cards,
                     "deals": s.n_games, "loops": int(s.outcomes[1]), "loop_share": s.outcomes[1] / s.n_games,
                     "design": "census"})
    return pd.DataFrame(rows, columns=["players", "deck", "n_cards", "deals", "loops", "loop_share", "design"])
