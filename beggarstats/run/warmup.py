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
# machine), from benchmarks/cold_start.py's "play_games" rows (bits 47 s, general 11 s), rounded up;
# only used to tell the user what to expect.
COMPILE_SECONDS = {"bits": 50, "general": 15}


def warm_up(kernel: str = "bits", players=(2, 3), *, stream=None) -> float:
    """Compile (or load) ``kernel`` for tables of ``players``; when it is not cached yet, announce it
    on ``stream`` (default stderr) and report the time taken. Returns the seconds spent compiling
    (0 if cached)."""
    from ..engine import fast

    if fast.kernels_ready(kernel):
        return 0.0
    stream = sys.stderr if stream is None else stream
    print(f"compiling the game kernels (one time, about {COMPILE_SECONDS[kernel]} s)", file=stream, flush=True)
    started = time.perf_counter()
    fast.compile_kernels(kernel, players)
    took = time.perf_counter() - started
    print(f"compiled the game kernels in {took:.0f} s (kept for the next runs)", file=stream, flush=True)
    return took
