"""The `beggarstats` command line: one module per sub-command.

Each sub-command module has ``add_parser(subparsers)`` and ``run(args) -> int``. Bad input (a bad
deal, an out-of-range option) is one line on stderr naming the flag (or the deal position) and exit
status 2, never a traceback. A closed pipe (``beggarstats ... | head``) ends the command quietly.
Only the chosen sub-command's module is imported, so ``--help`` and ``play`` stay light.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys

__all__ = ["main", "COMMANDS", "build_parser", "flag_message"]

# Sub-command modules, in the order `beggarstats --help` lists them.
COMMANDS = ("play", "records", "simulate", "compare", "summarize", "census", "matches", "figures", "explore", "store",
            "search")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: one line naming the flag, exit 2
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _module(name: str):
    """The sub-command's module, or None for one still being written."""
    try:
        return importlib.import_module(f".{name}", __name__)
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command``, only that sub-command is built in full (its module alone is
    imported, and the others are listed by their ``HELP`` line where they have one)."""
    from .. import __version__

    parser = _Parser(prog="beggarstats", description="The Monte Carlo laboratory for Beggar-My-Neighbour.")
    parser.add_argument("--version", action="version", version=f"beggarstats {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        module = _module(name)
        if module is None:
            continue
        if command is not None and name != command and hasattr(module, "HELP"):
            sub.add_parser(name, help=module.HELP)  # listed, not built: keeps `--help` light
            continue
        sub_parser = module.add_parser(sub)
        sub_parser.set_defaults(_run=module.run, _parser=sub_parser)
    return parser


# Python parameter names that are not the dest of the flag that sets them.
_FLAG_ALIASES = {"n_jobs": "--jobs", "n": "--games", "n_games": "--games", "n_matches": "--matches",
                 "replay_unfinished": "--no-replay"}
_PARAMETER = re.compile(r"(?:The value for )?`(\w+)`")
# a parameter with its value, quoted (`device='cuda'`) or bare (use device='cpu'): the flag and the value
_ASSIGNED = re.compile(r"`(\w+)='([\w.-]*)'`|(?<![\w`'(-])(\w+)='([\w.-]*)'")


def flag_message(message: str, parser: argparse.ArgumentParser | None) -> str:
    """``message`` with the Python parameters it names (`max_cards`) replaced by their flags
    (--max-cards), for the flags ``parser`` has."""
    flags = dict(_FLAG_ALIASES)
    for action in getattr(parser, "_actions", ()):
        if action.option_strings:
            flags.setdefault(action.dest, max(action.option_strings, key=len))

    def swap(m):
        return flags.get(m.group(1), m.group(0))

    def assigned(m):
        name, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        return f"{flags[name]} {value}" if name in flags else m.group(0)
    swapped = _PARAMETER.sub(swap, _ASSIGNED.sub(assigned, message))
    if swapped != message:
        swapped = swapped.replace(" or None,", ",")  # a flag left out is None
    # bare parameter names with an underscore (per_seat, max_cards) are identifiers, never words;
    # text in single quotes is a value as passed ('shuffle_pile+end=empty'), never a parameter
    bare = [name for name in flags if "_" in name]
    if bare:
        pattern = re.compile(r"(?<![\w`-])(" + "|".join(map(re.escape, bare)) + r")(?![\w`])")
        swapped = "".join(part if i % 2 else pattern.sub(lambda m: flags[m.group(1)], part)
                          for i, part in enumerate(re.split(r"('[^'\n]*')", swapped)))
    return swapped


def _quiet_broken_pipe() -> int:
    """The reader went away (``| head``): stop writing, say nothing, exit like a Unix tool."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the final flush at exit must not fail again
    except (OSError, ValueError, AttributeError):
        pass
    return 128 + 13  # as if killed by SIGPIPE


# A deal such as '---AJ--Q/-----A' starts with '-' like an option. Option names never contain '/'
# and are never made of card symbols alone, so such arguments are deals.
_CARDS_ONLY = re.compile(r"[-0-9tjqkax ]+", re.IGNORECASE)


def _protect_deals(argv):
    """Prefix deal-like arguments with a space (ignored by the parser of deals) so argparse does not
    take them for options."""
    def deal_like(a: str) -> bool:
        return a.startswith("-") and a != "--" and ("/" in a or (len(a) > 1 and _CARDS_ONLY.fullmatch(a) is not None))
    return [" " + a if deal_like(a) else a for a in argv]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if sys.stderr is None:  # started with 2>&-: what would be said there is dropped, never mixed into the output
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process
    # the top-level parser has no options but -h: the first other argument names the sub-command
    first = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(first if first in COMMANDS else "")
    try:
        args = parser.parse_args(_protect_deals(argv))
    except SystemExit as exc:  # --help (0) or a usage error (2, already printed)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if sys.stdout is None:  # started with >&-: every line would be lost, and the final flush failed
        print(f"beggarstats {args.command}: error: standard output is closed (>&-), so nothing could be printed: "
              f"redirect it to a file, or to /dev/null to discard it", file=sys.stderr)
        return 2
    try:
        code = int(args._run(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except (ValueError, OSError) as exc:  # DealError is a ValueError; messages name the culprit
        print(f"beggarstats {args.command}: error: {flag_message(str(exc), args._parser)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"beggarstats {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
