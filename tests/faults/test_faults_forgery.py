"""What the checksums of a store detect, and what they cannot (issue #40, item 7; README "What the
checksums catch"). Every honest failure is refused: a file cut short at any length, any single bit
flipped, a crash between writes. A hand edit whose checksum was recomputed and whose counts still
agree cannot be told from a real run: that is forgery, not damage, and it loads."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import beggarstats as bs
from beggarstats.run.store import StoreError, load, verify
from beggarstats.run.summary import SUMMARY_FILE, load_summary

FLIPS = 300
CUTS = 60


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    d = tmp_path_factory.mktemp("forgery")
    s = bs.summarize(500, seed=5, n_jobs=1, cap=200, top=3, store=d)
    return s, (d / SUMMARY_FILE).read_bytes()


def _refused(path, s):
    """Refused, or (a cut of the final newline alone) read as the very summary saved: never other data."""
    try:
        loaded = load_summary(path)
    except ValueError:
        return
    assert loaded == s, path.read_bytes()[-80:]


def test_every_cut_and_bit_flip_of_a_summary_is_refused(tmp_path, saved):
    s, data = saved
    path = tmp_path / SUMMARY_FILE
    rng = random.Random(7)
    for keep in sorted({0, 1, len(data) - 1, *rng.sample(range(len(data)), CUTS)}):
        path.write_bytes(data[:keep])  # a write cut short (what os.replace prevents, done by hand)
        _refused(path, s)
    for _ in range(FLIPS):
        flipped = bytearray(data)
        bit = rng.randrange(len(data) * 8)
        flipped[bit // 8] ^= 1 << (bit % 8)
        path.write_bytes(bytes(flipped))
        _refused(path, s)
    path.write_bytes(data)
    assert load_summary(path) == s


def test_a_crash_between_writes_leaves_the_last_whole_summary(tmp_path, saved):
    s, data = saved
    (tmp_path / SUMMARY_FILE).write_bytes(data)
    (tmp_path / ".summary.json.abcd1234.tmp").write_bytes(data[: len(data) // 2])  # the write that died
    assert load_summary(tmp_path / SUMMARY_FILE) == s
    assert bs.summarize(500, seed=5, n_jobs=1, cap=200, top=3, store=tmp_path) == s


def test_every_cut_and_bit_flip_of_a_chunk_is_refused(tmp_path):
    store = tmp_path / "run"
    bs.simulate_to_store(200, seed=3, store=store, chunk_size=100, n_jobs=1)
    chunk = sorted(store.glob("games-*.parquet"))[0]
    data = chunk.read_bytes()
    rng = random.Random(8)
    cases = [data[:keep] for keep in rng.sample(range(len(data)), 20)]
    for _ in range(40):
        flipped = bytearray(data)
        bit = rng.randrange(len(data) * 8)
        flipped[bit // 8] ^= 1 << (bit % 8)
        cases.append(bytes(flipped))
    for damaged in cases:
        chunk.write_bytes(damaged)
        with pytest.raises(StoreError, match=chunk.name):
            load(store)
        assert any(p.path == chunk for p in verify(store))
    chunk.write_bytes(data)
    assert len(load(store)) == 200 and verify(store) == []


def test_a_forgery_with_a_recomputed_checksum_loads(tmp_path, saved):
    """The limit the README states: swapping the seats' wins and recomputing the SHA-256 leaves a
    file no checksum can tell from a real run."""
    s, data = saved
    envelope = json.loads(data)
    envelope["summary"]["wins"] = envelope["summary"]["wins"][::-1]
    body = json.dumps(envelope["summary"], sort_keys=True, separators=(",", ":"))
    envelope["sha256"] = hashlib.sha256(body.encode()).hexdigest()
    (tmp_path / SUMMARY_FILE).write_text(json.dumps(envelope))
    forged = load_summary(tmp_path / SUMMARY_FILE)
    assert list(forged.wins) == list(s.wins[::-1]) and forged != s
