"""`beggarstats simulate`: play many random games, print a summary, optionally keep the rows."""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import (add_force_option, add_games_options, add_progress_option, add_rule_options, check_overwrite,
                      check_run_options, percent, progress_wanted, rules_from_args)

__all__ = ["HELP", "add_parser", "run", "summary", "overview_text", "check_out_file"]

HELP = "play many random games and summarise them"


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "simulate", help=HELP,
        description="Play random games (game g of a table is fixed by (seed, g)) and print outcomes, "
                    "lengths and seat win rates.")
    add_games_options(p)
    where = p.add_mutually_exclusive_group()
    where.add_argument("--out", metavar="FILE.parquet", default=None,
                       help="write the games to one parquet file (default: none, print only)")
    where.add_argument("--store", metavar="DIR", default=None,
                       help="keep the games in a resumable store directory (rerun the same command to resume; "
                            "default: none)")
    add_force_option(p)
    add_progress_option(p)
    p.add_argument("--per-seat", action="store_true", help="also keep one row per game and seat (default off)")
    add_rule_options(p, players=True)
    return p


def summary(games) -> str:
    """The text `beggarstats simulate` prints for a games frame (or its `Summary`)."""
    from ..analysis.overview import overview

    return overview_text(overview(games))


def overview_text(o) -> str:
    """An `analysis.Overview` as `beggarstats simulate` and `beggarstats summarize` print it."""
    n = o.games
    lines = [f"games:    {n:,} (seed {o.seed}, ids {o.start}..{o.start + n - 1}, rules {o.rules if n else '-'}, "
             f"{o.players if n else '-'} players)"]
    lines.append("outcomes: " + ", ".join(f"{k} {v:,} ({100 * v / n:.2f}%)" for k, v in o.outcomes.items()))
    for col in ("cards", "tricks"):
        m = o.lengths[col]
        lines.append(f"{col + ':':<9} mean {m['mean']:.1f}, median {m['median']:g}, max {m['max']:,}")
    return "\n".join(lines + seat_lines(o.seats))


def seat_lines(seats) -> list[str]:
    """The seat win-rate lines of the printout, from `analysis.seat_shares` (rates among games
    with a winner, as `analysis.seat_win_rates` computes them)."""
    decided = int(seats["games"].iloc[0]) if len(seats) else 0
    if decided == 0:
        return ["seat win rates: none, no game had a winner"]
    lines = [f"seat win rates (of {decided:,} games with a winner, 95% Wilson interval):"]
    for r in seats.itertuples():
        lines.append(f"  seat {r.seat}: {percent(r.rate)} [{percent(r.low)}, {percent(r.high)}]  ({r.wins:,} "
                     f"win{'s' if r.wins != 1 else ''})")
    return lines


def check_out_file(out: str, *, per_seat: bool = False) -> list[Path]:
    """Refuse an ``--out`` that cannot be written, before simulating (`run.outputs.check_output_file`:
    not .parquet, a directory or device, a parent missing or read-only). Returns the files it would
    write: the games, and with ``per_seat`` the seats beside them."""
    from ..run.outputs import check_output_file

    path = check_output_file(out, name="--out", suffix=".parquet")
    targets = [path] + ([path.with_name(path.stem + "-seats.parquet")] if per_seat else [])
    for target in targets[1:]:
        check_output_file(target, name="--out")
    return targets


def run(args) -> int:
    from ..engine.fast import kernels_for
    from ..run.device import choose_device
    from ..run.simulate import simulate
    from ..run.store import save
    from ..run.warmup import warm_up

    check_run_options(args, "games")
    if args.store is not None and args.device == "cuda":  # the flags alone say it, on any machine
        raise ValueError("--device cuda keeps no --store: use `beggarstats summarize --device cuda` for "
                         "runs of any size in constant memory.")
    device = choose_device(args.device)  # before the kernels compile
    if args.out is not None:
        check_overwrite(check_out_file(args.out, per_seat=args.per_seat), args)  # before any game is played
    rules = rules_from_args(args)
    warm_up(kernels_for(rules))
    options = dict(rules=rules, seed=args.seed, n_jobs=args.jobs, chunk_size=args.chunk_size,
                   progress=progress_wanted(args), per_seat=args.per_seat, start=args.start)
    if args.store is not None:
        # Stream into the store, each chunk summarised as it is written (only the chunks a resumed
        # run finds stored are read back, one at a time): constant memory at any size.
        from ..run.summarize import store_and_summarize

        st, total, played = store_and_summarize(args.games, store=args.store, **options)
        print(summary(total))  # a Summary
        print(f"store:    {st.path} ({args.games - played:,} games loaded, {played:,} played)")
        return 0
    result = simulate(args.games, device=device, **options)
    games, seats = result if args.per_seat else (result, None)
    print(summary(games))
    if args.out is not None:
        out = Path(args.out)
        save(games, out)
        print(f"written:  {out}")
        if seats is not None:
            seat_file = out.with_name(out.stem + "-seats.parquet")
            save(seats, seat_file)
            print(f"written:  {seat_file}")
    return 0
