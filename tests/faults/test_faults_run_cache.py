"""The run cache of `beggarstats figures --cache` attacked as the store was (issue #51 item 8): damaged,
truncated and foreign files, a damaged or stale manifest, two runs at once, a full disk, a cache left
by older code. An entry is never loaded damaged: it is mended (said in one line) and its lost games
are played again, so the run is the one a cold cache gives, game for game.

Before: a damaged chunk or manifest stopped `figures --cache` with advice to run `store verify
--repair` and "the same simulate command"; a second `figures --cache` beside a first stopped half-way
(`StoreBusy`); a chunk cut short was replayed but counted as loaded; a BEGGARSTATS_RUNS_DIR that is a
file was "The `store` ... cannot be made", after the kernels compiled.
"""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
import time

import pandas as pd
import pytest

import beggarstats as bs
import beggarstats.run.store as store_module
from beggarstats.cli import main
from beggarstats.run.run_cache import cached_simulate
from beggarstats.run.store import store_key, write_lock

pytestmark = pytest.mark.usefixtures("warm_kernels")

RULES = bs.Rules(players=3)
N, SEED = 300, 11


@pytest.fixture(scope="module")
def clean():
    return bs.simulate(N, rules=RULES, seed=SEED, n_jobs=1), bs.simulate(N, rules=RULES, seed=SEED, n_jobs=1,
                                                                          per_seat=True)


def _entry(tmp_path, per_seat=False):
    """A run cache entry of three chunks, as `figures --cache` leaves it."""
    path = tmp_path / "runs" / store_key(RULES, SEED, per_seat)
    bs.simulate_to_store(N, rules=RULES, seed=SEED, store=path, chunk_size=100, n_jobs=1, per_seat=per_seat)
    return path


def _chunk(path, kind="games", k=1):
    return sorted(path.glob(f"{kind}-*.parquet"))[k]


def _same(result, expected):
    for got, want in zip(result if isinstance(result, tuple) else (result,),
                         expected if isinstance(expected, tuple) else (expected,)):
        pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True), check_like=True)


def _manifest(path, **changes):
    m = json.loads((path / "manifest.json").read_text())
    m.update(changes)
    (path / "manifest.json").write_text(json.dumps(m))


# what each damage does, and how many games it loses (played again); None: nothing said on stderr
DAMAGE = {
    "flipped byte": (lambda p: _flip(_chunk(p)), 100, "checksum"),
    "chunk cut short": (lambda p: _cut(_chunk(p)), 100, None),
    "empty chunk": (lambda p: _chunk(p).write_bytes(b""), 100, None),
    "chunk is a pipe": (lambda p: _replace(_chunk(p), os.mkfifo), 100, "not a regular file"),
    "chunk of another run": (lambda p: _foreign(p), 100, "another run"),
    "chunk stored twice": (lambda p: _twice(p), 0, "twice"),
    "manifest garbage": (lambda p: (p / "manifest.json").write_bytes(b"\x00garbage"), 0, "manifest"),
    "manifest cut short": (lambda p: (p / "manifest.json").write_bytes((p / "manifest.json").read_bytes()[:40]), 0,
                           "manifest"),
    "manifest empty": (lambda p: (p / "manifest.json").write_bytes(b""), 0, "manifest"),
    "manifest is a pipe": (lambda p: _replace(p / "manifest.json", os.mkfifo), 0, "manifest"),
    "manifest of another seed": (lambda p: _manifest(p, seed=12345), 0, "manifest"),
    "manifest of older code": (lambda p: _manifest(p, rules_version=2), 0, "another run"),
    "manifest of an older format": (lambda p: _manifest(p, format=1), 0, "older"),
    "manifest gone": (lambda p: (p / "manifest.json").unlink(), 0, None),
    # a write cut short by a kill: never loaded, left for `store verify --repair` (another run's may be in flight)
    "stray temporary file": (lambda p: (p / f".{_chunk(p).name}.k1ll3dxy.tmp").write_bytes(b"half"), 0, None),
}


def _flip(f):
    b = bytearray(f.read_bytes())
    b[len(b) // 2] ^= 0x10
    f.write_bytes(bytes(b))


def _cut(f):
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])


def _replace(f, make):
    f.unlink()
    make(f)


def _foreign(path):
    """A chunk of the same ids from a run of another seed, under this entry's name for it."""
    other = path.parent / "other"
    bs.simulate_to_store(N, rules=RULES, seed=SEED + 1, store=other, chunk_size=100, n_jobs=1)
    mine = _chunk(path)
    mine.unlink()
    theirs = _chunk(other)
    theirs.rename(path / theirs.name)


def _twice(path):
    f = _chunk(path, k=0)
    (path / f.name.replace("000000000100", "000000000050")).write_bytes(f.read_bytes())


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_entry_is_mended_never_loaded(tmp_path, clean, damage):
    spoil, lost, said = DAMAGE[damage]
    path = _entry(tmp_path)
    spoil(path)
    err = io.StringIO()
    result, played = cached_simulate(N, rules=RULES, seed=SEED, n_jobs=1, store=path, stream=err)
    _same(result, clean[0])  # game for game what a cold cache gives
    assert played == lost
    lines = err.getvalue().splitlines()
    if said is None:
        assert lines == []
    else:
        assert len(lines) == 1 and lines[0].startswith(f"beggarstats: the run cache entry {path} was damaged (")
        assert said in lines[0] and lines[0].endswith("mended, its lost games are played again")
    # the entry is sound again, and the next call loads it whole
    assert [p.kind for p in bs.verify(path)] == (["temporary"] if damage == "stray temporary file" else [])
    again, played = cached_simulate(N, rules=RULES, seed=SEED, n_jobs=1, store=path, stream=err)
    _same(again, clean[0])
    assert played == 0 and len(err.getvalue().splitlines()) == len(lines)


def test_what_cannot_be_mended_is_refused_naming_the_entry(tmp_path):
    """A folder at a chunk's name: the store never removes a folder, so the entry is refused, in words
    for the cache (not the store's `store verify --repair` and "the same simulate command")."""
    path = _entry(tmp_path)
    _replace(_chunk(path), os.mkdir)
    err = io.StringIO()
    with pytest.raises(store_module.StoreError) as info:
        cached_simulate(N, rules=RULES, seed=SEED, n_jobs=1, store=path, stream=err)
    message = str(info.value)
    assert message.startswith(f"The run cache entry {str(path)!r} cannot be mended (Chunk 'games-000000000100-")
    assert "delete the folder" in message and "simulate" not in message and "verify" not in message
    assert len(err.getvalue().splitlines()) == 1  # the try to mend it, said


@pytest.mark.parametrize("make", ["file", "fifo", "link"])
def test_an_entry_that_is_not_a_folder_is_refused_in_the_caches_words(tmp_path, make):
    path = tmp_path / "runs" / store_key(RULES, SEED)
    path.parent.mkdir()
    {"file": lambda: path.write_text("x"), "fifo": lambda: os.mkfifo(path),
     "link": lambda: path.symlink_to(tmp_path / "gone")}[make]()
    with pytest.raises(store_module.StoreError) as info:
        cached_simulate(N, rules=RULES, seed=SEED, n_jobs=1, store=path, stream=io.StringIO())
    assert str(info.value).startswith(f"The run cache entry {str(path)!r} is not a folder")
    assert "`store`" not in str(info.value) and os.path.lexists(path)


@pytest.mark.parametrize("lose", ["seats", "games"])
def test_a_per_seat_entry_missing_one_half_of_a_chunk_is_mended(tmp_path, clean, lose):
    path = _entry(tmp_path, per_seat=True)
    _chunk(path, lose).unlink()
    result, played = cached_simulate(N, rules=RULES, seed=SEED, n_jobs=1, per_seat=True, store=path,
                                     stream=io.StringIO())
    _same(result, clean[1])
    assert played == 100


def test_a_full_disk_loses_nothing_written(tmp_path, clean, monkeypatch):
    """The disk fills after the first chunk: a sentence saying so; the next call, with room, plays only
    the games that were not written (a real 120 kB tmpfs gave the same, by hand)."""
    path = tmp_path / "runs" / store_key(RULES, SEED, False)
    real, writes = store_module._atomic_write_bytes, []

    def filling(target, data):
        if target.name.startswith("games-") and any(w.startswith("games-") for w in writes):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        writes.append(target.name)
        real(target, data)

    monkeypatch.setattr(store_module, "_atomic_write_bytes", filling)
    with pytest.raises(OSError, match="The disk is full: free some space"):
        bs.simulate(N, rules=RULES, seed=SEED, n_jobs=1, chunk_size=100, store=path)
    monkeypatch.setattr(store_module, "_atomic_write_bytes", real)
    result, played = cached_simulate(N, rules=RULES, seed=SEED, n_jobs=1, store=path, stream=io.StringIO())
    _same(result, clean[0])
    assert played == N - 100 and not list(path.glob("*.tmp"))


def test_a_second_run_waits_for_the_first(tmp_path, clean):
    """Two `figures --cache` at once: the second stopped with StoreBusy half-way. Now it waits for the
    entry's writer, then loads what it wrote."""
    path = _entry(tmp_path)
    _chunk(path).unlink()  # something left to write, so the second run needs the lock
    code = ("import sys, beggarstats as bs\n"
            "from beggarstats.run.run_cache import cached_simulate\n"
            f"r, played = cached_simulate({N}, rules=bs.Rules(players=3), seed={SEED}, n_jobs=1, store=sys.argv[1])\n"
            "print(played, len(r))\n")
    with write_lock(path):  # the first run, writing
        second = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        said = second.stderr.readline()  # what it says first: that it waits (or, refused, its error)
        time.sleep(1)
        assert second.poll() is None, said  # waiting, not refused
    out, err = second.communicate(timeout=300)
    assert second.returncode == 0, err
    assert said == f"beggarstats: another run is writing the run cache entry {path}: waiting for it to finish\n"
    assert err == "" and out.split() == ["100", str(N)]


def test_a_cache_of_older_code_is_another_entry():
    """RULES_VERSION and the store format are in the key: an entry of older code is never opened."""
    key = store_key(RULES, SEED)
    old = json.dumps({**store_module.store_config(RULES, SEED, False), "rules_version": 2,
                      "format": store_module.STORE_FORMAT}, sort_keys=True)
    import hashlib

    assert hashlib.sha256(old.encode()).hexdigest()[:16] != key


@pytest.mark.parametrize("make", ["file", "fifo", "under a file"])
def test_figures_with_an_unusable_run_cache_is_one_line_before_compiling(tmp_path, capsys, monkeypatch, make):
    import beggarstats.run.warmup as warmup

    monkeypatch.setattr(warmup, "warm_up", lambda *a, **k: pytest.fail("compiled before refusing"))
    runs = tmp_path / "runs"
    if make == "file":
        runs.write_text("x")
    elif make == "fifo":
        os.mkfifo(runs)
    else:
        runs.write_text("x")
        runs = runs / "deeper"
    monkeypatch.setenv("BEGGARSTATS_RUNS_DIR", str(runs))
    assert main(["figures", "--cache", "--games", "1000", "--out", str(tmp_path / "figs")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--cache folder" in err and "BEGGARSTATS_RUNS_DIR" in err
    assert "`store`" not in err and not (tmp_path / "figs").exists()
