"""Write the golden trick-by-trick traces of the two published games (docs/RULES.md, section 10).

Run from the repository root after a change that is meant to change how these games are played
(a new RULES_VERSION); the conformance suite (tests/engine/test_conformance.py) then holds every engine
to the files trick by trick:

    python tests/data/golden/regenerate.py

Each file is a compact CSV: ``#`` lines give the deal and the rules, then one row per trick:
its number (from 1), the seat that led it, the seat that took the pile, the cards played in it,
and every seat's hand size after it. The traces come from the reference engine
(``beggarstats.play(deal, trace=True)``) under the default rules.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

# name -> (deal, source); the deals of docs/RULES.md, "Two published checks"
GAMES = {
    "nessler_2022": ("---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---",
                     "R. Nessler, 2022: the longest known game"),
    "casella_2024": ("---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
                     "B. Casella, 2024: the first known game that never ends"),
}


def trace_text(deal: str, source: str) -> str:
    """The golden file for ``deal``: its header lines and one CSV row per trick."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # the package is used from the checkout, not installed
    import beggarstats as bs

    result = bs.play(deal, trace=True)
    players = len(result.final_hand_sizes)
    lines = [f"# {source}", f"# deal: {deal}", "# rules: the defaults (Rules())",
             ",".join(["trick", "leader", "taker", "cards"] + [f"hand{s}" for s in range(players)])]
    for k, trick in enumerate(result.trace, start=1):
        taker = "" if trick.taker is None else str(trick.taker)
        lines.append(",".join([str(k), str(trick.leader), taker, str(trick.cards)]
                              + [str(n) for n in trick.hand_sizes]))
    return "\n".join(lines) + "\n"


def main() -> None:
    for name, (deal, source) in GAMES.items():
        path = HERE / f"{name}.csv"
        path.write_text(trace_text(deal, source), encoding="utf-8", newline="\n")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
