"""The `beggarstats` command line: one module per sub-command.

Each sub-command module has ``add_parser(subparsers)`` and ``run(args) -> int``. Bad input (a bad
deal, an out-of-range option) is one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys

__all__ = ["main", "COMMANDS"]

# Sub-command modules, in the order `beggarstats --help` lists them.
COMMANDS = ("play", "records", "simulate", "summarize", "matches", "figures")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: usage line + message, exit 2
        self.print_usage(sys.stderr)
        self.exit(2, f"beggarstats: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="beggarstats", description="The Monte Carlo laboratory for Beggar-My-Neighbour.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        try:
            module = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            continue  # a sub-command still being written
        sub_parser = module.add_parser(sub)
        sub_parser.set_defaults(_run=module.run)
    return parser


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
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(_protect_deals(argv))
    try:
        return int(args._run(args) or 0)
    except (ValueError, OSError) as exc:  # DealError is a ValueError; messages name the culprit
        print(f"beggarstats {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"beggarstats {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
