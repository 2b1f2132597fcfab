"""Compile the game kernels before a batch command starts, saying so on stderr.

The first run on a machine compiles the numba kernels (kept afterwards in the per-user cache,
see `beggarstats.engine.kernel_cache`). Doing it up front, with a word, keeps a silent pause out of the
run and the compile time out of the progress bar's rate and ETA. numba compiles on one core, so
when a run needs several kernels they compile side by side in joblib's worker processes, one
kernel each (each saves only its own entry to the cache), and this process then loads them.
"""

from __future__ import annotations

import sys
import time

__all__ = ["warm_up", "COMPILE_SECONDS", "expected_seconds"]

# CPU time of each kernel's one-time compile from an empty cache, the slowest measured on the
# shared machine on 2026-12-01 (benchmarks/cold_start.py: 'two' 16.6 s, 'multi' 27.3 s, 'general'
# 9.3 s; 'exact' 16.4 s in a trial of its own), rounded up; only used to tell the user what to expect.
COMPILE_SECONDS = {"two": 17, "multi": 28, "exact": 17, "general": 10}


def expected_seconds(kernels, workers: int) -> int:
    """About how long compiling ``kernels`` takes on ``workers`` processes (each takes the longest
    kernel left when it is free, as joblib hands them out in that order)."""
    loads = [0] * max(1, workers)
    for seconds in sorted((COMPILE_SECONDS[k] for k in kernels), reverse=True):
        loads[loads.index(min(loads))] += seconds
    return max(loads)


def warm_up(kernels, *, stream=None, n_jobs: int | None = None) -> float:
    """Compile (or load) ``kernels`` - names of `engine.fast.KERNELS`, one or several - unless cached
    already; when one is missing, announce it on ``stream`` (default stderr) and report the time
    taken. Several missing kernels compile at once on ``n_jobs`` processes (default: one per core,
    at most one per kernel). Returns the seconds spent compiling (0 if all were cached)."""
    from ..engine import fast

    kernels = (kernels,) if isinstance(kernels, str) else tuple(kernels)
    missing = sorted((k for k in dict.fromkeys(kernels) if not fast.kernels_ready(k)),
                     key=lambda k: -COMPILE_SECONDS[k])
    if not missing:
        return 0.0
    import joblib

    workers = min(len(missing), joblib.cpu_count() if n_jobs is None else joblib.effective_n_jobs(n_jobs))
    stream = sys.stderr if stream is None else stream
    print(f"compiling the game kernels (one time, about {expected_seconds(missing, workers)} s)", file=stream,
          flush=True)
    started = time.perf_counter()
    if workers > 1:
        try:
            with joblib.parallel_config(backend="loky"):
                joblib.Parallel(n_jobs=workers)(joblib.delayed(fast.compile_apart)(k) for k in missing)
        except Exception:  # noqa: BLE001 - e.g. no process could start: the loop below compiles here,
            pass           # where a real compile error shows itself
    for k in missing:
        fast.compile_kernels(k)  # loaded from the cache the workers filled (compiled here if they could not save)
    took = time.perf_counter() - started
    print(f"compiled the game kernels in {took:.0f} s (kept for the next runs)", file=stream, flush=True)
    return took
