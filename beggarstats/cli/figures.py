"""`beggarstats figures`: regenerate every figure and the findings table (with --cache, runs are kept and reused)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from .options import add_jobs_option, add_progress_option, check_run_options, progress_wanted, whole_number

__all__ = ["HELP", "add_parser", "run"]

HELP = "regenerate the figures and the findings table"


def add_parser(subparsers) -> argparse.ArgumentParser:
    from ..report.defaults import DEFAULT_GAMES, DEFAULT_SEED  # not report.figures: --help stays light

    p = subparsers.add_parser(
        "figures", help=HELP,
        description="Simulate every run behind the published figures (with --cache, load it from the "
                    "run cache in the per-user cache directory), write them as PNG and the findings table "
                    "as CSV and Markdown.")
    p.add_argument("--games", type=whole_number, default=DEFAULT_GAMES,
                   help=f"2-player standard games; the other runs scale with it (default {DEFAULT_GAMES:,})")
    p.add_argument("--out", default="figures", help="output directory (default figures/)")
    p.add_argument("--seed", type=whole_number, default=DEFAULT_SEED, help=f"seed of every run (default {DEFAULT_SEED})")
    add_jobs_option(p)
    cache = p.add_mutually_exclusive_group()
    cache.add_argument("--cache", action="store_true",
                       help="keep the runs in the per-user cache directory (<cache>/runs, BEGGARSTATS_RUNS_DIR "
                            "to move it) and load them on the next call with the same --games and --seed "
                            "(the first call takes longer; default: --no-cache)")
    cache.add_argument("--no-cache", dest="cache", action="store_false",
                       help="play every game in memory, write no run cache (the default)")
    add_progress_option(p)
    return p


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else 0


def _megabytes(n: int) -> str:
    return f"{n / 1e6:,.0f} MB" if n >= 1e6 else f"{n / 1e3:,.0f} kB"


def run(args) -> int:
    from ..run.writable import try_output_dir

    check_run_options(args, "games")
    try_output_dir(args.out, name="--out")  # a file written there before anything is imported, compiled or played
    if args.cache:
        from ..run.paths import RUNS_ENV, runs_dir

        try:
            try_output_dir(runs_dir(), name="--cache folder")
        except ValueError as exc:  # said as the cache it is, with the variable that moves it
            message = f"{str(exc).rstrip('.')} (the run cache; {RUNS_ENV} moves it)."
            raise ValueError(message) from None  # names: --cache

    from ..report.figures import FIGURES, make_figures
    from ..report.figures import check_figures
    from ..run.paths import runs_dir
    from ..engine.fast import FAST_PASSES
    from ..run.warmup import warm_up

    check_figures(args.games, args.seed, args.jobs)  # a run too large for memory: refused before compiling
    runs = runs_dir() if args.cache else None
    cached_before = runs is not None and _size(runs) > 0
    started = time.perf_counter()
    warm_up(FAST_PASSES + ("exact",), n_jobs=args.jobs)  # 2-6 players, every option; loops and cut-offs: exact
    table = make_figures(args.out, games=args.games, seed=args.seed, n_jobs=args.jobs,
                         store=False if runs is None else runs, progress=progress_wanted(args))
    took = time.perf_counter() - started
    played, loaded = table.attrs["games_played"], table.attrs["games_loaded"]
    print(f"written:  {len(FIGURES)} figures and the findings table ({len(table)} findings: findings.md, "
          f"findings.csv) in {args.out}")
    # a run that appears twice in one call is read back from the cache; only earlier calls count here
    print(f"games:    {played + loaded:,}" + (f" ({loaded:,} loaded from the run cache)" if cached_before and loaded else ""))
    if runs is not None:
        print(f"cache:    {_megabytes(_size(runs))} of runs in {runs} (delete the folder to free it)")
    print(f"took:     {took:.0f} s")
    return 0
