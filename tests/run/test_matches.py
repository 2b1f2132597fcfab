"""Matches: rotation of the deal, the replay rule, formats, reproducibility, the command."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from beggarstats.cli import main
from beggarstats.analysis.match_stats import first_leader_edge, leader_round_rates, match_seat_rates, match_summary
from beggarstats.run.matches import (
    ROUND_STRIDE, MatchFormat, match_table_seed, play_match, round_deal, simulate_matches,
)
from beggarstats.run.play import play
from beggarstats.game.rules import Rules

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

# Tiny hand-built deals (any_deck): who wins, in ENGINE seats (engine seat 0 leads).
E0_WINS = "A/-"      # seat 0 plays A, seat 1 pays one card and runs out
E1_WINS = "-/A"      # seat 0 plays -, seat 1 plays A, seat 0 cannot pay
NEVER_ENDS = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"  # docs/RULES.md section 10: loops


def test_hand_built_deals_do_what_the_tests_assume():
    assert play(E0_WINS, any_deck=True).winner == 0
    assert play(E1_WINS, any_deck=True).winner == 1
    assert play("-/-/A", any_deck=True).winner == 2
    assert play("-/A/-", any_deck=True).winner == 1
    assert play(NEVER_ENDS).outcome == "loop"


# -- rotation --------------------------------------------------------------------------------
def test_rotation_two_players_same_physical_seat_wins_both_rounds():
    # Round 0: seat 0 leads; engine seat 1 wins -> physical seat 1.
    # Round 1: the deal rotated, physical seat 1 leads = engine seat 0, who wins -> seat 1 again: 2-0.
    m = play_match([E1_WINS, E0_WINS, E0_WINS], any_deck=True, format="best_of_3")
    assert m["outcome"] == "win" and m["winner"] == 1
    assert m["rounds"] == 2 and m["wins"] == (0, 2)
    assert [h["leader"] for h in m["history"]] == [0, 1]
    assert [h["engine_winner"] for h in m["history"]] == [1, 0]
    assert [h["winner"] for h in m["history"]] == [1, 1]


def test_rotation_without_it_the_same_deals_would_split():
    # The same engine winners 1, 0 in rounds 0, 2 (both led by seat 0) mean seats 1 and 0.
    m = play_match([E1_WINS, E1_WINS, E0_WINS], any_deck=True, format="best_of_3")
    # round 0: seat 1; round 1 (seat 1 leads): engine 1 = seat 0; round 2 (seat 0 leads): seat 0
    assert [h["winner"] for h in m["history"]] == [1, 0, 0]
    assert m["winner"] == 0 and m["wins"] == (2, 1)


def test_rotation_three_players():
    # physical = (engine + r) mod 3. Round 0: engine 2 -> seat 2. Round 1: engine 1 -> seat 2.
    m = play_match(["-/-/A", "-/A/-"], any_deck=True, format="first_to_2")
    assert m["winner"] == 2 and m["wins"] == (0, 0, 2)
    assert [h["leader"] for h in m["history"]] == [0, 1]
    # Round 2 is led by seat 2: engine seat 1 is physical seat 0.
    m = play_match(["-/-/A", "A/-/-", "-/A/-", "-/-/A"], any_deck=True, format="first_to_2")
    assert [h["winner"] for h in m["history"]] == [2, 1, 0, 2]
    assert [h["leader"] for h in m["history"]] == [0, 1, 2, 0]
    assert m["winner"] == 2 and m["rounds"] == 4


# -- the replay rule -------------------------------------------------------------------------
def test_looping_round_is_replayed_and_the_deal_still_rotates():
    m = play_match([NEVER_ENDS, E1_WINS], any_deck=True, format="best_of_1")
    # round 0 loops (replayed, does not count); round 1 is led by seat 1: engine 1 = seat 0.
    assert m["outcome"] == "win" and m["winner"] == 0
    assert m["rounds"] == 2 and m["unfinished_rounds"] == 1
    assert [h["counted"] for h in m["history"]] == [False, True]
    assert m["cards"] == 474 + 2 and m["tricks"] == 66 + 1


def test_looping_round_counted_as_round_without_winner():
    m = play_match([NEVER_ENDS, E1_WINS], any_deck=True, format="best_of_1", replay_unfinished=False)
    assert m["outcome"] == "draw" and m["winner"] is None
    assert m["rounds"] == 1 and m["unfinished_rounds"] == 1
    # best of 3: loop, seat 0, seat 1 -> three counted rounds, 1-1: a draw
    deals = [NEVER_ENDS, E1_WINS, E1_WINS, E0_WINS]
    m = play_match(deals, any_deck=True, replay_unfinished=False)
    assert (m["outcome"], m["rounds"], m["wins"]) == ("draw", 3, (1, 1))
    # replayed, the same deals need a fourth round, led by seat 1: engine 0 = seat 1 wins 2-1
    m = play_match(deals, any_deck=True, replay_unfinished=True)
    assert (m["outcome"], m["winner"], m["rounds"], m["wins"]) == ("win", 1, 4, (1, 2))


def test_match_that_cannot_finish_is_unfinished():
    m = play_match([NEVER_ENDS] * 5, format="best_of_3", max_rounds=5)
    assert m["outcome"] == "unfinished" and m["winner"] is None and m["rounds"] == 5
    with pytest.raises(ValueError, match="ran out"):
        play_match([NEVER_ENDS], format="best_of_3")


# -- formats ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text, target, cap", [
    ("best_of_1", 1, 1), ("best_of_3", 2, 3), ("best_of_5", 3, 5), ("best_of_4", 3, 4),
    ("first_to_1", 1, None), ("first_to_3", 3, None),
])
def test_format_parse(text, target, cap):
    f = MatchFormat.parse(text)
    assert (f.name, f.target, f.cap) == (text, target, cap)


@pytest.mark.parametrize("bad", ["best_of_0", "best_of_x", "best-of-3", "bo3", "", 3, None, "first_to_"])
def test_bad_format_names_the_parameter(bad):
    with pytest.raises(ValueError, match=r"`format`.*best_of_N.*first_to_K"):
        MatchFormat.parse(bad)
    with pytest.raises(ValueError, match="`format`"):
        simulate_matches(3, format=bad, seed=0)


def test_best_of_stops_when_decided_and_first_to_plays_on():
    m = play_match([E0_WINS, E1_WINS, E0_WINS], any_deck=True, format="best_of_5")  # seat 0 each round
    assert m["winner"] == 0 and m["rounds"] == 3
    # 3 players, best of 3: one win each is a draw; first to 2 plays on.
    deals = ["-/-/A"] * 3 + ["A/-/-"]  # engine seat 2 each round: seats 2, 0, 1; then engine 0 at r=3: seat 0
    m = play_match(deals, any_deck=True, format="best_of_3")
    assert (m["outcome"], m["winner"], m["wins"], m["rounds"]) == ("draw", None, (1, 1, 1), 3)
    m = play_match(deals, any_deck=True, format="first_to_2")
    assert (m["outcome"], m["winner"], m["wins"], m["rounds"]) == ("win", 0, (2, 1, 1), 4)


def test_bad_arguments():
    with pytest.raises(ValueError, match="`max_rounds`"):
        simulate_matches(3, format="first_to_3", max_rounds=2, seed=0)
    with pytest.raises(ValueError, match="`n_matches`"):
        simulate_matches(-1, seed=0)
    with pytest.raises(ValueError, match="`seed`"):
        simulate_matches(3, seed=-5)
    with pytest.raises(ValueError, match="`chunk_size`"):
        simulate_matches(3, seed=0, chunk_size=0)
    with pytest.raises(ValueError, match="`engine`"):
        simulate_matches(3, seed=0, engine="gpu")


# -- random matches --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def three():
    return simulate_matches(400, rules=Rules(players=3), format="best_of_3", seed=11, return_rounds=True)


def test_frame_columns_and_invariants(three):
    df, rounds = three
    assert list(df.columns) == ["match", "players", "rules", "format", "outcome", "winner", "finished", "rounds",
                                "unfinished_rounds", "wins_seat0", "wins_seat1", "wins_seat2", "cards", "tricks"]
    assert df["match"].tolist() == list(range(400))
    assert str(df["winner"].dtype) == "Int8"
    wins = df[["wins_seat0", "wins_seat1", "wins_seat2"]].to_numpy()
    assert (wins.sum(axis=1) == df["rounds"] - df["unfinished_rounds"]).all()
    assert (df["winner"].isna() == (df["outcome"] != "win")).all()
    assert df["finished"].equals(df["outcome"] != "unfinished")
    assert set(df["outcome"]) <= {"win", "draw"}
    # the rounds frame adds up to the matches frame and shows the rotation
    assert len(rounds) == df["rounds"].sum()
    assert (rounds["leader"] == rounds["round"] % 3).all()
    assert (rounds["game"] == rounds["match"] * ROUND_STRIDE + rounds["round"]).all()
    per = rounds.groupby("match")[["cards", "tricks"]].sum()
    assert (per["cards"].to_numpy() == df["cards"].to_numpy()).all()
    a = df.attrs
    assert a["seed"] == 11 and a["format"] == "best_of_3" and a["table_seed"] == match_table_seed(11)
    assert a["rules"]["players"] == 3 and "rules_version" in a


def test_simulated_matches_agree_with_play_match(three):
    """The vectorised path and the one-match path give the same matches, deal for deal."""
    df, _ = three
    rules = Rules(players=3)
    for m in (0, 1, 2, 3, 57, 399):
        deals = (round_deal(11, m, r, rules)[0] for r in range(1000))
        one = play_match(deals, rules, format="best_of_3")
        row = df.iloc[m]
        assert one["outcome"] == row["outcome"]
        assert one["winner"] == (None if pd.isna(row["winner"]) else int(row["winner"]))
        assert (one["rounds"], one["cards"], one["tricks"]) == (row["rounds"], row["cards"], row["tricks"])
        assert one["wins"] == tuple(row[[f"wins_seat{s}" for s in range(3)]])


def test_reproducible_across_jobs_and_chunks(three):
    df, rounds = three
    for n_jobs, chunk in ((2, 7), (1, 1000), (-1, 64)):
        other, other_rounds = simulate_matches(400, rules=Rules(players=3), format="best_of_3", seed=11,
                                               n_jobs=n_jobs, chunk_size=chunk, return_rounds=True)
        pd.testing.assert_frame_equal(df, other)
        pd.testing.assert_frame_equal(rounds, other_rounds)


def test_seed_none_is_recorded_and_repeatable():
    a = simulate_matches(50, seed=None)
    b = simulate_matches(50, seed=a.attrs["seed"])
    pd.testing.assert_frame_equal(a, b)


def test_max_rounds_does_not_change_matches_finished_within_it():
    rules = Rules(max_cards=150)  # many cut-offs: rounds without a winner
    a = simulate_matches(200, rules=rules, format="first_to_2", seed=3, max_rounds=4)
    b = simulate_matches(200, rules=rules, format="first_to_2", seed=3, max_rounds=50)
    assert (~a["finished"]).any() and a["rounds"].max() <= 4
    done = a["finished"].to_numpy()
    pd.testing.assert_frame_equal(a[done], b[done])
    assert (a.loc[~done, "winner"].isna()).all()


def test_replay_option_only_matters_for_best_of():
    rules = Rules(max_cards=300)
    kw = dict(rules=rules, seed=8, max_rounds=200)
    pd.testing.assert_frame_equal(simulate_matches(200, format="first_to_2", replay_unfinished=True, **kw),
                                  simulate_matches(200, format="first_to_2", replay_unfinished=False, **kw),
                                  check_like=True)
    on = simulate_matches(200, format="best_of_3", replay_unfinished=True, **kw)
    off = simulate_matches(200, format="best_of_3", replay_unfinished=False, **kw)
    assert (off["rounds"] <= 3).all() and (off["outcome"] == "draw").any()
    assert (on.loc[on["unfinished_rounds"] > 0, "rounds"] > 3).any()


def test_reference_and_fast_engines_agree():
    for rules, fmt in ((Rules(), "best_of_3"), (Rules(players=4, max_cards=400), "first_to_2")):
        kw = dict(rules=rules, format=fmt, seed=21, return_rounds=True)
        fast = simulate_matches(150, **kw)
        with pytest.warns(FutureWarning, match=r"`engine='reference'` is deprecated .* `play_match` plays"):
            ref = simulate_matches(150, engine="reference", **kw)
        assert fast[0].attrs["engine"] == "fast" and ref[0].attrs["engine"] == "reference"
        pd.testing.assert_frame_equal(fast[0], ref[0], check_exact=True)
        pd.testing.assert_frame_equal(fast[1], ref[1], check_exact=True)


def test_engine_is_deprecated_for_device():
    """`device` names where the games play, as in every batch entry point; the old `engine` still
    works, saying what to pass instead (and 'reference' plays on the CPU only)."""
    plain = simulate_matches(50, seed=3)
    for old in ("auto", "fast"):
        with pytest.warns(FutureWarning, match=r"^`engine` is deprecated .* on `device` \('cpu', the default, or 'cuda'\); leave `engine` out\.$"):
            pd.testing.assert_frame_equal(simulate_matches(50, seed=3, engine=old), plain)
    assert simulate_matches(50, seed=3, device="cpu").equals(plain)
    with pytest.raises(ValueError, match="The value for `device` must be one of 'cpu', 'cuda', but 'gpu' was passed"):
        simulate_matches(50, seed=3, device="gpu")


def test_zero_matches():
    df, rounds = simulate_matches(0, seed=1, return_rounds=True)
    assert len(df) == 0 and len(rounds) == 0 and "wins_seat1" in df.columns


# -- statistics ------------------------------------------------------------------------------
def test_match_stats(three):
    df, rounds = three
    s = match_summary(df)
    assert len(s) == 1 and s["matches"].iloc[0] == 400
    assert s["won"].iloc[0] + s["drawn"].iloc[0] == 400
    assert s["rounds_low"].iloc[0] <= s["rounds_mean"].iloc[0] <= s["rounds_high"].iloc[0]
    assert s["rounds_without_winner"].iloc[0] == (rounds["winner"].isna()).sum() == df["unfinished_rounds"].sum()
    rates = match_seat_rates(df)
    assert list(rates["seat"]) == [0, 1, 2]
    assert rates["games"].iloc[0] == s["won"].iloc[0] and rates["no_winner"].iloc[0] == s["drawn"].iloc[0]
    assert ((rates["low"] <= rates["rate"]) & (rates["rate"] <= rates["high"])).all()
    edge = first_leader_edge(df)
    assert len(edge) == 1 and np.isclose(edge["advantage"].iloc[0], rates["rate"].iloc[0] - 1 / 3)
    lead = leader_round_rates(rounds)
    assert lead["rounds"].iloc[0] == rounds["winner"].notna().sum() and lead["expected"].iloc[0] == 1 / 3


# -- the command -----------------------------------------------------------------------------
def test_cli_prints_a_summary(capsys):
    assert main(["matches", "--players", "3", "--matches", "60", "--format", "first_to_2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "60 (first_to_2, 3 players" in out and "seat 2:" in out and "Wilson" in out


@pytest.mark.parametrize("argv, message", [
    (["--format", "best_of_x"], "--format"),
    (["--matches", "0"], "--matches"),
    (["--max-rounds", "1"], "--max-rounds"),
    (["--players", "1"], "--players"),
    (["--seed", "-1"], "--seed"),
    (["--jobs", "0"], "--jobs"),
])
def test_cli_bad_input_exits_2(argv, message, capsys):
    assert main(["matches", "--matches", "5", *argv]) == 2  # a later --matches wins
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
