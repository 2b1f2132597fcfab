"""Rule options shared by the sub-commands: they mirror `Rules`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# (decks and rules import numpy: loaded only when a sub-command's parser is built, not for --help)

__all__ = ["add_rule_options", "rules_from_args", "check_run_options", "whole_number", "flag_of", "HELP",
           "add_jobs_option", "add_progress_option", "progress_wanted", "add_force_option", "check_overwrite",
           "add_summary_outputs", "check_summary_out", "add_device_option", "add_games_options",
           "percent", "JOBS_DEFAULT", "rule_flags", "positive_number"]

JOBS_DEFAULT = None  # every batch command, as every n_jobs of the API: one core unless asked (a seed fixes
# every game whatever --jobs)


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """``--jobs N``, with the one default of every batch command."""
    parser.add_argument("--jobs", type=whole_number, default=JOBS_DEFAULT,
                        help="parallel workers; -1 = all cores (default: 1, as the API's n_jobs=None)")


def add_device_option(parser: argparse.ArgumentParser) -> None:
    """``--device cpu|cuda``: where the games are played (cuda: an NVIDIA GPU, the same results)."""
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                        help="play the games on the CPU or on an NVIDIA GPU (cuda: pip install "
                             "\"beggarstats[cuda]\"; the same results) (default cpu)")


def add_games_options(parser: argparse.ArgumentParser) -> None:
    """The run flags of `simulate` and `summarize`, which play the same games: ``--games``,
    ``--seed``, ``--start``, ``--jobs``, ``--device``, ``--chunk-size``."""
    parser.add_argument("--games", type=whole_number, default=10_000, help="number of games (default 10000)")
    parser.add_argument("--seed", type=whole_number, default=None, help="table seed (default: fresh entropy, printed)")
    parser.add_argument("--start", type=whole_number, default=0, help="first game id (default 0)")
    add_jobs_option(parser)
    add_device_option(parser)
    parser.add_argument("--chunk-size", type=whole_number, default=None, help="games per task (default up to 65536)")


def add_progress_option(parser: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--no-progress``: by default on when stderr is a terminal."""
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar on stderr (default: on when stderr is a terminal)")


def progress_wanted(args, stream=None) -> bool:
    """``--progress`` / ``--no-progress`` if given, else whether ``stream`` (stderr) is a terminal."""
    if args.progress is not None:
        return bool(args.progress)
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def add_force_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="let --out replace an existing file (default off)")


def check_overwrite(paths, args) -> None:
    """Refuse to replace an existing ``--out`` file without ``--force``, before anything runs."""
    if getattr(args, "force", False):
        return
    for path in paths:
        if Path(path).is_file():
            raise ValueError(f"--out {str(args.out)!r}: {str(path)!r} exists; pass --force to replace it")


def percent(rate: float, digits: int = 2) -> str:
    """A rate as the command line prints it: ``0.49773`` -> ``'49.77%'``."""
    return f"{100 * rate:.{digits}f}%"


def positive_number(what: str):
    """argparse type of a positive real number (a finite float > 0); ``what`` names it in the message."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not (value > 0 and value != float("inf")):
            raise argparse.ArgumentTypeError(f"must be {what} > 0, but {text.strip()!r} was passed")
        return value
    parse.__name__ = what
    return parse


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


# What each option does, for --help; the options themselves (names, kinds, choices, bounds,
# defaults) come from `Rules` through `game.rules.rule_options()`.
HELP = {
    "players": "number of players",
    "end": "end convention",
    "exhausted_tribute": "when a payer runs out with 3+ players",
    "direction": "order of play (ccw = Suck the Well)",
    "leader": "who leads after a trick: the taker, or the player after the last payer",
    "jokers": "jokers added to the deck",
    "joker_mode": "what a joker does",
    "shuffle_pile": "the trick winner shuffles the pile",
    "shuffle_on_loop": "shuffle won piles once a state repeats",
    "deck": "deck",
    "max_cards": "cut a game off after this many cards",
    "unfinished": "who wins a loop or cut-off game",
}


def flag_of(name: str) -> str:
    """The command-line flag of the `Rules` field ``name``: ``max_cards`` -> ``--max-cards``."""
    return "--" + name.replace("_", "-")


def _bounded(option):
    """argparse type of an integer rule option: a whole number from ``option.low`` to ``option.high``."""
    def parse(text: str) -> int:
        value = whole_number(text)
        if not option.low <= value <= option.high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {option.low} to {option.high}, "
                                             f"but {value} was passed")
        return value
    parse.__name__ = option.name  # argparse names the type in its own messages
    return parse


def add_rule_options(parser: argparse.ArgumentParser, *, players: bool = False, any_deck: bool = False) -> None:
    """One flag per field of `Rules` (`game.rules.rule_options`), with its choices, bounds and
    default: ``--players`` only where the command takes it (``play`` counts the hands), ``--deck any``
    only where it can be any (``play``)."""
    from ..game.rules import rule_options

    g = parser.add_argument_group("rules (see docs/RULES.md)")
    for opt in rule_options():
        if opt.name == "players" and not players:
            continue
        flag, text = flag_of(opt.name), HELP.get(opt.name, opt.name.replace("_", " "))
        if opt.kind == "choice" or opt.kind == "deck":
            choices = list(opt.choices) + (["any"] if opt.kind == "deck" and any_deck else [])
            g.add_argument(flag, choices=choices, default=opt.default, help=f"{text} (default {opt.default})")
        elif opt.kind == "flag":
            action = "store_true" if opt.default is False else argparse.BooleanOptionalAction
            g.add_argument(flag, action=action, default=opt.default,
                           help=f"{text} (default {'on' if opt.default else 'off'})")
        elif opt.kind == "int":
            default = "none" if opt.default is None else opt.default
            g.add_argument(flag, type=_bounded(opt), default=opt.default, metavar="N",
                           help=f"{text}, {opt.low}-{opt.high} (default {default})")
        else:  # pragma: no cover - rule_options() names the kinds
            raise TypeError(f"rule option {opt.name!r} has a kind the command line does not know: {opt.kind!r}")  # internal: a new kind in rule_options() without its flag type


def rule_flags(rules) -> list[str] | None:
    """The flags that give ``rules`` (those of its options that are not the default), the inverse of
    `rules_from_args`; None for a deck no flag names (a custom deck)."""
    from ..game.rules import Rules, rule_options

    out = []
    for opt in rule_options():
        value = getattr(rules, opt.name)
        if opt.kind == "deck":
            names = [d for d in opt.choices if Rules(deck=d).deck == value]
            if not names:
                return None
            value = names[0]
        if value == opt.default:
            continue
        if opt.kind == "flag":
            out.append(flag_of(opt.name) if value else "--no-" + flag_of(opt.name)[2:])
        else:
            out += [flag_of(opt.name), str(value)]
    return out


def rules_from_args(args, *, players: int | None = None):
    """`Rules` from parsed options (``--deck any`` is left to the caller: standard here)."""
    from ..game.rules import Rules, rule_options

    values = {o.name: getattr(args, o.name) for o in rule_options() if hasattr(args, o.name)}
    values["players"] = players if players is not None else values.get("players", 2)
    if values.get("deck") == "any":
        values["deck"] = "standard"
    return Rules(**values)


def check_run_options(args, count: str) -> None:
    """The options the batch commands share, with the bounds of the API (`beggarstats.run.arguments`):
    ``--<count>`` >= 1 (games, matches), ``--seed``, ``--start``, ``--jobs``, ``--chunk-size``, ids
    up to 2**63 - 1. Checked before anything is allocated; errors name the option."""
    from ..run.arguments import check_run

    check_run(getattr(args, count), start=getattr(args, "start", 0), seed=getattr(args, "seed", None),
              n_jobs=getattr(args, "jobs", None), chunk_size=getattr(args, "chunk_size", None), low=1,
              names={"n": f"--{count}", "start": "--start", "seed": "--seed", "n_jobs": "--jobs",
                     "chunk_size": "--chunk-size"})


def add_summary_outputs(p) -> None:
    """``--store DIR``, ``--out FILE.json`` and ``--force``: where `summarize` and `census` keep a Summary."""
    p.add_argument("--store", metavar="DIR", default=None,
                   help="save the summary there as it grows (rerun the same command to resume; default: none)")
    p.add_argument("--out", metavar="FILE.json", default=None,
                   help="write the summary to a JSON file (default: none, print only)")
    add_force_option(p)


def check_summary_out(args) -> None:
    """Refuse an ``--out`` a Summary cannot be written to (not .json, a directory or device, a
    missing or read-only folder, an existing file without --force), before anything is played."""
    if args.out is not None:
        from ..run.outputs import check_output_file

        check_output_file(args.out, name="--out", suffix=".json")
        check_overwrite([args.out], args)
