"""`simulate()`: random games in parallel chunks -> tidy DataFrames; `replay()` any one of them.

A table is fixed by ``(rules, seed)``: game ``g`` is re-created from ``(seed, g)`` alone (the
engine seeds every game's own stream), so results are identical whatever ``n_jobs``, joblib
backend or ``chunk_size``. Chunks are ranges of game ids, run by the one parallel driver of the
batch runs (`beggarstats.run.parallel`: ``joblib.Parallel(prefer="threads")``; the kernel releases the
GIL, and a ``joblib.parallel_config(backend=...)`` context (loky, dask) takes over from outside).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..game.checks import check_flag, check_seed, whole
from ..engine.deals import random_deal
from ..engine.reference import play_hands
from .arguments import check_ids, check_run
from .device import CPU, choose_device
from .limits import MAX_GAME_ID, check_fits
from .progress import check_progress
from .parallel import DEFAULT_CHUNK_SIZE, run_chunks
from .seeds import fresh_seed
from ..game.rules import RULES_VERSION, check_rules
from .store import Store
from .tables import GamesFrameBuilder, SeatsFrameBuilder, games_table, id_type, seats_table

if TYPE_CHECKING:
    import pandas as pd

    from ..game.hints import PathLike, Progress, RulesLike
    from ..game.results import GameResult

__all__ = ["simulate", "simulate_to_store", "run_seed", "replay", "DEFAULT_CHUNK_SIZE", "PEAK_BYTES_PER_GAME", "peak_bytes_per_game"]

# Peak memory of `simulate` per game (and per seat row with per_seat), for refusing a frame that
# cannot fit before anything is played: the frame (26.5 bytes per game, 32.6 with 32-bit trick
# counts, 4 more past 2^32 ids; 23 per seat row) and a margin for the chunks in flight.
# benchmarks/memory.py measured (5x10^6 games, issue #21) a peak of 27.9 bytes per game with
# n_jobs=1 and 29.4 with 2, and 123.3 per game with 2 seats' rows (5x10^5 games; 128.9 in a later
# run of the merged main): the estimate was 32 (+4 past 2^32 ids) and 52 per seat row, 2-15% above
# those (the old 40 and 32 were 36-43% above the games' peak and 16% below the seats'). The peak varies
# from run to run with when the chunks arrive: three runs in one sitting (stop 29) gave up to 33.1
# bytes per game with 2 jobs, and 107.6-123.5 with 2 seats' rows, so the estimate is 34: a bound on
# the highest of three runs, not on one. With seats' rows the peak has two modes (nine runs at stop 46:
# 106.2-108.4 and 122.5-126.5), which the test holds the estimate between. Without seats' rows a CI run
# at stop 48 met a third run at 34.8 (the other two 30.0), past 34: the estimate is 36 (1.2x the low mode).
PEAK_BYTES_PER_GAME = 36
_PEAK_BYTES_PER_WIDE_ID = 4
_PEAK_BYTES_PER_SEAT = 52


def _run_chunk(lo, hi, *, engine, rules, seed, per_seat, ids_as, raw=False, reduce=None):
    """Play games lo..hi-1 and build their tables (runs on a worker); with ``raw`` the engine's
    arrays instead (for the frame builders of `simulate`): ``(games, seats)`` either way, and
    with ``reduce`` a third item, ``reduce(arrays, lo, hi)`` (for `simulate_to_store`)."""
    ids = np.arange(lo, hi, dtype=np.int64)
    arrays = engine(rules, seed, ids, per_seat=per_seat)
    if raw:
        return arrays, None
    seats = seats_table(arrays, ids, rules, ids_as) if per_seat else None
    games = games_table(arrays, ids, rules, ids_as)
    return (games, seats) if reduce is None else (games, seats, reduce(arrays, lo, hi))


def _run(ranges, *, engine, rules, seed, per_seat, n_jobs, chunk_size, progress, total, ids_as, sink, raw=False,
         reduce=None):
    """Play the games of ``ranges`` with the batch engine ``engine`` (`Device.engine`), handing each
    finished chunk to ``sink(lo, hi, games, seats)`` (and the chunk's ``reduce(arrays, lo, hi)`` as a
    fifth argument, with ``reduce``)."""
    if progress and any(hi > lo for lo, hi in ranges):
        # compile before the bar starts, with a word: no silent pause, a sane rate
        from ..engine.fast import kernels_for
        from .warmup import warm_up

        warm_up(kernels_for(rules))
    work = functools.partial(_run_chunk, engine=engine, rules=rules, seed=seed, per_seat=per_seat, ids_as=ids_as,
                             raw=raw, reduce=reduce)
    run_chunks(work, ranges, sink=lambda lo, hi, tables: sink(lo, hi, *tables), n_jobs=n_jobs,
               chunk_size=chunk_size, progress=progress, total=total, desc="simulate")


def _prepare(n_games, rules, seed, n_jobs, chunk_size, per_seat, start, store=None, progress=False):
    n_games, start, seed, n_jobs, chunk_size = check_run(n_games, start=start, seed=seed, n_jobs=n_jobs,
                                                         chunk_size=chunk_size)
    check_flag("per_seat", per_seat)
    check_progress(progress)  # also where the store holds every game asked for (no bar is shown)
    rules = check_rules(rules)
    return n_games, rules, run_seed(seed, store), chunk_size, bool(per_seat), start


def run_seed(seed: int | None, store: bool | PathLike | None = None) -> int:
    """The seed of a run: ``seed`` (checked), else that of the parquet store ``store`` (continuing
    the run already in that directory), else fresh entropy."""
    if seed is None and store is not None:
        seed = Store.seed_in(store)
    return fresh_seed() if seed is None else seed


def simulate_to_store(n_games: int, rules: RulesLike = None, *, seed: int | None = None, n_jobs: int | None = None,
                      chunk_size: int | None = None, progress: Progress = False, store: bool | PathLike = True,
                      per_seat: bool = False, start: int = 0,
                      reduce: Callable[[dict[str, np.ndarray], int, int], Any] | None = None,
                      collect: Callable[[int, int, Any], object] | None = None) -> Store:
    """Play games ``start .. start+n_games-1`` into a parquet store, never holding all rows.

    Only game ids the store lacks are played, so an interrupted run resumes where it stopped and a
    finished one costs nothing. The run holds the store's lock while it writes: a second run on
    the same store meanwhile is refused (`beggarstats.run.store.StoreBusy`, a ValueError). Before
    returning, every id asked for is checked to be stored exactly once. Arguments as `simulate`; ``store`` is True (``<per-user cache>/runs/<key>``) or
    a directory. With ``seed=None`` a directory that already holds a run continues with its seed.

    ``reduce`` and ``collect`` (both or neither) aggregate the games while they are written, so
    that nothing is read back: ``reduce(arrays, lo, hi)`` runs on the worker that played games
    lo..hi-1, with the engine's arrays (`beggarstats.engine.fast.play_games`), and
    ``collect(lo, hi, value)`` receives what it returned, in the calling thread, once the chunk is
    in the store (`beggarstats.run.summarize.store_and_summarize` keeps a `Summary` this way). Only
    the chunks this call plays reach them.

    Returns
    -------
    Store
        ``.path`` is the directory; `beggarstats.run.store.load` reads it.
    """
    if store is None or store is False:
        raise ValueError(f"The value for `store` must be True or a directory path, but {store!r} was passed.")
    if (reduce is None) != (collect is None):
        raise ValueError("Pass both `reduce` and `collect`, or neither.")
    n_games, rules, seed, chunk_size, per_seat, start = _prepare(
        n_games, rules, seed, n_jobs, chunk_size, per_seat, start, store, progress)
    st = Store.open(store, rules=rules, seed=seed, per_seat=per_seat)
    stop = start + n_games
    if not n_games:
        return st
    covered = any(lo <= start and stop <= hi for lo, hi in st.requested)
    if covered and not st.missing(start, stop) and not _cut_short(st, start, stop):
        st.check_complete(start, stop)  # nothing to write (the store may be read-only): only check
        return st
    with st.lock():  # one writer at a time; a second run is refused (StoreBusy)
        st.request(start, stop)
        st.drop_cut_short(start, stop)
        ranges = st.missing(start, stop)
        def write(lo, hi, games, seats, *reduced):
            st.write_chunk(lo, hi, games, seats)
            if collect is not None:
                collect(lo, hi, *reduced)

        _run(ranges, engine=CPU.engine(), rules=rules, seed=seed, per_seat=per_seat, n_jobs=n_jobs,
             chunk_size=chunk_size, progress=progress, total=n_games, ids_as=id_type(stop), sink=write, reduce=reduce)
        st.check_complete(start, stop)
    return st


def _cut_short(st, start, stop) -> bool:
    from .store import looks_whole
    return any(not looks_whole(p) for lo, hi, p in st.chunks() if hi > start and lo < stop)


def peak_bytes_per_game(rules, per_seat: bool = False, stop: int = 0) -> int:
    """The estimated peak memory of `simulate` per game (bytes), as measured by benchmarks/memory.py."""
    return (PEAK_BYTES_PER_GAME + (_PEAK_BYTES_PER_WIDE_ID if stop > 2**32 else 0)
            + (_PEAK_BYTES_PER_SEAT * rules.players if per_seat else 0))


def _check_frame_fits(n_games, rules, per_seat, stop=0):
    per_game = peak_bytes_per_game(rules, per_seat, stop)
    check_fits(n_games, per_game, "games" + (" with per-seat rows" if per_seat else ""),
               "keep them in a store instead (`simulate_to_store(n, seed=..., store=DIR)`, or "
               "`beggarstats simulate --store DIR`) and load the columns you need with `beggarstats.load`.")


def simulate(n_games: int, rules: RulesLike = None, *, seed: int | None = None, n_jobs: int | None = None,
             chunk_size: int | None = None, progress: Progress = False, store: bool | PathLike | None = None,
             per_seat: bool = False, start: int = 0,
             device: str = "cpu") -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``n_games`` random games and return one row per game.

    Parameters
    ----------
    n_games : int
        Number of games; their ids are ``start .. start+n_games-1``.
    rules : Rules, optional
        Default ``Rules()`` (2 players, standard deck).
    seed : int, optional
        Fixes the table: game g is fully determined by (seed, g). None draws fresh entropy, which
        is recorded in ``attrs["seed"]``.
    n_jobs : int, optional
        Parallel workers (scikit-learn convention): None means 1 unless a
        ``joblib.parallel_config`` context says otherwise; -1 means all cores. Threads by default;
        ``joblib.parallel_config(backend="loky" | "dask")`` switches from outside.
    chunk_size : int, optional
        Games per task (default up to 2^16, smaller for small runs so every worker gets work).
        Results do not depend on it.
    progress : {False, True, 'notebook'}
        A tqdm progress bar (``tqdm.auto``: a widget inside Jupyter); 'notebook' forces the widget.
    store : True or path, optional
        Keep results in a resumable parquet store (``True``: ``<per-user cache>/runs/<key>``) and read them
        from there: a repeated call loads instead of recomputing, an interrupted one resumes
        (with ``seed=None``, a directory that already holds a run continues with its seed).
        For runs too large for memory use `simulate_to_store` and `beggarstats.run.store.load`.
    per_seat : bool
        Also return the long per-seat table.
    start : int
        First game id.
    device : {'cpu', 'cuda'}
        'cuda' plays the games on an NVIDIA GPU (the ``cuda`` extra; decks of at most 64 cards),
        the same rows as on the CPU; not with ``store``.

    Returns
    -------
    games : DataFrame
        ``game`` (id), ``players``, ``rules`` (category), ``outcome`` (category win/loop/cutoff),
        ``winner`` (nullable seat), ``cards``, ``tricks`` (cards played, piles taken), and the
        nullable ``loop_start_tricks``, ``loop_start_cards``, ``loop_tricks``, ``loop_cards``.
        Compact dtypes: about 27 bytes per game (trick counts 16-bit while every value fits;
        see `beggarstats.run.tables`).
        ``attrs``: ``rules`` (dict), ``seed``, ``rules_version``, ``n_games``, ``start``.
    seats : DataFrame, only with ``per_seat=True``
        Returned as ``(games, seats)``: one row per game and seat: ``game, players, rules, seat,
        hand_size, jacks, queens, kings, aces, jokers`` (cards dealt), ``tribute_total``,
        ``min_cards``, ``place`` (nullable), ``out_cards`` (nullable), ``won``.
    """
    device = choose_device(device)
    if store is not None and store is not False:
        if device.gpu:
            raise ValueError(f"`device={device.name!r}` is not for a run with a `store`: run it without one "
                             f"(summarize(device='cuda') keeps any number of games in constant memory).")
        n_checked, start_checked = check_ids(n_games, start)
        _check_frame_fits(n_checked, check_rules(rules), check_flag("per_seat", per_seat), start_checked + n_checked)
        st = simulate_to_store(n_games, rules=rules, seed=seed, n_jobs=n_jobs, chunk_size=chunk_size,
                               progress=progress, store=store, per_seat=per_seat, start=start)
        stop = start + n_games
        games = st.frame(start=start, stop=stop)
        if st.per_seat:
            return games, st.frame(seats=True, start=start, stop=stop)
        return games

    n_games, rules, seed, chunk_size, per_seat, start = _prepare(
        n_games, rules, seed, n_jobs, chunk_size, per_seat, start, progress=progress)
    engine = device.engine(rules)  # a deck the device cannot play is refused before the frames are allocated
    _check_frame_fits(n_games, rules, per_seat, start + n_games)
    stop = start + n_games
    ids_as = id_type(stop)
    attrs = {"rules": rules.to_dict(), "seed": seed, "rules_version": RULES_VERSION,
             "n_games": n_games, "start": start}
    # The frames' columns are allocated once and filled in place as chunks finish (peak memory:
    # the frames plus the chunks in flight; benchmarks/memory.py).
    games = GamesFrameBuilder(n_games, start, rules, ids_as)
    seats = SeatsFrameBuilder(n_games, start, rules, ids_as) if per_seat else None

    def keep(lo, hi, arrays, _):
        games.add(lo, arrays)
        if seats is not None:
            seats.add(lo, arrays)

    _run([(start, stop)] if n_games else [], engine=engine, rules=rules, seed=seed, per_seat=per_seat, n_jobs=n_jobs,
         chunk_size=chunk_size, progress=progress, total=n_games, ids_as=ids_as, sink=keep, raw=True)
    if seats is None:
        return games.frame(attrs)
    return games.frame(attrs), seats.frame(attrs)


def replay(seed: int, game: int, rules: RulesLike = None, *, trace: bool = True) -> tuple[str, GameResult]:
    """Re-play game ``game`` of the table seeded ``seed`` with the reference engine.

    Any row of any table can be looked at trick by trick: ``replay(df.attrs["seed"], row.game,
    Rules.from_dict(df.attrs["rules"]))``.

    Returns
    -------
    (deal, result) : (str, GameResult)
        The deal in the usual notation (hands top card first, joined by '/'), and the reference
        engine's result, with its trick-by-trick ``trace`` unless ``trace=False``.
    """
    rules = check_rules(rules)
    trace = check_flag("trace", trace)
    seed = check_seed(seed, none=False)
    game = whole("game", game, 0, MAX_GAME_ID)
    deal, stream = random_deal(seed, game, rules)
    result = play_hands(deal, rules, rng=stream, trace=trace)
    return result.deal, result
