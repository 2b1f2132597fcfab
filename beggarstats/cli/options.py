"""Rule options shared by the sub-commands: they mirror `Rules`."""

from __future__ import annotations

import argparse

# (decks and rules import numpy: loaded only when a sub-command's parser is built, not for --help)

__all__ = ["add_rule_options", "rules_from_args", "check_run_options", "whole_number"]

PLAYERS = range(2, 7)


def whole_number(text: str) -> int:
    """argparse type of counts: a whole number written ``1000000``, ``1_000_000`` or ``1e6``."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not value.is_integer():
        raise argparse.ArgumentTypeError(f"must be a whole number (e.g. 1000000, 1_000_000 or 1e6), but {text.strip()!r} was passed")
    if abs(value) > 2**53:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} is too large to be exact in this notation: write its digits")
    return int(value)


def add_rule_options(parser: argparse.ArgumentParser, *, players: bool = False, any_deck: bool = False) -> None:
    from ..game.decks import PRESETS

    g = parser.add_argument_group("rules (see docs/RULES.md)")
    if players:
        g.add_argument("--players", type=whole_number, choices=PLAYERS, metavar="{2-6}", default=2,
                       help="number of players, 2-6 (default 2)")
    g.add_argument("--end", choices=["trick", "empty", "unable"], default="trick", help="end convention (default trick)")
    g.add_argument("--exhausted-tribute", choices=["claimant", "passes_on"], default="claimant",
                   help="when a payer runs out with 3+ players (default claimant)")
    g.add_argument("--direction", choices=["cw", "ccw"], default="cw", help="order of play (ccw = Suck the Well)")
    g.add_argument("--leader", choices=["taker", "next"], default="taker",
                   help="who leads after a trick: the taker, or the player after the last payer (default taker)")
    g.add_argument("--jokers", type=whole_number, default=0, help="jokers added to the deck: 0, 1 or 2")
    g.add_argument("--joker-mode", choices=["super", "beggar"], default="super", help="what a joker does (default super)")
    g.add_argument("--shuffle-pile", action="store_true", help="the trick winner shuffles the pile")
    g.add_argument("--shuffle-on-loop", action="store_true", help="shuffle won piles once a state repeats")
    decks = sorted(PRESETS) + (["any"] if any_deck else [])
    g.add_argument("--deck", choices=decks, default="standard", help="deck (default standard)")
    g.add_argument("--max-cards", type=whole_number, default=None, help="cut a game off after this many cards")
    g.add_argument("--unfinished", choices=["none", "most_cards"], default="none",
                   help="who wins a loop or cut-off game (default none)")


def rules_from_args(args, *, players: int | None = None):
    """`Rules` from parsed options (``--deck any`` is left to the caller: standard here)."""
    from ..game.rules import Rules

    return Rules(
        players=players if players is not None else getattr(args, "players", 2),
        end=args.end,
        exhausted_tribute=args.exhausted_tribute,
        direction=args.direction,
        leader=args.leader,
        jokers=args.jokers,
        joker_mode=args.joker_mode,
        shuffle_pile=args.shuffle_pile,
        shuffle_on_loop=args.shuffle_on_loop,
        deck="standard" if args.deck == "any" else args.deck,
        max_cards=args.max_cards,
        unfinished=args.unfinished,
    )


def check_run_options(args, count: str) -> None:
    """The options the batch commands share, with the bounds of the API (`beggarstats.run.arguments`):
    ``--<count>`` >= 1 (games, matches), ``--seed``, ``--start``, ``--jobs``, ``--chunk-size``, ids
    up to 2**63 - 1. Checked before anything is allocated; errors name the option."""
    from ..run.arguments import check_run

    check_run(getattr(args, count), start=getattr(args, "start", 0), seed=getattr(args, "seed", None),
              n_jobs=getattr(args, "jobs", None), chunk_size=getattr(args, "chunk_size", None), low=1,
              names={"n": f"--{count}", "start": "--start", "seed": "--seed", "n_jobs": "--jobs",
                     "chunk_size": "--chunk-size"})
