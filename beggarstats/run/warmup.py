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

# CPU time of each kernel's one-time compile from an empty cache, each alone in a fresh process
# (`warm_up` of that kernel, the process's CPU), measured on the shared machine on 2026-12-07 beside a
# census at nice 19, after numba's inliner copied a helper once a call site (`engine.numba_inline`):
# 'two' 7.3 s, 'two_rules' 10.3, 'two_empty' 7.5, 'two_beggar' 7.3, 'multi' 16.3, 'multi_rules' 17.5,
# 'exact' 18.9, 'general' 13.8; the census's 'census_two' 7.6, 'census_multi' 14.3, 'given' 16.2.
# Rounded up with a margin of about 15%; only used to tell the user what to expect.
COMPILE_SECONDS = {"two": 9, "two_rules": 12, "two_empty": 9, "two_beggar": 9, "multi": 19,
                   "multi_rules": 20, "exact": 22, "general": 16,
                   "census_two": 9, "census_multi": 17, "given": 19}
CENSUS_KERNELS = ("census_two", "census_multi", "given")
# Kernels compiled one after another in a process share their helpers (the deal, the rulebook, the
# moves): from an empty cache on 2026-12-04 at load 7-10 on two processes, the eight kernels of
# engine.fast.KERNELS took 100 CPU-seconds (their COMPILE_SECONDS then added up to 121) and seven of them
# 66 (111); on 2026-12-07, in one process, the eight took 81.1 (the table above adds up to 116): 0.75 of
# the sum puts each within 1.35x of what it says.
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
