"""Rule options shared by the sub-commands: they mirror `Rules`."""

from __future__ import annotations

import argparse

from ..decks import PRESETS
from ..rules import Rules

__all__ = ["add_rule_options", "rules_from_args"]


def add_rule_options(parser: argparse.ArgumentParser, *, players: bool = False, any_deck: bool = False) -> None:
    g = parser.add_argument_group("rules (see docs/RULES.md)")
    if players:
        g.add_argument("--players", type=int, default=2, help="number of players, 2-6 (default 2)")
    g.add_argument("--end", choices=["trick", "empty", "unable"], default="trick", help="end convention (default trick)")
    g.add_argument("--exhausted-tribute", choices=["claimant", "passes_on"], default="claimant",
                   help="when a payer runs out with 3+ players (default claimant)")
    g.add_argument("--direction", choices=["cw", "ccw"], default="cw", help="order of play (ccw = Suck the Well)")
    g.add_argument("--jokers", type=int, default=0, help="jokers added to the deck: 0, 1 or 2")
    g.add_argument("--joker-mode", choices=["super", "beggar"], default="super", help="what a joker does (default super)")
    g.add_argument("--shuffle-pile", action="store_true", help="the trick winner shuffles the pile")
    g.add_argument("--shuffle-on-loop", action="store_true", help="shuffle won piles once a state repeats")
    decks = sorted(PRESETS) + (["any"] if any_deck else [])
    g.add_argument("--deck", choices=decks, default="standard", help="deck (default standard)")
    g.add_argument("--max-cards", type=int, default=None, help="cut a game off after this many cards")
    g.add_argument("--unfinished", choices=["none", "most_cards"], default="none",
                   help="who wins a loop or cut-off game (default none)")


def rules_from_args(args, *, players: int | None = None) -> Rules:
    """`Rules` from parsed options (``--deck any`` is left to the caller: standard here)."""
    return Rules(
        players=players if players is not None else getattr(args, "players", 2),
        end=args.end,
        exhausted_tribute=args.exhausted_tribute,
        direction=args.direction,
        jokers=args.jokers,
        joker_mode=args.joker_mode,
        shuffle_pile=args.shuffle_pile,
        shuffle_on_loop=args.shuffle_on_loop,
        deck="standard" if args.deck == "any" else args.deck,
        max_cards=args.max_cards,
        unfinished=args.unfinished,
    )
