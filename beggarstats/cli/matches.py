"""`beggarstats matches`: play many random matches (best of N, first to K) and summarise them."""

from __future__ import annotations

import argparse

from .options import (add_device_option, add_jobs_option, add_progress_option, add_rule_options, check_run_options,
                      percent, progress_wanted, rules_from_args, whole_number)

__all__ = ["HELP", "add_parser", "run", "summary"]

HELP = "play many random matches (best of three, first to three) and summarise them"


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "matches", help=HELP,
        description="Play random matches at one table: the deal rotates clockwise after every round, so "
                    "seat (r mod n) leads round r. A match is fixed by (seed, match).")
    p.add_argument("--matches", type=whole_number, default=10_000, help="number of matches (default 10000)")
    p.add_argument("--format", default="best_of_3",
                   help="best_of_N (at most N counted rounds; best of 3 = first to 2 with 2 players) "
                        "or first_to_K (default best_of_3)")
    p.add_argument("--seed", type=whole_number, default=None, help="seed (default: fresh entropy, printed)")
    add_jobs_option(p)
    add_device_option(p)
    p.add_argument("--chunk-size", type=whole_number, default=None, help="matches per task (default: automatic)")
    p.add_argument("--no-replay", dest="replay", action="store_false",
                   help="count a round without a winner as a round nobody won instead of replaying it "
                        "(default: replay it)")
    p.add_argument("--max-rounds", type=whole_number, default=1000,
                   help="give a match up as unfinished after this many dealt rounds (default 1000)")
    add_progress_option(p)
    add_rule_options(p, players=True)
    return p


def summary(matches) -> str:
    """The text `beggarstats matches` prints for a matches frame."""
    from ..analysis.match_stats import match_seat_rates, match_summary

    attrs = matches.attrs
    s = match_summary(matches).iloc[0]
    n = int(s["matches"])
    replay = "replayed" if attrs.get("replay_unfinished", True) else "counted as rounds nobody won"
    lines = [
        f"matches:   {n:,} ({s['format']}, {int(s['players'])} players, rules {s['rules']}, seed {attrs.get('seed')})",
        f"finished:  {int(s['won']) + int(s['drawn']):,} ({int(s['won']):,} won, {int(s['drawn']):,} drawn), "
        f"{int(s['unfinished']):,} unfinished after {attrs.get('max_rounds')} rounds",
        f"rounds:    mean {s['rounds_mean']:.3f} [{s['rounds_low']:.3f}, {s['rounds_high']:.3f}], "
        f"median {s['rounds_median']:g}, max {int(s['rounds_max'])}; rounds without a winner "
        f"{int(s['rounds_without_winner']):,} ({replay})",
        f"cards:     mean {s['cards_mean']:.1f} per match [{s['cards_low']:.1f}, {s['cards_high']:.1f}]",
    ]
    rates = match_seat_rates(matches)
    decided = int(rates["games"].iloc[0]) if len(rates) else 0
    lines.append(f"seat match-win rates (of {decided:,} matches with a winner, 95% Wilson interval; "
                 f"seat 0 leads round 1):")
    for row in rates.itertuples():
        lines.append(f"  seat {row.seat}: {percent(row.rate)} [{percent(row.low)}, {percent(row.high)}]  "
                     f"({row.wins:,} win{'s' if row.wins != 1 else ''}, fair {percent(row.expected)})")
    return "\n".join(lines)


def run(args) -> int:
    from ..engine.fast import kernels_for
    from ..run.device import choose_device
    from ..run.matches import MatchFormat, check_max_rounds, simulate_matches
    from ..run.warmup import warm_up

    check_run_options(args, "matches")
    device = choose_device(args.device)
    rules = rules_from_args(args)
    check_max_rounds(args.max_rounds, MatchFormat.parse(args.format))  # bad input: before any compile
    warm_up(kernels_for(rules))
    df = simulate_matches(args.matches, rules=rules, format=args.format, seed=args.seed, n_jobs=args.jobs,
                          replay_unfinished=args.replay, max_rounds=args.max_rounds, chunk_size=args.chunk_size,
                          progress=progress_wanted(args), device=device)
    print(summary(df))
    return 0
