"""The resumable parquet store: load instead of recompute, resume after an interruption, heal
gaps, refuse to mix configurations, metadata in every file."""

from __future__ import annotations

import importlib
import json

import pandas as pd
import pyarrow.parquet as pq
import pytest

from beggarstats.game.rules import RULES_VERSION, Rules
from beggarstats.run.simulate import simulate, simulate_to_store
from beggarstats.run.store import load, save, store_key

from _reference_batch import CountingEngine

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

# `beggarstats.run.simulate` as an attribute is the function; the module is reached by name
device_module = importlib.import_module("beggarstats.run.device")  # the batch engine the runs play with

RULES = Rules(players=3)


@pytest.fixture
def counting(monkeypatch):
    """Install a counting wrapper around the real engine; returns a factory for fresh counters."""
    real = device_module._batch_engine()

    def install(interrupt_at=None):
        engine = CountingEngine(real, interrupt_at)
        monkeypatch.setattr(device_module, "_batch_engine", lambda: engine)
        return engine

    return install


def test_repeat_loads_instead_of_recomputing(tmp_path, counting):
    expected = simulate(300, rules=RULES, seed=1)
    first = counting()
    got = simulate(300, rules=RULES, seed=1, store=tmp_path / "run", chunk_size=64)
    assert first.calls == 5
    pd.testing.assert_frame_equal(got, expected)
    assert got.attrs == expected.attrs
    again = counting()
    pd.testing.assert_frame_equal(simulate(300, rules=RULES, seed=1, store=tmp_path / "run"), expected)
    assert again.calls == 0


def test_resume_after_interruption(tmp_path, counting):
    expected = simulate(500, rules=RULES, seed=2)
    store = tmp_path / "run"
    broken = counting(interrupt_at=4)  # Ctrl-C while the 4th chunk is being played
    with pytest.raises(KeyboardInterrupt):
        simulate(500, rules=RULES, seed=2, store=store, chunk_size=50, n_jobs=1)
    assert broken.games == 150
    assert len(list(store.glob("games-*.parquet"))) == 3
    resumed = counting()
    got = simulate(500, rules=RULES, seed=2, store=store, chunk_size=50, n_jobs=1)
    assert resumed.games == 350 and resumed.calls == 7
    pd.testing.assert_frame_equal(got, expected)


def test_resume_continues_the_recorded_seed(tmp_path, counting):
    store = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        counting(interrupt_at=2)
        simulate_to_store(100, store=store, chunk_size=40)  # seed=None: fresh entropy, recorded
    seed = json.loads((store / "manifest.json").read_text())["seed"]
    rest = counting()
    st = simulate_to_store(100, store=store, chunk_size=40)
    assert st.seed == seed and rest.games == 60
    pd.testing.assert_frame_equal(load(store), simulate(100, seed=seed))


def test_extend_and_heal_gaps(tmp_path, counting):
    store = tmp_path / "run"
    simulate_to_store(200, seed=3, store=store, chunk_size=50)
    more = counting()
    simulate(300, seed=3, store=store, chunk_size=50)
    assert more.games == 100
    next(store.glob(f"games-{100:012d}-{150:012d}-*.parquet")).unlink()  # a lost chunk
    heal = counting()
    got = simulate(300, seed=3, store=store, chunk_size=1000)
    assert heal.games == 50 and heal.calls == 1
    pd.testing.assert_frame_equal(got, simulate(300, seed=3))
    # a part of the store can be asked for: only those games are returned
    pd.testing.assert_frame_equal(simulate(50, seed=3, store=store, start=120),
                                  simulate(50, seed=3, start=120))


def test_default_location_and_manifest(tmp_path, monkeypatch, run_cache):
    monkeypatch.chdir(tmp_path)
    df = simulate(20, seed=4, store=True)
    assert list(tmp_path.iterdir()) == []  # store=True never writes into the working directory
    key = store_key(Rules(), 4)
    manifest = json.loads((run_cache / key / "manifest.json").read_text())
    assert manifest["seed"] == 4 and manifest["rules_version"] == RULES_VERSION
    assert manifest["rules"] == Rules().to_dict() and manifest["per_seat"] is False
    pd.testing.assert_frame_equal(load(run_cache / key), df)
    assert store_key(Rules(), 4, per_seat=True) != key and store_key(Rules(), 5) != key


def test_chunk_files_carry_the_configuration(tmp_path):
    simulate_to_store(30, rules=RULES, seed=6, store=tmp_path, chunk_size=16)
    files = sorted(tmp_path.glob("games-*.parquet"))
    assert len(files) == 2
    meta = json.loads(pq.read_schema(files[1]).metadata[b"beggarstats"])
    assert meta == {"rules": RULES.to_dict(), "seed": 6, "rules_version": RULES_VERSION, "n_games": 14, "start": 16}


def test_a_directory_holds_one_configuration(tmp_path):
    simulate_to_store(10, seed=1, store=tmp_path)
    with pytest.raises(ValueError, match="seed"):
        simulate(10, seed=2, store=tmp_path)
    with pytest.raises(ValueError, match="rules"):
        simulate(10, seed=1, rules=RULES, store=tmp_path)
    with pytest.raises(ValueError, match="`store`"):
        simulate(10, seed=1, store=3)


def test_per_seat_store(tmp_path, counting):
    games, seats = simulate(90, rules=RULES, seed=8, per_seat=True)
    got_games, got_seats = simulate(90, rules=RULES, seed=8, per_seat=True, store=tmp_path, chunk_size=40)
    pd.testing.assert_frame_equal(got_games, games)
    pd.testing.assert_frame_equal(got_seats, seats)
    assert got_seats.attrs == seats.attrs
    pd.testing.assert_frame_equal(load(tmp_path, seats=True), seats)
    part = load(tmp_path, columns=["game", "outcome"])
    assert list(part.columns) == ["game", "outcome"] and part["outcome"].dtype == "category"
    with pytest.raises(ValueError, match="per_seat"):
        load(simulate_to_store(5, seed=8, store=tmp_path / "plain").path, seats=True)


def test_save_and_load_one_file(tmp_path):
    df = simulate(50, rules=Rules(max_cards=200), seed=9)
    save(df, tmp_path / "x.parquet")
    back = load(tmp_path / "x.parquet")
    pd.testing.assert_frame_equal(back, df)
    assert back.attrs == df.attrs
    with pytest.raises(ValueError, match="not a beggarstats store"):
        load(tmp_path)


def _wide_engine(rules, seed, games, *, per_seat=False):
    """Synthetic arrays with loops; games from id 150 on need 32-bit trick counts."""
    import numpy as np

    n = len(games)
    rng = np.random.default_rng(int(games[0]) if n else 0)
    looped = rng.random(n) < 0.3
    big = np.where(games >= 150, 70_000, 0)
    out = {"cards": rng.integers(0, 9000, n).astype(np.uint32), "tricks": (rng.integers(0, 1200, n) + big).astype(np.uint32),
           "outcome": looped.astype(np.uint8), "winner": np.where(looped, -1, rng.integers(0, 2, n)).astype(np.int8),
           "looped": looped}
    for k in ("loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards"):
        out[k] = np.where(looped, rng.integers(0, 500, n) + (big if k == "loop_tricks" else 0), 0).astype(np.uint32)
    return out


@pytest.mark.parametrize("n", [0, 140, 200])
def test_frames_built_in_place_equal_frames_read_from_a_store(tmp_path, monkeypatch, n):
    """`simulate` fills the frame's columns in place (memory); a store goes through Arrow tables and
    `to_frame`: the two give the same frame, dtypes included (16-bit trick counts widened to 32
    when a later chunk needs it, nulls where no loop or no winner)."""
    monkeypatch.setattr(device_module, "_batch_engine", lambda: _wide_engine)
    in_memory = simulate(n, seed=1, chunk_size=50, n_jobs=2)
    pd.testing.assert_frame_equal(in_memory, simulate(n, seed=1, chunk_size=50, store=tmp_path))
    wide = str(in_memory["tricks"].dtype) == "uint32[pyarrow]"
    assert wide == (n > 150) and str(in_memory["loop_tricks"].dtype) == str(in_memory["tricks"].dtype)
    assert str(in_memory["loop_start_tricks"].dtype) == "uint16[pyarrow]"
    if n:
        assert in_memory["loop_cards"].isna().any() and in_memory["winner"].isna().any()
        assert in_memory.attrs == {"rules": Rules().to_dict(), "seed": 1, "rules_version": RULES_VERSION,
                                   "n_games": n, "start": 0}


def test_a_store_of_the_older_format_is_refused_with_what_to_do(tmp_path):
    """Stores written before checksums (format 1: chunk names without a CRC) are never read as if
    they had been checked."""
    from beggarstats.run.store import StoreError

    simulate_to_store(20, seed=4, store=tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    del manifest["format"], manifest["requested"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    for call in (lambda: load(tmp_path), lambda: simulate(20, seed=4, store=tmp_path)):
        with pytest.raises(StoreError, match="older beggarstats .*delete it or pass another directory"):
            call()


def test_load_of_a_saved_summary_says_which_loader_reads_it(tmp_path):
    """#38 item 6: `bs.load` on a JSON summary or comparison names the loader instead of "damaged"."""
    import beggarstats as bs
    from beggarstats.run.store import StoreError

    path = tmp_path / "s.json"
    path.write_text('{"format": 1}\n')
    with pytest.raises(StoreError, match="is JSON, not a table of games: a summary loads with "
                                         "beggarstats.run.summary.load_summary"):
        bs.load(path)
    (tmp_path / "x.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(StoreError, match="damaged or not parquet"):
        bs.load(tmp_path / "x.parquet")


@pytest.mark.usefixtures("warm_census_kernels")  # a census, beside the kernel tests
def test_load_of_a_file_summary_save_wrote_names_the_loader_that_reads_it(tmp_path):
    """#38 item 6, on a real file: `bs.load` of what `Summary.save` writes (a summary of a run, of a
    census) is not called damaged; the loader it names imports and reads that very file back."""
    import re

    import beggarstats as bs
    from beggarstats.run.store import StoreError

    summary = bs.summarize(300, seed=5, n_jobs=1)
    census = bs.census(bs.Rules(deck=bs.Deck(4, 2, 2, 2, 0)), n_jobs=1)
    for saved, name in ((summary, "run.summary"), (census, "census.bin")):  # no telling suffix: the content decides
        path = saved.save(tmp_path / name)
        with pytest.raises(StoreError, match="is a summary .written by Summary.save., not a table of games: "
                                             "load it with beggarstats.run.summary.load_summary") as caught:
            bs.load(path)
        assert "damaged" not in str(caught.value) and "comparison" not in str(caught.value)
        named = re.search(r"load it with (beggarstats(?:\.\w+)+)", str(caught.value)).group(1)
        module, _, function = named.rpartition(".")
        assert getattr(importlib.import_module(module), function)(path) == saved
