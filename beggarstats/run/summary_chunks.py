"""A range of games reduced to a `Summary`: right after the kernel, or read back from a store.

`summarize` plays the same games as `simulate` (game ``g`` is fixed by ``(seed, g)``) and reduces
every chunk with numpy right after the kernel, inside the joblib task (`summarize_chunk`), so that
only the chunk's aggregate crosses thread, process or Dask worker boundaries; on the GPU the range
is reduced there (`summarize_chunk_gpu`, `run.summary_gpu`). `summarize_arrays` is that reduction of
the engine's arrays, which a parquet store's chunks are turned back into (`summarize_store`,
`read_back`): the same Summary from the games kept as from the games played.
"""

from __future__ import annotations

import numpy as np

from ..engine.fast import OUTCOME_CODES
from ..game.checks import whole
from .game_lists import records as _records
from .game_lists import top as _top
from .limits import MAX_GAME_ID
from .store import Store
from .summary import DEFAULT_CAP, DEFAULT_TOP, GAME_COLUMNS, LOOP_COLUMNS, MEASURES, Summary

__all__ = ["summarize_chunk", "summarize_chunk_gpu", "summarize_arrays", "summarize_store", "read_back"]


def summarize_chunk(lo, hi, *, engine, rules, seed, cap, top) -> Summary:
    """Play games lo..hi-1 and reduce them to a Summary (runs on a worker: only this crosses back)."""
    return summarize_arrays(engine(rules, seed, np.arange(lo, hi, dtype=np.int64)), lo, hi, rules=rules, seed=seed,
                            cap=cap, top=top)


def summarize_chunk_gpu(lo, hi, *, rules, seed, cap, top) -> Summary:
    """`summarize_chunk` on an NVIDIA GPU: the same Summary (`run.summary_gpu`; a range whose lists
    do not fit is played row by row on the GPU and reduced here as on the CPU)."""
    from ..engine.gpu import LAUNCH_GAMES, play_games_cuda
    from .summary_gpu import chunk_fields

    fields = chunk_fields(lo, hi, rules=rules, seed=seed, cap=cap, top=top)
    if fields is not None:
        return Summary(rules=rules, seed=seed, cap=cap, top=top, ranges=((lo, hi),), **fields)
    parts = [summarize_chunk(a, min(a + LAUNCH_GAMES, hi), engine=play_games_cuda, rules=rules, seed=seed, cap=cap,
                             top=top) for a in range(lo, hi, LAUNCH_GAMES)]
    return sum(parts[1:], parts[0])


def summarize_arrays(a: dict, lo: int, hi: int, *, rules, seed, cap, top) -> Summary:
    """The Summary of games lo..hi-1 from their arrays (``engine.fast.play_games``' names)."""
    cards, tricks, out, winner = a["cards"], a["tricks"], a["outcome"], a["winner"]
    # (Comparisons and counts rather than bincount of the small-int arrays: several times faster.)
    looped, cutoff = np.count_nonzero(out == 1), np.count_nonzero(out == 2)
    outcomes = np.array([out.size - looped - cutoff, looped, cutoff], np.int64)
    wins = np.array([np.count_nonzero(winner == seat) for seat in range(rules.players)], np.int64)
    within = cards <= cap
    all_within = bool(within.all())
    hist_c, hist_t = [], []
    for o in range(3):
        if outcomes[o] == 0:
            hist_c.append(np.zeros(0, np.int64))
            hist_t.append(np.zeros(0, np.int64))
        elif outcomes[o] == out.size and all_within:  # the usual case: no masks needed
            hist_c.append(np.bincount(cards).astype(np.int64))
            hist_t.append(np.bincount(tricks).astype(np.int64))
        else:
            m = within & (out == o)
            hist_c.append(np.bincount(cards[m]).astype(np.int64))
            hist_t.append(np.bincount(tricks[m]).astype(np.int64))

    def pick(mask, columns):
        idx = np.flatnonzero(mask)
        cols = {"game": idx + lo, "outcome": out[idx], "winner": winner[idx], "cards": cards[idx],
                "tricks": tricks[idx]}
        for c in columns[len(GAME_COLUMNS):]:
            cols[c] = a[c][idx]
        return {c: np.asarray(cols[c], np.int64) for c in columns}

    # Longest finished games: the top-th largest length read off the histogram (finished games
    # beyond the cap are longer than any in it), then the candidates at or above it in exact order.
    finished = out == 0
    if top and outcomes[0] > top:
        beyond = int(np.count_nonzero(finished & ~within)) if not all_within else 0
        if beyond >= top:
            bar = cap + 1
        else:
            at_least = np.cumsum(hist_c[0][::-1])[::-1] + beyond  # finished games with >= v cards
            bar = int(np.flatnonzero(at_least >= top)[-1])
        longest = _top(pick(finished & (cards >= bar), GAME_COLUMNS), top)
    else:
        longest = _top(pick(finished, GAME_COLUMNS), top)
    return Summary(rules=rules, seed=seed, cap=cap, top=top, ranges=((lo, hi),), outcomes=outcomes, wins=wins,
                   cards=hist_c, tricks=hist_t,
                   over_cap=pick(~within, GAME_COLUMNS) if not all_within else _records(GAME_COLUMNS),
                   loops=pick(a["looped"], LOOP_COLUMNS), longest=longest)


def _arrays_of_table(table) -> dict:
    """The engine's arrays of one stored chunk (a games table of `beggarstats.run.tables`)."""
    from .tables import LOOP_COLUMNS as STORED_LOOP_COLUMNS

    a = {c: np.asarray(table.column(c).to_numpy(zero_copy_only=False), np.int64) for c in MEASURES}
    names = table.column("outcome").to_pandas().astype(str).to_numpy()
    a["outcome"] = np.select([names == o for o in OUTCOME_CODES], range(len(OUTCOME_CODES)), -1)
    a["winner"] = np.asarray(table.column("winner").fill_null(-1).to_numpy(zero_copy_only=False), np.int64)
    a["looped"] = np.asarray(table.column("loop_tricks").is_valid().to_numpy(zero_copy_only=False), bool)
    for c in STORED_LOOP_COLUMNS:
        a[c] = np.asarray(table.column(c).fill_null(0).to_numpy(zero_copy_only=False), np.int64)
    return a


def summarize_store(store, *, start: int | None = None, stop: int | None = None, cap=DEFAULT_CAP,
                    top=DEFAULT_TOP) -> Summary:
    """The `Summary` of the games a parquet store holds (start..stop-1, default all), read one
    chunk at a time: memory is that of one chunk, whatever the size of the run.

    Equal to ``summarize`` of the same games (same rules, seed, ``cap`` and ``top``).
    """
    st = store if isinstance(store, Store) else Store.at(store)
    cap, top = whole("cap", cap, 1), whole("top", top, 0)
    lo_all = 0 if start is None else start
    hi_all = MAX_GAME_ID + 1 if stop is None else stop
    return read_back(st, [(lo, hi) for lo, hi, _ in st.chunks()], lo_all, hi_all,
                     Summary(rules=st.rules, seed=st.seed, cap=cap, top=top))


def read_back(st: Store, chunks, lo_all: int, hi_all: int, total: Summary) -> Summary:
    """``total`` plus the games lo_all..hi_all-1 of the store's chunks ``chunks`` ((lo, hi) pairs),
    read one chunk at a time."""
    columns = list(MEASURES) + ["outcome", "winner", *LOOP_COLUMNS[len(GAME_COLUMNS):]]
    for lo, hi in chunks:
        a, b = max(lo, lo_all), min(hi, hi_all)
        if a < b:
            table = st.read(start=a, stop=b, columns=columns)
            total = total + summarize_arrays(_arrays_of_table(table), a, b, rules=total.rules, seed=total.seed,
                                             cap=total.cap, top=total.top)
    return total
