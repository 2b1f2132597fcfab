"""Compile the game kernels before a batch command starts, saying so on stderr.

The first run on a machine compiles the numba kernels (kept afterwards in the per-user cache,
see `beggarstats.engine.kernel_cache`). Doing it up front, with a word, keeps a silent pause out of the
run and the compile time out of the progress bar's rate and ETA. numba compiles on one core, so
when a run needs several kernels they compile side by side in joblib's worker processes, one
kernel each (each saves only its own entry to the cache), and this process then loads them.

Besides the kernels of random games (`engine.fast.KERNELS`) it knows those of a census
(`CENSUS_KERNELS`: the census passes of `engine.census_kernel` and `engine.batch.play_deals_bits`,
which replays the deals that loop); `census_kernels` names the ones a census needs.
"""

from __future__ import annotations

import sys
import time

__all__ = ["warm_up", "notice", "COMPILE_SECONDS", "CENSUS_KERNELS", "census_kernels", "compile_apart",
           "expected_seconds"]

# CPU time of each kernel's one-time compile from an empty cache, measured on the shared machine
# (fast passes, each alone, 2026-12-02: 'two' 8.6 s, 'two_rules' 10.5 s, 'multi' 21.6 s,
# 'multi_rules' 21.8 s; 2026-12-01, benchmarks/cold_start.py: 'general' 9.3 s, 'exact' 16.4 s in a
# trial of its own; 2026-12-03, each alone beside other work: 'two_empty' 15.8 s, 'two_beggar' 14.9 s
# where 'two' took 11.4 s and 'two_rules' 21.0 s), rounded up with a margin; only used to tell the user
# what to expect.
# The census kernels, each alone from an empty cache on 2026-12-02 (CPU: 'census_two' 15.6 s,
# 'census_multi' 29.0 s, 'given' 29.7 s).
COMPILE_SECONDS = {"two": 10, "two_rules": 12, "two_empty": 12, "two_beggar": 12, "multi": 24,
                   "multi_rules": 24, "exact": 17, "general": 10,
                   "census_two": 16, "census_multi": 29, "given": 30}
CENSUS_KERNELS = ("census_two", "census_multi", "given")
# Kernels compiled one after another in a process share their helpers (the deal, the rulebook, the
# moves): from an empty cache on 2026-12-04 at load 7-10 on two processes, the eight kernels of
# engine.fast.KERNELS took 100 CPU-seconds (their COMPILE_SECONDS add up to 121) and seven of them 66
# (111): 0.75 of the sum puts both within 1.35x of what it says.
SHARED_HELPERS = 0.75


def census_kernels(rules) -> tuple[str, ...]:
    """The kernels a census of ``rules`` needs: its census pass and the replay of the deals it hands
    back (loops, cut-offs)."""
    return ("census_two" if rules.players == 2 else "census_multi", "given")


def _census_entry(kernel: str):
    from ..engine import batch, census_kernel

    return {"census_two": census_kernel.census_two, "census_multi": census_kernel.census_multi,
            "given": batch.play_deals_bits}[kernel]


def _ready(kernel: str) -> bool:
    from ..engine import fast, kernel_cache

    if kernel not in CENSUS_KERNELS:
        return fast.kernels_ready(kernel)
    entry = _census_entry(kernel)
    return bool(entry.signatures) or kernel_cache.is_sealed(entry)


def _compile(kernel: str) -> None:
    """Compile ``kernel`` (or load it from the cache) by running it once on a tiny deck."""
    import numpy as np

    from ..engine import fast

    if kernel not in CENSUS_KERNELS:
        fast.compile_kernels(kernel)
        return
    from ..engine.census_kernel import play_ranks
    from ..game.decks import Deck
    from ..game.rules import Rules

    if kernel == "given":  # one given deal of two players through the exact driver on bit-planes
        from ..engine.constants import pack_params
        from ..engine.fast import empty_raw

        rules = Rules(deck=Deck(2, 1, 0, 0, 0))
        out = empty_raw(1, 2)
        _census_entry(kernel)(np.array([[[0, 1], [0, 0]]], np.int8), np.array([[2, 1]], np.int64),
                              np.zeros((1, 4), np.uint64), pack_params(rules), *out)
    else:
        play_ranks(Rules(players=2 if kernel == "census_two" else 3, deck=Deck(4, 1, 0, 0, 0)), 0, 1)


def compile_apart(kernel: str) -> float:
    """`engine.fast.compile_apart` for any kernel this module knows: compile ``kernel`` in this
    (worker) process saving only its own entry to the kernel cache. Returns the CPU seconds taken."""
    from ..engine import fast
    from ..engine.kernel_cache import saving_only

    if kernel not in CENSUS_KERNELS:
        return fast.compile_apart(kernel)
    started = time.process_time()
    with saving_only(_census_entry(kernel)):
        _compile(kernel)
    return time.process_time() - started


def expected_seconds(kernels, workers: int) -> int:
    """About how long compiling ``kernels`` takes on ``workers`` processes (each takes the longest
    kernel left when it is free, as joblib hands them out in that order)."""
    loads = [0] * max(1, workers)
    for seconds in sorted((COMPILE_SECONDS[k] for k in kernels), reverse=True):
        loads[loads.index(min(loads))] += seconds
    return max(loads)


def warm_up(kernels, *, stream=None, n_jobs: int | None = None) -> float:
    """Compile (or load) ``kernels`` - names of `engine.fast.KERNELS` or `CENSUS_KERNELS`, one or several - unless cached
    already; when one is missing, announce it on ``stream`` (default stderr) and report the time
    taken. Several missing kernels compile at once on ``n_jobs`` processes (default: one per core,
    at most one per kernel). Returns the seconds spent compiling (0 if all were cached)."""
    kernels = (kernels,) if isinstance(kernels, str) else tuple(kernels)
    missing = sorted((k for k in dict.fromkeys(kernels) if not _ready(k)),
                     key=lambda k: -COMPILE_SECONDS[k])
    if not missing:
        return 0.0
    import joblib

    workers = min(len(missing), joblib.cpu_count() if n_jobs is None else joblib.effective_n_jobs(n_jobs))
    stream = sys.stderr if stream is None else stream
    print(notice(missing, workers), file=stream, flush=True)
    started, cpu = time.perf_counter(), time.process_time()
    apart = 0.0
    if workers > 1:
        try:
            with joblib.parallel_config(backend="loky"):
                apart = sum(t or 0.0 for t in joblib.Parallel(n_jobs=workers)(joblib.delayed(compile_apart)(k)
                                                                               for k in missing))
        except Exception:  # noqa: BLE001 - e.g. no process could start: the loop below compiles here,
            pass           # where a real compile error shows itself
    for k in missing:
        _compile(k)  # loaded from the cache the workers filled (compiled here if they could not save)
    took = time.perf_counter() - started
    cpu = apart + time.process_time() - cpu
    from ..engine.kernel_cache import persistent

    kept = "kept for the next runs" if persistent() else "for this run only: the kernel cache cannot be written"
    print(f"compiled the game kernels in {took:.0f} s, {cpu:.0f} CPU-seconds ({kept})", file=stream, flush=True)
    return took


def notice(kernels, workers: int) -> str:
    """What `warm_up` says before compiling ``kernels`` on ``workers`` processes. The CPU time is
    what it can promise: it is about the same on a quiet or a busy machine (issue #41 asks for a
    factor of 1.5; `SHARED_HELPERS` was within 1.35x), while the wall time of the same compile was 4x
    longer at load 9-17 on two cores than quiet, and no process can know the load to come. The wall
    time is said for a quiet machine."""
    cpu = sum(COMPILE_SECONDS[k] for k in kernels)
    if len(kernels) > workers:  # a process compiling several kernels compiles their shared helpers once
        cpu = round(SHARED_HELPERS * cpu)
    from ..engine.kernel_cache import persistent

    once = "one time" if persistent() else "for this run only"
    return (f"compiling the game kernels ({once}, about {cpu} CPU-seconds on {workers} "
            f"process{'es' if workers > 1 else ''}: {expected_seconds(kernels, workers)} s on a quiet machine, "
            f"longer on a busy one)")
