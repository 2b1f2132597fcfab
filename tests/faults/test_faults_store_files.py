"""Every file a store reads is read as its chunks are (issue #40, item 2): a regular file only, its
size bounded before a byte is read. Before: a ``manifest.json`` that was a FIFO blocked `bs.load` for
ever, and one linked to /dev/zero was read until MemoryError; the same held for a saved comparison
and a tail chain's record."""

from __future__ import annotations

import os

import pytest
from test_faults_store import _finishes
from test_faults_store import spoil as _spoil

import beggarstats as bs
from beggarstats.run.compare import load_moments
from beggarstats.run.store import load, verify
from beggarstats.run.store_files import MANIFEST, read_small
from beggarstats.run.summary import SUMMARY_FILE, load_summary
from beggarstats.run.tail_chain import load_cells


MAKES = ["fifo", "dev_zero", "huge", "directory"]


def _refused(box, path):
    err = box.get("error")
    assert isinstance(err, ValueError), box
    assert str(path) in str(err) and ("regular file" in str(err) or "more than" in str(err)), err
    assert "\n" not in str(err)


@pytest.mark.parametrize("make", MAKES)
def test_a_manifest_that_is_not_a_small_regular_file_is_refused_never_read(tmp_path, make):
    d = tmp_path / "run"
    bs.simulate_to_store(100, seed=3, store=d, chunk_size=100, n_jobs=1)
    _spoil(d / MANIFEST, make)
    _refused(_finishes(lambda: load(d), timeout=30), d / MANIFEST)
    _refused(_finishes(lambda: bs.simulate(100, seed=3, store=d, chunk_size=100, n_jobs=1), timeout=30), d / MANIFEST)
    box = _finishes(lambda: verify(d), timeout=30)
    assert "value" in box or isinstance(box.get("error"), ValueError)


@pytest.mark.parametrize("make", MAKES)
def test_a_saved_summary_that_is_not_a_small_regular_file_is_refused(tmp_path, make):
    d = tmp_path / "sum"
    d.mkdir()
    _spoil(d / SUMMARY_FILE, make)
    _refused(_finishes(lambda: load_summary(d / SUMMARY_FILE), timeout=30), d / SUMMARY_FILE)
    _refused(_finishes(lambda: bs.summarize(10, seed=1, n_jobs=1, store=d), timeout=30), d / SUMMARY_FILE)


@pytest.mark.parametrize("make", ["fifo", "dev_zero", "huge"])
def test_a_saved_comparison_and_tail_cells_are_read_as_files(tmp_path, make):
    _spoil(tmp_path / "moments.json", make)
    box = _finishes(lambda: load_moments(tmp_path / "moments.json"), timeout=30)
    assert isinstance(box.get("error"), ValueError) and "moments.json" in str(box["error"])
    _spoil(tmp_path / "cells.json", make)
    (tmp_path / "cells.npz").write_bytes(b"x")
    box = _finishes(lambda: load_cells(tmp_path / "cells.npz"), timeout=30)
    assert isinstance(box.get("error"), ValueError) and "cells.json" in str(box["error"])


def test_read_small_reads_a_small_file_and_bounds_the_rest(tmp_path):
    f = tmp_path / "a"
    f.write_bytes(b"12345")
    assert read_small(f, 5) == (b"12345", "")
    data, why = read_small(f, 4)
    assert data is None and "5 bytes, more than" in why
    data, why = read_small(tmp_path / "none", 4)
    assert data is None and "missing" in why
    os.mkfifo(tmp_path / "p")
    data, why = _finishes(lambda: read_small(tmp_path / "p", 4), timeout=10)["value"]
    assert data is None and "not a regular file" in why


def test_a_store_is_still_read_whole(tmp_path):
    d = tmp_path / "run"
    bs.simulate_to_store(200, seed=3, store=d, chunk_size=100, n_jobs=1)
    assert len(load(d)) == 200 and verify(d) == []
    s = bs.summarize(50, seed=1, n_jobs=1, store=tmp_path / "sum")
    assert load_summary(tmp_path / "sum" / SUMMARY_FILE) == s
