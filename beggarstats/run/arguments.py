"""The arguments every batch entry point shares, checked once: counts and ids, chunk size, seed, workers.

`simulate`, `simulate_to_store`, `summarize`, `simulate_matches`, `replay`, `figures` and the
command line all call `check_run` (or its parts), so they accept and refuse the same values with
the same sentences. A name starting with ``--`` (a command-line option) is used as is in a
message; any other name is a Python parameter.

Bounds:

* ``seed``: a whole number ``0 .. 2**64 - 1`` (None where fresh entropy is drawn);
* ids: every id ``start .. start + n - 1`` is a game id, ``0 .. 2**63 - 1`` (`limits.MAX_GAME_ID`);
* ``chunk_size``: ``1 .. limits.MAX_CHUNK_SIZE`` ids per task, so that the memory of a task never
  grows with the size of the run;
* ``n_jobs``: None, ``1 .. max_jobs()`` workers, or ``-1 .. -cpu_count()``
  (`beggarstats.game.checks.check_n_jobs`).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..game.checks import check_n_jobs, check_seed, say
from .device import CPU, Device
from .limits import MAX_CHUNK_SIZE, MAX_GAME_ID, check_duration

__all__ = ["check_seed", "check_n_jobs", "check_chunk_size", "check_ids", "check_run", "check_run_time"]


def _whole(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _label(name: str) -> str:
    return name if name.startswith("--") else f"`{name}`"


def check_chunk_size(chunk_size, *, name: str = "chunk_size"):
    """``chunk_size`` as an int ``1 .. MAX_CHUNK_SIZE`` (ids per task), or None (the driver chooses)."""
    if chunk_size is None:
        return None
    if not _whole(chunk_size) or not 1 <= chunk_size <= MAX_CHUNK_SIZE:
        raise ValueError(f"{say(name)} must be a whole number of ids per task from 1 to {MAX_CHUNK_SIZE:,} (2**22)"
                         f"{'' if name.startswith('--') else ' or None'}, but {chunk_size!r} was passed.")
    return int(chunk_size)


def check_ids(n, start=0, *, n_name: str = "n_games", start_name: str = "start", low: int = 0) -> tuple[int, int]:
    """``(n, start)`` as ints, ``n >= low``, such that every id ``start .. start+n-1`` is a game id."""
    if not _whole(n) or not low <= n <= MAX_GAME_ID + 1:
        raise ValueError(f"{say(n_name)} must be a whole number >= {low} (at most 2**63 = {MAX_GAME_ID + 1}), "
                         f"but {n!r} was passed.")
    if not _whole(start) or not 0 <= start <= MAX_GAME_ID:
        raise ValueError(f"{say(start_name)} must be a whole number from 0 to 2**63 - 1 = {MAX_GAME_ID}, "
                         f"but {start!r} was passed.")
    n, start = int(n), int(start)
    if start + n > MAX_GAME_ID + 1:
        raise ValueError(f"{_label(start_name)} = {start} with {_label(n_name)} = {n} asks for ids up to "
                         f"{start + n - 1}, past the largest game id 2**63 - 1 = {MAX_GAME_ID}: "
                         f"{_label(start_name)} must be at most {MAX_GAME_ID + 1 - n}.")
    return n, start


def check_run(n, *, start=0, seed=None, n_jobs=None, chunk_size=None, names: dict | None = None,
              low: int = 0, plays: int = 1, device: Device = CPU) -> tuple:
    """The shared arguments of a batch run, all at once: ``(n, start, seed, n_jobs, chunk_size)``.

    ``names`` maps ``n``, ``start``, ``seed``, ``n_jobs``, ``chunk_size`` to the names the caller
    knows them by (``{"n": "n_matches"}``, or the command line's ``{"n_jobs": "--jobs"}``). A run
    that cannot finish (each of its ``n`` played ``plays`` times) is refused (`check_run_time`).
    """
    names = {"n": "n_games", "start": "start", "seed": "seed", "n_jobs": "n_jobs", "chunk_size": "chunk_size",
             **(names or {})}
    n, start = check_ids(n, start, n_name=names["n"], start_name=names["start"], low=low)
    checked = (n, start, check_seed(seed, name=names["seed"]), check_n_jobs(n_jobs, name=names["n_jobs"]),
               check_chunk_size(chunk_size, name=names["chunk_size"]))
    check_run_time(n, checked[3], plays=plays, name=names["n"], device=device)
    return checked


def check_run_time(n, n_jobs, *, plays: int = 1, name: str = "n_games", device: Device = CPU) -> None:
    """Refuse, before it starts, a run of ``n`` games (each played ``plays`` times) that cannot finish
    in `limits.MAX_RUN_SECONDS` on ``device`` even at its best speed (`Device.games_per_second`: the
    workers of ``n_jobs`` at `limits.GAMES_PER_CORE_SECOND`, or one GPU)."""
    check_duration(n, device.games_per_second(n_jobs) / plays, unit="games", what=f"{say(name)} is ",
                   instead=f"pass a smaller {_label(name)}, or play the range in parts (`start`) on more workers.")
