"""`summarize()`: any number of random games reduced, chunk by chunk, to a fixed-size `Summary`.

The games are those of `simulate` (game ``g`` is fixed by ``(seed, g)``), each chunk reduced on its
worker right after the kernel (`run.summary_chunks`); the parts are added up as they finish. A run
is resumable: ``store=`` saves the sum of the finished chunks to one small JSON file
(`summary.SUMMARY_FILE`), atomically, every few seconds and when the run stops, and the same call
plays only the ids it lacks, under the directory's one-writer lock (`resume_summary`, which
`census` drives too). `store_and_summarize` keeps the games themselves in a parquet store and their
Summary beside them, in constant memory.
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..game.checks import check_seed, whole
from ..game.rules import check_rules
from .arguments import check_run
from .device import choose_device
from .id_ranges import subtract_ranges
from .outputs import check_output_dir
from .parallel import run_chunks
from .seeds import fresh_seed
from .simulate import run_seed, simulate_to_store
from .store import Store, StoreError
from .store_lock import unwritable, write_lock
from .summary import DEFAULT_CAP, DEFAULT_TOP, SUMMARY_FILE, SUMMARY_LOCK, Summary, load_summary, run_differences
from .summary_chunks import read_back, summarize_arrays, summarize_chunk, summarize_chunk_gpu

if TYPE_CHECKING:
    from ..game.hints import PathLike, Progress, RulesLike

__all__ = ["summarize", "store_and_summarize", "resume_summary", "DEFAULT_CHECKPOINT"]

DEFAULT_CHECKPOINT = 10.0  # seconds between saves of a running summary


def store_and_summarize(n_games, rules=None, *, store, seed=None, n_jobs=None, chunk_size=None, progress=False,
                        per_seat=False, start=0, cap=DEFAULT_CAP, top=DEFAULT_TOP) -> tuple[Store, Summary, int]:
    """`simulate_to_store` and the `Summary` of games ``start .. start+n_games-1``, in constant memory.

    Each chunk this call plays is reduced to a Summary on its worker, next to its tables, and added
    up as it is written (`simulate_to_store`'s ``reduce``/``collect``): nothing played is read back.
    The chunks a resumed run finds already stored are read back one at a time (memory: one chunk),
    so the summary is always that of every game asked for, loaded and played. It equals
    ``summarize(n_games, rules=rules, seed=seed, start=start, cap=cap, top=top)``.
    benchmarks/memory.py measured its peak (n_jobs=2, above the warmed-up process) at 73, 78 and
    65 MB for 10^6, 4x10^6 and 1.6x10^7 games: the chunks in flight, not the games of the run.

    Returns
    -------
    (Store, Summary, int)
        The store, the summary, and how many of the games this call played (the rest were loaded).
    """
    cap, top = whole("cap", cap, 1), whole("top", top, 0)
    rules = check_rules(rules)
    seed = run_seed(check_seed(seed), store)  # as simulate_to_store chooses it
    run = {"total": Summary(rules=rules, seed=seed, cap=cap, top=top)}
    played = set()  # the chunks played: (lo, hi), a few bytes each

    def collect(lo, hi, part):  # added up at once: memory stays that of one Summary
        run["total"] = run["total"] + part
        played.add((lo, hi))

    st = simulate_to_store(n_games, rules=rules, seed=seed, n_jobs=n_jobs, chunk_size=chunk_size, progress=progress,
                           store=store, per_seat=per_seat, start=start,
                           reduce=functools.partial(summarize_arrays, rules=rules, seed=seed, cap=cap, top=top),
                           collect=collect)
    stop = start + n_games
    total = run["total"]
    loaded = [(lo, hi) for lo, hi, _ in st.chunks() if (lo, hi) not in played]
    total = read_back(st, loaded, start, stop, total)
    if n_games and total.ranges != ((start, stop),):
        raise StoreError(f"The store {str(st.path)!r} did not hold games {start:,}..{stop - 1:,} exactly once "
                         f"after the run (it held {list(total.ranges)[:5]}); run `beggarstats store verify "
                         f"{st.path} --repair`, then the same command again.")
    return st, total, sum(hi - lo for lo, hi in played)


def _store_file(store) -> Path:
    if isinstance(store, (str, os.PathLike)) and not isinstance(store, bool):
        return check_output_dir(store, writable=False) / SUMMARY_FILE
    raise ValueError(f"The value for `store` must be a directory path or None, but {store!r} was passed.")


def summarize(n_games: int, rules: RulesLike = None, *, seed: int | None = None, n_jobs: int | None = None,
              start: int = 0, progress: Progress = False, store: PathLike | None = None,
              chunk_size: int | None = None, cap: int = DEFAULT_CAP, top: int = DEFAULT_TOP,
              checkpoint: float | None = None, device: str = "cpu") -> Summary:
    """Play games ``start .. start+n_games-1`` and return their `Summary`, in constant memory.

    The games are exactly those of ``simulate(n_games, rules=rules, seed=seed, start=start)``; the
    summary equals the aggregate of that frame, whatever ``n_jobs``, backend or ``chunk_size``.

    Parameters
    ----------
    n_games : int
    rules : Rules, optional
        Default ``Rules()`` (2 players, standard deck).
    seed : int, optional
        Fixes the table; None draws fresh entropy (kept in ``.seed``), or with ``store`` reuses the
        seed of the run saved there.
    n_jobs : int, optional
        Parallel workers (scikit-learn's convention: None is 1 unless a ``joblib.parallel_config`` context
        says otherwise, -1 all cores); a ``joblib.parallel_config(backend=...)``
        context (loky, dask) takes over from outside, as in `simulate`.
    start : int
        First game id.
    progress : {False, True, 'notebook'}
        A tqdm progress bar.
    store : path, optional
        A directory: the summary of the finished chunks is saved there (``summary.json``)
        atomically every ``checkpoint`` seconds and when the run stops (also on Ctrl-C); the same
        call resumes, playing only the game ids not yet summarised. A directory holding another
        run (rules, seed, cap, top or rules version) is refused.
    chunk_size : int, optional
        Games per task (default as `simulate`: up to 2^16). Results do not depend on it.
    cap : int
        Lengths up to ``cap`` cards are counted in histograms, longer games listed (default 2^15).
    top : int
        Longest finished games kept (default 100).
    checkpoint : float, optional
        Seconds between saves to ``store`` (default `DEFAULT_CHECKPOINT`, 10).
    device : {'cpu', 'cuda'}
        'cuda' plays the games on an NVIDIA GPU (the ``cuda`` extra; decks of at most 64 cards):
        the same Summary, field for field, as on the CPU (`run.summary_gpu`); ``n_jobs`` is then
        not used.

    Returns
    -------
    Summary
    """
    device = choose_device(device)
    n_games, start, seed, n_jobs, chunk_size = check_run(n_games, start=start, seed=seed, n_jobs=n_jobs,
                                                         chunk_size=chunk_size, device=device)
    cap = whole("cap", cap, 1)
    top = whole("top", top, 0)
    rules = check_rules(rules)
    checkpoint = DEFAULT_CHECKPOINT if checkpoint is None else checkpoint
    if isinstance(checkpoint, bool) or not isinstance(checkpoint, (int, float)) or not checkpoint >= 0:
        raise ValueError(f"The value for `checkpoint` must be a number of seconds >= 0, but {checkpoint!r} was passed.")
    path = None if store is None else _store_file(store)
    saved = _saved(path)
    if seed is None and saved is not None:
        seed = saved.seed
    if seed is None and path is not None:
        seed = Store.seed_in(path.parent)  # a parquet store's directory: the same table as its games
    if seed is None:
        seed = fresh_seed()
    config = Summary(rules=rules, seed=seed, cap=cap, top=top)
    _same_run(saved, config, path)  # another run's directory is refused before anything is played
    if device.gpu:  # a range a launch, reduced on the GPU
        from .summary_gpu import GPU_CHUNK

        work = functools.partial(summarize_chunk_gpu, rules=rules, seed=seed, cap=cap, top=top)
        workers = dict(n_jobs=1, chunk_size=chunk_size or GPU_CHUNK)
    else:
        work = functools.partial(summarize_chunk, engine=device.engine(), rules=rules, seed=seed, cap=cap, top=top)
        workers = dict(n_jobs=n_jobs, chunk_size=chunk_size)
    return resume_summary(config, store, start, start + n_games, work, checkpoint=checkpoint, progress=progress,
                          n_total=n_games, desc="summarize", **workers)


def resume_summary(config: Summary, store, start: int, stop: int, work, **drive) -> Summary:
    """The run ``config`` describes over ids ``start..stop-1``: what the summary store ``store``
    (a directory or None) holds of it, plus the ids it lacks played by ``work(lo, hi) -> Summary``
    through `_drive` (``drive``: its options), under the store's one-writer lock (`summarize` and
    `run.census.census`)."""
    path = None if store is None else _store_file(store)
    total = _within(_same_run(_saved(path), config, path), start, stop)  # refused before a game is played
    if not subtract_ranges([(start, stop)], total.ranges):
        return _restrict(total, start, stop)  # nothing to play (the directory may be read-only)
    if path is None:
        return _restrict(_drive(work, total, subtract_ranges([(start, stop)], total.ranges), path=None, **drive), start, stop)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise unwritable(path.parent, exc) from None
    with write_lock(path.parent, SUMMARY_LOCK, "summary store"):  # one writer: a second run is refused
        total = _within(_same_run(_saved(path), config, path), start, stop)  # as saved by a run that held the lock
        total.save(path)  # fails now, not after the run, if the file cannot be written
        total = _drive(work, total, subtract_ranges([(start, stop)], total.ranges), path=path, **drive)
    return _restrict(total, start, stop)


def _saved(path: Path | None) -> Summary | None:
    """The summary saved at ``path`` (None if there is none; a damaged one is an error naming it)."""
    if path is None or not (path.exists() or path.is_symlink()):
        return None
    return load_summary(path)


def _same_run(saved: Summary | None, config: Summary, path: Path | None) -> Summary:
    """``saved`` if it is of the run ``config`` describes, ``config`` (empty) if there is none."""
    if saved is None:
        return config
    differs = run_differences(saved, config)
    if differs:
        raise ValueError(f"The `store` directory {str(path.parent)!r} holds another run (its {', '.join(differs)} "
                         f"{'differs' if len(differs) == 1 else 'differ'}); pass another directory or the same settings.")
    return saved


def _drive(work, total: Summary, todo, *, path, checkpoint, n_jobs, chunk_size, progress, n_total, desc,
           unit="game", largest=None) -> Summary:
    """Run ``work(lo, hi) -> Summary`` over the ranges ``todo`` through `run_chunks`, adding each part
    to ``total`` as it finishes and saving the sum to ``path`` (if any) every ``checkpoint`` seconds
    and when the run stops, also on Ctrl-C."""
    run = {"total": total, "last_save": time.monotonic(), "dirty": False}

    def add(lo, hi, part):
        run["total"] = run["total"] + part
        run["dirty"] = True
        if path is not None and time.monotonic() - run["last_save"] >= checkpoint:
            run["total"].save(path)
            run["last_save"], run["dirty"] = time.monotonic(), False

    sizes = {} if largest is None else {"largest": largest}
    try:
        run_chunks(work, todo, sink=add, n_jobs=n_jobs, chunk_size=chunk_size, progress=progress, total=n_total,
                   desc=desc, unit=unit, **sizes)
    finally:
        if path is not None and run["dirty"]:
            run["total"].save(path)  # everything finished so far, also after Ctrl-C
    return run["total"]


def _within(total: Summary, start: int, stop: int) -> Summary:
    """``total`` if it holds no id outside start..stop-1: a store holding others would be refused by
    `_restrict` only after the run, so it is refused before."""
    if not subtract_ranges(list(total.ranges), [(start, stop)]):
        return total
    _refuse_range(total, start, stop)


def _restrict(total: Summary, start: int, stop: int) -> Summary:
    """``total`` if it covers exactly start..stop-1; a store holding more cannot be cut apart."""
    if total.ranges == ((start, stop),) or (start == stop and not total.ranges):
        return total
    _refuse_range(total, start, stop)


def _refuse_range(total: Summary, start: int, stop: int):
    raise ValueError(f"The `store` holds games {list(total.ranges)}, not just ids {start}..{stop - 1}; a summary "
                     f"cannot be split, so ask for all of them (or use another directory).")
