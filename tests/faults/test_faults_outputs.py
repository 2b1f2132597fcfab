"""Outputs checked before a run, atomic writes, constant-memory printouts (issue #21, items 10-13).

Before: a full disk under ``summarize --store`` said "[Errno 28] No space left on device";
``--store /dev/null`` or ``/dev/full`` gave raw errno text; an ``--out`` that is a directory was
found after the run; ``figures --games 4294967296`` was refused only after compiling, with advice
naming ``simulate``; figures, CSV and README were rewritten in place; ``simulate --store`` read
the summary columns of every game back into memory; ``summarize(seed=None, store=D)`` in a
parquet store directory drew a fresh seed; the memory estimate was 36-43% above the measured peak.
"""

from __future__ import annotations

import errno
import importlib
import os
from pathlib import Path

import pytest

import beggarstats as bs
from beggarstats.cli import main
from beggarstats.run import outputs
from beggarstats.run.store import Store
from _scripts import load_script

summary_module = importlib.import_module("beggarstats.run.summary")
summarize_module = importlib.import_module("beggarstats.run.summarize")
device_module = importlib.import_module("beggarstats.run.device")
summary_chunks = importlib.import_module("beggarstats.run.summary_chunks")
ROOT = Path(__file__).resolve().parents[2]


def _error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "[Errno" not in err
    return err


@pytest.mark.parametrize("argv, says", [
    (["summarize", "--games", "100", "--store", "/dev/null"], "'/dev/null' is not a directory"),
    (["summarize", "--games", "100", "--store", "/dev/full"], "'/dev/full' is not a directory"),
    (["simulate", "--games", "100", "--store", "/dev/null"], "'/dev/null' is not a directory"),
    (["simulate", "--games", "100", "--store", "/dev/full/x"], "is not a directory"),
])
def test_a_store_that_is_not_a_directory_is_a_sentence(capsys, argv, says):
    assert says in _error(capsys, argv)


def test_an_out_that_cannot_be_written_is_refused_before_the_run(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(device_module, "_batch_engine", lambda: pytest.fail("a game was played"))
    (tmp_path / "dir.json").mkdir()
    (tmp_path / "full.json").symlink_to("/dev/full")
    for out, says in ((tmp_path / "dir.json", "is a directory"), (tmp_path / "full.json", "not a regular file"),
                      (tmp_path / "none" / "x.json", "does not exist"), (tmp_path / "x.csv", "a .json file")):
        err = _error(capsys, ["summarize", "--games", "100", "--out", str(out)])
        assert says in err and str(out) in err and "--out" in err


def test_a_full_disk_under_summarize_store_says_what_to_do(tmp_path, capsys, monkeypatch):
    def full(path, text, what=None):
        raise outputs.io_error(path, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), what)

    monkeypatch.setattr(summary_module, "write_text", full)
    err = _error(capsys, ["summarize", "--games", "100", "--seed", "1", "--jobs", "1", "--store", str(tmp_path)])
    assert str(tmp_path / "summary.json") in err and "disk is full" in err and "free some space" in err


def test_replacing_leaves_the_old_file_when_a_write_fails(tmp_path, monkeypatch):
    path = tmp_path / "README.md"
    path.write_text("old")
    with pytest.raises(RuntimeError):
        with outputs.replacing(path) as tmp:
            tmp.write_text("half of the ne")
            raise RuntimeError("killed")
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["README.md"]
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space")))
    with pytest.raises(OSError, match="Cannot write the file .*README.md.*disk is full"):
        outputs.write_text(path, "new")
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["README.md"]
    monkeypatch.undo()
    outputs.write_text(path, "new")
    assert path.read_text() == "new" and os.listdir(tmp_path) == ["README.md"]


@pytest.fixture(scope="module")
def figures_module():
    return importlib.import_module("beggarstats.report.figures")


def test_figures_write_atomically_and_mark_an_unfinished_folder(tmp_path, figures_module, monkeypatch):
    import matplotlib.pyplot as plt

    png = tmp_path / "lengths.png"
    png.write_bytes(b"the old figure")
    fig = plt.figure()
    monkeypatch.setattr(fig, "savefig", lambda target, **kw: (Path(target).write_bytes(b"\x89PNG half"),
                                                            (_ for _ in ()).throw(KeyboardInterrupt())))
    with pytest.raises(KeyboardInterrupt):
        figures_module.FigureOut(tmp_path, seed=1).save(fig, png.name, 1000, "standard")
    assert png.read_bytes() == b"the old figure" and os.listdir(tmp_path) == ["lengths.png"]

    def interrupted(out, *args):
        (out / "lengths.png").write_bytes(b"a new figure")
        raise KeyboardInterrupt

    monkeypatch.setattr(figures_module, "_make", interrupted)
    with pytest.raises(KeyboardInterrupt):
        figures_module.make_figures(tmp_path, games=1000, seed=1, n_jobs=1, store=False, progress=False)
    said = (tmp_path / figures_module.INCOMPLETE).read_text()
    # without a cache nothing is there to load the next time (#50: it said the games were loaded from the cache)
    assert "did not finish" in said and "every game is played again" in said and "loaded from" not in said
    with pytest.raises(KeyboardInterrupt):
        figures_module.make_figures(tmp_path, games=1000, seed=1, n_jobs=1, store=tmp_path / "runs", progress=False)
    said = (tmp_path / figures_module.INCOMPLETE).read_text()
    assert "--cache: the games already played are loaded from the run cache" in said and "again:" not in said
    monkeypatch.setattr(figures_module, "_make", lambda *args: "table")
    assert figures_module.make_figures(tmp_path, games=1000, seed=1, n_jobs=1, store=False) == "table"
    assert not (tmp_path / figures_module.INCOMPLETE).exists()


def test_figures_too_large_is_refused_before_compiling(tmp_path, capsys, monkeypatch, figures_module):
    import beggarstats.run.warmup as warmup

    monkeypatch.setattr(warmup, "warm_up", lambda *a, **k: pytest.fail("compiled before refusing"))
    err = _error(capsys, ["figures", "--games", "4294967296", "--out", str(tmp_path / "f")])
    assert "--games" in err and "simulate" not in err
    assert not (tmp_path / "f").exists()


@pytest.mark.parametrize("out", ["/proc/x", "/proc/x/y", "/sys/beggarstats", "full"])
def test_figures_out_that_cannot_be_written_is_refused_before_anything(tmp_path, capsys, monkeypatch, out):
    """`figures --out /proc/x` gave a raw errno after 24 s (compiling, then the first file): a file is now
    written there before anything runs (root's os.access says yes to /proc), and every folder the try
    made is removed (issue #51 item 7). A full disk stands in through the temporary file's write."""
    import beggarstats.run.warmup as warmup
    import beggarstats.run.writable as writable

    monkeypatch.setattr(warmup, "warm_up", lambda *a, **k: pytest.fail("compiled before refusing"))
    if out == "full":
        def full(*args, **kwargs):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(writable.tempfile, "TemporaryFile", full)
        out = str(tmp_path / "new" / "figures")
    err = _error(capsys, ["figures", "--out", out, "--games", "1000"])
    assert err.count("\n") == 1 and f"--out {out!r} cannot be written" in err and "nothing was run" in err
    assert not (tmp_path / "new").exists()


def _counting_reads(monkeypatch) -> list:
    """Every `Store.read` call from now on, by its arguments (and `Store.frame` fails the test)."""
    monkeypatch.setattr(Store, "frame", lambda *a, **k: pytest.fail("the whole run was read back"))
    reads = []
    real_read = Store.read
    monkeypatch.setattr(Store, "read", lambda self, **kw: reads.append(kw) or real_read(self, **kw))
    return reads


def test_simulate_store_summarises_while_it_writes(tmp_path, capsys, monkeypatch):
    """Item 12: the printout of ``simulate --store`` is aggregated chunk by chunk as the chunks are
    written; nothing is read back (it read every chunk back after the run)."""
    from beggarstats.cli.simulate import summary

    argv = ["simulate", "--games", "3000", "--seed", "5", "--start", "7", "--players", "3", "--chunk-size", "500"]
    assert main(argv) == 0
    direct = capsys.readouterr().out
    reads = _counting_reads(monkeypatch)
    assert main(argv + ["--store", str(tmp_path)]) == 0
    stored = capsys.readouterr().out
    assert reads == []  # not one chunk read back
    assert stored.replace(f"store:    {tmp_path} (0 games loaded, 3,000 played)\n", "") == direct
    exact = bs.summarize(3000, rules=bs.Rules(players=3), seed=5, start=7, n_jobs=1)
    assert stored.startswith(summary(exact) + "\n")  # the Summary summarize gives, to the last line


def test_a_resumed_simulate_store_reads_back_only_what_it_loads(tmp_path, capsys, monkeypatch):
    argv = ["simulate", "--seed", "5", "--players", "3", "--chunk-size", "500", "--store", str(tmp_path)]
    assert main(argv + ["--games", "1500"]) == 0
    capsys.readouterr()
    reads = _counting_reads(monkeypatch)
    assert main(argv + ["--games", "3000"]) == 0
    resumed = capsys.readouterr().out
    assert sorted((kw["start"], kw["stop"]) for kw in reads) == [(0, 500), (500, 1000), (1000, 1500)]
    assert main(["simulate", "--games", "3000", "--seed", "5", "--players", "3"]) == 0
    direct = capsys.readouterr().out
    assert resumed == direct + f"store:    {tmp_path} (1,500 games loaded, 1,500 played)\n"


def test_store_and_summarize_equals_summarize(tmp_path):
    """Loaded and played games together, a loaded chunk cut by ``start``, per-seat rows, two jobs,
    loops and games past the cap: the Summary is summarize's."""
    from beggarstats.game.decks import Deck

    rules = bs.Rules(deck=Deck.from_counts([4, 2, 0, 0, 0]))  # loops: 6% of these games
    bs.simulate_to_store(3000, rules=rules, seed=7, store=tmp_path, chunk_size=700, n_jobs=1, start=10, per_seat=True)
    st, s, played = summarize_module.store_and_summarize(3000, rules=rules, store=tmp_path, start=500, n_jobs=2,
                                                       chunk_size=300, per_seat=True, cap=6, top=7)
    direct = bs.summarize(3000, rules=rules, seed=7, start=500, cap=6, top=7, n_jobs=1)
    assert direct.outcomes[1] > 0 and direct.over_cap["game"].size > 0
    assert s == direct and played == 490 and st.seed == 7  # the store's seed (seed=None)
    with pytest.raises(ValueError, match="both `reduce` and `collect`"):
        bs.simulate_to_store(10, seed=1, store=tmp_path / "x", reduce=len)


def test_store_and_summarize_keeps_no_summary_per_chunk(tmp_path, monkeypatch):
    """The parts are added up as they come: the Summaries alive never grow with the chunks played
    (one kept per chunk grew by ~50 KB a chunk: 2 GB for a 3x10^9-game run)."""
    import weakref

    real, parts, alive = summarize_module.summarize_arrays, [], []

    def reduce(*args, **kwargs):
        alive.append(sum(ref() is not None for ref in parts))
        part = real(*args, **kwargs)
        parts.append(weakref.ref(part))
        return part

    monkeypatch.setattr(summarize_module, "summarize_arrays", reduce)
    summarize_module.store_and_summarize(2000, seed=2, store=tmp_path, n_jobs=1, chunk_size=200)
    assert len(parts) == 10 and max(alive) <= 3


def test_summarize_store_equals_summarize(tmp_path):
    from beggarstats.game.decks import Deck

    rules = bs.Rules(deck=Deck.from_counts([4, 2, 0, 0, 0]))  # loops: 6% of these games
    bs.simulate_to_store(3000, rules=rules, seed=7, store=tmp_path, chunk_size=700, n_jobs=1, start=10)
    direct = bs.summarize(3000, rules=rules, seed=7, start=10, cap=6, top=7, n_jobs=1)
    assert direct.outcomes[1] > 0 and direct.over_cap["game"].size > 0
    assert summary_chunks.summarize_store(tmp_path, cap=6, top=7) == direct


def test_summarize_in_a_parquet_store_takes_its_seed(tmp_path):
    bs.simulate_to_store(300, seed=77, store=tmp_path, n_jobs=1)
    s = bs.summarize(300, store=tmp_path, n_jobs=1)
    assert s.seed == 77 and s == bs.summarize(300, seed=77, n_jobs=1)


@pytest.mark.slow
@pytest.mark.usefixtures("warm_kernels")  # a kernel compiled inside the measured child would count (a CI run: 129.7 B/game)
def test_the_memory_estimate_is_what_benchmarks_memory_measures():
    memory = load_script("benchmarks/memory.py")
    sim = importlib.import_module("beggarstats.run.simulate")
    # the sizes of the benchmark's rows (smaller runs carry the chunks in flight over fewer games:
    # 37.9 bytes per game at 2x10^6; the estimate is for the runs it refuses, far larger)
    # The peak varies from run to run with when the chunks arrive and which thread's malloc arena
    # holds them: with per-seat rows it falls in two modes (106.2-108.4 and 122.5-126.5 bytes per game
    # in nine runs on one machine, stop 46), so no one run is the peak. The estimate is held above the
    # highest of three runs (it bounds the peak) and within 1.4x of the lowest (it does not refuse
    # runs that fit: CI failed once on 1.25x the highest, when all three runs fell in the low mode).
    for n, per_seat in ((5_000_000, False), (500_000, True)):
        peaks = [memory.measure("simulate", n, 2, per_seat)["peak"] / n for _ in range(3)]
        estimate = sim.peak_bytes_per_game(bs.Rules(), per_seat)
        assert max(peaks) <= estimate <= 1.4 * min(peaks), (per_seat, peaks, estimate)


@pytest.mark.parametrize("players", [2, 3])
def test_the_matches_frame_is_compact_and_the_estimate_fits_it(players):
    """Item 13: the matches frame is built in place in its final dtypes (39 bytes per match and 4
    per seat; the labels one byte each, not a string each: 78 bytes with 2 players before), and the
    refusal's estimate is its measured peak (benchmarks/memory.py: 45.7 bytes per match at 4x10^6
    with 2 players), within 1.3x of the frame."""
    from beggarstats.run.matches import peak_bytes_per_match

    rules = bs.Rules(players=players)
    df = bs.simulate_matches(1000, rules=rules, seed=4, n_jobs=2, chunk_size=300)
    per_match = df.memory_usage(deep=True, index=False).sum() / len(df)
    assert per_match == pytest.approx(39 + 4 * players, abs=0.25)  # (+ the categories over 1000 rows)
    assert str(df["rules"].dtype) == str(df["format"].dtype) == "category"
    assert (df["rules"] == rules.name).all() and (df["format"] == "best_of_3").all()
    assert per_match <= peak_bytes_per_match(rules) <= 1.3 * per_match

