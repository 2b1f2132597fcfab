"""`beggarstats play DEAL...`: play given deals with the reference engine."""

from __future__ import annotations

import argparse
import json
import sys

from ..game.cards import KIND_NAMES, DealError
from .census import add_deck_counts, counted_rules
from .options import add_rule_options, rules_from_args, whole_number

__all__ = ["HELP", "add_parser", "run", "describe"]

HELP = "play one or more deals and print what happened"
EXAMPLE = "'---K--/-Q---'"  # a short deal: played with --deck any


def add_parser(sub):
    p = sub.add_parser("play", help=HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Play deals (hands joined by '/', seat 0 first, top card first). The number\n"
                                   "of players is the number of hands. A deal of the whole standard deck is\n"
                                   "checked card by card; --deck any plays a deal of any cards, e.g.\n\n"
                                   f"  beggarstats play --deck any {EXAMPLE}")
    p.add_argument("deals", nargs="*", metavar="DEAL",
                   help="a deal, or - to read one deal per line from stdin (each bad line is reported "
                        "with its line number, the others are played, exit status 2 at the end)")
    add_rule_options(p, any_deck=True)
    p.add_argument("--rank", type=whole_number, default=None, metavar="R",
                   help="instead of a deal: the deal of rank R of the deck (with --players, --deck or --counts; "
                        "default: none, the deals given)")
    add_deck_counts(p, players=True)
    p.add_argument("--seed", type=int, default=0, help="random stream for the shuffle variants (default 0)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="one JSON object per deal per line (default: text)")
    out.add_argument("--trace", action="store_true", help="also list every trick (default off)")
    return p


def _deals(args):
    """(where, deal) pairs: the deal's place for error messages, then its text."""
    for i, deal in enumerate(args.deals, start=1):
        if deal == "-":
            if sys.stdin is None or sys.stdin.closed:
                raise DealError("stdin is closed: there are no deals to read from '-'")
            for n, line in enumerate(sys.stdin, start=1):
                if line.strip() and not line.lstrip().startswith("#"):
                    yield f"stdin line {n}", line.strip()
        else:
            yield f"deal {i}", deal


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def describe(result, *, trace: bool = False) -> str:
    """A readable summary of a `GameResult` (and its tricks with ``trace``)."""
    lines = [f"deal     {result.deal}"]
    if result.outcome == "win":
        lines.append(f"outcome  seat {result.winner} wins after {_n(result.cards, 'card')} and {_n(result.tricks, 'trick')}")
    elif result.outcome == "loop":
        lines.append(f"outcome  never ends: the first repeated state comes after {_n(result.tricks, 'trick')} "
                     f"({_n(result.cards, 'card')})")
    else:
        lines.append(f"outcome  cut off after {_n(result.cards, 'card')} ({_n(result.tricks, 'trick')})")
    if result.loop_tricks is not None:
        lines.append(f"loop     enters its cycle after {_n(result.loop_start_tricks, 'trick')} "
                     f"({_n(result.loop_start_cards, 'card')}); the cycle is {_n(result.loop_tricks, 'trick')} "
                     f"({_n(result.loop_cards, 'card')}) long")
    if result.outcome != "win" and result.winner is not None:
        lines.append(f"winner   seat {result.winner} (most cards)")
    if result.out_order:
        lines.append("out      " + ", ".join("+".join(f"seat {s}" for s in g) for g in result.out_order))
    if trace and result.trace:
        lines.append("tricks   #  leader  taker  cards played                       hand sizes after")
        for i, t in enumerate(result.trace, start=1):
            played = " ".join(f"{s}:{KIND_NAMES[c] if c else '-'}" for s, c in t.plays)
            taker = "-" if t.taker is None else str(t.taker)
            lines.append(f"       {i:>3}  {t.leader:>6}  {taker:>5}  {played:<34} {list(t.hand_sizes)}")
    return "\n".join(lines)


def _play_one(args, where: str, deal: str, several: bool):
    """The result of one deal; a bad deal raises DealError naming ``where`` when there are several."""
    from ..run.play import play

    rules = rules_from_args(args, players=max(2, min(deal.count("/") + 1, 12)))  # play() takes the count from the deal
    try:
        return play(deal, rules, any_deck=args.deck == "any", rng=args.seed, trace=args.trace)
    except DealError as exc:
        message = str(exc)
        if args.deck != "any" and " deck" in message:  # a whole-deck check failed
            message += "; --deck any plays a deal of any cards"
        raise DealError(f"{where}: {message}" if several else message) from None


def run(args) -> int:
    from ..game.checks import check_seed

    check_seed(args.seed, name="--seed", none=False)
    if args.players is not None and args.rank is None:
        raise ValueError("--players: in `beggarstats play` the players are the hands of the deal, joined by '/' "
                         "(K/-/-- is 3 players); --players goes with --rank, or with simulate, summarize and matches")
    if (args.rank is None) == (not args.deals):
        raise ValueError("give one or more deals, or --rank R (not both)")
    if args.rank is not None:  # the deal of that rank, then played like any other
        from ..engine.rank import deal_at
        from ..game.cards import format_deal

        rules = counted_rules(args)
        args.deals, args.deck = [format_deal(deal_at(args.rank, rules))], "any"
    first = True
    several = len(args.deals) > 1 or args.deals == ["-"]
    bad = 0
    for where, deal in _deals(args):
        try:
            result = _play_one(args, where, deal, several)
        except DealError as exc:
            if not where.startswith("stdin"):
                raise
            # a batch from stdin goes on: each bad line is reported, the others are played
            print(f"beggarstats play: error: {exc}", file=sys.stderr, flush=True)
            bad += 1
            continue
        if args.json:
            print(json.dumps(result.summary()), flush=True)
        else:
            if not first:
                print()
            print(describe(result, trace=args.trace), flush=True)
        first = False
    if bad:
        print(f"beggarstats play: {bad} bad deal{'s' if bad > 1 else ''} skipped", file=sys.stderr)
        return 2
    return 0
