"""simulate() and replay(): columns, dtypes, attrs, reproducibility, agreement with the reference
engine game by game, memory per game, argument checks and the `simulate` command."""

from __future__ import annotations

import importlib
import joblib
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from beggarstats.run import tables
from beggarstats.cli import main
from beggarstats.game.decks import Deck
from beggarstats.game.rules import RULES_VERSION, Rules
from beggarstats.run.simulate import replay, simulate

from _reference_batch import play_games as reference_batch

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

# `beggarstats.run.simulate` as an attribute is the function; the module is reached by name
device_module = importlib.import_module("beggarstats.run.device")  # the batch engine the runs play with

LOOPY = Deck.from_counts((4, 2, 0, 0, 0))  # ~7% of its 2-player deals loop

VARIANTS = [
    Rules(),
    Rules(players=3),
    Rules(max_cards=300, unfinished="most_cards"),
    Rules(deck=LOOPY),
    Rules(deck=LOOPY, shuffle_on_loop=True, max_cards=2000),
    Rules(players=4, jokers=2, joker_mode="beggar", direction="ccw", exhausted_tribute="passes_on", end="empty"),
    Rules(players=3, shuffle_pile=True, max_cards=1000, end="unable", deck="italian"),
]

GAME_DTYPES = {
    "game": "uint32", "players": "uint8", "rules": "category", "outcome": "category",
    "winner": "int8[pyarrow]", "cards": "uint32", "tricks": "uint16[pyarrow]",
    "loop_start_tricks": "uint16[pyarrow]", "loop_start_cards": "uint32[pyarrow]",
    "loop_tricks": "uint16[pyarrow]", "loop_cards": "uint32[pyarrow]",
}
SEAT_DTYPES = {
    "game": "uint32", "players": "uint8", "rules": "category", "seat": "uint8", "hand_size": "uint8",
    "jacks": "uint8", "queens": "uint8", "kings": "uint8", "aces": "uint8", "jokers": "uint8",
    "tribute_total": "uint16", "min_cards": "int16", "place": "int8[pyarrow]",
    "out_cards": "uint32[pyarrow]", "won": "bool",
}


def _none(x):
    return None if pd.isna(x) else int(x)


def test_columns_dtypes_and_attrs():
    df = simulate(500, seed=3, rules=Rules(deck=LOOPY))
    assert {c: str(t) for c, t in df.dtypes.items()} == GAME_DTYPES
    assert list(df["game"]) == list(range(500))
    assert list(df["outcome"].cat.categories) == ["win", "loop", "cutoff"]
    assert set(df["outcome"]) == {"win", "loop"}
    assert df.attrs == {"rules": Rules(deck=LOOPY).to_dict(), "seed": 3, "rules_version": RULES_VERSION,
                        "n_games": 500, "start": 0}
    looped = df["loop_tricks"].notna()
    assert looped.any() and (df.loc[df.outcome == "loop", "winner"].isna()).all()
    assert (df.loc[~looped, ["loop_start_tricks", "loop_start_cards", "loop_cards"]].isna()).all().all()
    assert (df["rules"] == Rules(deck=LOOPY).name).all() and (df["players"] == 2).all()


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p {r.name}")
def test_every_row_is_the_reference_replay(rules):
    games, seats = simulate(60, rules=rules, seed=11, start=1000, per_seat=True, chunk_size=25)
    seats = seats.set_index(["game", "seat"])
    for row in games.itertuples(index=False):
        deal, r = replay(11, row.game, rules, trace=False)
        assert (row.outcome, _none(row.winner), row.cards, row.tricks) == (r.outcome, r.winner, r.cards, r.tricks)
        assert (_none(row.loop_start_tricks), _none(row.loop_start_cards), _none(row.loop_tricks),
                _none(row.loop_cards)) == (r.loop_start_tricks, r.loop_start_cards, r.loop_tricks, r.loop_cards)
        hands = deal.split("/")
        for s in range(rules.players):
            seat = seats.loc[(row.game, s)]
            assert seat["hand_size"] == len(hands[s])
            assert seat["min_cards"] == r.min_cards[s]
            assert _none(seat["place"]) == r.place[s] and _none(seat["out_cards"]) == r.out_cards[s]
            assert seat["won"] == (r.winner == s)


def test_agrees_with_the_reference_batch_stand_in(monkeypatch):
    rules = Rules(deck=LOOPY, players=3)
    fast = simulate(150, rules=rules, seed=5, per_seat=True)
    monkeypatch.setattr(device_module, "_batch_engine", lambda: reference_batch)
    slow = simulate(150, rules=rules, seed=5, per_seat=True)
    pd.testing.assert_frame_equal(fast[0], slow[0])
    pd.testing.assert_frame_equal(fast[1], slow[1])


def test_identical_whatever_jobs_chunks_and_thread_backend():
    rules = Rules(players=3)
    base = simulate(1500, rules=rules, seed=7, n_jobs=1, chunk_size=1000)
    for kw in ({"n_jobs": 2, "chunk_size": 7}, {"n_jobs": -1}, {"n_jobs": 2, "chunk_size": 1000}, {}):
        pd.testing.assert_frame_equal(simulate(1500, rules=rules, seed=7, **kw), base)
    pd.testing.assert_frame_equal(simulate(40, rules=rules, seed=7, chunk_size=1, n_jobs=2), base.iloc[:40])
    with joblib.parallel_config(backend="threading", n_jobs=2):
        pd.testing.assert_frame_equal(simulate(1500, rules=rules, seed=7, chunk_size=100), base)


def test_start_selects_the_same_games():
    whole = simulate(300, seed=9)
    part = simulate(100, seed=9, start=150)
    pd.testing.assert_frame_equal(part, whole.iloc[150:250].reset_index(drop=True))
    assert part.attrs["start"] == 150 and part.attrs["n_games"] == 100


def test_seed_none_is_recorded_and_repeatable():
    a = simulate(50)
    assert isinstance(a.attrs["seed"], int)
    pd.testing.assert_frame_equal(simulate(50, seed=a.attrs["seed"]), a)
    assert simulate(50).attrs["seed"] != a.attrs["seed"]


def test_per_seat_table():
    rules = Rules(players=3, jokers=1)
    games, seats = simulate(200, rules=rules, seed=2, per_seat=True)
    assert {c: str(t) for c, t in seats.dtypes.items()} == SEAT_DTYPES
    assert len(seats) == 3 * len(games) and list(seats["seat"][:6]) == [0, 1, 2, 0, 1, 2]
    per_game = seats.groupby("game")
    assert (per_game["hand_size"].sum() == rules.n_cards).all()
    assert (per_game["jokers"].sum() == 1).all()
    kinds = seats[["jacks", "queens", "kings", "aces", "jokers"]].to_numpy(int)
    assert (kinds @ np.array([1, 2, 3, 4, 5]) == seats["tribute_total"]).all()
    winners = games.set_index("game")["winner"]
    won = seats[seats["won"]]
    assert (won["seat"].to_numpy() == winners.loc[won["game"]].to_numpy()).all()
    assert (won["place"] == 1).all()
    assert seats.attrs == games.attrs


def test_empty_run_has_the_schema():
    df = simulate(0, seed=1)
    assert len(df) == 0 and {c: str(t) for c, t in df.dtypes.items()} == GAME_DTYPES


def _fake_engine(rules, seed, games, *, per_seat=False):
    """Synthetic arrays with a few loops, for the memory measurement only."""
    n = len(games)
    rng = np.random.default_rng(int(games[0]) if n else 0)
    looped = rng.random(n) < 0.01
    out = {"cards": rng.integers(0, 9000, n).astype(np.uint32), "tricks": rng.integers(0, 1200, n).astype(np.uint32),
           "outcome": looped.astype(np.uint8), "winner": np.where(looped, -1, rng.integers(0, 2, n)).astype(np.int8),
           "looped": looped}
    for k in ("loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards"):
        out[k] = np.where(looped, rng.integers(0, 500, n), 0).astype(np.uint32)
    return out


def test_bytes_per_game(monkeypatch):
    monkeypatch.setattr(device_module, "_batch_engine", lambda: _fake_engine)
    df = simulate(200_000, seed=1)
    per_game = df.memory_usage(deep=True).sum() / len(df)
    # Measured 26.5: 4 (game) + 1 + 1 + 1 + 1 (winner, no nulls here) + 4 (cards) + 2 (tricks)
    # + 2 x 2.125 (loop trick counts) + 2 x 4.125 (loop card counts); issue #3 asks for at most 32.
    assert per_game <= 32
    assert str(df["tricks"].dtype) == "uint16[pyarrow]" and df["cards"].dtype == np.uint32


def test_trick_counts_narrow_only_when_every_value_fits():
    wide = np.array([3, 70_000], np.uint32)
    table = pa.table({"tricks": pa.array(wide), "loop_tricks": pa.array(wide, mask=np.array([True, False])),
                      "loop_start_tricks": pa.array(np.array([0, 65_535], np.uint32), mask=np.array([True, False]))})
    df = tables.to_frame(table)
    assert str(df["tricks"].dtype) == "uint32[pyarrow]" and df["tricks"].tolist() == [3, 70_000]
    assert str(df["loop_tricks"].dtype) == "uint32[pyarrow]" and df["loop_tricks"].isna().tolist() == [True, False]
    assert str(df["loop_start_tricks"].dtype) == "uint16[pyarrow]" and df["loop_start_tricks"].tolist()[1] == 65_535
    # Arrow-backed 16-bit counts never wrap round: 60,000 tricks times 2 is 120,000
    narrow = tables.to_frame(pa.table({"tricks": pa.array(np.array([60_000], np.uint32))}))["tricks"]
    assert str(narrow.dtype) == "uint16[pyarrow]" and (narrow * 2).tolist() == [120_000]


def test_replay_gives_deal_and_trace():
    df = simulate(5, seed=4)
    deal, r = replay(4, 3)
    assert deal == r.deal and len(deal.split("/")) == 2 and len(deal) == 53
    assert r.trace and sum(t.cards for t in r.trace) == r.cards == df.loc[3, "cards"]
    assert replay(4, 3, trace=False)[1].trace is None


@pytest.mark.parametrize("kwargs, name", [
    ({"n_games": -1}, "n_games"), ({"n_games": 1.5}, "n_games"), ({"n_jobs": 0}, "n_jobs"),
    ({"chunk_size": 0}, "chunk_size"), ({"progress": "bar"}, "progress"), ({"rules": "standard"}, "rules"),
    ({"seed": -1}, "seed"), ({"seed": 2**64}, "seed"), ({"start": -5}, "start"), ({"per_seat": 1}, "per_seat"),
])
def test_bad_arguments_name_the_parameter(kwargs, name):
    args = {"n_games": 10, **kwargs}
    with pytest.raises(ValueError, match=f"`{name}`"):
        simulate(args.pop("n_games"), **args)


def test_progress_bar(capsys):
    simulate(100, seed=1, progress=True, chunk_size=30)
    assert "100/100" in capsys.readouterr().err


# -- the command ---------------------------------------------------------------------------------
def test_cli_summary_and_out_file(tmp_path, capsys):
    from beggarstats.run.store import load

    out = tmp_path / "games.parquet"
    assert main(["simulate", "--players", "3", "--games", "400", "--seed", "1", "--jobs", "2",
                 "--out", str(out), "--max-cards", "500"]) == 0
    text = capsys.readouterr().out
    assert "games:    400" in text and "outcomes: win" in text and "cutoff" in text
    assert "median" in text and "seat 2:" in text and "Wilson" in text
    df = load(out)
    expected = simulate(400, rules=Rules(players=3, max_cards=500), seed=1)
    pd.testing.assert_frame_equal(df, expected)
    assert df.attrs == expected.attrs


@pytest.mark.parametrize("argv, fragment", [
    (["--games", "0"], "--games"), (["--jobs", "0"], "--jobs"), (["--chunk-size", "0"], "--chunk-size"),
    (["--out", "x.csv"], "--out"), (["--players", "1"], "players"), (["--seed", "-3"], "--seed"),
])
def test_cli_bad_input_exits_2(argv, fragment, capsys):
    assert main(["simulate", "--games", "10", *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


def test_cli_store_resumes(tmp_path, capsys):
    argv = ["simulate", "--games", "300", "--seed", "5", "--store", str(tmp_path / "run"), "--chunk-size", "100"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert len(list((tmp_path / "run").glob("games-*.parquet"))) == 3
    assert main(argv) == 0
    second = capsys.readouterr().out
    assert "games:    300 (seed 5" in first and "(0 games loaded, 300 played)" in first
    assert second == first.replace("(0 games loaded, 300 played)", "(300 games loaded, 0 played)")
