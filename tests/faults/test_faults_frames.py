"""Analysis functions refuse frames that are not simulate's (issue #21, item 9).

Before: negated ``cards`` gave lengths and thresholds of -1098; NaN lengths were dropped silently
(shares over 289 of 300 games); a 2-player and a 3-player table together were reported by
`overview` as "4,000 games, 2 players" with 3 seats; ``first_player_advantage(summary)`` failed
with an internal TypeError.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import beggarstats as bs
from beggarstats import analysis as an
from beggarstats.analysis.frames import check_games


@pytest.fixture(scope="module")
def frames():
    games, seats = bs.simulate(300, seed=4, per_seat=True)
    three = bs.simulate(200, seed=4, rules=bs.Rules(players=3))
    return games, seats, three


GAMES_FUNCTIONS = {
    "length_summary": an.length_summary, "length_distribution": an.length_distribution,
    "kaplan_meier": an.kaplan_meier, "tail_rate": an.tail_rate, "hazard_bands": an.hazard_bands,
    "tail_constancy_test": an.tail_constancy_test, "seat_win_rates": an.seat_win_rates,
    "seat_fairness_test": an.seat_fairness_test, "first_player_advantage": an.first_player_advantage,
    "compare_variants": an.compare_variants, "overview": an.overview,
}


def _negated(g):
    g = g.copy()
    g["cards"] = -g["cards"].astype("int64")
    return g


def _nan_lengths(g):
    g = g.copy()
    g["cards"] = g["cards"].astype(float)
    g.loc[g.index[5:16], "cards"] = np.nan
    return g


def _bad_outcome(g):
    g = g.copy()
    g["outcome"] = g["outcome"].astype(object)
    g.loc[g.index[3], "outcome"] = "draw"
    return g


def _bad_winner(g):
    g = g.copy()
    winner = g["winner"].to_numpy(dtype=float, na_value=np.nan)
    winner[7] = 2
    g["winner"] = pd.array(np.where(np.isnan(winner), -1, winner).astype(int), dtype="Int8")
    g["winner"] = g["winner"].mask(np.isnan(winner))
    return g


def _text_lengths(g):
    g = g.copy()
    g["tricks"] = g["tricks"].astype(str)
    return g


BAD_GAMES = {"negated cards": (_negated, "`cards`.*whole numbers >= 0"),
             "NaN lengths": (_nan_lengths, "`cards`.*missing values \\(11"),
             "an unknown outcome": (_bad_outcome, "`outcome`.*'draw'"),
             "a winner past the table": (_bad_winner, "`winner`.*seat"),
             "lengths as text": (_text_lengths, "`tricks`.*numbers")}


@pytest.mark.parametrize("damage", list(BAD_GAMES))
@pytest.mark.parametrize("function", list(GAMES_FUNCTIONS))
def test_a_damaged_games_frame_is_refused_naming_the_column(frames, function, damage):
    make, why = BAD_GAMES[damage]
    with pytest.raises(ValueError, match=why):
        GAMES_FUNCTIONS[function](make(frames[0]))


def test_two_tables_in_one_frame_are_not_reported_as_one(frames):
    games, _, three = frames
    both = pd.concat([games, three], ignore_index=True)
    with pytest.raises(ValueError, match="mixes tables"):
        an.overview(both)
    assert an.overview(three).players == 3 and len(an.overview(three).seats) == 3
    rates = an.seat_win_rates(both)  # grouped by players and rules: both tables, each its own
    assert sorted(rates.groupby("players")["seat"].count()) == [2, 3]


def test_a_damaged_seat_frame_is_refused(frames):
    seats = frames[1]
    bad = seats.copy()
    bad["won"] = bad["won"].astype(int)
    with pytest.raises(ValueError, match="`won`"):
        an.comebacks(bad)
    bad = seats.copy()
    bad["hand_size"] = bad["hand_size"].astype(int) - 100
    for f in (an.comebacks, an.hand_strength, an.seat_position_model):
        with pytest.raises(ValueError, match="`hand_size`"):
            f(bad)


def test_a_summary_where_only_a_frame_is_answered_is_a_type_error():
    s = bs.summarize(200, seed=4, n_jobs=1)
    with pytest.raises(TypeError, match="is a Summary.*analysis.summaries"):
        an.first_player_advantage(s)
    with pytest.raises(TypeError, match="DataFrame"):
        check_games([1, 2, 3])


def test_simulates_frames_pass(frames):
    for frame in frames:
        assert check_games(frame, one_table=True) is frame
