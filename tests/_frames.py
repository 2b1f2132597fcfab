"""Small game tables for the analysis and plot tests, in the column contract of ``simulate()``.

`reference_frames` plays random deals with the reference engine (a few hundred games take well
under a second); the synthetic builders make frames whose statistics are known exactly.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from beggarstats.engine.deals import random_deal
from beggarstats.engine.reference import play_hands
from beggarstats.game.rules import Rules

__all__ = ["reference_frames", "synthetic_games"]

_NULLABLE = ["loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards"]


def reference_frames(n_games: int, rules: Rules | None = None, *, seed: int = 0, arrow: bool = False):
    """(games, seats) frames for games 0..n_games-1 of table ``seed`` under ``rules``."""
    rules = rules or Rules()
    games, seats = [], []
    for g in range(n_games):
        deal, stream = random_deal(seed, g, rules)
        r = play_hands(deal, rules, rng=stream)
        games.append(dict(game=g, players=rules.players, rules=rules.name, outcome=r.outcome, winner=r.winner,
                          cards=r.cards, tricks=r.tricks, **{k: getattr(r, k) for k in _NULLABLE}))
        for s, hand in enumerate(deal):
            h = np.asarray(hand)
            seats.append(dict(game=g, players=rules.players, rules=rules.name, seat=s, hand_size=len(h),
                              jacks=int(np.sum(h == 1)), queens=int(np.sum(h == 2)), kings=int(np.sum(h == 3)),
                              aces=int(np.sum(h == 4)), jokers=int(np.sum(h == 5)), tribute_total=int(h.sum()),
                              min_cards=r.min_cards[s], place=r.place[s], out_cards=r.out_cards[s],
                              won=r.winner == s))
    return _typed_games(pd.DataFrame(games), arrow), _typed_seats(pd.DataFrame(seats), arrow)


def _typed_games(df: pd.DataFrame, arrow: bool) -> pd.DataFrame:
    df = df.astype({"game": "uint32", "players": "uint8", "cards": "uint32", "tricks": "uint32"})
    df["rules"] = df["rules"].astype("category")
    df["outcome"] = pd.Categorical(df["outcome"], categories=["win", "loop", "cutoff"])
    nullable = {"winner": "int8", **{k: "uint32" for k in _NULLABLE}}
    for col, kind in nullable.items():
        df[col] = df[col].astype(f"{kind}[pyarrow]" if arrow else kind.capitalize().replace("Uint", "UInt"))
    return df


def _typed_seats(df: pd.DataFrame, arrow: bool) -> pd.DataFrame:
    df = df.astype({"game": "uint32", "players": "uint8", "seat": "uint8", "won": "bool"})
    df["rules"] = df["rules"].astype("category")
    for col in ("place", "out_cards"):
        df[col] = df[col].astype("uint32[pyarrow]" if arrow else "UInt32")
    return df


def synthetic_games(lengths, *, outcome="win", winner=None, players=2, rules="standard") -> pd.DataFrame:
    """A per-game frame with the given lengths (cards; tricks = cards // 8) and outcomes/winners."""
    lengths = np.asarray(lengths)
    n = lengths.size
    outcome = np.broadcast_to(np.asarray(outcome, dtype=object), (n,))
    if winner is None:
        winner = np.where(outcome == "win", np.arange(n) % players, -1)
    winner = pd.array(np.where(np.asarray(winner) < 0, pd.NA, np.asarray(winner)).tolist(), dtype="Int8")
    return pd.DataFrame({
        "game": np.arange(n, dtype="uint32"), "players": np.full(n, players, dtype="uint8"),
        "rules": pd.Categorical([rules] * n), "outcome": pd.Categorical(outcome, categories=["win", "loop", "cutoff"]),
        "winner": winner, "cards": lengths.astype("uint32"), "tricks": (lengths // 8).astype("uint32"),
    })
