"""`census()`: every distinct deal of a small deck played once, in rank order: exact answers.

A random deal is one of ``N = n! / (c_0! ... c_5!)`` sequences of kinds, each equally likely
(docs/RULES.md §2, deals as numbers), so playing each of them once gives the exact distribution of
everything a `Summary` holds: the outcome and seat shares, the length distribution, every looping
deal. `census` cuts the ranks into ranges and sends them through the same parallel driver,
progress bar and store as `summarize` (`summarize.resume_summary`); each range is played by
`engine.census_kernel.play_ranks`, which unranks its first deal and steps to the next ones. The
result is a `Summary` with ``exact=True`` whose game ids are deal ranks (`beggarstats.deal_at`
turns any loop or longest game back into its deal) and ``seed`` 0.

With ``device="cuda"`` the ranks are stepped and played on an NVIDIA GPU (`engine.gpu_census`, the
CPU census's own functions compiled for it) and reduced there as `summarize(device="cuda")` reduces
games (`run.summary_gpu`): the same Summary, field for field.

Rules that draw random numbers during play are refused: ``shuffle_pile`` (every pile) and
``shuffle_on_loop`` (a looping deal's continuation depends on the draws, so a deal would not have
one outcome). So is a census larger than ``max_deals``, before anything runs, with the count and
the time it would take at a speed measured on a few thousand of its deals, spread over its ranks.
"""

from __future__ import annotations

import functools
import os
import time
from typing import TYPE_CHECKING

import joblib

from ..engine.census_kernel import play_ranks
from ..engine.rank import n_deals
from ..game.checks import check_n_jobs, whole
from .arguments import check_chunk_size
from .device import choose_device
from .limits import check_duration, duration
from .store_files import MANIFEST
from ..game.rules import check_rules, random_options
from .summarize import DEFAULT_CHECKPOINT, resume_summary
from .summary import DEFAULT_CAP, DEFAULT_TOP, Summary
from .summary_chunks import summarize_chunk

if TYPE_CHECKING:
    from ..game.hints import PathLike, Progress, RulesLike

__all__ = ["census", "census_refusal", "MAX_DEALS", "TIMED_DEALS", "MAX_CENSUS_SECONDS", "CENSUS_CHUNK"]

MAX_DEALS = 10**10  # the largest census run without being asked for (max_deals=)
TIMED_DEALS = 10**9  # a census of more deals than this is timed before it starts (without max_deals=)
MAX_CENSUS_SECONDS = 3600  # ... and refused when it would take longer than this here
CENSUS_CHUNK = 2**18  # ranks per task at most (a task is ~0.1-1 s)
_SAMPLE = 2**13  # deals timed for the estimate of a refused census
GPU_SAMPLE = 2**24  # ... on the GPU (a few hundredths of a second there)


def _ranks_engine(rules, seed, games):
    """`summary_chunks.summarize_chunk`'s engine: ``games`` is a contiguous range of ranks."""
    return play_ranks(rules, int(games[0]), int(games[-1]) + 1)


def _census_chunk(lo, hi, *, rules, cap, top) -> Summary:
    part = summarize_chunk(lo, hi, engine=_ranks_engine, rules=rules, seed=0, cap=cap, top=top)
    part.exact = True
    return part


_RANDOM_WHY = {"shuffle_pile": "shuffles every pile taken",
               "shuffle_on_loop": "shuffles once a state repeats, so a looping deal draws random numbers"}


def _census_chunk_gpu(lo, hi, *, rules, cap, top) -> Summary:
    """`_census_chunk` on an NVIDIA GPU, the same Summary: ranks stepped and counted on the GPU
    (`run.summary_gpu`); a range whose lists do not fit is cut in two (a range no longer than a
    list always fits)."""
    from .summary_gpu import chunk_fields

    fields = chunk_fields(lo, hi, rules=rules, seed=0, cap=cap, top=top, ranks=True)
    if fields is not None:
        return Summary(rules=rules, seed=0, cap=cap, top=top, ranges=((lo, hi),), exact=True, **fields)
    if hi - lo < 2:  # (cannot happen while a list holds a game)
        return _census_chunk(lo, hi, rules=rules, cap=cap, top=top)
    mid = (lo + hi) // 2
    return (_census_chunk_gpu(lo, mid, rules=rules, cap=cap, top=top)
            + _census_chunk_gpu(mid, hi, rules=rules, cap=cap, top=top))


def census_refusal(rules) -> str | None:
    """Why ``rules`` cannot be played as a census, or None: a rule that draws random numbers during
    play, or hands too large for the census kernels (more than 64 cards)."""
    random = random_options(rules)  # the options declared random in game/rules.py (RANDOM_VALUES)
    if random:
        return (f"A census plays each deal once, but `{random[0]}` {_RANDOM_WHY.get(random[0], 'draws random numbers')}: "
                f"a deal has no single outcome. Use summarize() for shuffling rules.")
    if rules.n_cards > 64:
        return (f"A census needs a deck of at most 64 cards, but the {rules.deck.label()} deck has "
                f"{rules.n_cards} (and {n_deals(rules):.3g} distinct deals).")
    return None


def _gpu_rate(rules, start, count, n_jobs) -> float:
    """Deals a second on the GPU, measured on one launch of up to `GPU_SAMPLE` of the ``count`` ranks
    from ``start``, from the middle of the range (``n_jobs``: not used)."""
    from ..engine.gpu import count_ranks_cuda

    size = min(GPU_SAMPLE, count)
    a = start + (count - size) // 2
    count_ranks_cuda(rules, a, min(size, 64), cap=DEFAULT_CAP, bar=2**62)  # compiled before the clock starts
    t0 = time.perf_counter()
    count_ranks_cuda(rules, a, size, cap=DEFAULT_CAP, bar=2**62)
    return size / max(time.perf_counter() - t0, 1e-9)


def _cpu_rate(rules, start, count, n_jobs) -> float:
    """Deals a second on the workers of ``n_jobs``, measured on ``_SAMPLE`` of the ``count`` deals from
    ``start`` (16 runs of ranks spread evenly over the range: the first ranks alone are unusual,
    short deals)."""
    play_ranks(rules, start, start + min(64, count))  # compiled (or loaded) before the clock starts
    runs = min(16, count)
    size = max(1, min(_SAMPLE, count) // runs)
    starts = [start + (count - size) * k // max(1, runs - 1) for k in range(runs)]
    t0 = time.perf_counter()
    for a in starts:
        play_ranks(rules, a, a + size)
    return runs * size / max(time.perf_counter() - t0, 1e-9) * max(1, joblib.effective_n_jobs(n_jobs))


def census(rules: RulesLike = None, *, n_jobs: int | None = None, progress: Progress = False,
           store: PathLike | None = None, start: int = 0, stop: int | None = None, chunk_size: int | None = None,
           cap: int = DEFAULT_CAP, top: int = DEFAULT_TOP, checkpoint: float | None = None,
           max_deals: int | None = None, device: str = "cpu") -> Summary:
    """Play every distinct deal of ``rules.deck`` for ``rules.players`` once, in rank order.

    Parameters
    ----------
    rules : Rules, optional
        Any rules that draw no random numbers during play (no ``shuffle_pile``, no
        ``shuffle_on_loop``), a deck of at most 64 cards. Default ``Rules()``, whose census is refused
        as too large.
    n_jobs : int, optional
        Parallel workers (scikit-learn's convention: None is 1 unless a ``joblib.parallel_config`` context
        says otherwise, -1 all cores); a ``joblib.parallel_config(backend=...)`` context
        takes over from outside, as in `summarize`. The result does not depend on it.
    progress : {False, True, 'notebook'}
        A tqdm progress bar counting deals; first, if the census kernels are not compiled yet, a line on
        stderr saying so and how long it took (`run.warmup`).
    store : path, optional
        A directory: the summary of the finished ranges is saved there (``summary.json``) every
        ``checkpoint`` seconds and when the run stops (also on Ctrl-C or a crash between saves: at
        most ``checkpoint`` seconds are lost); the same call resumes. A directory holding another run
        is refused.
    start, stop : int
        The range of ranks ``start .. stop-1`` (default: every deal, ``0 .. n_deals(rules)``).
    chunk_size : int, optional
        Ranks per task (default: shrinking tasks of at most `CENSUS_CHUNK`). Results do not depend
        on it.
    cap, top, checkpoint
        As in `summarize`.
    max_deals : int, optional
        A census of more deals is refused before it starts, with the count and an estimate of its
        time at a speed measured on a few thousand of its deals. Default None: at most `MAX_DEALS`,
        and a census of more than `TIMED_DEALS` is refused when it would take more than
        `MAX_CENSUS_SECONDS` here (pass ``max_deals`` to run it anyway).
    device : {'cpu', 'cuda'}
        'cuda' steps and plays the ranks on an NVIDIA GPU (the ``cuda`` extra; decks of fewer than
        2**56 deals): the same Summary, field for field, as on the CPU; ``n_jobs`` is then not used.

    Returns
    -------
    Summary
        ``exact`` True, ``seed`` 0, the ids are deal ranks (`beggarstats.deal_at`), ``n_games`` the
        number of deals played.

    Raises
    ------
    ValueError
        Shuffling rules, a deck of more than 64 cards, a census larger than ``max_deals``, a bad
        range of ranks, or a store holding another run.
    """
    device = choose_device(device)
    rules = check_rules(rules)
    if isinstance(store, (str, os.PathLike)) and os.path.lexists(os.path.join(store, MANIFEST)):
        raise ValueError(f"The `store` directory {str(store)!r} holds a parquet store of random games ({MANIFEST}), "
                         f"not a census: pass a directory of its own.")
    reason = census_refusal(rules)
    if reason:
        raise ValueError(reason)
    total_deals = n_deals(rules)
    start = whole("start", start, 0)
    stop = total_deals if stop is None else whole("stop", stop, 0)
    if not start <= stop <= total_deals:
        raise ValueError(f"The values for `start` and `stop` must satisfy 0 <= start <= stop <= {total_deals:,} (the "
                         f"deals of the {rules.deck.label()} deck for {rules.players} players), but {start} and "
                         f"{stop} were passed.")
    chunk_size = check_chunk_size(chunk_size)
    cap, top = whole("cap", cap, 1), whole("top", top, 0)
    asked = max_deals
    max_deals = MAX_DEALS if max_deals is None else whole("max_deals", max_deals, 1)
    n_jobs = check_n_jobs(n_jobs)
    checkpoint = DEFAULT_CHECKPOINT if checkpoint is None else checkpoint
    if isinstance(checkpoint, bool) or not isinstance(checkpoint, (int, float)) or not checkpoint >= 0:
        raise ValueError(f"The value for `checkpoint` must be a number of seconds >= 0, but {checkpoint!r} was passed.")
    count = stop - start
    if device.gpu:  # the ranks stepped and counted on the GPU, a range a launch
        from ..engine.gpu import check_ranks
        from .summary_gpu import GPU_CHUNK

        check_ranks(rules)  # a deck of too many deals for the GPU's 64-bit ranks is refused
        rate, chunk, workers = _gpu_rate, _census_chunk_gpu, dict(n_jobs=1, chunk_size=chunk_size or GPU_CHUNK)
    else:
        if progress and count:  # the census kernels compile on first use: say so first
            from .warmup import census_kernels, warm_up

            warm_up(census_kernels(rules), n_jobs=n_jobs)
        rate, chunk, workers = _cpu_rate, _census_chunk, dict(n_jobs=n_jobs, chunk_size=chunk_size, largest=CENSUS_CHUNK)
    what = f"A census of the {rules.deck.label()} deck for {rules.players} players is "
    if count > max_deals:  # refused before a deal is played, with its time
        raise ValueError(f"{what}{count:,} deals ({count:.3g}), more than `max_deals` = {max_deals:,}: about "
                         f"{duration(count / (speed := rate(rules, start, count, n_jobs)))} at the {speed:,.0f} "
                         f"deals/s measured here. Pass a larger `max_deals`, or a range of ranks (`start`, `stop`).")
    if asked is None and count > TIMED_DEALS:
        check_duration(count, rate(rules, start, count, n_jobs), unit="deals", what=what, measured=True,
                       limit=MAX_CENSUS_SECONDS, instead="pass `max_deals` to run it anyway, or a range of ranks "
                                                         "(`start`, `stop`).")
    config = Summary(rules=rules, seed=0, cap=cap, top=top, exact=True)
    work = functools.partial(chunk, rules=rules, cap=cap, top=top)
    return resume_summary(config, store, start, stop, work, checkpoint=checkpoint, progress=progress, n_total=count,
                          desc="census", unit="deal", **workers)

