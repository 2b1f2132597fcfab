"""Size limits checked before anything is allocated: game ids, chunk sizes, frames in memory.

Game ids are int64 in the kernels, so every id of a run lies in ``0 .. MAX_GAME_ID``. A task
(chunk) holds at most `MAX_CHUNK_SIZE` games. A frame is refused before a single game is played
when its estimated peak (`estimate_bytes`) exceeds the memory the operating system says is
available; such runs belong in a store (`simulate_to_store`), read back a few columns at a time.
"""

from __future__ import annotations

import os

__all__ = ["MAX_GAME_ID", "MAX_CHUNK_SIZE", "MAX_RUN_SECONDS", "GAMES_PER_CORE_SECOND", "GAMES_PER_GPU_SECOND",
           "available_memory",
           "check_fits", "gib", "duration", "check_duration"]

MAX_GAME_ID = 2**63 - 1      # ids are int64 in the kernels
MAX_CHUNK_SIZE = 2**22       # games per task: ~100-200 MB of engine arrays at most
# A run whose time, estimated before it starts, exceeds this is refused (ids past it: use `start`).
MAX_RUN_SECONDS = 30 * 86400
# Games a second on one core, above every speed measured (docs/scaling.md: 977,445 for the standard
# table): an estimate from it is the least time a run can take, so only what cannot finish is refused.
GAMES_PER_CORE_SECOND = 2_000_000
# The same bound for a run on one GPU (device="cuda"): above every speed measured on an H200
# (benchmarks/README.md: 3.0e8 standard two-player games a second in the long runs)
GAMES_PER_GPU_SECOND = 2_000_000_000


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (Linux ``MemAvailable``), else physical memory,
    else None (unknown: nothing is refused)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def gib(n_bytes: float) -> str:
    return f"{n_bytes / 2**30:,.1f} GiB" if n_bytes >= 2**28 else f"{n_bytes / 2**20:,.1f} MiB"


def check_fits(n_items: int, bytes_each: float, what: str, instead: str) -> None:
    """Refuse ``n_items`` rows at ``bytes_each`` (peak) when that exceeds the available memory."""
    need = n_items * bytes_each
    have = available_memory()
    if have is not None and need > have:
        raise ValueError(f"{n_items:,} {what} need about {gib(need)} of memory at peak, more than the "
                         f"{gib(have)} available: {instead}")  # names: the caller's `what` and `instead` name the parameter


def duration(seconds: float) -> str:
    """``seconds`` said in the largest unit that fits (years, days, hours, minutes, seconds)."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:,.3g} {unit if seconds != size else unit[:-1]}"
    return f"{seconds:.3g} seconds"


def check_duration(count: int, rate: float, *, unit: str, instead: str, what: str = "",
                   limit: float = MAX_RUN_SECONDS, measured: bool = False) -> None:
    """Refuse, before it starts, a run of ``count`` items (``unit``: "games", "deals"; ``what``: the
    start of the sentence) that takes more than ``limit`` seconds at ``rate`` items a second
    (``measured``: a speed measured here, else an upper bound on every speed, so that the time said
    is the least the run can take)."""
    seconds = count / max(rate, 1e-9)
    if seconds > limit:
        speed = f"the {rate:,.0f} {unit}/s measured here" if measured else f"{rate:,.0f} {unit}/s (faster than any run)"
        raise ValueError(f"{what}{count:,} {unit} ({count:.3g}), which would take about {duration(seconds)} at {speed}, "
                         f"more than the {duration(limit)} a run may take: {instead}")  # names: the caller's `what` and `instead` name the parameter
