"""`beggarstats census`: every distinct deal of a small deck played once, printed like `summarize`."""

from __future__ import annotations

import argparse
import re

from .options import (add_device_option, add_jobs_option, add_progress_option, add_rule_options, add_summary_outputs,
                      check_summary_out, progress_wanted, rules_from_args, whole_number)

__all__ = ["HELP", "add_parser", "run", "add_deck_counts", "counted_rules", "census_text"]

HELP = "play every distinct deal of a small deck once: exact answers"


def _counts(text: str):
    parts = text.replace("/", ",").split(",")
    try:
        counts = [int(p) for p in parts]
    except ValueError:
        counts = None
    if counts is None or len(counts) != 5 or min(counts) < 0:
        raise argparse.ArgumentTypeError(f"must be five whole numbers >= 0 (number cards, J, Q, K, A) such as "
                                         f"14,2,2,2,0, but {text!r} was passed")
    return tuple(counts)


def add_deck_counts(p: argparse.ArgumentParser, *, players: bool) -> None:
    """``--counts N,J,Q,K,A`` (a custom deck, instead of --deck) and, with ``players``, ``--players``."""
    p.add_argument("--counts", type=_counts, default=None, metavar="N,J,Q,K,A",
                   help="a deck of these counts of number cards, J, Q, K and A (instead of --deck), e.g. 14,2,2,2,0 "
                        "(default: none, the deck of --deck)")
    if players:  # `play`: only with --rank (otherwise the players are the deal's hands)
        p.add_argument("--players", type=whole_number, default=None, metavar="N",
                       help="with --rank: the number of players of the ranked deal (default 2)")


_FIELDS = {"numbers": "number cards", "jacks": "Jacks", "queens": "Queens", "kings": "Kings", "aces": "Aces"}


def counted_rules(args):
    """`Rules` from the rule options, with the deck of ``--counts`` when given (whose errors name
    --counts, never --deck: --counts replaces it)."""
    from ..game.decks import Deck

    rules = rules_from_args(args, players=getattr(args, "players", None) or 2)
    if args.counts is None:
        return rules
    try:
        return rules.replace(deck=Deck.from_counts(args.counts))
    except ValueError as exc:  # the API's words for the deck: `deck`, the Deck's fields
        message = re.sub(r"the Deck counts \([^)]*\)", "the --counts", str(exc))
        message = re.sub(r"Deck `(\w+)`", lambda m: f"The {_FIELDS.get(m.group(1), m.group(1))} of --counts", message)
        raise ValueError(message.replace("a larger `deck`", "larger --counts")) from None


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "census", help=HELP,
        description="Play every distinct deal of the deck once, in rank order (docs/RULES.md, deals as numbers), "
                    "and print what `summarize` prints: exact counts, not a sample. Rules that shuffle during play "
                    "are refused, and so is a census too large to finish (with its count and estimated time).")
    p.add_argument("--start", type=whole_number, default=0, help="first rank (default 0)")
    p.add_argument("--stop", type=whole_number, default=None, help="one past the last rank (default: every deal)")
    add_jobs_option(p)
    add_device_option(p)
    p.add_argument("--chunk-size", type=whole_number, default=None, help="deals per task (default up to 262144)")
    add_summary_outputs(p)
    p.add_argument("--top", type=whole_number, default=100, help="longest deals kept (default 100)")
    p.add_argument("--max-deals", type=whole_number, default=None, help="refuse a census of more deals (default 1e10, and a census of more than 1e9 deals that would take more than an hour here)")
    add_progress_option(p)
    add_rule_options(p, players=True)
    add_deck_counts(p, players=False)
    return p


def census_text(s) -> str:
    """`summarize`'s printout of a census, with its exact facts: the deals, the looping ranks, the
    longest deal by rank."""
    from ..engine.rank import deal_at
    from ..game.cards import format_deal
    from .options import percent
    from .summarize import summary_text

    if not s.n_games:  # an empty range of ranks: nothing to share out
        return (f"census:   0 deals (an empty range of ranks), rules {s.rules.name}, {s.rules.players} players: "
                f"nothing played")
    lines = [x for x in summary_text(s).splitlines()[1:] if not x.startswith(("seat ", "  seat "))]
    decided = int(s.wins.sum())  # exact shares: no interval (the first line named a seed and game ids)
    lines.append(f"seat win shares (of {decided:,} deals with a winner, exact):")
    # percentages as `simulate` and `summarize` print them (`options.percent`), with the exact counts beside
    lines += [f"  seat {k}: {percent(w / decided)}  ({int(w):,} wins)" for k, w in enumerate(s.wins) if decided]
    lo, hi = (s.ranges[0][0], s.ranges[-1][1]) if s.ranges else (0, 0)
    head = [f"census:   {s.n_games:,} deals (ranks {lo}..{hi - 1}), rules {s.rules.name}, {s.rules.players} players: "
            f"exact counts"]
    loops = s.loops["game"]
    tail = [f"loops:    {loops.size:,}" + (" at ranks " + ", ".join(str(int(r)) for r in loops[:20]) if loops.size else "")
            + (", ..." if loops.size > 20 else "")]
    if s.longest["game"].size:
        r = int(s.longest["game"][0])
        tail.append(f"longest:  rank {r}, {int(s.longest['cards'][0]):,} cards: {format_deal(deal_at(r, s.rules))}")
    return "\n".join(head + lines + tail)


def run(args) -> int:
    from ..run.census import census

    check_summary_out(args)  # before anything is played
    rules = counted_rules(args)
    try:
        s = census(rules, n_jobs=args.jobs, progress=progress_wanted(args), store=args.store, start=args.start,
                   stop=args.stop, chunk_size=args.chunk_size, top=args.top,
                   max_deals=args.max_deals, device=args.device)
    except ValueError as exc:  # name the flags, not the Python parameters
        message = str(exc)
        for name in ("store", "top", "start", "stop", "max_deals"):
            message = message.replace(f"`{name}`", "--" + name.replace("_", "-"))
        message = message.replace("Use summarize() for shuffling rules",
                                  "Use `beggarstats summarize` for shuffling rules")
        raise ValueError(message) from None
    print(census_text(s))
    if args.store is not None:
        print(f"store:    {args.store}")
    if args.out is not None:
        print(f"written:  {s.save(args.out)}")
    return 0
