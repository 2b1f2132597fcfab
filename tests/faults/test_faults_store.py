"""The parquet store reads only its own regular files and repairs only what it wrote (issue #21, items 4, 5).

Before: ``store verify --repair`` removed a user's ``mydata.parquet`` and ``.my.tmp`` (and
summarize's own ``.summary.json.*.tmp``); a chunk path that was a FIFO hung ``load`` and ``verify``,
and one linked to /dev/zero was read until memory ran out.
"""

from __future__ import annotations

import os
import threading

import pytest

import beggarstats as bs
from beggarstats.cli import main
from beggarstats.run.store import StoreError, load, verify


@pytest.fixture
def store(tmp_path):
    d = tmp_path / "run"
    bs.simulate_to_store(200, seed=3, store=d, chunk_size=100, n_jobs=1)
    return d


def spoil(path, make):
    """Put at ``path`` what a store must never read: a FIFO, a link to /dev/zero, a sparse terabyte
    or a directory."""
    if os.path.lexists(path):
        os.unlink(path)
    if make == "fifo":
        os.mkfifo(path)
    elif make == "dev_zero":
        path.symlink_to("/dev/zero")
    elif make == "huge":
        with open(path, "wb") as f:
            f.truncate(2**40)  # a sparse terabyte: refused by its size, not read
    else:
        path.mkdir()


def _finishes(fn, timeout=60):
    """Run ``fn`` in a thread; what it returned or raised, or fail if it is still running (a hang)."""
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout)
    assert not t.is_alive(), f"{fn} did not finish in {timeout} s"
    return box


def test_repair_removes_only_the_files_the_store_wrote(store, capsys):
    first = sorted(store.glob("games-*.parquet"))[0]
    theirs = {"mydata.parquet": b"PAR1 mine", ".my.tmp": b"mine", ".summary.json.123-456.tmp": b"{}",
              "games-0-100.parquet": b"an older format", ".notes.parquet.tmp": b"mine"}
    for name, data in theirs.items():
        (store / name).write_bytes(data)
    own_tmp = store / f".{first.name}.ab_9XYZ1.tmp"  # what an interrupted write leaves
    own_tmp.write_bytes(b"PAR1 half")
    first.write_bytes(first.read_bytes()[:-20])  # a damaged chunk
    problems = verify(store)
    others = {p.path.name for p in problems if p.kind == "other"}
    assert others == set(theirs) and not any(p.removable for p in problems if p.kind == "other")
    assert {p.path for p in problems if p.removable} == {own_tmp, first}
    assert main(["store", "verify", str(store), "--repair"]) == 1
    out = capsys.readouterr().out
    assert "mydata.parquet" in out and "removed 2 files" in out
    assert all((store / name).read_bytes() == data for name, data in theirs.items())  # every one kept
    assert not own_tmp.exists() and not first.exists()
    bs.simulate_to_store(200, seed=3, store=store, chunk_size=100, n_jobs=1)
    assert len(load(store)) == 200


@pytest.mark.parametrize("make", ["fifo", "dev_zero", "huge", "directory"])
def test_a_chunk_that_is_not_a_small_regular_file_is_reported_never_read(store, make):
    chunk = sorted(store.glob("games-*.parquet"))[1]
    spoil(chunk, make)
    loaded = _finishes(lambda: load(store))
    assert isinstance(loaded.get("error"), StoreError) and chunk.name in str(loaded["error"])
    assert "regular file" in str(loaded["error"]) or "more than a chunk" in str(loaded["error"])
    found = _finishes(lambda: verify(store))["value"]
    assert [(p.kind, p.path) for p in found if p.kind != "missing"] == [("damaged", chunk)]
    box = _finishes(lambda: bs.simulate(200, seed=3, store=store, chunk_size=100, n_jobs=1))
    if make == "huge":  # a regular file without parquet's magic: a chunk cut short, replaced by the run
        assert len(box["value"]) == 200
        return
    assert isinstance(box.get("error"), StoreError) and chunk.name in str(box["error"])
    if make != "directory":  # repair removes the entry (never what a link points to), a run replays it
        _finishes(lambda: verify(store, repair=True))
        assert not os.path.lexists(chunk) and os.path.exists("/dev/zero")
        assert len(bs.simulate(200, seed=3, store=store, chunk_size=100, n_jobs=1)) == 200


def test_load_of_a_pipe_is_refused(tmp_path):
    os.mkfifo(tmp_path / "x.parquet")
    box = _finishes(lambda: load(tmp_path / "x.parquet"))
    assert isinstance(box.get("error"), StoreError) and "regular file" in str(box["error"])
