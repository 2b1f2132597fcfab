"""`beggarstats store verify DIR [--repair]`: check every file of a store, optionally remove the bad ones."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "store", help="check a store directory (and repair it)",
        description="Work on a store directory written by `simulate --store` / `simulate_to_store`.")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    v = actions.add_parser(
        "verify", help="read and check every chunk; list every problem",
        description="Read every chunk of the store and check its checksum, its parquet page checksums and "
                    "its configuration against the manifest; list damaged, foreign or duplicate chunks, "
                    "games asked for but missing and stray temporary files. Exit status 0: sound; 1: problems "
                    "were found (with --repair: and the bad files were removed).")
    v.add_argument("dir", metavar="DIR", help="the store directory")
    v.add_argument("--repair", action="store_true",
                   help="remove the bad files, so that running the same simulate command again replays "
                        "exactly their games (default off: only list them)")
    return p


def resume_commands(where: Path) -> list[str] | None:
    """The `beggarstats simulate` commands that fill the store in ``where`` again (one per range of
    games it was asked for), or None when its rules have no flags (a custom deck)."""
    from ..run.store import Store
    from .options import rule_flags

    try:
        st = Store.at(where)
    except ValueError:
        return None
    flags = rule_flags(st.rules)
    if flags is None:
        return None
    return [shlex.join(["beggarstats", "simulate", "--store", str(where), "--seed", str(st.seed), "--start", str(lo),
                        "--games", str(hi - lo), *(["--per-seat"] if st.per_seat else []), *flags])
            for lo, hi in st.requested]


def _summary_store(where: Path) -> int:
    """`store verify` on a directory of `summarize --store`: say what it is and check its summary."""
    from ..run.summary import SUMMARY_FILE, load_summary

    s = load_summary(where / SUMMARY_FILE)  # a damaged file is a ValueError naming it
    print(f"store {where}: a summary store (`beggarstats summarize --store`), {s.n_games:,} games; its "
          f"{SUMMARY_FILE} is sound (checked on every load: there is nothing to repair)")
    return 0


def run(args) -> int:
    from ..run.store import MANIFEST, verify
    from ..run.summary import SUMMARY_FILE

    where = Path(args.dir)
    if not where.is_dir():
        raise ValueError(f"DIR must be a store's directory, but {args.dir!r} is not a directory")  # names: DIR, the positional argument
    if (where / SUMMARY_FILE).is_file() and not (where / MANIFEST).exists():
        return _summary_store(where)
    problems = verify(where, repair=args.repair)
    if not problems:
        print(f"store {where}: sound")
        return 0
    for problem in problems:
        print(f"{problem.kind:<9} {problem.message}")
    removed = [p for p in problems if p.removable]
    missing = sum(p.missing_games for p in problems)
    print(f"store {where}: {len(problems)} problem{'s' if len(problems) != 1 else ''}")
    if args.repair and removed:
        commands = resume_commands(where)
        if commands:
            print(f"removed {len(removed)} file{'s' if len(removed) != 1 else ''}; to play the {missing:,} missing "
                  f"games run:")
            for command in commands:
                print(f"  {command}")
        else:
            print(f"removed {len(removed)} file{'s' if len(removed) != 1 else ''}; run the same simulate command "
                  f"again to play the {missing:,} missing games")
    elif removed:
        print(f"run `beggarstats store verify {where} --repair` to remove the bad files, then the same simulate "
              f"command again to replay their games")
    return 1
