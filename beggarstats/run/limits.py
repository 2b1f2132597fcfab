"""Size limits checked before anything is allocated: game ids, chunk sizes, frames in memory.

Game ids are int64 in the kernels, so every id of a run lies in ``0 .. MAX_GAME_ID``. A task
(chunk) holds at most `MAX_CHUNK_SIZE` games. A frame is refused before a single game is played
when its estimated peak (`estimate_bytes`) exceeds the memory the operating system says is
available; such runs belong in a store (`simulate_to_store`), read back a few columns at a time.
"""

from __future__ import annotations

import os

__all__ = ["MAX_GAME_ID", "MAX_CHUNK_SIZE", "available_memory", "check_fits", "gib"]

MAX_GAME_ID = 2**63 - 1      # ids are int64 in the kernels
MAX_CHUNK_SIZE = 2**22       # games per task: ~100-200 MB of engine arrays at most


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
                         f"{gib(have)} available: {instead}")
