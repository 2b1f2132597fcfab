"""`beggarstats search`: search for long deals (`beggarstats.search_long`) and print the longest found."""

from __future__ import annotations

import argparse

from .options import (add_device_option, add_jobs_option, add_progress_option, add_rule_options, positive_number,
                      progress_wanted,
                      rules_from_args, whole_number)

__all__ = ["HELP", "add_parser", "run"]

HELP = "search for long deals: random deals, or backwards from the long ones"


_seconds = positive_number("a number of CPU seconds")


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "search", help=HELP,
        description="Search for long deals (docs/search.md): play random deals 0..DEALS-1 of the table SEED and, "
                    "with --strategy backward, run the games of the long ones backwards to find deals that lead "
                    "into them. --deals fixes the result; --seconds is a CPU-time budget on top. With --deal, run "
                    "that deal's game backwards instead: the longest deal that runs into it, or, for a deal that "
                    "never ends, every deal that runs into its loop. Every deal printed is replayed by "
                    "`beggarstats play`.")
    p.add_argument("--seed", type=whole_number, default=None,
                   help="table seed of the random deals (required unless --deal, no default)")
    p.add_argument("--deal", default=None, metavar="DEAL",
                   help="instead of random deals: run this deal back (hands joined by '/', seat 0 first; "
                        "bs.run_back); the players are the deal's (default none: random deals)")
    p.add_argument("--deals", type=whole_number, default=None, help="random deals to try: the reproducible budget (default none: as many as --seconds allows)")
    p.add_argument("--seconds", type=_seconds, default=None, help="CPU-second budget (default none: --deals decides)")
    p.add_argument("--max-deals", type=whole_number, default=None,
                   help="refuse more --deals than this without a --seconds budget (default 1e10; the refusal says "
                        "how long they would take)")
    p.add_argument("--strategy", choices=["backward", "random"], default="backward", help="how to search (default backward)")
    p.add_argument("--min-cards", type=whole_number, default=3000,
                   help="backward: extend the random deals at least this long (default 3000)")
    p.add_argument("--nodes", type=whole_number, default=1_000_000,
                   help="backward: states examined per extended deal (default 1000000: whole ancestor trees)")
    p.add_argument("--top", type=whole_number, default=10, help="longest deals printed (default 10)")
    add_jobs_option(p)
    add_device_option(p)
    add_progress_option(p)
    add_rule_options(p, players=True)
    return p


def run(args) -> int:
    if args.deal is not None:
        return _run_back(args)
    if args.seed is None:
        raise ValueError("--seed is required (the table of random deals), unless --deal gives a deal to run back")
    from ..run.search import search_long

    df = search_long(rules_from_args(args), seed=args.seed, deals=args.deals, seconds=args.seconds,
                     strategy=args.strategy, min_cards=args.min_cards, nodes=args.nodes, top=args.top,
                     n_jobs=args.jobs, progress=progress_wanted(args), device=args.device, max_deals=args.max_deals)
    a = df.attrs
    print(f"{a['deals']:,} random deals, {a['extended']:,} extended backwards ({a['states']:,} states), "
          f"{a['cpu_seconds']:.1f} CPU s (stopped by {a['stopped']})")
    for r in df.itertuples():
        end = f"seat {r.winner} wins" if r.outcome == "win" else r.outcome
        print(f"{r.cards:>6} cards  {r.tricks:>5} tricks  {end:<12} {r.deal}")
        print(f"{'':14}{r.how}, found after {r.cpu_seconds:.1f} CPU s")
    return 0


def _run_back(args) -> int:
    given = [f for f, v in (("--seed", args.seed), ("--deals", args.deals), ("--seconds", args.seconds),
                            ("--max-deals", args.max_deals)) if v is not None]
    if given or args.strategy != "backward":
        raise ValueError(f"--deal runs one deal back: give it without {', '.join(given) or '--strategy random'}")
    from ..run.run_back import run_back

    rules = rules_from_args(args)
    df = run_back(args.deal, rules, nodes=args.nodes)  # the players are the deal's
    a = df.attrs
    what = (f"never ends (a loop of {a['loop_cards']} cards)" if a["outcome"] == "loop" else
            f"ends after {a['cards']} cards")
    print(f"{a['deal']} {what}; {a['states']:,} states run back"
          f"{' (stopped by --nodes)' if a['stopped'] else ' (every ancestor tree searched)'}")
    if df.empty:
        print("no deal of the round deal's hand sizes that lasts longer runs into it")
    for r in df.head(args.top).itertuples():
        end = (f"seat {r.winner} wins" if r.outcome == "win" else
               f"loop of {r.loop_cards} cards from card {r.loop_start_cards}")
        print(f"{r.cards:>6} cards  {r.tricks:>5} tricks  {end:<12} {r.deal}")
        print(f"{'':14}{r.how}")
    if len(df) > args.top:
        print(f"... and {len(df) - args.top:,} more (--top)")
    return 0
