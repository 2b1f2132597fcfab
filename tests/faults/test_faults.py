"""Fault injection on the store and bad sizes everywhere: nothing wrong or partial comes back silently.

Each case here gave wrong or partial data (or a traceback, or an unbounded allocation) before
issue #11: kill -9 and resume, two writers at once, single-bit flips anywhere in a chunk, a foreign
chunk, a missing or truncated chunk, a damaged manifest, a full disk, a read-only store, sizes and
ids out of range.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import beggarstats as bs
from beggarstats.run import store as store_module
from beggarstats.cli import main
from beggarstats.run.store import Store, load

# Looked up rather than imported, so that this module also runs against a version without them
# (every case here failed before issue #11, each on its own assertions rather than at import).
StoreError = getattr(store_module, "StoreError", ValueError)
StoreBusy = getattr(store_module, "StoreBusy", ValueError)
MAX_CHUNK_SIZE = 2**22


def verify(store, **kw):
    return store_module.verify(store, **kw)

from _reference_batch import CountingEngine

sim = importlib.import_module("beggarstats.run.simulate")
device_module = importlib.import_module("beggarstats.run.device")  # the batch engine the runs play with
ROOT = Path(__file__).resolve().parents[2]


def _cli(*args, **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "beggarstats", *map(str, args)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _chunks(store: Path, kind: str = "games") -> list[Path]:
    return sorted(store.glob(f"{kind}-*.parquet"))


def _wait_for_chunks(store: Path, k: int, proc: subprocess.Popen, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while len(_chunks(store)) < k:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, "the run wrote no chunks in time"
        time.sleep(0.005)


@pytest.fixture
def counting(monkeypatch):
    real = device_module._batch_engine()

    def install():
        engine = CountingEngine(real)
        monkeypatch.setattr(device_module, "_batch_engine", lambda: engine)
        return engine

    return install


# -- kill -9 and resume -----------------------------------------------------------------------------
@pytest.mark.slow
def test_kill_9_at_random_points_then_resume(tmp_path, per_seat=True, jobs=2):
    n, chunk, seed = 300_000, 7_500, 5
    store = tmp_path / "run"
    args = ["simulate", "--games", n, "--seed", seed, "--store", store, "--chunk-size", chunk, "--jobs", jobs]
    args += ["--per-seat"] if per_seat else []
    rng = random.Random(11 + jobs)
    kills = 0
    for k in sorted(rng.sample(range(1, 38), 3)):  # three kills, later and later in the run
        if len(_chunks(store)) >= k:
            continue
        proc = _cli(*args)
        _wait_for_chunks(store, k, proc)
        time.sleep(rng.random() * 0.03)  # sometimes between chunks, sometimes in the middle of a write
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        kills += 1
        if len(_chunks(store)) < n // chunk:  # an interrupted store is never handed back as if whole
            with pytest.raises(StoreError, match="lacks .* games asked for"):
                load(store)
            assert any(p.kind == "missing" for p in verify(store))
    assert kills >= 2
    proc = _cli(*args)
    out, err = proc.communicate()
    assert proc.returncode == 0, err
    assert f"games:    {n:,}" in out
    assert all(p.kind == "temporary" for p in verify(store))  # at most the files in flight at a kill
    expected = bs.simulate(n, seed=seed, per_seat=per_seat)
    if per_seat:
        pd.testing.assert_frame_equal(load(store), expected[0])
        pd.testing.assert_frame_equal(load(store, seats=True), expected[1])
    else:
        pd.testing.assert_frame_equal(load(store), expected)


# -- two writers --------------------------------------------------------------------------------------
_READY_THEN_RUN = """
import sys, time
from pathlib import Path
from beggarstats.cli import main
import beggarstats.run.simulate, beggarstats.engine.fast  # everything imported before the start signal
go = Path(sys.argv[1])
Path(sys.argv[2]).touch()  # ready
while not go.exists():
    time.sleep(0.001)
sys.exit(main(sys.argv[3:]))
"""


@pytest.mark.slow
def test_concurrent_writers_one_is_refused_and_no_game_is_lost(tmp_path):
    """Two runs on one store started together (different chunk sizes, as in the issue): either one
    is refused with a message, or they ran one after the other; never a game lost or doubled."""
    n, seed = 400_000, 5
    store, go = tmp_path / "run", tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ready = [tmp_path / "ready0", tmp_path / "ready1"]
    procs = [subprocess.Popen([sys.executable, "-c", _READY_THEN_RUN, str(go), str(r), "simulate", "--games", str(n),
                               "--store", str(store), "--seed", str(seed), *extra], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for r, extra in zip(ready, (["--chunk-size", "10000"], ["--chunk-size", "3001", "--jobs", "2"]))]
    end = time.monotonic() + 120
    while not all(r.exists() for r in ready):  # both have imported everything and wait
        assert time.monotonic() < end and all(p.poll() is None for p in procs)
        time.sleep(0.01)
    go.touch()
    results = [(p.wait(), *p.communicate()) for p in procs]
    codes = sorted(code for code, _, _ in results)
    assert codes in ([0, 2], [0, 0]), results
    for code, out, err in results:
        if code == 0:
            assert f"games:    {n:,} (seed {seed}, ids 0..{n - 1}" in out
        else:
            assert "being written by another run" in err and "Traceback" not in err
            assert len(err.strip().splitlines()) == 1
    assert verify(store) == []
    pd.testing.assert_frame_equal(load(store), bs.simulate(n, seed=seed))


def test_a_held_lock_refuses_a_second_writer_from_python(tmp_path, counting):
    st = bs.simulate_to_store(100, seed=3, store=tmp_path, chunk_size=50)
    expected = bs.simulate(100, seed=3)
    engine = counting()
    with st.lock():
        with pytest.raises(StoreBusy, match="being written by another run"):
            bs.simulate_to_store(300, seed=3, store=tmp_path)
        # reading what is there needs no lock
        pd.testing.assert_frame_equal(bs.simulate(100, seed=3, store=tmp_path), expected)
    assert engine.games == 0
    bs.simulate_to_store(300, seed=3, store=tmp_path)
    assert engine.games == 200


# -- single-bit flips -----------------------------------------------------------------------------
def test_every_single_bit_flip_in_a_chunk_is_detected(tmp_path):
    store = tmp_path / "run"
    bs.simulate_to_store(300, seed=5, store=store, chunk_size=300)
    (chunk,) = _chunks(store)
    good = chunk.read_bytes()
    footer = int.from_bytes(good[-8:-4], "little")
    meta_at = good.find(b"beggarstats")
    regions = {"header magic": range(0, 4), "data pages": range(4, len(good) - footer - 8),
               "footer (thrift metadata)": range(len(good) - footer - 8, len(good) - 8),
               "footer length and magic": range(len(good) - 8, len(good))}
    assert meta_at > len(good) - footer - 8  # our key-value metadata sits in the footer
    rng = random.Random(3)
    for name, positions in regions.items():
        assert len(positions) > 0, name
        # every byte of the short regions, 400 random bytes of the long ones; one bit each
        for pos in positions if len(positions) <= 400 else rng.sample(positions, 400):
            bad = bytearray(good)
            bad[pos] ^= 1 << rng.randrange(8)
            chunk.write_bytes(bytes(bad))
            with pytest.raises(StoreError, match="damaged"):
                load(store)
    chunk.write_bytes(good)
    pd.testing.assert_frame_equal(load(store), bs.simulate(300, seed=5))
    # verify names the file and the ids; repair removes it and the next run replays exactly those
    bad = bytearray(good)
    bad[len(good) // 2] ^= 0x10
    chunk.write_bytes(bytes(bad))
    (problem, missing) = verify(store, repair=True)
    assert problem.kind == "damaged" and problem.path == chunk and problem.ids == (0, 300)
    assert missing.kind == "missing" and missing.ids == (0, 300)
    assert not chunk.exists()
    # what `beggarstats store verify` reports: the file repair removed, the games the next run plays
    assert (problem.removable, missing.removable) == (True, False)
    assert (problem.missing_games, missing.missing_games) == (0, 300)


def test_a_flipped_bit_is_replayed_after_repair(tmp_path, counting):
    store = tmp_path / "run"
    bs.simulate_to_store(1000, seed=6, store=store, chunk_size=200, per_seat=True)
    victim = _chunks(store, "seats")[2]
    data = bytearray(victim.read_bytes())
    data[100] ^= 0x04
    victim.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=victim.name):
        load(store, seats=True)
    assert main(["store", "verify", str(store)]) == 1
    assert main(["store", "verify", str(store), "--repair"]) == 1
    engine = counting()
    games, seats = bs.simulate(1000, seed=6, store=store, per_seat=True)
    assert (engine.calls, engine.games) == (1, 200)
    expected = bs.simulate(1000, seed=6, per_seat=True)
    pd.testing.assert_frame_equal(games, expected[0])
    pd.testing.assert_frame_equal(seats, expected[1])
    assert main(["store", "verify", str(store)]) == 0


# -- foreign, missing, truncated chunks ---------------------------------------------------------------
def test_a_foreign_chunk_is_refused(tmp_path):
    mine, other = tmp_path / "seed5", tmp_path / "seed99"
    bs.simulate_to_store(600, seed=5, store=mine, chunk_size=200)
    bs.simulate_to_store(600, seed=99, store=other, chunk_size=200)
    target = _chunks(mine)[1]
    # (a) copied over a chunk under its name: the checksum in the name does not match
    original = target.read_bytes()
    shutil.copyfile(_chunks(other)[1], target)
    with pytest.raises(StoreError, match="damaged"):
        load(mine)
    # (b) copied in under its own name instead of ours: its metadata names seed 99
    target.unlink()
    shutil.copy(_chunks(other)[1], mine)
    with pytest.raises(StoreError, match=r"another run \(its seed differ"):
        load(mine)
    assert [p.kind for p in verify(mine)] == ["foreign", "missing"]
    # (c) a chunk of this very store renamed to another range (checksum recomputed)
    for p in mine.glob(f"games-{200:012d}-*.parquet"):
        p.unlink()
    first = _chunks(mine)[0]
    moved = mine / (f"games-{200:012d}-{400:012d}-" + first.name.split("-")[3])
    shutil.copyfile(first, moved)
    with pytest.raises(StoreError, match=r"its start differ"):
        load(mine)
    moved.unlink()
    target.write_bytes(original)
    assert verify(mine) == []
    pd.testing.assert_frame_equal(load(mine), bs.simulate(600, seed=5))


def test_a_missing_chunk_is_named_and_replayed(tmp_path, counting):
    store = tmp_path / "run"
    bs.simulate_to_store(1000, seed=7, store=store, chunk_size=250)
    _chunks(store)[2].unlink()
    with pytest.raises(StoreError, match=r"lacks 250 of the games asked for: ids 500\.\.749"):
        load(store)
    with pytest.warns(UserWarning, match=r"500\.\.749"):
        part = load(store, partial=True)
    assert len(part) == 750 and part.attrs["missing"] == [[500, 750]]
    assert [(p.kind, p.ids) for p in verify(store)] == [("missing", (500, 750))]
    expected = bs.simulate(1000, seed=7)
    engine = counting()
    pd.testing.assert_frame_equal(bs.simulate(1000, seed=7, store=store), expected)
    assert engine.games == 250


def test_a_truncated_chunk_is_reported_and_resume_repairs_it(tmp_path, counting):
    store = tmp_path / "run"
    bs.simulate_to_store(800, seed=8, store=store, chunk_size=200)
    victim = _chunks(store)[1]
    victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    with pytest.raises(StoreError, match=f"{victim.name}.*damaged"):
        load(store)
    size = len(_chunks(store)[0].read_bytes())
    engine = counting()
    st = bs.simulate_to_store(800, seed=8, store=store)
    assert engine.games == 200 and victim.stat().st_size > size // 2  # the same file, whole again
    assert verify(st) == []
    pd.testing.assert_frame_equal(load(store), bs.simulate(800, seed=8))


# -- manifest -------------------------------------------------------------------------------------------
def test_a_damaged_manifest_is_named(tmp_path, capsys):
    store = tmp_path / "run"
    bs.simulate_to_store(100, seed=9, store=store, chunk_size=50)
    manifest = store / "manifest.json"
    text = manifest.read_text()
    for damage in (text[: len(text) // 2], text.replace('"seed": 9', '"seed": 8'), "\x00\xff garbage"):
        manifest.write_bytes(damage.encode("latin-1"))
        with pytest.raises(StoreError, match=f"{manifest}.*damaged"):
            load(store)
        with pytest.raises(StoreError, match="manifest.json"):
            bs.simulate(100, store=store)
        assert main(["simulate", "--games", "100", "--store", str(store)]) == 2
        assert "manifest.json" in capsys.readouterr().err
        (problem,) = verify(store)
        assert problem.kind == "manifest" and str(manifest) in problem.message
    manifest.write_text(text)
    pd.testing.assert_frame_equal(load(store), bs.simulate(100, seed=9))


# -- full disk, read-only store -----------------------------------------------------------------------
@contextlib.contextmanager
def _small_filesystem(path: Path, size: str):
    """A tmpfs of ``size`` at ``path`` if this process may mount one (yields a remount function),
    else None (the caller simulates the condition)."""
    path.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        yield None
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                      capture_output=True).returncode != 0:
        yield None
        return
    try:
        yield lambda options: subprocess.run(["mount", "-o", f"remount,{options}", str(path)], check=True)
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def test_a_full_disk_loses_nothing_written_and_says_so(tmp_path, monkeypatch, capsys):
    n, seed = 50_000, 12  # 20 chunks of about 22 kB: the 256 kB disk is full before the tenth
    with _small_filesystem(tmp_path / "fs", "256k") as remount:
        store = tmp_path / "fs" / "run"
        if remount is None:  # simulated: the sixth file written finds the disk full
            real, calls = store_module._atomic_write_bytes, []

            def full_after_five(path, data):
                calls.append(path)
                if len(calls) > 6:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                real(path, data)
            monkeypatch.setattr(store_module, "_atomic_write_bytes", full_after_five)
        code = main(["simulate", "--games", str(n), "--seed", str(seed), "--store", str(store),
                     "--chunk-size", "2500"])
        err = capsys.readouterr().err
        assert code == 2 and "disk is full" in err and str(store) in err and "Traceback" not in err
        assert not list(store.glob(".*.tmp"))  # no temporary file left behind
        kept = _chunks(store)
        assert 0 < len(kept) < 20
        with pytest.raises(StoreError, match="lacks"):
            load(store)
        if remount is None:
            monkeypatch.undo()
        else:
            remount("size=4m")
        assert main(["simulate", "--games", str(n), "--seed", str(seed), "--store", str(store),
                     "--chunk-size", "2500"]) == 0
        pd.testing.assert_frame_equal(load(store), bs.simulate(n, seed=seed))


def test_a_read_only_store_is_read_and_never_half_written(tmp_path, monkeypatch, capsys):
    with _small_filesystem(tmp_path / "fs", "8m") as remount:
        store = tmp_path / "fs" / "run"
        bs.simulate_to_store(500, seed=13, store=store, chunk_size=100)
        if remount is not None:
            remount("ro")
        elif os.geteuid() != 0:
            for p in (store, *store.iterdir()):
                p.chmod(0o555 if p.is_dir() else 0o444)
        else:  # root without mount: permissions do not bind; simulate the file system's refusal
            def refuse(self):
                raise store_module.unwritable(self.path, OSError(errno.EROFS, os.strerror(errno.EROFS)))
            monkeypatch.setattr(store_module.StoreLock, "__enter__", refuse)
        pd.testing.assert_frame_equal(bs.simulate(500, seed=13, store=store), bs.simulate(500, seed=13))
        assert verify(store) == []
        with pytest.raises(OSError, match="Cannot write to the store"):
            bs.simulate(600, seed=13, store=store)
        assert main(["simulate", "--games", "600", "--seed", "13", "--store", str(store)]) == 2
        err = capsys.readouterr().err
        assert "Cannot write to the store" in err and "writable" in err and "Traceback" not in err
        pd.testing.assert_frame_equal(load(store), bs.simulate(500, seed=13))
        if remount is None and os.geteuid() != 0:
            for p in (store, *store.iterdir()):
                p.chmod(0o755)


# -- temporary files ----------------------------------------------------------------------------------
def test_temporary_files_have_unpredictable_names(tmp_path):
    """A name made of the pid and thread id can be planted in advance (here as a symlink to a file
    the run must not touch); a temporary file of the store is created fresh, never followed."""
    import threading

    store = tmp_path / "run"
    victim = tmp_path / "victim"
    victim.write_text("precious")
    Store.open(store, rules=bs.Rules(), seed=14, per_seat=False)
    for lo, hi in ((0, 50), (50, 100)):
        name = f"games-{lo:012d}-{hi:012d}.parquet"
        planted = store / f".{name}.{os.getpid()}-{threading.get_ident()}.tmp"
        planted.symlink_to(victim)
    bs.simulate_to_store(100, seed=14, store=store, chunk_size=50, n_jobs=1)
    assert victim.read_text() == "precious"
    pd.testing.assert_frame_equal(load(store), bs.simulate(100, seed=14))


# -- sizes, ids and seeds out of range --------------------------------------------------------------
@pytest.mark.parametrize("call, match", [
    (lambda: bs.simulate(10**12, seed=1), r"need about .* GiB .*simulate_to_store"),
    (lambda: bs.simulate(2**64, seed=1), "n_games"),
    (lambda: bs.simulate(1, seed=1, start=2**63), "start"),
    (lambda: bs.simulate(2, seed=1, start=2**63 - 1), "start"),
    (lambda: bs.simulate(10, seed=1, chunk_size=MAX_CHUNK_SIZE + 1), "chunk_size"),
    (lambda: bs.simulate_to_store(2**63 + 1, seed=1, store="unused"), "n_games"),
    (lambda: bs.simulate_to_store(5, seed=1, start=-1, store="unused"), "start"),
    (lambda: bs.replay(1, 2**70), "game"),
    (lambda: bs.replay(1, -1), "game"),
    (lambda: bs.replay(2**64, 0), "seed"),
    (lambda: bs.simulate_matches(10**12, seed=1), r"matches need about .* GiB"),
    (lambda: bs.simulate_matches(10, seed=1, chunk_size=MAX_CHUNK_SIZE + 1), "chunk_size"),
])
def test_out_of_range_sizes_are_value_errors_before_anything_runs(call, match, counting, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    engine = counting()
    with pytest.raises(ValueError, match=match):
        call()
    assert engine.calls == 0 and not (tmp_path / "unused").exists()


def test_a_frame_that_does_not_fit_is_refused_with_the_estimate(monkeypatch, counting):
    monkeypatch.setattr("beggarstats.run.limits.available_memory", lambda: 10**6)
    engine = counting()
    need = f"{100_000 * sim.PEAK_BYTES_PER_GAME / 2**20:.1f}".replace(".", "\\.")  # the calibrated estimate
    with pytest.raises(ValueError, match=rf"100,000 games need about {need} MiB .* than the 1\.0 MiB available.*store"):
        bs.simulate(100_000, seed=1)
    with pytest.raises(ValueError, match="with per-seat rows"):
        bs.simulate(20_000, seed=1, per_seat=True)
    assert engine.calls == 0
    assert len(bs.simulate(1000, seed=1)) == 1000  # what fits runs


def test_the_chunk_size_cap():
    from beggarstats.run.limits import MAX_CHUNK_SIZE as cap
    assert cap == MAX_CHUNK_SIZE


def test_the_highest_game_ids_play(counting):
    df = bs.simulate(2, seed=1, start=2**63 - 2)
    assert df["game"].tolist() == [2**63 - 2, 2**63 - 1]
    deal, result = bs.replay(1, 2**63 - 1, trace=False)
    assert result.cards == df["cards"].iloc[1]


@pytest.mark.parametrize("argv, flag", [
    (["play", "--seed", "-5", "--shuffle-pile", "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"], "--seed"),
    (["play", "--seed", str(10**23), "--shuffle-pile", "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"],
     "--seed"),
    (["simulate", "--games", "10", "--seed", "1", "--start", str(2**63 - 1)], "--start"),
    (["simulate", "--games", str(2**64), "--seed", "1"], "--games"),
    (["simulate", "--games", "10", "--seed", "1", "--chunk-size", str(MAX_CHUNK_SIZE + 1)], "--chunk-size"),
    (["matches", "--matches", str(10**12), "--seed", "1"], "matches need about"),
])
def test_cli_out_of_range_is_exit_2_naming_the_flag(argv, flag, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert flag in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("hands, where", [
    ([[0] * 25 + [-2], [0] * 26], "hand 0, position 26: -2"),
    ([[0] * 26, [7] + [0] * 25], "hand 1, position 1: 7"),
    ([[0] * 26, [0] * 25 + [1.0]], "hand 1, position 26: 1.0"),
])
def test_play_checks_card_values_given_as_lists(hands, where):
    with pytest.raises(bs.DealError, match=where):
        bs.play(hands, any_deck=True)
    standard = bs.play("---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---")
    from beggarstats.game.cards import parse_deal
    assert bs.play([list(h) for h in parse_deal(standard.deal)]).cards == standard.cards == 8344


def test_a_chunk_stored_twice_is_found_after_a_run_and_repaired(tmp_path):
    """Overlapping files (a chunk copied in from a run with other chunk sizes) are never loaded
    twice: the next run says so, verify names the extra file, repair removes it."""
    store, other = tmp_path / "run", tmp_path / "other"
    bs.simulate_to_store(400, seed=15, store=store, chunk_size=100)
    bs.simulate_to_store(100, seed=15, store=other, start=50, chunk_size=100)
    (extra,) = _chunks(other)
    shutil.copy(extra, store)  # games 50..149: valid, same configuration, overlapping two chunks
    with pytest.raises(StoreError, match="holds games twice"):
        bs.simulate_to_store(500, seed=15, store=store, chunk_size=100)
    assert [(p.kind, p.path.name) for p in verify(store)] == [("overlap", extra.name)]
    verify(store, repair=True)
    pd.testing.assert_frame_equal(bs.simulate(500, seed=15, store=store), bs.simulate(500, seed=15))
    assert verify(store) == []
