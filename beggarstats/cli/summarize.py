"""`beggarstats summarize`: `simulate`'s printout for any number of games, in constant memory."""

from __future__ import annotations

import argparse

from .options import (add_games_options, add_progress_option, add_rule_options, add_summary_outputs, check_summary_out,
                      check_run_options, progress_wanted, rules_from_args, whole_number)
from .simulate import overview_text

__all__ = ["HELP", "add_parser", "run", "summary_text"]

HELP = "play many random games, keeping only their summary (constant memory)"


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "summarize", help=HELP,
        description="Play random games (the same games as `simulate`: game g is fixed by (seed, g)), reducing "
                    "them chunk by chunk to histograms and counts, and print what `simulate` prints.")
    add_games_options(p)
    add_summary_outputs(p)
    p.add_argument("--top", type=whole_number, default=100, help="longest finished games kept (default 100)")
    add_progress_option(p)
    add_rule_options(p, players=True)
    return p


def summary_text(s) -> str:
    """What `beggarstats simulate` prints (`cli.simulate.summary`), from a `Summary`."""
    from ..analysis.overview import overview

    return overview_text(overview(s))


def run(args) -> int:
    from ..run.summarize import summarize

    check_run_options(args, "games")
    check_summary_out(args)  # before anything is played
    rules = rules_from_args(args)
    try:
        s = summarize(args.games, rules=rules, seed=args.seed, n_jobs=args.jobs, chunk_size=args.chunk_size,
                      progress=progress_wanted(args), start=args.start, store=args.store, top=args.top,
                      device=args.device)
    except ValueError as exc:  # name the flag, not the Python parameter
        raise ValueError(str(exc).replace("`store`", "--store").replace("`top`", "--top")) from None
    print(summary_text(s))
    if args.store is not None:
        print(f"store:    {args.store}")
    if args.out is not None:
        print(f"written:  {s.save(args.out)}")
    return 0
