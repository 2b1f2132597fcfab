"""`engine.seats`: a table's per-seat values read and written alike in arrays (the CPU's, in place), tuples
and packed words (the GPU's registers), against the same writes made to a plain list."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from beggarstats.engine.seats import Nibbles, Octets, filled, kept, packed_words, seat, with_seat


@njit(_nrt=False)
def _write(a, idx, vals, out):
    """``a`` after ``a = with_seat(a, idx[k], vals[k])`` for each k, what `seat` reads after each in ``out``
    (as the passes run: without NRT)."""
    for k in range(idx.shape[0]):
        a = with_seat(a, idx[k], vals[k])
        out[k] = seat(a, idx[k])
    return (a,)


def _writes(a, idx, vals):
    out = np.zeros(vals.shape[0], np.int64)
    return _write(a, idx, vals, out)[0], out


@njit(_nrt=False)
def _read_all(a, count, out):
    for i in range(count):
        out[i] = seat(a, np.uint64(i))


@njit(_nrt=False)
def _blank_tuple():
    return filled(5, np.int64(-7))


def _expected(count, idx, vals, lo, hi, start=0):
    """The list after the same writes, each value wrapped to the container's range [lo, hi]."""
    span = hi - lo + 1
    ref = [start] * count
    seen = []
    for i, v in zip(idx, vals):
        ref[i] = (int(v) - lo) % span + lo
        seen.append(ref[i])
    return ref, seen


@pytest.mark.parametrize("kind,count,lo,hi", [(Nibbles, 24, 0, 15), (Octets, 6, -128, 127), (Octets, 12, -128, 127)])
def test_packed_entries_read_back_what_was_written(kind, count, lo, hi):
    """Random writes, values past the entry's width included (they wrap, as a cast to a narrow integer
    does), and negative ones in signed `Octets`: every read after a write, and the whole container at the
    end, as the same writes to a list; its neighbours in the same word untouched."""
    rng = np.random.default_rng(54)
    words = packed_words(kind, count)
    assert words == -(-count * (4 if kind is Nibbles else 8) // 64)
    idx = rng.integers(0, count, 200).astype(np.uint64)
    vals = rng.integers(lo - 40, hi + 40, 200).astype(np.int64)
    a, seen = _writes(kind(tuple(np.uint64(0) for _ in range(words))), idx, vals)
    ref, ref_seen = _expected(count, idx.tolist(), vals.tolist(), lo, hi)
    assert seen.tolist() == ref_seen
    out = np.zeros(count, np.int64)
    _read_all(a, count, out)
    assert out.tolist() == ref


def test_tuples_and_arrays_agree_and_an_array_is_changed_in_place():
    """The same writes to a tuple and to an array: the same values; the array returned is the array given
    (the CPU's table is changed in place), its dtype's wrap applied as numpy's cast applies it."""
    rng = np.random.default_rng(7)
    idx = rng.integers(0, 5, 50).astype(np.int64)
    vals = rng.integers(-300, 300, 50).astype(np.int64)
    arr = np.zeros(5, np.int8)
    back, seen_a = _writes(arr, idx, vals)
    assert back is arr or np.shares_memory(back, arr)
    tup, seen_t = _writes(tuple(np.int8(0) for _ in range(5)), idx, vals)
    ref, ref_seen = _expected(5, idx.tolist(), vals.tolist(), -128, 127)
    assert arr.tolist() == list(tup) == ref and seen_a.tolist() == seen_t.tolist() == ref_seen


def test_filled_makes_a_tuple_of_a_constant_length():
    assert _blank_tuple() == (-7,) * 5


def test_a_container_that_is_not_one_is_refused():
    @njit
    def bad(x):
        return seat(x, 0)

    from numba.core.errors import TypingError
    with pytest.raises(TypingError):
        bad(3.5)


@njit(_nrt=False)
def _kept_of(new, old):
    return (kept(new, old),)


def test_kept_gives_the_array_it_was_given_and_the_new_value_of_anything_else():
    """After a call that is not inlined: an array is the one given (changed in place: which one comes back
    tells the compiler whether it is unchanged), a tuple or packed words are the call's new value."""
    old, new = np.arange(4, dtype=np.int64), np.arange(4, dtype=np.int64) + 10
    (back,) = _kept_of(new, old)
    assert back.tolist() == [0, 1, 2, 3] and np.shares_memory(back, old)
    assert _kept_of((5, 6), (1, 2))[0] == (5, 6)
    words = Octets((np.uint64(7), np.uint64(9)))
    assert _kept_of(words, Octets((np.uint64(0), np.uint64(0))))[0] == words
