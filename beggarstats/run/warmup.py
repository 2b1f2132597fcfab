"""Compile the game kernels before a batch command starts, saying so on stderr.

The first run on a machine compiles the numba kernels (kept afterwards in the per-user cache,
see `beggarstats.engine.kernel_cache`). Doing it up front, with a word, keeps a silent pause out of the
run and the compile time out of the progress bar's rate and ETA.
"""

from __future__ import annotations

import sys
import time

__all__ = ["warm_up", "COMPILE_SECONDS"]

# CPU time of the one-time compile (numba compiles on one core, so about the wall time on a quiet
# machine), from benchmarks/cold_start.py's "play_games" rows (bits 37 s, the exact driver 13 s,
# general 9 s), rounded up; only used to tell the user what to expect.
COMPILE_SECONDS = {"bits": 40, "exact": 15, "general": 10}


def warm_up(kernel="bits", players=(2, 3), *, stream=None) -> float:
    """Compile (or load) ``kernel`` - a name of `engine.fast.kernels_ready`, or several - for tables
    of ``players``; when one is not cached yet, announce it on ``stream`` (default stderr) and report
    the time taken. Returns the seconds spent compiling (0 if cached)."""
    from ..engine import fast

    kernels = [k for k in ((kernel,) if isinstance(kernel, str) else kernel) if not fast.kernels_ready(k)]
    if not kernels:
        return 0.0
    stream = sys.stderr if stream is None else stream
    seconds = sum(COMPILE_SECONDS[k] for k in kernels)
    print(f"compiling the game kernels (one time, about {seconds} s)", file=stream, flush=True)
    started = time.perf_counter()
    for k in kernels:
        fast.compile_kernels(k, players)
    took = time.perf_counter() - started
    print(f"compiled the game kernels in {took:.0f} s (kept for the next runs)", file=stream, flush=True)
    return took
