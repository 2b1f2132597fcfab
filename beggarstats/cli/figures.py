"""`beggarstats figures`: regenerate every figure and the findings table (cached runs are reused)."""

from __future__ import annotations

import argparse
import time

from .options import check_run_options

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    from ..figures import DEFAULT_GAMES, DEFAULT_SEED

    p = subparsers.add_parser(
        "figures", help="regenerate the figures and the findings table",
        description="Simulate (or load from the store under data/runs/) every run behind the published "
                    "figures, write them as PNG and the findings table as CSV and Markdown.")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES,
                   help=f"2-player standard games; the other runs scale with it (default {DEFAULT_GAMES:,})")
    p.add_argument("--out", default="figures", help="output directory (default figures/)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed of every run (default {DEFAULT_SEED})")
    p.add_argument("--jobs", type=int, default=-1, help="parallel workers (default -1: all cores)")
    p.add_argument("--no-cache", action="store_true", help="play every game in memory; read and write no store")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def run(args) -> int:
    from ..figures import FIGURES, make_figures
    from ..findings import to_markdown

    check_run_options(args, "games")
    started = time.perf_counter()
    table = make_figures(args.out, games=args.games, seed=args.seed, n_jobs=args.jobs,
                         store=not args.no_cache, progress=not args.no_progress)
    took = time.perf_counter() - started
    print(to_markdown(table), end="")
    print(f"written:  {len(FIGURES)} figures, findings.csv and findings.md in {args.out}")
    print(f"games:    {table.attrs['games_played']:,} played, {table.attrs['games_loaded']:,} loaded from the store")
    print(f"took:     {took:.0f} s")
    return 0
